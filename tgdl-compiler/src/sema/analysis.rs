//! Whole-program checks on the typed program: a turn's `default` must not pass the turn,
//! objects must not create each other without end, and global classes are ordered so
//! each is created after those its initialisers read. Purity is checked in `purity`,
//! public logs of hidden information in `secrets`.

use super::Checker;
use super::purity::Impurity;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{Block, Builtin, ClassId, ClassKind, Expr, ExprKind, FuncId, StmtKind, Visibility};
use crate::source::Span;
use std::collections::{HashMap, HashSet};

/// A function or an action whose body a check follows.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Callee {
    Func(FuncId),
    Action(crate::hir::ActionId),
}

impl<'a> Checker<'a> {
    pub(crate) fn check_program(&mut self) {
        self.check_purity();
        self.check_action_labels();
        self.check_secrets();
        self.check_turn_defaults();
        self.check_round_inputs();
        self.check_creation_cycles();
        self.order_globals();
    }

    /// An attribute initialiser that creates an object whose initialisers (eventually)
    /// create one of the first class again would create objects forever. Only `new`
    /// written directly in initialisers counts: it always runs (a function may decide).
    fn check_creation_cycles(&mut self) {
        let n = self.prog.classes.len();
        // creates[c]: the classes a new `c` creates at once, with where.
        let creates: Vec<Vec<(ClassId, Span, String)>> = (0..n as u32)
            .map(ClassId)
            .map(|c| {
                let mut out = Vec::new();
                for &a in &self.prog.all_attrs(c) {
                    let attr = self.prog.attr(a);
                    if let Some(init) = &attr.init {
                        init.walk(&mut |e| {
                            if let ExprKind::New { class, .. } = &e.kind {
                                out.push((*class, e.span, attr.name.clone()));
                            }
                        });
                    }
                }
                out
            })
            .collect();
        let mut reported: HashSet<ClassId> = HashSet::new();
        for start in (0..n as u32).map(ClassId) {
            if reported.contains(&start) {
                continue;
            }
            // Depth-first search for a path of creations back to `start`.
            let mut path: Vec<(ClassId, Span, String)> = Vec::new();
            let mut seen = HashSet::new();
            if !self.creation_path(start, start, &creates, &mut path, &mut seen) {
                continue;
            }
            let name = |c: ClassId| self.prog.class(c).name.clone();
            let (first_class, first_span, first_attr) = path[0].clone();
            let mut d = Diagnostic::error(
                first_span,
                format!("creating a `{}` creates another `{}`, without end", name(start), name(start)),
            )
            .code(codes::CREATION_CYCLE)
            .label(format!(
                "the attribute `{first_attr}` creates a `{}` whenever a `{}` is created",
                name(first_class),
                name(start)
            ));
            let mut from = first_class;
            for (to, span, attr) in path.iter().skip(1) {
                d = d.secondary(
                    *span,
                    format!("and a `{}` creates a `{}` (attribute `{attr}`)", name(from), name(*to)),
                );
                from = *to;
            }
            for (c, _, _) in &path {
                reported.insert(*c);
            }
            reported.insert(start);
            self.error(d.help(format!(
                "declare the attribute without a value (`{} {first_attr};` starts as null) and create the object in an effect or in `setup`",
                name(first_class)
            )));
        }
    }

    /// Whether creating `from` leads to creating `target`; fills `path` with the steps.
    fn creation_path(
        &self,
        from: ClassId,
        target: ClassId,
        creates: &[Vec<(ClassId, Span, String)>],
        path: &mut Vec<(ClassId, Span, String)>,
        seen: &mut HashSet<ClassId>,
    ) -> bool {
        for (to, span, attr) in &creates[from.index()] {
            path.push((*to, *span, attr.clone()));
            if self.prog.is_subclass(*to, target) {
                return true;
            }
            if seen.insert(*to) && self.creation_path(*to, target, creates, path, seen) {
                return true;
            }
            path.pop();
        }
        false
    }

