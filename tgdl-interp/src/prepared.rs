//! A program made ready for the interpreter: the facts every run needs, computed once
//! (arenas and attribute slots, decks, what may be hidden, the menu's actions, where
//! inputs look for candidates, labels, source places).

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;
use tgdl_compiler::facts::CoordinateGuard;
use tgdl_compiler::hir::{
    ActionId, AttrId, Builtin, BuiltinAttr, ClassId, ClassKind, Expr, ExprKind, FuncId, Geometry, Program,
    Ty, Visibility,
};
use tgdl_compiler::source::{SourceFile, SourceMap, Span};
use tgdl_runtime::error::Loc;
use tgdl_runtime::game::GameInfo;
use tgdl_runtime::params::{ParamKind, ParamSpec};

/// A checked program ready to be interpreted.
pub struct Prepared {
    pub(crate) program: Program,
    pub(crate) info: GameInfo,
    /// The source files, for the places of rule errors.
    sources: Vec<SourceFile>,
    files: Vec<&'static str>,
    /// Places handed out as `&'static Loc` (where the runtime keeps one), made once each.
    kept_locs: Mutex<HashMap<(u32, u32), &'static Loc>>,
    /// The arena (tag) of each class's hierarchy, for classes whose objects live in one.
    pub(crate) tag_of: Vec<Option<u32>>,
    /// The root class of each arena, by tag.
    pub(crate) roots: Vec<ClassId>,
    /// The slot of each attribute in its object's fields (or in its global's).
    pub(crate) slot: Vec<usize>,
    /// How many fields an object of each arena has.
    pub(crate) fields: Vec<usize>,
    /// Index of each global class among the globals.
    pub(crate) global_index: HashMap<ClassId, usize>,
    /// The global index of each class (none: not a global).
    pub(crate) global_of: Vec<Option<u32>>,
    /// The class of each global, by global index.
    pub(crate) global_class: Vec<ClassId>,
    /// The index of each board group among the groups, by board class and group.
    pub(crate) group_of: Vec<Vec<u32>>,
    /// The built-in attributes of each hierarchy root (`owner`, `tile`...), by root class.
    builtins_of: Vec<Vec<(BuiltinAttr, AttrId)>>,
    /// The attributes with an initialiser of each class, base classes first.
    pub(crate) inits_of: Vec<Vec<AttrId>>,
    /// Fields of each global, by global index.
    pub(crate) global_fields: Vec<usize>,
    /// The board groups, in creation order: (board, group index).
    pub(crate) groups: Vec<(ClassId, usize)>,
    pub(crate) menu_actions: Vec<ActionId>,
    /// Leading inputs of every action (the inputs a move carries).
    pub(crate) leading: Vec<Vec<usize>>,
    /// Each class's `label`, if any.
    pub(crate) label_fn: Vec<Option<FuncId>>,
    /// Each action's `label_<action>`, when the game writes its moves itself.
    pub(crate) move_label_fn: Vec<Option<FuncId>>,
    /// Each class's `name`, if any.
    pub(crate) name_fn: Vec<Option<FuncId>>,
    /// Each class's `glyph`, `colour` and `shape`, when it has one of them.
    pub(crate) look_fns: Vec<Option<[Option<FuncId>; 3]>>,
    /// Whether each grid group (by index in `groups`) is drawn by looks.
    pub(crate) group_looks: Vec<bool>,
    /// Whether a tile class has a `name`: then grids carry their cells' names.
    pub(crate) names_tiles: bool,
    /// Whether a label function names its tiles (a grid tile named by its `label`).
    pub(crate) label_names_tile: Vec<bool>,
    pub(crate) has_queue: bool,
    /// Classes whose objects the rules create with `new` (tiles of these are not only
    /// made by boards).
    pub(crate) created: Vec<bool>,
    /// Whether a move of each action may ask a player mid-effect (then the engine keeps a
    /// copy of the world to replay it from).
    pub(crate) may_ask: Vec<bool>,
    pub(crate) setup_may_ask: bool,
    /// The arenas of pieces and cards players can hold in a hand (interactables), whose
    /// objects can be hidden.
    pub(crate) handheld: Vec<u32>,
    /// The arenas of decks, with what they hold.
    pub(crate) decks: Vec<Deck>,
    /// The arenas whose objects can be hidden: pieces and cards that can be held, and
    /// what closed decks hold.
    pub(crate) may_be_hidden: Vec<u32>,
    /// The attributes the game discloses, in the order of their bits in `Core::disclosed`.
    pub(crate) disclosed: Vec<AttrId>,
    /// Whether hidden objects may bear marks everyone sees (`public` or disclosed
    /// attributes).
    pub(crate) has_marks: bool,
    /// Whether anything can be hidden from a player.
    pub(crate) hidden: bool,
    /// Whether redistributing hidden objects resamples exactly (see `tgdl_compiler::facts`),
    /// and the attributes of globals whose objects must then be visible.
    pub(crate) pool_resampling: bool,
    pub(crate) watched: Vec<AttrId>,
    /// Where the candidates of action inputs are looked for, by the input's place, when
    /// their first filter narrows them (as the code generator narrows them).
    pub(crate) narrowing: HashMap<Span, Narrow>,
    /// Each attribute's name, and `Class.attribute` (as `secret` values are named).
    pub(crate) attr_names: Vec<&'static str>,
    pub(crate) secret_names: Vec<&'static str>,
    /// The name of each arena's root class, as hidden objects are named (`a hidden Card`).
    pub(crate) root_names: Vec<&'static str>,
    /// Whether a turn is simultaneous.
    pub(crate) simultaneous: bool,
    /// Whether tiles keep their connections (the rules read them).
    pub(crate) uses_connections: bool,
}

