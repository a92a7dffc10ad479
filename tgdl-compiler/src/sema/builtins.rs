//! Built-in operations: `player.*`, `turn.*`, `turns.use`, math and chance helpers,
//! `log`, collection and deck methods, ownership, pieces and groups — each checked with
//! its positional arguments and lowered to a `Builtin`.

use super::Checker;
use super::expr::Ns;
use super::suggest::Callable;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{Builtin, ClassKind, Expr, ExprKind, Ty, Visibility};
use crate::source::Span;
use crate::syntax::ast;

impl<'a> Checker<'a> {
    /// Positional arguments of a built-in, each converted to its expected type.
    fn builtin_args(&mut self, what: &str, args: &[ast::Arg], types: &[Ty], span: Span) -> Option<Vec<Expr>> {
        for a in args {
            if let Some(n) = &a.name {
                self.error(
                    Diagnostic::error(n.span, format!("`{what}` takes positional arguments"))
                        .code(codes::ARGUMENTS)
                        .help("remove the `name:` before the value"),
                );
            }
        }
        if args.len() != types.len() {
            self.skip_args(args);
            let expected = if types.is_empty() {
                "no arguments".to_string()
            } else {
                format!("{} argument{}", types.len(), plural(types.len()))
            };
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "`{what}` takes {expected}, but {} {} given",
                        args.len(),
                        if args.len() == 1 { "was" } else { "were" }
                    ),
                )
                .code(codes::ARGUMENTS)
                .label(format!("expected {expected}"))
                .help(format!(
                    "call it as `{what}({})`",
                    types.iter().map(|t| self.ty_name(t)).collect::<Vec<_>>().join(", ")
                )),
            );
            return None;
        }
        Some(args.iter().zip(types).map(|(a, t)| self.expr_as(&a.value, t)).collect())
    }

    fn builtin(
        &mut self,
        op: Builtin,
        what: &str,
        args: &[ast::Arg],
        types: &[Ty],
        ret: Ty,
        span: Span,
    ) -> Expr {
        match self.builtin_args(what, args, types, span) {
            Some(args) => Expr::new(ExprKind::Builtin { op, args }, ret, span),
            None => Expr::error(span),
        }
    }

    pub(crate) fn call_free_builtin(
        &mut self,
        id: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> Option<Expr> {
        let n = || Ty::Number;
        let e = match id.name.as_str() {
            "roll" => self.builtin(Builtin::Roll, "roll", args, &[n()], n(), span),
            "random" => self.builtin(Builtin::Random, "random", args, &[], n(), span),
            "abs" => self.builtin(Builtin::Abs, "abs", args, &[n()], n(), span),
            "floor" => self.builtin(Builtin::Floor, "floor", args, &[n()], n(), span),
            "ceil" => self.builtin(Builtin::Ceil, "ceil", args, &[n()], n(), span),
            "round" => self.builtin(Builtin::Round, "round", args, &[n()], n(), span),
            "sqrt" => self.builtin(Builtin::Sqrt, "sqrt", args, &[n()], n(), span),
            "pow" => self.builtin(Builtin::Pow, "pow", args, &[n(), n()], n(), span),
            "min" | "max" => {
                let op = if id.name == "min" { Builtin::Min } else { Builtin::Max };
                if args.len() < 2 {
                    self.skip_args(args);
                    self.error(
                        Diagnostic::error(span, format!("`{}` takes at least 2 arguments", id.name))
                            .code(codes::ARGUMENTS),
                    );
                    return Some(Expr::error(span));
                }
                let types = vec![n(); args.len()];
                self.builtin(op, &id.name, args, &types, n(), span)
            }
            "log" => {
                if args.len() != 1 {
                    self.skip_args(args);
                    self.error(Diagnostic::error(span, "`log` takes 1 argument").code(codes::ARGUMENTS));
                    return Some(Expr::error(span));
                }
                let Some(v) = self.log_line(&args[0]) else { return Some(Expr::error(span)) };
                Expr::new(ExprKind::Builtin { op: Builtin::Log, args: vec![v] }, Ty::Void, span)
            }
            "tell" => {
                if args.len() != 2 {
                    self.skip_args(args);
                    self.error(
                        Diagnostic::error(span, "`tell` takes 2 arguments: a player and a line")
                            .code(codes::ARGUMENTS)
                            .help("call it as `tell(p, \"you drew the \" + card.label())`"),
                    );
                    return Some(Expr::error(span));
                }
                let p = self.expr_as(&args[0].value, &Ty::Player);
                let Some(v) = self.log_line(&args[1]) else { return Some(Expr::error(span)) };
                Expr::new(ExprKind::Builtin { op: Builtin::Tell, args: vec![p, v] }, Ty::Void, span)
            }
            _ => return None,
        };
        Some(e)
    }

    /// The line of a `log` or `tell`: any value, written as text.
    fn log_line(&mut self, arg: &ast::Arg) -> Option<Expr> {
        let v = self.expr(&arg.value, None);
        match v.ty {
            Ty::Void => {
                self.mismatch(&v, &Ty::String);
                None
            }
            Ty::String => Some(v),
            _ => {
                let at = v.span;
                Some(Expr::new(ExprKind::ToText(Box::new(v)), Ty::String, at))
            }
        }
    }

    pub(crate) fn namespace_function_exists(&self, ns: &Ns, name: &str) -> bool {
        match ns {
            Ns::Player => matches!(name, "all" | "active" | "count"),
            Ns::Turn => matches!(name, "active" | "current" | "pass" | "use"),
            Ns::TurnPhase => matches!(name, "active" | "set"),
            Ns::Turns => name == "use",
            Ns::Module(m) => self.funcs.contains_key(&(Some(m.clone()), name.to_string())),
        }
    }

    pub(crate) fn call_namespace(
        &mut self,
        ns: Ns,
        name: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> Expr {
        let s = || Ty::String;
        match (&ns, name.name.as_str()) {
            (Ns::Player, "all") => self.builtin(
                Builtin::PlayerAll,
                "player.all",
                args,
                &[],
                Ty::List(Box::new(Ty::Player)),
                span,
            ),
            (Ns::Player, "active") => {
                self.builtin(Builtin::PlayerActive, "player.active", args, &[], Ty::Player, span)
            }
            (Ns::Player, "count") => {
                self.builtin(Builtin::PlayerCount, "player.count", args, &[], Ty::Number, span)
            }
            (Ns::Turn, "active") => {
                self.builtin(Builtin::TurnActive, "turn.active", args, &[], Ty::Player, span)
            }
            (Ns::Turn, "current") => self.builtin(Builtin::TurnCurrent, "turn.current", args, &[], s(), span),
            (Ns::Turn, "pass") => {
                let types: &[Ty] = match args.len() {
                    0 => &[],
                    1 => &[Ty::Player],
                    _ => &[Ty::Player, Ty::String],
                };
                self.builtin(Builtin::TurnPass, "turn.pass", args, types, Ty::Void, span)
            }
            (Ns::Turn | Ns::Turns, "use") => {
                let types: &[Ty] = if args.len() >= 2 { &[Ty::String, Ty::String] } else { &[Ty::String] };
                let e = self.builtin(Builtin::TurnsUse, "turns.use", args, types, Ty::Void, span);
                if let ExprKind::Builtin { args, .. } = &e.kind {
                    if let Some(Expr { kind: ExprKind::String(t), span: tspan, .. }) = args.first() {
                        if !self.turns.contains_key(t) {
                            let names: Vec<String> = self.turns.keys().cloned().collect();
                            let mut d = Diagnostic::error(*tspan, format!("there is no turn named `{t}`"))
                                .code(codes::UNKNOWN_NAME)
                                .label("no `turn` has this name");
                            if let Some(s) = self.suggest(t, names.iter().map(String::as_str)) {
                                d = d.help(format!("a turn with a similar name exists: `{s}`"));
                            }
                            self.error(d);
                        }
                    }
                }
                e
            }
            (Ns::TurnPhase, "active") => {
                self.builtin(Builtin::PhaseActive, "turn.phase.active", args, &[], s(), span)
            }
            (Ns::TurnPhase, "set") => {
                self.builtin(Builtin::PhaseSet, "turn.phase.set", args, &[s()], Ty::Void, span)
            }
            (Ns::Module(m), f) => match self.funcs.get(&(Some(m.clone()), f.to_string())).copied() {
                Some(fid) => self.call_user(fid, None, args, span, false),
                None => {
                    self.skip_args(args);
                    let mut d =
                        Diagnostic::error(name.span, format!("the module `{m}` has no function `{f}`"))
                            .code(codes::UNKNOWN_NAME)
                            .label("not found");
                    let mut funcs: Vec<&str> =
                        self.funcs.keys().filter(|k| k.0.as_ref() == Some(m)).map(|k| k.1.as_str()).collect();
                    funcs.sort_unstable();
                    if let Some(s) = self.suggest(f, funcs.into_iter()) {
                        d = d.help(format!("a function with a similar name exists: `{m}.{s}`"));
                    }
                    self.error(d);
                    Expr::error(span)
                }
            },
            _ => {
                self.skip_args(args);
                let (list, names): (_, &[&str]) = match ns {
                    Ns::Player => ("`all()`, `active()`, `count()`", &["all", "active", "count"]),
                    Ns::Turn => (
                        "`active()`, `current()`, `pass(...)`, `use(...)`, `phase.active()`",
                        &["active", "current", "pass", "use"],
                    ),
                    Ns::TurnPhase => ("`active()`, `set(...)`", &["active", "set"]),
                    _ => ("`use(...)`", &["use"]),
                };
                let mut d =
                    Diagnostic::error(name.span, format!("{} has no function `{}`", ns_word(&ns), name.name))
                        .code(codes::NO_MEMBER)
                        .label("not found");
                d = match self.suggest(&name.name, names.iter().copied()) {
                    Some(s) => d.help(format!(
                        "a built-in function with a similar name exists: `{}.{s}`",
                        ns_word(&ns).trim_matches('`')
                    )),
                    None => d.help(format!("it has {list}")),
                };
                self.error(d);
                Expr::error(span)
            }
        }
    }

    pub(crate) fn call_method(
        &mut self,
        obj: Expr,
        name: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> Expr {
        let m = name.name.as_str();
        match obj.ty.clone() {
            Ty::Error => {
                self.skip_args(args);
                Expr::error(span)
            }
            Ty::Class(c) => {
                if let Some(f) = self.find_func(c, m) {
                    return self.call_user(f, Some(obj), args, span, true);
                }
                if let Some(a) = self.find_action(c, m) {
                    return self.call_action(a, obj, args, span);
                }
                if let Some(attr) = self.find_attr(c, m) {
                    self.skip_args(args);
                    let ty = self.ty_name(&self.prog.attr(attr).ty.clone());
                    let mut d = Diagnostic::error(
                        name.span,
                        format!("`{m}` is an attribute of `{}`, not a function", self.prog.class(c).name),
                    )
                    .code(codes::NOT_CALLABLE)
                    .label(format!("this is a `{ty}` value"));
                    let at = self.prog.attr(attr).span;
                    if at != Span::default() {
                        d = d.secondary(at, "the attribute is declared here");
                    }
                    self.error(d.help(format!("read it without parentheses: `.{m}`")));
                    return Expr::error(span);
                }
                let class = self.prog.class(c).clone();
                let tile = self.prog.builtins.tile;
                match (class.kind, m) {
                    (ClassKind::Class | ClassKind::Interactable | ClassKind::Deck, "assign") => {
                        if class.visibility == Visibility::Global {
                            self.skip_args(args);
                            self.error(
                                Diagnostic::error(name.span, format!("the global class `{}` cannot be assigned to a player", class.name))
                                    .code(codes::GLOBAL_ASSIGN)
                                    .help("global classes are shared by everyone; make the class `local` (one owner) or `group` (members)"),
                            );
                            return Expr::error(span);
                        }
                        self.method(obj, Builtin::Assign, "assign", args, &[Ty::Player], Ty::Void, span)
                    }
                    (ClassKind::Interactable, "reveal") => {
                        self.method(obj, Builtin::Reveal, "reveal", args, &[], Ty::Void, span)
                    }
                    (ClassKind::Interactable, "disclose") => self.disclose(obj, c, args, span),
                    (ClassKind::Interactable, "move_to") => {
                        let piece = match obj.kind {
                            ExprKind::This => None,
                            _ => self.short_text(obj.span),
                        };
                        let e = self.method(
                            obj,
                            Builtin::MoveTo,
                            "move_to",
                            args,
                            &[Ty::Class(tile)],
                            Ty::Void,
                            span,
                        );
                        // `null` is no tile to stand on: taking a piece off is its own built-in.
                        if let ExprKind::Builtin { args, .. } = &e.kind
                            && let Some(to) = args.get(1).filter(|a| matches!(a.kind, ExprKind::Null))
                        {
                            let call = match piece {
                                Some(p) => format!("{p}.remove_from_board()"),
                                None => "remove_from_board()".to_string(),
                            };
                            self.error(
                                Diagnostic::error(to.span, "`move_to` takes a tile, not `null`")
                                    .code(codes::ARGUMENTS)
                                    .label("no tile to move to")
                                    .help(format!("to take the piece off the board, write `{call}`: it clears `tile` and keeps the owner")),
                            );
                            return Expr::error(span);
                        }
                        e
                    }
                    (ClassKind::Interactable, "remove_from_board") => self.method(
                        obj,
                        Builtin::RemoveFromBoard,
                        "remove_from_board",
                        args,
                        &[],
                        Ty::Void,
                        span,
                    ),
                    (ClassKind::Interactable, "discard") => {
                        // Any stack of the object's class or one of its bases will do.
                        let pile = match args {
                            [a] if a.name.is_none() => {
                                // A look at the argument's type; it is checked (and
                                // reported) once, below.
                                let reported = self.diags.len();
                                let probe = self.expr(&a.value, None);
                                self.diags.truncate(reported);
                                let holds =
                                    |e: &Ty| matches!(e, Ty::Class(x) if self.prog.is_subclass(c, *x));
                                match &probe.ty {
                                    Ty::Stack(e) if holds(e) => Some(probe.ty.clone()),
                                    // A deck of its class takes it too, on top of its cards.
                                    deck if self.deck_element(deck).is_some_and(|e| holds(&e)) => {
                                        Some(probe.ty.clone())
                                    }
                                    _ => None,
                                }
                            }
                            _ => None,
                        };
                        let pile = pile.unwrap_or_else(|| Ty::Stack(Box::new(Ty::Class(c))));
                        self.method(obj, Builtin::Discard, "discard", args, &[pile], Ty::Void, span)
                    }
                    (ClassKind::Tile, "connect") => {
                        let conn = self.prog.builtins.connection;
                        let types = if args.len() >= 2 {
                            vec![Ty::Class(tile), Ty::Class(conn)]
                        } else {
                            vec![Ty::Class(tile)]
                        };
                        self.method(obj, Builtin::Connect, "connect", args, &types, Ty::Void, span)
                    }
                    (ClassKind::Group, "at") => {
                        if self.graph_group_indexed(&obj, span) {
                            self.skip_args(args);
                            return Expr::error(span);
                        }
                        let cell = self.group_tile_class(&obj);
                        self.method(
                            obj,
                            Builtin::GroupAt,
                            "at",
                            args,
                            &[Ty::Number, Ty::Number],
                            Ty::Class(cell),
                            span,
                        )
                    }
                    (ClassKind::Group, "add") => {
                        if !self.cx.group_default {
                            self.error(
                                Diagnostic::error(name.span, "tiles are added to a group in its `default` block")
                                    .code(codes::MISPLACED)
                                    .label("outside the group's `default`")
                                    .help("graph groups build themselves: `group G { geometry graph; default { this.add(new Space()); } }`"),
                            );
                        }
                        self.method(obj, Builtin::GroupAdd, "add", args, &[Ty::Class(tile)], Ty::Void, span)
                    }
                    (ClassKind::Deck, _) => {
                        let elem = class.element.clone().unwrap_or(Ty::Error);
                        if m == "reshuffle" {
                            return self.method(
                                obj,
                                Builtin::DeckReshuffle,
                                "reshuffle",
                                args,
                                &[],
                                Ty::Void,
                                span,
                            );
                        }
                        match self.stack_method(obj, &elem, name, args, span) {
                            Some(e) => e,
                            None => {
                                let known = self.class_methods(c, STACK_METHODS);
                                self.no_method(&class.name, name, args, span, &known)
                            }
                        }
                    }
                    _ => {
                        let builtins: &[&str] = match class.kind {
                            ClassKind::Interactable => {
                                &["assign", "move_to", "remove_from_board", "discard", "reveal", "disclose"]
                            }
                            ClassKind::Class | ClassKind::Deck if class.visibility != Visibility::Global => {
                                &["assign"]
                            }
                            ClassKind::Tile => &["connect"],
                            ClassKind::Group => &["at", "add"],
                            _ => &[],
                        };
                        let known = self.class_methods(c, builtins);
                        self.no_method(&class.name, name, args, span, &known)
                    }
                }
            }
            Ty::List(elem) => {
                let l = Ty::List(elem.clone());
                let t = (*elem).clone();
                let (op, types, ret): (Builtin, Vec<Ty>, Ty) = match m {
                    "length" => (Builtin::ListLength, vec![], Ty::Number),
                    "push" | "add" => (Builtin::ListPush, vec![t], Ty::Void),
                    "append" => (Builtin::ListAppend, vec![l.clone()], Ty::Void),
                    "clear" => (Builtin::ListClear, vec![], Ty::Void),
                    "contains" => (Builtin::ListContains, vec![t], Ty::Bool),
                    "indexOf" => (Builtin::ListIndexOf, vec![t], Ty::Number),
                    "remove" => (Builtin::ListRemove, vec![t], Ty::Void),
                    "removeAt" => (Builtin::ListRemoveAt, vec![Ty::Number], t),
                    "shuffle" => (Builtin::ListShuffle, vec![], Ty::Void),
                    "copy" | "clone" => (Builtin::ListCopy, vec![], l.clone()),
                    _ => {
                        let known = builtin_methods(LIST_METHODS);
                        return self.no_method(&self.ty_name(&l), name, args, span, &known);
                    }
                };
                self.method(obj, op, m, args, &types, ret, span)
            }
            Ty::Table(elem, key) => {
                let t = Ty::Table(elem.clone(), key.clone());
                let (op, ret) = match (m, &key) {
                    ("keys", Some(k)) => (Builtin::TableKeys, Ty::List(k.clone())),
                    ("keys", None) => {
                        self.skip_args(args);
                        let v = self.ty_name(&elem);
                        self.error(
                            Diagnostic::error(name.span, format!("a `Table<{v}>` has keys of any type: it has no `keys()`"))
                                .code(codes::NO_MEMBER)
                                .label("the type of the keys is not known")
                                .help(format!("declare the key type, e.g. `Table<string, {v}>`: then `keys()` is a list of them, in insertion order")),
                        );
                        return Expr::error(span);
                    }
                    _ => (Builtin::TableLength, Ty::Number),
                };
                let (op, ret) = match m {
                    "keys" => (op, ret),
                    "length" => (Builtin::TableLength, Ty::Number),
                    "clear" => (Builtin::TableClear, Ty::Void),
                    "copy" | "clone" => (Builtin::TableCopy, t.clone()),
                    _ => {
                        let known = builtin_methods(TABLE_METHODS);
                        return self.no_method(&self.ty_name(&t), name, args, span, &known);
                    }
                };
                self.method(obj, op, m, args, &[], ret, span)
            }
            Ty::Stack(elem) => {
                let st = Ty::Stack(elem.clone());
                match self.stack_method(obj, &elem, name, args, span) {
                    Some(e) => e,
                    None => {
                        // `reshuffle` (last) belongs to decks only.
                        let plain = &STACK_METHODS[..STACK_METHODS.len() - 1];
                        let known = builtin_methods(plain);
                        self.no_method(&self.ty_name(&st), name, args, span, &known)
                    }
                }
            }
            other => {
                self.skip_args(args);
                self.error(
                    Diagnostic::error(
                        name.span,
                        format!("a value of type `{}` has no method `{m}`", self.ty_name(&other)),
                    )
                    .code(codes::NO_MEMBER),
                );
                Expr::error(span)
            }
        }
    }

    /// Stack operations, on `Stack<T>` values and on decks alike.
    fn stack_method(
        &mut self,
        obj: Expr,
        elem: &Ty,
        name: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
    ) -> Option<Expr> {
        let t = elem.clone();
        let st = Ty::Stack(Box::new(t.clone()));
        let (op, types, ret): (Builtin, Vec<Ty>, Ty) = match name.name.as_str() {
            "length" => (Builtin::StackLength, vec![], Ty::Number),
            "push" => (Builtin::StackPush, vec![t], Ty::Void),
            "push_front" => (Builtin::StackPushFront, vec![t], Ty::Void),
            "pop" => (Builtin::StackPop, vec![], t),
            "pop_front" => (Builtin::StackPopFront, vec![], t),
            "peek" => (Builtin::StackPeek, vec![], t),
            "peek_front" => (Builtin::StackPeekFront, vec![], t),
            "clone" | "copy" => (Builtin::StackClone, vec![], st),
            "shuffle" => (Builtin::StackShuffle, vec![], Ty::Void),
            "clear" => (Builtin::StackClear, vec![], Ty::Void),
            "contains" => (Builtin::StackContains, vec![t], Ty::Bool),
            _ => return None,
        };
        Some(self.method(obj, op, &name.name, args, &types, ret, span))
    }

    #[allow(clippy::too_many_arguments)]
    fn method(
        &mut self,
        obj: Expr,
        op: Builtin,
        what: &str,
        args: &[ast::Arg],
        types: &[Ty],
        ret: Ty,
        span: Span,
    ) -> Expr {
        match self.builtin_args(what, args, types, span) {
            Some(mut a) => {
                a.insert(0, obj);
                Expr::new(ExprKind::Builtin { op, args: a }, ret, span)
            }
            None => Expr::error(span),
        }
    }

    /// `card.disclose("colour")`: the attribute is named by a text literal, and is one
    /// everyone could read once shown (a value, neither `secret` nor already `public`).
    fn disclose(&mut self, obj: Expr, class: crate::hir::ClassId, args: &[ast::Arg], span: Span) -> Expr {
        let named = match args {
            [ast::Arg { name: None, value: ast::Expr { kind: ast::ExprKind::String(name), .. }, .. }] => {
                Some(name.as_str())
            }
            _ => None,
        };
        let Some(name) = named else {
            self.skip_args(args);
            self.error(
                Diagnostic::error(span, "`disclose` takes the name of an attribute, as a text literal")
                    .code(codes::VISIBILITY_MARK)
                    .help("write `card.disclose(\"colour\")`"),
            );
            return Expr::error(span);
        };
        let at = args[0].span;
        let Some(attr) = self.find_attr(class, name) else {
            let d = Diagnostic::error(
                at,
                format!("`{}` has no attribute `{name}` to disclose", self.prog.class(class).name),
            )
            .code(codes::VISIBILITY_MARK)
            .label("no such attribute");
            self.error(d);
            return Expr::error(span);
        };
        let a = self.prog.attr(attr);
        let why = if a.builtin.is_some() {
            Some("a built-in attribute: everyone reads it already, or no one does".to_string())
        } else if a.secret {
            Some("it is `secret`: its owner alone reads it".to_string())
        } else if a.public {
            Some("it is `public`: everyone sees it already".to_string())
        } else if self.prog.class(a.class).base.is_some() {
            Some(format!(
                "it belongs to `{}`, a derived class: only the root class's attributes are disclosed",
                self.prog.class(a.class).name
            ))
        } else if !matches!(a.ty, Ty::Number | Ty::String | Ty::Bool | Ty::Player | Ty::Error) {
            Some(format!(
                "it holds a `{}`: only a number, a string, a bool or a player is disclosed",
                self.ty_name(&a.ty.clone())
            ))
        } else {
            None
        };
        if let Some(why) = why {
            self.error(
                Diagnostic::error(at, format!("the attribute `{name}` cannot be disclosed"))
                    .code(codes::VISIBILITY_MARK)
                    .label(why)
                    .help("disclose what the card is (`card.disclose(\"colour\")`), a value hidden with the card"),
            );
            return Expr::error(span);
        }
        Expr::new(ExprKind::Builtin { op: Builtin::Disclose(attr), args: vec![obj] }, Ty::Void, span)
    }

    fn no_method(
        &mut self,
        owner: &str,
        name: &ast::Ident,
        args: &[ast::Arg],
        span: Span,
        known: &[(String, Callable)],
    ) -> Expr {
        self.skip_args(args);
        let mut d =
            Diagnostic::error(name.span, format!("`{owner}` has no function or action `{}`", name.name))
                .code(codes::NO_MEMBER)
                .label("not found");
        if let Some(help) = self.suggest_callable(&name.name, known) {
            d = d.help(help);
        } else if !known.is_empty() {
            d = d.note(format!(
                "`{owner}` has: {}",
                known.iter().map(|(k, _)| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            ));
        }
        self.error(d);
        Expr::error(span)
    }

    /// The functions and actions of a class and its bases, then the built-in methods given.
    fn class_methods(&self, class: crate::hir::ClassId, builtins: &[&str]) -> Vec<(String, Callable)> {
        let mut out = self.class_callables(class);
        out.extend(builtin_methods(builtins));
        out.dedup();
        out
    }
}

/// Built-in methods that may be called on `this` without writing it.
pub(crate) const THIS_METHODS: &[&str] = &[
    "assign",
    "move_to",
    "remove_from_board",
    "discard",
    "connect",
    "add",
    "at",
    "push",
    "push_front",
    "pop",
    "pop_front",
    "peek",
    "peek_front",
    "shuffle",
    "reshuffle",
];

/// The methods of each collection (for suggestions and the editor's completions; the
/// spellings the checker accepts).
pub(crate) const LIST_METHODS: &[&str] = &[
    "length", "push", "add", "append", "clear", "contains", "indexOf", "remove", "removeAt", "shuffle",
    "copy", "clone",
];
pub(crate) const TABLE_METHODS: &[&str] = &["length", "clear", "copy", "clone", "keys"];
pub(crate) const STACK_METHODS: &[&str] = &[
    "length",
    "push",
    "push_front",
    "pop",
    "pop_front",
    "peek",
    "peek_front",
    "clone",
    "copy",
    "shuffle",
    "clear",
    "contains",
    "reshuffle",
];

pub(crate) const FREE_BUILTINS: &[&str] =
    &["roll", "random", "log", "tell", "abs", "floor", "ceil", "round", "min", "max", "sqrt", "pow"];

/// Built-in method names as suggestion candidates.
fn builtin_methods(names: &[&str]) -> Vec<(String, Callable)> {
    names.iter().map(|s| (s.to_string(), Callable::Builtin)).collect()
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn ns_word(ns: &Ns) -> String {
    match ns {
        Ns::Player => "`player`".into(),
        Ns::Turn => "`turn`".into(),
        Ns::TurnPhase => "`turn.phase`".into(),
        Ns::Turns => "`turns`".into(),
        Ns::Module(m) => format!("`{m}`"),
    }
}