    /// In a game whose every turn is simultaneous, every action of the menu is chosen in a
    /// round, and takes effect once everyone has chosen: an input it asks then (one not
    /// asked with the menu, or an `input` statement of its effect) would be answered
    /// knowing the others' choices. (Where some turn is not simultaneous, the engine
    /// reports such an input when a round's move asks it.)
    fn check_round_inputs(&mut self) {
        let turns = &self.prog.turns;
        let Some(round) = turns.iter().find_map(|t| t.simultaneous) else { return };
        if turns.iter().any(|t| t.simultaneous.is_none()) {
            return;
        }
        let round_at = self.keyword_before(self.prog.func(round).span, "simultaneous");
        let choice = self.prog.builtins.player_choice;
        let mut found: Vec<(Span, String)> = Vec::new();
        for a in &self.prog.actions {
            if !a.triggers.iter().any(|t| self.prog.is_subclass(choice, t.event)) {
                continue;
            }
            // The menu asks the leading run of single inputs of the mover; a number (from an
            // `in` list), a list or another player's input is asked as the move takes effect.
            let mut leading = true;
            for i in &a.inputs {
                leading &= !i.is_list()
                    && i.ty != crate::hir::Ty::Number
                    && matches!(i.mode, crate::hir::InputMode::Player { target: None });
                if !leading {
                    found.push((i.span, format!("the input `{}` of `{}`", i.name, a.name)));
                }
            }
            a.effect.walk_stmts(&mut |st| {
                if let StmtKind::Input(i) = &st.kind {
                    found.push((st.span, format!("the input `{}` in the effect of `{}`", i.name, a.name)));
                }
            });
        }
        for (span, what) in found {
            self.error(
                Diagnostic::error(span, format!("{what} is asked after a simultaneous round's choices"))
                    .code(codes::SIMULTANEOUS)
                    .label("asked once every player has chosen")
                    .secondary(round_at, "every turn of the game is simultaneous: moves take effect when the round closes")
                    .note("its player would answer knowing what the others chose")
                    .help("make it an object input at the start of the action (chosen with the menu, in secret), or ask it in the turn's `resolve`"),
            );
        }
    }

    /// `turn.pass()` runs the active turn's `default` to find the next player, so a
    /// `default` that passes the turn (itself, or through the functions and actions it
    /// calls) would never end.
    fn check_turn_defaults(&mut self) {
        let mut memo = HashMap::new();
        let defaults: Vec<(String, FuncId)> =
            self.prog.turns.iter().filter_map(|t| t.default.map(|f| (t.name.clone(), f))).collect();
        for (turn, f) in defaults {
            let body = self.prog.func(f).body.clone();
            let Some(found) = self.pass_in(&body, &mut memo, &mut Vec::new()) else { continue };
            let keyword = self.keyword_before(self.prog.func(f).span, "default");
            let mut d =
                Diagnostic::error(found.span, format!("the `default` of the turn `{turn}` passes the turn"))
                    .code(codes::TURN_DEFAULT_PASSES)
                    .label("passes the turn");
            for (site, name) in &found.chain {
                d = d.secondary(*site, format!("called here, through `{name}`"));
            }
            self.error(
                d.secondary(keyword, "`turn.pass()` runs this block to find the next player")
                    .note("passing the turn here would run this block again, forever")
                    .help("return the next player instead (`return turn.active() + 1;`) and pass the turn from an action's effect"),
            );
        }
    }

    /// The first `turn.pass()` reachable from a block, through calls of functions (and
    /// their overrides) and of actions.
    fn pass_in(
        &self,
        block: &Block,
        memo: &mut HashMap<Callee, Option<Impurity>>,
        stack: &mut Vec<Callee>,
    ) -> Option<Impurity> {
        let mut found = None;
        let mut calls: Vec<(Callee, Span, String)> = Vec::new();
        block.walk_exprs(&mut |e| match &e.kind {
            // `turn.pass(p)` names the next player itself; only `turn.pass()` runs `default`.
            ExprKind::Builtin { op: Builtin::TurnPass, args } if args.is_empty() && found.is_none() => {
                found = Some(Impurity {
                    span: e.span,
                    what: "`turn.pass`".into(),
                    label: "passes the turn",
                    chain: Vec::new(),
                });
            }
            ExprKind::Call { func, .. } => {
                calls.push((Callee::Func(*func), e.span, self.prog.func(*func).name.clone()));
                for g in (0..self.prog.funcs.len() as u32).map(FuncId) {
                    if self.overrides_transitively(g, *func) {
                        calls.push((Callee::Func(g), e.span, self.prog.func(g).name.clone()));
                    }
                }
            }
            ExprKind::CallAction { action, .. } => {
                calls.push((Callee::Action(*action), e.span, self.prog.action(*action).name.clone()));
            }
            _ => {}
        });
        if found.is_some() {
            return found;
        }
        for (callee, site, name) in calls {
            if let Some(m) = memo.get(&callee) {
                if let Some(mut imp) = m.clone() {
                    imp.chain.insert(0, (site, name));
                    return Some(imp);
                }
                continue;
            }
            if stack.contains(&callee) {
                continue;
            }
            stack.push(callee);
            let body = match callee {
                Callee::Func(f) => self.prog.func(f).body.clone(),
                Callee::Action(a) => self.prog.action(a).effect.clone(),
            };
            let r = self.pass_in(&body, memo, stack);
            stack.pop();
            memo.insert(callee, r.clone());
            if let Some(mut imp) = r {
                imp.chain.insert(0, (site, name));
                return Some(imp);
            }
        }
        None
    }