/// A deck hierarchy: its arena, the arena of the objects its stacks hold, and where its
/// objects keep their stack of cards.
#[derive(Clone, Debug)]
pub(crate) struct Deck {
    pub(crate) tag: u32,
    /// None when the deck holds values, not objects.
    pub(crate) element: Option<u32>,
    /// The field holding the deck's stack of cards (past its attributes).
    pub(crate) items: usize,
    /// The classes of the hierarchy declared `open` (their cards are public).
    pub(crate) open: Vec<ClassId>,
    /// Whether every class of the hierarchy is open.
    pub(crate) all_open: bool,
}

/// Where an input's candidates are looked for, narrower than every value of its type: a
/// candidate outside cannot pass its first filter (`tgdl_compiler::facts::narrowing`).
#[derive(Clone, Debug)]
pub(crate) enum Narrow {
    /// The cells of board group `group` within the box the guards allow.
    Cells { group: usize, guards: Vec<CoordinateGuard> },
    /// The one object the expression gives.
    Known(Expr),
    /// The objects of the list the expression gives, in creation order.
    Members(Expr),
}

impl fmt::Debug for Prepared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Prepared").field("game", &self.program.name).finish_non_exhaustive()
    }
}

/// A place in the source, turned into a [`Loc`] only when a check fails (finding a line
/// and column costs more than most checks).
#[derive(Clone, Copy)]
pub(crate) struct At<'p>(pub(crate) &'p Prepared, pub(crate) Span);

impl From<At<'_>> for Loc {
    fn from(at: At<'_>) -> Loc {
        at.0.loc(at.1)
    }
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

