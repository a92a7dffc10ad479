//! Statements and bodies: blocks and scopes, control flow, `return` rules, inputs with
//! their filters, and the pass that checks every body of the program.

use super::Checker;
use super::declare::Decls;
use super::scope::{BodyCx, BodyKind};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{
    self, Block, ClassId, Expr, ExprKind, FuncKind, Input, InputMode, LocalId, Stmt, StmtKind, Ty,
};
use crate::source::Span;
use crate::syntax::ast;

impl<'a> Checker<'a> {
    /// Checks every body: attribute initialisers, argument defaults, functions, actions,
    /// `default` blocks and `setup`.
    pub(crate) fn check_bodies(&mut self, decls: &Decls<'_>, modules: &[super::Module]) {
        for &s in &modules.iter().flat_map(|m| m.ast.stray_semicolons.iter()).copied().collect::<Vec<_>>() {
            self.diags.push(
                Diagnostic::warning(s, "unnecessary `;` after a block")
                    .code(codes::STRAY_SEMI)
                    .help("constructs that end in a block take no `;`; remove it"),
            );
        }
        for &(attr, a) in &decls.attrs {
            let class = self.prog.attr(attr).class;
            self.cx = BodyCx::new(BodyKind::Initialiser, Some(class));
            self.cx.namespace = self.class_ns.get(&class).cloned().flatten();
            if let Some(v) = &a.value {
                let ty = self.prog.attr(attr).ty.clone();
                let e = self.expr_as(v, &ty);
                self.prog.attrs[attr.index()].init = Some(e);
            }
        }
        // Argument defaults first: calls anywhere may copy them.
        for &(fid, f) in &decls.funcs {
            if self.prog.func(fid).overrides.is_some() {
                continue;
            }
            for i in &f.inputs {
                let Some(d) = &i.default else { continue };
                let Some(input) = self.prog.func(fid).inputs.iter().position(|x| x.name == i.name.name)
                else {
                    continue;
                };
                self.cx = BodyCx::new(BodyKind::Initialiser, None);
                self.cx.namespace = self.func_ns.get(&fid).cloned().flatten();
                let ty = self.prog.func(fid).inputs[input].ty.clone();
                let e = self.expr_as(d, &ty);
                if let InputMode::Function { default } = &mut self.prog.funcs[fid.index()].inputs[input].mode
                {
                    *default = Some(e);
                }
            }
        }
        for &(fid, f) in &decls.funcs {
            self.function_body(fid, f);
        }
        for &(aid, a) in &decls.actions {
            self.action_body(aid, a);
        }
        for &(fid, block) in &decls.defaults {
            self.default_body(fid, block);
        }
        if let Some(block) = decls.setups.first() {
            self.cx = BodyCx::new(BodyKind::Setup, None);
            let body = self.block(block);
            self.warn_unused_scope();
            let locals = std::mem::take(&mut self.cx.locals);
            self.prog.setup = hir::Setup { locals, body, span: block.span };
        }
    }

    fn function_body(&mut self, fid: hir::FuncId, f: &ast::FunctionDecl) {
        let func = self.prog.func(fid).clone();
        let ret = func.ret.clone();
        self.cx = BodyCx::new(BodyKind::Function, func.owner).with_locals(func.locals.clone());
        self.cx.ret = if ret == Ty::Void { None } else { Some(ret.clone()) };
        self.cx.namespace = match func.owner {
            Some(c) => self.class_ns.get(&c).cloned().flatten(),
            None => self.func_ns.get(&fid).cloned().flatten(),
        };
        let mut inputs = func.inputs.clone();
        if func.overrides.is_none() {
            self.input_parts(&mut inputs, &f.inputs);
        }
        for i in &inputs {
            self.cx.bind_existing(&i.name, i.local);
            self.cx.used[i.local.index()] = true;
        }
        let body = match f.effects.first() {
            Some(b) => self.block(b),
            None => Block::default(),
        };
        if ret != Ty::Void && !ret.is_error() && !always_returns(&body) {
            let at = f
                .effects
                .first()
                .map_or(f.name.span, |b| Span { start: b.span.end.saturating_sub(1), ..b.span });
            self.error(
                Diagnostic::error(
                    at,
                    format!("`{}` may end without returning a `{}`", f.name.name, self.ty_name(&ret)),
                )
                .code(codes::RETURN)
                .secondary(f.name.span, format!("declared to return `{}`", self.ty_name(&ret)))
                .help("make every path end with `return value;`"),
            );
        }
        self.warn_unused_scope();
        let locals = std::mem::take(&mut self.cx.locals);
        let fm = &mut self.prog.funcs[fid.index()];
        fm.inputs = inputs;
        fm.body = body;
        fm.locals = locals;
    }

