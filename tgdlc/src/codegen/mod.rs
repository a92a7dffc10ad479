//! Rust code generation: a typed [`Program`] becomes one module of idiomatic Rust that
//! implements `tgdl_runtime::Rules` (and so, through `tgdl_runtime::Engine`, the
//! `tgdl_runtime::Game` interface).
//!
//! - [`layout`]: the data — one struct per class hierarchy, arenas, the `World`, `Move`.
//! - [`body`] and [`expr`]: statements and expressions of functions and effects.
//! - [`actions`]: actions, inputs, the turn menu, events and their queue.
//! - [`rules`]: global creation, turns, labels, the view, and the `Rules` impl.
//!
//! Output is deterministic: every table is ordered by declaration, never by hashing.

mod actions;
mod body;
mod expr;
mod layout;
pub mod names;
mod repr;
mod rules;

use crate::hir::{ActionId, AttrId, ClassId, ClassKind, FuncId, Program, Ty, Visibility};
use names::{Namer, camel, ident, snake};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use repr::{Nullability, Owner, collection_key, collection_types};
use std::collections::{BTreeMap, HashMap};

/// Generates the engine module for a checked program, pretty-printed.
pub fn generate(prog: &Program, sources: &crate::source::SourceMap) -> String {
    let generator = Gen::new(prog, Some(sources));
    let tokens = generator.module();
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        // A generator bug; show the tokens so it can be diagnosed rather than panicking.
        Err(e) => format!("// tgdlc internal error: generated code does not parse: {e}\n{tokens}"),
    }
}

/// Names the module uses at top level that user-derived names must not take.
const RESERVED_TYPES: &[&str] = &[
    "World",
    "Move",
    "Game",
    "Run",
    "Tile",
    "TileKind",
    "Connection",
    "ConnectionKind",
    "Event",
    "EventKind",
    "Group",
    "Choice",
    "Pick",
    "Option",
    "Some",
    "None",
    "Ok",
    "Err",
    "Vec",
    "String",
    "Box",
    "Result",
    "Self",
    "rt",
];

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
}

pub(crate) struct Gen<'p> {
    pub prog: &'p Program,
    /// For turning spans into `loc(line, column)`.
    pub sources: Option<&'p crate::source::SourceMap>,
    pub null: Nullability,
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
    pub uses_tiles: bool,
}