impl Prepared {
    pub(crate) fn new(program: &Program, map: &SourceMap) -> Prepared {
        let sources: Vec<SourceFile> = map.files().map(|(_, f)| f.clone()).collect();
        let files: Vec<&'static str> = program.files.iter().map(|f| leak(f)).collect();
        let mut prepared = Prepared {
            program: program.clone(),
            info: GameInfo {
                name: leak(&program.name),
                source: files.first().copied().unwrap_or(""),
                min_players: program.min_players,
                max_players: program.max_players,
                params: Box::leak(params(program).into_boxed_slice()),
            },
            sources,
            files,
            kept_locs: Mutex::new(HashMap::new()),
            tag_of: Vec::new(),
            roots: Vec::new(),
            slot: Vec::new(),
            fields: Vec::new(),
            global_index: HashMap::new(),
            global_of: Vec::new(),
            global_class: Vec::new(),
            group_of: Vec::new(),
            builtins_of: Vec::new(),
            inits_of: Vec::new(),
            global_fields: Vec::new(),
            groups: Vec::new(),
            menu_actions: Vec::new(),
            leading: Vec::new(),
            label_fn: Vec::new(),
            move_label_fn: Vec::new(),
            name_fn: Vec::new(),
            look_fns: Vec::new(),
            group_looks: Vec::new(),
            names_tiles: false,
            label_names_tile: Vec::new(),
            has_queue: false,
            uses_connections: false,
            created: Vec::new(),
            simultaneous: program.turns.iter().any(|t| t.simultaneous.is_some()),
            handheld: Vec::new(),
            decks: Vec::new(),
            narrowing: HashMap::new(),
            attr_names: Vec::new(),
            secret_names: Vec::new(),
            may_be_hidden: Vec::new(),
            disclosed: Vec::new(),
            has_marks: false,
            hidden: false,
            pool_resampling: false,
            watched: Vec::new(),
            root_names: Vec::new(),
            may_ask: (0..program.actions.len() as u32)
                .map(|a| tgdl_compiler::facts::action_may_ask(program, ActionId(a), true))
                .collect(),
            setup_may_ask: tgdl_compiler::facts::setup_may_ask(program),
        };
        prepared.lay_out();
        prepared
    }

    /// The place of a span, as rule errors name it.
    pub(crate) fn loc(&self, span: Span) -> Loc {
        let file = span.file.0 as usize;
        let (line, column) = self.sources.get(file).map_or((0, 0), |s| s.line_col(span.start));
        Loc::new(self.files.get(file).copied().unwrap_or(""), line, column)
    }

    /// The line of source a span starts on, trimmed: what a rule says, quoted.
    pub(crate) fn line_of(&self, span: Span) -> String {
        let Some(source) = self.sources.get(span.file.0 as usize) else { return String::new() };
        let start = (span.start as usize).min(source.text.len());
        let begin = source.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let end = source.text[start..].find('\n').map_or(source.text.len(), |i| start + i);
        source.text[begin..end].trim().to_string()
    }

    /// The source text of a span.
    pub(crate) fn text_of(&self, span: Span) -> &str {
        self.sources
            .get(span.file.0 as usize)
            .and_then(|s| s.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }

    /// [`Prepared::loc`] for the runtime's fields that keep a `&'static Loc`.
    pub(crate) fn loc_ref(&self, span: Span) -> &'static Loc {
        let mut kept = self.kept_locs.lock().unwrap_or_else(|e| e.into_inner());
        let loc = self.loc(span);
        kept.entry((span.file.0, span.start)).or_insert_with(|| Box::leak(Box::new(loc)))
    }

    /// Where the active turn is defined: a turn the game does not declare has no place in
    /// the source, and an empty menu is then reported at `setup`.
    pub(crate) fn turn_loc(&self, turn: usize) -> Loc {
        let p = &self.program;
        let span = match p.turns.get(turn).or(p.turns.first()) {
            Some(t) if t.span != Span::default() => t.span,
            _ => p.setup.span,
        };
        let loc = self.loc(span);
        Loc::new(loc.file, loc.line.max(1), loc.column.max(1))
    }

