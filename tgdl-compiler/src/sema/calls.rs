//! Calls: user functions (named arguments), actions called like functions, `base.f()`,
//! and the dispatch of every call to the built-ins (`builtins`).

use super::Checker;
use super::builtins::{FREE_BUILTINS, THIS_METHODS, plural};
use super::expr::Val;
use super::suggest::Callable;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{Expr, ExprKind, FuncId, InputMode, Ty};
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

    pub(crate) fn skip_args(&mut self, args: &[ast::Arg]) {
        for a in args {
            self.expr(&a.value, None);
        }
    }

    fn call_name(&mut self, id: &ast::Ident, args: &[ast::Arg], span: Span) -> Expr {
        if let Some(local) = self.cx.lookup(&id.name) {
            let ty = self.cx.locals.get(local).ty.clone();
            let declared = self.cx.locals.get(local).span;
            self.skip_args(args);
            let ty = self.ty_name(&ty);
            self.error(
                Diagnostic::error(id.span, format!("`{}` is a variable, not a function", id.name))
                    .code(codes::NOT_CALLABLE)
                    .label(format!("this is a `{ty}`"))
                    .secondary(declared, format!("`{}` is declared here", id.name))
                    .help(format!("read it without parentheses: `{}`", id.name)),
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
        // Nearest scope first: on a tie the earlier candidate is suggested.
        let mut names: Vec<(String, Callable)> = Vec::new();
        if let Some(this) = self.cx.this {
            names.extend(self.class_callables(this));
        }
        let mut funcs: Vec<String> =
            self.funcs.keys().filter(|k| k.0.is_none() || k.0 == ns).map(|k| k.1.clone()).collect();
        funcs.sort();
        names.extend(funcs.into_iter().map(|f| (f, Callable::Function)));
        names.extend(FREE_BUILTINS.iter().map(|s| (s.to_string(), Callable::Builtin)));
        let mut d = Diagnostic::error(id.span, format!("cannot find function `{}`", id.name))
            .code(codes::UNKNOWN_NAME)
            .label("not found");
        if let Some(help) = self.suggest_callable(&id.name, &names) {
            d = d.help(help);
        }
        self.error(d);
        Expr::error(span)
    }

    /// The functions and actions of `class` and its bases, the class's own first, for
    /// suggestions.
    pub(crate) fn class_callables(&self, class: crate::hir::ClassId) -> Vec<(String, Callable)> {
        let mut out = Vec::new();
        let mut cur = Some(class);
        while let Some(c) = cur {
            let cl = self.prog.class(c);
            out.extend(cl.funcs.iter().map(|&f| (self.prog.func(f).name.clone(), Callable::Function)));
            out.extend(cl.actions.iter().map(|&a| (self.prog.action(a).name.clone(), Callable::Action)));
            cur = cl.base;
        }
        out
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
        let mut given_at: Vec<Option<Span>> = vec![None; func.inputs.len()];
        // A positional or unknown argument was reported: a missing one is probably it.
        let mut misnamed = false;
        for arg in args {
            let Some(name) = &arg.name else {
                misnamed = true;
                self.expr(&arg.value, None);
                // Name the input in the same position, as the user probably meant it.
                let position = args.iter().take_while(|a| !std::ptr::eq(*a, arg)).count();
                let hint = func
                    .inputs
                    .iter()
                    .filter(|i| matches!(i.mode, InputMode::Function { .. }))
                    .nth(position)
                    .map_or(String::new(), |i| {
                        format!(": `{}: {}`", i.name, self.sources.snippet(arg.value.span))
                    });
                self.error(
                    Diagnostic::error(arg.span, format!("`{}` takes named arguments", func.name))
                        .code(codes::ARGUMENTS)
                        .label("an argument without a name")
                        .secondary(func.span, format!("`{}` is defined here", func.name))
                        .help(format!("write each argument as `input_name: value`{hint}")),
                );
                continue;
            };
            match func.inputs.iter().position(|i| i.name == name.name) {
                Some(k) if matches!(func.inputs[k].mode, InputMode::Function { .. }) => {
                    if let Some(first) = given_at[k] {
                        self.expr(&arg.value, None);
                        self.error(
                            Diagnostic::error(
                                name.span,
                                format!("the argument `{}` is given twice", name.name),
                            )
                            .code(codes::ARGUMENTS)
                            .label("given again here")
                            .secondary(first, "first given here")
                            .help("pass each input once; remove one of them"),
                        );
                        continue;
                    }
                    given_at[k] = Some(name.span);
                    let ty = func.inputs[k].ty.clone();
                    let origin = (
                        func.inputs[k].span,
                        format!("the input `{}` is a `{}`", name.name, self.ty_name(&ty)),
                    );
                    given[k] = Some(self.expr_as_because(&arg.value, &ty, origin));
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
                    misnamed = true;
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
                    .code(codes::ARGUMENTS)
                    .label("unknown input")
                    .secondary(func.span, format!("`{}` is defined here", func.name));
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
        if !missing.is_empty() && !misnamed {
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
                .label(if missing.len() == 1 { "an argument is missing" } else { "arguments are missing" })
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

    pub(crate) fn call_action(
        &mut self,
        a: crate::hir::ActionId,
        receiver: Expr,
        args: &[ast::Arg],
        span: Span,
    ) -> Expr {
        if let (Some(first), Some(last)) = (args.first(), args.last()) {
            self.skip_args(args);
            let action = self.prog.action(a);
            let name = action.name.clone();
            let mut d = Diagnostic::error(
                first.span.to(last.span),
                "an action called like a function takes no arguments",
            )
            .code(codes::ARGUMENTS)
            .label("remove these arguments")
            .secondary(action.span, format!("`{name}` is an action: its inputs are chosen when it runs"));
            d = if FREE_BUILTINS.contains(&name.as_str()) || THIS_METHODS.contains(&name.as_str()) {
                d.note(format!("inside the class, the action `{name}` hides the built-in `{name}`"))
                    .help(format!("rename the action to call the built-in `{name}(...)`"))
            } else {
                d.help(format!(
                    "call it as `{name}()`; to pass values, make it a function with `function input`s"
                ))
            };
            self.error(d);
            return Expr::error(span);
        }
        Expr::new(ExprKind::CallAction { action: a, receiver: Box::new(receiver) }, Ty::Void, span)
    }

    /// `base.f(...)`: the implementation in the base of the class where the code is written.
    fn call_base(&mut self, base_span: Span, name: &ast::Ident, args: &[ast::Arg], span: Span) -> Expr {
        let this = self.cx.this;
        let base = this.and_then(|t| self.prog.class(t).base);
        let (Some(this), Some(base)) = (this, base) else {
            self.skip_args(args);
            let label = match this {
                Some(c) => format!("`{}` has no base class", self.prog.class(c).name),
                None => "not inside a class".to_string(),
            };
            self.error(
                Diagnostic::error(base_span, "`base` is only available in a derived class")
                    .code(codes::MISPLACED)
                    .label(label)
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
        let mut d = Diagnostic::error(
            name.span,
            format!(
                "the base class `{}` has no function or action `{}`",
                self.prog.class(base).name,
                name.name
            ),
        )
        .code(codes::NO_MEMBER)
        .label("not found");
        if let Some(help) = self.suggest_callable(&name.name, &self.class_callables(base)) {
            d = d.help(help);
        }
        self.error(d);
        Expr::error(span)
    }
}