    fn action_body(&mut self, aid: hir::ActionId, a: &ast::ActionDecl) {
        let action = self.prog.action(aid).clone();
        let owner = action.owner;
        let ns = self.class_ns.get(&owner).cloned().flatten();
        // The type of `event`: the nearest common base of the watched events.
        let mut event_ty: Option<ClassId> = None;
        for t in &action.triggers {
            event_ty = Some(match event_ty {
                None => t.event,
                Some(e) => self.common_base(e, t.event).unwrap_or(self.prog.builtins.event),
            });
        }
        let event_ty = event_ty.unwrap_or(self.prog.builtins.event);
        let mut locals = action.locals.clone();
        // Triggers (pure, see only `this` and `event`).
        let mut triggers = action.triggers.clone();
        if action.overrides.is_none() {
            for (k, t) in a.triggers.iter().enumerate() {
                if k >= triggers.len() {
                    break;
                }
                if let Some(body) = &t.body {
                    self.cx = BodyCx::new(BodyKind::Pure, Some(owner)).with_locals(locals);
                    self.cx.namespace = ns.clone();
                    self.cx.event = Some(triggers[k].event);
                    self.cx.ret = Some(Ty::Bool);
                    triggers[k].body = Some(self.pure_block(body, "trigger"));
                    locals = std::mem::take(&mut self.cx.locals);
                }
            }
        }
        let mut requires = action.requires.clone();
        for r in &a.requires {
            self.cx = BodyCx::new(BodyKind::Pure, Some(owner)).with_locals(locals);
            self.cx.namespace = ns.clone();
            self.cx.event = Some(event_ty);
            self.cx.ret = Some(Ty::Bool);
            requires.push(self.pure_block(r, "require"));
            locals = std::mem::take(&mut self.cx.locals);
        }
        self.cx = BodyCx::new(BodyKind::Effect, Some(owner)).with_locals(locals);
        self.cx.namespace = ns.clone();
        self.cx.event = Some(event_ty);
        let mut inputs = action.inputs.clone();
        if action.overrides.is_none() {
            self.input_parts(&mut inputs, &a.inputs);
        }
        for i in &inputs {
            self.cx.bind_existing(&i.name, i.local);
            self.cx.used[i.local.index()] = true;
        }
        self.cx.kind = BodyKind::Effect;
        self.cx.ret = None;
        let effect = match a.effects.first() {
            Some(b) => self.block(b),
            None => Block::default(),
        };
        self.warn_unused_scope();
        let locals = std::mem::take(&mut self.cx.locals);
        let am = &mut self.prog.actions[aid.index()];
        am.inputs = inputs;
        am.triggers = triggers;
        am.requires = requires;
        am.effect = effect;
        am.locals = locals;
    }

    /// Checks a block that must return a bool on every path and change nothing.
    fn pure_block(&mut self, b: &ast::Block, what: &str) -> Block {
        let body = self.block(b);
        if !always_returns(&body) {
            self.error(
                Diagnostic::error(
                    Span { start: b.span.end.saturating_sub(1), ..b.span },
                    format!("this `{what}` block may end without returning a bool"),
                )
                .code(codes::RETURN)
                .help("end every path with `return true;` or `return false;`"),
            );
        }
        body
    }

    /// Fills in the filters and explicit targets of declared inputs. Each filter sees the
    /// inputs before its own, and binds the candidate to its name.
    fn input_parts(&mut self, inputs: &mut [Input], decls: &[ast::InputDecl]) {
        let saved_kind = self.cx.kind;
        let saved_ret = self.cx.ret.clone();
        for k in 0..inputs.len() {
            let Some(decl) = decls.iter().find(|d| d.name.name == inputs[k].name) else { continue };
            self.cx.push_scope();
            for earlier in &inputs[..k] {
                self.cx.bind_existing(&earlier.name, earlier.local);
            }
            if let ast::InputMode::Player { target: Some(t), .. } = &decl.mode {
                self.cx.kind = BodyKind::Pure;
                let target = self.expr_as(t, &Ty::Player);
                inputs[k].mode = InputMode::Player { target: Some(target) };
            }
            let filters = self.filters(&inputs[k], decl);
            inputs[k].filters = filters;
            self.cx.pop_scope();
        }
        self.cx.kind = saved_kind;
        self.cx.ret = saved_ret;
    }

