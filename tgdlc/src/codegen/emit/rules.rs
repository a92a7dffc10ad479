//! The game as the runtime sees it: creating globals and boards, `setup`, turns, labels
//! for people, the view, and the `rt::Rules` implementation tying it all together.

use super::context::Gen;
use super::context::{BodyGen, Ret, This};
use crate::codegen::plan::repr::Owner;
use crate::hir::{ClassId, ClassKind, Geometry, Ty};
use proc_macro2::TokenStream;
use quote::quote;

impl<'p> Gen<'p> {
    pub(super) fn rules_impl(&self) -> TokenStream {
        let prog = self.prog;
        let turn_names: Vec<&String> = prog.turns.iter().map(|t| &t.name).collect();
        let n_turns = turn_names.len();
        let turn_locs: Vec<TokenStream> = prog
            .turns
            .iter()
            .map(|t| {
                // A turn the game does not declare has no place in the source: an empty
                // first menu is then reported at `setup`, after which nobody could move.
                let span = if t.span == crate::source::Span::default() { prog.setup.span } else { t.span };
                let (l, c) = self.line_col(span);
                let l = l.max(1);
                let c = c.max(1);
                if span.file.0 == 0 {
                    quote!(loc(#l, #c))
                } else {
                    let f = span.file.0 as usize;
                    quote!(loc_in(#f, #l, #c))
                }
            })
            .collect();
        let pass_arms: Vec<TokenStream> = prog
            .turns
            .iter()
            .enumerate()
            .map(|(i, t)| match t.default {
                Some(f) => {
                    let n = &self.func_name[&f];
                    quote!(#i => self.#n()?,)
                }
                None => quote!(#i => self.core.wrap_player(self.core.active.number() + 1.0),),
            })
            .collect();
        let (mut passes, mut uses) = (false, false);
        prog.walk_exprs(&mut |e| match &e.kind {
            crate::hir::ExprKind::Builtin { op: crate::hir::Builtin::TurnPass, args } => {
                passes |= args.is_empty()
            }
            crate::hir::ExprKind::Builtin { op: crate::hir::Builtin::TurnsUse, .. } => uses = true,
            _ => {}
        });
        let pass_turn = if passes {
            quote! {
                /// `turn.pass()`: the active turn's `default` names the next player.
                fn pass_turn(&mut self) -> rt::Flow<()> {
                    let next = match self.core.turn {
                        #(#pass_arms)*
                        _ => self.core.wrap_player(self.core.active.number() + 1.0),
                    };
                    self.core.active = next;
                    Ok(())
                }
            }
        } else {
            quote!()
        };
        let use_turn = if uses {
            quote! {
                /// `turns.use(name, phase)`: switches turn definitions, keeping the active player.
                fn use_turn(&mut self, name: &str, phase: Option<rt::Str>, at: rt::Loc) -> rt::Flow<()> {
                    match TURN_NAMES.iter().position(|t| *t == name) {
                        Some(i) => self.core.turn = i,
                        None => return rt::error::fail(at, format!("there is no turn named `{name}`")),
                    }
                    if let Some(phase) = phase {
                        self.core.phase = phase;
                    }
                    Ok(())
                }
            }
        } else {
            quote!()
        };
        let create = self.create_globals();
        let setup = self.setup_fn();
        let labels = self.labels();
        let (places, place_methods) = self.places();
        let view = self.view_fn();
        let (seen_label, resample) = self.hidden_info();
        let hidden = self.may_hide();
        let info_name = &prog.name;
        let source = prog.files.first().cloned().unwrap_or_default();
        let (min, max) = (prog.min_players, prog.max_players);
        let setup_may_ask = self.setup_may_ask();
        let may_ask_arms: Vec<TokenStream> = self
            .menu_actions()
            .into_iter()
            .map(|a| {
                let v = &self.move_variant[&a];
                let b = self.action_may_ask(a, true);
                if self.move_has_fields(a) { quote!(Move::#v { .. } => #b,) } else { quote!(Move::#v => #b,) }
            })
            .collect();
        let may_ask = if may_ask_arms.is_empty() {
            quote!(match *mv {})
        } else {
            quote!(match mv { #(#may_ask_arms)* })
        };
        let drain = if self.has_queue() { quote!(self.drain()?;) } else { quote!() };
        let menu_body = if self.menu_allocates() {
            quote! {
                // Menus are built speculatively: collections the filters create are dropped.
                let marks = self.marks();
                let result = self.build_menu(out);
                self.truncate_to(marks);
                result
            }
        } else {
            quote!(self.build_menu(out))
        };
        // Menus kept up to date between moves (`kept`): their filters create nothing.
        let (keeps_menu, update_menu) = if self.kept.is_empty() {
            (quote!(), quote!())
        } else {
            debug_assert!(!self.menu_allocates(), "kept filters read only their tile");
            (
                quote!(
                    const KEEPS_MENU: bool = true;
                ),
                quote! {
                    fn update_menu(&mut self, out: &mut Vec<rt::Choice<Move>>) -> rt::Flow<()> {
                        self.keep_menu(out)
                    }
                },
            )
        };
        let mut names_used = uses;
        prog.walk_exprs(&mut |e| {
            names_used |=
                matches!(e.kind, crate::hir::ExprKind::Builtin { op: crate::hir::Builtin::TurnCurrent, .. })
        });
        let turn_names = if names_used {
            quote! {
                /// Names of the `turn` definitions, in declaration order.
                const TURN_NAMES: [&str; #n_turns] = [#(#turn_names),*];
            }
        } else {
            quote!()
        };
        quote! {
            #turn_names

            // A game may store a value it never reads again; that is not an error.
            // Conditions are written as the game's author wrote them (`dx < -1 || dx > 1`).
            #[allow(unused_assignments, clippy::manual_range_contains)]
            impl World {
                #create
                #setup

                #pass_turn
                #use_turn

                #labels
                #places
                #view
                #seen_label
            }

            #resample

            impl rt::Rules for World {
                type Move = Move;

                const SETUP_MAY_ASK: bool = #setup_may_ask;
                const HIDDEN: bool = #hidden;
                #keeps_menu

                fn info() -> rt::GameInfo {
                    rt::GameInfo { name: #info_name, source: #source, min_players: #min, max_players: #max }
                }

                fn new(core: rt::Core) -> Self {
                    World::new(core)
                }

                fn reset(&mut self, core: rt::Core) {
                    World::reset(self, core)
                }

                fn copy_from(&mut self, other: &Self) {
                    World::copy_from(self, other)
                }

                fn core(&self) -> &rt::Core {
                    &self.core
                }

                fn core_mut(&mut self) -> &mut rt::Core {
                    &mut self.core
                }

                fn setup(&mut self) -> rt::Flow<()> {
                    self.create_globals()?;
                    self.run_setup()?;
                    #drain
                    Ok(())
                }

                fn play(&mut self, mv: Move) -> rt::Flow<()> {
                    self.play_move(mv)
                }

                fn may_ask(mv: &Move) -> bool {
                    #may_ask
                }

                fn menu(&mut self, out: &mut Vec<rt::Choice<Move>>) -> rt::Flow<()> {
                    #menu_body
                }

                #update_menu

                fn turn_location(&self) -> rt::Loc {
                    const TURN_LOCATIONS: [rt::Loc; #n_turns] = [#(#turn_locs),*];
                    TURN_LOCATIONS.get(self.core.turn).copied().unwrap_or(TURN_LOCATIONS[0])
                }

                fn move_label(&self, mv: &Move) -> String {
                    self.label_move(mv)
                }

                fn pick_label(&self, pick: &rt::Pick) -> String {
                    match *pick {
                        rt::Pick::Object(tag, index) => self.object_label(tag, index),
                        rt::Pick::Player(p) => format!("player {p}"),
                        rt::Pick::Bool(b) => b.to_string(),
                        rt::Pick::Number(bits) => rt::value::fmt_number(f64::from_bits(bits)),
                        rt::Pick::Null => String::from("none"),
                        rt::Pick::Done => String::from("done"),
                    }
                }

                fn observe(&self, seen: &rt::hidden::Seen) -> rt::view::View {
                    self.game_view(seen)
                }

                #place_methods
            }
        }
    }

    /// Whether building the menu may create collections (in the triggers, requires and
    /// filters of menu actions, or the functions they call): they are then dropped after.
    pub(super) fn menu_allocates(&self) -> bool {
        use crate::hir::{Builtin, ExprKind};
        let allocates = |e: &crate::hir::Expr| match &e.kind {
            ExprKind::ListLit(_) | ExprKind::StackLit(_) | ExprKind::TableLit(_) => true,
            ExprKind::Builtin { op, .. } => {
                matches!(
                    op,
                    Builtin::PlayerAll
                        | Builtin::ListCopy
                        | Builtin::ListCast
                        | Builtin::TableKeys
                        | Builtin::StackClone
                        | Builtin::TableCopy
                )
            }
            ExprKind::Attr { attr, .. } => {
                self.prog.attr(*attr).builtin == Some(crate::hir::BuiltinAttr::Groups)
            }
            _ => false,
        };
        let mut seen = std::collections::HashSet::new();
        let mut work: Vec<crate::hir::Block> = Vec::new();
        for a in self.menu_actions() {
            let action = self.prog.action(a);
            work.extend(action.triggers.iter().filter_map(|t| t.body.clone()));
            work.extend(action.requires.iter().cloned());
            work.extend(action.inputs.iter().flat_map(|i| i.filters.iter().map(|f| f.body.clone())));
            // An input's `in` list is evaluated by the menu too (a list literal allocates).
            work.extend(action.inputs.iter().filter_map(|i| i.domain.as_ref()).map(|d| crate::hir::Block {
                stmts: vec![crate::hir::Stmt { kind: crate::hir::StmtKind::Expr(d.clone()), span: d.span }],
            }));
        }
        while let Some(b) = work.pop() {
            let mut found = false;
            let mut calls = Vec::new();
            b.walk_exprs(&mut |e| {
                found |= allocates(e);
                if let ExprKind::Call { func, .. } = &e.kind {
                    calls.push(*func);
                }
            });
            if found {
                return true;
            }
            for f in calls {
                for g in std::iter::once(f).chain(self.overriders(f)) {
                    if seen.insert(g) {
                        work.push(self.prog.func(g).body.clone());
                    }
                }
            }
        }
        false
    }

    /// `link_name`: how a graph listing shows a connection — its `label` when its class
    /// has one (a road's length, say), else the name of the tile it leads to.
    fn link_name_fn(&self) -> TokenStream {
        let prog = self.prog;
        let h = self.hierarchy(prog.builtins.connection).expect("graph groups have connections");
        let ca = &h.arena;
        let arms: Vec<(TokenStream, TokenStream)> = h
            .variants
            .iter()
            .filter_map(|(class, _)| {
                let f = label_fn(prog, *class)?;
                let pattern = self.variant_pattern(h, *class);
                let label = self.label_call(f, quote!(c));
                Some((pattern, quote!(#label.unwrap_or_else(|| self.node_name(seen, to)))))
            })
            .collect();
        let by_label = match arms.as_slice() {
            [] => quote!(self.node_name(seen, to)),
            [(_, body)] if h.variants.len() == 1 => body.clone(),
            _ => {
                let arms = arms.iter().map(|(p, b)| quote!(#p => #b,));
                quote!(#[allow(unreachable_patterns)] match self.#ca[c].kind { #(#arms)* _ => self.node_name(seen, to) })
            }
        };
        let c = if arms.is_empty() { quote!(_c) } else { quote!(c) };
        quote! {
            /// How a graph listing shows a connection leading to `to`.
            fn link_name(&self, seen: &rt::hidden::Seen, #c: rt::Id<Connection>, to: rt::Id<Tile>) -> String {
                #by_label
            }
        }
    }

    fn has_graph_groups(&self) -> bool {
        self.prog.classes.iter().any(|c| c.groups.iter().any(|g| g.geometry == Geometry::Graph))
    }

    /// Global classes and boards, in dependency order: attribute initialisers, tile
    /// initialisers, group `default` blocks.
    fn create_globals(&self) -> TokenStream {
        let mut steps = Vec::new();
        for &c in &self.prog.globals {
            let class = self.prog.class(c);
            if class.kind == ClassKind::Board {
                if self.has_initialisers(c) {
                    let f = self.init_fn_name(c);
                    steps.push(quote!(self.#f()?;));
                }
                for (g, group) in class.groups.iter().enumerate() {
                    let constant = self.group_const(c, g);
                    let tile_inits = self.tile_inits(constant.clone());
                    steps.push(tile_inits);
                    if let Some(d) = group.default {
                        let n = &self.func_name[&d];
                        steps.push(quote!(self.#n(#constant)?;));
                    }
                }
            } else if self.has_initialisers(c) {
                let f = self.init_fn_name(c);
                steps.push(quote!(self.#f()?;));
            }
        }
        // Tile initialisers write attributes directly: the owner indexes are built again.
        let owners = self.rebuild_owners(quote!(self));
        quote! {
            /// Creates the global classes and boards (before `setup`).
            fn create_globals(&mut self) -> rt::Flow<()> {
                #(#steps)*
                #owners
                Ok(())
            }
        }
    }

    /// Runs the attribute initialisers of every tile of a group.
    fn tile_inits(&self, group: proc_macro2::Ident) -> TokenStream {
        let Some(h) = self.hierarchy(self.prog.builtins.tile) else { return quote!() };
        let inits: Vec<(TokenStream, proc_macro2::Ident)> = h
            .variants
            .iter()
            .filter(|(c, _)| self.has_initialisers(*c))
            .map(|(c, _)| (self.variant_pattern(h, *c), self.init_fn_name(*c)))
            .collect();
        if inits.is_empty() {
            return quote!();
        }
        let ta = &h.arena;
        let dispatch = if inits.len() == 1 && h.variants.len() > 1 {
            let (pattern, f) = &inits[0];
            quote!(if matches!(self.#ta[tile].kind, #pattern) { self.#f(tile)?; })
        } else if h.variants.len() == 1 {
            let (_, f) = &inits[0];
            quote!(self.#f(tile)?;)
        } else {
            let arms = inits.iter().map(|(p, f)| quote!(#p => self.#f(tile)?,));
            quote!(#[allow(unreachable_patterns)] match self.#ta[tile].kind { #(#arms)* _ => {} })
        };
        quote! {
            let cells = self.groups[#group].cells.clone();
            for tile in cells.iter().flatten().copied() {
                #dispatch
            }
        }
    }

    fn setup_fn(&self) -> TokenStream {
        let s = &self.prog.setup;
        let mut b = BodyGen::new(self, Owner::Setup, &s.locals, &[&s.body], This::None, Ret::Unit);
        let (body, ends) = b.body(&s.body, &s.locals);
        let done = if ends { quote!() } else { quote!(Ok(())) };
        quote! {
            /// The `setup` block.
            fn run_setup(&mut self) -> rt::Flow<()> {
                #body
                #done
            }
        }
    }

    /// A label function per hierarchy, and the labels of objects, moves and answers.
    fn labels(&self) -> TokenStream {
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
                    args.push(quote!(self.object_label(#tag, this.index() as u32)));
                }
                format.push_str(&action.name.replace('{', "{{").replace('}', "}}"));
                let leading = self.leading_inputs(a);
                let several = leading.len() > 1;
                for k in leading {
                    let input = &action.inputs[k];
                    let n = &self.input_field[&(a, k)];
                    fields.push(quote!(#n));
                    args.push(self.value_label(quote!(#n), &input.ty, input.optional));
                    if several {
                        format.push_str(&format!(" {}={{}}", input.name));
                    } else {
                        format.push_str(" {}");
                    }
                }
                let pat =
                    if fields.is_empty() { quote!(Move::#v) } else { quote!(Move::#v { #(#fields),* }) };
                if args.is_empty() {
                    quote!(#pat => String::from(#format),)
                } else {
                    quote!(#pat => format!(#format, #(#args),*),)
                }
            })
            .collect();
        let label_move =
            if move_arms.is_empty() { quote!(match *mv {}) } else { quote!(match *mv { #(#move_arms)* }) };
        quote! {
            #(#fns)*

            /// A readable name for an object (tag: its arena).
            fn object_label(&self, tag: u32, index: u32) -> String {
                match tag {
                    #(#arms)*
                    _ => format!("object {tag}#{index}"),
                }
            }

            /// A readable name for a move: `place Cell(1, 2)`.
            fn label_move(&self, mv: &Move) -> String {
                #label_move
            }
        }
    }

    /// What tells apart two options that read the same (`R: move Square(0, 3)` for two
    /// rooks): the object a move belongs to, and the tile an object stands on. Helpers of
    /// `World`, and the `Rules` methods calling them (none when no object stands on tiles).
    fn places(&self) -> (TokenStream, TokenStream) {
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

    /// The text of a value in a label.
    fn value_label(&self, v: TokenStream, ty: &Ty, optional: bool) -> TokenStream {
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
    fn class_label(&self, class: ClassId, h: &crate::codegen::plan::layout::Hierarchy) -> TokenStream {
        let prog = self.prog;
        let name = &prog.class(class).name;
        // Tiles are named by position (their `label` draws the board instead).
        // Tiles of grids are named by class and place; tiles made with `new` (in graph
        // groups, where `x` and `y` say little) by their label when they have one.
        let graph_label = label_fn(prog, class).filter(|_| !self.static_tiles.contains_key(&class));
        if let Some(f) = graph_label {
            let label = self.label_call(f, quote!(id));
            return quote!(#label.unwrap_or_else(|| format!("{}#{}", #name, id.index())));
        }
        if prog.class(class).kind == ClassKind::Tile {
            let arena = &h.arena;
            return quote!(
                format!("{}({}, {})", #name, rt::value::fmt_number(self.#arena[id].x as f64), rt::value::fmt_number(self.#arena[id].y as f64))
            );
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
            .filter(|&a| prog.attr(a).builtin.is_none() && prog.attr(a).ty.is_value() && !prog.attr(a).secret)
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
    fn deck_label(&self, class: ClassId, h: &crate::codegen::plan::layout::Hierarchy) -> TokenStream {
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

    /// What a player sees: board groups as grids, global classes' attributes, the active
    /// player's hand.
    fn view_fn(&self) -> TokenStream {
        let prog = self.prog;
        let mut sections = Vec::new();
        for ((board, g), constant) in &self.group_consts {
            let group = &prog.class(*board).groups[*g];
            let title = format!("{}.{}", prog.class(*board).name, group.name);
            let layout = match group.geometry {
                Geometry::Square => quote!(rt::view::GridLayout::Square),
                Geometry::HexRows => quote!(rt::view::GridLayout::HexRows),
                Geometry::HexColumns => quote!(rt::view::GridLayout::HexColumns),
                Geometry::Graph => quote!(rt::view::GridLayout::Square),
            };
            if group.geometry == Geometry::Graph {
                let la = self.collection_arena(&Ty::List(Box::new(Ty::Class(prog.builtins.tile))));
                let conns = self.collection_arena(&Ty::List(Box::new(Ty::Class(prog.builtins.connection))));
                let ca = &self.hierarchy(prog.builtins.connection).expect("tiles").arena;
                let ta = &self.hierarchy(prog.builtins.tile).expect("tiles").arena;
                let to = self.builtin_field(prog.builtins.connection, crate::hir::BuiltinAttr::To);
                let items = if self.tile_lists_nullable() {
                    quote!(.into_iter().flatten())
                } else {
                    quote!(.into_iter())
                };
                sections.push(quote!({
                    let tiles = self.groups[#constant].tiles.map(|list| self.#la[list].items.clone()).unwrap_or_default();
                    let nodes = tiles
                        #items
                        .map(|t| {
                            let links = self.#conns[self.#ta[t].connections]
                                .items
                                .iter()
                                .filter_map(|&c| self.#ca[c].#to.map(|n| self.link_name(seen, c, n)))
                                .collect();
                            let pieces = self.pieces_on(t);
                            let node = if pieces.is_empty() {
                                self.node_name(seen, t)
                            } else {
                                format!("{} [{}]", self.node_name(seen, t), pieces.join(", "))
                            };
                            (node, links)
                        })
                        .collect();
                    rt::view::Section::Graph { title: String::from(#title), nodes }
                }));
            } else {
                sections.push(quote!({
                    let group = &self.groups[#constant];
                    let cells = (0..group.rows)
                        .map(|row| (0..group.columns).map(|column| group.cells[row * group.columns + column].map(|t| self.tile_text(seen, t))).collect())
                        .collect();
                    rt::view::Section::Grid { title: String::from(#title), layout: #layout, cells }
                }));
            }
        }
        for (&c, (_, field)) in &self.globals {
            let class = prog.class(c);
            if class.kind == ClassKind::Board {
                continue;
            }
            let items: Vec<TokenStream> = class
                .attrs
                .iter()
                // Secret values are shown apart, to those who may see them (`secrets`).
                .filter(|&&a| prog.attr(a).builtin.is_none() && !prog.attr(a).secret)
                .map(|&a| {
                    let attr = prog.attr(a);
                    let f = &self.attr_field[&a];
                    let n = &attr.name;
                    let text = self.value_text(
                        if attr.ty == Ty::String {
                            quote!(self.#field.#f.clone())
                        } else {
                            quote!(self.#field.#f)
                        },
                        &attr.ty,
                        self.null.attr(prog, a),
                    );
                    quote!((String::from(#n), #text))
                })
                .collect();
            if items.is_empty() {
                continue;
            }
            let title = &class.name;
            sections.push(quote!(rt::view::Section::Attributes { title: String::from(#title), items: Vec::from([#(#items),*]) }));
        }
        let tile_text = self.tile_text_fn();
        let name = &prog.name;
        // `Vec::from([..])` rather than `vec![..]`: prettyplease formats the elements.
        let sections_decl = quote!(let sections: Vec<rt::view::Section> = Vec::from([#(#sections),*]););
        let seen = seen_param(&sections_decl);
        quote! {
            /// The board and the global classes, as `seen` may see them: objects hidden
            /// from it show as `a hidden Card`, secret attributes not at all (the
            /// engine adds the hands, and the secrets the viewer may see).
            fn game_view(&self, #seen: &rt::hidden::Seen) -> rt::view::View {
                #sections_decl
                rt::view::View {
                    title: String::from(#name),
                    active: Some(self.core.active.0),
                    phase: self.core.phase.to_string(),
                    sections,
                }
            }

            #tile_text
        }
    }

    /// The text of a value for the view (`&self` only: objects by label, lists by length).
    fn value_text(&self, v: TokenStream, ty: &Ty, nullable: bool) -> TokenStream {
        let inner = match ty {
            Ty::Number => quote!(rt::value::fmt_number(x)),
            Ty::Player => quote!(format!("player {}", x.0)),
            Ty::String | Ty::Bool => quote!(x.to_string()),
            // An object the viewer may not see shows as `a hidden Card`.
            Ty::Class(c) => match self.hierarchy(*c) {
                Some(h) => {
                    let tag = h.tag;
                    quote!(self.seen_label(seen, #tag, x.index() as u32))
                }
                None => {
                    let n = &self.prog.class(*c).name;
                    quote!({ let _ = x; String::from(#n) })
                }
            },
            // Collections show their elements (the first twelve).
            Ty::List(elem) | Ty::Stack(elem) => {
                let arena = self.collection_arena(ty);
                let elem_null = self.null.elem(self.prog, ty);
                let item = self.value_text(quote!(item), elem, elem_null);
                // Strings are read through a reference; the other items are `Copy`.
                let binding = if **elem == Ty::String { quote!(item) } else { quote!(&item) };
                quote!({
                    let mut items: Vec<String> = Vec::new();
                    for #binding in self.#arena[x].items.iter().take(12) {
                        items.push(#item);
                    }
                    let more = if self.#arena[x].items.len() > 12 { ", ..." } else { "" };
                    format!("[{}{}]", items.join(", "), more)
                })
            }
            Ty::Table(elem, _) => {
                let arena = self.collection_arena(ty);
                // Strings are read through the reference; the other items are `Copy`.
                let read = if **elem == Ty::String { quote!(item) } else { quote!(*item) };
                let item = self.value_text(read, elem, false);
                quote!({
                    let items: Vec<String> = self.#arena[x].entries.iter().take(12).map(|(key, item)| {
                        format!("{}: {}", key.describe(), #item)
                    }).collect();
                    format!("{{{}}}", items.join(", "))
                })
            }
            _ => quote!({
                let _ = x;
                String::from("?")
            }),
        };
        if nullable {
            quote!(match #v { Some(x) => #inner, None => String::from("-") })
        } else {
            substitute_x(inner, &v)
        }
    }

    /// `tile_text`: what a cell shows — the pieces on it, else the tile's `label`, else
    /// its first attribute that holds a value, else `.`; and for graph listings the
    /// name of a tile and the pieces on it apart.
    fn tile_text_fn(&self) -> TokenStream {
        if !self.uses_tiles {
            return quote!();
        }
        let prog = self.prog;
        let h = self.hierarchy(prog.builtins.tile).expect("tiles");
        let tile_tag = h.tag;
        let ta = &h.arena;
        let mut arms = Vec::new();
        for (class, _) in &h.variants {
            let pattern = self.variant_pattern(h, *class);
            if let Some(f) = label_fn(prog, *class) {
                let label = self.label_call(f, quote!(t));
                arms.push((pattern, label));
                continue;
            }
            let attrs: Vec<crate::hir::AttrId> = self
                .variant_attrs(h.root, *class)
                .into_iter()
                .filter(|&a| prog.attr(a).ty.is_value() && !prog.attr(a).secret)
                .collect();
            let mut tries = Vec::new();
            for a in attrs {
                let f = &self.attr_field[&a];
                let text = self.value_text(quote!(x), &prog.attr(a).ty, false);
                if self.null.attr(prog, a) {
                    tries.push(quote!(if let Ok(Some(x)) = self.#ta[t].#f() { return Some(#text); }));
                } else {
                    tries.push(quote!(if let Ok(x) = self.#ta[t].#f() { return Some(#text); }));
                }
            }
            if !tries.is_empty() {
                arms.push((pattern, quote!({ #(#tries)* None })));
            }
        }
        // Pieces standing on the tile.
        let mut pieces = Vec::new();
        for ph in &self.hierarchies {
            if prog.class(ph.root).kind != ClassKind::Interactable {
                continue;
            }
            let pa = &ph.arena;
            let tile = self.builtin_field(ph.root, crate::hir::BuiltinAttr::Tile);
            let discarded = self.builtin_field(ph.root, crate::hir::BuiltinAttr::Discarded);
            let tag = ph.tag;
            pieces.push(quote! {
                for (id, piece) in self.#pa.iter() {
                    if piece.#tile == Some(t) && !piece.#discarded {
                        on.push(self.object_label(#tag, id.index() as u32));
                    }
                }
            });
        }
        // One arm per tile class, each an `Option<String>`.
        let kinds = match arms.as_slice() {
            [] => quote!(None),
            // The only tile class: no test needed.
            [(_, body)] if h.variants.len() == 1 => quote!(#body),
            _ => {
                let arms = arms.iter().map(|(p, b)| quote!(#p => #b,));
                quote!(#[allow(unreachable_patterns)] match self.#ta[t].kind { #(#arms)* _ => None })
            }
        };
        let (on, pieces_on) = if pieces.is_empty() {
            (quote!(), quote!())
        } else {
            (
                quote! {
                    let pieces = self.pieces_on(t);
                    if !pieces.is_empty() {
                        return pieces.join(" ");
                    }
                },
                quote! {
                    /// The pieces standing on a tile (not discarded), by label.
                    fn pieces_on(&self, t: rt::Id<Tile>) -> Vec<String> {
                        let mut on: Vec<String> = Vec::new();
                        #(#pieces)*
                        on
                    }
                },
            )
        };
        let graph_fns = if self.has_graph_groups() {
            let pieces_on = if on.is_empty() {
                quote! {
                    /// No piece class: nothing stands on tiles.
                    fn pieces_on(&self, _t: rt::Id<Tile>) -> Vec<String> {
                        Vec::new()
                    }
                }
            } else {
                quote!()
            };
            let link_name = self.link_name_fn();
            quote! {
                /// How a graph listing names a tile: its label, else its class and number.
                fn node_name(&self, seen: &rt::hidden::Seen, t: rt::Id<Tile>) -> String {
                    self.tile_name(seen, t).unwrap_or_else(|| self.object_label(#tile_tag, t.index() as u32))
                }
                #link_name
                #pieces_on
            }
        } else {
            quote!()
        };
        let has_grids = prog.classes.iter().any(|c| c.groups.iter().any(|g| g.geometry != Geometry::Graph));
        let tile_text = if has_grids {
            quote! {
                /// What the cell of a tile shows: the pieces on it, else the tile's name.
                fn tile_text(&self, seen: &rt::hidden::Seen, t: rt::Id<Tile>) -> String {
                    #on
                    self.tile_name(seen, t).unwrap_or_else(|| String::from("."))
                }
            }
        } else {
            quote!()
        };
        let t = if arms.is_empty() { quote!(_t) } else { quote!(t) };
        let seen = seen_param(&kinds);
        quote! {
            #tile_text

            /// A tile's `label`, else its first attribute with a value.
            fn tile_name(&self, #seen: &rt::hidden::Seen, #t: rt::Id<Tile>) -> Option<String> {
                #kinds
            }
            #pieces_on
            #graph_fns
        }
    }
}

impl Gen<'_> {
    /// A call of a `label` function on `id`, as `Option<String>` (none when it fails or
    /// returns null). Label functions may do anything a function may (even change the
    /// state), so they run on a copy of the world.
    fn label_call(&self, f: crate::hir::FuncId, id: TokenStream) -> TokenStream {
        let n = &self.func_name[&f];
        if self.null.ret(f) {
            quote!(self.clone().#n(#id).ok().flatten().map(|text| text.to_string()))
        } else {
            quote!(self.clone().#n(#id).ok().map(|text| text.to_string()))
        }
    }
}

/// A game's `function label { returns string; ... }` for a class (or a base), if any.
fn label_fn(prog: &crate::hir::Program, class: ClassId) -> Option<crate::hir::FuncId> {
    let mut cur = Some(class);
    while let Some(c) = cur {
        if let Some(&f) = prog.class(c).funcs.iter().find(|&&f| {
            let func = prog.func(f);
            func.name == "label" && func.ret == Ty::String && func.inputs.is_empty()
        }) {
            return Some(f);
        }
        cur = prog.class(c).base;
    }
    None
}

/// `seen` as the parameter of a generated view function, `_seen` where its body does not
/// read it (a game with nothing to hide there).
fn seen_param(body: &TokenStream) -> TokenStream {
    if reads_seen(body) { quote!(seen) } else { quote!(_seen) }
}

/// Whether `seen` appears as a variable (not as a field: `self.ledger.seen`).
fn reads_seen(body: &TokenStream) -> bool {
    let mut after_dot = false;
    body.clone().into_iter().any(|tt| {
        let found = match &tt {
            proc_macro2::TokenTree::Ident(i) => i == "seen" && !after_dot,
            proc_macro2::TokenTree::Group(g) => reads_seen(&g.stream()),
            _ => false,
        };
        after_dot = matches!(&tt, proc_macro2::TokenTree::Punct(p) if p.as_char() == '.');
        found
    })
}

/// Replaces the identifier `x` in a label template by the value's expression.
fn substitute_x(template: TokenStream, value: &TokenStream) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    template
        .into_iter()
        .flat_map(|tt| -> Vec<TokenTree> {
            match tt {
                // A lone identifier needs no grouping (and prints better without it).
                TokenTree::Ident(i) if i == "x" && value.clone().into_iter().count() == 1 => {
                    value.clone().into_iter().collect()
                }
                TokenTree::Ident(i) if i == "x" => super::tokens::group(value.clone()).into_iter().collect(),
                TokenTree::Group(g) => {
                    let mut inner = Group::new(g.delimiter(), substitute_x(g.stream(), value));
                    inner.set_span(g.span());
                    vec![TokenTree::Group(inner)]
                }
                other => vec![other],
            }
        })
        .collect()
}
