//! Signatures of functions and actions: inputs (names, types, finite domains, modes),
//! return types, triggers and priorities; an override takes its base's.

use super::Checker;
use super::declare::kind_word;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{self, Action, ActionId, ClassId, ClassKind, FuncId, Input, InputMode, Locals, Ty};
use crate::source::Span;
use crate::syntax::ast;

impl<'a> Checker<'a> {
    /// Inputs and return type of a function; an override takes its base's.
    pub(crate) fn function_signature(
        &mut self,
        fid: FuncId,
        f: &ast::FunctionDecl,
        overrides: Option<FuncId>,
    ) {
        for (kw, span) in &f.misplaced {
            self.error(
                Diagnostic::error(*span, format!("a function cannot have `{kw}`"))
                    .code(codes::MISPLACED)
                    .label("only actions have this")
                    .help("`require`, `trigger` and `prio` belong to actions"),
            );
        }
        if f.effects.len() > 1 {
            self.error(
                Diagnostic::error(
                    self.keyword_before(f.effects[1].span, "effect"),
                    "a function has one `effect` block",
                )
                .code(codes::DUPLICATE)
                .label("a second `effect`")
                .secondary(self.keyword_before(f.effects[0].span, "effect"), "first `effect` here")
                .help("merge the two blocks into one"),
            );
        }
        if let Some(base) = overrides {
            let base_span = self.prog.func(base).span;
            if let Some(i) = f.inputs.first() {
                self.error(
                    Diagnostic::error(i.span, "an override contains only an `effect`")
                        .code(codes::INHERITANCE)
                        .label("inputs are inherited")
                        .secondary(base_span, "the overridden function is declared here")
                        .help("inputs and `returns` are inherited from the base function; remove this"),
                );
            }
            if let Some((_, span)) = f.returns.first() {
                self.error(
                    Diagnostic::error(*span, "an override contains only an `effect`")
                        .code(codes::INHERITANCE)
                        .label("the return type is inherited")
                        .secondary(base_span, "the overridden function is declared here")
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
            // An `override` of nothing (reported) has no `returns` of its own: no cascade.
            [] if f.override_span.is_some() => Ty::Error,
            [] => {
                self.error(
                    Diagnostic::error(
                        f.name.span,
                        format!("the function `{}` does not declare what it returns", f.name.name),
                    )
                    .code(codes::RETURN)
                    .label("no `returns` tag in this function")
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
                domain: None,
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
                            .label("not allowed in an action")
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
            if let (ast::InputMode::Function(_), Some((keyword, _))) = (&i.mode, &i.domain) {
                self.error(
                    Diagnostic::error(
                        *keyword,
                        "a `function input` is passed by the caller and has no `in` list",
                    )
                    .code(codes::MISPLACED)
                    .label("only inputs chosen by a player or computed have candidates")
                    .help("remove `in ...`; check the argument inside the effect instead"),
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
            // Numbers are offered from the list after `in`.
            Ty::Number => i.domain.is_some(),
            // Instances are candidates, except events, which are never candidates.
            Ty::Class(c) => self.prog.class(*c).kind != ClassKind::Event,
            _ => false,
        };
        if !finite {
            let d = Diagnostic::error(
                i.ty.span,
                format!("an input of type `{}` has no finite set of candidates", self.ty_name(ty)),
            )
            .code(codes::INPUT_DOMAIN);
            let d = match elem {
                Ty::Class(c) => {
                    let name = self.prog.class(*c).name.clone();
                    d.label("events are never candidates")
                        .help(format!("an action reacts to an event by watching it: `trigger {name};`, then reads it as `event`"))
                }
                Ty::Number => d
                    .label("a player cannot choose from every possible number")
                    .help(format!("list the choices after the name: `input number {} in {{1, 2, 3}};`", i.name.name)),
                _ => d
                    .label("a player cannot choose from every possible value")
                    .help("choose among objects, players, bools or numbers listed with `in`; for text, put the choices in a `List` of objects"),
            };
            self.error(d);
        }
    }

    pub(crate) fn action_signature(
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
                Diagnostic::error(
                    self.keyword_before(a.effects[1].span, "effect"),
                    "an action has one `effect` block",
                )
                .code(codes::DUPLICATE)
                .label("a second `effect`")
                .secondary(self.keyword_before(a.effects[0].span, "effect"), "first `effect` here")
                .help("merge the two blocks into one: the effect runs once, top to bottom"),
            );
        }
        if a.prios.len() > 1 {
            self.error(
                Diagnostic::error(a.prios[1].1, "an action has one `prio`")
                    .code(codes::DUPLICATE)
                    .label("a second `prio`")
                    .secondary(a.prios[0].1, "first `prio` here")
                    .help("keep one: the priority orders the runs of one batch of events (higher first)"),
            );
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
                .or(a.triggers.first().map(|t| t.span))
                .or(a.prios.first().map(|p| p.1));
            if let Some(span) = parts_span {
                let base_name = self.prog.class(self.prog.action(base).owner).name.clone();
                self.error(
                    Diagnostic::error(span, "an override contains only an `effect`")
                        .code(codes::INHERITANCE)
                        .label(format!("inherited from `{base_name}.{}`", a.name.name))
                        .secondary(self.prog.action(base).span, "the overridden action is declared here")
                        .help(
                            "inputs, requires, triggers and `prio` are inherited from the base action; remove this",
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
                    domain: None,
                    filters: Vec::new(),
                    span: i.span,
                });
            }
            for t in &a.triggers {
                let ns = self.class_ns.get(&class).cloned().flatten();
                let event = match self.lookup_class_path(&t.event, ns.as_deref()) {
                    Some(e) if self.prog.class(e).kind == ClassKind::Event => e,
                    Some(e) => {
                        let cl = self.prog.class(e);
                        let (name, kind, at) = (cl.name.clone(), kind_word(cl.kind), cl.span);
                        let mut d = Diagnostic::error(t.event.span, format!("`{name}` is not an event"))
                            .code(codes::EVENT)
                            .label("a trigger watches an event");
                        if at != Span::default() {
                            d = d.secondary(at, format!("`{name}` is declared as a {kind} here"));
                        }
                        self.error(d.help(format!("declare it as an event: `event {name} {{ ... }}`")));
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
}
