//! The emitters' shared context: [`Gen`], the module being generated (the program and
//! its analyses), and [`BodyGen`], one function body being generated (its locals,
//! `this`, `event`, loops), which statements and expressions both extend.

use crate::codegen::names::{self, Namer, Space, camel, ident, snake};
use crate::codegen::plan::repr::{Nullability, Owner, collection_key, collection_types};
use crate::codegen::plan::whole;
use crate::hir::{
    ActionId, AttrId, Block, ClassId, ClassKind, ExprKind, FuncId, InputMode, LocalId, Locals, Program,
    StmtKind, Ty, Visibility,
};
use crate::source::Span;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::{BTreeMap, HashMap, HashSet};

/// One hierarchy of objects stored in an arena: a root struct, its kind enum when it
/// has several concrete classes, and its field in `World`.
pub(crate) struct Hierarchy {
    pub root: ClassId,
    pub strukt: Ident,
    /// `Some` when several classes of the hierarchy can be instantiated.
    pub kind_enum: Option<Ident>,
    /// Concrete classes, in declaration order, with their variant names.
    pub variants: Vec<(ClassId, Ident)>,
    pub arena: Ident,
    /// Tag identifying the arena in `Pick::Object` and table keys.
    pub tag: u32,
    /// The method labelling its objects (`label_cards`).
    pub label_fn: Ident,
    /// The "in a stack" marks of its objects, in the census of hidden objects.
    pub in_stack: Ident,
    /// The attributes of every class are fields of the root struct, and the kind enum
    /// only names the class: reading one is a plain load, with no test of the class (the
    /// checker has done that). Chosen when the classes have few attributes between them,
    /// so that objects stay small.
    pub flat: bool,
}

/// Most attributes the classes of a hierarchy may have between them for it to be flat.
const FLAT_ATTRIBUTES: usize = 8;

pub(crate) struct Gen<'p> {
    pub prog: &'p Program,
    /// For turning spans into `loc(line, column)`.
    pub sources: Option<&'p crate::source::SourceMap>,
    pub null: Nullability,
    /// Number locals stored as `i64` (see [`whole`]).
    pub whole: whole::WholeNumbers,
    pub hierarchies: Vec<Hierarchy>,
    /// Root class → index in `hierarchies`.
    pub hierarchy_of: HashMap<ClassId, usize>,
    /// Global class or board → (struct name, `World` field).
    pub globals: BTreeMap<ClassId, (Ident, Ident)>,
    /// Attribute → field name (in its struct or variant; also its accessor's name).
    pub attr_field: HashMap<AttrId, Ident>,
    pub func_name: HashMap<FuncId, Ident>,
    /// Action → prefix of its generated functions (`rules_place`).
    pub action_name: HashMap<ActionId, String>,
    /// Collection representation key → (World arena field, canonical type).
    pub collections: BTreeMap<String, (Ident, Ty)>,
    /// (board, group index) → constant holding the group's handle; in creation order.
    pub group_consts: Vec<((ClassId, usize), Ident)>,
    pub move_variant: HashMap<ActionId, Ident>,
    /// The field of a `Move` variant holding an action's input (by the input's index):
    /// unique within the variant, `fooBar` and `foo_bar` included, and never `this`.
    pub input_field: HashMap<(ActionId, usize), Ident>,
    /// The functions that may be running already when called (see `Gen::may_recurse`),
    /// found once.
    pub recursive: std::cell::OnceCell<std::collections::HashSet<FuncId>>,
    pub uses_tiles: bool,
    /// Whether the game reads `tile.connections`, calls `connect` or has graph groups;
    /// otherwise boards are built without connection objects.
    pub uses_connections: bool,
    /// Whether groups keep the list of their tiles (the game reads `G.tiles`, or builds
    /// graph groups).
    pub keeps_tiles: bool,
    /// Tile classes whose instances all come from board grids (never `new`): their
    /// handles, in creation order, are known when the game is compiled.
    pub static_tiles: HashMap<ClassId, Vec<usize>>,
    /// Regular groups the game indexes by name (`Board.group[i][j]`, `.at(i, j)`) → the
    /// constant describing their grid, so those lookups need no access to the world.
    pub grid_consts: BTreeMap<(ClassId, usize), Ident>,
    /// Classes whose objects the game creates: with `new`, or as tiles of board grids.
    /// (Others exist only to be derived from.)
    pub created: std::collections::HashSet<ClassId>,
    /// Class → the methods running its attribute initialisers (`init_card`) and making a
    /// blank object (`blank_card`).
    pub init_fn: HashMap<ClassId, Ident>,
    pub blank_fn: HashMap<ClassId, Ident>,
    /// Attributes whose owners the world indexes for menus (`owners`).
    pub owner_indexes: BTreeMap<AttrId, super::owners::OwnerIndex>,
    /// Classes whose own instances the world lists for inputs' candidates (`instances`).
    pub instances: super::instances::Instances,
    /// The menu actions whose options the world keeps between moves (`kept`); empty when
    /// the menu is built in full after every move.
    pub kept: Vec<super::kept::KeptMenu>,
    /// The generator's own names, for the namers of bodies.
    pub fixed: names::Fixed,
}

