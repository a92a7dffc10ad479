//! Calls: user functions (named arguments), actions called like functions, `base.f()`,
//! and everything the language provides — `player.*`, `turn.*`, `turns.use`, math and
//! chance helpers, collection and deck methods, ownership, pieces and groups.

use super::Checker;
use super::expr::{Ns, Val};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{Builtin, ClassKind, Expr, ExprKind, FuncId, InputMode, Ty, Visibility};
use crate::source::Span;
use crate::syntax::ast;

impl<'a> Checker<'a> {
    pub(crate) fn call(&mut self, e: &ast::Expr, callee: &ast::Expr, args: &[ast::Arg]) -> Expr {
        let span = e.span;
        match &callee.kind {
            ast::ExprKind::Name(id) => self.call_name(id, args, span),
            ast::ExprKind::Member { object, name } => {
                if matches!(object.kind, ast::ExprKind::Base) {
                    return self.call_base(object.span, name, args, span);
                }
                match self.value(object) {
                    Val::Ns(ns, _) => self.call_namespace(ns, name, args, span),
                    Val::Expr(obj) => self.call_method(obj, name, args, span),
                }
            }
            ast::ExprKind::Paren(inner) => self.call(e, inner, args),
            _ => {
                let c = self.expr(callee, None);
                self.skip_args(args);
                if !c.ty.is_error() {
                    self.error(
                        Diagnostic::error(
                            callee.span,
                            format!("a `{}` cannot be called", self.ty_name(&c.ty)),
                        )
                        .code(codes::NOT_CALLABLE)
                        .help("only functions, actions and built-in operations are called with `( )`"),
                    );
                }
                Expr::error(span)
            }
        }
    }

    fn skip_args(&mut self, args: &[ast::Arg]) {
        for a in args {
            self.expr(&a.value, None);
        }
    }

    fn call_name(&mut self, id: &ast::Ident, args: &[ast::Arg], span: Span) -> Expr {
        if let Some(local) = self.cx.lookup(&id.name) {
            let ty = self.cx.locals.get(local).ty.clone();
            self.skip_args(args);
            self.error(
                Diagnostic::error(
                    id.span,
                    format!("`{}` is a variable of type `{}`, not a function", id.name, self.ty_name(&ty)),
                )
                .code(codes::NOT_CALLABLE),
            );
            return Expr::error(span);
        }
        if let Some(this) = self.cx.this {
            if let Some(f) = self.find_func(this, &id.name) {
                let recv = Expr::new(ExprKind::This, Ty::Class(this), id.span);
                return self.call_user(f, Some(recv), args, span, true);
            }
            if let Some(a) = self.find_action(this, &id.name) {
                let recv = Expr::new(ExprKind::This, Ty::Class(this), id.span);
                return self.call_action(a, recv, args, span);
            }
        }
        // Inside a class, a built-in method of `this` may be called bare: `assign(p)`.
        if let Some(this) = self.cx.this {
            if THIS_METHODS.contains(&id.name.as_str()) {
                let recv = Expr::new(ExprKind::This, Ty::Class(this), id.span);
                return self.call_method(recv, id, args, span);
            }
        }
        let ns = self.cx.namespace.clone();
        let f = ns
            .as_ref()
            .and_then(|ns| self.funcs.get(&(Some(ns.clone()), id.name.clone())))
            .or_else(|| self.funcs.get(&(None, id.name.clone())))
            .copied();
        if let Some(f) = f {
            return self.call_user(f, None, args, span, false);
        }
        if let Some(e) = self.call_free_builtin(id, args, span) {
            return e;
        }
        self.skip_args(args);
        let mut names: Vec<String> =
            self.funcs.keys().filter(|k| k.0.is_none()).map(|k| k.1.clone()).collect();
        names.extend(FREE_BUILTINS.iter().map(|s| s.to_string()));
        if let Some(this) = self.cx.this {
            let mut cur = Some(this);
            while let Some(c) = cur {
                names.extend(self.prog.class(c).funcs.iter().map(|&f| self.prog.func(f).name.clone()));
                cur = self.prog.class(c).base;
            }
        }
        let mut d = Diagnostic::error(id.span, format!("cannot find function `{}`", id.name))
            .code(codes::UNKNOWN_NAME)
            .label("not found");
        if let Some(s) = self.suggest(&id.name, names.iter().map(String::as_str)) {
            d = d.help(format!("a function with a similar name exists: `{s}`"));
        }
        self.error(d);
        Expr::error(span)
    }