    /// Orders global classes and boards so each is created after those its initialisers read.
    fn order_globals(&mut self) {
        let globals: Vec<ClassId> = (0..self.prog.classes.len() as u32)
            .map(ClassId)
            .filter(|&c| {
                let cl = self.prog.class(c);
                !cl.builtin && (cl.visibility == Visibility::Global || cl.kind == ClassKind::Board)
            })
            .collect();
        let deps: Vec<Vec<(ClassId, Span)>> = globals.iter().map(|&g| self.global_deps(g)).collect();
        let mut placed = vec![false; globals.len()];
        let mut order = Vec::new();
        while order.len() < globals.len() {
            let next = (0..globals.len()).find(|&i| {
                !placed[i]
                    && deps[i].iter().all(|(d, _)| {
                        *d == globals[i] || globals.iter().position(|g| g == d).is_none_or(|j| placed[j])
                    })
            });
            match next {
                Some(i) => {
                    placed[i] = true;
                    order.push(globals[i]);
                }
                None => {
                    let stuck = |c: ClassId| globals.iter().position(|&g| g == c).is_some_and(|j| !placed[j]);
                    // Walk from the first stuck global along stuck dependencies to a cycle.
                    let start = (0..globals.len()).find(|&i| !placed[i]).unwrap_or(0);
                    let mut path: Vec<(usize, ClassId, Span)> = Vec::new();
                    let mut cur = start;
                    while let Some(&(next, at)) =
                        deps[cur].iter().find(|(d, _)| *d != globals[cur] && stuck(*d))
                    {
                        if let Some(k) = path.iter().position(|(i, _, _)| *i == cur) {
                            path.drain(..k);
                            break;
                        }
                        path.push((cur, next, at));
                        cur = globals.iter().position(|&g| g == next).unwrap_or(cur);
                    }
                    let name = |c: ClassId| self.prog.class(c).name.clone();
                    let cycle: Vec<String> = path
                        .iter()
                        .map(|(i, _, _)| format!("`{}`", name(globals[*i])))
                        .chain(path.first().map(|(i, _, _)| format!("`{}`", name(globals[*i]))))
                        .collect();
                    let mut d = match path.first() {
                        Some(&(i, next, at)) => Diagnostic::error(
                            at,
                            format!(
                                "global classes read each other while they are created: {}",
                                cycle.join(" → ")
                            ),
                        )
                        .label(format!(
                            "`{}` reads `{}` here while it is created",
                            name(globals[i]),
                            name(next)
                        )),
                        None => Diagnostic::error(
                            self.prog.class(globals[start]).span,
                            "global classes read each other while they are created",
                        ),
                    }
                    .code(codes::CYCLE);
                    for &(i, next, at) in path.iter().skip(1) {
                        d = d.secondary(at, format!("`{}` reads `{}` here", name(globals[i]), name(next)));
                    }
                    self.error(
                        d.note("global classes and boards are created before `setup`, each after the globals its attribute initialisers read")
                            .help("break the cycle: give one of these attributes a plain value and set it in `setup`"),
                    );
                    for (i, p) in placed.iter_mut().enumerate() {
                        if !*p {
                            *p = true;
                            order.push(globals[i]);
                        }
                    }
                }
            }
        }
        self.prog.globals = order;
    }

    /// Globals read while creating `g` — by its attribute initialisers and group defaults,
    /// and by the functions and deck defaults they reach — each with where `g`'s own code
    /// reads it (the read itself, or the call or `new` in an initialiser that leads to it).
    fn global_deps(&self, g: ClassId) -> Vec<(ClassId, Span)> {
        let mut out: Vec<(ClassId, Span)> = Vec::new();
        let mut seen_funcs = HashSet::new();
        // Expressions to scan, each with the span to report (`None`: the read itself).
        let mut work: Vec<(Expr, Option<Span>)> = self
            .prog
            .all_attrs(g)
            .iter()
            .filter_map(|&a| self.prog.attr(a).init.clone())
            .map(|e| (e, None))
            .collect();
        let mut funcs: Vec<(FuncId, Span)> =
            self.prog.class(g).groups.iter().filter_map(|gr| gr.default.map(|f| (f, gr.span))).collect();
        loop {
            while let Some((e, origin)) = work.pop() {
                let mut more = Vec::new();
                e.walk(&mut |x| match &x.kind {
                    ExprKind::Global(c) | ExprKind::BoardGroup { board: c, .. }
                        if !out.iter().any(|(d, _)| d == c) =>
                    {
                        out.push((*c, origin.unwrap_or(x.span)));
                    }
                    ExprKind::Call { func, .. } => funcs.push((*func, origin.unwrap_or(x.span))),
                    ExprKind::New { class, .. } => {
                        // Creating an object runs its attribute initialisers and `default`.
                        let at = origin.unwrap_or(x.span);
                        funcs.extend(self.prog.class(*class).default.map(|f| (f, at)));
                        more.extend(
                            self.prog
                                .all_attrs(*class)
                                .iter()
                                .filter_map(|&a| self.prog.attr(a).init.clone())
                                .map(|e| (e, Some(at))),
                        );
                    }
                    _ => {}
                });
                work.extend(more);
            }
            let Some((f, at)) = funcs.pop() else { break };
            if seen_funcs.insert(f) {
                self.prog.func(f).body.walk_exprs(&mut |x| work.push((x.clone(), Some(at))));
            }
        }
        out
    }
}