impl<'p> Gen<'p> {
    pub(crate) fn new(
        prog: &'p Program,
        sources: Option<&'p crate::source::SourceMap>,
        fixed: names::Fixed,
    ) -> Gen<'p> {
        let null = Nullability::analyze(prog);
        let whole = whole::WholeNumbers::analyze(prog, &null);
        let mut types = Namer::new(&fixed, Space::Module);
        let mut fields = Namer::new(&fixed, Space::WorldFields);
        let mut fns = Namer::new(&fixed, Space::Methods);
        let uses_tiles =
            prog.classes.iter().any(|c| !c.builtin && matches!(c.kind, ClassKind::Tile | ClassKind::Board));
        let mut uses_connections =
            prog.classes.iter().any(|c| c.groups.iter().any(|g| g.geometry == crate::hir::Geometry::Graph));
        let mut reads_groups = false;
        let mut keeps_tiles = uses_connections;
        // `BlankTile`s exist only where a graph group's `default` creates them (a `b` in
        // a grid is no tile at all): only then is `BlankTile` a variant of `TileKind`.
        let mut creates_blank_tiles = false;
        prog.walk_exprs(&mut |e| match &e.kind {
            crate::hir::ExprKind::Attr { attr, .. } => match prog.attr(*attr).builtin {
                Some(crate::hir::BuiltinAttr::Connections) => uses_connections = true,
                Some(crate::hir::BuiltinAttr::Groups) => reads_groups = true,
                Some(crate::hir::BuiltinAttr::Tiles) => keeps_tiles = true,
                _ => {}
            },
            crate::hir::ExprKind::Builtin { op: crate::hir::Builtin::Connect, .. } => uses_connections = true,
            crate::hir::ExprKind::New { class, .. } => {
                uses_connections |= prog.class(*class).root == prog.builtins.connection;
                creates_blank_tiles |= *class == prog.builtins.blank_tile;
            }
            _ => {}
        });
        let b = prog.builtins;

