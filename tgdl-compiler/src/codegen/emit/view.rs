//! What a world shows: the view (with hidden objects as seen by the viewer) and the text
//! of values.

use super::context::Gen;
use super::labels::label_fn;
use super::tokens::{seen_param, substitute_x};
use crate::hir::{ClassKind, Geometry, Ty};
use proc_macro2::TokenStream;
use quote::quote;

impl<'p> Gen<'p> {
    /// What a player sees: board groups as grids, global classes' attributes, the active
    /// player's hand.
    pub(super) fn view_fn(&self) -> TokenStream {
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
                let looks = if crate::facts::group_has_looks(prog, *board, *g) {
                    // One copy of the world for the whole grid (a look may do what a function may).
                    quote!({
                        let mut world = self.clone();
                        (0..group.rows)
                            .map(|row| {
                                (0..group.columns)
                                    .map(|column| {
                                        group.cells[row * group.columns + column]
                                            .and_then(|t| world.tile_look(t))
                                    })
                                    .collect()
                            })
                            .collect()
                    })
                } else {
                    quote!(Vec::new())
                };
                let names = if crate::facts::names_tiles(prog) {
                    let tag = self.hierarchy(prog.builtins.tile).map_or(0, |h| h.tag);
                    quote!((0..group.rows)
                        .map(|row| (0..group.columns).map(|column| group.cells[row * group.columns + column].map(|t| self.object_label(#tag, t.index() as u32))).collect())
                        .collect())
                } else {
                    quote!(Vec::new())
                };
                sections.push(quote!({
                    let group = &self.groups[#constant];
                    let cells = (0..group.rows)
                        .map(|row| (0..group.columns).map(|column| group.cells[row * group.columns + column].map(|t| self.tile_text(seen, t))).collect())
                        .collect();
                    rt::view::Section::Grid { title: String::from(#title), layout: #layout, cells, looks: #looks, names: #names }
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
                .filter(|&&a| {
                    let attr = prog.attr(a);
                    attr.builtin.is_none() && !attr.secret && !attr.internal && !attr.per_player
                })
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
        let (owned, owned_fn) = self.owned_fn();
        let shares = self.per_player_shares();
        let tracks = self.tracks();
        // `Vec::from([..])` rather than `vec![..]`: prettyplease formats the elements.
        let sections_decl = if owned_fn.is_empty() && shares.is_none() {
            quote!(let sections: Vec<rt::view::Section> = Vec::from([#(#sections),*]);)
        } else {
            quote! {
                let mut sections: Vec<rt::view::Section> = Vec::from([#(#sections),*]);
                #shares
                #owned
            }
        };
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
                    tracks: #tracks,
                }
            }

            #tile_text

            #owned_fn
        }
    }

    /// What the view shows of the objects of plain classes that players own (a player's
    /// bought cards, their tableau): shown nowhere else, they are listed under their owner,
    /// `player 0 has`. Pieces and cards (interactable) are in the hands instead, which
    /// keep what is hidden; these objects never are. The call and the helper, or nothing.
    fn owned_fn(&self) -> (TokenStream, TokenStream) {
        let prog = self.prog;
        let mut lists = Vec::new();
        for h in &self.hierarchies {
            let root = prog.class(h.root);
            if root.kind != ClassKind::Class
                || root.builtin
                || root.visibility != crate::hir::Visibility::Local
                || !self.has_builtin(h.root, crate::hir::BuiltinAttr::Owner)
            {
                continue;
            }
            let (arena, tag) = (&h.arena, h.tag);
            let owner = self.builtin_field(h.root, crate::hir::BuiltinAttr::Owner);
            let item = if self.has_looks() {
                quote!((self.object_label(#tag, id.index() as u32), self.object_look(#tag, id.index() as u32)))
            } else {
                quote!(self.object_label(#tag, id.index() as u32))
            };
            lists.push(quote! {
                for (id, object) in self.#arena.iter() {
                    if let Some(list) = object.#owner.and_then(|p| has.get_mut(p.0 as usize)) {
                        list.push(#item);
                    }
                }
            });
        }
        if lists.is_empty() {
            return (quote!(), quote!());
        }
        let call = quote!(self.owned_sections(&mut sections););
        let helper = if self.has_looks() {
            quote! {
                /// The objects of plain classes each player owns, in creation order: `player 0 has`
                /// (with their looks, when any has one).
                fn owned_sections(&self, sections: &mut Vec<rt::view::Section>) {
                    let mut has: Vec<Vec<(String, Option<rt::view::Look>)>> = vec![Vec::new(); self.core.players as usize];
                    #(#lists)*
                    for (p, owned) in has.into_iter().enumerate() {
                        if !owned.is_empty() {
                            let (items, looks): (Vec<String>, Vec<Option<rt::view::Look>>) = owned.into_iter().unzip();
                            let looks = if looks.iter().any(Option::is_some) { looks } else { Vec::new() };
                            sections.push(rt::view::Section::List { title: format!("player {p} has"), items, looks });
                        }
                    }
                }
            }
        } else {
            quote! {
                /// The objects of plain classes each player owns, in creation order: `player 0 has`.
                fn owned_sections(&self, sections: &mut Vec<rt::view::Section>) {
                    let mut has: Vec<Vec<String>> = vec![Vec::new(); self.core.players as usize];
                    #(#lists)*
                    for (p, items) in has.into_iter().enumerate() {
                        if !items.is_empty() {
                            sections.push(rt::view::Section::List { title: format!("player {p} has"), items, looks: Vec::new() });
                        }
                    }
                }
            }
        };
        (call, helper)
    }

    /// The `per player` lists of the global classes, as a section per player (`player 1`)
    /// holding item `p` of each under the list's name; appended to `sections` by the
    /// expression this returns, `None` when the game has no such list.
    fn per_player_shares(&self) -> Option<TokenStream> {
        let prog = self.prog;
        let mut shares = Vec::new();
        for (&c, (_, field)) in &self.globals {
            for &a in &prog.class(c).attrs {
                let attr = prog.attr(a);
                let Ty::List(elem) = &attr.ty else { continue };
                if !attr.per_player {
                    continue;
                }
                let f = &self.attr_field[&a];
                let n = &attr.name;
                let arena = self.collection_arena(&attr.ty);
                let item = self.value_text(quote!(item), elem, self.null.elem(prog, &attr.ty));
                let binding = if **elem == Ty::String { quote!(item) } else { quote!(&item) };
                // A null list gives nobody anything.
                let list = if self.null.attr(prog, a) {
                    quote!(self.#field.#f.iter().flat_map(|&list| self.#arena[list].items.iter()))
                } else {
                    quote!(self.#arena[self.#field.#f].items.iter())
                };
                shares.push(quote! {
                    for (shares, #binding) in by_player.iter_mut().zip(#list) {
                        shares.push((String::from(#n), #item));
                    }
                });
            }
        }
        if shares.is_empty() {
            return None;
        }
        Some(quote!({
            let mut by_player: Vec<Vec<(String, String)>> = vec![Vec::new(); self.core.players as usize];
            #(#shares)*
            sections.extend(by_player.into_iter().enumerate().filter(|(_, items)| !items.is_empty()).map(
                |(p, items)| rt::view::Section::Attributes { title: format!("player {p}"), items },
            ));
        }))
    }

    /// The `per player track(N)` lists, in the order of the players' shares.
    fn tracks(&self) -> TokenStream {
        let prog = self.prog;
        let tracks: Vec<TokenStream> = self
            .globals
            .keys()
            .flat_map(|&c| &prog.class(c).attrs)
            .filter_map(|&a| {
                let attr = prog.attr(a);
                let last = attr.track.filter(|_| attr.per_player)?;
                let n = &attr.name;
                Some(quote!(rt::view::Track { name: String::from(#n), last: #last }))
            })
            .collect();
        if tracks.is_empty() { quote!(Vec::new()) } else { quote!(Vec::from([#(#tracks),*])) }
    }

    /// The text of a value for the view (`&self` only: objects by label, lists by length).
    pub(super) fn value_text(&self, v: TokenStream, ty: &Ty, nullable: bool) -> TokenStream {
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
            // A collection of objects shows those the viewer sees, in order, then counts the
            // others (their places in it would say which they are): `[Card(rank: 1), 2
            // hidden Card]`.
            Ty::List(elem) | Ty::Stack(elem) if matches!(elem.as_ref(), Ty::Class(c) if self.hierarchy(*c).is_some()) =>
            {
                let arena = self.collection_arena(ty);
                let (tag, root) = match elem.as_ref() {
                    Ty::Class(c) => self
                        .hierarchy(*c)
                        .map_or((0, String::new()), |h| (h.tag, self.prog.class(h.root).name.clone())),
                    _ => (0, String::new()),
                };
                let each = if self.null.elem(self.prog, ty) {
                    quote!(self.#arena[x].items.iter().flatten())
                } else {
                    quote!(self.#arena[x].items.iter())
                };
                quote!({
                    let mut items: Vec<String> = Vec::new();
                    let mut hidden = 0usize;
                    for item in #each {
                        if seen.hides(#tag, item.index() as u32).is_some() {
                            hidden += 1;
                        } else if items.len() < 12 {
                            items.push(self.object_label(#tag, item.index() as u32));
                        }
                    }
                    let shown = self.#arena[x].items.len() - hidden;
                    if shown > 12 {
                        items.push(String::from("..."));
                    }
                    if hidden > 0 {
                        items.push(format!("{hidden} hidden {}", #root));
                    }
                    format!("[{}]", items.join(", "))
                })
            }
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
                // Strings are read through the reference; the other items are `Copy`, bound
                // by value in the pattern: the text of a value may be a macro's argument
                // (`format!("player {}", x.0)`), where `*item` would lose its grouping and
                // read as `*(item.0)`.
                let binding =
                    if **elem == Ty::String { quote!((key, item)) } else { quote!(&(ref key, item)) };
                let item = self.value_text(quote!(item), elem, false);
                // An object key reads as the object does (hidden from the viewer: in its
                // hidden form, never by its place among the objects); entries under hidden
                // keys come last, sorted, so their order says nothing either.
                quote!({
                    let mut items: Vec<String> = Vec::new();
                    let mut under_hidden: Vec<String> = Vec::new();
                    for #binding in self.#arena[x].entries.iter() {
                        let (hidden, key) = match *key {
                            rt::collections::Key::Object(tag, index) => {
                                (seen.hides(tag, index).is_some(), self.seen_label(seen, tag, index))
                            }
                            ref other => (false, other.describe()),
                        };
                        let text = format!("{}: {}", key, #item);
                        if hidden { under_hidden.push(text) } else if items.len() < 12 { items.push(text) }
                    }
                    under_hidden.sort();
                    items.extend(under_hidden.into_iter().take(12));
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
    pub(super) fn tile_text_fn(&self) -> TokenStream {
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
                .filter(|&a| prog.attr(a).ty.is_value() && !prog.attr(a).secret && !prog.attr(a).internal)
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

impl Gen<'_> {}
