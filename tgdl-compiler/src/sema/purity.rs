//! Purity: triggers, requires, filters and input targets (and every function they call)
//! must only read the game, since menus evaluate them speculatively (notes, "Actions,
//! inputs, events"). Each violation is reported with the chain of calls that reaches it.

use super::Checker;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::hir::{Block, Builtin, Expr, ExprKind, FuncId, InputMode, LocalId, StmtKind};
use crate::source::Span;
use std::collections::{HashMap, HashSet};

/// The first state change found in a function, and the calls that lead to it.
#[derive(Clone)]
pub(crate) struct Impurity {
    pub(crate) span: Span,
    pub(crate) what: String,
    /// What it does, under the caret.
    pub(crate) label: &'static str,
    /// Call sites from the pure block down to the function holding `span`.
    pub(crate) chain: Vec<(Span, String)>,
}

/// What an input's `in` list is called in purity diagnostics.
const DOMAIN: &str = "an input's `in` list";

impl<'a> Checker<'a> {
    pub(crate) fn check_purity(&mut self) {
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
                if let Some(d) = &i.domain {
                    roots.push((Block::default(), DOMAIN, vec![d.clone()]));
                }
                if let InputMode::Player { target: Some(t) } = &i.mode {
                    roots.push((Block::default(), "input target", vec![t.clone()]));
                }
            }
        }
        let mut inner_filters = Vec::new();
        let mut inner_domains = Vec::new();
        let mut collect = |b: &Block| {
            b.walk_stmts(&mut |s| {
                if let StmtKind::Input(i) = &s.kind {
                    for f in &i.filters {
                        inner_filters.push(f.body.clone());
                    }
                    inner_domains.extend(i.domain.clone());
                }
            })
        };
        for f in &self.prog.funcs {
            if f.kind == crate::hir::FuncKind::TurnSimultaneous {
                roots.push((f.body.clone(), "simultaneous", Vec::new()));
            }
            for i in &f.inputs {
                for fl in &i.filters {
                    roots.push((fl.body.clone(), "filter", Vec::new()));
                }
                if let Some(d) = &i.domain {
                    roots.push((Block::default(), DOMAIN, vec![d.clone()]));
                }
            }
            collect(&f.body);
        }
        for a in &self.prog.actions {
            collect(&a.effect);
        }
        collect(&self.prog.setup.body);
        roots.extend(inner_filters.into_iter().map(|b| (b, "filter", Vec::new())));
        roots.extend(inner_domains.into_iter().map(|d| (Block::default(), DOMAIN, vec![d])));

        let mut reported = HashSet::new();
        for (block, what, exprs) in roots {
            let found = self.impurity_in(&block, &exprs, &mut memo, &mut Vec::new());
            if let Some(imp) = found {
                if !reported.insert(imp.span) {
                    continue;
                }
                // An input's `in` list is an expression, not a block.
                let place = if what == DOMAIN { what.to_string() } else { format!("a {what} block") };
                let mut d = Diagnostic::error(imp.span, format!("{} in {place}", imp.what))
                    .code(codes::IMPURE)
                    .label(imp.label);
                for (site, name) in &imp.chain {
                    d = d.secondary(*site, format!("called here, through `{name}`"));
                }
                d = d.help(match what {
                    DOMAIN => format!("{what} is evaluated speculatively while menus are built: it may only read the state and return a value"),
                    "simultaneous" => "a turn's `simultaneous` block is evaluated to build the round's menus: it may only read the state and return the players".to_string(),
                    _ => format!("a {what} is evaluated speculatively while menus are built: it may only read the state and return a value"),
                });
                self.error(d);
            }
        }
    }

    /// The first state change reachable from a block (and extra expressions).
    pub(crate) fn impurity_in(
        &self,
        block: &Block,
        exprs: &[Expr],
        memo: &mut HashMap<FuncId, Option<Impurity>>,
        stack: &mut Vec<FuncId>,
    ) -> Option<Impurity> {
        let fresh = fresh_locals(block);
        let mut found: Option<Impurity> = None;
        let mut calls: Vec<(FuncId, Span)> = Vec::new();
        let note = |span: Span, (what, label): (String, &'static str), found: &mut Option<Impurity>| {
            if found.is_none() {
                *found = Some(Impurity { span, what, label, chain: Vec::new() });
            }
        };
        block.walk_stmts(&mut |s| match &s.kind {
            StmtKind::Winner(_) => note(s.span, ("`winner`".into(), "ends the game"), &mut found),
            StmtKind::Payoffs { .. } => note(s.span, ("`payoffs`".into(), "ends the game"), &mut found),
            StmtKind::Team { .. } => note(s.span, ("`winners`".into(), "ends the game"), &mut found),
            StmtKind::Throw(_) => note(s.span, ("`throw`".into(), "throws an event"), &mut found),
            StmtKind::Input(_) => note(s.span, ("an `input`".into(), "asks a player"), &mut found),
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

    pub(crate) fn overrides_transitively(&self, g: FuncId, base: FuncId) -> bool {
        let mut cur = self.prog.func(g).overrides;
        while let Some(o) = cur {
            if o == base {
                return true;
            }
            cur = self.prog.func(o).overrides;
        }
        false
    }

    pub(crate) fn func_impurity(
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
                        label: "asks a player when the function is called",
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
    pub(crate) fn impure_expr(&self, e: &Expr, fresh: &HashSet<LocalId>) -> Option<(String, &'static str)> {
        const CHANGES: &str = "changes the state of the game";
        let local_receiver = |args: &[Expr]| matches!(args.first(), Some(Expr { kind: ExprKind::Local(l), .. }) if fresh.contains(l));
        match &e.kind {
            ExprKind::Assign { target, .. } => match &target.kind {
                ExprKind::Local(_) => None,
                ExprKind::Index { object, .. } if matches!(&object.kind, ExprKind::Local(l) if fresh.contains(l)) => {
                    None
                }
                ExprKind::Attr { attr, .. } => {
                    Some((format!("assigning the attribute `{}`", self.prog.attr(*attr).name), CHANGES))
                }
                _ => Some(("assigning an element of a shared collection".into(), CHANGES)),
            },
            ExprKind::New { class, .. } => Some((
                format!("creating a `{}` (a new candidate for inputs)", self.prog.class(*class).name),
                "creates an object",
            )),
            ExprKind::CallAction { action, .. } => {
                Some((format!("running the action `{}`", self.prog.action(*action).name), "runs an action"))
            }
            ExprKind::Builtin { op, args } => {
                use Builtin::*;
                const DRAWS: &str = "draws from the game's random generator";
                let what = match op {
                    TurnPass => ("`turn.pass`", "passes the turn"),
                    PhaseSet => ("`turn.phase.set`", "changes the phase"),
                    TurnsUse => ("`turns.use`", "changes the turn order"),
                    Roll => ("`roll` (draws a random number)", DRAWS),
                    Random => ("`random` (draws a random number)", DRAWS),
                    Log => ("`log`", "writes to the game's log"),
                    Tell => ("`tell`", "writes to the game's log"),
                    Assign => ("`assign`", "changes an owner"),
                    MoveTo => ("`move_to`", "moves a piece"),
                    RemoveFromBoard => ("`remove_from_board`", "moves a piece"),
                    Reveal => ("`reveal`", "turns a piece face up"),
                    Disclose(_) => ("`disclose`", "shows what a piece is to everyone"),
                    Discard => ("`discard`", "discards an object"),
                    GroupAdd => ("`add`", "adds a tile"),
                    Connect => ("`connect`", "connects tiles"),
                    ListShuffle | StackShuffle | DeckReshuffle => ("shuffling (draws random numbers)", DRAWS),
                    // The top (or bottom) card of a shuffled deck is drawn by chance the first
                    // time it is looked at.
                    StackPeek | StackPeekFront if self.closed_deck(args) => {
                        ("looking at a card of a closed deck (a shuffled deck deals it by chance)", DRAWS)
                    }
                    ListPush | ListAppend | ListClear | ListRemove | ListRemoveAt | TableClear
                    | StackPush | StackPushFront | StackPop | StackPopFront | StackClear
                        if !local_receiver(args) =>
                    {
                        ("changing a shared collection", CHANGES)
                    }
                    _ => return None,
                };
                Some((what.0.to_string(), what.1))
            }
            _ => None,
        }
    }
}

impl Checker<'_> {
    /// Whether a built-in's receiver is a closed deck (a `stack` definition not declared
    /// `open`), whose shuffled cards are dealt by chance.
    fn closed_deck(&self, args: &[Expr]) -> bool {
        matches!(args.first().map(|a| &a.ty), Some(crate::hir::Ty::Class(c))
            if self.prog.class(*c).kind == crate::hir::ClassKind::Deck && !self.prog.class(*c).open)
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
                    op: Builtin::ListCopy
                        | Builtin::ListCast
                        | Builtin::TableKeys
                        | Builtin::StackClone
                        | Builtin::TableCopy
                        | Builtin::PlayerAll,
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