    /// A user function: arguments are named and matched to its `function input`s.
    pub(crate) fn call_user(
        &mut self,
        f: FuncId,
        receiver: Option<Expr>,
        args: &[ast::Arg],
        span: Span,
        virtual_call: bool,
    ) -> Expr {
        let func = self.prog.func(f).clone();
        let mut given: Vec<Option<Expr>> = vec![None; func.inputs.len()];
        for arg in args {
            let Some(name) = &arg.name else {
                self.expr(&arg.value, None);
                let hint = func
                    .inputs
                    .iter()
                    .find(|i| matches!(i.mode, InputMode::Function { .. }))
                    .map_or(String::new(), |i| format!(": `{}({}: ...)`", func.name, i.name));
                self.error(
                    Diagnostic::error(arg.span, format!("`{}` takes named arguments", func.name))
                        .code(codes::ARGUMENTS)
                        .help(format!("write each argument as `input_name: value`{hint}")),
                );
                continue;
            };
            match func.inputs.iter().position(|i| i.name == name.name) {
                Some(k) if matches!(func.inputs[k].mode, InputMode::Function { .. }) => {
                    if given[k].is_some() {
                        self.expr(&arg.value, None);
                        self.error(
                            Diagnostic::error(
                                name.span,
                                format!("the argument `{}` is given twice", name.name),
                            )
                            .code(codes::ARGUMENTS),
                        );
                        continue;
                    }
                    let ty = func.inputs[k].ty.clone();
                    given[k] = Some(self.expr_as(&arg.value, &ty));
                }
                Some(_) => {
                    self.expr(&arg.value, None);
                    self.error(
                        Diagnostic::error(name.span, format!("`{}` is chosen during the call, not passed", name.name))
                            .code(codes::ARGUMENTS)
                            .help("only `function input`s are arguments; the others are asked of a player or computed"),
                    );
                }
                None => {
                    self.expr(&arg.value, None);
                    let names: Vec<&str> = func
                        .inputs
                        .iter()
                        .filter(|i| matches!(i.mode, InputMode::Function { .. }))
                        .map(|i| i.name.as_str())
                        .collect();
                    let mut d = Diagnostic::error(
                        name.span,
                        format!("`{}` has no input named `{}`", func.name, name.name),
                    )
                    .code(codes::ARGUMENTS);
                    if let Some(s) = self.suggest(&name.name, names.iter().copied()) {
                        d = d.help(format!("did you mean `{s}`?"));
                    } else if !names.is_empty() {
                        d = d.note(format!("its inputs are: {}", names.join(", ")));
                    }
                    self.error(d);
                }
            }
        }
        let mut out = Vec::new();
        let mut missing = Vec::new();
        for (k, input) in func.inputs.iter().enumerate() {
            let InputMode::Function { default } = &input.mode else { continue };
            match given[k].take() {
                Some(e) => out.push(e),
                None => match default {
                    Some(d) => out.push(Expr { span, ..d.clone() }),
                    None => {
                        missing.push(input.name.clone());
                        out.push(Expr::error(span));
                    }
                },
            }
        }
        if !missing.is_empty() {
            let list = missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
            let example = missing.iter().map(|m| format!("{m}: ...")).collect::<Vec<_>>().join(", ");
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "missing argument{} {list} in the call to `{}`",
                        plural(missing.len()),
                        func.name
                    ),
                )
                .code(codes::ARGUMENTS)
                .secondary(func.span, "function defined here")
                .help(format!(
                    "pass {}: `{}({example})`",
                    if missing.len() == 1 { "it" } else { "them" },
                    func.name
                )),
            );
        }
        Expr::new(
            ExprKind::Call { func: f, receiver: receiver.map(Box::new), args: out, virtual_call },
            func.ret.clone(),
            span,
        )
    }

    fn call_action(
        &mut self,
        a: crate::hir::ActionId,
        receiver: Expr,
        args: &[ast::Arg],
        span: Span,
    ) -> Expr {
        if let Some(first) = args.first() {
            self.skip_args(args);
            self.error(
                Diagnostic::error(first.span, "an action called like a function takes no arguments")
                    .code(codes::ARGUMENTS)
                    .help("its inputs are chosen by players or computed when it runs"),
            );
        }
        Expr::new(ExprKind::CallAction { action: a, receiver: Box::new(receiver) }, Ty::Void, span)
    }

    /// `base.f(...)`: the implementation in the base of the class where the code is written.
    fn call_base(&mut self, base_span: Span, name: &ast::Ident, args: &[ast::Arg], span: Span) -> Expr {
        let this = self.cx.this;
        let base = this.and_then(|t| self.prog.class(t).base);
        let (Some(this), Some(base)) = (this, base) else {
            self.skip_args(args);
            self.error(
                Diagnostic::error(base_span, "`base` is only available in a derived class")
                    .code(codes::MISPLACED)
                    .help("`base.f()` calls the base class's version of `f` from a class declared `class D : B`"),
            );
            return Expr::error(span);
        };
        let recv = Expr::new(ExprKind::This, Ty::Class(this), base_span);
        if let Some(f) = self.find_func(base, &name.name) {
            // With no arguments, the current inputs are passed on (notes, Inheritance).
            if args.is_empty() {
                let func = self.prog.func(f).clone();
                let mut out = Vec::new();
                for input in &func.inputs {
                    if let InputMode::Function { default } = &input.mode {
                        match self.cx.lookup(&input.name) {
                            Some(l) => {
                                let ty = self.cx.locals.get(l).ty.clone();
                                out.push(Expr::new(ExprKind::Local(l), ty, span));
                            }
                            None => out.push(default.clone().unwrap_or_else(|| Expr::error(span))),
                        }
                    }
                }
                return Expr::new(
                    ExprKind::Call {
                        func: f,
                        receiver: Some(Box::new(recv)),
                        args: out,
                        virtual_call: false,
                    },
                    func.ret,
                    span,
                );
            }
            return self.call_user(f, Some(recv), args, span, false);
        }
        if let Some(a) = self.find_action(base, &name.name) {
            return self.call_action(a, recv, args, span);
        }
        self.skip_args(args);
        self.error(
            Diagnostic::error(
                name.span,
                format!("the base class `{}` has no function `{}`", self.prog.class(base).name, name.name),
            )
            .code(codes::NO_MEMBER),
        );
        Expr::error(span)
    }

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
                .code(codes::ARGUMENTS),
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

    fn call_free_builtin(&mut self, id: &ast::Ident, args: &[ast::Arg], span: Span) -> Option<Expr> {
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
                let v = self.expr(&args[0].value, None);
                let v = if v.ty == Ty::String {
                    v
                } else {
                    Expr::new(ExprKind::ToText(Box::new(v.clone())), Ty::String, v.span)
                };
                Expr::new(ExprKind::Builtin { op: Builtin::Log, args: vec![v] }, Ty::Void, span)
            }
            _ => return None,
        };
        Some(e)
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

    fn call_namespace(&mut self, ns: Ns, name: &ast::Ident, args: &[ast::Arg], span: Span) -> Expr {
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
                                .code(codes::UNKNOWN_NAME);
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
                    self.error(
                        Diagnostic::error(name.span, format!("the module `{m}` has no function `{f}`"))
                            .code(codes::UNKNOWN_NAME),
                    );
                    Expr::error(span)
                }
            },
            _ => {
                self.skip_args(args);
                let list = match ns {
                    Ns::Player => "`all()`, `active()`, `count()`",
                    Ns::Turn => "`active()`, `current()`, `pass(...)`, `use(...)`, `phase.active()`",
                    Ns::TurnPhase => "`active()`, `set(...)`",
                    _ => "`use(...)`",
                };
                self.error(
                    Diagnostic::error(name.span, format!("{} has no function `{}`", ns_word(&ns), name.name))
                        .code(codes::NO_MEMBER)
                        .help(format!("it has {list}")),
                );
                Expr::error(span)
            }
        }
    }

    fn call_method(&mut self, obj: Expr, name: &ast::Ident, args: &[ast::Arg], span: Span) -> Expr {
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
                    (ClassKind::Interactable, "move_to") => {
                        self.method(obj, Builtin::MoveTo, "move_to", args, &[Ty::Class(tile)], Ty::Void, span)
                    }
                    (ClassKind::Interactable, "discard") => self.method(
                        obj,
                        Builtin::Discard,
                        "discard",
                        args,
                        &[Ty::Stack(Box::new(Ty::Class(c)))],
                        Ty::Void,
                        span,
                    ),
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
                            None => self.no_method(&class.name, name, args, span),
                        }
                    }
                    _ => self.no_method(&class.name, name, args, span),
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
                    _ => return self.no_method(&self.ty_name(&l), name, args, span),
                };
                self.method(obj, op, m, args, &types, ret, span)
            }
            Ty::Table(elem) => {
                let t = Ty::Table(elem.clone());
                let (op, ret) = match m {
                    "length" => (Builtin::TableLength, Ty::Number),
                    "clear" => (Builtin::TableClear, Ty::Void),
                    "copy" | "clone" => (Builtin::TableCopy, t.clone()),
                    _ => return self.no_method(&self.ty_name(&t), name, args, span),
                };
                self.method(obj, op, m, args, &[], ret, span)
            }
            Ty::Stack(elem) => {
                let st = Ty::Stack(elem.clone());
                match self.stack_method(obj, &elem, name, args, span) {
                    Some(e) => e,
                    None => self.no_method(&self.ty_name(&st), name, args, span),
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

    fn no_method(&mut self, owner: &str, name: &ast::Ident, args: &[ast::Arg], span: Span) -> Expr {
        self.skip_args(args);
        self.error(
            Diagnostic::error(name.span, format!("`{owner}` has no function or action `{}`", name.name))
                .code(codes::NO_MEMBER)
                .label("not found"),
        );
        Expr::error(span)
    }
}

/// Built-in methods that may be called on `this` without writing it.
const THIS_METHODS: &[&str] = &[
    "assign",
    "move_to",
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

const FREE_BUILTINS: &[&str] =
    &["roll", "random", "log", "abs", "floor", "ceil", "round", "min", "max", "sqrt", "pow"];

fn plural(n: usize) -> &'static str {
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
