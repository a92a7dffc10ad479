//! Hidden information (docs/hidden-information.md): the census of objects that can be hidden (cards in
//! closed stacks, pieces and cards in hands), putting an object in another's place (for
//! determinization), the `secret` values, and the labels a viewer may see. Which viewer
//! sees what, observations and determinization itself are generic, in
//! `tgdl_runtime::hidden`.

use super::context::Gen;
use crate::codegen::plan::layout::Hierarchy;
use crate::hir::{AttrId, BuiltinAttr, ClassId, ClassKind, Ty};
use proc_macro2::TokenStream;
use quote::quote;

/// A deck hierarchy and the hierarchy of what its stacks hold.
struct DeckOf<'g> {
    deck: &'g Hierarchy,
    element: &'g Hierarchy,
    elem_ty: Ty,
}

impl Gen<'_> {
    /// Whether `class` (or a base) has the built-in attribute `b`.
    pub(super) fn has_builtin(&self, class: ClassId, b: BuiltinAttr) -> bool {
        let mut cur = Some(class);
        while let Some(c) = cur {
            if self.prog.class(c).attrs.iter().any(|&a| self.prog.attr(a).builtin == Some(b)) {
                return true;
            }
            cur = self.prog.class(c).base;
        }
        false
    }

    fn decks(&self) -> Vec<DeckOf<'_>> {
        let prog = self.prog;
        self.hierarchies
            .iter()
            .filter(|h| prog.class(h.root).kind == ClassKind::Deck)
            .filter_map(|h| {
                let elem_ty = prog.class(h.root).element.clone()?;
                let Ty::Class(e) = elem_ty else { return None };
                Some(DeckOf { deck: h, element: self.hierarchy(e)?, elem_ty })
            })
            .collect()
    }

    /// Interactable hierarchies of the game: their objects can be in a hand.
    fn handheld(&self) -> Vec<&Hierarchy> {
        let prog = self.prog;
        self.hierarchies
            .iter()
            .filter(|h| {
                let root = prog.class(h.root);
                root.kind == ClassKind::Interactable
                    && !root.builtin
                    && self.has_builtin(h.root, BuiltinAttr::Owner)
                    && self.has_builtin(h.root, BuiltinAttr::Tile)
                    && self.has_builtin(h.root, BuiltinAttr::Discarded)
                    && self.has_builtin(h.root, BuiltinAttr::FaceUp)
            })
            .collect()
    }

    /// Whether objects of `class` can be hidden from a player: pieces and cards that can
    /// be held, and what closed decks hold.
    pub(super) fn may_be_hidden(&self, class: ClassId) -> bool {
        let Some(h) = self.hierarchy(class) else { return false };
        self.handheld().iter().any(|held| held.tag == h.tag)
            || self.decks().iter().any(|d| d.element.tag == h.tag && !self.prog.class(d.deck.root).open)
    }

    /// Whether anything can be hidden from a player: a deck, a piece or card that can be
    /// held, a `secret` attribute, a `tell`.
    pub(super) fn may_hide(&self) -> bool {
        let mut tells = false;
        self.prog.walk_exprs(&mut |e| {
            tells |= matches!(e.kind, crate::hir::ExprKind::Builtin { op: crate::hir::Builtin::Tell, .. })
        });
        tells
            || !self.decks().is_empty()
            || !self.handheld().is_empty()
            || self.prog.attrs.iter().any(|a| a.secret)
    }

    /// The attributes the game discloses (`card.disclose("colour")`), in a fixed order: the
    /// bit of each in `Core::disclosed` is its position.
    pub(super) fn disclosed_attrs(&self) -> Vec<AttrId> {
        crate::facts::disclosed_attrs(self.prog)
    }

    /// What everyone sees of a hidden object of `h`: its `public` attributes, and the
    /// disclosed ones with their bits.
    fn marks_of(&self, h: &Hierarchy) -> (Vec<AttrId>, Vec<(AttrId, u32)>) {
        let prog = self.prog;
        let public: Vec<AttrId> =
            prog.class(h.root).attrs.iter().copied().filter(|&a| prog.attr(a).public).collect();
        let disclosed = self
            .disclosed_attrs()
            .into_iter()
            .enumerate()
            .filter(|(_, a)| prog.class(prog.attr(*a).class).root == h.root)
            .map(|(bit, a)| (a, bit as u32))
            .collect();
        (public, disclosed)
    }

    /// Whether hidden objects of the game may bear marks everyone sees.
    pub(super) fn has_marks(&self) -> bool {
        self.prog.attrs.iter().any(|a| a.public) || !self.disclosed_attrs().is_empty()
    }

    /// The functions on `World` (`seen_label`) and the `rt::hidden::Resample` impl.
    pub(super) fn hidden_info(&self) -> (TokenStream, TokenStream) {
        let hidden_form = if self.has_marks() {
            quote!(rt::hidden::Seen::hidden_form(root, &rt::hidden::Resample::marks(self, tag, index)))
        } else {
            quote!(rt::hidden::Seen::hidden_label(root))
        };
        let methods = quote! {
            /// An object's label, or `a hidden Card` when `seen` may not see it.
            fn seen_label(&self, seen: &rt::hidden::Seen, tag: u32, index: u32) -> String {
                match seen.hides(tag, index) {
                    Some(root) => #hidden_form,
                    None => self.object_label(tag, index),
                }
            }
        };
        if self.decks().is_empty() && self.handheld().is_empty() && !self.prog.attrs.iter().any(|a| a.secret)
        {
            let resample = quote! {
                /// Nothing in this game can be hidden from a player.
                impl rt::hidden::Resample for World {}
            };
            return (methods, resample);
        }
        let census = self.census_fn();
        let put = self.put_fn();
        let secrets = self.secrets_fn();
        let referenced = self.referenced_fn();
        let marks = self.marks_fns();
        let resample = quote! {
            impl rt::hidden::Resample for World {
                #census
                #put
                #marks
                #secrets
                #referenced
            }
        };
        (methods, resample)
    }

    /// `census`: the objects of closed stacks (only their number is public), then the
    /// pieces and cards in hands: owned, not on a tile, not discarded, in no stack; face
    /// down (only their owner sees them) or face up (everyone does); and the others,
    /// public: in open stacks, on tiles, discarded, without owner. So the census names
    /// every object that can be hidden, and what a viewer sees of each.
    fn census_fn(&self) -> TokenStream {
        let prog = self.prog;
        let decks = self.decks();
        let handheld = self.handheld();
        if decks.is_empty() && handheld.is_empty() {
            return quote! {
                fn census(&self) -> rt::hidden::Census {
                    rt::hidden::Census::default()
                }
            };
        }
        // One "in a stack" mark per object of every hierarchy decks hold.
        let mut marked: Vec<&Hierarchy> = Vec::new();
        for d in &decks {
            if !marked.iter().any(|h| h.tag == d.element.tag) {
                marked.push(d.element);
            }
        }
        let marks: Vec<TokenStream> = marked
            .iter()
            .map(|h| {
                let arena = &h.arena;
                let m = stacked(h);
                quote!(let mut #m = vec![false; self.#arena.len()];)
            })
            .collect();
        let mut stacks = Vec::new();
        for d in &decks {
            let (da, dtag) = (&d.deck.arena, d.deck.tag);
            let (ea, etag) = (&d.element.arena, d.element.tag);
            let root = &prog.class(d.element.root).name;
            let items = self.collection_arena(&Ty::Stack(Box::new(d.elem_ty.clone())));
            let m = stacked(d.element);
            let owner = if self.has_builtin(d.element.root, BuiltinAttr::Owner) {
                let f = self.builtin_field(d.element.root, BuiltinAttr::Owner);
                quote!(self.#ea[item].#f)
            } else {
                quote!(None)
            };
            // Open stacks show their content: their objects are public, and in no hand.
            let open_classes: Vec<ClassId> =
                d.deck.variants.iter().map(|(c, _)| *c).filter(|&c| prog.class(c).open).collect();
            let public = quote! {
                objects.push(rt::hidden::Located {
                    tag: #etag,
                    index: item.index() as u32,
                    root: #root,
                    owner: #owner,
                    place: rt::hidden::Place::Public,
                });
            };
            if open_classes.len() == d.deck.variants.len() {
                // Open stacks show their objects: public, and in no hand.
                stacks.push(quote! {
                    for deck in self.#da.iter().map(|(_, deck)| deck) {
                        for &item in self.#items[deck.items].items.iter() {
                            if !std::mem::replace(&mut #m[item.index()], true) {
                                #public
                            }
                        }
                    }
                });
                continue;
            }
            let open = if open_classes.is_empty() {
                quote!()
            } else {
                let pats = open_classes.iter().map(|&c| self.variant_pattern(d.deck, c));
                quote! {
                    if matches!(deck.kind, #(#pats)|*) {
                        #public
                        continue;
                    }
                }
            };
            stacks.push(quote! {
                for (id, deck) in self.#da.iter() {
                    for (position, &item) in self.#items[deck.items].items.iter().enumerate() {
                        // An object in two stacks is counted in the first; open stacks show theirs.
                        if std::mem::replace(&mut #m[item.index()], true) {
                            continue;
                        }
                        #open
                        objects.push(rt::hidden::Located {
                            tag: #etag,
                            index: item.index() as u32,
                            root: #root,
                            owner: #owner,
                            place: rt::hidden::Place::Stack { tag: #dtag, deck: id.index() as u32, position: position as u32 },
                        });
                    }
                }
            });
        }
        let mut hands = Vec::new();
        for h in &handheld {
            let (pa, tag) = (&h.arena, h.tag);
            let root = &prog.class(h.root).name;
            let owner = self.builtin_field(h.root, BuiltinAttr::Owner);
            let tile = self.builtin_field(h.root, BuiltinAttr::Tile);
            let discarded = self.builtin_field(h.root, BuiltinAttr::Discarded);
            let face_up = self.builtin_field(h.root, BuiltinAttr::FaceUp);
            // Objects in stacks are counted there.
            let in_stack = if marked.iter().any(|m| m.tag == h.tag) {
                let m = stacked(h);
                quote!(if #m[id.index()] { continue; })
            } else {
                quote!()
            };
            // A face-up object stays in its owner's hand, shown to everyone there; a face-down
            // one of an `outward` class faces the others.
            let face_down = if prog.class(h.root).outward {
                quote!(rt::hidden::Place::Outward(owner))
            } else {
                quote!(rt::hidden::Place::Hand(owner))
            };
            hands.push(quote! {
                for (id, piece) in self.#pa.iter() {
                    #in_stack
                    let place = match piece.#owner {
                        Some(owner) if piece.#tile.is_none() && !piece.#discarded => {
                            if piece.#face_up {
                                rt::hidden::Place::Shown(owner)
                            } else {
                                #face_down
                            }
                        }
                        _ => rt::hidden::Place::Public,
                    };
                    objects.push(rt::hidden::Located {
                        tag: #tag,
                        index: id.index() as u32,
                        root: #root,
                        owner: piece.#owner,
                        place,
                    });
                }
            });
        }
        quote! {
            fn census(&self) -> rt::hidden::Census {
                let mut objects: Vec<rt::hidden::Located> = Vec::new();
                #(#marks)*
                #(#stacks)*
                #(#hands)*
                rt::hidden::Census { objects }
            }
        }
    }

    /// `put`: an object takes a slot's owner, and its place in a stack or a hand.
    fn put_fn(&self) -> TokenStream {
        let prog = self.prog;
        let decks = self.decks();
        let handheld = self.handheld();
        let mut tags: Vec<&Hierarchy> = decks.iter().map(|d| d.element).collect();
        tags.extend(handheld.iter().copied());
        tags.sort_by_key(|h| h.tag);
        tags.dedup_by_key(|h| h.tag);
        if tags.is_empty() {
            return quote! {
                fn put(&mut self, _tag: u32, _index: u32, _slot: &rt::hidden::Located) {}
            };
        }
        let arms: Vec<(u32, TokenStream)> = tags
            .iter()
            .map(|h| {
                let (pa, tag) = (&h.arena, h.tag);
                let owner = if self.has_builtin(h.root, BuiltinAttr::Owner) {
                    let f = self.builtin_field(h.root, BuiltinAttr::Owner);
                    quote!(self.#pa[id].#f = slot.owner;)
                } else {
                    quote!()
                };
                let in_hand = if handheld.iter().any(|p| p.tag == h.tag) {
                    let tile = self.builtin_field(h.root, BuiltinAttr::Tile);
                    let discarded = self.builtin_field(h.root, BuiltinAttr::Discarded);
                    let face_up = self.builtin_field(h.root, BuiltinAttr::FaceUp);
                    let hand = if prog.class(h.root).outward {
                        quote!(rt::hidden::Place::Outward(_))
                    } else {
                        quote!(rt::hidden::Place::Hand(_))
                    };
                    // A hidden slot of a hand is face down.
                    quote! {
                        if let #hand = slot.place {
                            self.#pa[id].#tile = None;
                            self.#pa[id].#discarded = false;
                            self.#pa[id].#face_up = false;
                        }
                    }
                } else {
                    quote!()
                };
                let stack_arms: Vec<(u32, TokenStream)> = decks
                    .iter()
                    .filter(|d| d.element.tag == h.tag)
                    .map(|d| {
                        let (da, dtag) = (&d.deck.arena, d.deck.tag);
                        let items = self.collection_arena(&Ty::Stack(Box::new(d.elem_ty.clone())));
                        (
                            dtag,
                            quote!({
                                let items = self.#da[rt::Id::from_index(deck as usize)].items;
                                if let Some(slot) = self.#items[items].items.get_mut(position as usize) {
                                    *slot = id;
                                }
                            }),
                        )
                    })
                    .collect();
                let in_stack = match stack_arms.as_slice() {
                    [] => quote!(),
                    [(dtag, body)] => quote! {
                        if let rt::hidden::Place::Stack { tag: #dtag, deck, position } = slot.place {
                            #body
                        }
                    },
                    _ => {
                        let arms = stack_arms.iter().map(|(dtag, body)| quote!(#dtag => #body));
                        quote! {
                            if let rt::hidden::Place::Stack { tag, deck, position } = slot.place {
                                match tag {
                                    #(#arms)*
                                    _ => {}
                                }
                            }
                        }
                    }
                };
                (
                    tag,
                    quote! {
                        let id = rt::Id::from_index(index as usize);
                        #owner
                        #in_hand
                        #in_stack
                    },
                )
            })
            .collect();
        let body = match arms.as_slice() {
            [(tag, body)] => quote!(if tag == #tag { #body }),
            _ => {
                let arms = arms.iter().map(|(tag, body)| quote!(#tag => { #body }));
                quote!(match tag { #(#arms)* _ => {} })
            }
        };
        quote! {
            fn put(&mut self, tag: u32, index: u32, slot: &rt::hidden::Located) {
                #body
            }
        }
    }

    /// `marks`, `constrains`, `fits` and `put_all`, for games whose hidden objects bear
    /// marks everyone sees: `public` attributes and disclosed ones. Both belong to the slot
    /// (a hand's second card): when a search redraws which object is where, the object put
    /// in a slot takes them, and must agree with what was disclosed there.
    fn marks_fns(&self) -> TokenStream {
        if !self.has_marks() {
            return quote!();
        }
        let prog = self.prog;
        let (mut marks, mut constrains, mut fits, mut put_all) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for h in &self.hierarchies {
            let (public, disclosed) = self.marks_of(h);
            if public.is_empty() && disclosed.is_empty() {
                continue;
            }
            let (arena, tag) = (&h.arena, h.tag);
            let text = |a: AttrId, of: TokenStream| {
                let f = &self.attr_field[&a];
                self.secret_text(quote!(&#of.#f), &prog.attr(a).ty, self.null.attr(prog, a))
            };
            let shown: Vec<TokenStream> = public
                .iter()
                .map(|&a| {
                    let name = &prog.attr(a).name;
                    let t = text(a, quote!(o));
                    quote!(out.push((#name, #t));)
                })
                .chain(disclosed.iter().map(|&(a, bit)| {
                    let name = &prog.attr(a).name;
                    let t = text(a, quote!(o));
                    let mask = proc_macro2::Literal::u64_unsuffixed(1u64 << bit);
                    quote!(if bits & #mask != 0 { out.push((#name, #t)); })
                }))
                .collect();
            let bits = if disclosed.is_empty() {
                quote!()
            } else {
                quote!(let bits = self.core.disclosed(tag, index);)
            };
            marks.push(quote! {
                if tag == #tag {
                    let o = &self.#arena[rt::Id::from_index(index as usize)];
                    #bits
                    #(#shown)*
                }
            });
            if !disclosed.is_empty() {
                let agree: Vec<TokenStream> = disclosed
                    .iter()
                    .map(|&(a, bit)| {
                        let f = &self.attr_field[&a];
                        let mask = proc_macro2::Literal::u64_unsuffixed(1u64 << bit);
                        quote!((bits & #mask == 0 || c.#f == s.#f))
                    })
                    .collect();
                constrains.push(quote!(#tag => self.core.disclosed(tag, slot) != 0,));
                fits.push(quote! {
                    #tag => {
                        let (c, s) = (&self.#arena[rt::Id::from_index(candidate as usize)], &self.#arena[rt::Id::from_index(slot as usize)]);
                        let bits = self.core.disclosed(tag, slot);
                        #(#agree)&&*
                    }
                });
            }
            let fields: Vec<&proc_macro2::Ident> = public.iter().map(|a| &self.attr_field[a]).collect();
            // Strings are cloned; the other values are `Copy`.
            let values: Vec<TokenStream> = public
                .iter()
                .map(|a| {
                    let f = &self.attr_field[a];
                    if prog.attr(*a).ty == Ty::String { quote!(s.#f.clone()) } else { quote!(s.#f) }
                })
                .collect();
            let names: Vec<proc_macro2::Ident> = (0..fields.len())
                .map(|i| proc_macro2::Ident::new(&format!("m{i}"), proc_macro2::Span::call_site()))
                .collect();
            let set_fields = if fields.is_empty() {
                quote!()
            } else {
                quote! {
                    let o = &mut self.#arena[rt::Id::from_index(*index as usize)];
                    #(o.#fields = #names;)*
                }
            };
            put_all.push(quote! {
                #tag => {
                    let marks: Vec<_> = moves
                        .iter()
                        .map(|(_, slot)| {
                            let s = &self.#arena[rt::Id::from_index(slot.index as usize)];
                            ((#(#values,)*), self.core.disclosed(tag, slot.index))
                        })
                        .collect();
                    for ((index, slot), ((#(#names,)*), bits)) in moves.iter().zip(marks) {
                        self.put(tag, *index, slot);
                        #set_fields
                        self.core.set_disclosed(tag, *index, bits);
                    }
                }
            });
        }
        let constrains = if constrains.is_empty() {
            quote!()
        } else {
            quote! {
                fn constrains(&self, tag: u32, slot: u32) -> bool {
                    match tag {
                        #(#constrains)*
                        _ => false,
                    }
                }
                fn fits(&self, tag: u32, candidate: u32, slot: u32) -> bool {
                    match tag {
                        #(#fits)*
                        _ => true,
                    }
                }
            }
        };
        quote! {
            fn marks(&self, tag: u32, index: u32) -> Vec<(&'static str, String)> {
                let mut out: Vec<(&'static str, String)> = Vec::new();
                #(#marks)*
                out
            }
            #constrains
            fn put_all(&mut self, tag: u32, moves: &[(u32, rt::hidden::Located)]) {
                match tag {
                    #(#put_all)*
                    _ => {
                        for (index, slot) in moves {
                            self.put(tag, *index, slot);
                        }
                    }
                }
            }
        }
    }

    /// `secrets`: every `secret` attribute's value, with who owns it.
    /// `referenced`: the objects the watched attributes of global classes point at now
    /// (`plan::pools`): redistribution applies only while each of them is visible.
    fn referenced_fn(&self) -> TokenStream {
        let prog = self.prog;
        let mut parts = Vec::new();
        for &a in &self.pool_resampling.watched {
            let attr = prog.attr(a);
            let Some((_, field)) = self.globals.get(&attr.class) else { continue };
            let f = &self.attr_field[&a];
            let nullable = self.null.attr(prog, a);
            let value = quote!(self.#field.#f);
            let part = match &attr.ty {
                Ty::Class(c) => {
                    let Some(h) = self.hierarchy(*c) else { continue };
                    let tag = h.tag;
                    if nullable {
                        quote!(if let Some(x) = #value { out.push((#tag, x.index() as u32)); })
                    } else {
                        quote!(out.push((#tag, #value.index() as u32));)
                    }
                }
                Ty::List(e) => {
                    let Some(h) = e.class().and_then(|c| self.hierarchy(c)) else { continue };
                    let tag = h.tag;
                    let arena = self.collection_arena(&attr.ty);
                    let items = if self.null.elem(prog, &attr.ty) {
                        quote!(for x in self.#arena[list].items.iter().flatten() { out.push((#tag, x.index() as u32)); })
                    } else {
                        quote!(for x in &self.#arena[list].items { out.push((#tag, x.index() as u32)); })
                    };
                    if nullable {
                        quote!(if let Some(list) = #value { #items })
                    } else {
                        quote!({ let list = #value; #items })
                    }
                }
                _ => continue,
            };
            parts.push(part);
        }
        if parts.is_empty() {
            return quote!();
        }
        quote! {
            fn referenced(&self) -> Vec<(u32, u32)> {
                let mut out = Vec::new();
                #(#parts)*
                out
            }
        }
    }

    fn secrets_fn(&self) -> TokenStream {
        let prog = self.prog;
        let mut parts = Vec::new();
        for (&c, (_, field)) in &self.globals {
            for &a in &prog.class(c).attrs {
                let attr = prog.attr(a);
                if !attr.secret {
                    continue;
                }
                let f = &self.attr_field[&a];
                let name = format!("{}.{}", prog.class(c).name, attr.name);
                let text = self.secret_text(quote!(&self.#field.#f), &attr.ty, self.null.attr(prog, a));
                parts.push(quote! {
                    out.push(rt::hidden::Secret { attribute: #name, object: None, owner: None, value: #text });
                });
            }
        }
        for h in &self.hierarchies {
            let arena = &h.arena;
            let tag = h.tag;
            let owner = if self.has_builtin(h.root, BuiltinAttr::Owner) {
                let f = self.builtin_field(h.root, BuiltinAttr::Owner);
                quote!(self.#arena[id].#f)
            } else {
                quote!(None)
            };
            // Each secret attribute once, read from the objects of the classes that have it.
            let mut attrs: Vec<crate::hir::AttrId> = Vec::new();
            for (class, _) in &h.variants {
                for a in prog.all_attrs(*class) {
                    if prog.attr(a).secret && !attrs.contains(&a) {
                        attrs.push(a);
                    }
                }
            }
            for a in attrs {
                let attr = prog.attr(a);
                let f = &self.attr_field[&a];
                let name = format!("{}.{}", prog.class(attr.class).name, attr.name);
                let nullable = self.null.attr(prog, a);
                let push = |value: TokenStream| {
                    let text = self.secret_text(value, &attr.ty, nullable);
                    quote! {
                        out.push(rt::hidden::Secret {
                            attribute: #name,
                            object: Some((#tag, id.index() as u32)),
                            owner: #owner,
                            value: #text,
                        });
                    }
                };
                let body = if !self.attr_on_root(a) {
                    // Kept in the variants: the accessor fails for classes without it.
                    let push = push(quote!(&v));
                    quote!(if let Ok(v) = self.#arena[id].#f() { #push })
                } else if h.kind_enum.is_none() || self.covers_hierarchy(attr.class) {
                    push(quote!(&self.#arena[id].#f))
                } else {
                    let pats: Vec<TokenStream> = h
                        .variants
                        .iter()
                        .filter(|(c, _)| prog.is_subclass(*c, attr.class))
                        .map(|(c, _)| self.variant_pattern(h, *c))
                        .collect();
                    let push = push(quote!(&self.#arena[id].#f));
                    quote!(if matches!(self.#arena[id].kind, #(#pats)|*) { #push })
                };
                parts.push(quote! {
                    for id in self.#arena.ids() {
                        #body
                    }
                });
            }
        }
        if parts.is_empty() {
            return quote! {
                fn secrets(&self) -> Vec<rt::hidden::Secret> {
                    Vec::new()
                }
            };
        }
        quote! {
            fn secrets(&self) -> Vec<rt::hidden::Secret> {
                let mut out: Vec<rt::hidden::Secret> = Vec::new();
                #(#parts)*
                out
            }
        }
    }

    /// The text of a secret value, given as a reference (objects by their full label:
    /// only those who may see the secret are shown it).
    fn secret_text(&self, v: TokenStream, ty: &Ty, nullable: bool) -> TokenStream {
        // `x` is a reference to the value.
        let inner = match ty {
            Ty::Number => quote!(rt::value::fmt_number(*x)),
            Ty::Player => quote!(format!("player {}", x.0)),
            Ty::String | Ty::Bool => quote!(x.to_string()),
            Ty::Class(c) => match self.hierarchy(*c) {
                Some(h) => {
                    let tag = h.tag;
                    quote!(self.object_label(#tag, x.index() as u32))
                }
                None => quote!(format!("{x:?}")),
            },
            // A collection by its size: its items may be hidden from whoever sees the value.
            Ty::List(_) | Ty::Stack(_) | Ty::Table(..) => {
                let arena = self.collection_arena(ty);
                quote!(format!("{} items", rt::value::fmt_number(self.#arena[*x].len())))
            }
            _ => quote!(format!("{x:?}")),
        };
        if nullable {
            quote!(match #v { Some(x) => #inner, None => String::from("null") })
        } else {
            quote!({ let x = #v; #inner })
        }
    }
}

/// The name of the "in a stack" marks of a hierarchy's objects.
fn stacked(h: &Hierarchy) -> proc_macro2::Ident {
    h.in_stack.clone()
}
