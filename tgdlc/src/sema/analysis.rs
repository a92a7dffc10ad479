//! Whole-program checks on the typed program: purity of triggers, requires and filters
//! (through the functions they call), and the creation order of global classes.

use super::Checker;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{
    Block, Builtin, ClassId, ClassKind, Expr, ExprKind, FuncId, InputMode, LocalId, StmtKind, Visibility,
};
use crate::source::Span;
use std::collections::{HashMap, HashSet};

/// The first state change found in a function, and the calls that lead to it.
#[derive(Clone)]
struct Impurity {
    span: Span,
    what: String,
    /// Call sites from the pure block down to the function holding `span`.
    chain: Vec<(Span, String)>,
}

impl<'a> Checker<'a> {
    pub(crate) fn check_program(&mut self) {
        self.check_purity();
        self.order_globals();
    }

    fn check_purity(&mut self) {
        let mut memo: HashMap<FuncId, Option<Impurity>> = HashMap::new();
        let mut roots: Vec<(Block, &'static str, Vec<Expr>)> = Vec::new();
        for a in &self.prog.actions {
            for t in &a.triggers {
                if let Some(b) = &t.body {
                    roots.push((b.clone(), "trigger", Vec::new()));
                }
            }
            for r in &a.requires {
                roots.push((r.clone(), "require", Vec::new()));
            }
            for i in &a.inputs {
                for f in &i.filters {
                    roots.push((f.body.clone(), "filter", Vec::new()));
                }
                if let InputMode::Player { target: Some(t) } = &i.mode {
                    roots.push((Block::default(), "input target", vec![t.clone()]));
                }
            }
        }
        let mut inner_filters = Vec::new();
        let mut collect = |b: &Block| {
            b.walk_stmts(&mut |s| {
                if let StmtKind::Input(i) = &s.kind {
                    for f in &i.filters {
                        inner_filters.push(f.body.clone());
                    }
                }
            })
        };
        for f in &self.prog.funcs {
            for i in &f.inputs {
                for fl in &i.filters {
                    roots.push((fl.body.clone(), "filter", Vec::new()));
                }
            }
            collect(&f.body);
        }
        for a in &self.prog.actions {
            collect(&a.effect);
        }
        collect(&self.prog.setup.body);
        roots.extend(inner_filters.into_iter().map(|b| (b, "filter", Vec::new())));

        let mut reported = HashSet::new();
        for (block, what, exprs) in roots {
            let found = self.impurity_in(&block, &exprs, &mut memo, &mut Vec::new());
            if let Some(imp) = found {
                if !reported.insert(imp.span) {
                    continue;
                }
                let mut d = Diagnostic::error(imp.span, format!("{} in a {what} block", imp.what))
                    .code(codes::IMPURE)
                    .label("changes the state of the game");
                for (site, name) in &imp.chain {
                    d = d.secondary(*site, format!("called here, through `{name}`"));
                }
                d = d.help(format!(
                    "a {what} is evaluated speculatively while menus are built: it may only read the state and return a value"
                ));
                self.error(d);
            }
        }
    }

    /// The first state change reachable from a block (and extra expressions).
    fn impurity_in(
        &self,
        block: &Block,
        exprs: &[Expr],
        memo: &mut HashMap<FuncId, Option<Impurity>>,
        stack: &mut Vec<FuncId>,
    ) -> Option<Impurity> {
        let fresh = fresh_locals(block);
        let mut found: Option<Impurity> = None;
        let mut calls: Vec<(FuncId, Span)> = Vec::new();
        let note = |span: Span, what: String, found: &mut Option<Impurity>| {
            if found.is_none() {
                *found = Some(Impurity { span, what, chain: Vec::new() });
            }
        };
        block.walk_stmts(&mut |s| match &s.kind {
            StmtKind::Winner(_) => note(s.span, "`winner`".into(), &mut found),
            StmtKind::Throw(_) => note(s.span, "`throw`".into(), &mut found),
            StmtKind::Input(_) => note(s.span, "an `input`".into(), &mut found),
            _ => {}
        });
        let mut visit = |e: &Expr| {
            if let Some(what) = self.impure_expr(e, &fresh) {
                note(e.span, what, &mut found);
            }
            if let ExprKind::Call { func, .. } = &e.kind {
                calls.push((*func, e.span));
            }
        };
        block.walk_exprs(&mut visit);
        for e in exprs {
            e.walk(&mut visit);
        }
        if found.is_some() {
            return found;
        }
        for (f, site) in calls {
            // Virtual calls may reach any override.
            let mut targets = vec![f];
            targets.extend(
                (0..self.prog.funcs.len() as u32).map(FuncId).filter(|&g| self.overrides_transitively(g, f)),
            );
            for t in targets {
                if let Some(mut imp) = self.func_impurity(t, memo, stack) {
                    imp.chain.insert(0, (site, self.prog.func(t).name.clone()));
                    return Some(imp);
                }
            }
        }
        None
    }

    fn overrides_transitively(&self, g: FuncId, base: FuncId) -> bool {
        let mut cur = self.prog.func(g).overrides;
        while let Some(o) = cur {
            if o == base {
                return true;
            }
            cur = self.prog.func(o).overrides;
        }
        false
    }

    fn func_impurity(
        &self,
        f: FuncId,
        memo: &mut HashMap<FuncId, Option<Impurity>>,
        stack: &mut Vec<FuncId>,
    ) -> Option<Impurity> {
        if let Some(m) = memo.get(&f) {
            return m.clone();
        }
        if stack.contains(&f) {
            return None; // recursion: the cycle's other members are checked on their own
        }
        stack.push(f);
        let func = self.prog.func(f);
        let mut r = self.impurity_in(&func.body, &[], memo, stack);
        if r.is_none() {
            // A player or auto input inside a function asks during the call.
            if let Some(i) = func.inputs.iter().find(|i| !matches!(i.mode, InputMode::Function { .. })) {
                if !matches!(i.mode, InputMode::Auto) {
                    r = Some(Impurity {
                        span: i.span,
                        what: "an input asked of a player".into(),
                        chain: Vec::new(),
                    });
                }
            }
        }
        stack.pop();
        memo.insert(f, r.clone());
        r
    }

    /// What state change an expression makes by itself, if any.
    fn impure_expr(&self, e: &Expr, fresh: &HashSet<LocalId>) -> Option<String> {
        let local_receiver = |args: &[Expr]| matches!(args.first(), Some(Expr { kind: ExprKind::Local(l), .. }) if fresh.contains(l));
        match &e.kind {
            ExprKind::Assign { target, .. } => match &target.kind {
                ExprKind::Local(_) => None,
                ExprKind::Index { object, .. } if matches!(&object.kind, ExprKind::Local(l) if fresh.contains(l)) => {
                    None
                }
                ExprKind::Attr { attr, .. } => {
                    Some(format!("assigning the attribute `{}`", self.prog.attr(*attr).name))
                }
                _ => Some("assigning an element of a shared collection".into()),
            },
            ExprKind::New { class, .. } => {
                Some(format!("creating a `{}` (a new candidate for inputs)", self.prog.class(*class).name))
            }
            ExprKind::CallAction { action, .. } => {
                Some(format!("running the action `{}`", self.prog.action(*action).name))
            }
            ExprKind::Builtin { op, args } => {
                use Builtin::*;
                let what = match op {
                    TurnPass => "`turn.pass`",
                    PhaseSet => "`turn.phase.set`",
                    TurnsUse => "`turns.use`",
                    Roll => "`roll` (draws a random number)",
                    Random => "`random` (draws a random number)",
                    Log => "`log`",
                    Assign => "`assign`",
                    MoveTo => "`move_to`",
                    Discard => "`discard`",
                    GroupAdd => "`add`",
                    Connect => "`connect`",
                    ListShuffle | StackShuffle | DeckReshuffle => "shuffling (draws random numbers)",
                    ListPush | ListAppend | ListClear | ListRemove | ListRemoveAt | TableClear
                    | StackPush | StackPushFront | StackPop | StackPopFront | StackClear
                        if !local_receiver(args) =>
                    {
                        "changing a shared collection"
                    }
                    _ => return None,
                };
                Some(what.to_string())
            }
            _ => None,
        }
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
        let deps: Vec<Vec<ClassId>> = globals.iter().map(|&g| self.global_deps(g)).collect();
        let mut placed = vec![false; globals.len()];
        let mut order = Vec::new();
        while order.len() < globals.len() {
            let next = (0..globals.len()).find(|&i| {
                !placed[i]
                    && deps[i].iter().all(|d| {
                        *d == globals[i] || globals.iter().position(|g| g == d).is_none_or(|j| placed[j])
                    })
            });
            match next {
                Some(i) => {
                    placed[i] = true;
                    order.push(globals[i]);
                }
                None => {
                    let stuck: Vec<ClassId> =
                        (0..globals.len()).filter(|&i| !placed[i]).map(|i| globals[i]).collect();
                    let names: Vec<String> =
                        stuck.iter().map(|&c| format!("`{}`", self.prog.class(c).name)).collect();
                    let first = stuck[0];
                    let mut d = Diagnostic::error(
                        self.prog.class(first).span,
                        "global classes read each other while they are created",
                    )
                    .code(codes::CYCLE)
                    .note(format!("in the cycle: {}", names.join(", ")))
                    .help("initialise one of these attributes in `setup` instead");
                    for &c in &stuck[1..] {
                        d = d.secondary(self.prog.class(c).span, "part of the cycle");
                    }
                    self.error(d);
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

    /// Globals read while creating `g`: by its attribute initialisers and group defaults,
    /// and by the functions and deck defaults they reach.
    fn global_deps(&self, g: ClassId) -> Vec<ClassId> {
        let mut out = Vec::new();
        let mut seen_funcs = HashSet::new();
        let mut work: Vec<Expr> =
            self.prog.all_attrs(g).iter().filter_map(|&a| self.prog.attr(a).init.clone()).collect();
        let mut funcs: Vec<FuncId> = self.prog.class(g).groups.iter().filter_map(|gr| gr.default).collect();
        loop {
            while let Some(e) = work.pop() {
                let mut more = Vec::new();
                e.walk(&mut |x| match &x.kind {
                    ExprKind::Global(c) | ExprKind::BoardGroup { board: c, .. } if !out.contains(c) => {
                        out.push(*c)
                    }
                    ExprKind::Call { func, .. } => funcs.push(*func),
                    ExprKind::New { class, .. } => {
                        // Creating an object runs its attribute initialisers and `default`.
                        funcs.extend(self.prog.class(*class).default);
                        more.extend(
                            self.prog
                                .all_attrs(*class)
                                .iter()
                                .filter_map(|&a| self.prog.attr(a).init.clone()),
                        );
                    }
                    _ => {}
                });
                work.extend(more);
            }
            let Some(f) = funcs.pop() else { break };
            if seen_funcs.insert(f) {
                self.prog.func(f).body.walk_exprs(&mut |x| work.push(x.clone()));
            }
        }
        out
    }
}

/// Locals of a pure block that hold collections it created itself (so changing them
/// changes nothing shared).
fn fresh_locals(block: &Block) -> HashSet<LocalId> {
    let mut fresh = HashSet::new();
    let mut spoiled = HashSet::new();
    let is_fresh = |e: &Expr| {
        matches!(
            &e.kind,
            ExprKind::ListLit(_)
                | ExprKind::StackLit(_)
                | ExprKind::TableLit(_)
                | ExprKind::Builtin {
                    op: Builtin::ListCopy | Builtin::StackClone | Builtin::TableCopy | Builtin::PlayerAll,
                    ..
                }
        )
    };
    block.walk_stmts(&mut |s| {
        if let StmtKind::Let { local, init: Some(e) } = &s.kind {
            if is_fresh(e) {
                fresh.insert(*local);
            }
        }
    });
    block.walk_exprs(&mut |e| {
        if let ExprKind::Assign { target, value } = &e.kind {
            if let ExprKind::Local(l) = &target.kind {
                if !is_fresh(value) {
                    spoiled.insert(*l);
                }
            }
        }
    });
    fresh.retain(|l| !spoiled.contains(l));
    fresh
}