impl<'p> Gen<'p> {
    fn new(prog: &'p Program, sources: Option<&'p crate::source::SourceMap>) -> Gen<'p> {
        let null = Nullability::analyze(prog);
        let mut types = Namer::with_reserved(RESERVED_TYPES);
        let mut fields = Namer::with_reserved(&["core", "queue", "groups", "tables", "self_"]);
        let uses_tiles =
            prog.classes.iter().any(|c| !c.builtin && matches!(c.kind, ClassKind::Tile | ClassKind::Board));
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
            if !uses_tiles && (id == b.tile || id == b.connection) {
                continue;
            }
            let (strukt, arena) = if id == b.tile {
                ("Tile".to_string(), "tiles".to_string())
            } else if id == b.connection {
                ("Connection".to_string(), "connections".to_string())
            } else if id == b.event {
                ("Event".to_string(), "events".to_string())
            } else {
                (types.fresh(&camel(&c.name)), fields.fresh(&format!("{}s", snake(&c.name))))
            };
            let concrete: Vec<ClassId> = prog
                .descendants(id)
                .into_iter()
                .filter(|&d| {
                    let dc = prog.class(d);
                    // Built-in roots are abstract; `connection` itself is instantiable.
                    !(dc.builtin && d != b.connection && d != b.player_choice)
                })
                .collect();
            let kind_enum = if concrete.len() > 1 || (c.builtin && id != b.connection) {
                // Built-in roots own their reserved names; user roots get fresh ones.
                Some(if c.builtin { format!("{strukt}Kind") } else { types.fresh(&format!("{strukt}Kind")) })
            } else {
                None
            };
            let variants = concrete
                .iter()
                .map(|&d| {
                    let name = if d == b.player_choice {
                        "PlayerChoice".to_string()
                    } else {
                        camel(&prog.class(d).name)
                    };
                    (d, ident(&name))
                })
                .collect();
            hierarchy_of.insert(id, hierarchies.len());
            let tag = hierarchies.len() as u32;
            hierarchies.push(Hierarchy {
                root: id,
                strukt: ident(&strukt),
                kind_enum: kind_enum.map(|k| ident(&k)),
                variants,
                arena: ident(&arena),
                tag,
            });
        }
        let mut globals = BTreeMap::new();
        for (i, c) in prog.classes.iter().enumerate() {
            if !c.builtin && (c.visibility == Visibility::Global || c.kind == ClassKind::Board) {
                let s = types.fresh(&camel(&c.name));
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
            let namer = per_root.entry(root).or_insert_with(|| Namer::with_reserved(&["kind"]));
            attr_field.insert(AttrId(i as u32), ident(&namer.fresh(&snake(&a.name))));
        }
        // Function names, all methods of `World`.
        let mut fns = Namer::with_reserved(&[
            "new",
            "setup",
            "play",
            "menu",
            "core",
            "core_mut",
            "info",
            "may_ask",
            "view",
            "throw",
            "drain",
            "pass_turn",
            "use_turn",
            "move_label",
            "pick_label",
            "turn_location",
            "object_label",
            "build_boards",
            "create_globals",
            "run_setup",
            "play_move",
            "marks",
            "truncate_to",
            "clone",
            "fmt",
            "eq",
        ]);
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
            func_name.insert(FuncId(i as u32), ident(&fns.fresh(&base)));
        }
        let mut action_name = HashMap::new();
        let mut moves = Namer::with_reserved(RESERVED_TYPES);
        let mut move_variant = HashMap::new();
        for (i, a) in prog.actions.iter().enumerate() {
            let base = format!("{}_{}", snake(&prog.class(a.owner).name), snake(&a.name));
            action_name.insert(ActionId(i as u32), fns.fresh(&base));
            let v = moves.fresh(&format!("{}{}", camel(&prog.class(a.owner).name), camel(&a.name)));
            move_variant.insert(ActionId(i as u32), ident(&v));
        }
        let mut coll_names = Namer::default();
        let collections = collection_types(prog)
            .into_iter()
            .map(|(key, ty)| {
                let name = coll_names.fresh(&collection_field(prog, &ty));
                (key, (ident(&fields.fresh(&name)), ty))
            })
            .collect();
        let mut group_consts = Vec::new();
        let mut consts = Namer::default();
        for (i, c) in prog.classes.iter().enumerate() {
            for (g, group) in c.groups.iter().enumerate() {
                let name = consts.fresh(&format!("{}_{}", snake(&c.name), snake(&group.name)).to_uppercase());
                group_consts.push(((ClassId(i as u32), g), ident(&name)));
            }
        }
        Gen {
            prog,
            sources,
            null,
            hierarchies,
            hierarchy_of,
            globals,
            attr_field,
            func_name,
            action_name,
            collections,
            group_consts,
            move_variant,
            uses_tiles,
        }
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
            Ty::List(_) | Ty::Table(_) | Ty::Stack(_) => {
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
            Ty::Table(e) => (quote!(rt::Table), e),
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

    fn module(&self) -> TokenStream {
        let header = format!(
            " Engine for the game `{}`, generated by tgdlc from `{}`. Do not edit: regenerate instead.",
            self.prog.name,
            self.prog.files.first().map_or("?", String::as_str)
        );
        let layout = self.layout();
        let bodies = self.functions();
        let actions = self.actions();
        let rules = self.rules_impl();
        quote! {
            #![doc = #header]
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
            Ty::Table(e) => format!("table_{}", word(prog, e)),
            Ty::Stack(e) => format!("stack_{}", word(prog, e)),
            _ => "value".into(),
        }
    }
    match ty {
        Ty::List(e) => format!("lists_{}", word(prog, e)),
        Ty::Table(e) => format!("tables_{}", word(prog, e)),
        Ty::Stack(e) => format!("stacks_{}", word(prog, e)),
        other => word(prog, other),
    }
}
