//! The layout of the generated data and its names: one struct per class hierarchy (flat
//! or with attributes in the variants), arenas, globals, collections and constants, and
//! every Rust name derived from the program (see `names`), with the queries on them the
//! analyses and the emitters share.

use crate::codegen::names::{self, Namer, Space, camel, ident, snake};
use crate::codegen::plan::repr::collection_types;
use crate::hir::{
    ActionId, AttrId, ClassId, ClassKind, ExprKind, FuncId, InputMode, Program, Ty, Visibility,
};
use proc_macro2::Ident;
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

/// The data's shape and the Rust names derived from the program: hierarchies and their
/// arenas, globals, collections, constants, and every namer's choice.
pub(crate) struct Layout<'p> {
    pub prog: &'p Program,
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
    /// The generator's own names, for the namers of bodies.
    pub fixed: names::Fixed,
}

/// The namers of `World`'s fields and methods, once the layout has named its own.
pub(crate) struct Namers {
    pub fields: Namer,
    pub fns: Namer,
}

impl<'p> Layout<'p> {
    /// The layout of a program (`flat_hierarchies`: whether small hierarchies may be
    /// flat), and the namers of `World`'s fields and methods, for the
    /// analyses that name more of them.
    pub(crate) fn new(
        prog: &'p Program,
        fixed: names::Fixed,
        flat_hierarchies: bool,
    ) -> (Layout<'p>, Namers) {
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
            let flat = flat_hierarchies && kind_enum.is_some() && variant_attributes <= FLAT_ATTRIBUTES;
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
                (_, crate::hir::FuncKind::TurnSimultaneous) => {
                    format!("round_players_{}", snake(f.name.trim_end_matches("_simultaneous")))
                }
                (_, crate::hir::FuncKind::TurnResolve) => {
                    format!("resolve_round_{}", snake(f.name.trim_end_matches("_resolve")))
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
        let layout = Layout {
            prog,
            init_fn,
            blank_fn,
            fixed,
            uses_connections,
            keeps_tiles,
            static_tiles,
            grid_consts,
            created,
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
            uses_tiles,
        };
        (layout, Namers { fields, fns })
    }

    /// The hierarchy (arena) holding instances of `class`.
    pub fn hierarchy(&self, class: ClassId) -> Option<&Hierarchy> {
        self.hierarchy_of.get(&self.prog.class(class).root).map(|&i| &self.hierarchies[i])
    }

    pub fn is_global(&self, class: ClassId) -> bool {
        self.globals.contains_key(&class)
    }

    /// Whether `attr` lives on the root struct (else in a variant, behind an accessor):
    /// attributes of the root class, and of every class of a flat hierarchy.
    pub(crate) fn attr_on_root(&self, a: AttrId) -> bool {
        let attr = self.prog.attr(a);
        self.prog.class(attr.class).root == attr.class || self.hierarchy(attr.class).is_some_and(|h| h.flat)
    }

    /// A trigger on `PlayerChoiceEvent` (or on `event`, its base) puts the action in menus.
    pub(crate) fn is_choice_trigger(&self, event: ClassId) -> bool {
        crate::facts::is_choice_trigger(self.prog, event)
    }

    /// Actions of the turn menu, in declaration order.
    pub(crate) fn menu_actions(&self) -> Vec<crate::hir::ActionId> {
        crate::facts::menu_actions(self.prog)
    }

    /// Indices of an action's leading inputs: the run of single, asked, default-target
    /// inputs that a move carries (notes, "Moves").
    pub(crate) fn leading_inputs(&self, a: crate::hir::ActionId) -> Vec<usize> {
        crate::facts::leading_inputs(self.prog, a)
    }

    /// Whether `class` covers its whole hierarchy (so no kind test is needed).
    pub(crate) fn covers_hierarchy(&self, class: ClassId) -> bool {
        match self.hierarchy(class) {
            Some(h) => h.variants.iter().all(|(c, _)| self.prog.is_subclass(*c, class)),
            None => true,
        }
    }

    /// Whether the game throws events (and so needs the queue of triggered runs).
    pub(crate) fn has_queue(&self) -> bool {
        crate::facts::has_queue(self.prog)
    }

    pub(crate) fn visibility(&self, class: ClassId) -> Visibility {
        self.prog.class(class).visibility
    }

    /// Whether an action's `Move` variant has fields (an object or leading inputs).
    pub(crate) fn move_has_fields(&self, a: crate::hir::ActionId) -> bool {
        !self.is_global(self.prog.action(a).owner) || !self.leading_inputs(a).is_empty()
    }

    /// Functions overriding `f` (directly or not).
    pub(crate) fn overriders(&self, f: FuncId) -> Vec<FuncId> {
        crate::facts::overriders(self.prog, f)
    }

    /// The functions on a cycle of calls. A call reaches the function and its overrides;
    /// what runs code this analysis does not follow — an action called like a function,
    /// `new` (initialisers), `turn.pass()` (a turn's `default`) — is taken to reach every
    /// function, so a function that may get there is on a cycle.
    pub(crate) fn recursive_functions(&self) -> HashSet<FuncId> {
        let n = self.prog.funcs.len();
        let mut calls: Vec<Vec<FuncId>> = vec![Vec::new(); n];
        let mut opaque = vec![false; n];
        for i in 0..n {
            let f = FuncId(i as u32);
            self.prog.func(f).body.walk_exprs(&mut |e| match &e.kind {
                ExprKind::Call { func, .. } => calls[i].push(*func),
                ExprKind::CallAction { .. }
                | ExprKind::New { .. }
                | ExprKind::Builtin { op: crate::hir::Builtin::TurnPass, .. } => opaque[i] = true,
                _ => {}
            });
        }
        // A call of g runs g or any of its overrides.
        for list in calls.iter_mut() {
            let direct = std::mem::take(list);
            for g in direct {
                list.push(g);
                list.extend(self.overriders(g));
            }
        }
        let mut recursive = HashSet::new();
        for start in 0..n {
            // Depth-first from the functions `start` calls: does it reach `start`, or code
            // that may call anything?
            let mut seen = vec![false; n];
            let mut stack: Vec<FuncId> = calls[start].clone();
            let mut found = opaque[start];
            while let (false, Some(g)) = (found, stack.pop()) {
                let j = g.index();
                if j == start || opaque[j] {
                    found = true;
                } else if !seen[j] {
                    seen[j] = true;
                    stack.extend(calls[j].iter().copied());
                }
            }
            if found {
                recursive.insert(FuncId(start as u32));
            }
        }
        recursive
    }

    /// Whether a user function is small and calls no user function (so inlining it
    /// everywhere cannot grow the code much, nor recurse).
    pub(crate) fn is_small_leaf(&self, id: FuncId) -> bool {
        let f = self.prog.func(id);
        if !self.overriders(id).is_empty()
            || f.inputs.iter().any(|i| !matches!(i.mode, InputMode::Function { .. }))
        {
            return false;
        }
        let mut size = 0;
        let mut calls = false;
        f.body.walk_stmts(&mut |_| size += 1);
        f.body.walk_exprs(&mut |e| {
            size += 1;
            calls |=
                matches!(e.kind, ExprKind::Call { .. } | ExprKind::CallAction { .. } | ExprKind::New { .. });
        });
        !calls && size <= 80
    }

    /// Whether some class of `class`'s hierarchy is `class` or derives from it (objects of
    /// it can exist).
    pub(crate) fn has_variants(&self, class: ClassId) -> bool {
        self.hierarchy(class)
            .is_some_and(|h| h.variants.iter().any(|(c, _)| self.prog.is_subclass(*c, class)))
    }
}

/// `lists_number`, `stacks_card`, `lists_list_player`: arena field names by type.
pub(crate) fn collection_field(prog: &Program, ty: &Ty) -> String {
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
pub(crate) fn static_tiles(prog: &Program) -> HashMap<ClassId, Vec<usize>> {
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