    /// Arenas (one per hierarchy root, in declaration order, as the code generator numbers
    /// them: object picks name them), attribute slots, globals, groups and the menu.
    fn lay_out(&mut self) {
        let p = &self.program;
        let b = p.builtins;
        let uses_tiles =
            p.classes.iter().any(|c| !c.builtin && matches!(c.kind, ClassKind::Tile | ClassKind::Board));
        // As the code generator decides it: tiles keep connections when graph groups
        // exist or the rules read or make them.
        let mut uses_connections =
            p.classes.iter().any(|c| c.groups.iter().any(|g| g.geometry == Geometry::Graph));
        p.walk_exprs(&mut |e: &Expr| match &e.kind {
            ExprKind::Attr { attr, .. } => {
                uses_connections |= p.attr(*attr).builtin == Some(BuiltinAttr::Connections)
            }
            ExprKind::Builtin { op: Builtin::Connect, .. } => uses_connections = true,
            ExprKind::New { class, .. } => uses_connections |= p.class(*class).root == b.connection,
            _ => {}
        });
        let mut tag_of = vec![None; p.classes.len()];
        let mut roots = Vec::new();
        for (i, c) in p.classes.iter().enumerate() {
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
            roots.push(id);
        }
        for (i, c) in p.classes.iter().enumerate() {
            if let Some(t) = roots.iter().position(|&r| r == c.root) {
                tag_of[i] = Some(t as u32);
            }
        }
        let mut slot = vec![0; p.attrs.len()];
        let mut fields = vec![0; roots.len()];
        let mut global_index = HashMap::new();
        let mut global_fields = Vec::new();
        for (i, c) in p.classes.iter().enumerate() {
            let id = ClassId(i as u32);
            if !c.builtin && (c.visibility == Visibility::Global || c.kind == ClassKind::Board) {
                global_index.insert(id, global_fields.len());
                global_fields.push(0);
            }
        }
        for (i, a) in p.attrs.iter().enumerate() {
            let class = p.class(a.class);
            if let Some(&g) = global_index.get(&a.class) {
                slot[i] = global_fields[g];
                global_fields[g] += 1;
            } else if let Some(t) = tag_of[class.root.index()] {
                slot[i] = fields[t as usize];
                fields[t as usize] += 1;
            }
        }
        // A deck keeps its stack of cards past its attributes (as the generated `items`).
        let mut decks = Vec::new();
        for (t, &r) in roots.iter().enumerate() {
            let root = p.class(r);
            if root.kind != ClassKind::Deck {
                continue;
            }
            let items = fields[t];
            fields[t] += 1;
            let element =
                root.element.as_ref().and_then(Ty::class).and_then(|e| tag_of[p.class(e).root.index()]);
            let variants: Vec<ClassId> =
                (0..p.classes.len() as u32).map(ClassId).filter(|&c| p.class(c).root == r).collect();
            let open: Vec<ClassId> = variants.iter().copied().filter(|&c| p.class(c).open).collect();
            let all_open = open.len() == variants.len();
            decks.push(Deck { tag: t as u32, element, items, open, all_open });
        }
        let mut groups = Vec::new();
        for &c in &p.globals {
            for g in 0..p.class(c).groups.len() {
                groups.push((c, g));
            }
        }
        let menu_actions = tgdl_compiler::facts::menu_actions(p);
        let leading = (0..p.actions.len() as u32)
            .map(|a| tgdl_compiler::facts::leading_inputs(p, ActionId(a)))
            .collect();
        let label_fn: Vec<Option<FuncId>> =
            (0..p.classes.len() as u32).map(|c| tgdl_compiler::facts::label_fn(p, ClassId(c))).collect();
        let name_fn =
            (0..p.classes.len() as u32).map(|c| tgdl_compiler::facts::name_fn(p, ClassId(c))).collect();
        let look_fns =
            (0..p.classes.len() as u32).map(|c| tgdl_compiler::facts::look_fns(p, ClassId(c))).collect();
        let label_names_tile =
            (0..p.funcs.len() as u32).map(|f| tgdl_compiler::facts::label_names_tile(p, FuncId(f))).collect();
        let has_queue =
            p.actions.iter().any(|a| a.triggers.iter().any(|t| !p.is_subclass(b.player_choice, t.event)));
        let mut global_of = vec![None; p.classes.len()];
        let mut global_class = vec![ClassId(0); global_fields.len()];
        for (&c, &g) in &global_index {
            global_of[c.index()] = Some(g as u32);
            global_class[g] = c;
        }
        let mut group_of = vec![Vec::new(); p.classes.len()];
        for (i, &(board, _)) in groups.iter().enumerate() {
            group_of[board.index()].push(i as u32);
        }
        let builtins_of = (0..p.classes.len() as u32)
            .map(|c| {
                p.all_attrs(ClassId(c))
                    .into_iter()
                    .filter_map(|a| p.attr(a).builtin.map(|b| (b, a)))
                    .collect()
            })
            .collect();
        let inits_of = (0..p.classes.len() as u32)
            .map(|c| p.all_attrs(ClassId(c)).into_iter().filter(|&a| p.attr(a).init.is_some()).collect())
            .collect();
        // Pieces and cards that can be in a hand: interactables with the built-ins a hand
        // needs (as the code generator decides).
        let handheld: Vec<u32> = roots
            .iter()
            .enumerate()
            .filter(|&(_, &r)| {
                let c = p.class(r);
                c.kind == ClassKind::Interactable
                    && !c.builtin
                    && [BuiltinAttr::Owner, BuiltinAttr::Tile, BuiltinAttr::Discarded, BuiltinAttr::FaceUp]
                        .iter()
                        .all(|&w| p.all_attrs(r).iter().any(|&a| p.attr(a).builtin == Some(w)))
            })
            .map(|(t, _)| t as u32)
            .collect();
        let mut may_be_hidden = handheld.clone();
        for d in &decks {
            if let Some(e) = d.element
                && !p.class(roots[d.tag as usize]).open
                && !may_be_hidden.contains(&e)
            {
                may_be_hidden.push(e);
            }
        }
        let mut tells = false;
        p.walk_exprs(&mut |e: &Expr| tells |= matches!(e.kind, ExprKind::Builtin { op: Builtin::Tell, .. }));
        let hidden = tells
            || decks.iter().any(|d| d.element.is_some())
            || !handheld.is_empty()
            || p.attrs.iter().any(|a| a.secret);
        let disclosed = tgdl_compiler::facts::disclosed_attrs(p);
        self.has_marks = p.attrs.iter().any(|a| a.public) || !disclosed.is_empty();
        self.disclosed = disclosed;
        self.decks = decks;
        self.may_be_hidden = may_be_hidden;
        let (pools, watched) = tgdl_compiler::facts::pool_resampling(p);
        self.attr_names = p.attrs.iter().map(|a| leak(&a.name)).collect();
        self.secret_names =
            p.attrs.iter().map(|a| leak(&format!("{}.{}", p.class(a.class).name, a.name))).collect();
        self.root_names = roots.iter().map(|&r| leak(&p.class(r).name)).collect();
        self.handheld = handheld;
        self.hidden = hidden;
        self.pool_resampling = hidden && pools;
        self.watched = watched;
        self.global_of = global_of;
        self.global_class = global_class;
        self.group_of = group_of;
        self.builtins_of = builtins_of;
        self.inits_of = inits_of;
        self.tag_of = tag_of;
        self.roots = roots;
        self.slot = slot;
        self.fields = fields;
        self.global_index = global_index;
        self.global_fields = global_fields;
        self.groups = groups;
        self.menu_actions = menu_actions;
        self.leading = leading;
        self.label_fn = label_fn;
        self.move_label_fn = (0..p.actions.len() as u32)
            .map(|a| tgdl_compiler::facts::action_label_fn(p, ActionId(a)))
            .collect();
        self.name_fn = name_fn;
        self.look_fns = look_fns;
        self.group_looks = self
            .groups
            .iter()
            .map(|&(board, g)| tgdl_compiler::facts::group_has_looks(p, board, g))
            .collect();
        self.names_tiles = tgdl_compiler::facts::names_tiles(p);
        self.label_names_tile = label_names_tile;
        self.has_queue = has_queue;
        self.uses_connections = uses_connections;
        let mut created = vec![false; p.classes.len()];
        p.walk_exprs(&mut |e: &Expr| {
            if let ExprKind::New { class, .. } = &e.kind {
                created[class.index()] = true;
            }
        });
        self.created = created;
        let mut narrowing = HashMap::new();
        for input in p.actions.iter().flat_map(|a| &a.inputs) {
            let Ty::Class(class) = *input.candidate_ty() else { continue };
            let facts = tgdl_compiler::facts::narrowing(p, input);
            let cells = || {
                let (board, g) = tgdl_compiler::facts::tile_group(p, class)?;
                self.groups.iter().position(|&k| k == (board, g))
            };
            let narrow = match (cells(), facts.known, facts.members) {
                (Some(group), _, _) if !facts.guards.is_empty() => {
                    Narrow::Cells { group, guards: facts.guards }
                }
                (_, Some(known), _) => Narrow::Known(known),
                (_, None, Some(list)) if self.tag_of[class.index()].is_some() => Narrow::Members(list),
                _ => continue,
            };
            narrowing.insert(input.span, narrow);
        }
        self.narrowing = narrowing;
    }

