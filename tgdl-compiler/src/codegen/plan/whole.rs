//! Whole numbers: number locals and function inputs that only ever hold small whole
//! values are `i64` in Rust instead of `f64`.
//!
//! TGDL numbers are doubles, and board coordinates are numbers: with doubles,
//! `G.at(t.x + dx, t.y + dy)` converts two doubles to integers on every lookup (Rust's
//! saturating `as`, a dozen instructions). A whole-program fixpoint bounds the values
//! of every number slot (a local, or a function input with all its call sites) built
//! only from whole literals, tile coordinates, other such slots, `+`, `-` and `*`. A slot
//! whose bounds stay within ±2^52 is whole: there, doubles are exact, so integer
//! arithmetic gives the very same values, and since no such value is ever −0 (no
//! product of zero and a negative, no negated zero) nothing observable changes. Tile
//! coordinates are stored as integers for the same reason. A `number` function whose
//! every `return` is such a value (Breakthrough's `forward`, ±1) returns an `i64` too:
//! its family of overrides is one slot, fed by every `return` of every member.

use super::repr::{Nullability, Owner};
use crate::hir::{
    ActionId, BinaryOp, Block, BuiltinAttr, Expr, ExprKind, FuncId, Input, InputMode, LocalId, Locals,
    Program, Stmt, StmtKind, Ty, UnaryOp,
};
use std::collections::{HashMap, HashSet};

/// Bounds beyond which a slot stays a double: doubles are exact up to 2^53.
const LIMIT: i64 = 1 << 52;
/// Bounds of tile coordinates: a position in a grid or a graph (arena handles are `u32`).
const COORDINATE_MAX: i64 = 1 << 32;
/// A slot whose bounds grew this many times is a counter: it stays a double.
const WIDENINGS: u32 = 4;

/// Inclusive bounds of a whole value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub lo: i64,
    pub hi: i64,
}

impl Range {
    fn point(n: i64) -> Range {
        Range { lo: n, hi: n }
    }

    fn join(self, o: Range) -> Range {
        Range { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi) }
    }

    fn contains_zero(self) -> bool {
        self.lo <= 0 && 0 <= self.hi
    }

    /// `None` when a bound leaves ±2^52.
    fn checked(lo: i128, hi: i128) -> Option<Range> {
        let limit = LIMIT as i128;
        (lo >= -limit && hi <= limit).then_some(Range { lo: lo as i64, hi: hi as i64 })
    }
}

/// What is known of a slot's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Values {
    /// No value has reached it yet (during the fixpoint).
    None,
    Whole(Range, u32),
    /// A double: some value is not known to be a small whole number.
    Number,
}

type Slot = (Owner, LocalId);

pub struct WholeNumbers {
    /// Whether the analysis ran: when it did not, nothing is whole.
    enabled: bool,
    slots: HashMap<Slot, Values>,
    /// What the functions of a family (by its root: overrides return through it) return,
    /// for `number` functions that never return null.
    returns: HashMap<FuncId, Values>,
}

impl WholeNumbers {
    pub fn analyze(prog: &Program, null: &Nullability) -> WholeNumbers {
        let mut w = WholeNumbers { enabled: true, slots: HashMap::new(), returns: HashMap::new() };
        for (i, f) in prog.funcs.iter().enumerate() {
            let id = FuncId(i as u32);
            if f.ret == Ty::Number && !null.ret(id) {
                w.returns.insert(null.func_family(id), Values::None);
            }
        }
        let mut excluded = HashSet::new();
        let bodies = bodies(prog);
        for b in &bodies {
            for (i, v) in b.locals.vars.iter().enumerate() {
                let l = LocalId(i as u32);
                if v.ty == Ty::Number && !null.local(prog, b.owner, l) {
                    w.slots.insert((null.local_owner(prog, b.owner, l), l), Values::None);
                }
            }
        }
        // Locals set by anything but a declaration, an assignment or a call stay doubles.
        for b in &bodies {
            let owner = b.owner;
            for i in b.inputs {
                if !matches!(i.mode, InputMode::Function { .. }) {
                    excluded.insert((null.local_owner(prog, owner, i.local), i.local));
                }
                for f in &i.filters {
                    excluded.insert((owner, f.binder));
                }
            }
            for block in &b.blocks {
                block.walk_stmts(&mut |s| match &s.kind {
                    StmtKind::ForIn { local, .. } => {
                        excluded.insert((owner, *local));
                    }
                    StmtKind::Input(i) => {
                        excluded.insert((owner, i.local));
                        for f in &i.filters {
                            excluded.insert((owner, f.binder));
                        }
                    }
                    _ => {}
                });
            }
        }
        for slot in excluded {
            w.slots.insert(slot, Values::Number);
        }
        // A function input with a default may take it.
        for (i, f) in prog.funcs.iter().enumerate() {
            let owner = null.local_owner(prog, Owner::Func(FuncId(i as u32)), LocalId(0));
            for input in &f.inputs {
                if let InputMode::Function { default: Some(d) } = &input.mode {
                    let r = w.range(prog, null, Owner::Setup, d);
                    w.flow((owner, input.local), r);
                }
            }
        }
        loop {
            let before = (w.slots.clone(), w.returns.clone());
            w.pass(prog, null, &bodies);
            if w.slots == before.0 && w.returns == before.1 {
                break;
            }
        }
        w
    }

