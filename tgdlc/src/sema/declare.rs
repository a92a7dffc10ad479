//! Declaration passes: built-in classes, every top-level definition, inheritance chains,
//! and the members of each class (attribute types, function and action signatures).

use super::{Checker, Module, NameKey};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{
    self, Action, ActionId, Attr, AttrId, BuiltinAttr, Class, ClassId, ClassKind, Func, FuncId, FuncKind,
    Input, InputMode, Locals, Ty, Visibility,
};
use crate::source::Span;
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
            span: Span::default(),
        });
        self.classes.insert((None, name.to_string()), id);
        id
    }

    fn builtin_attr(
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
                    ast::Item::Class(c) if c.kind == ast::ClassKind::Turn => {
                        if !self.check_unique((None, c.name.name.clone()), c.name.span, "turn") {
                            continue;
                        }
                        let id = hir::TurnId(self.prog.turns.len() as u32);
                        self.prog.turns.push(hir::Turn {
                            name: c.name.name.clone(),
                            default: None,
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
                                Diagnostic::error(block.span, "an imported file cannot have a `setup` block")
                                    .code(codes::MISPLACED)
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
                            .help("add `setup { }` to the main file: it runs before the first turn"),
                    );
                }
            }
            [_] => {}
            [first, rest @ ..] => {
                for b in rest {
                    self.error(
                        Diagnostic::error(
                            Span { end: b.span.start + 5, ..b.span },
                            "more than one `setup` block",
                        )
                        .code(codes::DUPLICATE)
                        .secondary(Span { end: first.span.start + 5, ..first.span }, "first `setup` here")
                        .help("merge them into one"),
                    );
                }
            }
        }
        if self.prog.turns.is_empty() {
            // A game without turns still has a turn order: the implicit `turn.active() + 1`.
            self.prog.turns.push(hir::Turn { name: "Turn".into(), default: None, span: Span::default() });
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
                                self.error(
                                    Diagnostic::error(path.span, msg)
                                        .code(codes::INHERITANCE)
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
        // Cycles: walk each chain; a chain longer than the class count loops.
        let n = self.prog.classes.len();
        for &(id, c) in &decls.classes {
            let mut cur = self.prog.class(id).base;
            let mut steps = 0;
            while let Some(b) = cur {
                if b == id || steps > n {
                    let span = c.base.as_ref().map_or(c.name.span, |p| p.span);
                    self.error(
                        Diagnostic::error(
                            span,
                            format!("`{}` derives from itself through its bases", c.name.name),
                        )
                        .code(codes::INHERITANCE)
                        .label("this base leads back to the class")
                        .help("break the cycle: one of these classes must not derive from the other"),
                    );
                    self.prog.classes[id.index()].base = None;
                    break;
                }
                cur = self.prog.class(b).base;
                steps += 1;
            }
        }
        // Roots, and visibility inherited from the root.
        for i in 0..n {
            let mut root = ClassId(i as u32);
            while let Some(b) = self.prog.class(root).base {
                root = b;
            }
            self.prog.classes[i].root = root;
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
                            .help("global classes have exactly one instance; put shared members in a function instead"),
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

    pub(crate) fn unknown_type(&mut self, path: &ast::Path) {
        let name = path.segments.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(".");
        let mut d = Diagnostic::error(path.span, format!("unknown type `{name}`"))
            .code(codes::UNKNOWN_TYPE)
            .label("no class, tile, event or built-in type has this name");
        if let Some(s) =
            self.suggest(&name, self.classes.keys().filter(|k| k.0.is_none()).map(|k| k.1.as_str()))
        {
            d = d.help(format!("a type with a similar name exists: `{s}`"));
        }
        self.error(d);
    }

    /// The closest name among `candidates` (edit distance), for "did you mean" hints.
    pub(crate) fn suggest<'n>(
        &self,
        name: &str,
        candidates: impl Iterator<Item = &'n str>,
    ) -> Option<String> {
        let mut best: Option<(usize, &str)> = None;
        for c in candidates {
            let d = edit_distance(&name.to_lowercase(), &c.to_lowercase());
            if d <= (name.len() / 3).max(1) && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, c));
            }
        }
        best.map(|(_, c)| c.to_string())
    }

    /// Builds attributes, function and action signatures of every class, turn defaults,
    /// board groups (headers), and top-level function signatures.
    pub(crate) fn declare_members<'m>(&mut self, decls: &mut Decls<'m>) {
        // Built-in attributes of user roots, by kind and visibility.
        let classes = decls.classes.clone();
        for &(id, _) in &classes {
            let class = self.prog.class(id);
            if class.base.is_some() {
                continue;
            }
            let (kind, vis) = (class.kind, class.visibility);
            if matches!(kind, ClassKind::Class | ClassKind::Interactable | ClassKind::Deck) {
                match vis {
                    Visibility::Local => {
                        self.builtin_attr(id, "owner", Ty::Player, BuiltinAttr::Owner, false);
                    }
                    Visibility::Group => {
                        self.builtin_attr(
                            id,
                            "members",
                            Ty::List(Box::new(Ty::Player)),
                            BuiltinAttr::Members,
                            false,
                        );
                    }
                    Visibility::Global => {}
                }
            }
            if kind == ClassKind::Interactable {
                let tile = self.prog.builtins.tile;
                self.builtin_attr(id, "tile", Ty::Class(tile), BuiltinAttr::Tile, false);
                self.builtin_attr(id, "discarded", Ty::Bool, BuiltinAttr::Discarded, false);
            }
        }
        // Members in declaration order; bases are declared before derived classes can
        // look them up because lookups happen in the body pass.
        for &(id, c) in &classes {
            for member in &c.members {
                self.declare_member(id, c, member, decls);
            }
            let class = self.prog.class(id);
            if class.kind == ClassKind::Deck && class.element.is_none() {
                let inherited = class.base.and_then(|b| self.prog.class(b).element.clone());
                match inherited {
                    Some(t) => self.prog.classes[id.index()].element = Some(t),
                    None => self.error(
                        Diagnostic::error(
                            c.head_span,
                            format!("the stack `{}` does not say what it holds", c.name.name),
                        )
                        .code(codes::MISPLACED)
                        .help("add `returns Card;` (the interactable it holds) to its block"),
                    ),
                }
            }
            if self.prog.class(id).kind == ClassKind::Deck {
                if let Some(elem) = self.prog.class(id).element.clone() {
                    if self.prog.class(id).base.is_none() {
                        self.builtin_attr(
                            id,
                            "discard_stack",
                            Ty::Stack(Box::new(elem)),
                            BuiltinAttr::DiscardStack,
                            false,
                        );
                    }
                }
            }
            if self.prog.class(id).kind == ClassKind::Board {
                let group = self.prog.builtins.group;
                self.builtin_attr(
                    id,
                    "groups",
                    Ty::Table(Box::new(Ty::Class(group))),
                    BuiltinAttr::Groups,
                    false,
                );
            }
        }
        for (tid, c) in decls.turns.clone() {
            for member in &c.members {
                match member {
                    ast::Member::Default(block) => {
                        if self.prog.turns[tid.0 as usize].default.is_some() {
                            self.error(
                                Diagnostic::error(block.span, "a turn has one `default` block")
                                    .code(codes::DUPLICATE)
                                    .help("merge the two blocks"),
                            );
                            continue;
                        }
                        let f = self.add_func(Func {
                            name: format!("{}_default", c.name.name),
                            kind: FuncKind::TurnDefault,
                            owner: None,
                            inputs: Vec::new(),
                            ret: Ty::Player,
                            locals: Locals::default(),
                            body: hir::Block::default(),
                            overrides: None,
                            span: block.span,
                        });
                        self.prog.turns[tid.0 as usize].default = Some(f);
                        decls.defaults.push((f, block));
                    }
                    other => {
                        self.misplaced_member(other, "a turn", "a turn holds only a `default { ... }` block")
                    }
                }
            }
        }
        // Top-level functions only: methods got their signature with their class.
        for (fid, f) in decls.funcs.clone() {
            if self.prog.func(fid).owner.is_none() {
                self.function_signature(fid, f, None);
            }
        }
    }

    fn declare_member<'m>(
        &mut self,
        id: ClassId,
        c: &'m ast::ClassDecl,
        member: &'m ast::Member,
        decls: &mut Decls<'m>,
    ) {
        let kind = self.prog.class(id).kind;
        let class_name = c.name.name.clone();
        match member {
            ast::Member::Attribute(a) => {
                if kind == ClassKind::Board || kind == ClassKind::Group {
                    // Boards may hold attributes like any global class.
                }
                if let Some(prev) = self.member_defined(id, &a.name.name) {
                    self.duplicate_member(&a.name, prev, &class_name);
                    return;
                }
                let ty = match &a.ty {
                    Some(t) => self.resolve_type(t),
                    None => {
                        self.error(
                            Diagnostic::error(
                                a.name.span,
                                format!("the attribute `{}` has no type", a.name.name),
                            )
                            .code(codes::MISPLACED)
                            .help("add `returns T;` inside the attribute block"),
                        );
                        Ty::Error
                    }
                };
                let attr = self.add_attr(Attr {
                    name: a.name.name.clone(),
                    class: id,
                    ty,
                    init: None,
                    builtin: None,
                    writable: true,
                    span: a.name.span,
                });
                decls.attrs.push((attr, a));
            }
            ast::Member::Function(f) => {
                if kind == ClassKind::Group {
                    return;
                }
                let overrides = self.check_override(id, &f.name, f.override_span, false);
                if overrides.is_none() {
                    if let Some(prev) = self.member_defined(id, &f.name.name) {
                        self.duplicate_member(&f.name, prev, &class_name);
                        return;
                    }
                }
                let fid = self.add_func(Func {
                    name: f.name.name.clone(),
                    kind: FuncKind::User,
                    owner: Some(id),
                    inputs: Vec::new(),
                    ret: Ty::Void,
                    locals: Locals::default(),
                    body: hir::Block::default(),
                    overrides: overrides.and_then(|o| o.func()),
                    span: f.name.span,
                });
                self.prog.classes[id.index()].funcs.push(fid);
                self.function_signature(fid, f, overrides.and_then(|o| o.func()));
                decls.funcs.push((fid, f));
            }
            ast::Member::Action(a) => {
                if matches!(
                    kind,
                    ClassKind::Tile | ClassKind::Connection | ClassKind::Event | ClassKind::Deck
                ) {
                    self.error(
                        Diagnostic::error(a.name.span, format!("a {} cannot have actions", kind_word(kind)))
                            .code(codes::MISPLACED)
                            .help("actions belong to classes, interactables and boards; put this one on a class"),
                    );
                    return;
                }
                let overrides = self.check_override(id, &a.name, a.override_span, true);
                if overrides.is_none() {
                    if let Some(prev) = self.member_defined(id, &a.name.name) {
                        self.duplicate_member(&a.name, prev, &class_name);
                        return;
                    }
                }
                let aid = self.action_signature(id, a, overrides.and_then(|o| o.action()));
                self.prog.classes[id.index()].actions.push(aid);
                decls.actions.push((aid, a));
            }
            ast::Member::Returns(t, span) => {
                if kind != ClassKind::Deck {
                    self.error(
                        Diagnostic::error(*span, "`returns` here only makes sense in a `stack`")
                            .code(codes::MISPLACED)
                            .help("write `returns T;` inside a function, or the type before an attribute: `number x = 0;`"),
                    );
                    return;
                }
                let ty = self.resolve_type(t);
                if self.prog.class(id).element.is_some() {
                    self.error(
                        Diagnostic::error(*span, "a stack says once what it holds")
                            .code(codes::DUPLICATE)
                            .help("keep one `returns` tag"),
                    );
                }
                self.prog.classes[id.index()].element = Some(ty);
            }
            ast::Member::Default(block) => {
                if kind != ClassKind::Deck {
                    self.error(
                        Diagnostic::error(Span { end: block.span.start, ..block.span }, format!("a {} has no `default` block", kind_word(kind)))
                            .code(codes::MISPLACED)
                            .help("`default` belongs to stacks, turns and board groups; initialise attributes where they are declared"),
                    );
                    return;
                }
                if self.prog.class(id).default.is_some() {
                    self.error(
                        Diagnostic::error(block.span, "a stack has one `default` block")
                            .code(codes::DUPLICATE)
                            .help("merge the two blocks"),
                    );
                    return;
                }
                let f = self.add_func(Func {
                    name: "default".into(),
                    kind: FuncKind::DeckDefault,
                    owner: Some(id),
                    inputs: Vec::new(),
                    ret: Ty::Void,
                    locals: Locals::default(),
                    body: hir::Block::default(),
                    overrides: None,
                    span: block.span,
                });
                self.prog.classes[id.index()].default = Some(f);
                decls.defaults.push((f, block));
            }
            ast::Member::Group(g) => {
                if kind != ClassKind::Board {
                    self.error(
                        Diagnostic::error(g.name.span, "a `group` of tiles belongs in a `board`")
                            .code(codes::MISPLACED)
                            .help("move this group into a `board { ... }` definition"),
                    );
                    return;
                }
                self.declare_group(id, g, decls);
            }
        }
    }

    fn misplaced_member(&mut self, member: &ast::Member, place: &str, help: &str) {
        let span = match member {
            ast::Member::Attribute(a) => a.span,
            ast::Member::Function(f) => f.name.span,
            ast::Member::Action(a) => a.name.span,
            ast::Member::Returns(_, s) => *s,
            ast::Member::Default(b) => b.span,
            ast::Member::Group(g) => g.name.span,
        };
        self.error(
            Diagnostic::error(span, format!("not allowed in {place}")).code(codes::MISPLACED).help(help),
        );
    }

    fn duplicate_member(&mut self, name: &ast::Ident, prev: Span, class: &str) {
        self.error(
            Diagnostic::error(name.span, format!("`{class}` already has a member named `{}`", name.name))
                .code(codes::DUPLICATE)
                .label("defined again here")
                .secondary(prev, "first defined here")
                .help("rename one of them (to replace a base class's function or action, write `override`)"),
        );
    }

    /// The span of a member with this name in the class or its bases.
    fn member_defined(&self, class: ClassId, name: &str) -> Option<Span> {
        let mut cur = Some(class);
        while let Some(c) = cur {
            let cl = self.prog.class(c);
            for &a in &cl.attrs {
                if self.prog.attr(a).name == name {
                    return Some(self.prog.attr(a).span);
                }
            }
            for &f in &cl.funcs {
                if self.prog.func(f).name == name {
                    return Some(self.prog.func(f).span);
                }
            }
            for &a in &cl.actions {
                if self.prog.action(a).name == name {
                    return Some(self.prog.action(a).span);
                }
            }
            cur = cl.base;
        }
        None
    }

    /// Validates `override` against the base chain.
    fn check_override(
        &mut self,
        class: ClassId,
        name: &ast::Ident,
        override_span: Option<Span>,
        is_action: bool,
    ) -> Option<Overridden> {
        let base = self.prog.class(class).base;
        let found = base.and_then(|b| {
            if is_action {
                self.find_action(b, &name.name).map(Overridden::Action)
            } else {
                self.find_func(b, &name.name).map(Overridden::Func)
            }
        });
        let what = if is_action { "action" } else { "function" };
        match (override_span, found) {
            (Some(_), Some(f)) => Some(f),
            (Some(o), None) => {
                self.error(
                    Diagnostic::error(o.to(name.span), format!("`{}` overrides nothing", name.name))
                        .code(codes::INHERITANCE)
                        .label(format!("no base class has an {what} with this name"))
                        .help("remove `override`, or check the name against the base class"),
                );
                None
            }
            (None, Some(f)) => {
                let prev = match f {
                    Overridden::Func(f) => self.prog.func(f).span,
                    Overridden::Action(a) => self.prog.action(a).span,
                };
                self.error(
                    Diagnostic::error(name.span, format!("`{}` hides the {what} of a base class", name.name))
                        .code(codes::INHERITANCE)
                        .secondary(prev, "defined in the base here")
                        .help(format!("write `override {what} {}` to replace it", name.name)),
                );
                None
            }
            (None, None) => None,
        }
    }

    /// Inputs and return type of a function; an override takes its base's.
    fn function_signature(&mut self, fid: FuncId, f: &ast::FunctionDecl, overrides: Option<FuncId>) {
        for (kw, span) in &f.misplaced {
            self.error(
                Diagnostic::error(*span, format!("a function cannot have `{kw}`"))
                    .code(codes::MISPLACED)
                    .help("`require`, `trigger` and `prio` belong to actions"),
            );
        }
        if f.effects.len() > 1 {
            self.error(
                Diagnostic::error(f.effects[1].span, "a function has one `effect` block")
                    .code(codes::DUPLICATE)
                    .secondary(f.effects[0].span, "first `effect` here")
                    .help("merge the two blocks"),
            );
        }
        if let Some(base) = overrides {
            if let Some(i) = f.inputs.first() {
                self.error(
                    Diagnostic::error(i.span, "an override contains only an `effect`")
                        .code(codes::INHERITANCE)
                        .help("inputs and `returns` are inherited from the base function; remove this"),
                );
            }
            if let Some((_, span)) = f.returns.first() {
                self.error(
                    Diagnostic::error(*span, "an override contains only an `effect`")
                        .code(codes::INHERITANCE)
                        .help("the return type is inherited from the base function; remove this"),
                );
            }
            let (inputs, ret, locals) = {
                let b = self.prog.func(base);
                (b.inputs.clone(), b.ret.clone(), b.locals.clone())
            };
            let func = &mut self.prog.funcs[fid.index()];
            func.inputs = inputs;
            func.ret = ret;
            // The inherited inputs are the first locals of the override too.
            func.locals.vars = locals.vars[..func.inputs.len()].to_vec();
            return;
        }
        let ret = match f.returns.as_slice() {
            [] => {
                self.error(
                    Diagnostic::error(
                        f.name.span,
                        format!("the function `{}` does not declare what it returns", f.name.name),
                    )
                    .code(codes::RETURN)
                    .help("add `returns T;` or, for no value, `returns;`"),
                );
                Ty::Error
            }
            [(t, _), rest @ ..] => {
                for (_, span) in rest {
                    self.error(
                        Diagnostic::error(*span, "a function has one `returns` tag").code(codes::DUPLICATE),
                    );
                }
                t.as_ref().map_or(Ty::Void, |t| self.resolve_type(t))
            }
        };
        let inputs = self.declare_inputs(&f.inputs, true);
        let func = &mut self.prog.funcs[fid.index()];
        func.ret = ret;
        for (i, ty) in inputs {
            let local = func.locals.add(i.name.name.clone(), ty.clone(), i.name.span);
            let mode = match i.mode {
                ast::InputMode::Function(_) => InputMode::Function { default: None },
                ast::InputMode::Auto(_) => InputMode::Auto,
                _ => InputMode::Player { target: None },
            };
            func.inputs.push(Input {
                name: i.name.name.clone(),
                local,
                ty,
                mode,
                optional: i.optional.is_some(),
                filters: Vec::new(),
                span: i.span,
            });
        }
    }

    /// Resolves the types of inputs, checking names are unique and domains finite.
    fn declare_inputs<'i>(
        &mut self,
        inputs: &'i [ast::InputDecl],
        in_function: bool,
    ) -> Vec<(&'i ast::InputDecl, Ty)> {
        let mut out: Vec<(&ast::InputDecl, Ty)> = Vec::new();
        for i in inputs {
            if let Some((prev, _)) = out.iter().find(|(p, _)| p.name.name == i.name.name) {
                self.error(
                    Diagnostic::error(i.name.span, format!("two inputs are named `{}`", i.name.name))
                        .code(codes::DUPLICATE)
                        .secondary(prev.name.span, "first input with this name")
                        .help("rename one of them"),
                );
                continue;
            }
            let ty = self.resolve_type(&i.ty);
            match &i.mode {
                ast::InputMode::Function(span) if !in_function => {
                    self.error(
                        Diagnostic::error(*span, "`function input` belongs to functions")
                            .code(codes::MISPLACED)
                            .help("an action's inputs are chosen by players (`input`) or computed (`auto input`)"),
                    );
                }
                ast::InputMode::Function(_) => {}
                _ => self.check_input_domain(&ty, i),
            }
            if i.default.is_some() && !matches!(i.mode, ast::InputMode::Function(_)) {
                self.error(
                    Diagnostic::error(
                        i.default.as_ref().map_or(i.span, |d| d.span),
                        "only a `function input` has a default value",
                    )
                    .code(codes::MISPLACED)
                    .help("remove `= ...`; a player chooses this input"),
                );
            }
            if matches!(i.mode, ast::InputMode::Function(_)) && !i.filters.is_empty() {
                self.error(
                    Diagnostic::error(
                        i.filters[0].span,
                        "a `function input` is passed by the caller and has no filters",
                    )
                    .code(codes::MISPLACED)
                    .help("check the argument inside the effect instead"),
                );
            }
            out.push((i, ty));
        }
        out
    }

    pub(crate) fn check_input_domain(&mut self, ty: &Ty, i: &ast::InputDecl) {
        let elem = match ty {
            Ty::List(t) => t.as_ref(),
            t => t,
        };
        let finite = match elem {
            Ty::Player | Ty::Bool | Ty::Error => true,
            // Instances are candidates, except events, which are never candidates.
            Ty::Class(c) => self.prog.class(*c).kind != ClassKind::Event,
            _ => false,
        };
        if !finite {
            self.error(
                Diagnostic::error(i.ty.span, format!("an input of type `{}` has no finite set of candidates", self.ty_name(ty)))
                    .code(codes::INPUT_DOMAIN)
                    .label("a player cannot choose from every possible value")
                    .help("choose among objects, players or bools; for numbers, put the choices in a `List` of objects, or write one action per value"),
            );
        }
    }

    fn action_signature(
        &mut self,
        class: ClassId,
        a: &ast::ActionDecl,
        overrides: Option<ActionId>,
    ) -> ActionId {
        for (kw, span) in &a.misplaced {
            self.error(
                Diagnostic::error(*span, format!("an action cannot have `{kw}`"))
                    .code(codes::MISPLACED)
                    .help("actions have inputs, `require`, `trigger`, `prio` and one `effect`; `returns` belongs to functions"),
            );
        }
        if a.effects.len() > 1 {
            self.error(
                Diagnostic::error(a.effects[1].span, "an action has one `effect` block")
                    .code(codes::DUPLICATE)
                    .secondary(a.effects[0].span, "first `effect` here")
                    .help("merge the two blocks"),
            );
        }
        if a.prios.len() > 1 {
            self.error(Diagnostic::error(a.prios[1].1, "an action has one `prio`").code(codes::DUPLICATE));
        }
        let mut action = Action {
            name: a.name.name.clone(),
            owner: class,
            inputs: Vec::new(),
            requires: Vec::new(),
            triggers: Vec::new(),
            prio: a.prios.first().map_or(0.0, |p| p.0),
            locals: Locals::default(),
            effect: hir::Block::default(),
            event_local: None,
            overrides,
            span: a.name.span,
        };
        if let Some(base) = overrides {
            let parts_span = a
                .inputs
                .first()
                .map(|i| i.span)
                .or(a.requires.first().map(|r| r.span))
                .or(a.triggers.first().map(|t| t.span));
            if let Some(span) = parts_span {
                self.error(
                    Diagnostic::error(span, "an override contains only an `effect`")
                        .code(codes::INHERITANCE)
                        .help(
                            "inputs, requires and triggers are inherited from the base action; remove this",
                        ),
                );
            }
            let b = self.prog.action(base).clone();
            action.inputs = b.inputs;
            action.prio = b.prio;
            action.locals.vars = b.locals.vars[..action.inputs.len()].to_vec();
        } else {
            let inputs = self.declare_inputs(&a.inputs, false);
            for (i, ty) in inputs {
                let local = action.locals.add(i.name.name.clone(), ty.clone(), i.name.span);
                let mode = match i.mode {
                    ast::InputMode::Auto(_) => InputMode::Auto,
                    _ => InputMode::Player { target: None },
                };
                action.inputs.push(Input {
                    name: i.name.name.clone(),
                    local,
                    ty,
                    mode,
                    optional: i.optional.is_some(),
                    filters: Vec::new(),
                    span: i.span,
                });
            }
            for t in &a.triggers {
                let ns = self.class_ns.get(&class).cloned().flatten();
                let event = match self.lookup_class_path(&t.event, ns.as_deref()) {
                    Some(e) if self.prog.class(e).kind == ClassKind::Event => e,
                    Some(e) => {
                        self.error(
                            Diagnostic::error(
                                t.event.span,
                                format!("`{}` is not an event", self.prog.class(e).name),
                            )
                            .code(codes::EVENT)
                            .help("a trigger watches an event: declare it with `event Name { ... }`"),
                        );
                        continue;
                    }
                    None => {
                        let name =
                            t.event.segments.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(".");
                        let mut d = Diagnostic::error(t.event.span, format!("unknown event `{name}`"))
                            .code(codes::EVENT)
                            .label("no event has this name");
                        let events: Vec<String> = self
                            .prog
                            .classes
                            .iter()
                            .filter(|c| c.kind == ClassKind::Event)
                            .map(|c| c.name.clone())
                            .collect();
                        if let Some(s) = self.suggest(&name, events.iter().map(String::as_str)) {
                            d = d.help(format!("an event with a similar name exists: `{s}`"));
                        }
                        self.error(d);
                        continue;
                    }
                };
                action.triggers.push(hir::Trigger { event, body: None, span: t.span });
            }
        }
        self.prog.actions.push(action);
        ActionId(self.prog.actions.len() as u32 - 1)
    }

    fn declare_group<'m>(&mut self, board: ClassId, g: &'m ast::GroupDecl, decls: &mut Decls<'m>) {
        if self.prog.class(board).groups.iter().any(|x| x.name == g.name.name) {
            self.error(
                Diagnostic::error(g.name.span, format!("the board already has a group `{}`", g.name.name))
                    .code(codes::DUPLICATE),
            );
            return;
        }
        let geometry_word = match g.geometry.as_slice() {
            [] => {
                self.error(
                    Diagnostic::error(g.name.span, format!("the group `{}` has no geometry", g.name.name))
                        .code(codes::BOARD)
                        .help("add `geometry square;`, `geometry hex;` or `geometry graph;`"),
                );
                None
            }
            [w, ..] => Some(w),
        };
        let orientation = g.orientation.first();
        let geometry = match geometry_word.map(|w| w.name.as_str()) {
            Some("square") => hir::Geometry::Square,
            Some("graph") => hir::Geometry::Graph,
            Some("hex") => match orientation.map(|o| o.name.as_str()) {
                Some("row") => hir::Geometry::HexRows,
                Some("column") | Some("col") => hir::Geometry::HexColumns,
                Some(_) | None => {
                    let span = orientation.map_or(g.name.span, |o| o.span);
                    self.error(
                        Diagnostic::error(span, "a hex group needs `orientation row;` or `orientation column;`")
                            .code(codes::BOARD)
                            .help("`row`: pointy-top hexes, even rows shifted right; `column`: flat-top hexes, even columns shifted down"),
                    );
                    hir::Geometry::HexRows
                }
            },
            Some(other) => {
                let span = geometry_word.map_or(g.name.span, |w| w.span);
                self.error(
                    Diagnostic::error(span, format!("unknown geometry `{other}`"))
                        .code(codes::BOARD)
                        .help("the geometries are `square`, `hex` and `graph`"),
                );
                hir::Geometry::Square
            }
            None => hir::Geometry::Square,
        };
        if let Some(o) = orientation {
            if geometry != hir::Geometry::HexRows && geometry != hir::Geometry::HexColumns {
                self.error(
                    Diagnostic::error(o.span, "only hex groups have an orientation")
                        .code(codes::BOARD)
                        .help("remove this line"),
                );
            }
        }
        let mut cells = Vec::new();
        match (geometry, g.grids.as_slice()) {
            (hir::Geometry::Graph, [grid, ..]) => {
                self.error(
                    Diagnostic::error(grid.span, "a graph group has no grid")
                        .code(codes::BOARD)
                        .help("build the tiles in the group's `default` block with `this.add(new T())` and `a.connect(b)`"),
                );
            }
            (hir::Geometry::Graph, []) => {}
            (_, []) => {
                self.error(
                    Diagnostic::error(g.name.span, format!("the group `{}` has no grid", g.name.name))
                        .code(codes::BOARD)
                        .help("add `grid { ... }` with one row of tile class names per line"),
                );
            }
            (_, [grid, rest @ ..]) => {
                for r in rest {
                    self.error(Diagnostic::error(r.span, "a group has one grid").code(codes::DUPLICATE));
                }
                let width = grid.rows.first().map_or(0, Vec::len);
                for row in &grid.rows {
                    if row.len() != width {
                        let span = match (row.first(), row.last()) {
                            (Some(a), Some(b)) => cell_span(a).to(cell_span(b)),
                            _ => grid.span,
                        };
                        self.error(
                            Diagnostic::error(
                                span,
                                format!("this row has {} cells but the first row has {width}", row.len()),
                            )
                            .code(codes::BOARD)
                            .help("every row of a grid has the same length; pad with `b` (a blank cell)"),
                        );
                    }
                    let mut out_row = Vec::new();
                    for cell in row {
                        match cell {
                            ast::GridCell::Blank(_) => out_row.push(None),
                            ast::GridCell::Tile(name) => {
                                let path = ast::Path { segments: vec![name.clone()], span: name.span };
                                let ns = self.class_ns.get(&board).cloned().flatten();
                                match self.lookup_class_path(&path, ns.as_deref()) {
                                    Some(c) if self.prog.class(c).kind == ClassKind::Tile => {
                                        if c == self.prog.builtins.blank_tile {
                                            out_row.push(None);
                                        } else {
                                            out_row.push(Some(c));
                                        }
                                    }
                                    Some(c) => {
                                        self.error(
                                            Diagnostic::error(name.span, format!("`{}` is not a tile class", self.prog.class(c).name))
                                                .code(codes::BOARD)
                                                .help("grid cells name tile classes (`tile Field { }`) or `b` for a blank cell"),
                                        );
                                        out_row.push(None);
                                    }
                                    None => {
                                        self.unknown_type(&path);
                                        out_row.push(None);
                                    }
                                }
                            }
                        }
                    }
                    cells.push(out_row);
                }
            }
        }
        let default = match g.defaults.as_slice() {
            [] => None,
            [block, rest @ ..] => {
                for r in rest {
                    self.error(
                        Diagnostic::error(r.span, "a group has one `default` block").code(codes::DUPLICATE),
                    );
                }
                let group_class = self.prog.builtins.group;
                let f = self.add_func(Func {
                    name: format!("{}_default", g.name.name),
                    kind: FuncKind::GroupDefault,
                    owner: Some(group_class),
                    inputs: Vec::new(),
                    ret: Ty::Void,
                    locals: Locals::default(),
                    body: hir::Block::default(),
                    overrides: None,
                    span: block.span,
                });
                decls.defaults.push((f, block));
                Some(f)
            }
        };
        self.prog.classes[board.index()].groups.push(hir::GroupDef {
            name: g.name.name.clone(),
            geometry,
            cells,
            default,
            span: g.name.span,
        });
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

#[derive(Clone, Copy)]
enum Overridden {
    Func(FuncId),
    Action(ActionId),
}

impl Overridden {
    fn func(self) -> Option<FuncId> {
        match self {
            Overridden::Func(f) => Some(f),
            Overridden::Action(_) => None,
        }
    }

    fn action(self) -> Option<ActionId> {
        match self {
            Overridden::Action(a) => Some(a),
            Overridden::Func(_) => None,
        }
    }
}

fn cell_span(c: &ast::GridCell) -> Span {
    match c {
        ast::GridCell::Blank(s) => *s,
        ast::GridCell::Tile(i) => i.span,
    }
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

/// Levenshtein distance, for suggestions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