    /// The attribute holding a built-in of a hierarchy (`owner`, `tile`, `x`...).
    pub(crate) fn builtin_attr(&self, class: ClassId, which: BuiltinAttr) -> Option<AttrId> {
        let root = self.program.class(class).root;
        self.builtins_of[root.index()].iter().find(|(b, _)| *b == which).map(|(_, a)| *a)
    }

    /// The deck hierarchy of arena `tag`, if it is one.
    pub(crate) fn deck(&self, tag: u32) -> Option<&Deck> {
        self.decks.iter().find(|d| d.tag == tag)
    }

    /// For a closed deck class (not declared `open`) of objects: the arena of its cards,
    /// which it deals by chance.
    pub(crate) fn closed_deck_cards(&self, deck: ClassId) -> Option<u32> {
        if self.program.class(deck).open {
            return None;
        }
        self.tag(self.deck_element(deck)?)
    }

    /// For a deck of pieces or cards: whether a card pushed onto it lies face up (the deck
    /// is open).
    pub(crate) fn deck_face(&self, deck: ClassId) -> Option<bool> {
        let element = self.deck_element(deck)?;
        self.tag(element)?;
        let root = self.program.class(self.program.class(element).root);
        (root.kind == ClassKind::Interactable && !root.builtin).then_some(self.program.class(deck).open)
    }

    /// The class of what a deck holds, when it holds objects.
    pub(crate) fn deck_element(&self, deck: ClassId) -> Option<ClassId> {
        self.program.class(self.program.class(deck).root).element.as_ref()?.class()
    }

    /// The arena of objects of `class`.
    pub(crate) fn tag(&self, class: ClassId) -> Option<u32> {
        self.tag_of.get(class.index()).copied().flatten()
    }

    pub(crate) fn is_global(&self, class: ClassId) -> bool {
        self.global_of[class.index()].is_some()
    }
}

fn params(p: &Program) -> Vec<ParamSpec> {
    p.params
        .iter()
        .map(|param| {
            let kind = match (&param.ty, param.range) {
                (Ty::Bool, _) => ParamKind::Bool,
                (Ty::String, _) => ParamKind::Choice {
                    options: Box::leak(
                        param.choices.iter().map(|c| leak(c)).collect::<Vec<_>>().into_boxed_slice(),
                    ),
                },
                (_, Some((min, max))) => ParamKind::Number { min, max },
                (_, None) => ParamKind::Number { min: f64::NEG_INFINITY, max: f64::INFINITY },
            };
            ParamSpec { name: leak(&param.name), kind, default: param.default }
        })
        .collect()
}
