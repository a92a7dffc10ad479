//! Labels: how objects, places and values are named in menus and logs.

use super::context::Gen;
use super::tokens::substitute_x;
use crate::hir::{ClassId, ClassKind, Ty};
use proc_macro2::TokenStream;
use quote::quote;

impl<'p> Gen<'p> {
    /// A label function per hierarchy, and the labels of objects, moves and answers.
    pub(super) fn labels(&self) -> TokenStream {
        let mut fns = Vec::new();
        let mut arms = Vec::new();
        for h in &self.hierarchies {
            let f = &h.label_fn;
            let tag = h.tag;
            let arena = &h.arena;
            let mut variant_arms = Vec::new();
            for (class, _) in &h.variants {
                let text = self.class_label(*class, h);
                let pattern = self.variant_pattern(h, *class);
                variant_arms.push(quote!(#pattern => #text,));
            }
            let body = if h.kind_enum.is_some() {
                quote!(match self.#arena[id].kind { #(#variant_arms)* })
            } else {
                let only = variant_arms.first().cloned().unwrap_or_default();
                let _ = only;
                let text = h
                    .variants
                    .first()
                    .map(|(c, _)| self.class_label(*c, h))
                    .unwrap_or_else(|| quote!(String::new()));
                quote!(#text)
            };
            let s = &h.strukt;
            fns.push(quote! {
                fn #f(&self, id: rt::Id<#s>) -> String {
                    #body
                }
            });
            arms.push(quote!(#tag => self.#f(rt::Id::from_index(index as usize)),));
        }
        let mut reads_seen = false;
        let move_arms: Vec<TokenStream> = self
            .menu_actions()
            .into_iter()
            .map(|a| {
                let action = self.prog.action(a);
                let v = &self.move_variant[&a];
                let mut fields = Vec::new();
                let mut format = String::new();
                let mut args = Vec::new();
                if !self.is_global(action.owner) {
                    fields.push(quote!(this));
                    let tag = self.hierarchy(action.owner).map_or(0, |h| h.tag);
                    format.push_str("{}: ");
                    args.push(quote!(self.seen_label(seen, #tag, this.index() as u32)));
                }
                format.push_str(&action.name.replace('{', "{{").replace('}', "}}"));
                let leading = self.leading_inputs(a);
                let several = leading.len() > 1;
                for k in leading {
                    let input = &action.inputs[k];
                    let n = &self.input_field[&(a, k)];
                    fields.push(quote!(#n));
                    // A player is written into the move's own format (a `format!` inside
                    // `format!` arguments is what clippy asks to inline).
                    let (value, arg) = if input.ty == Ty::Player && !input.optional {
                        ("player {}", quote!(#n.0))
                    } else {
                        ("{}", self.seen_value_label(quote!(#n), &input.ty, input.optional))
                    };
                    args.push(arg);
                    if several {
                        format.push_str(&format!(" {}={value}", input.name));
                    } else {
                        format.push(' ');
                        format.push_str(value);
                    }
                }
                let pat =
                    if fields.is_empty() { quote!(Move::#v) } else { quote!(Move::#v { #(#fields),* }) };
                let default = if args.is_empty() {
                    quote!(String::from(#format))
                } else {
                    quote!(format!(#format, #(#args),*))
                };
                match self.own_move_label(a) {
                    Some((visible, call)) => {
                        reads_seen = true;
                        quote!(#pat => match (#visible).then(|| #call).flatten() {
                            Some(text) => text,
                            None => #default,
                        },)
                    }
                    None => {
                        reads_seen |= default.to_string().contains("seen_label");
                        quote!(#pat => #default,)
                    }
                }
            })
            .collect();
        // Moves that name no object read nothing of `seen`.
        let names_objects = reads_seen;
        let label_move = match (move_arms.is_empty(), names_objects) {
            (true, _) => quote!({
                let _ = seen;
                match *mv {}
            }),
            (false, true) => quote!(match *mv { #(#move_arms)* }),
            (false, false) => quote!({
                let _ = seen;
                match *mv { #(#move_arms)* }
            }),
        };
        let move_things = self.move_things().0;
        quote! {
            #(#fns)*

            /// A readable name for an object (tag: its arena).
            fn object_label(&self, tag: u32, index: u32) -> String {
                match tag {
                    #(#arms)*
                    _ => format!("object {tag}#{index}"),
                }
            }

            /// A readable name for a move as `seen` may read it: `place Cell(1, 2)`, `steal a
            /// hidden Card` (the objects `seen` may not see in their hidden form).
            fn label_move(&self, mv: &Move, seen: &rt::hidden::Seen) -> String {
                #label_move
            }

            #move_things
        }
    }

    /// For an action whose moves the game writes itself (`label_move`): whether `seen` sees
    /// every object the move names (else its default label stands, which writes them in
    /// their hidden form), and the call of the function on a copy of the world (`None`
    /// when it fails or returns null). The move's fields are bound by the arm.
    fn own_move_label(&self, a: crate::hir::ActionId) -> Option<(TokenStream, TokenStream)> {
        let prog = self.prog;
        let f = crate::facts::action_label_fn(prog, a)?;
        let action = prog.action(a);
        let func = prog.func(f);
        let family = crate::codegen::plan::repr::Owner::Func(self.family_of(f));
        let mut visible = Vec::new();
        let mut params = Vec::new();
        if !self.is_global(action.owner) {
            let tag = self.hierarchy(action.owner).map_or(0, |h| h.tag);
            visible.push(quote!(seen.hides(#tag, this.index() as u32).is_none()));
            params.push(quote!(this));
        }
        for (param, k) in func.inputs.iter().zip(self.leading_inputs(a)) {
            let input = &action.inputs[k];
            let n = &self.input_field[&(a, k)];
            if let Ty::Class(c) = &input.ty {
                let tag = self.hierarchy(*c).map_or(0, |h| h.tag);
                visible.push(if input.optional {
                    quote!(#n.is_none_or(|x| seen.hides(#tag, x.index() as u32).is_none()))
                } else {
                    quote!(seen.hides(#tag, #n.index() as u32).is_none())
                });
            }
            params.push(if self.local_nullable(family, param.local) && !input.optional {
                quote!(Some(#n))
            } else {
                quote!(#n)
            });
        }
        let visible = if visible.is_empty() { quote!(true) } else { quote!(#(#visible)&&*) };
        let name = self.impl_name(f);
        let call = if self.null.ret(f) {
            quote!(self.clone().#name(#(#params),*).ok().flatten().map(|text| text.to_string()))
        } else {
            quote!(self.clone().#name(#(#params),*).ok().map(|text| text.to_string()))
        };
        Some((visible, call))
    }

    /// `World::move_things`: what the moves the game writes itself name, as `seen` may read
    /// them (the object the move belongs to, then its inputs), for a table to point at;
    /// nothing when the game writes no move itself.
    pub(super) fn move_things(&self) -> (TokenStream, TokenStream) {
        let mut arms = Vec::new();
        for a in self.menu_actions() {
            if crate::facts::action_label_fn(self.prog, a).is_none() {
                continue;
            }
            let action = self.prog.action(a);
            let v = &self.move_variant[&a];
            let mut fields = Vec::new();
            let mut things = Vec::new();
            if !self.is_global(action.owner) {
                fields.push(quote!(this));
                let tag = self.hierarchy(action.owner).map_or(0, |h| h.tag);
                things.push(quote!(self.seen_label(seen, #tag, this.index() as u32)));
            }
            for k in self.leading_inputs(a) {
                let input = &action.inputs[k];
                let n = &self.input_field[&(a, k)];
                fields.push(quote!(#n));
                let text = if input.ty == Ty::Player && !input.optional {
                    quote!(format!("player {}", #n.0))
                } else if input.ty == Ty::Bool && !input.optional {
                    quote!(#n.to_string())
                } else {
                    self.seen_value_label(quote!(#n), &input.ty, input.optional)
                };
                things.push(text);
            }
            let pat = if fields.is_empty() { quote!(Move::#v) } else { quote!(Move::#v { #(#fields),* }) };
            arms.push(quote!(#pat => vec![#(#things),*],));
        }
        if arms.is_empty() {
            return (quote!(), quote!());
        }
        let helper = quote! {
            /// What a move the game writes itself names, as `seen` may read it.
            #[allow(unreachable_patterns)]
            fn move_things(&self, mv: &Move, seen: &rt::hidden::Seen) -> Vec<String> {
                match *mv {
                    #(#arms)*
                    _ => Vec::new(),
                }
            }
        };
        let method = quote! {
            fn move_things(&self, mv: &Move, seen: &rt::hidden::Seen) -> Vec<String> {
                World::move_things(self, mv, seen)
            }
        };
        (helper, method)
    }

    /// What tells apart two options that read the same (`R: move Square(0, 3)` for two
    /// rooks): the object a move belongs to, and the tile an object stands on. Helpers of
    /// `World`, and the `Rules` methods calling them (none when no object stands on tiles).
    pub(super) fn places(&self) -> (TokenStream, TokenStream) {
        let prog = self.prog;
        let Some(tiles) = self.hierarchy(prog.builtins.tile) else { return (quote!(), quote!()) };
        let tile_tag = tiles.tag;
        let mut place_arms = Vec::new();
        for h in &self.hierarchies {
            if prog.class(h.root).kind != ClassKind::Interactable {
                continue;
            }
            let (arena, tag) = (&h.arena, h.tag);
            let tile = self.builtin_field(h.root, crate::hir::BuiltinAttr::Tile);
            let discarded = self.builtin_field(h.root, crate::hir::BuiltinAttr::Discarded);
            place_arms.push(quote! {
                #tag => {
                    if index as usize >= self.#arena.len() { return None; }
                    let object = &self.#arena[rt::Id::from_index(index as usize)];
                    if object.#discarded { None } else { object.#tile.map(|t| self.object_label(#tile_tag, t.index() as u32)) }
                }
            });
        }
        if place_arms.is_empty() {
            return (quote!(), quote!());
        }
        let subject_arms: Vec<TokenStream> = self
            .menu_actions()
            .into_iter()
            .filter(|&a| !self.is_global(self.prog.action(a).owner))
            .map(|a| {
                let v = &self.move_variant[&a];
                let tag = self.hierarchy(self.prog.action(a).owner).map_or(0, |h| h.tag);
                quote!(Move::#v { this, .. } => Some((#tag, this.index() as u32)),)
            })
            .collect();
        // An empty `match` would be one clippy asks to replace by its body.
        let subject = if subject_arms.is_empty() {
            quote!({
                let _ = mv;
                None
            })
        } else {
            quote!(match *mv { #(#subject_arms)* _ => None, })
        };
        let place = if place_arms.is_empty() {
            quote!({
                let _ = (tag, index);
                None
            })
        } else {
            quote!(match tag { #(#place_arms)* _ => None, })
        };
        let helpers = quote! {
            /// The object a move belongs to (its `this`).
            #[allow(unreachable_patterns)]
            fn move_subject(&self, mv: &Move) -> Option<(u32, u32)> {
                #subject
            }

            /// The label of the tile an object stands on.
            fn object_place(&self, tag: u32, index: u32) -> Option<String> {
                #place
            }
        };
        let methods = quote! {
            fn move_subject(&self, mv: &Move) -> Option<(u32, u32)> {
                World::move_subject(self, mv)
            }

            fn object_place(&self, tag: u32, index: u32) -> Option<String> {
                World::object_place(self, tag, index)
            }
        };
        (helpers, methods)
    }

    /// The text of a value in the label of a move, as `seen` (bound in the label function)
    /// may read it: an object hidden from it in its hidden form.
    pub(super) fn seen_value_label(&self, v: TokenStream, ty: &Ty, optional: bool) -> TokenStream {
        match ty {
            Ty::Class(c) if self.hierarchy(*c).is_some() => {
                let tag = self.hierarchy(*c).map_or(0, |h| h.tag);
                let inner = quote!(self.seen_label(seen, #tag, x.index() as u32));
                if optional {
                    quote!(match #v { Some(x) => #inner, None => String::from("none") })
                } else {
                    substitute_x(inner, &v)
                }
            }
            _ => self.value_label(v, ty, optional),
        }
    }

    /// The text of a value in a label.
    pub(super) fn value_label(&self, v: TokenStream, ty: &Ty, optional: bool) -> TokenStream {
        if *ty == Ty::Bool && !optional {
            // A bool displays itself in the move's `format!`.
            return v;
        }
        let inner = match ty {
            Ty::Class(c) => match self.hierarchy(*c) {
                Some(h) => {
                    let tag = h.tag;
                    quote!(self.object_label(#tag, x.index() as u32))
                }
                None => {
                    let n = &self.prog.class(*c).name;
                    quote!({ let _ = x; String::from(#n) })
                }
            },
            Ty::Player => quote!(format!("player {}", x.0)),
            Ty::Bool => quote!(x.to_string()),
            _ => quote!({
                let _ = x;
                String::from("?")
            }),
        };
        if optional {
            quote!(match #v { Some(x) => #inner, None => String::from("none") })
        } else {
            // `x` in the templates above stands for the value itself.
            substitute_x(inner, &v)
        }
    }

    /// The label of an object of `class` (inside a label function: `id`, `index` bound).
    /// A game may define `function label { returns string; ... }` on the class; otherwise
    /// tiles show their coordinates and other objects their value attributes.
    pub(super) fn class_label(
        &self,
        class: ClassId,
        h: &crate::codegen::plan::layout::Hierarchy,
    ) -> TokenStream {
        let prog = self.prog;
        let name = &prog.class(class).name;
        // A `name` names the object wherever a menu or a log does.
        if let Some(f) = crate::facts::name_fn(prog, class) {
            let named = self.label_call(f, quote!(id));
            return quote!(#named.unwrap_or_else(|| format!("{}#{}", #name, id.index())));
        }
        // Tiles of grids are named by class and place, unless their `label` names them
        // (rather than drawing what stands on them); tiles made with `new` (in graph
        // groups, where `x` and `y` say little) by their label when they have one.
        let graph_label = label_fn(prog, class).filter(|_| !self.static_tiles.contains_key(&class));
        if let Some(f) = graph_label {
            let label = self.label_call(f, quote!(id));
            return quote!(#label.unwrap_or_else(|| format!("{}#{}", #name, id.index())));
        }
        if prog.class(class).kind == ClassKind::Tile {
            let arena = &h.arena;
            let position = quote!(
                format!("{}({}, {})", #name, rt::value::fmt_number(self.#arena[id].x as f64), rt::value::fmt_number(self.#arena[id].y as f64))
            );
            // A label that names the tile (`Harbor`) names it in menus and logs too.
            if let Some(f) = label_fn(prog, class).filter(|&f| crate::facts::label_names_tile(prog, f)) {
                let label = self.label_call(f, quote!(id));
                return quote!(#label.unwrap_or_else(|| #position));
            }
            return position;
        }
        if let Some(f) = label_fn(prog, class) {
            let label = self.label_call(f, quote!(id));
            return quote!(#label.unwrap_or_else(|| format!("{}#{}", #name, id.index())));
        }
        // A deck shows what everyone can see: its size, and the top of its discards.
        if prog.class(prog.class(class).root).kind == ClassKind::Deck {
            return self.deck_label(class, h);
        }
        let attrs: Vec<crate::hir::AttrId> = prog
            .all_attrs(class)
            .into_iter()
            .filter(|&a| {
                let attr = prog.attr(a);
                attr.builtin.is_none() && attr.ty.is_value() && !attr.secret && !attr.internal
            })
            .take(4)
            .collect();
        if attrs.is_empty() {
            return quote!(format!("{}#{}", #name, id.index()));
        }
        let arena = &h.arena;
        let mut parts = Vec::new();
        for a in attrs {
            let attr = prog.attr(a);
            let field = &self.attr_field[&a];
            let read = if self.attr_on_root(a) {
                let clone = if attr.ty == Ty::String { quote!(.clone()) } else { quote!() };
                quote!(Ok::<_, rt::Stop>(self.#arena[id].#field #clone))
            } else {
                quote!(self.#arena[id].#field())
            };
            let nullable = self.null.attr(prog, a);
            let text = match (&attr.ty, nullable) {
                (Ty::Number, false) => quote!(rt::value::fmt_number(v)),
                (Ty::Number, true) => quote!(v.map_or(String::from("null"), rt::value::fmt_number)),
                (Ty::Player, false) => quote!(v.0),
                (Ty::Player, true) => quote!(v.map_or(String::from("null"), |p| p.0.to_string())),
                (_, false) => quote!(v),
                (_, true) => quote!(v.map_or(String::from("null"), |x| x.to_string())),
            };
            let template = format!("{}: {{}}", attr.name);
            parts.push(quote!(match #read { Ok(v) => format!(#template, #text), Err(_) => String::new() }));
        }
        quote!(format!("{}({})", #name, [#(#parts),*].join(", ")))
    }

    /// `12 cards; discards: 3, 7 of hearts on top` (the draw pile's top stays hidden).
    pub(super) fn deck_label(
        &self,
        class: ClassId,
        h: &crate::codegen::plan::layout::Hierarchy,
    ) -> TokenStream {
        let prog = self.prog;
        let root = prog.class(class).root;
        let arena = &h.arena;
        let Some(elem) = prog.class(root).element.clone() else { return quote!(String::from("deck")) };
        let stacks = self.collection_arena(&Ty::Stack(Box::new(elem.clone())));
        let discard = self.builtin_field(root, crate::hir::BuiltinAttr::DiscardStack);
        let top = match elem {
            Ty::Class(c) => match self.hierarchy(c) {
                Some(eh) => {
                    let tag = eh.tag;
                    quote!(self.object_label(#tag, top.index() as u32))
                }
                None => quote!(String::from("?")),
            },
            _ => quote!(String::from("?")),
        };
        quote!({
            let deck = &self.#arena[id];
            let size = self.#stacks[deck.items].items.len();
            let discards = &self.#stacks[deck.#discard].items;
            match discards.back() {
                Some(&top) => format!("{size} cards; discards: {}, {} on top", discards.len(), #top),
                None => format!("{size} cards; no discards"),
            }
        })
    }
}

impl Gen<'_> {
    /// A call of a `label` function on `id`, as `Option<String>` (none when it fails or
    /// returns null). Label functions may do anything a function may (even change the
    /// state), so they run on a copy of the world.
    pub(super) fn label_call(&self, f: crate::hir::FuncId, id: TokenStream) -> TokenStream {
        let n = &self.func_name[&f];
        if self.null.ret(f) {
            quote!(self.clone().#n(#id).ok().flatten().map(|text| text.to_string()))
        } else {
            quote!(self.clone().#n(#id).ok().map(|text| text.to_string()))
        }
    }
}

/// A game's `function label { returns string; ... }` for a class (or a base), if any.
pub(super) fn label_fn(prog: &crate::hir::Program, class: ClassId) -> Option<crate::hir::FuncId> {
    crate::facts::label_fn(prog, class)
}
