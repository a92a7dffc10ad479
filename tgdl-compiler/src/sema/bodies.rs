//! The pass over every body of the program: attribute initialisers, argument defaults,
//! functions, actions (triggers, requires, inputs with their filters, effect), `default`
//! blocks and `setup`, each checked in its own context (`BodyCx`).

use super::Checker;
use super::declare::Decls;
use super::scope::{BodyCx, BodyKind};
use super::stmt::always_returns;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{self, Block, ClassId, FuncKind, Input, InputMode, Ty};
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
        let initialised: std::collections::HashSet<hir::AttrId> =
            decls.attrs.iter().filter(|(_, a)| a.value.is_some()).map(|(id, _)| *id).collect();
        for &(attr, a) in &decls.attrs {
            let class = self.prog.attr(attr).class;
            self.cx = BodyCx::new(BodyKind::Initialiser, Some(class));
            self.cx.namespace = self.class_ns.get(&class).cloned().flatten();
            if let Some(v) = &a.value {
                let ty = self.prog.attr(attr).ty.clone();
                let at = a.ty.as_ref().map_or(a.name.span, |t| t.span);
                let origin = (at, format!("`{}` is declared as a `{}`", a.name.name, self.ty_name(&ty)));
                let e = self.expr_as_because(v, &ty, origin);
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
                self.cx.default_for = Some(fid);
                self.cx.namespace = match self.prog.func(fid).owner {
                    Some(c) => self.class_ns.get(&c).cloned().flatten(),
                    None => self.func_ns.get(&fid).cloned().flatten(),
                };
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
        for &(attr, _) in &decls.attrs {
            if let Some(e) = self.prog.attr(attr).init.clone() {
                self.read_before_init(attr, &e, &initialised);
            }
        }
        if let Some(block) = decls.setups.first() {
            self.cx = BodyCx::new(BodyKind::Setup, None);
            let body = self.block(block);
            self.warn_unused_scope();
            let locals = std::mem::take(&mut self.cx.locals);
            self.prog.setup = hir::Setup { locals, body, span: block.span };
        }
        self.initial_values_before_lists();
    }

    /// Warns about an initial value that reads an attribute of its object which an
    /// initialiser list (`new X() { id = 3 }`) somewhere sets: the initial values run
    /// first, so it reads the value before the list's. Reads through the object's own
    /// functions count, as for [`Self::read_before_init`].
    fn initial_values_before_lists(&mut self) {
        let prog = &self.prog;
        // Every attribute an initialiser list sets: (the class created, the value's place,
        // the attributes the list sets).
        type Listed = (hir::ClassId, Span, Vec<hir::AttrId>);
        let mut set: std::collections::HashMap<hir::AttrId, Vec<Listed>> = std::collections::HashMap::new();
        prog.walk_exprs(&mut |x| {
            if let hir::ExprKind::New { class, inits } = &x.kind {
                let all: Vec<hir::AttrId> = inits.iter().map(|(a, _)| *a).collect();
                for (a, v) in inits {
                    set.entry(*a).or_default().push((*class, v.span, all.clone()));
                }
            }
        });
        if set.is_empty() {
            return;
        }
        let mut found = Vec::new();
        for (k, a) in prog.attrs.iter().enumerate() {
            let Some(init) = &a.init else { continue };
            let attr = hir::AttrId(k as u32);
            // (where, what is read, through which function), each read once.
            let mut reads: Vec<(Span, hir::AttrId, Option<hir::FuncId>)> = Vec::new();
            init.walk(&mut |x| match &x.kind {
                hir::ExprKind::Attr { object, attr: read } if matches!(object.kind, hir::ExprKind::This) => {
                    reads.push((x.span, *read, None));
                }
                hir::ExprKind::Call { func, receiver, .. }
                    if receiver.as_deref().map_or(prog.func(*func).owner.is_some(), |r| {
                        matches!(r.kind, hir::ExprKind::This)
                    }) =>
                {
                    let mut through = Vec::new();
                    this_reads(prog, *func, &mut std::collections::HashSet::new(), &mut through);
                    reads.extend(through.into_iter().map(|r| (x.span, r, Some(*func))));
                }
                _ => {}
            });
            let mut warned = std::collections::HashSet::new();
            for (at, read, through) in reads {
                // An object of a class that runs this initial value, with `read` in its list
                // (and not the attribute itself: then the list's value replaces it).
                let Some(&(_, listed, _)) = set.get(&read).and_then(|places| {
                    places
                        .iter()
                        .find(|(created, _, all)| prog.is_subclass(*created, a.class) && !all.contains(&attr))
                }) else {
                    continue;
                };
                if warned.insert(read) {
                    found.push((attr, at, read, through, listed));
                }
            }
        }
        for (attr, at, read, through, listed) in found {
            let own = self.prog.attr(attr).name.clone();
            let name = self.prog.attr(read).name.clone();
            let label = match through {
                Some(f) => format!(
                    "calling `{}` reads `{name}` before the initialiser list sets it",
                    self.prog.func(f).name
                ),
                None => format!("reads `{name}` before the initialiser list sets it"),
            };
            let ty = self.ty_name(&self.prog.attr(attr).ty.clone());
            let value = self
                .prog
                .attr(attr)
                .init
                .as_ref()
                .map(|e| self.sources.snippet(e.span).to_string())
                .filter(|v| v.len() <= 50 && !v.contains('\n'))
                .unwrap_or_else(|| "...".to_string());
            let d = Diagnostic::warning(at, format!("the initial value of `{own}` reads `{name}`, which an initialiser list sets later"))
                .code(codes::INIT_LIST_LATER)
                .label(label)
                .secondary(listed, format!("`{name}` is set here, after the initial values ran"))
                .note("`new T() { ... }` runs the attributes' initial values first, then the initialiser list")
                .help(format!("set `{own}` in the initialiser list too, or compute it when read: `attribute {own} {{ returns {ty}; value {value}; }}`"));
            self.diags.push(d);
        }
    }

    pub(crate) fn function_body(&mut self, fid: hir::FuncId, f: &ast::FunctionDecl) {
        let func = self.prog.func(fid).clone();
        let ret = func.ret.clone();
        self.cx = BodyCx::new(BodyKind::Function, func.owner).with_locals(func.locals.clone());
        self.cx.ret = if ret == Ty::Void { None } else { Some(ret.clone()) };
        self.cx.ret_origin = match (f.returns.first(), func.overrides) {
            (Some((_, at)), _) => Some((*at, format!("`{}` returns `{}`", f.name.name, self.ty_name(&ret)))),
            (None, Some(base)) => Some((
                self.prog.func(base).span,
                format!("the base function returns `{}`", self.ty_name(&ret)),
            )),
            (None, None) => None,
        };
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
            let declared = f.returns.first().map_or(f.name.span, |(_, s)| *s);
            let (msg, label) = match f.effects.first() {
                Some(_) => (
                    format!("`{}` may end without returning a `{}`", f.name.name, self.ty_name(&ret)),
                    "a path reaches the end of the effect here",
                ),
                None => (
                    format!(
                        "`{}` has no `effect` block to return a `{}` from",
                        f.name.name,
                        self.ty_name(&ret)
                    ),
                    "no `effect` in this function",
                ),
            };
            self.error(
                Diagnostic::error(at, msg)
                    .code(codes::RETURN)
                    .label(label)
                    .secondary(declared, format!("declared to return `{}`", self.ty_name(&ret)))
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

    pub(crate) fn action_body(&mut self, aid: hir::ActionId, a: &ast::ActionDecl) {
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
                    self.cx.ret_origin = Some((t.event.span, "a `trigger` block returns a `bool`".into()));
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
            let keyword = self.keyword_before(r.span, "require");
            self.cx.ret_origin = Some((keyword, "a `require` block returns a `bool`".into()));
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
    pub(crate) fn pure_block(&mut self, b: &ast::Block, what: &str) -> Block {
        let body = self.block(b);
        if !always_returns(&body) {
            self.error(
                Diagnostic::error(
                    Span { start: b.span.end.saturating_sub(1), ..b.span },
                    format!("this `{what}` block may end without returning a bool"),
                )
                .code(codes::RETURN)
                .label("a path reaches the end of the block here")
                .help("end every path with `return true;` or `return false;`"),
            );
        }
        body
    }

    /// Fills in the filters and explicit targets of declared inputs. Each filter sees the
    /// inputs before its own, and binds the candidate to its name.
    pub(crate) fn input_parts(&mut self, inputs: &mut [Input], decls: &[ast::InputDecl]) {
        let saved_kind = self.cx.kind;
        let saved_ret = self.cx.ret.clone();
        let saved_origin = self.cx.ret_origin.clone();
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
            let domain = self.input_domain(&inputs[k], decl);
            inputs[k].domain = domain;
            let filters = self.filters(&inputs[k], decl);
            inputs[k].filters = filters;
            self.cx.pop_scope();
        }
        self.cx.kind = saved_kind;
        self.cx.ret = saved_ret;
        self.cx.ret_origin = saved_origin;
    }

    /// The list after `in`: a `List` of values that can stand for the candidate type (for
    /// a list input, its element type). It sees what the filters see (but not the input)
    /// and, like them, must be pure (checked with them in `check_purity`).
    pub(crate) fn input_domain(&mut self, input: &Input, decl: &ast::InputDecl) -> Option<hir::Expr> {
        let (_, e) = decl.domain.as_ref()?;
        if matches!(input.mode, InputMode::Function { .. }) {
            // Reported by `declare_inputs`.
            return None;
        }
        self.cx.kind = BodyKind::Pure;
        let cand = input.candidate_ty().clone();
        let list = Ty::List(Box::new(cand.clone()));
        let x = self.expr(e, Some(&list));
        // Objects of a base class are accepted too: those not of the input's class are
        // skipped, like the discarded ones. Connections stand for the tiles they lead to
        // (`input Cell to in from.connections`).
        if let (Ty::List(elem), Ty::Class(want)) = (&x.ty, &cand)
            && let Ty::Class(have) = elem.as_ref()
            && (self.prog.is_subclass(*want, *have)
                || (self.prog.class(*have).kind == hir::ClassKind::Connection
                    && self.prog.class(*want).kind == hir::ClassKind::Tile))
        {
            return Some(x);
        }
        let origin =
            (decl.name.span, format!("the candidates of `{}` are `{}`s", input.name, self.ty_name(&cand)));
        Some(self.coerce_because(x, &list, origin))
    }

    pub(crate) fn filters(&mut self, input: &Input, decl: &ast::InputDecl) -> Vec<hir::Filter> {
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
            let at = f.keyword_span.unwrap_or(decl.name.span);
            self.cx.ret_origin =
                Some((at, format!("a filter returns a `bool`: whether `{binder_name}` may be chosen")));
            let body = self.pure_block(&f.body, "filter");
            self.cx.pop_scope();
            out.push(hir::Filter { binder, body, span: f.span });
        }
        out
    }

    /// Reports the reads, in the initialiser of `attr`, of attributes of the same object
    /// whose initialisers run later (declared after `attr` in its class or in a derived
    /// class, or `attr` itself): they would read a value the game never set. Reads through
    /// the object's own functions (`this.f()`, `f()`, with their overrides) count too, so
    /// this runs once every function body is checked.
    fn read_before_init(
        &mut self,
        attr: hir::AttrId,
        e: &hir::Expr,
        initialised: &std::collections::HashSet<hir::AttrId>,
    ) {
        let class = self.prog.attr(attr).class;
        let prog = &self.prog;
        let later = |read: hir::AttrId| is_later(prog, attr, read, initialised);
        let on_this = |object: &hir::Expr| match object.kind {
            hir::ExprKind::This => true,
            hir::ExprKind::Global(c) => c == class,
            _ => false,
        };
        // (where, what is read, through which function)
        let mut found: Vec<(Span, hir::AttrId, Option<hir::FuncId>)> = Vec::new();
        // A function `this` was handed to that lets it go where reads are not followed.
        let mut escaped: Option<hir::FuncId> = None;
        e.walk(&mut |x| match &x.kind {
            hir::ExprKind::Attr { object, attr: read } if on_this(object) && later(*read) => {
                found.push((x.span, *read, None));
            }
            hir::ExprKind::Call { func, receiver, args, .. } => {
                let mut reads = Vec::new();
                if receiver.as_deref().map_or(prog.func(*func).owner.is_some(), on_this) {
                    let mut run = std::collections::HashSet::new();
                    this_reads(prog, *func, &mut run, &mut reads);
                    if let Some(f) = this_escapes_in(prog, &run) {
                        escaped = Some(f);
                    }
                }
                // `this` handed to a function: what it reads through that input.
                let mut seen = std::collections::HashSet::new();
                for (k, _) in args.iter().enumerate().filter(|(_, a)| matches!(a.kind, hir::ExprKind::This)) {
                    if param_reads(prog, *func, k, &mut seen, &mut reads) {
                        escaped = Some(*func);
                    }
                }
                if let Some(read) = reads.into_iter().find(|r| later(*r)) {
                    found.push((x.span, read, Some(*func)));
                }
            }
            _ => {}
        });
        self.this_escapes(attr, e, escaped, &later_attrs(&self.prog, attr, initialised));
        for (span, read, through) in found {
            let r = self.prog.attr(read);
            let (name, declared) = (r.name.clone(), r.span);
            let own = self.prog.attr(attr).name.clone();
            let label = match through {
                Some(f) => {
                    format!("calling `{}` reads `{name}`, initialised after `{own}`", self.prog.func(f).name)
                }
                None if read == attr => "the attribute being initialised".to_string(),
                None => format!("`{name}` is initialised after `{own}`"),
            };
            let mut d = Diagnostic::error(span, format!("`{name}` is read before its initialiser runs"))
                .code(codes::READ_BEFORE_INIT)
                .label(label);
            let derived = (r.class != class).then(|| self.prog.class(r.class).name.clone());
            if let Some(derived) = &derived {
                let base = self.prog.class(class).name.clone();
                d = d.secondary(
                    declared,
                    format!("an attribute of `{derived}`: initialised after every attribute of `{base}`"),
                );
            } else if read != attr {
                d = d.secondary(declared, format!("`{name}` is declared here, after `{own}`"));
            }
            let help = if read == attr {
                format!(
                    "an initialiser cannot read its own attribute: give `{own}` its value from the other attributes"
                )
            } else if derived.is_some() {
                format!("compute `{own}` in an effect, once the object is created")
            } else {
                format!(
                    "initialisers run in declaration order (base class first): declare `{name}` before `{own}`, or compute `{own}` in an effect"
                )
            };
            self.error(d.help(help));
        }
    }

    /// Reports an initialiser of `attr` that lets `this` go where the reads of
    /// [`Self::read_before_init`] are not followed (stored, copied, put in a list, turned
    /// into text), directly or through a function it is `handed` to, while attributes of
    /// the object are still to be initialised (`later`): a read there would find a value
    /// the game never set.
    fn this_escapes(
        &mut self,
        attr: hir::AttrId,
        e: &hir::Expr,
        handed: Option<hir::FuncId>,
        later: &[hir::AttrId],
    ) {
        let Some(&first) = later.first() else { return };
        let is_this = |x: &hir::Expr| matches!(x.kind, hir::ExprKind::This);
        let label = if escaping_uses(|f| e.walk(&mut |x| f(x)), is_this) {
            "`this` is stored, copied or turned into text here".to_string()
        } else if let Some(f) = handed {
            format!("`{}` stores, copies or turns into text the object", self.prog.func(f).name)
        } else {
            return;
        };
        let own = self.prog.attr(attr).name.clone();
        let name = self.prog.attr(first).name.clone();
        let d = Diagnostic::error(e.span, format!("`this` is used before `{name}` is initialised"))
            .code(codes::READ_BEFORE_INIT)
            .label(label)
            .secondary(self.prog.attr(first).span, format!("`{name}` is initialised after `{own}`"))
            .help(format!(
                "compute `{own}` in an effect, once the object is created, or declare it after every attribute of the object"
            ));
        self.error(d);
    }

    pub(crate) fn default_body(&mut self, fid: hir::FuncId, block: &ast::Block) {
        let func = self.prog.func(fid).clone();
        let this = match func.kind {
            FuncKind::TurnDefault => None,
            _ => func.owner,
        };
        self.cx = BodyCx::new(BodyKind::Function, this);
        // Names resolve in the namespace of the file the block is written in.
        self.cx.namespace = match func.owner {
            Some(c) => self.class_ns.get(&c).cloned().flatten(),
            None => self.func_ns.get(&fid).cloned().flatten(),
        };
        self.cx.group_default = func.kind == FuncKind::GroupDefault;
        self.cx.turn_default = func.kind == FuncKind::TurnDefault;
        self.cx.ret = if func.ret == Ty::Void { None } else { Some(func.ret.clone()) };
        if func.kind == FuncKind::TurnDefault {
            let keyword = self.keyword_before(block.span, "default");
            self.cx.ret_origin = Some((keyword, "a turn's `default` returns the next `player`".into()));
        }
        if func.kind == FuncKind::TurnSimultaneous {
            let keyword = self.keyword_before(block.span, "simultaneous");
            self.cx.ret_origin = Some((
                keyword,
                "a turn's `simultaneous` returns the players who choose: a `List<player>`".into(),
            ));
        }
        let body = self.block(block);
        if func.kind == FuncKind::TurnDefault && !always_returns(&body) {
            self.error(
                Diagnostic::error(
                    Span { start: block.span.end.saturating_sub(1), ..block.span },
                    "a turn's `default` must return the next player",
                )
                .code(codes::RETURN)
                .label("a path reaches the end of the block here")
                .help("end every path with `return <player>;`, e.g. `return turn.active() + 1;`"),
            );
        }
        if func.kind == FuncKind::TurnSimultaneous && !always_returns(&body) {
            self.error(
                Diagnostic::error(
                    Span { start: block.span.end.saturating_sub(1), ..block.span },
                    "a turn's `simultaneous` must return the players who choose",
                )
                .code(codes::RETURN)
                .label("a path reaches the end of the block here")
                .help("end every path with `return <List<player>>;`, e.g. `return player.all();`"),
            );
        }
        self.warn_unused_scope();
        let locals = std::mem::take(&mut self.cx.locals);
        let fm = &mut self.prog.funcs[fid.index()];
        fm.body = body;
        fm.locals = locals;
    }
}

/// The attributes of `this` that calling `f` on it may read: its body's `this.x` (and
/// bare `x`), and those of the functions it calls on `this`, overrides included.
fn this_reads(
    prog: &hir::Program,
    f: hir::FuncId,
    seen: &mut std::collections::HashSet<hir::FuncId>,
    out: &mut Vec<hir::AttrId>,
) {
    if !seen.insert(f) {
        return;
    }
    let mut calls = Vec::new();
    prog.func(f).body.walk_exprs(&mut |x| match &x.kind {
        hir::ExprKind::Attr { object, attr } if matches!(object.kind, hir::ExprKind::This) => out.push(*attr),
        hir::ExprKind::Call { func, receiver, .. }
            if receiver
                .as_deref()
                .map_or(prog.func(*func).owner.is_some(), |r| matches!(r.kind, hir::ExprKind::This)) =>
        {
            calls.push(*func)
        }
        _ => {}
    });
    // A call on `this` may run an override of the function.
    let overrides: Vec<hir::FuncId> = (0..prog.funcs.len() as u32)
        .map(hir::FuncId)
        .filter(|&g| calls.iter().any(|&c| overrides_chain(prog, g, c)))
        .collect();
    for g in calls.into_iter().chain(overrides) {
        this_reads(prog, g, seen, out);
    }
}

/// The attributes a call of `f` may read of the object passed as its `k`-th argument:
/// through that input directly (`a.y`), through its functions (`a.f()`), or handed on to
/// another function. For `this` passed by an initialiser (see `read_before_init`).
fn param_reads(
    prog: &hir::Program,
    f: hir::FuncId,
    k: usize,
    seen: &mut std::collections::HashSet<(hir::FuncId, usize)>,
    out: &mut Vec<hir::AttrId>,
) -> bool {
    let mut escapes = false;
    // The call may run an override of `f`, which takes the same inputs.
    let candidates: Vec<hir::FuncId> = std::iter::once(f)
        .chain((0..prog.funcs.len() as u32).map(hir::FuncId).filter(|&g| overrides_chain(prog, g, f)))
        .collect();
    for g in candidates {
        if !seen.insert((g, k)) {
            continue;
        }
        let func = prog.func(g);
        let Some(param) = func
            .inputs
            .iter()
            .filter(|i| matches!(i.mode, hir::InputMode::Function { .. }))
            .nth(k)
            .map(|i| i.local)
        else {
            continue;
        };
        let is_param = |e: &hir::Expr| matches!(e.kind, hir::ExprKind::Local(l) if l == param);
        let mut methods = Vec::new();
        let mut handed = Vec::new();
        func.body.walk_exprs(&mut |x| match &x.kind {
            hir::ExprKind::Attr { object, attr } if is_param(object) => out.push(*attr),
            hir::ExprKind::Call { func, receiver, args, .. } => {
                if receiver.as_deref().is_some_and(is_param) {
                    methods.push(*func);
                }
                handed.extend(args.iter().enumerate().filter(|(_, a)| is_param(a)).map(|(j, _)| (*func, j)));
            }
            _ => {}
        });
        escapes |= escaping_uses(|f| func.body.walk_exprs(&mut |x| f(x)), is_param);
        for m in methods {
            let mut run = std::collections::HashSet::new();
            this_reads(prog, m, &mut run, out);
            escapes |= this_escapes_in(prog, &run).is_some();
        }
        for (h, j) in handed {
            escapes |= param_reads(prog, h, j, seen, out);
        }
    }
    escapes
}

/// Whether `read` is initialised after `attr` on the same object: declared after it in its
/// class or in a derived class, or `attr` itself.
fn is_later(
    prog: &hir::Program,
    attr: hir::AttrId,
    read: hir::AttrId,
    initialised: &std::collections::HashSet<hir::AttrId>,
) -> bool {
    let (a, r) = (prog.attr(attr), prog.attr(read));
    initialised.contains(&read)
        && ((r.class == a.class && r.span.start >= a.span.start)
            || (r.class != a.class && prog.is_subclass(r.class, a.class)))
}

/// The attributes initialised after `attr` on the same object, in declaration order.
fn later_attrs(
    prog: &hir::Program,
    attr: hir::AttrId,
    initialised: &std::collections::HashSet<hir::AttrId>,
) -> Vec<hir::AttrId> {
    let mut later: Vec<hir::AttrId> = (0..prog.attrs.len() as u32)
        .map(hir::AttrId)
        .filter(|&r| r != attr && is_later(prog, attr, r, initialised))
        .collect();
    later.sort_by_key(|&r| prog.attr(r).span.start);
    later
}

/// The first of the object's functions `run` (a call on `this` may run them) that lets
/// `this` go where reads are not followed.
fn this_escapes_in(prog: &hir::Program, run: &std::collections::HashSet<hir::FuncId>) -> Option<hir::FuncId> {
    let mut run: Vec<hir::FuncId> = run.iter().copied().collect();
    run.sort_by_key(|f| f.index());
    run.into_iter().find(|&f| {
        escaping_uses(
            |w| prog.func(f).body.walk_exprs(&mut |x| w(x)),
            |x| matches!(x.kind, hir::ExprKind::This),
        )
    })
}

/// Whether an object (the expressions `is_it` picks: `this`, or the input holding it) is
/// used in `block` other than in the ways the initialiser check follows — an attribute
/// read, a function called on it, handed to a function, compared with `==` or `!=` —
/// such as stored, copied into a local, put in a list or turned into text (which runs
/// its `label`).
fn escaping_uses(walk: impl FnOnce(&mut dyn FnMut(&hir::Expr)), is_it: impl Fn(&hir::Expr) -> bool) -> bool {
    let (mut uses, mut followed) = (0usize, 0usize);
    walk(&mut |x| {
        if is_it(x) {
            uses += 1;
        }
        followed += followed_uses(x, &is_it);
    });
    uses > followed
}

/// The uses of the object directly under `x` that the initialiser check follows.
fn followed_uses(x: &hir::Expr, is_it: &impl Fn(&hir::Expr) -> bool) -> usize {
    match &x.kind {
        hir::ExprKind::Attr { object, .. } => usize::from(is_it(object)),
        hir::ExprKind::Call { receiver, args, .. } => {
            usize::from(receiver.as_deref().is_some_and(is_it)) + args.iter().filter(|a| is_it(a)).count()
        }
        hir::ExprKind::Binary { op: hir::BinaryOp::Eq | hir::BinaryOp::Ne, lhs, rhs } => {
            usize::from(is_it(lhs)) + usize::from(is_it(rhs))
        }
        _ => 0,
    }
}

/// Whether `g` overrides `base` (directly or through other overrides).
fn overrides_chain(prog: &hir::Program, g: hir::FuncId, base: hir::FuncId) -> bool {
    let mut at = prog.func(g).overrides;
    while let Some(o) = at {
        if o == base {
            return true;
        }
        at = prog.func(o).overrides;
    }
    false
}
