//! The data of a generated game: one struct per class hierarchy (with a kind enum when
//! several of its classes are instantiable), the `World` holding every arena, the `Move`
//! enum, board construction, blank objects and arena marks for speculative evaluation.

use super::context::Gen;
use crate::codegen::names::{ident, snake};
use crate::codegen::plan::layout::Hierarchy;
use crate::hir::{AttrId, BuiltinAttr, ClassId, ClassKind, Geometry, Ty};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

impl<'p> Gen<'p> {
    pub(super) fn layout(&self) -> TokenStream {
        let files: Vec<&String> = self.prog.files.iter().collect();
        let n_files = files.len();
        let locs = quote! {
            /// The source files, for the locations of rule errors.
            const FILES: [&str; #n_files] = [#(#files),*];

            /// A place in the main source file.
            const fn loc(line: u32, column: u32) -> rt::Loc {
                rt::Loc::new(FILES[0], line, column)
            }

            /// A place in the main source file, kept in the binary: checks on hot paths
            /// pass a pointer to it rather than the place itself. (Unused when only code
            /// the rules never run checks anything.)
            #[allow(dead_code)]
            fn loc_ref<const LINE: u32, const COLUMN: u32>() -> &'static rt::Loc {
                &const { loc(LINE, COLUMN) }
            }
        };
        let locs_in = if n_files > 1 {
            quote! {
                /// A place in an imported source file.
                const fn loc_in(file: usize, line: u32, column: u32) -> rt::Loc {
                    rt::Loc::new(FILES[file], line, column)
                }

                /// A place in an imported source file, kept in the binary (see `loc_ref`).
                #[allow(dead_code)]
                fn loc_ref_in<const FILE: usize, const LINE: u32, const COLUMN: u32>() -> &'static rt::Loc {
                    &const { loc_in(FILE, LINE, COLUMN) }
                }
            }
        } else {
            quote!()
        };
        let game = quote! {
            /// The game: the runtime's engine over this game's world.
            pub type Game = rt::Engine<World>;
        };
        let group_ty = if self.tile_lists_nullable() {
            quote!(rt::board::Group<Tile, Option<rt::Id<Tile>>>)
        } else {
            quote!(rt::board::Group<Tile>)
        };
        let group_alias = if self.uses_tiles {
            quote! {
                /// A group of tiles on a board.
                pub type Group = #group_ty;
            }
        } else {
            quote!()
        };
        let hierarchies: Vec<TokenStream> =
            self.hierarchies.iter().map(|h| self.hierarchy_types(h)).collect();
        let globals: Vec<TokenStream> = self.globals.keys().map(|&c| self.global_struct(c)).collect();
        let group_consts: Vec<TokenStream> = self
            .group_consts
            .iter()
            .enumerate()
            .map(|(i, ((board, g), name))| {
                let doc = format!(
                    " The group `{}.{}`.",
                    self.prog.class(*board).name,
                    self.prog.class(*board).groups[*g].name
                );
                quote! {
                    #[doc = #doc]
                    pub const #name: rt::Id<Group> = rt::Id::from_index(#i);
                }
            })
            .collect();
        let grid_consts: Vec<TokenStream> =
            self.grid_consts.iter().map(|(&(board, g), name)| self.grid_const(board, g, name)).collect();
        let world = self.world_struct();
        let moves = self.move_enum();
        let runs = self.run_enum();
        let world_impl = self.world_impl();
        quote! {
            #locs
            #locs_in
            #game
            #group_alias
            #(#hierarchies)*
            #(#globals)*
            /// The engine's own event: a player chooses a move of the turn menu.
            pub const PLAYER_CHOICE: rt::Id<Event> = rt::Id::from_index(0);
            #(#group_consts)*
            #(#grid_consts)*
            #world
            #moves
            #runs
            #world_impl
        }
    }

    /// Attributes stored on the root struct: the root's own, built-in ones first
    /// (`connections` only when the game uses them).
    pub(super) fn root_attrs(&self, h: &Hierarchy) -> Vec<AttrId> {
        self.prog
            .class(h.root)
            .attrs
            .iter()
            .copied()
            .filter(|&a| self.uses_connections || self.prog.attr(a).builtin != Some(BuiltinAttr::Connections))
            .collect()
    }

    /// Attributes a variant stores: those of its classes below the root (`event.active`
    /// is not stored: it is the active player).
    pub(super) fn variant_attrs(&self, root: ClassId, class: ClassId) -> Vec<AttrId> {
        let mut chain = Vec::new();
        let mut cur = Some(class);
        while let Some(c) = cur {
            if c == root {
                break;
            }
            chain.push(c);
            cur = self.prog.class(c).base;
        }
        chain
            .iter()
            .rev()
            .flat_map(|c| self.prog.class(*c).attrs.iter().copied())
            .filter(|&a| self.prog.attr(a).builtin != Some(BuiltinAttr::Active))
            .collect()
    }

    /// The Rust type of an attribute's field.
    pub(super) fn attr_ty(&self, a: AttrId) -> TokenStream {
        let attr = self.prog.attr(a);
        if matches!(attr.builtin, Some(BuiltinAttr::X | BuiltinAttr::Y)) {
            // Coordinates are whole numbers (see `codegen::whole`).
            return quote!(i64);
        }
        self.rust_ty(&attr.ty, self.null.attr(self.prog, a))
    }

    fn hierarchy_types(&self, h: &Hierarchy) -> TokenStream {
        let strukt = &h.strukt;
        let root = self.prog.class(h.root);
        let mut fields: Vec<TokenStream> = Vec::new();
        for a in self.root_attrs(h) {
            let name = &self.attr_field[&a];
            let ty = self.attr_ty(a);
            let doc = attr_doc(self, a);
            fields.push(quote! { #[doc = #doc] pub #name: #ty, });
        }
        if root.kind == ClassKind::Deck {
            let stack = self.collection_ty(&Ty::Stack(Box::new(root.element.clone().unwrap_or(Ty::Error))));
            fields.push(quote! {
                /// The cards in the deck; the last is the top.
                pub items: rt::Id<#stack>,
            });
        }
        let derive = if self.hierarchy_is_copy(h) {
            quote!(Clone, Copy, Debug, PartialEq)
        } else {
            quote!(Clone, Debug, PartialEq)
        };
        let mut kind_tokens = quote!();
        let mut accessors = Vec::new();
        if let Some(kind) = &h.kind_enum {
            if h.flat {
                for a in self.flat_attrs(h) {
                    let name = &self.attr_field[&a];
                    let ty = self.attr_ty(a);
                    let doc = attr_doc(self, a);
                    fields.push(quote! { #[doc = #doc] pub #name: #ty, });
                }
                fields.push(quote! {
                    /// Which class this object is.
                    pub kind: #kind,
                });
            } else {
                fields.push(quote! {
                    /// Which class this object is, with the attributes of that class.
                    pub kind: #kind,
                });
            }
            let mut variants = Vec::new();
            for (class, v) in &h.variants {
                let attrs = if h.flat { Vec::new() } else { self.variant_attrs(h.root, *class) };
                let doc = format!(" `{}`", self.prog.class(*class).name);
                if attrs.is_empty() {
                    variants.push(quote! { #[doc = #doc] #v, });
                } else {
                    let fs = attrs.iter().map(|a| {
                        let n = &self.attr_field[a];
                        let t = self.attr_ty(*a);
                        quote!(#n: #t)
                    });
                    variants.push(quote! { #[doc = #doc] #v { #(#fs),* }, });
                }
            }
            let kdoc = format!(" The classes of `{}` objects.", root.name);
            // A class may exist only to be derived from: its variant is never built.
            let abstract_classes =
                h.variants.iter().any(|(c, _)| !self.prog.class(*c).builtin && !self.created.contains(c));
            let allow = if abstract_classes { quote!(#[allow(dead_code)]) } else { quote!() };
            kind_tokens = quote! {
                #[doc = #kdoc]
                #[derive(#derive)]
                #allow
                pub enum #kind { #(#variants)* }
            };
            // Accessors for attributes stored in variants.
            for (i, a) in self.prog.attrs.iter().enumerate() {
                let a_id = AttrId(i as u32);
                if self.prog.class(a.class).root != h.root
                    || a.class == h.root
                    || a.builtin == Some(BuiltinAttr::Active)
                {
                    continue;
                }
                let name = &self.attr_field[&a_id];
                let name_mut = format_ident!("{}_mut", name.to_string().trim_start_matches("r#"));
                let ty = self.attr_ty(a_id);
                let holders: Vec<&proc_macro2::Ident> = h
                    .variants
                    .iter()
                    .filter(|(c, _)| self.prog.is_subclass(*c, a.class))
                    .map(|(_, v)| v)
                    .collect();
                let read = if a.ty == Ty::String { quote!(#name.clone()) } else { quote!(*#name) };
                if h.flat {
                    // The checker knows the class: the attribute is there.
                    let doc = format!(" `{}.{}`", self.prog.class(a.class).name, a.name);
                    let field =
                        if a.ty == Ty::String { quote!(self.#name.clone()) } else { quote!(self.#name) };
                    accessors.push(quote! {
                        #[doc = #doc]
                        #[inline(always)]
                        pub fn #name(&self) -> rt::Flow<#ty> {
                            Ok(#field)
                        }
                        #[inline(always)]
                        pub fn #name_mut(&mut self) -> rt::Flow<&mut #ty> {
                            Ok(&mut self.#name)
                        }
                    });
                    continue;
                }
                let doc = format!(
                    " `{}.{}` (an error if this object is not a `{}`).",
                    self.prog.class(a.class).name,
                    a.name,
                    self.prog.class(a.class).name
                );
                accessors.push(quote! {
                    #[doc = #doc]
                    pub fn #name(&self) -> rt::Flow<#ty> {
                        match &self.kind {
                            #(#kind::#holders { #name, .. })|* => Ok(#read),
                            #[allow(unreachable_patterns)]
                            _ => Err(rt::error::wrong_class()),
                        }
                    }
                    pub fn #name_mut(&mut self) -> rt::Flow<&mut #ty> {
                        match &mut self.kind {
                            #(#kind::#holders { #name, .. })|* => Ok(#name),
                            #[allow(unreachable_patterns)]
                            _ => Err(rt::error::wrong_class()),
                        }
                    }
                });
            }
        }
        let doc = if root.builtin {
            format!(" Every `{}` of the game.", root.name)
        } else {
            format!(
                " `{}` objects{}.",
                root.name,
                if h.variants.len() > 1 { " and the classes deriving from it" } else { "" }
            )
        };
        // Accessors are the data's API (for code using the engine too): the rules need
        // not read every attribute.
        let impl_block = if accessors.is_empty() {
            quote!()
        } else {
            quote!(#[allow(dead_code)] impl #strukt { #(#accessors)* })
        };
        quote! {
            #[doc = #doc]
            #[derive(#derive)]
            pub struct #strukt { #(#fields)* }
            #kind_tokens
            #impl_block
        }
    }

    /// Whether every attribute of a hierarchy is a plain value (no string, which is
    /// shared through a reference count): its objects are then `Copy`, and cloning or
    /// resetting a world copies their arena as one block of memory.
    pub(super) fn hierarchy_is_copy(&self, h: &Hierarchy) -> bool {
        self.prog.attrs.iter().all(|a| self.prog.class(a.class).root != h.root || a.ty != Ty::String)
    }

    fn global_struct(&self, c: ClassId) -> TokenStream {
        let (s, _) = &self.globals[&c];
        let class = self.prog.class(c);
        let fields: Vec<TokenStream> = class
            .attrs
            .iter()
            .filter(|&&a| self.prog.attr(a).builtin.is_none())
            .map(|a| {
                let n = &self.attr_field[a];
                let t = self.attr_ty(*a);
                let doc = attr_doc(self, *a);
                quote! { #[doc = #doc] pub #n: #t, }
            })
            .collect();
        let doc = if class.kind == ClassKind::Board {
            format!(
                " The board `{}` (its groups are the `{}_*` constants).",
                class.name,
                snake(&class.name).to_uppercase()
            )
        } else {
            format!(" The global class `{}`: one instance, created before `setup`.", class.name)
        };
        quote! {
            #[doc = #doc]
            #[derive(Clone, Debug, Default, PartialEq)]
            pub struct #s { #(#fields)* }
        }
    }

    fn world_struct(&self) -> TokenStream {
        let mut fields = vec![quote! {
            /// Players, turn, generator, log and outcome.
            pub core: rt::Core,
        }];
        for h in &self.hierarchies {
            let (a, s) = (&h.arena, &h.strukt);
            let doc = format!(" Every `{}` object, in creation order.", self.prog.class(h.root).name);
            fields.push(quote! { #[doc = #doc] pub #a: rt::Arena<#s>, });
        }
        if self.uses_tiles {
            fields.push(quote! {
                /// The groups of every board.
                pub groups: rt::Arena<Group>,
            });
        }
        for (key, (f, ty)) in &self.collections {
            let c = self.collection_ty(ty);
            let doc = format!(" Every `{key}`.");
            fields.push(quote! { #[doc = #doc] pub #f: rt::Arena<#c>, });
        }
        for (s, f) in self.globals.values() {
            fields.push(quote! { pub #f: #s, });
        }
        fields.extend(self.owner_fields());
        fields.extend(self.instance_fields());
        for k in &self.kept {
            let a = self.prog.action(k.action);
            let doc = format!(
                " The tiles `{}.{}` offered in the menu last built, and those written since (`tgdl_runtime::kept`).",
                self.prog.class(a.owner).name,
                a.name
            );
            let (f, n) = (&k.field, k.words);
            fields.push(quote! { #[doc = #doc] pub #f: rt::kept::Kept<#n>, });
        }
        if self.has_queue() {
            fields.push(quote! {
                /// Triggered actions waiting to run, in order (breadth first, docs/language.md).
                pub queue: std::collections::VecDeque<Run>,
            });
        }
        quote! {
            /// The state of a game: one plain value. Objects live in arenas and refer to
            /// each other by handle, so cloning a world clones the whole game.
            #[derive(Clone, Debug, PartialEq)]
            pub struct World { #(#fields)* }
        }
    }

    /// The fields of `World` besides `core`, in declaration order.
    fn world_fields(&self) -> Vec<proc_macro2::Ident> {
        let mut out: Vec<proc_macro2::Ident> = self.hierarchies.iter().map(|h| h.arena.clone()).collect();
        if self.uses_tiles {
            out.push(format_ident!("groups"));
        }
        out.extend(self.collections.values().map(|(f, _)| f.clone()));
        out.extend(self.globals.values().map(|(_, f)| f.clone()));
        out.extend(self.owner_indexes.values().map(|i| i.field.clone()));
        out.extend(self.instances.lists.values().map(|l| l.field.clone()));
        out.extend(self.kept.iter().map(|k| k.field.clone()));
        if self.has_queue() {
            out.push(format_ident!("queue"));
        }
        out
    }

    fn move_enum(&self) -> TokenStream {
        let variants: Vec<TokenStream> = self
            .menu_actions()
            .into_iter()
            .map(|a| {
                let action = self.prog.action(a);
                let v = &self.move_variant[&a];
                let mut fields = Vec::new();
                if !self.is_global(action.owner) {
                    let h = self.handle_ty(action.owner);
                    fields.push(quote!(this: #h));
                }
                for i in self.leading_inputs(a) {
                    let input = &action.inputs[i];
                    let n = &self.input_field[&(a, i)];
                    let t = self.rust_ty(&input.ty, input.optional);
                    fields.push(quote!(#n: #t));
                }
                let doc = format!(" `{}.{}`", self.prog.class(action.owner).name, action.name);
                if fields.is_empty() {
                    quote! { #[doc = #doc] #v, }
                } else {
                    quote! { #[doc = #doc] #v { #(#fields),* }, }
                }
            })
            .collect();
        quote! {
            /// A move of the turn menu: an action on an object, with the inputs chosen with it.
            /// Variants are named class then action (`RulesPlace`), even when one class holds
            /// every action.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            #[allow(clippy::enum_variant_names)]
            pub enum Move { #(#variants)* }
        }
    }

    fn run_enum(&self) -> TokenStream {
        if !self.has_queue() {
            return quote!();
        }
        let variants: Vec<TokenStream> = (0..self.prog.actions.len() as u32)
            .map(crate::hir::ActionId)
            .filter(|&a| self.prog.action(a).triggers.iter().any(|t| !self.is_choice_trigger(t.event)))
            .map(|a| {
                let action = self.prog.action(a);
                let v = &self.move_variant[&a];
                let doc = format!(" `{}.{}`", self.prog.class(action.owner).name, action.name);
                if self.is_global(action.owner) {
                    quote! { #[doc = #doc] #v { event: rt::Id<Event> }, }
                } else {
                    let h = self.handle_ty(action.owner);
                    quote! { #[doc = #doc] #v { this: #h, event: rt::Id<Event> }, }
                }
            })
            .collect();
        quote! {
            /// An action triggered by an event, waiting in the queue.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub enum Run { #(#variants)* }
        }
    }

    fn world_impl(&self) -> TokenStream {
        let mut fields = vec![quote!(core)];
        let tiles: usize = self
            .prog
            .classes
            .iter()
            .flat_map(|c| &c.groups)
            .map(|g| g.cells.iter().flatten().flatten().count())
            .sum();
        for h in &self.hierarchies {
            let a = &h.arena;
            // Boards are built at once: reserve their tiles.
            if h.root == self.prog.builtins.tile && tiles > 0 {
                fields.push(quote!(#a: rt::Arena::with_capacity(#tiles)));
            } else {
                fields.push(quote!(#a: rt::Arena::new()));
            }
        }
        if self.uses_tiles {
            fields.push(quote!(groups: rt::Arena::new()));
        }
        for (f, _) in self.collections.values() {
            fields.push(quote!(#f: rt::Arena::new()));
        }
        for (s, f) in self.globals.values() {
            fields.push(quote!(#f: #s::default()));
        }
        for index in self.owner_indexes.values() {
            let f = &index.field;
            let sets = index.tiles.last().map_or(0, |&t| t + 1);
            fields.push(quote!(#f: rt::owners::Owners::new(#sets)));
        }
        for list in self.instances.lists.values() {
            let f = &list.field;
            fields.push(quote!(#f: rt::instances::Instances::new()));
        }
        for k in &self.kept {
            let f = &k.field;
            fields.push(quote!(#f: rt::kept::Kept::new()));
        }
        if self.has_queue() {
            fields.push(quote!(queue: std::collections::VecDeque::new()));
        }
        let choice_variant = self
            .hierarchy(self.prog.builtins.event)
            .and_then(|h| {
                let flat = self.flat_blank_fields(h);
                h.kind_enum.clone().map(|k| quote!(Event { #flat kind: #k::PlayerChoice }))
            })
            .unwrap_or_else(|| quote!(Event {}));
        let owners = self.rebuild_owners(quote!(world));
        let record = self.after_allocation(self.prog.builtins.event, quote!(world), quote!(choice));
        let choice_event = if record.is_empty() {
            quote!(world.events.alloc(#choice_variant);)
        } else {
            quote!(let choice = world.events.alloc(#choice_variant); #record)
        };
        let created = self.created_fns();
        let boards = if self.uses_tiles { quote!(world.build_boards(); #owners) } else { quote!() };
        let build = self.build_boards();
        let blanks = self.blank_constructors();
        let marks = if self.menu_allocates() { self.marks() } else { quote!() };
        // Groups are built with the empty world and never change: a reset keeps them
        // (copying them would touch the reference counts of their shared layouts).
        let reset_fields: Vec<_> = self.world_fields().into_iter().filter(|f| *f != "groups").collect();
        let groups_kept = if self.uses_tiles {
            quote!(debug_assert!(self.groups == empty.groups, "board groups changed during a game");)
        } else {
            quote!()
        };
        let groups_kept_other = if self.uses_tiles {
            quote!(debug_assert!(self.groups == other.groups, "board groups differ between worlds of one game");)
        } else {
            quote!()
        };
        quote! {
            impl World {
                /// An empty world: arenas, boards with blank tiles, and global classes with
                /// their attributes not yet initialised (that happens in `setup`). Built
                /// once per process and cloned: every game starts from the same layout.
                pub fn new(core: rt::Core) -> World {
                    let mut world = World::empty().clone();
                    world.core = core;
                    world
                }

                /// Makes this world the empty one of a new game, reusing its allocations.
                pub fn restart(&mut self, players: u32, seed: u128) {
                    let empty = World::empty();
                    #(self.#reset_fields.clone_from(&empty.#reset_fields);)*
                    #groups_kept
                    self.core.restart(players, seed);
                }

                /// Makes this world a copy of `other` (a world of the same game), reusing
                /// its allocations: a search copies the game it samples many times.
                pub fn copy_from(&mut self, other: &World) {
                    self.core.clone_from(&other.core);
                    #(self.#reset_fields.clone_from(&other.#reset_fields);)*
                    #groups_kept_other
                }

                fn empty() -> &'static World {
                    static EMPTY: std::sync::OnceLock<World> = std::sync::OnceLock::new();
                    EMPTY.get_or_init(|| World::build(rt::Core::new(1, 0)))
                }

                fn build(core: rt::Core) -> World {
                    let mut world = World { #(#fields),* };
                    #choice_event
                    #boards
                    world
                }
                #build
                #blanks
                #marks
                #created
            }
        }
    }

    /// Arena lengths of collections, taken before a speculative evaluation and restored
    /// after it: temporaries it created cannot be referenced from the state.
    fn marks(&self) -> TokenStream {
        let arenas: Vec<&proc_macro2::Ident> = self.collections.values().map(|(f, _)| f).collect();
        let n = arenas.len();
        let idx: Vec<usize> = (0..n).collect();
        let unused = if n == 0 { quote!(let _ = marks;) } else { quote!() };
        quote! {
            fn marks(&self) -> [usize; #n] {
                [#(self.#arenas.len()),*]
            }

            fn truncate_to(&mut self, marks: [usize; #n]) {
                #(self.#arenas.truncate(marks[#idx]);)*
                #unused
            }
        }
    }

    /// Patterns matching the variants of `class` and its descendants (`TileKind::Cell { .. }`).
    pub(super) fn variants_of(&self, class: ClassId) -> Vec<TokenStream> {
        match self.hierarchy(class) {
            Some(h) => h
                .variants
                .iter()
                .filter(|(c, _)| self.prog.is_subclass(*c, class))
                .map(|(c, _)| self.variant_pattern(h, *c))
                .collect(),
            None => Vec::new(),
        }
    }

    /// The pattern of one class's variant: `Kind::V` for a variant without attributes
    /// (all of a flat hierarchy's), `Kind::V { .. }` otherwise.
    pub(super) fn variant_pattern(&self, h: &Hierarchy, class: ClassId) -> TokenStream {
        let Some(k) = &h.kind_enum else { return quote!(_) };
        let v =
            h.variants.iter().find(|(c, _)| *c == class).map_or_else(|| ident("Missing"), |(_, v)| v.clone());
        if h.flat || self.variant_attrs(h.root, class).is_empty() {
            quote!(#k::#v)
        } else {
            quote!(#k::#v { .. })
        }
    }
}

fn attr_doc(g: &Gen<'_>, a: AttrId) -> String {
    let attr = g.prog.attr(a);
    let class = &g.prog.class(attr.class).name;
    match attr.builtin {
        Some(_) => format!(" `{class}.{}` (built in)", attr.name),
        None => format!(" `{class}.{}`", attr.name),
    }
}

pub(super) fn geometry_path(geometry: Geometry) -> TokenStream {
    match geometry {
        Geometry::Square => quote!(rt::board::Geometry::Square),
        Geometry::HexRows => quote!(rt::board::Geometry::HexRows),
        Geometry::HexColumns => quote!(rt::board::Geometry::HexColumns),
        Geometry::Graph => quote!(rt::board::Geometry::Graph),
    }
}