    fn filters(&mut self, input: &Input, decl: &ast::InputDecl) -> Vec<hir::Filter> {
        let mut out = Vec::new();
        let cand = input.candidate_ty().clone();
        for f in &decl.filters {
            self.cx.push_scope();
            let binder_name = f.name.as_ref().map_or(&decl.name.name, |n| &n.name).clone();
            let binder_span = f.name.as_ref().map_or(decl.name.span, |n| n.span);
            let binder = self.cx.bind(&binder_name, cand.clone(), binder_span);
            self.cx.used[binder.index()] = true;
            self.cx.kind = BodyKind::Pure;
            self.cx.ret = Some(Ty::Bool);
            let body = self.pure_block(&f.body, "filter");
            self.cx.pop_scope();
            out.push(hir::Filter { binder, body, span: f.span });
        }
        out
    }

    fn default_body(&mut self, fid: hir::FuncId, block: &ast::Block) {
        let func = self.prog.func(fid).clone();
        let this = match func.kind {
            FuncKind::TurnDefault => None,
            _ => func.owner,
        };
        self.cx = BodyCx::new(BodyKind::Function, this);
        self.cx.group_default = func.kind == FuncKind::GroupDefault;
        self.cx.ret = if func.ret == Ty::Void { None } else { Some(func.ret.clone()) };
        let body = self.block(block);
        if func.kind == FuncKind::TurnDefault && !always_returns(&body) {
            self.error(
                Diagnostic::error(
                    Span { start: block.span.end.saturating_sub(1), ..block.span },
                    "a turn's `default` must return the next player",
                )
                .code(codes::RETURN)
                .help("end every path with `return <player>;`, e.g. `return turn.active() + 1;`"),
            );
        }
        self.warn_unused_scope();
        let locals = std::mem::take(&mut self.cx.locals);
        let fm = &mut self.prog.funcs[fid.index()];
        fm.body = body;
        fm.locals = locals;
    }

    pub(crate) fn block(&mut self, b: &ast::Block) -> Block {
        self.cx.push_scope();
        let mut stmts = Vec::new();
        let mut ended: Option<Span> = None;
        for s in &b.stmts {
            if let Some(end) = ended.take() {
                if !matches!(s.kind, ast::StmtKind::Empty) {
                    self.diags.push(
                        Diagnostic::warning(s.span, "unreachable statement")
                            .code(codes::UNREACHABLE)
                            .secondary(end, "any code after this is unreachable")
                            .help("remove it, or move it before the statement that ends the block"),
                    );
                }
            }
            if let Some(st) = self.stmt(s) {
                if matches!(
                    st.kind,
                    StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Winner(_)
                ) {
                    ended = Some(st.span);
                }
                stmts.push(st);
            }
        }
        self.warn_unused_scope();
        self.cx.pop_scope();
        Block { stmts }
    }

    /// Warns about locals of the innermost scope that were never read.
    fn warn_unused_scope(&mut self) {
        let unused: Vec<(String, LocalId)> = self
            .cx
            .innermost()
            .iter()
            .filter(|(n, id)| !self.cx.used[id.index()] && !n.starts_with('_'))
            .cloned()
            .collect();
        for (name, id) in unused {
            let span = self.cx.locals.get(id).span;
            self.cx.used[id.index()] = true;
            self.diags.push(
                Diagnostic::warning(span, format!("unused variable `{name}`"))
                    .code(codes::UNUSED)
                    .help(format!("if this is intentional, prefix it with an underscore: `_{name}`")),
            );
        }
    }

    fn body_stmt(&mut self, s: &ast::Stmt) -> Block {
        match &s.kind {
            ast::StmtKind::Block(b) => self.block(b),
            _ => {
                self.cx.push_scope();
                let st = self.stmt(s);
                self.warn_unused_scope();
                self.cx.pop_scope();
                Block { stmts: st.into_iter().collect() }
            }
        }
    }