        // Hierarchies with an arena, in declaration order of their roots.
        let mut hierarchies = Vec::new();
        let mut hierarchy_of = HashMap::new();
        for (i, c) in prog.classes.iter().enumerate() {
            let id = ClassId(i as u32);
            if c.root != id
                || c.visibility == Visibility::Global
                || matches!(c.kind, ClassKind::Board | ClassKind::Group)
            {
                continue;
            }
            if (!uses_tiles && id == b.tile) || (!uses_connections && id == b.connection) {
                continue;
            }
            let (strukt, arena) = if id == b.tile {
                ("Tile".to_string(), "tiles".to_string())
            } else if id == b.connection {
                ("Connection".to_string(), "connections".to_string())
            } else if id == b.event {
                ("Event".to_string(), "events".to_string())
            } else {
                (types.fresh_type(&camel(&c.name)), fields.fresh(&names::plural(&snake(&c.name))))
            };
            let concrete: Vec<ClassId> = prog
                .descendants(id)
                .into_iter()
                .filter(|&d| {
                    let dc = prog.class(d);
                    // Built-in roots are abstract; `connection` itself is instantiable.
                    !(dc.builtin
                        && d != b.connection
                        && d != b.player_choice
                        && !(d == b.blank_tile && creates_blank_tiles))
                })
                .collect();
            let label_fn = ident(&fns.fresh(&format!("label_{arena}")));
            let in_stack = ident(&fns.fresh(&format!("in_stack_{arena}")));
            let kind_enum = if concrete.len() > 1 || (c.builtin && id != b.connection) {
                // Built-in roots own their reserved names; user roots get fresh ones.
                Some(if c.builtin {
                    format!("{strukt}Kind")
                } else {
                    types.fresh_type(&format!("{strukt}Kind"))
                })
            } else {
                None
            };
            // Built-in classes keep their fixed variants; the program's classes get
            // unique ones next to them.
            let mut variant_names = Namer::new(&fixed, Space::Module);
            let variants = concrete
                .iter()
                .map(|&d| {
                    let name = if d == b.player_choice {
                        "PlayerChoice".to_string()
                    } else if prog.class(d).builtin {
                        camel(&prog.class(d).name)
                    } else {
                        variant_names.fresh_type(&camel(&prog.class(d).name))
                    };
                    (d, ident(&name))
                })
                .collect();
            let variant_attributes = prog
                .attrs
                .iter()
                .filter(|a| a.class != id && prog.class(a.class).root == id && a.builtin.is_none())
                .count();
            let flat = kind_enum.is_some() && variant_attributes <= FLAT_ATTRIBUTES;
            hierarchy_of.insert(id, hierarchies.len());
            let tag = hierarchies.len() as u32;
            hierarchies.push(Hierarchy {
                root: id,
                strukt: ident(&strukt),
                kind_enum: kind_enum.map(|k| ident(&k)),
                variants,
                arena: ident(&arena),
                tag,
                label_fn,
                in_stack,
                flat,
            });
        }
        let mut globals = BTreeMap::new();
        for (i, c) in prog.classes.iter().enumerate() {
            if !c.builtin && (c.visibility == Visibility::Global || c.kind == ClassKind::Board) {
                let s = types.fresh_type(&camel(&c.name));
                let f = fields.fresh(&snake(&c.name));
                globals.insert(ClassId(i as u32), (ident(&s), ident(&f)));
            }
        }
        // Attribute fields: unique within each struct (a hierarchy's variants share one
        // namespace, since their accessors are methods of the root struct).
        let mut attr_field = HashMap::new();
        let mut per_root: HashMap<ClassId, Namer> = HashMap::new();
        for (i, a) in prog.attrs.iter().enumerate() {
            let root = prog.class(a.class).root;
            let namer = per_root.entry(root).or_insert_with(|| Namer::new(&fixed, Space::Members));
            // Every attribute may get the accessors `x()` and `x_mut()`. Built-in ones
            // (`tile.x`) are the generator's own, and keep their names.
            let name = if a.builtin.is_some() {
                let name = snake(&a.name);
                namer.claim(&name);
                namer.claim(&format!("{name}_mut"));
                name
            } else {
                namer.fresh_family(&snake(&a.name), &[("", "_mut")])
            };
            attr_field.insert(AttrId(i as u32), ident(&name));
        }
        // Function names, all methods of `World`.
        let mut func_name = HashMap::new();
        for (i, f) in prog.funcs.iter().enumerate() {
            let base = match (f.owner, f.kind) {
                (_, crate::hir::FuncKind::TurnDefault) => {
                    format!("next_player_{}", snake(&f.name.replace("_default", "")))
                }
                (Some(c), crate::hir::FuncKind::GroupDefault) => {
                    let _ = c;
                    format!("build_group_{}", snake(&f.name.replace("_default", "")))
                }
                (Some(c), crate::hir::FuncKind::DeckDefault) => {
                    format!("{}_default", snake(&prog.class(c).name))
                }
                (Some(c), _) => format!("{}_{}", snake(&prog.class(c).name), snake(&f.name)),
                (None, _) => snake(&f.name),
            };
            // An overridden function's own body is `f_impl`, behind the dispatcher `f`.
            func_name.insert(FuncId(i as u32), ident(&fns.fresh_family(&base, &[("", "_impl")])));
        }
        let mut action_name = HashMap::new();
        let mut moves = Namer::new(&fixed, Space::Module);
        let mut move_variant = HashMap::new();
        let mut input_field = HashMap::new();
        for (i, a) in prog.actions.iter().enumerate() {
            let base = format!("{}_{}", snake(&prog.class(a.owner).name), snake(&a.name));
            // The methods generated around an action (see `actions`).
            let triggers: Vec<String> = (0..a.triggers.len()).map(|k| format!("_trigger_{k}")).collect();
            let mut family = vec![("menu_", ""), ("", "_allowed"), ("", "_asked")];
            family.extend(triggers.iter().map(|t| ("", t.as_str())));
            action_name.insert(ActionId(i as u32), fns.fresh_family(&base, &family));
            let v = moves.fresh_type(&format!("{}{}", camel(&prog.class(a.owner).name), camel(&a.name)));
            move_variant.insert(ActionId(i as u32), ident(&v));
            let mut fields = Namer::with_reserved(&["this"]);
            for (k, input) in a.inputs.iter().enumerate() {
                input_field.insert((ActionId(i as u32), k), ident(&fields.fresh(&snake(&input.name))));
            }
        }
        let mut coll_names = Namer::default();
        // Built-in attributes whose collections exist only when the game uses them.
        let unused_attr = |b: crate::hir::BuiltinAttr| {
            (b == crate::hir::BuiltinAttr::Connections && !uses_connections)
                || (b == crate::hir::BuiltinAttr::Groups && !reads_groups)
        };
        let collections = collection_types(prog, &unused_attr)
            .into_iter()
            .map(|(key, ty)| {
                let name = coll_names.fresh(&collection_field(prog, &ty));
                (key, (ident(&fields.fresh(&name)), ty))
            })
            .collect();
        let mut group_consts = Vec::new();
        let mut consts = Namer::new(&fixed, Space::Module);
        for (i, c) in prog.classes.iter().enumerate() {
            for (g, group) in c.groups.iter().enumerate() {
                let name = consts.fresh(&format!("{}_{}", snake(&c.name), snake(&group.name)).to_uppercase());
                group_consts.push(((ClassId(i as u32), g), ident(&name)));
            }
        }
        let static_tiles = static_tiles(prog);
        let owner_indexes =
            super::owners::owner_indexes(prog, &static_tiles, &mut |n| ident(&fields.fresh(n)));
        let mut created: std::collections::HashSet<ClassId> = prog
            .classes
            .iter()
            .flat_map(|c| &c.groups)
            .flat_map(|g| g.cells.iter().flatten().flatten().copied())
            .collect();
        prog.walk_exprs(&mut |e| {
            if let crate::hir::ExprKind::New { class, .. } = &e.kind {
                created.insert(*class);
            }
        });
        let mut init_fn = HashMap::new();
        let mut blank_fn = HashMap::new();
        for (i, c) in prog.classes.iter().enumerate() {
            let class = snake(&c.name);
            init_fn.insert(ClassId(i as u32), ident(&fns.fresh(&format!("init_{class}"))));
            blank_fn.insert(ClassId(i as u32), ident(&fns.fresh(&format!("blank_{class}"))));
        }
        let mut grid_consts = BTreeMap::new();
        prog.walk_exprs(&mut |e| {
            use crate::hir::{Builtin, ExprKind};
            if let ExprKind::Builtin { op: Builtin::GroupAt | Builtin::GroupIndex, args } = &e.kind
                && let Some(ExprKind::BoardGroup { board, group }) = args.first().map(|a| &a.kind)
                && prog.class(*board).groups[*group].geometry != crate::hir::Geometry::Graph
                && !grid_consts.contains_key(&(*board, *group))
            {
                let c = prog.class(*board);
                let name = format!("{}_{}_layout", snake(&c.name), snake(&c.groups[*group].name));
                grid_consts.insert((*board, *group), ident(&consts.fresh(&name.to_uppercase())));
            }
        });
        let mut built = Gen {
            prog,
            sources,
            owner_indexes,
            instances: super::instances::Instances::default(),
            kept: Vec::new(),
            init_fn,
            blank_fn,
            fixed,
            uses_connections,
            keeps_tiles,
            static_tiles,
            grid_consts,
            created,
            null,
            whole,
            hierarchies,
            hierarchy_of,
            globals,
            attr_field,
            func_name,
            action_name,
            collections,
            group_consts,
            move_variant,
            input_field,
            recursive: std::cell::OnceCell::new(),
            uses_tiles,
        };
        // The sets are read and updated as plain fields of the tile struct.
        let on_root: Vec<AttrId> =
            built.owner_indexes.keys().copied().filter(|&a| built.attr_on_root(a)).collect();
        built.owner_indexes.retain(|a, _| on_root.contains(a));
        built.instances = super::instances::instances(&built, &mut |n| ident(&fields.fresh(n)), &mut |n| {
            ident(&fns.fresh(n))
        });
        built.kept = super::kept::kept_menus(&built, &mut |n| ident(&fields.fresh(n)));
        built
    }

    /// The hierarchy (arena) holding instances of `class`.
    pub fn hierarchy(&self, class: ClassId) -> Option<&Hierarchy> {
        self.hierarchy_of.get(&self.prog.class(class).root).map(|&i| &self.hierarchies[i])
    }

    pub fn is_global(&self, class: ClassId) -> bool {
        self.globals.contains_key(&class)
    }

    /// The Rust type of a TGDL value, `Option`-wrapped when `nullable`.
    pub fn rust_ty(&self, ty: &Ty, nullable: bool) -> TokenStream {
        let inner = match ty {
            Ty::Number => quote!(f64),
            Ty::String => quote!(rt::Str),
            Ty::Bool => quote!(bool),
            Ty::Player => quote!(rt::Player),
            Ty::Class(c) => self.handle_ty(*c),
            Ty::List(_) | Ty::Table(..) | Ty::Stack(_) => {
                let coll = self.collection_ty(ty);
                quote!(rt::Id<#coll>)
            }
            Ty::Null | Ty::Error => quote!(()),
            Ty::Void => quote!(()),
        };
        if nullable { quote!(Option<#inner>) } else { inner }
    }

    /// `rt::Id<Card>` for objects; globals use a handle to their (single) struct.
    pub fn handle_ty(&self, class: ClassId) -> TokenStream {
        if class == self.prog.builtins.group {
            return quote!(rt::Id<Group>);
        }
        if let Some((s, _)) = self.globals.get(&class) {
            return quote!(rt::Id<#s>);
        }
        match self.hierarchy(class) {
            Some(h) => {
                let s = &h.strukt;
                quote!(rt::Id<#s>)
            }
            None => quote!(rt::Id<()>),
        }
    }

    /// `rt::List<f64>` for `List<number>`: the collection itself (stored in an arena).
    pub fn collection_ty(&self, ty: &Ty) -> TokenStream {
        let (kind, elem) = match ty {
            Ty::List(e) => (quote!(rt::List), e),
            Ty::Table(e, _) => (quote!(rt::Table), e),
            Ty::Stack(e) => (quote!(rt::Stack), e),
            _ => return quote!(()),
        };
        let nullable = self.null.elem(self.prog, ty);
        let e = self.rust_ty(elem, nullable);
        quote!(#kind<#e>)
    }

    /// The `World` field holding collections of this type.
    pub fn collection_arena(&self, ty: &Ty) -> Ident {
        let key = collection_key(self.prog, ty);
        match self.collections.get(&key) {
            Some((f, _)) => f.clone(),
            None => ident("missing_collection_arena"),
        }
    }

    /// Whether the game's lists of tiles (and so `G.tiles`) may hold null: their items
    /// are then `Option`s, and a tile is put in them as `Some(tile)`.
    pub fn tile_lists_nullable(&self) -> bool {
        self.null.elem(self.prog, &Ty::List(Box::new(Ty::Class(self.prog.builtins.tile))))
    }

    pub fn group_const(&self, board: ClassId, group: usize) -> Ident {
        self.group_consts
            .iter()
            .find(|(k, _)| *k == (board, group))
            .map_or_else(|| ident("MISSING_GROUP"), |(_, n)| n.clone())
    }

    /// Whether a local is `Option`-represented.
    pub fn local_nullable(&self, owner: Owner, l: crate::hir::LocalId) -> bool {
        self.null.local(self.prog, owner, l)
    }

    /// Whether a number local is stored as an `i64` (see [`whole`]).
    /// Whether a function returns an `i64` (`whole`): a `number` that is always small and whole.
    pub fn ret_whole(&self, f: crate::hir::FuncId) -> bool {
        self.whole.ret(&self.null, f)
    }

    pub fn local_whole(&self, owner: Owner, l: crate::hir::LocalId) -> bool {
        self.whole.local(self.prog, &self.null, owner, l)
    }

    /// The Rust type of a local or function input.
    pub fn local_rust_ty(&self, owner: Owner, l: crate::hir::LocalId, ty: &Ty) -> TokenStream {
        if self.local_whole(owner, l) { quote!(i64) } else { self.rust_ty(ty, self.local_nullable(owner, l)) }
    }

    pub(crate) fn module(&self) -> TokenStream {
        let layout = self.layout();
        let bodies = self.functions();
        let actions = self.actions();
        let rules = self.rules_impl();
        quote! {
            use ::tgdl_runtime as rt;

            #layout
            #bodies
            #actions
            #rules
        }
    }
}

/// `lists_number`, `stacks_card`, `lists_list_player`: arena field names by type.
fn collection_field(prog: &Program, ty: &Ty) -> String {
    fn word(prog: &Program, t: &Ty) -> String {
        match t {
            Ty::Number => "number".into(),
            Ty::String => "string".into(),
            Ty::Bool => "bool".into(),
            Ty::Player => "player".into(),
            Ty::Class(c) => snake(&prog.class(prog.class(*c).root).name),
            Ty::List(e) => format!("list_{}", word(prog, e)),
            Ty::Table(e, _) => format!("table_{}", word(prog, e)),
            Ty::Stack(e) => format!("stack_{}", word(prog, e)),
            _ => "value".into(),
        }
    }
    match ty {
        Ty::List(e) => format!("lists_{}", word(prog, e)),
        Ty::Table(e, _) => format!("tables_{}", word(prog, e)),
        Ty::Stack(e) => format!("stacks_{}", word(prog, e)),
        other => word(prog, other),
    }
}

/// For each tile class never created with `new`: the creation indices of its tiles (and
/// those of its subclasses) as boards build them, group by group, row by row.
fn static_tiles(prog: &Program) -> HashMap<ClassId, Vec<usize>> {
    let mut created = std::collections::HashSet::new();
    prog.walk_exprs(&mut |e| {
        if let crate::hir::ExprKind::New { class, .. } = &e.kind {
            created.insert(*class);
        }
    });
    let order: Vec<ClassId> = prog
        .classes
        .iter()
        .flat_map(|c| &c.groups)
        .flat_map(|g| g.cells.iter().flatten().flatten().copied())
        .collect();
    let mut out = HashMap::new();
    for (i, c) in prog.classes.iter().enumerate() {
        let id = ClassId(i as u32);
        if c.kind != ClassKind::Tile || id == prog.builtins.tile {
            continue;
        }
        if prog.descendants(id).iter().any(|d| created.contains(d)) {
            continue;
        }
        let indices =
            order.iter().enumerate().filter(|(_, t)| prog.is_subclass(**t, id)).map(|(k, _)| k).collect();
        out.insert(id, indices);
    }
    out
}

/// A generated expression and facts about it.
pub(super) struct Code {
    pub ts: TokenStream,
    /// The value is an `Option`.
    pub null: bool,
}

/// How `this` is reached in a body.
#[derive(Clone, Debug)]
pub(super) enum This {
    None,
    /// A global class or board: its struct is a field of `World`.
    Global(ClassId),
    /// An object in an arena: the handle parameter `this`.
    Instance(ClassId),
    /// A board group (in a group's `default`).
    Group,
}

/// What `return` means in a body.
#[derive(Clone, Debug)]
pub(super) enum Ret {
    /// Effects, `setup`, functions with `returns;`: `return Ok(())`.
    Unit,
    /// A value of this type and representation.
    Value(Ty, bool),
}

pub(super) struct BodyGen<'g, 'p> {
    pub g: &'g Gen<'p>,
    pub owner: Owner,
    /// Rust names of the locals, by `LocalId`.
    pub names: Vec<Ident>,
    pub mutable: HashSet<LocalId>,
    pub namer: Namer,
    pub this: This,
    pub ret: Ret,
    /// The `event` parameter and whether it may be null (it is when an action is called
    /// like a function).
    pub event: Option<(Ident, bool)>,
    /// Enclosing loops, innermost last.
    pub loops: Vec<LoopInfo>,
    /// Inside an inlined filter or require: `return v` leaves this labelled block.
    pub break_with: Option<syn::Lifetime>,
    /// Nullable locals known not to be null here (`if (x != null) { .. }`): they are
    /// bound to their value under the same name.
    pub narrowed: HashSet<LocalId>,
    /// Narrowed locals read under another name: the value bound by a `while` condition,
    /// while the loop body may still assign the variable itself.
    pub aliases: HashMap<LocalId, Ident>,
    /// String locals held as the literal they equal (see [`coded_strings`]), with the
    /// literals they are compared with.
    pub coded: HashMap<LocalId, Vec<String>>,
    pub labels: usize,
}

impl<'g, 'p> BodyGen<'g, 'p> {
    pub fn new(
        g: &'g Gen<'p>,
        owner: Owner,
        locals: &Locals,
        blocks: &[&Block],
        this: This,
        ret: Ret,
    ) -> Self {
        // The parameters the generator gives bodies, and the module's functions.
        let mut namer = Namer::body(
            &g.fixed,
            &["this", "event", "self", "rt", "world", "marks", "out", "options", "pick"],
        );
        // Assigned locals are `mut`; an assignment's target is not a read.
        let mut mutable = HashSet::new();
        let mut targets = HashSet::new();
        for b in blocks {
            b.walk_exprs(&mut |e| {
                if let ExprKind::Assign { target, value } = &e.kind
                    && let ExprKind::Local(l) = target.kind
                {
                    // `x = x` is generated as nothing (see `expr::assign`).
                    if !matches!(value.kind, ExprKind::Local(v) if v == l) {
                        mutable.insert(l);
                    }
                    targets.insert((l, target.span));
                }
            });
        }
        let mut reads = HashSet::new();
        for b in blocks {
            b.walk_exprs(&mut |e| {
                if let ExprKind::Local(l) = e.kind
                    && !targets.contains(&(l, e.span))
                {
                    reads.insert(l);
                }
            });
        }
        // Inputs are read through their filters and moves even when the body does not.
        let inputs: Vec<&crate::hir::Input> = match owner {
            Owner::Func(f) => g.prog.func(f).inputs.iter().collect(),
            Owner::Action(a) => g.prog.action(a).inputs.iter().collect(),
            Owner::Setup => Vec::new(),
        };
        for i in inputs {
            // A function input the body never reads is just a parameter: `_x` then.
            if !matches!(i.mode, InputMode::Function { .. }) {
                reads.insert(i.local);
            }
            reads.extend(i.filters.iter().map(|f| f.binder));
        }
        // Locals the program never reads are named `_x`, as Rust expects.
        let names = locals
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let base = snake(&v.name);
                let unread = !reads.contains(&LocalId(i as u32)) && !base.starts_with('_');
                ident(&namer.fresh(&if unread { format!("_{base}") } else { base }))
            })
            .collect();
        let coded = coded_strings(blocks, locals, &mutable);
        BodyGen {
            g,
            owner,
            names,
            coded,
            mutable,
            namer,
            this,
            ret,
            event: None,
            loops: Vec::new(),
            break_with: None,
            narrowed: HashSet::new(),
            aliases: HashMap::new(),
            labels: 0,
        }
    }

    /// A fresh name for a temporary.
    pub fn temp(&mut self, base: &str) -> Ident {
        ident(&self.namer.fresh(base))
    }

    pub fn local_name(&self, l: LocalId) -> Ident {
        self.names.get(l.index()).cloned().unwrap_or_else(|| ident("missing_local"))
    }

    pub fn local_nullable(&self, l: LocalId) -> bool {
        self.g.local_nullable(self.owner, l)
    }

    pub fn local_ty(&self, l: LocalId, locals: &Locals) -> TokenStream {
        self.g.local_rust_ty(self.owner, l, &locals.get(l).ty)
    }

    /// Whether a number local is stored as an `i64` (see `codegen::whole`).
    pub fn local_whole(&self, l: LocalId) -> bool {
        self.g.local_whole(self.owner, l)
    }

    /// `loc(line, column)` for a span: where a rule error is reported.
    pub fn loc(&self, span: Span) -> TokenStream {
        self.g.loc_of(span)
    }

    /// The place of a check on a hot path, as a `&'static Loc` (see `Gen::at_of`).
    pub fn at(&self, span: Span) -> TokenStream {
        self.g.at_of(span)
    }
}

/// A loop being generated: how `break` and `continue` leave it.
#[derive(Clone)]
pub(super) struct LoopInfo {
    /// The loop's own label, needed by `break` inside a labelled body.
    pub label: syn::Lifetime,
    /// For a `for` loop whose body is a labelled block (so that `continue` still runs the
    /// step): that block's label.
    pub step: Option<syn::Lifetime>,
    /// Whether a `break` used `label` (the loop then carries it).
    pub label_used: bool,
}

/// What happens when a single, non-optional input has no candidate.
#[derive(Clone, Copy, Debug)]
pub(super) enum InputFailure {
    /// Inside an effect: a located rule error.
    Error(Span),
    /// A declared input of an action: the run is unavailable (the action does nothing).
    Skip,
}

/// The string locals that can be held as the literal they equal (an `Option<&'static
/// str>`) rather than as a string: declared with a value, never assigned after, and read
/// only in comparisons with string literals (`string kind = from.piece; if (kind == "P")
/// ...`). Each maps to the literals it is compared with, in order of first appearance.
/// Declaring one then copies no string (a shared string's copy is two atomic operations),
/// in rules like chess's `legal`, run a thousand times a decision.
fn coded_strings(
    blocks: &[&Block],
    locals: &Locals,
    mutable: &HashSet<LocalId>,
) -> HashMap<LocalId, Vec<String>> {
    let mut declared = HashSet::new();
    for b in blocks {
        b.walk_stmts(&mut |s| {
            if let StmtKind::Let { local, init: Some(_) } = &s.kind {
                declared.insert(*local);
            }
        });
    }
    let mut reads: HashMap<LocalId, usize> = HashMap::new();
    let mut compared: HashMap<LocalId, (usize, Vec<String>)> = HashMap::new();
    for b in blocks {
        b.walk_exprs(&mut |e| match &e.kind {
            ExprKind::Local(l) => *reads.entry(*l).or_default() += 1,
            ExprKind::Binary { op: crate::hir::BinaryOp::Eq | crate::hir::BinaryOp::Ne, lhs, rhs } => {
                if let (ExprKind::Local(l), ExprKind::String(lit))
                | (ExprKind::String(lit), ExprKind::Local(l)) = (&lhs.kind, &rhs.kind)
                {
                    let (n, literals) = compared.entry(*l).or_default();
                    *n += 1;
                    if !literals.contains(lit) {
                        literals.push(lit.clone());
                    }
                }
            }
            _ => {}
        });
    }
    compared
        .into_iter()
        .filter(|(l, (n, _))| {
            declared.contains(l)
                && !mutable.contains(l)
                && locals.get(*l).ty == Ty::String
                && reads.get(l) == Some(n)
        })
        .map(|(l, (_, literals))| (l, literals))
        .collect()
}

impl LoopInfo {
    pub fn plain(label: syn::Lifetime) -> LoopInfo {
        LoopInfo { label, step: None, label_used: false }
    }
}