    /// No whole numbers: every number is a double.
    pub fn none() -> WholeNumbers {
        WholeNumbers { enabled: false, slots: HashMap::new(), returns: HashMap::new() }
    }

    /// Whether a function (with its family) returns an `i64`.
    pub fn ret(&self, null: &Nullability, f: FuncId) -> bool {
        matches!(self.returns.get(&null.func_family(f)), Some(Values::None | Values::Whole(..)))
    }

    /// Whether a local is stored as an `i64`.
    pub fn local(&self, prog: &Program, null: &Nullability, owner: Owner, l: LocalId) -> bool {
        matches!(
            self.slots.get(&(null.local_owner(prog, owner, l), l)),
            Some(Values::None | Values::Whole(..))
        )
    }

    /// The bounds of an expression whose value is a small whole number computed as an
    /// `i64` (see the module comment), `None` when it is a double.
    pub fn range(&self, prog: &Program, null: &Nullability, owner: Owner, e: &Expr) -> Option<Range> {
        if !self.enabled {
            return None;
        }
        self.range_in(prog, null, owner, e, None)
    }

    /// [`WholeNumbers::range`], with one slot known to lie in a narrower range (a loop
    /// counter where the loop's condition holds).
    fn range_in(
        &self,
        prog: &Program,
        null: &Nullability,
        owner: Owner,
        e: &Expr,
        narrow: Option<(Slot, Range)>,
    ) -> Option<Range> {
        let range = |e: &Expr| self.range_in(prog, null, owner, e, narrow);
        match &e.kind {
            ExprKind::Number(n) => {
                let whole =
                    n.fract() == 0.0 && n.abs() <= LIMIT as f64 && !(*n == 0.0 && n.is_sign_negative());
                whole.then(|| Range::point(*n as i64))
            }
            ExprKind::Local(l)
                if narrow.is_some_and(|(s, _)| s == (null.local_owner(prog, owner, *l), *l)) =>
            {
                narrow.map(|(_, r)| r)
            }
            ExprKind::Local(l) => match self.slots.get(&(null.local_owner(prog, owner, *l), *l)) {
                Some(Values::Whole(r, _)) => Some(*r),
                // No value yet: an empty range would do; the join ignores it.
                Some(Values::None) => Some(Range { lo: 0, hi: 0 }),
                _ => None,
            },
            ExprKind::Attr { attr, .. } => {
                matches!(prog.attr(*attr).builtin, Some(BuiltinAttr::X | BuiltinAttr::Y))
                    .then_some(Range { lo: 0, hi: COORDINATE_MAX })
            }
            ExprKind::Call { func, .. } => match self.returns.get(&null.func_family(*func)) {
                Some(Values::Whole(r, _)) => Some(*r),
                Some(Values::None) => Some(Range { lo: 0, hi: 0 }),
                _ => None,
            },
            ExprKind::Unary { op: UnaryOp::Neg, operand } if operand.ty == Ty::Number => {
                let r = range(operand)?;
                // −0 is not whole here: it prints and divides differently from 0.
                (!r.contains_zero()).then_some(Range { lo: -r.hi, hi: -r.lo })
            }
            ExprKind::Binary { op, lhs, rhs } if lhs.ty == Ty::Number && rhs.ty == Ty::Number => {
                let a = range(lhs)?;
                let b = range(rhs)?;
                let (alo, ahi, blo, bhi) = (a.lo as i128, a.hi as i128, b.lo as i128, b.hi as i128);
                match op {
                    BinaryOp::Add => Range::checked(alo + blo, ahi + bhi),
                    BinaryOp::Sub => Range::checked(alo - bhi, ahi - blo),
                    // 0 × −n is −0: only products where a zero never meets a negative.
                    BinaryOp::Mul
                        if (!a.contains_zero() || b.lo >= 0) && (!b.contains_zero() || a.lo >= 0) =>
                    {
                        let c = [alo * blo, alo * bhi, ahi * blo, ahi * bhi];
                        Range::checked(*c.iter().min()?, *c.iter().max()?)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A value of bounds `r` (`None`: a double) reaches `slot`.
    fn flow(&mut self, slot: Slot, r: Option<Range>) {
        let Some(v) = self.slots.get(&slot).copied() else { return };
        self.slots.insert(slot, joined(v, r));
    }

    /// A value of bounds `r` is returned by a function of family `f`.
    fn flow_return(&mut self, f: FuncId, r: Option<Range>) {
        let Some(v) = self.returns.get(&f).copied() else { return };
        self.returns.insert(f, joined(v, r));
    }

    fn pass(&mut self, prog: &Program, null: &Nullability, bodies: &[Body]) {
        let mut flows: Vec<(Slot, Option<Range>)> = Vec::new();
        let mut returns: Vec<(FuncId, Option<Range>)> = Vec::new();
        let w = &*self;
        // What each function returns. (A `return` in the filter of an input statement
        // answers the filter: a `bool`, which leaves the function's result a double, on
        // the safe side.)
        for (i, f) in prog.funcs.iter().enumerate() {
            let id = FuncId(i as u32);
            let family = null.func_family(id);
            if !w.returns.contains_key(&family) {
                continue;
            }
            let owner = Owner::Func(id);
            f.body.walk_stmts(&mut |s| {
                if let StmtKind::Return(value) = &s.kind {
                    returns.push((family, value.as_ref().and_then(|e| w.range(prog, null, owner, e))));
                }
            });
        }
        for b in bodies {
            for block in &b.blocks {
                w.block(prog, null, b.owner, block, &mut flows);
            }
            for i in b.inputs {
                if let InputMode::Player { target: Some(t) } = &i.mode {
                    t.walk(&mut |e| w.flows_in(prog, null, b.owner, e, &mut flows));
                }
                if let Some(d) = &i.domain {
                    d.walk(&mut |e| w.flows_in(prog, null, b.owner, e, &mut flows));
                }
            }
        }
        for a in &prog.attrs {
            if let Some(e) = &a.init {
                e.walk(&mut |x| w.flows_in(prog, null, Owner::Setup, x, &mut flows));
            }
        }
        for (slot, r) in flows {
            self.flow(slot, r);
        }
        for (f, r) in returns {
            self.flow_return(f, r);
        }
    }

    /// Values reaching slots in a block: declarations, assignments, calls.
    fn block(
        &self,
        prog: &Program,
        null: &Nullability,
        owner: Owner,
        b: &Block,
        out: &mut Vec<(Slot, Option<Range>)>,
    ) {
        // Counter steps, evaluated where the loop's condition holds (see `counter_step`),
        // named by their place in the walk of the block's statements.
        let mut steps: HashSet<usize> = HashSet::new();
        let mut place = 0;
        b.walk_stmts(&mut |s| {
            let here = place;
            place += 1;
            match &s.kind {
                StmtKind::Let { local, init: Some(e) } => {
                    out.push((
                        (null.local_owner(prog, owner, *local), *local),
                        self.range(prog, null, owner, e),
                    ));
                }
                StmtKind::For { init, cond: Some(cond), step, body }
                    if let [Stmt { kind: StmtKind::Expr(step), .. }] = step.stmts.as_slice() =>
                {
                    if let Some(flow) = self.counter_step(prog, null, owner, cond, step, body, true) {
                        // The walk visits the `for`, its `init`, its body, then its step.
                        steps.insert(here + 1 + statements(init) + statements(body));
                        out.extend(flow);
                    }
                }
                StmtKind::While { cond, body } => {
                    // The counter's one assignment, a statement of the body itself: the
                    // condition still holds there.
                    let mut at = here + 1;
                    for st in &body.stmts {
                        if let StmtKind::Expr(step) = &st.kind
                            && let ExprKind::Assign { target, .. } = &step.kind
                            && let ExprKind::Local(l) = target.kind
                            && assignments(body, l) == 1
                            && let Some(flow) = self.counter_step(prog, null, owner, cond, step, body, false)
                        {
                            steps.insert(at);
                            out.extend(flow);
                        }
                        at += statement_size(st);
                    }
                }
                _ => {}
            }
        });
        // Every expression but the steps themselves (their operands included), in the
        // order of `Block::walk_exprs`.
        let mut place = 0;
        b.walk_stmts(&mut |s| {
            let mut skip = steps.contains(&place);
            place += 1;
            debug_assert!(
                !skip || matches!(&s.kind, StmtKind::Expr(e) if matches!(e.kind, ExprKind::Assign { .. }))
            );
            for top in stmt_exprs(s) {
                top.walk(&mut |e| {
                    if !std::mem::take(&mut skip) {
                        self.flows_in(prog, null, owner, e, out)
                    }
                });
            }
        });
    }

    /// A loop counter's step `i = i + 1` under the condition `i < n` (or `<=`, or `n > i`,
    /// ...): where the step runs, `i` satisfies the condition, so the counter stays
    /// bounded when `n` is. `after_body`: the step runs after the body (a `for` step),
    /// which must not assign `i`; else it is a statement of the body, its only assignment
    /// of `i`. `None` when the pattern does not apply; `Some(None)` when nothing flows
    /// yet (`i` has no value yet).
    #[allow(clippy::too_many_arguments)]
    fn counter_step(
        &self,
        prog: &Program,
        null: &Nullability,
        owner: Owner,
        cond: &Expr,
        step: &Expr,
        body: &Block,
        after_body: bool,
    ) -> Option<Option<(Slot, Option<Range>)>> {
        let ExprKind::Assign { target, value } = &step.kind else { return None };
        let ExprKind::Local(i) = target.kind else { return None };
        let ExprKind::Binary { op, lhs, rhs } = &cond.kind else { return None };
        let is_i = |e: &Expr| matches!(e.kind, ExprKind::Local(l) if l == i);
        // The condition as `i OP bound`.
        let (op, bound) = match (is_i(lhs), is_i(rhs)) {
            (true, false) => (*op, rhs),
            (false, true) => (
                match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Ge => BinaryOp::Le,
                    _ => return None,
                },
                lhs,
            ),
            _ => return None,
        };
        if after_body && assignments(body, i) > 0 {
            return None;
        }
        let slot = (null.local_owner(prog, owner, i), i);
        let current = match self.slots.get(&slot).copied() {
            Some(Values::Whole(r, _)) => r,
            Some(Values::None) => return Some(None),
            _ => return None,
        };
        let b = self.range(prog, null, owner, bound)?;
        // Where the step runs, `i` is within the condition's bound (and within what it
        // holds at all): the counter's whole range comes in one pass, not one per value.
        let narrowed = match op {
            BinaryOp::Lt => Range { lo: current.lo, hi: b.hi - 1 },
            BinaryOp::Le => Range { lo: current.lo, hi: b.hi },
            BinaryOp::Gt => Range { lo: b.lo + 1, hi: current.hi },
            BinaryOp::Ge => Range { lo: b.lo, hi: current.hi },
            _ => return None,
        };
        if narrowed.lo > narrowed.hi {
            // The step never runs: nothing flows.
            return Some(None);
        }
        Some(Some((slot, self.range_in(prog, null, owner, value, Some((slot, narrowed))))))
    }

    /// Values reaching slots in one expression node: assignments and call arguments.
    fn flows_in(
        &self,
        prog: &Program,
        null: &Nullability,
        owner: Owner,
        e: &Expr,
        out: &mut Vec<(Slot, Option<Range>)>,
    ) {
        match &e.kind {
            ExprKind::Assign { target, value } => {
                if let ExprKind::Local(l) = target.kind {
                    out.push(((null.local_owner(prog, owner, l), l), self.range(prog, null, owner, value)));
                }
            }
            ExprKind::Call { func, args, .. } => {
                let f = null.func_family(*func);
                let params: Vec<_> = prog
                    .func(f)
                    .inputs
                    .iter()
                    .filter(|i| matches!(i.mode, InputMode::Function { .. }))
                    .collect();
                for (i, input) in params.iter().enumerate() {
                    let r = args.get(i).and_then(|a| self.range(prog, null, owner, a));
                    out.push(((Owner::Func(f), input.local), r));
                }
            }
            _ => {}
        }
    }
}

/// How many statements `Block::walk_stmts` visits in a block (nested ones included).
fn statements(b: &Block) -> usize {
    let mut n = 0;
    b.walk_stmts(&mut |_| n += 1);
    n
}

/// How many statements `Block::walk_stmts` visits for one statement: itself, then the
/// statements of its blocks.
fn statement_size(s: &Stmt) -> usize {
    1 + match &s.kind {
        StmtKind::If { then_branch, else_branch, .. } => statements(then_branch) + statements(else_branch),
        StmtKind::While { body, .. } | StmtKind::ForIn { body, .. } | StmtKind::Block(body) => {
            statements(body)
        }
        StmtKind::For { init, step, body, .. } => statements(init) + statements(body) + statements(step),
        StmtKind::Input(input) => input.filters.iter().map(|f| statements(&f.body)).sum(),
        _ => 0,
    }
}

/// The expressions of one statement itself (not of its nested blocks) that
/// `Block::walk_exprs` walks, in its order.
fn stmt_exprs(s: &Stmt) -> Vec<&Expr> {
    match &s.kind {
        StmtKind::Let { init: Some(e), .. }
        | StmtKind::Expr(e)
        | StmtKind::Return(Some(e))
        | StmtKind::Winner(e)
        | StmtKind::Throw(e) => vec![e],
        StmtKind::Payoffs { ranking, payoffs } => ranking.iter().chain([payoffs]).collect(),
        StmtKind::Team { team, payoffs } => [team].into_iter().chain(payoffs).collect(),
        StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => vec![cond],
        StmtKind::For { cond: Some(c), .. } => vec![c],
        StmtKind::ForIn { list, .. } => vec![list],
        StmtKind::Input(input) => {
            let mut out = Vec::new();
            if let InputMode::Player { target: Some(t) } = &input.mode {
                out.push(t);
            }
            out.extend(&input.domain);
            out
        }
        _ => Vec::new(),
    }
}

/// What a slot knows once a value of bounds `r` (`None`: a double) reaches it.
fn joined(v: Values, r: Option<Range>) -> Values {
    match (v, r) {
        (Values::Number, _) | (_, None) => Values::Number,
        (Values::None, Some(r)) => Values::Whole(r, 0),
        (Values::Whole(old, n), Some(r)) => {
            let joined = old.join(r);
            if joined == old {
                v
            } else if n + 1 >= WIDENINGS {
                Values::Number
            } else {
                Values::Whole(joined, n + 1)
            }
        }
    }
}

/// How many assignments to the local `l` a block holds, nested ones included.
fn assignments(body: &Block, l: LocalId) -> usize {
    let mut n = 0;
    body.walk_exprs(&mut |e| {
        n += usize::from(matches!(&e.kind, ExprKind::Assign { target, .. }
            if matches!(target.kind, ExprKind::Local(t) if t == l)));
    });
    n
}

/// The code of one function, action or `setup`: the owner of its locals, its inputs and
/// every block it runs (body or effect, requires, triggers, input filters).
struct Body<'p> {
    owner: Owner,
    locals: &'p Locals,
    inputs: &'p [Input],
    blocks: Vec<&'p Block>,
}

fn bodies(prog: &Program) -> Vec<Body<'_>> {
    fn filters(inputs: &[Input]) -> impl Iterator<Item = &Block> {
        inputs.iter().flat_map(|i| &i.filters).map(|f| &f.body)
    }
    let mut out = Vec::new();
    for (i, f) in prog.funcs.iter().enumerate() {
        let blocks = std::iter::once(&f.body).chain(filters(&f.inputs)).collect();
        out.push(Body { owner: Owner::Func(FuncId(i as u32)), locals: &f.locals, inputs: &f.inputs, blocks });
    }
    for (i, a) in prog.actions.iter().enumerate() {
        let blocks = std::iter::once(&a.effect)
            .chain(&a.requires)
            .chain(a.triggers.iter().filter_map(|t| t.body.as_ref()))
            .chain(filters(&a.inputs))
            .collect();
        out.push(Body {
            owner: Owner::Action(ActionId(i as u32)),
            locals: &a.locals,
            inputs: &a.inputs,
            blocks,
        });
    }
    out.push(Body {
        owner: Owner::Setup,
        locals: &prog.setup.locals,
        inputs: &[],
        blocks: vec![&prog.setup.body],
    });
    out
}