    fn stmt(&mut self, s: &ast::Stmt) -> Option<Stmt> {
        let span = s.span;
        let kind = match &s.kind {
            ast::StmtKind::Decl { ty, name, init } => {
                let ty = self.resolve_type(ty);
                let init = init.as_ref().map(|e| self.expr_as(e, &ty));
                let local = self.bind(name, ty);
                StmtKind::Let { local, init }
            }
            ast::StmtKind::Expr(e) => {
                let e = self.expr(e, None);
                StmtKind::Expr(e)
            }
            ast::StmtKind::If { cond, then_branch, else_branch } => {
                let cond = self.condition(cond);
                let then_branch = self.body_stmt(then_branch);
                let else_branch = else_branch.as_ref().map(|e| self.body_stmt(e)).unwrap_or_default();
                StmtKind::If { cond, then_branch, else_branch }
            }
            ast::StmtKind::While { cond, body } => {
                let cond = self.condition(cond);
                self.cx.loop_depth += 1;
                let body = self.body_stmt(body);
                self.cx.loop_depth -= 1;
                StmtKind::While { cond, body }
            }
            ast::StmtKind::For { init, cond, step, body } => {
                self.cx.push_scope();
                let init = match init {
                    Some(i) => Block { stmts: self.stmt(i).into_iter().collect() },
                    None => Block::default(),
                };
                let cond = cond.as_ref().map(|c| self.condition(c));
                let step = step.as_ref().map(|e| self.expr(e, None));
                self.cx.loop_depth += 1;
                let body = self.body_stmt(body);
                self.cx.loop_depth -= 1;
                self.warn_unused_scope();
                self.cx.pop_scope();
                StmtKind::For { init, cond, step, body }
            }
            ast::StmtKind::ForIn { ty, name, iter, body } => {
                let declared = self.resolve_type(ty);
                let list = self.expr(iter, None);
                let elem = match &list.ty {
                    Ty::List(t) | Ty::Stack(t) => Some((**t).clone()),
                    Ty::Error => None,
                    other => {
                        let other = self.ty_name(other);
                        self.error(
                            Diagnostic::error(iter.span, format!("cannot loop over a `{other}`"))
                                .code(codes::MISMATCH)
                                .help("`for (T x in xs)` loops over a `List` or a `Stack`"),
                        );
                        None
                    }
                };
                if let Some(elem) = &elem {
                    if !self.convertible(elem, &declared) {
                        let (e, d) = (self.ty_name(elem), self.ty_name(&declared));
                        self.error(
                            Diagnostic::error(ty.span, format!("the elements are `{e}`, not `{d}`"))
                                .code(codes::MISMATCH)
                                .help(format!("declare the loop variable as `{e}`")),
                        );
                    }
                }
                self.cx.push_scope();
                let local = self.bind(name, declared);
                self.cx.loop_depth += 1;
                let body = self.body_stmt(body);
                self.cx.loop_depth -= 1;
                self.warn_unused_scope();
                self.cx.pop_scope();
                StmtKind::ForIn { local, list, body }
            }
            ast::StmtKind::Return(value) => self.return_stmt(value.as_ref(), span),
            ast::StmtKind::Break | ast::StmtKind::Continue => {
                let word = if matches!(s.kind, ast::StmtKind::Break) { "break" } else { "continue" };
                if self.cx.loop_depth == 0 {
                    self.error(
                        Diagnostic::error(span, format!("`{word}` outside of a loop"))
                            .code(codes::MISPLACED)
                            .help("`break` and `continue` are used inside `while` and `for`"),
                    );
                    return None;
                }
                if word == "break" { StmtKind::Break } else { StmtKind::Continue }
            }
            ast::StmtKind::Winner(e) => {
                let ranking = Ty::List(Box::new(Ty::List(Box::new(Ty::Player))));
                let v = self.expr(e, Some(&ranking));
                let v = match v.ty {
                    Ty::Player | Ty::Error => v,
                    Ty::Number => self.coerce(v, &Ty::Player),
                    _ => self.coerce(v, &ranking),
                };
                StmtKind::Winner(v)
            }
            ast::StmtKind::Throw(e) => {
                let v = self.expr(e, None);
                match &v.ty {
                    Ty::Class(c) if self.is_event_class(*c) => {}
                    Ty::Error => {}
                    other => {
                        let other = self.ty_name(other);
                        self.error(
                            Diagnostic::error(e.span, format!("only events can be thrown, not `{other}`"))
                                .code(codes::EVENT)
                                .help("declare an event with `event Name { ... }` and throw `new Name()`"),
                        );
                    }
                }
                StmtKind::Throw(v)
            }
            ast::StmtKind::Input(decl) => self.input_stmt(decl)?,
            ast::StmtKind::Block(b) => StmtKind::Block(self.block(b)),
            ast::StmtKind::Empty => {
                self.diags.push(
                    Diagnostic::warning(span, "empty statement")
                        .code(codes::STRAY_SEMI)
                        .help("remove the lone `;`"),
                );
                return None;
            }
        };
        Some(Stmt { kind, span })
    }

