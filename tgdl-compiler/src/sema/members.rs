//! The members of classes: attribute types, methods and actions (with their `override`s
//! checked against the bases), stack element types, `default` blocks and turn defaults.

use super::Checker;
use super::declare::{Decls, kind_word};
use super::suggest::Callable;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{
    self, ActionId, Attr, BuiltinAttr, ClassId, ClassKind, Func, FuncId, FuncKind, Locals, Ty, Visibility,
};
use crate::source::Span;
use crate::syntax::ast;

/// The longest track a table draws: spaces 0 to 200.
const MAX_TRACK: f64 = 200.0;

impl<'a> Checker<'a> {
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
                self.builtin_attr(id, "face_up", Ty::Bool, BuiltinAttr::FaceUp, false);
            }
        }
        // Members in declaration order; bases are declared before derived classes can
        // look them up because lookups happen in the body pass.
        for &(id, c) in &classes {
            // Types in an imported file's members are looked up in its namespace first.
            self.cx.namespace = self.class_ns.get(&id).cloned().flatten();
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
                        .label("no `returns` tag in this stack")
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
                    Ty::Table(Box::new(Ty::Class(group)), None),
                    BuiltinAttr::Groups,
                    false,
                );
            }
        }
        self.cx.namespace = None;
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
                    ast::Member::Simultaneous(keyword, block) | ast::Member::Resolve(keyword, block) => {
                        let simultaneous = matches!(member, ast::Member::Simultaneous(..));
                        let turn = &self.prog.turns[tid.0 as usize];
                        let (word, taken) =
                            if simultaneous { ("simultaneous", turn.simultaneous) } else { ("resolve", turn.resolve) };
                        if taken.is_some() {
                            self.error(
                                Diagnostic::error(*keyword, format!("a turn has one `{word}` block"))
                                    .code(codes::SIMULTANEOUS)
                                    .help("merge the two blocks"),
                            );
                            continue;
                        }
                        let f = self.add_func(Func {
                            name: format!("{}_{word}", c.name.name),
                            kind: if simultaneous { FuncKind::TurnSimultaneous } else { FuncKind::TurnResolve },
                            owner: None,
                            inputs: Vec::new(),
                            ret: if simultaneous { Ty::List(Box::new(Ty::Player)) } else { Ty::Void },
                            locals: Locals::default(),
                            body: hir::Block::default(),
                            overrides: None,
                            span: block.span,
                        });
                        let turn = &mut self.prog.turns[tid.0 as usize];
                        if simultaneous {
                            turn.simultaneous = Some(f);
                        } else {
                            turn.resolve = Some(f);
                        }
                        decls.defaults.push((f, block));
                    }
                    other => self.misplaced_member(
                        other,
                        "a turn",
                        "a turn holds only `default { ... }`, `simultaneous { ... }` and `resolve { ... }` blocks",
                    ),
                }
            }
            self.check_simultaneous_turn(tid, c);
        }
        // Top-level functions only: methods got their signature with their class.
        for (fid, f) in decls.funcs.clone() {
            if self.prog.func(fid).owner.is_none() {
                self.cx.namespace = self.func_ns.get(&fid).cloned().flatten();
                self.function_signature(fid, f, None);
            }
        }
        self.cx.namespace = None;
    }

    /// A `public` attribute is one of a root interactable (what can be hidden, in the one
    /// place every class of the hierarchy keeps it), of a value that reads as text the same
    /// for everyone.
    fn check_public(&mut self, class: ClassId, a: &ast::AttributeDecl, public: Span, ty: &Ty) {
        let c = self.prog.class(class);
        let why = if c.kind != ClassKind::Interactable {
            Some(format!("a {} is never hidden: its attributes are public already", kind_word(c.kind)))
        } else if c.base.is_some() {
            Some(format!(
                "`{}` derives from another class: a `public` attribute belongs to the root class",
                c.name
            ))
        } else if !matches!(ty, Ty::Number | Ty::String | Ty::Bool | Ty::Player | Ty::Error) {
            Some(format!(
                "a `public` attribute holds a number, a string, a bool or a player, not a `{}`",
                self.ty_name(ty)
            ))
        } else {
            None
        };
        if let Some(why) = why {
            self.error(
                Diagnostic::error(public, format!("the attribute `{}` cannot be `public`", a.name.name))
                    .code(codes::VISIBILITY_MARK)
                    .label(why)
                    .help("`public` marks a value seen on a hidden card or piece: `interactable Card { public number slot = 0; }`"),
            );
        }
    }

    /// `per player` splits a list of values among the players' areas: it belongs to a
    /// global class (whose one object is everyone's) and to a list of numbers, strings,
    /// bools or players (an object has a place of its own on the table).
    fn check_per_player(&mut self, class: ClassId, a: &ast::AttributeDecl, per_player: Span, ty: &Ty) {
        let c = self.prog.class(class);
        let why = if c.kind != ClassKind::Class || c.visibility != Visibility::Global {
            Some(format!("`{}` is not a `global class`: only the game's one object is shared out", c.name))
        } else {
            match ty {
                Ty::List(elem)
                    if matches!(**elem, Ty::Number | Ty::String | Ty::Bool | Ty::Player | Ty::Error) =>
                {
                    None
                }
                Ty::Error => None,
                _ => Some(format!(
                    "a `per player` attribute is a list of numbers, strings, bools or players, not a `{}`",
                    self.ty_name(ty)
                )),
            }
        };
        if let Some(why) = why {
            self.error(
                Diagnostic::error(per_player, format!("the attribute `{}` cannot be `per player`", a.name.name))
                    .code(codes::PER_PLAYER)
                    .label(why)
                    .help("item `p` of a `per player` list is player p's: `global class Bank { per player List<number> coins = {3, 3}; }`"),
            );
        }
    }

    /// A `track(N)` holds numbers (places on it) and has spaces 0 to N, N a whole number
    /// from 1 to 200 (a track longer than that is not one a table can show). Its last
    /// space, when it is right.
    fn check_track(&mut self, a: &ast::AttributeDecl, last: f64, span: Span, ty: &Ty) -> Option<u32> {
        let why = match ty {
            Ty::List(elem) if matches!(**elem, Ty::Number | Ty::Error) => {
                if last.fract() == 0.0 && (1.0..=MAX_TRACK).contains(&last) {
                    return Some(last as u32);
                }
                format!("a track's last space is a whole number from 1 to {MAX_TRACK}, not {last}")
            }
            Ty::Error => return None,
            _ => format!("the places on a track are numbers: `{}` is not a `List<number>`", self.ty_name(ty)),
        };
        self.error(
            Diagnostic::error(span, format!("the attribute `{}` cannot be a track", a.name.name))
                .code(codes::TRACK)
                .label(why)
                .help("each player's number is their marker's space: `per player track(30) List<number> points = {0, 0};`"),
        );
        None
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
                if let (Some(secret), Some(internal)) = (a.secret, a.internal) {
                    self.error(
                        Diagnostic::error(
                            internal,
                            format!("the attribute `{}` is both `internal` and `secret`", a.name.name),
                        )
                        .code(codes::INTERNAL)
                        .secondary(secret, "its owner is shown a secret value apart")
                        .help("keep `internal` for bookkeeping everyone may know, `secret` for a value its owner alone reads"),
                    );
                }
                if let Some(public) = a.public {
                    self.check_public(id, a, public, &ty);
                }
                if let Some(per_player) = a.per_player {
                    self.check_per_player(id, a, per_player, &ty);
                }
                let track = a.track.and_then(|(last, span)| self.check_track(a, last, span, &ty));
                let attr = self.add_attr(Attr {
                    name: a.name.name.clone(),
                    class: id,
                    ty,
                    init: None,
                    builtin: None,
                    writable: true,
                    secret: a.secret.is_some(),
                    internal: a.internal.is_some(),
                    public: a.public.is_some(),
                    per_player: a.per_player.is_some(),
                    track,
                    span: a.name.span,
                });
                decls.attrs.push((attr, a));
            }
            ast::Member::Function(f) => {
                if kind == ClassKind::Group {
                    return;
                }
                let Ok(overrides) = self.check_override(id, &f.name, f.override_span, false) else {
                    return;
                };
                if overrides.is_none() && f.override_span.is_none() {
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
                self.check_look_fn(fid, f);
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
                            .label(format!("an action in a {}", kind_word(kind)))
                            .help("actions belong to classes, interactables and boards; put this one on a class"),
                    );
                    return;
                }
                let Ok(overrides) = self.check_override(id, &a.name, a.override_span, true) else {
                    return;
                };
                if overrides.is_none() && a.override_span.is_none() {
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
                // A deck deals pieces and cards: `discard`, `reshuffle` (which clears
                // `discarded`) and hands are defined for interactables only.
                let interactable = |c: crate::hir::ClassId| {
                    let class = self.prog.class(c);
                    class.kind == ClassKind::Interactable
                        || self.prog.class(class.root).kind == ClassKind::Interactable
                };
                let holds = match &ty {
                    Ty::Error => None,
                    Ty::Class(c) if interactable(*c) => None,
                    Ty::Class(c) => Some(format!(
                        "`{}` is a {}",
                        self.prog.class(*c).name,
                        kind_word(self.prog.class(*c).kind)
                    )),
                    other => Some(format!("`{}` is not a class", self.ty_name(other))),
                };
                if let Some(what) = holds {
                    self.error(
                        Diagnostic::error(t.span, "a stack holds interactables")
                            .code(codes::MISMATCH)
                            .label(what)
                            .help("declare what the stack deals as `interactable Card { ... }`; keep other values in a `Stack<T>` attribute"),
                    );
                }
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
            ast::Member::Simultaneous(k, _) | ast::Member::Resolve(k, _) => {
                let word =
                    if matches!(member, ast::Member::Simultaneous(..)) { "simultaneous" } else { "resolve" };
                self.error(
                    Diagnostic::error(*k, format!("a {} has no `{word}` block", kind_word(kind)))
                        .code(codes::MISPLACED)
                        .help("`simultaneous { ... }` and `resolve { ... }` belong to turns: `turn Bidding { simultaneous { return player.all(); } }`"),
                );
            }
        }
    }

    /// A simultaneous turn has no `default`; a `resolve` needs a `simultaneous` block.
    fn check_simultaneous_turn(&mut self, tid: hir::TurnId, c: &ast::ClassDecl) {
        let (default, simultaneous_fn) = {
            let turn = &self.prog.turns[tid.0 as usize];
            (turn.default, turn.simultaneous)
        };
        let keyword_of = |wanted: fn(&ast::Member) -> Option<Span>| c.members.iter().find_map(wanted);
        let simultaneous = keyword_of(|m| match m {
            ast::Member::Simultaneous(k, _) => Some(*k),
            _ => None,
        });
        if let (Some(_), Some(at)) = (default, simultaneous) {
            let default = keyword_of(|m| match m {
                ast::Member::Default(b) => Some(b.span),
                _ => None,
            });
            let mut d = Diagnostic::error(
                default.map_or(at, |b| self.keyword_before(b, "default")),
                format!("the simultaneous turn `{}` has a `default` block", c.name.name),
            )
            .code(codes::SIMULTANEOUS)
            .label("nobody passes the turn to one player here")
            .secondary(at, "the players this block returns choose together");
            d = d.help("leave `default` out: the round ends when every choice has taken effect, and `resolve { ... }` says what follows");
            self.error(d);
        }
        if simultaneous_fn.is_none() {
            if let Some(at) = keyword_of(|m| match m {
                ast::Member::Resolve(k, _) => Some(*k),
                _ => None,
            }) {
                self.error(
                    Diagnostic::error(at, format!("`resolve` in the turn `{}`, which is not simultaneous", c.name.name))
                        .code(codes::SIMULTANEOUS)
                        .label("runs after a round of simultaneous choices")
                        .help("add `simultaneous { return player.all(); }` (the players who choose together), or do this in an action's effect"),
                );
            }
        }
    }

    /// `glyph`, `colour` and `shape` tell the table how to draw an object: like `label`, they
    /// take nothing and return a string.
    fn check_look_fn(&mut self, fid: FuncId, f: &ast::FunctionDecl) {
        let func = self.prog.func(fid);
        if !crate::facts::LOOK_FNS.contains(&func.name.as_str()) {
            return;
        }
        let wrong = if let Some(i) = f.inputs.first() {
            Some((i.span, "it takes no inputs"))
        } else if !matches!(func.ret, Ty::String | Ty::Error) {
            Some((f.name.span, "it returns a string"))
        } else {
            None
        };
        if let Some((span, what)) = wrong {
            let name = func.name.clone();
            self.error(
                Diagnostic::error(span, format!("`{name}` says how the table draws an object: {what}"))
                    .code(codes::LOOK)
                    .help(format!(
                        "write `function {name} {{ returns string; effect {{ ... }} }}` reading `this`'s attributes, or give the function another name"
                    )),
            );
        }
    }

    /// `label_move` writes the moves of the action `move` of its class: it must take what a
    /// move carries (the action's leading inputs, in order) and return a string.
    pub(crate) fn check_action_labels(&mut self) {
        for a in 0..self.prog.actions.len() as u32 {
            let a = ActionId(a);
            let action = self.prog.action(a);
            let name = format!("label_{}", action.name);
            let Some(&f) =
                self.prog.class(action.owner).funcs.iter().find(|&&f| self.prog.func(f).name == name)
            else {
                continue;
            };
            if crate::facts::label_fits_move(&self.prog, a, f) {
                continue;
            }
            let leading = crate::facts::leading_inputs(&self.prog, a);
            let inputs: Vec<String> = leading
                .iter()
                .map(|&k| {
                    let input = &action.inputs[k];
                    let q = if input.optional { "?" } else { "" };
                    format!("{}{q} {}", self.ty_name(&input.ty), input.name)
                })
                .collect();
            let takes = if inputs.is_empty() {
                "it takes no inputs".to_string()
            } else {
                format!("it takes the move's inputs `{}`, in order,", inputs.join(", "))
            };
            let lines: String = inputs.iter().map(|i| format!("function input {i}; ")).collect();
            let (action_name, span) = (action.name.clone(), self.prog.func(f).span);
            let unwritable = leading.iter().any(|&k| match &action.inputs[k].ty {
                Ty::Class(c) => {
                    let class = self.prog.class(*c);
                    class.visibility == Visibility::Global
                        || matches!(class.kind, ClassKind::Board | ClassKind::Group)
                }
                Ty::Player | Ty::Bool => false,
                _ => true,
            });
            let diagnostic = if unwritable {
                Diagnostic::error(
                    span,
                    format!("`{name}` cannot write the moves of `{action_name}`: they name a global class or a board, which only their default label writes"),
                )
                .help("give the function another name")
            } else {
                Diagnostic::error(
                    span,
                    format!("`{name}` writes the moves of `{action_name}` for people: {takes} and returns a string"),
                )
                .help(format!(
                    "write `function {name} {{ {lines}returns string; effect {{ ... }} }}`, or give the function another name"
                ))
            };
            self.error(diagnostic.code(codes::LOOK));
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
            ast::Member::Simultaneous(k, _) | ast::Member::Resolve(k, _) => *k,
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

    /// Validates `override` against the base chain: `Ok(Some)` for a valid override,
    /// `Ok(None)` for a new member (also after reporting an `override` of nothing), `Err`
    /// when the member hides a base member (reported; the member is left out).
    fn check_override(
        &mut self,
        class: ClassId,
        name: &ast::Ident,
        override_span: Option<Span>,
        is_action: bool,
    ) -> Result<Option<Overridden>, ()> {
        let base = self.prog.class(class).base;
        let find = |this: &Self, action: bool| {
            base.and_then(|b| {
                if action {
                    this.find_action(b, &name.name).map(Overridden::Action)
                } else {
                    this.find_func(b, &name.name).map(Overridden::Func)
                }
            })
        };
        let found = find(self, is_action);
        let (what, article) = if is_action { ("action", "an") } else { ("function", "a") };
        let span_of = |this: &Self, o: Overridden| match o {
            Overridden::Func(f) => this.prog.func(f).span,
            Overridden::Action(a) => this.prog.action(a).span,
        };
        match (override_span, found) {
            (Some(_), Some(f)) => Ok(Some(f)),
            (Some(o), None) => {
                let mut d = Diagnostic::error(o.to(name.span), format!("`{}` overrides nothing", name.name))
                    .code(codes::INHERITANCE);
                if let Some(other) = find(self, !is_action) {
                    let (other_what, other_article) =
                        if is_action { ("function", "a") } else { ("action", "an") };
                    d = d
                        .label(format!(
                            "the base has {other_article} {other_what} `{}`, not {article} {what}",
                            name.name
                        ))
                        .secondary(span_of(self, other), format!("the base's {other_what} is defined here"))
                        .help(format!("write `override {other_what} {}`", name.name));
                } else if base.is_none() {
                    d = d
                        .label(format!("`{}` has no base class", self.prog.class(class).name))
                        .help("remove `override`, or derive the class from the one whose member it replaces: `class D : B`");
                } else {
                    d = d.label(format!("no base class has {article} {what} with this name"));
                    let kind = if is_action { Callable::Action } else { Callable::Function };
                    let same_kind: Vec<(String, Callable)> = base
                        .map(|b| self.class_callables(b))
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|(_, k)| *k == kind)
                        .collect();
                    d = match self.suggest(&name.name, same_kind.iter().map(|(n, _)| n.as_str())) {
                        Some(s) => d.help(format!(
                            "the base has {article} {what} with a similar name: `override {what} {s}`"
                        )),
                        None => d.help("remove `override`, or check the name against the base class"),
                    };
                }
                self.error(d);
                Ok(None)
            }
            (None, Some(f)) => {
                let prev = span_of(self, f);
                self.error(
                    Diagnostic::error(name.span, format!("`{}` hides the {what} of a base class", name.name))
                        .code(codes::INHERITANCE)
                        .label(format!("same name as the base class's {what}"))
                        .secondary(prev, "defined in the base here")
                        .help(format!(
                            "write `override {what} {}` to replace it (an override contains only an `effect`), or choose another name",
                            name.name
                        )),
                );
                Err(())
            }
            (None, None) => Ok(None),
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) enum Overridden {
    Func(FuncId),
    Action(ActionId),
}

impl Overridden {
    pub(crate) fn func(self) -> Option<FuncId> {
        match self {
            Overridden::Func(f) => Some(f),
            Overridden::Action(_) => None,
        }
    }

    pub(crate) fn action(self) -> Option<ActionId> {
        match self {
            Overridden::Action(a) => Some(a),
            Overridden::Func(_) => None,
        }
    }
}
