//! Boards: the grids' constants, building boards (tiles, groups, connections), and
//! blank objects.

use super::context::Gen;
use super::layout::geometry_path;
use crate::codegen::names::ident;
use crate::codegen::plan::layout::Hierarchy;
use crate::hir::{AttrId, BuiltinAttr, ClassId, ClassKind, Ty};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

impl<'p> Gen<'p> {
    /// The constant describing a regular group's grid: its shape and its tiles' handles,
    /// numbered as `build_boards` creates them (group by group, cell by cell).
    pub(super) fn grid_const(&self, board: ClassId, g: usize, name: &proc_macro2::Ident) -> TokenStream {
        let group = &self.prog.class(board).groups[g];
        let first: usize = self
            .prog
            .classes
            .iter()
            .enumerate()
            .flat_map(|(c, class)| class.groups.iter().enumerate().map(move |(k, grp)| ((c, k), grp)))
            .take_while(|((c, k), _)| (*c, *k) != (board.0 as usize, g))
            .map(|(_, grp)| grp.cells.iter().flatten().filter(|cell| cell.is_some()).count())
            .sum();
        let rows = group.cells.len();
        let columns = group.cells.first().map_or(0, Vec::len);
        let geometry = geometry_path(group.geometry);
        let group_name = &group.name;
        let cells: Vec<bool> = group.cells.iter().flatten().map(Option::is_some).collect();
        let tiles = if cells.iter().all(|&c| c) {
            quote!(rt::board::GridTiles::Full { first: #first })
        } else {
            let n = cells.len();
            quote!(rt::board::GridTiles::Table(&rt::board::cell_table::<Tile, #n>(#first, [#(#cells),*])))
        };
        let doc = format!(
            " The grid of `{}.{}`, known when the game is compiled.",
            self.prog.class(board).name,
            group_name
        );
        quote! {
            #[doc = #doc]
            const #name: rt::board::Grid<Tile> = rt::board::Grid {
                name: #group_name,
                shape: rt::board::Shape { geometry: #geometry, columns: #columns, rows: #rows },
                tiles: #tiles,
            };
        }
    }

    /// Groups, tiles and the connections between neighbours, in declaration order.
    pub(super) fn build_boards(&self) -> TokenStream {
        if !self.uses_tiles {
            return quote!();
        }
        let tile_h = self.hierarchy(self.prog.builtins.tile).expect("tiles are used");
        let tile_arena = &tile_h.arena;
        let tile_flat = self.flat_blank_fields(tile_h);
        let tiles_list = self.collection_arena(&Ty::List(Box::new(Ty::Class(self.prog.builtins.tile))));
        // Groups keep a list of their tiles only for games that read `G.tiles`.
        let (tiles_decl, tiles_push, tiles_value) = if self.keeps_tiles {
            (
                quote!(let mut tiles = Vec::with_capacity(cells.len());),
                if self.tile_lists_nullable() {
                    quote!(tiles.push(Some(tile));)
                } else {
                    quote!(tiles.push(tile);)
                },
                quote!(Some(self.#tiles_list.alloc(rt::List::from_vec(tiles)))),
            )
        } else {
            (quote!(), quote!(), quote!(None))
        };
        let tile_created = self.after_allocation(self.prog.builtins.tile, quote!(self), quote!(tile));
        let conns_list = self.collection_arena(&Ty::List(Box::new(Ty::Class(self.prog.builtins.connection))));
        // Variant codes in the layout tables: 0 is blank, k+1 the k-th tile variant; a
        // byte each while there are at most 255 tile classes, else wider.
        let code_ty = match tile_h.variants.len() {
            n if n <= u8::MAX as usize => quote!(u8),
            n if n <= u16::MAX as usize => quote!(u16),
            _ => quote!(u32),
        };
        let variant_arms: Vec<TokenStream> = tile_h
            .variants
            .iter()
            .enumerate()
            .map(|(k, (class, _))| {
                let code = Literal::usize_unsuffixed(k + 1);
                let kind = self.blank_kind(tile_h, *class);
                quote!(#code => #kind,)
            })
            .collect();
        let (connections_field, connections_alloc, neighbours) = if self.uses_connections {
            let conn_arena =
                &self.hierarchy(self.prog.builtins.connection).expect("connections are used").arena;
            let plain_connection = self.blank_connection(self.prog.builtins.connection, quote!(Some(to)));
            let connection_created =
                self.after_allocation(self.prog.builtins.connection, quote!(self), quote!(connection));
            (
                quote!(connections,),
                quote!(let connections = self.#conns_list.alloc(rt::List::default());),
                quote! {
                    for i in 0..cells.len() {
                        let Some(tile) = layout[i] else { continue };
                        for (column, row) in rt::board::neighbours(geometry, columns, rows, i % columns, i / columns) {
                            if let Some(to) = layout[row * columns + column] {
                                let connection = self.#conn_arena.alloc(#plain_connection);
                                #connection_created
                                let list = self.#tile_arena[tile].connections;
                                self.#conns_list[list].push(connection);
                            }
                        }
                    }
                },
            )
        } else {
            (quote!(), quote!(), quote!())
        };
        let mut groups = Vec::new();
        for ((board, g), constant) in &self.group_consts {
            let group = &self.prog.class(*board).groups[*g];
            let name = &group.name;
            let rows = group.cells.len();
            let columns = group.cells.first().map_or(0, Vec::len);
            let geometry = geometry_path(group.geometry);
            let codes: Vec<Literal> = group
                .cells
                .iter()
                .flatten()
                .map(|cell| {
                    let code = match cell {
                        None => 0,
                        Some(c) => tile_h.variants.iter().position(|(v, _)| v == c).map_or(0, |k| k + 1),
                    };
                    Literal::usize_unsuffixed(code)
                })
                .collect();
            let check = match self.grid_consts.get(&(*board, *g)) {
                Some(grid) => quote!(#grid.debug_check(&self.groups[group]);),
                None => quote!(),
            };
            groups.push(quote! {
                let group = self.build_group(#name, #geometry, #columns, #rows, &[#(#codes),*]);
                debug_assert_eq!(group, #constant);
                #check
            });
        }
        quote! {
            /// Creates every board group, its tiles (row by row, left to right) and the
            /// connections between neighbouring tiles.
            fn build_boards(&mut self) {
                #(#groups)*
            }

            /// One group from its layout: `cells[row * columns + column]` is 0 for a blank
            /// cell, else the tile class (see `build_boards`).
            fn build_group(
                &mut self,
                name: &str,
                geometry: rt::board::Geometry,
                columns: usize,
                rows: usize,
                cells: &[#code_ty],
            ) -> rt::Id<Group> {
                // The group is allocated last; its tiles already know its handle.
                let group = rt::Id::from_index(self.groups.len());
                let mut layout = Vec::with_capacity(cells.len());
                #tiles_decl
                for (i, &code) in cells.iter().enumerate() {
                    let kind = match code {
                        #(#variant_arms)*
                        _ => {
                            layout.push(None);
                            continue;
                        }
                    };
                    #connections_alloc
                    let tile = self.#tile_arena.alloc(Tile {
                        group,
                        x: (i % columns) as i64,
                        y: (i / columns) as i64,
                        #connections_field
                        #tile_flat
                        kind,
                    });
                    #tile_created
                    layout.push(Some(tile));
                    #tiles_push
                }
                #neighbours
                self.groups.alloc(rt::board::Group {
                    name: rt::Str::from(name),
                    geometry,
                    columns,
                    rows,
                    cells: layout.into(),
                    tiles: #tiles_value,
                })
            }
        }
    }

    /// A plain `connection` to `to`.
    /// A new connection of `class` leading to `to`, attributes blank.
    pub(super) fn blank_connection(&self, class: ClassId, to: TokenStream) -> TokenStream {
        let h = self.hierarchy(self.prog.builtins.connection).expect("tiles are used");
        let to_field = self.builtin_field(self.prog.builtins.connection, BuiltinAttr::To);
        let mut fields = vec![quote!(#to_field: #to)];
        for a in self.root_attrs(h) {
            if self.prog.attr(a).builtin.is_none() {
                let n = &self.attr_field[&a];
                let v = self.blank_value(a);
                fields.push(quote!(#n: #v));
            }
        }
        if h.kind_enum.is_some() {
            let kind = self.blank_kind(h, class);
            fields.push(quote!(kind: #kind));
        }
        let flat = self.flat_blank_fields(h);
        quote!(Connection { #flat #(#fields),* })
    }

    /// The field of a built-in attribute of a root class.
    pub(super) fn builtin_field(&self, class: ClassId, b: BuiltinAttr) -> proc_macro2::Ident {
        let mut cur = Some(class);
        while let Some(c) = cur {
            for &a in &self.prog.class(c).attrs {
                if self.prog.attr(a).builtin == Some(b) {
                    return self.attr_field[&a].clone();
                }
            }
            cur = self.prog.class(c).base;
        }
        ident("missing_builtin_attribute")
    }

    /// The attributes of a flat hierarchy's classes, stored on its root struct.
    pub(super) fn flat_attrs(&self, h: &Hierarchy) -> Vec<AttrId> {
        (0..self.prog.attrs.len() as u32)
            .map(AttrId)
            .filter(|&a| {
                let attr = self.prog.attr(a);
                h.flat
                    && attr.class != h.root
                    && self.prog.class(attr.class).root == h.root
                    && attr.builtin != Some(BuiltinAttr::Active)
            })
            .collect()
    }

    /// `a: blank, ..` for the class attributes of a flat hierarchy (nothing otherwise):
    /// every object has them all, blank.
    pub(super) fn flat_blank_fields(&self, h: &Hierarchy) -> TokenStream {
        let fs = self.flat_attrs(h).into_iter().map(|a| {
            let n = &self.attr_field[&a];
            let v = self.blank_value(a);
            quote!(#n: #v,)
        });
        quote!(#(#fs)*)
    }

    /// The kind value of a freshly created object of `class`: its variant, attributes blank.
    pub(super) fn blank_kind(&self, h: &Hierarchy, class: ClassId) -> TokenStream {
        let Some(k) = &h.kind_enum else { return quote!() };
        let v =
            h.variants.iter().find(|(c, _)| *c == class).map_or_else(|| ident("Missing"), |(_, v)| v.clone());
        let attrs = if h.flat { Vec::new() } else { self.variant_attrs(h.root, class) };
        if attrs.is_empty() {
            quote!(#k::#v)
        } else {
            let fs = attrs.iter().map(|a| {
                let n = &self.attr_field[a];
                let val = self.blank_value(*a);
                quote!(#n: #val)
            });
            quote!(#k::#v { #(#fs),* })
        }
    }

    /// The value of an attribute before its initialiser runs.
    pub(super) fn blank_value(&self, a: AttrId) -> TokenStream {
        if self.null.attr(self.prog, a) {
            return quote!(None);
        }
        match self.prog.attr(a).ty {
            Ty::Number => quote!(0.0),
            Ty::Bool => quote!(false),
            Ty::Player => quote!(rt::Player(0)),
            Ty::String => quote!(rt::Str::default()),
            _ => quote!(None),
        }
    }

    /// `blank_<class>()`: a new object of each instantiable user class, attributes blank.
    pub(super) fn blank_constructors(&self) -> TokenStream {
        // Only classes the game creates (a base class may exist only to be derived from).
        let created = &self.created;
        let mut out = Vec::new();
        for h in &self.hierarchies {
            let root = self.prog.class(h.root);
            if root.builtin {
                continue;
            }
            for (class, _) in h.variants.iter().filter(|(c, _)| created.contains(c)) {
                let name = &self.blank_fn[class];
                let strukt = &h.strukt;
                let mut fields = Vec::new();
                for a in self.root_attrs(h) {
                    let n = &self.attr_field[&a];
                    let v = match self.prog.attr(a).builtin {
                        Some(BuiltinAttr::Owner) | Some(BuiltinAttr::Tile) => quote!(None),
                        Some(BuiltinAttr::Discarded) | Some(BuiltinAttr::FaceUp) => quote!(false),
                        Some(BuiltinAttr::Members) => {
                            let arena = self.collection_arena(&self.prog.attr(a).ty);
                            quote!(self.#arena.alloc(rt::List::default()))
                        }
                        Some(BuiltinAttr::DiscardStack) => {
                            let arena = self.collection_arena(&self.prog.attr(a).ty);
                            quote!(self.#arena.alloc(rt::Stack::default()))
                        }
                        _ => self.blank_value(a),
                    };
                    fields.push(quote!(#n: #v));
                }
                if root.kind == ClassKind::Deck {
                    let arena = self
                        .collection_arena(&Ty::Stack(Box::new(root.element.clone().unwrap_or(Ty::Error))));
                    fields.push(quote!(items: self.#arena.alloc(rt::Stack::default())));
                }
                if h.kind_enum.is_some() {
                    let kind = self.blank_kind(h, *class);
                    fields.push(quote!(kind: #kind));
                }
                let flat = self.flat_blank_fields(h);
                let doc = format!(" A new `{}` before its initialisers run.", self.prog.class(*class).name);
                out.push(quote! {
                    #[doc = #doc]
                    fn #name(&mut self) -> #strukt {
                        #strukt { #flat #(#fields),* }
                    }
                });
            }
        }
        quote!(#(#out)*)
    }
}