    fn return_stmt(&mut self, value: Option<&ast::Expr>, span: Span) -> StmtKind {
        match (self.cx.ret.clone(), value) {
            (Some(ty), Some(v)) => StmtKind::Return(Some(self.expr_as(v, &ty))),
            (Some(ty), None) => {
                let ty = self.ty_name(&ty);
                self.error(
                    Diagnostic::error(span, format!("`return;` without a value, but a `{ty}` is expected"))
                        .code(codes::RETURN)
                        .help(format!("return a `{ty}`: `return value;`")),
                );
                StmtKind::Return(None)
            }
            (None, Some(v)) => {
                let e = self.expr(v, None);
                let (msg, help) = match self.cx.kind {
                    BodyKind::Effect => (
                        "an action's effect cannot return a value",
                        "`return;` leaves the effect early; actions have no result",
                    ),
                    BodyKind::Setup => {
                        ("`setup` cannot return a value", "use `return;` to leave `setup` early")
                    }
                    _ => (
                        "this function returns no value",
                        "declare `returns T;` to return a value, or write `return;`",
                    ),
                };
                self.error(Diagnostic::error(e.span, msg).code(codes::RETURN).help(help));
                StmtKind::Return(None)
            }
            (None, None) => StmtKind::Return(None),
        }
    }

    /// An `input` statement: a new local chosen by a player or computed.
    fn input_stmt(&mut self, decl: &ast::InputDecl) -> Option<StmtKind> {
        let ty = self.resolve_type(&decl.ty);
        let mode = match &decl.mode {
            ast::InputMode::Function(span) => {
                self.error(
                    Diagnostic::error(*span, "an `input` statement cannot be a `function input`")
                        .code(codes::MISPLACED)
                        .help("`function input`s are declared at the top of a function"),
                );
                return None;
            }
            ast::InputMode::Auto(_) => InputMode::Auto,
            ast::InputMode::Player { target: Some(t), .. } => {
                InputMode::Player { target: Some(self.expr_as(t, &Ty::Player)) }
            }
            _ => InputMode::Player { target: None },
        };
        self.check_input_domain(&ty, decl);
        if let Some(d) = &decl.default {
            self.error(
                Diagnostic::error(d.span, "only a `function input` has a default value")
                    .code(codes::MISPLACED),
            );
        }
        // Filters see the variables in scope but not the input itself.
        let mut input = Input {
            name: decl.name.name.clone(),
            local: LocalId(u32::MAX),
            ty: ty.clone(),
            mode,
            optional: decl.optional.is_some(),
            filters: Vec::new(),
            span: decl.span,
        };
        let kind = self.cx.kind;
        let ret = self.cx.ret.clone();
        input.filters = self.filters(&input, decl);
        self.cx.kind = kind;
        self.cx.ret = ret;
        input.local = self.bind(&decl.name, ty);
        Some(StmtKind::Input(input))
    }
}

/// Whether every path through the block ends in `return` (or `winner`, which ends the game).
pub fn always_returns(b: &Block) -> bool {
    b.stmts.iter().any(stmt_returns)
}

fn stmt_returns(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) | StmtKind::Winner(_) => true,
        StmtKind::If { then_branch, else_branch, .. } => {
            always_returns(then_branch) && always_returns(else_branch)
        }
        StmtKind::Block(b) => always_returns(b),
        StmtKind::While { cond, body } => is_true(cond) && !breaks(body),
        StmtKind::For { cond: None, body, .. } => !breaks(body),
        _ => false,
    }
}

fn is_true(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Bool(true))
}

/// Whether a loop body contains a `break` for this loop.
fn breaks(b: &Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Break => true,
        StmtKind::If { then_branch, else_branch, .. } => breaks(then_branch) || breaks(else_branch),
        StmtKind::Block(b) => breaks(b),
        _ => false,
    })
}
