//! Declaration passes: built-in classes, every top-level definition (with its id),
//! inheritance chains, and member lookup along them. Members themselves are declared in
//! `members` and `signatures`, board groups in `board`.

use super::{Checker, Module, NameKey};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{
    self, ActionId, Attr, AttrId, BuiltinAttr, Class, ClassId, ClassKind, Func, FuncId, FuncKind, Locals, Ty,
    Visibility,
};
use crate::source::Span;
use std::collections::HashMap;

/// The most classes a class may have above it (a real game uses a handful; the bound
/// keeps every walk up a chain short).
const MAX_INHERITANCE_DEPTH: usize = 64;
use crate::syntax::ast;

/// The syntax of every definition, by id, for the body pass.
#[derive(Default)]
pub(crate) struct Decls<'m> {
    pub classes: Vec<(ClassId, &'m ast::ClassDecl)>,
    pub funcs: Vec<(FuncId, &'m ast::FunctionDecl)>,
    pub actions: Vec<(ActionId, &'m ast::ActionDecl)>,
    pub attrs: Vec<(AttrId, &'m ast::AttributeDecl)>,
    /// Deck, turn and group `default` blocks.
    pub defaults: Vec<(FuncId, &'m ast::Block)>,
    pub turns: Vec<(hir::TurnId, &'m ast::ClassDecl)>,
    pub setups: Vec<&'m ast::Block>,
}

impl<'a> Checker<'a> {
    fn add_class(&mut self, class: Class) -> ClassId {
        self.prog.classes.push(class);
        ClassId(self.prog.classes.len() as u32 - 1)
    }

    pub(crate) fn add_attr(&mut self, attr: Attr) -> AttrId {
        let class = attr.class;
        self.prog.attrs.push(attr);
        let id = AttrId(self.prog.attrs.len() as u32 - 1);
        self.prog.classes[class.index()].attrs.push(id);
        id
    }

    pub(crate) fn add_func(&mut self, func: Func) -> FuncId {
        self.prog.funcs.push(func);
        FuncId(self.prog.funcs.len() as u32 - 1)
    }

    fn builtin_class(&mut self, name: &str, kind: ClassKind, base: Option<ClassId>) -> ClassId {
        let id = ClassId(self.prog.classes.len() as u32);
        let root = base.map_or(id, |b| self.prog.class(b).root);
        self.add_class(Class {
            name: name.into(),
            kind,
            visibility: Visibility::Local,
            base,
            root,
            attrs: Vec::new(),
            funcs: Vec::new(),
            actions: Vec::new(),
            element: None,
            default: None,
            groups: Vec::new(),
            builtin: true,
            open: false,
            outward: false,
            span: Span::default(),
        });
        self.classes.insert((None, name.to_string()), id);
        id
    }

    pub(crate) fn builtin_attr(
        &mut self,
        class: ClassId,
        name: &str,
        ty: Ty,
        builtin: BuiltinAttr,
        writable: bool,
    ) -> AttrId {
        self.add_attr(Attr {
            name: name.into(),
            class,
            ty,
            init: None,
            builtin: Some(builtin),
            writable,
            secret: false,
            internal: false,
            public: false,
            per_player: false,
            track: None,
            span: Span::default(),
        })
    }

    /// The classes the language defines: `tile`, `BlankTile`, `connection`, `event`,
    /// `PlayerChoiceEvent` and `Group`.
    pub(crate) fn declare_builtins(&mut self) {
        let tile = self.builtin_class("tile", ClassKind::Tile, None);
        let blank = self.builtin_class("BlankTile", ClassKind::Tile, Some(tile));
        let connection = self.builtin_class("connection", ClassKind::Connection, None);
        let event = self.builtin_class("event", ClassKind::Event, None);
        let choice = self.builtin_class("PlayerChoiceEvent", ClassKind::Event, Some(event));
        let group = self.builtin_class("Group", ClassKind::Group, None);
        self.prog.builtins =
            hir::BuiltinClasses { tile, blank_tile: blank, connection, event, player_choice: choice, group };
        self.builtin_attr(tile, "group", Ty::Class(group), BuiltinAttr::TileGroup, false);
        self.builtin_attr(
            tile,
            "connections",
            Ty::List(Box::new(Ty::Class(connection))),
            BuiltinAttr::Connections,
            false,
        );
        self.builtin_attr(tile, "x", Ty::Number, BuiltinAttr::X, false);
        self.builtin_attr(tile, "y", Ty::Number, BuiltinAttr::Y, false);
        self.builtin_attr(connection, "to", Ty::Class(tile), BuiltinAttr::To, true);
        self.builtin_attr(choice, "active", Ty::Player, BuiltinAttr::Active, false);
        self.builtin_attr(group, "tiles", Ty::List(Box::new(Ty::Class(tile))), BuiltinAttr::Tiles, false);
    }

    fn check_unique(&mut self, key: NameKey, span: Span, what: &str) -> bool {
        if let Some(&prev) = self.defined_at.get(&key) {
            self.error(
                Diagnostic::error(span, format!("the name `{}` is defined more than once", key.1))
                    .code(codes::DUPLICATE)
                    .label(format!("{what} defined again here"))
                    .secondary(prev, "first defined here")
                    .help("rename one of them"),
            );
            return false;
        }
        if key.0.is_none() && self.classes.contains_key(&key) {
            self.error(
                Diagnostic::error(span, format!("`{}` is a name the language already defines", key.1))
                    .code(codes::DUPLICATE)
                    .label(format!("{what} named here"))
                    .help("choose another name"),
            );
            return false;
        }
        self.defined_at.insert(key, span);
        true
    }

    /// A game parameter: its default must fit its kind and range.
    fn declare_param(&mut self, p: &ast::ParamDecl) {
        if !self.check_unique((None, p.name.name.clone()), p.name.span, "parameter") {
            return;
        }
        let name = &p.name.name;
        let bad = |span, message: String, label: &str, help: &str| {
            Diagnostic::error(span, message)
                .code(codes::PARAM)
                .label(label.to_string())
                .help(help.to_string())
        };
        if p.kind != ast::ParamKind::String {
            if let Some((_, span)) = &p.choices {
                self.error(bad(
                    *span,
                    format!("the parameter `{name}` lists texts, but it is not a `string`"),
                    "a list of texts is for a string parameter",
                    "declare it `param string`, or give a number range (`in 1..13`)",
                ));
            }
            if p.default_text.is_some() {
                self.error(bad(
                    p.default_span,
                    format!("the parameter `{name}` has a text as its default"),
                    "not a number or bool",
                    "declare it `param string ... in {\"a\", \"b\"}`, or give a number",
                ));
            }
        }
        let mut choices = Vec::new();
        let mut default = p.default;
        let (ty, range) = match p.kind {
            ast::ParamKind::String => {
                match &p.choices {
                    Some((texts, _)) => choices.clone_from(texts),
                    None => self.error(bad(
                        p.span,
                        format!("the string parameter `{name}` does not list its texts"),
                        "which texts may it take?",
                        "list them after `in`: `param string order = \"random\" in {\"random\", \"descending\"};`",
                    )),
                }
                if let Some((_, _, span)) = p.range {
                    self.error(bad(
                        span,
                        format!("the string parameter `{name}` has a number range"),
                        "a range is for numbers",
                        "list the texts it takes: `in {\"a\", \"b\"}`",
                    ));
                }
                match (&p.default_text, choices.iter().position(|c| Some(c) == p.default_text.as_ref())) {
                    (Some(_), Some(i)) => default = i as f64,
                    (Some(text), None) if !choices.is_empty() => self.error(bad(
                        p.default_span,
                        format!("the default {text:?} of `{name}` is not one of its texts"),
                        "not listed",
                        "choose a default from the list, or add it to the list",
                    )),
                    (Some(_), None) => {}
                    (None, _) => self.error(bad(
                        p.default_span,
                        format!("the string parameter `{name}` has no text as its default"),
                        "not a text",
                        "write one of its texts in quotes",
                    )),
                }
                (Ty::String, None)
            }
            ast::ParamKind::Bool => {
                if let Some((_, _, span)) = p.range {
                    self.error(bad(
                        span,
                        format!("the bool parameter `{name}` has a range"),
                        "a range is for numbers",
                        "remove it: a bool is `true` or `false`",
                    ));
                }
                if !p.default_bool {
                    self.error(bad(
                        p.default_span,
                        format!("the bool parameter `{name}` has a number as its default"),
                        "not `true` or `false`",
                        "write `true` or `false`",
                    ));
                }
                (Ty::Bool, None)
            }
            ast::ParamKind::Number => {
                if p.default_bool {
                    self.error(bad(
                        p.default_span,
                        format!("the number parameter `{name}` has a bool as its default"),
                        "not a number",
                        "write a number, or declare it `param bool`",
                    ));
                }
                match p.range {
                    Some((min, max, span)) if min > max => {
                        self.error(bad(
                            span,
                            format!("the range of `{name}` is empty"),
                            "the first bound is greater than the second",
                            "write the lower bound first: `in 1..13`",
                        ));
                        (Ty::Number, None)
                    }
                    Some((min, max, _)) if p.default < min || p.default > max => {
                        self.error(bad(
                            p.default_span,
                            format!(
                                "the default {} of `{name}` is outside its range {min}..{max}",
                                p.default
                            ),
                            "outside the range",
                            "choose a default inside the range, or widen the range",
                        ));
                        (Ty::Number, Some((min, max)))
                    }
                    Some((min, max, _)) => (Ty::Number, Some((min, max))),
                    None => (Ty::Number, None),
                }
            }
        };
        self.prog.params.push(hir::Param { name: name.clone(), ty, default, range, choices, span: p.span });
    }

    /// Gives every top-level definition an id, reporting duplicates.
    pub(crate) fn declare_items<'m>(&mut self, modules: &'m [Module]) -> Decls<'m> {
        let mut decls = Decls::default();
        for m in modules {
            for import in &m.ast.imports {
                if let Some(alias) = &import.alias {
                    self.namespaces.entry(alias.name.clone()).or_insert(alias.span);
                }
            }
        }
        for m in modules {
            let ns = m.namespace.clone();
            for item in &m.ast.items {
                match item {
                    ast::Item::Param(p) => self.declare_param(p),
                    ast::Item::Class(c) if c.kind == ast::ClassKind::Turn => {
                        if !self.check_unique((None, c.name.name.clone()), c.name.span, "turn") {
                            continue;
                        }
                        let id = hir::TurnId(self.prog.turns.len() as u32);
                        self.prog.turns.push(hir::Turn {
                            name: c.name.name.clone(),
                            default: None,
                            simultaneous: None,
                            resolve: None,
                            span: c.head_span,
                        });
                        self.turns.insert(c.name.name.clone(), id);
                        decls.turns.push((id, c));
                    }
                    ast::Item::Class(c) => {
                        let key = (ns.clone(), c.name.name.clone());
                        if !self.check_unique(key.clone(), c.name.span, c.kind.keyword()) {
                            continue;
                        }
                        let kind = match c.kind {
                            ast::ClassKind::Class => ClassKind::Class,
                            ast::ClassKind::Interactable => ClassKind::Interactable,
                            ast::ClassKind::Stack => ClassKind::Deck,
                            ast::ClassKind::Event => ClassKind::Event,
                            ast::ClassKind::Tile => ClassKind::Tile,
                            ast::ClassKind::Connection => ClassKind::Connection,
                            ast::ClassKind::Board => ClassKind::Board,
                            ast::ClassKind::Turn => unreachable!("turns handled above"),
                        };
                        let visibility = match (kind, &c.visibility) {
                            (ClassKind::Board, _) => Visibility::Global,
                            (_, Some((ast::Visibility::Global, _))) => Visibility::Global,
                            (_, Some((ast::Visibility::Group, _))) => Visibility::Group,
                            _ => Visibility::Local,
                        };
                        let visibility = match (kind, visibility, &c.visibility) {
                            (
                                ClassKind::Interactable | ClassKind::Deck,
                                Visibility::Global,
                                Some((_, vspan)),
                            ) => {
                                let word = c.kind.keyword();
                                self.error(
                                    Diagnostic::error(*vspan, format!("{} `{word}` cannot be `global`", if word == "interactable" { "an" } else { "a" }))
                                        .code(codes::MISPLACED)
                                        .label(format!("`{}` is declared `global` here", c.name.name))
                                        .note(format!("{word}s are objects of play: created with `new`, owned, moved and discarded"))
                                        .help(format!(
                                            "to share exactly one, keep it in a global class: `global class Rules {{ {} {} = new {}(); }}`",
                                            c.name.name,
                                            lower_first(&c.name.name),
                                            c.name.name
                                        )),
                                );
                                Visibility::Local
                            }
                            (_, v, _) => v,
                        };
                        if let (Some(open), false) = (c.open, kind == ClassKind::Deck) {
                            self.error(
                                Diagnostic::error(open, format!("a `{}` cannot be `open`", c.kind.keyword()))
                                    .code(codes::MISPLACED)
                                    .help(
                                        "`open` makes a stack face-up: `open stack Pile { returns Card; }`",
                                    ),
                            );
                        }
                        if let (Some(outward), false) = (c.outward, kind == ClassKind::Interactable) {
                            self.error(
                                Diagnostic::error(outward, format!("a `{}` cannot be `outward`", c.kind.keyword()))
                                    .code(codes::VISIBILITY_MARK)
                                    .help("`outward` holds cards facing out, seen by all but their holder: `outward interactable Card { ... }`"),
                            );
                        }
                        if let Some((_, vspan)) = &c.visibility {
                            if !matches!(kind, ClassKind::Class | ClassKind::Interactable | ClassKind::Deck) {
                                self.error(
                                    Diagnostic::error(*vspan, format!("a `{}` cannot have a visibility", c.kind.keyword()))
                                        .code(codes::MISPLACED)
                                        .help("visibility (`local`, `group`, `global`) applies to classes, interactables and stacks"),
                                );
                            }
                        }
                        let id = ClassId(self.prog.classes.len() as u32);
                        self.add_class(Class {
                            name: c.name.name.clone(),
                            kind,
                            visibility,
                            base: None,
                            root: id,
                            attrs: Vec::new(),
                            funcs: Vec::new(),
                            actions: Vec::new(),
                            element: None,
                            default: None,
                            groups: Vec::new(),
                            builtin: false,
                            open: c.open.is_some(),
                            outward: c.outward.is_some(),
                            span: c.head_span,
                        });
                        self.classes.insert(key, id);
                        self.class_ns.insert(id, ns.clone());
                        decls.classes.push((id, c));
                    }
                    ast::Item::Function(f) => {
                        let key = (ns.clone(), f.name.name.clone());
                        if !self.check_unique(key.clone(), f.name.span, "function") {
                            continue;
                        }
                        if let Some(o) = f.override_span {
                            self.error(
                                Diagnostic::error(o, "a top-level function cannot be an `override`")
                                    .code(codes::INHERITANCE)
                                    .help("`override` replaces a method of a base class; remove it here"),
                            );
                        }
                        let id = self.add_func(Func {
                            name: f.name.name.clone(),
                            kind: FuncKind::User,
                            owner: None,
                            inputs: Vec::new(),
                            ret: Ty::Void,
                            locals: Locals::default(),
                            body: hir::Block::default(),
                            overrides: None,
                            span: f.name.span,
                        });
                        self.funcs.insert(key, id);
                        self.func_ns.insert(id, ns.clone());
                        decls.funcs.push((id, f));
                    }
                    ast::Item::Setup(block) => {
                        if !m.is_main {
                            self.error(
                                Diagnostic::error(self.keyword_before(block.span, "setup"), "an imported file cannot have a `setup` block")
                                    .code(codes::MISPLACED)
                                    .label("`setup` belongs to the main file")
                                    .help("the main file's `setup` starts the game; move this code into a function and call it from there"),
                            );
                        } else {
                            decls.setups.push(block);
                        }
                    }
                }
            }
        }
        match decls.setups.as_slice() {
            [] => {
                if let Some(main) = modules.iter().find(|m| m.is_main) {
                    let at =
                        main.ast.game.as_ref().map_or(Span { file: main.file, start: 0, end: 0 }, |g| g.span);
                    self.error(
                        Diagnostic::error(at, "the game has no `setup` block")
                            .code(codes::GAME_DIRECTIVE)
                            .label("this game has no `setup`")
                            .help("add `setup { }` to the main file: it runs before the first turn"),
                    );
                }
            }
            [_] => {}
            [first, rest @ ..] => {
                let first = self.keyword_before(first.span, "setup");
                for b in rest {
                    self.error(
                        Diagnostic::error(
                            self.keyword_before(b.span, "setup"),
                            "more than one `setup` block",
                        )
                        .code(codes::DUPLICATE)
                        .label("a second `setup` here")
                        .secondary(first, "first `setup` here")
                        .help("a game starts in one place: merge the two blocks into one `setup { ... }`"),
                    );
                }
            }
        }
        if self.prog.turns.is_empty() {
            // A game without turns still has a turn order: the implicit `turn.active() + 1`.
            self.prog.turns.push(hir::Turn {
                name: "Turn".into(),
                default: None,
                simultaneous: None,
                resolve: None,
                span: Span::default(),
            });
        }
        decls
    }

    /// Resolves `: Base` of every class, with the default bases of tiles, connections and
    /// events, and rejects cycles and bases of another kind.
    pub(crate) fn resolve_bases(&mut self, decls: &Decls<'_>) {
        let b = self.prog.builtins;
        for &(id, c) in &decls.classes {
            let kind = self.prog.class(id).kind;
            let default_base = match kind {
                ClassKind::Tile => Some(b.tile),
                ClassKind::Connection => Some(b.connection),
                ClassKind::Event => Some(b.event),
                _ => None,
            };
            let base = match &c.base {
                None => default_base,
                Some(path) => {
                    let ns = self.class_ns.get(&id).cloned().flatten();
                    match self.lookup_class_path(path, ns.as_deref()) {
                        Some(base) => {
                            let bk = self.prog.class(base).kind;
                            if bk != kind || base == id {
                                let msg = if base == id {
                                    format!("`{}` cannot derive from itself", c.name.name)
                                } else {
                                    format!(
                                        "a {} cannot derive from `{}`, which is a {}",
                                        kind_word(kind),
                                        self.prog.class(base).name,
                                        kind_word(bk)
                                    )
                                };
                                let label = if base == id {
                                    "the class itself".to_string()
                                } else {
                                    format!("not a {}", kind_word(kind))
                                };
                                self.error(
                                    Diagnostic::error(path.span, msg)
                                        .code(codes::INHERITANCE)
                                        .label(label)
                                        .help("a class derives from a class of the same kind (a tile from a tile, an event from an event, ...)"),
                                );
                                default_base
                            } else {
                                Some(base)
                            }
                        }
                        None => {
                            self.unknown_type(path);
                            default_base
                        }
                    }
                }
            };
            self.prog.classes[id.index()].base = base;
        }
        self.check_inheritance_chains(decls);
        // Roots, and visibility inherited from the root.
        for i in 0..self.prog.classes.len() {
            let mut root = ClassId(i as u32);
            while let Some(b) = self.prog.class(root).base {
                root = b;
            }
            self.prog.classes[i].root = root;
        }
        // `outward` is the hierarchy's: written on its root, it holds for every class of it.
        for &(id, c) in &decls.classes {
            let root = self.prog.class(id).root;
            if let (Some(outward), true) = (c.outward, root != id) {
                self.error(
                    Diagnostic::error(
                        outward,
                        format!(
                            "`{}` derives from `{}`: only a root class is `outward`",
                            c.name.name,
                            self.prog.class(root).name
                        ),
                    )
                    .code(codes::VISIBILITY_MARK)
                    .label("written on a derived class")
                    .help(format!(
                        "write `outward` on `{}`: its derived classes are held the same way",
                        self.prog.class(root).name
                    )),
                );
            }
        }
        for i in 0..self.prog.classes.len() {
            let root = self.prog.class(ClassId(i as u32)).root;
            self.prog.classes[i].outward = self.prog.class(root).outward;
        }
        for &(id, c) in &decls.classes {
            let class = self.prog.class(id);
            let root = class.root;
            if class.base.is_some() && !class.builtin {
                let root_vis = self.prog.class(root).visibility;
                if root_vis == Visibility::Global || class.visibility == Visibility::Global {
                    self.error(
                        Diagnostic::error(c.head_span, "a global class cannot take part in inheritance")
                            .code(codes::INHERITANCE)
                            .label(if class.visibility == Visibility::Global {
                                "a global class with a base class"
                            } else {
                                "derives from a global class"
                            })
                            .note("a global class has exactly one instance, which would also count as an instance of its base")
                            .help("remove `global` and create the object with `new`, or copy the members the classes share"),
                    );
                } else if c.visibility.is_some() && class.visibility != root_vis {
                    self.error(
                        Diagnostic::error(c.head_span, "a derived class has the visibility of its base")
                            .code(codes::INHERITANCE)
                            .help("remove the visibility here"),
                    );
                }
                self.prog.classes[id.index()].visibility = root_vis;
            }
        }
    }

    /// Cycles and depth of inheritance, in one pass over the classes (linear: every class
    /// is settled once). The class that closes a cycle, or that has more than
    /// [`MAX_INHERITANCE_DEPTH`] classes above it, is reported at its base and loses that
    /// base, so later passes, which walk chains, stay short.
    fn check_inheritance_chains(&mut self, decls: &Decls<'_>) {
        #[derive(Clone, Copy, PartialEq)]
        enum State {
            New,
            OnPath,
            /// Settled, with this many classes above it.
            Done(usize),
        }
        let declared: HashMap<ClassId, &ast::ClassDecl> = decls.classes.iter().copied().collect();
        let n = self.prog.classes.len();
        let mut state = vec![State::New; n];
        let mut path = Vec::new();
        for start in 0..n {
            // Walk up from `start` to a settled class or a root, then settle the path from
            // the top. Meeting a class of the path again is a cycle: break it and walk again.
            let depth_above = 'walk: loop {
                path.clear();
                let mut cur = Some(ClassId(start as u32));
                while let Some(c) = cur {
                    match state[c.index()] {
                        State::Done(d) => break 'walk d + 1,
                        State::New => {
                            state[c.index()] = State::OnPath;
                            path.push(c);
                            cur = self.prog.class(c).base;
                        }
                        State::OnPath => {
                            // `c` is the first class of the cycle the walk entered.
                            let closing = c;
                            self.inheritance_error(&declared, closing, |name| {
                                (
                                    format!("`{name}` derives from itself through its bases"),
                                    "this base leads back to the class".to_string(),
                                    "break the cycle: one of these classes must not derive from the other"
                                        .to_string(),
                                )
                            });
                            self.prog.classes[closing.index()].base = None;
                            for &p in &path {
                                state[p.index()] = State::New;
                            }
                            continue 'walk;
                        }
                    }
                }
                break 0;
            };
            let mut depth = depth_above;
            for &c in path.iter().rev() {
                if depth > MAX_INHERITANCE_DEPTH {
                    self.inheritance_error(&declared, c, |name| {
                        (
                            format!("`{name}` has more than {MAX_INHERITANCE_DEPTH} classes above it"),
                            "the chain of bases is too long from here".to_string(),
                            "derive from a class nearer the root, or share members through fewer levels"
                                .to_string(),
                        )
                    });
                    self.prog.classes[c.index()].base = None;
                    depth = 0;
                }
                state[c.index()] = State::Done(depth);
                depth += 1;
            }
        }
    }

    /// An inheritance error (E0015) at the base a class names: `text` gives the message,
    /// the label and the help from the class's name.
    fn inheritance_error(
        &mut self,
        declared: &HashMap<ClassId, &ast::ClassDecl>,
        class: ClassId,
        text: impl FnOnce(&str) -> (String, String, String),
    ) {
        let Some(decl) = declared.get(&class) else { return };
        let span = decl.base.as_ref().map_or(decl.name.span, |p| p.span);
        let (message, label, help) = text(&decl.name.name);
        self.error(Diagnostic::error(span, message).code(codes::INHERITANCE).label(label).help(help));
    }

    pub(crate) fn unknown_type(&mut self, path: &ast::Path) {
        let name = path.segments.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(".");
        let mut d = Diagnostic::error(path.span, format!("unknown type `{name}`")).code(codes::UNKNOWN_TYPE);
        match path.segments.as_slice() {
            [ns, last] if self.namespaces.contains_key(&ns.name) => {
                d = d.label(format!("the module `{}` has no type with this name", ns.name));
                let here: Vec<&str> = self
                    .classes
                    .keys()
                    .filter(|k| k.0.as_deref() == Some(ns.name.as_str()))
                    .map(|k| k.1.as_str())
                    .collect();
                if let Some(s) = self.suggest(&last.name, here.iter().copied()) {
                    d = d.help(format!("a type with a similar name exists: `{}.{s}`", ns.name));
                }
            }
            [ns, _] => {
                d = d
                    .label(format!("`{}` is not the name of an imported module", ns.name))
                    .help(format!("import the file with `import \"file.tgdl\" as {};`", ns.name));
            }
            _ => {
                d = d.label("no class, tile, event or built-in type has this name");
                if let Some(s) =
                    self.suggest(&name, self.classes.keys().filter(|k| k.0.is_none()).map(|k| k.1.as_str()))
                {
                    d = d.help(format!("a type with a similar name exists: `{s}`"));
                }
            }
        }
        self.error(d);
    }

    /// The function `name` as seen from `class` (its own, else inherited).
    pub(crate) fn find_func(&self, class: ClassId, name: &str) -> Option<FuncId> {
        let mut cur = Some(class);
        while let Some(c) = cur {
            let cl = self.prog.class(c);
            if let Some(&f) = cl.funcs.iter().find(|&&f| self.prog.func(f).name == name) {
                return Some(f);
            }
            cur = cl.base;
        }
        None
    }

    pub(crate) fn find_action(&self, class: ClassId, name: &str) -> Option<ActionId> {
        let mut cur = Some(class);
        while let Some(c) = cur {
            let cl = self.prog.class(c);
            if let Some(&a) = cl.actions.iter().find(|&&a| self.prog.action(a).name == name) {
                return Some(a);
            }
            cur = cl.base;
        }
        None
    }

    pub(crate) fn find_attr(&self, class: ClassId, name: &str) -> Option<AttrId> {
        let mut cur = Some(class);
        while let Some(c) = cur {
            let cl = self.prog.class(c);
            if let Some(&a) = cl.attrs.iter().find(|&&a| self.prog.attr(a).name == name) {
                return Some(a);
            }
            cur = cl.base;
        }
        None
    }

    /// A class by (possibly namespaced) path, looked up in `ns` first.
    pub(crate) fn lookup_class_path(&self, path: &ast::Path, ns: Option<&str>) -> Option<ClassId> {
        match path.segments.as_slice() {
            [name] => ns
                .and_then(|ns| self.classes.get(&(Some(ns.to_string()), name.name.clone())))
                .or_else(|| self.classes.get(&(None, name.name.clone())))
                .copied(),
            [ns, name] => self.classes.get(&(Some(ns.name.clone()), name.name.clone())).copied(),
            _ => None,
        }
    }
}

/// `Deck` → `deck`, for example variable names in help lines.
fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or(String::new(), |c| c.to_lowercase().chain(chars).collect())
}

pub(crate) fn kind_word(kind: ClassKind) -> &'static str {
    match kind {
        ClassKind::Class => "class",
        ClassKind::Interactable => "interactable",
        ClassKind::Deck => "stack",
        ClassKind::Event => "event",
        ClassKind::Tile => "tile",
        ClassKind::Connection => "connection",
        ClassKind::Board => "board",
        ClassKind::Group => "group",
    }
}
