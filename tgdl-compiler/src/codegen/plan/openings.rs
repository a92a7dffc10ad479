//! The tests an input's first filter opens with: a candidate that fails them cannot
//! pass, so they bound where its candidates are looked for.

use crate::hir::{
    BinaryOp, Builtin, BuiltinAttr, Expr, ExprKind, Geometry, Input, LocalId, Program, StmtKind, Ty, UnaryOp,
};
use std::collections::{HashMap, HashSet};

/// The test an input's first filter opens with, when its truth decides: the leftmost
/// operand of `return A && ...;` (a candidate passes only where A holds) or of the `||` in
/// `if (A || ...) { return false; }` (only where A fails). Returns A, whether A must fail
/// (the second form), and the filter's binder.
pub(crate) fn opening(input: &Input) -> Option<(&Expr, bool, LocalId)> {
    if input.is_list() || input.domain.is_some() {
        return None;
    }
    let filter = input.filters.first()?;
    match &filter.body.stmts.first()?.kind {
        StmtKind::Return(Some(e)) => Some((leftmost(e, BinaryOp::And), false, filter.binder)),
        StmtKind::If { cond, then_branch, else_branch }
            if else_branch.stmts.is_empty()
                && matches!(
                    then_branch.stmts.as_slice(),
                    [s] if matches!(&s.kind, StmtKind::Return(Some(e)) if matches!(e.kind, ExprKind::Bool(false)))
                ) =>
        {
            Some((leftmost(cond, BinaryOp::Or), true, filter.binder))
        }
        _ => None,
    }
}

/// The comparison an input's first filter opens with (see [`opening`]): `A == B` where it
/// must hold, `A != B` where it must fail. Only candidates for which it holds (or fails to
/// reject) can pass. Returns the two sides and the filter's binder.
pub(crate) fn opening_test(input: &Input) -> Option<(&Expr, &Expr, LocalId)> {
    let (test, rejects, binder) = opening(input)?;
    let want = if rejects { BinaryOp::Ne } else { BinaryOp::Eq };
    match &test.kind {
        ExprKind::Binary { op, lhs, rhs } if *op == want => Some((lhs, rhs, binder)),
        _ => None,
    }
}

/// The leftmost operand of a chain of `op` (`a && b && c` → `a`).
fn leftmost(e: &Expr, op: BinaryOp) -> &Expr {
    match &e.kind {
        ExprKind::Binary { op: o, lhs, .. } if *o == op => leftmost(lhs, op),
        _ => e,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Coord {
    X,
    Y,
}

/// `sign * coordinate + Σ sᵢ·valueᵢ`, the values independent of the candidate.
#[derive(Clone, Debug)]
pub(crate) struct Term<'e> {
    pub coord: Coord,
    pub sign: i64,
    pub offsets: Vec<(i64, &'e Expr)>,
}

/// A comparison whose truth rejects the candidate: `term <cmp> value`.
#[derive(Debug)]
pub(crate) struct Guard<'e> {
    pub term: Term<'e>,
    pub cmp: BinaryOp,
    pub value: &'e Expr,
}

/// Reads the leading guards of an input's first filter.
struct Reader<'e> {
    prog: &'e Program,
    binder: LocalId,
    /// Locals the filter declares: none may appear in a value computed before the loop.
    declared: HashSet<LocalId>,
    terms: HashMap<LocalId, Term<'e>>,
}

/// A leading guard statement of the first filter: its index among the filter's
/// statements and the comparisons it rejects on.
pub(crate) struct GuardStmt<'e> {
    pub index: usize,
    pub guards: Vec<Guard<'e>>,
    /// Each comparison as the additive leaves of its term's offsets and of its value (see
    /// [`leaves`]), when every comparison is one bounds express (none is `==`) and every
    /// part has such leaves: the bounds are then exact, and the whole statement is
    /// redundant on the cells kept.
    pub exact: Option<Vec<Exact<'e>>>,
}

/// A comparison's offsets and value as additive leaves.
pub(crate) type Exact<'e> = (Vec<(i64, &'e Expr)>, Vec<(i64, &'e Expr)>);

/// The guard statements at the top of the input's first filter (empty: none usable).
pub(crate) fn leading_guards<'e>(prog: &'e Program, input: &'e Input) -> Vec<GuardStmt<'e>> {
    let Some(filter) = input.filters.first() else { return Vec::new() };
    let mut declared = HashSet::new();
    filter.body.walk_stmts(&mut |s| {
        if let StmtKind::Let { local, .. } = &s.kind {
            declared.insert(*local);
        }
    });
    let mut reader = Reader { prog, binder: filter.binder, declared, terms: HashMap::new() };
    let mut stmts = Vec::new();
    for (index, stmt) in filter.body.stmts.iter().enumerate() {
        match &stmt.kind {
            StmtKind::Let { local, init: Some(init) } => match reader.term(init) {
                Some(t) => {
                    reader.terms.insert(*local, t);
                }
                None => break,
            },
            StmtKind::If { cond, then_branch, else_branch } if else_branch.stmts.is_empty() => {
                let rejects = matches!(
                    then_branch.stmts.as_slice(),
                    [s] if matches!(&s.kind, StmtKind::Return(Some(e)) if matches!(e.kind, ExprKind::Bool(false)))
                );
                let mut found = Vec::new();
                if !rejects || reader.disjuncts(cond, &mut found).is_none() {
                    break;
                }
                let bounding = found.iter().all(|g| g.cmp != BinaryOp::Eq);
                // `==` guards leave holes, not bounds.
                found.retain(|g| g.cmp != BinaryOp::Eq);
                let exact = exact(&found).filter(|_| bounding);
                stmts.push(GuardStmt { index, guards: found, exact });
            }
            _ => break,
        }
    }
    stmts.retain(|s| !s.guards.is_empty());
    stmts
}

/// Each guard as additive leaves, when all can be checked.
fn exact<'e>(guards: &[Guard<'e>]) -> Option<Vec<Exact<'e>>> {
    guards
        .iter()
        .map(|guard| {
            let mut offsets = Vec::new();
            for &(s, e) in &guard.term.offsets {
                leaves(e, s, &mut offsets)?;
            }
            let mut value = Vec::new();
            leaves(guard.value, 1, &mut value)?;
            Some((offsets, value))
        })
        .collect()
}

/// The additive leaves of a number, `a + b - c` giving `(1, a), (1, b), (-1, c)`, when
/// each is a literal below 2^40 or a value read without arithmetic (a local, an attribute,
/// a call, an element): summing a few such values once each is exact in doubles when each
/// is small (checked as the menu runs), so the filter and the bounds agree. `None` for
/// anything else, or too many leaves.
fn leaves<'e>(e: &'e Expr, sign: i64, out: &mut Vec<(i64, &'e Expr)>) -> Option<()> {
    match &e.kind {
        ExprKind::Binary { op: op @ (BinaryOp::Add | BinaryOp::Sub), lhs, rhs } => {
            leaves(lhs, sign, out)?;
            leaves(rhs, if *op == BinaryOp::Add { sign } else { -sign }, out)
        }
        ExprKind::Unary { op: UnaryOp::Neg, operand } => leaves(operand, -sign, out),
        ExprKind::Number(n) if n.fract() == 0.0 && n.abs() < (1u64 << 40) as f64 => {
            out.push((sign, e));
            Some(())
        }
        ExprKind::Local(_)
        | ExprKind::Attr { .. }
        | ExprKind::Call { .. }
        | ExprKind::Builtin { .. }
        | ExprKind::ToNumber(_)
        | ExprKind::Index { .. } => {
            out.push((sign, e));
            (out.len() <= 8).then_some(())
        }
        _ => None,
    }
}

/// The group whose tiles are exactly the static tiles `indices`, when it is regular and
/// has no blank cell: its first handle, columns and rows.
pub(crate) fn full_group(prog: &Program, indices: &[usize]) -> Option<(usize, usize, usize)> {
    let mut base = 0;
    for group in prog.classes.iter().flat_map(|c| &c.groups) {
        let cells = group.cells.iter().flatten().flatten().count();
        let whole = group.geometry != Geometry::Graph
            && !group.cells.is_empty()
            && group.cells.iter().flatten().all(Option::is_some);
        if whole
            && indices.len() == cells
            && indices.first() == Some(&base)
            && indices.last() == Some(&(base + cells - 1))
        {
            let columns = group.cells[0].len();
            return Some((base, columns, cells / columns));
        }
        base += cells;
    }
    None
}

/// Whether `e` can be computed once for every candidate: it does not read the filter's
/// binder, and changes nothing.
fn independent(e: &Expr, binder: LocalId) -> bool {
    let mut independent = true;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Local(l) if *l == binder => independent = false,
        ExprKind::Assign { .. } | ExprKind::New { .. } => independent = false,
        _ => {}
    });
    independent
}

/// The object an input's first filter opens by requiring (`to == E`, see
/// [`opening_test`]), where `E` does not read the candidate and is of the input's class or
/// a subclass. Only that object can pass, so the menu tries it alone (see
/// `BodyGen::known_candidate`).
pub(crate) fn known_object<'e>(prog: &Program, input: &'e Input) -> Option<&'e Expr> {
    let Ty::Class(class) = *input.candidate_ty() else { return None };
    let (lhs, rhs, binder) = opening_test(input)?;
    let is_binder = |e: &Expr| matches!(e.kind, ExprKind::Local(l) if l == binder);
    let known = match (is_binder(lhs), is_binder(rhs)) {
        (true, false) => rhs,
        (false, true) => lhs,
        _ => return None,
    };
    let fits = matches!(known.ty, Ty::Class(d) if prog.is_subclass(d, class));
    (independent(known, binder) && fits).then_some(known)
}

/// The list an input's first filter opens by requiring the candidate to be in
/// (`return L.contains(c) && ...;`, or `if (!L.contains(c) || ...) { return false; }`),
/// where `L` does not read the candidate. Only the list's elements can pass, so the menu
/// tries them alone (see `BodyGen::member_candidates`). Objects only: their creation
/// order is their handles' order.
pub(crate) fn membership_list(input: &Input) -> Option<&Expr> {
    if !matches!(input.candidate_ty(), Ty::Class(_)) {
        return None;
    }
    let (test, rejects, binder) = opening(input)?;
    let call = match (&test.kind, rejects) {
        (_, false) => test,
        (ExprKind::Unary { op: UnaryOp::Not, operand }, true) => operand,
        _ => return None,
    };
    match &call.kind {
        ExprKind::Builtin { op: Builtin::ListContains, args } => match args.as_slice() {
            [list, elem]
                if matches!(elem.kind, ExprKind::Local(l) if l == binder) && independent(list, binder) =>
            {
                Some(list)
            }
            _ => None,
        },
        _ => None,
    }
}

impl<'e> Term<'e> {
    fn negated(mut self) -> Term<'e> {
        self.sign = -self.sign;
        for (s, _) in &mut self.offsets {
            *s = -*s;
        }
        self
    }

    fn plus(mut self, sign: i64, value: &'e Expr) -> Term<'e> {
        self.offsets.push((sign, value));
        self
    }
}

impl<'e> Reader<'e> {
    /// A value computed the same for every candidate: numeric, reading neither the
    /// candidate nor the filter's own locals, assigning nothing, creating nothing.
    fn independent(&self, e: &Expr) -> bool {
        let mut ok = e.ty == Ty::Number;
        e.walk(&mut |x| match &x.kind {
            ExprKind::Local(l) if *l == self.binder || self.declared.contains(l) => ok = false,
            ExprKind::Assign { .. } | ExprKind::New { .. } => ok = false,
            _ => {}
        });
        ok
    }

    fn term(&self, e: &'e Expr) -> Option<Term<'e>> {
        if e.ty != Ty::Number {
            return None;
        }
        match &e.kind {
            ExprKind::Attr { object, attr } if matches!(object.kind, ExprKind::Local(l) if l == self.binder) =>
            {
                let coord = match self.prog.attr(*attr).builtin {
                    Some(BuiltinAttr::X) => Coord::X,
                    Some(BuiltinAttr::Y) => Coord::Y,
                    _ => return None,
                };
                Some(Term { coord, sign: 1, offsets: Vec::new() })
            }
            ExprKind::Local(l) => self.terms.get(l).cloned(),
            ExprKind::Unary { op: UnaryOp::Neg, operand } => self.term(operand).map(Term::negated),
            ExprKind::Binary { op: op @ (BinaryOp::Add | BinaryOp::Sub), lhs, rhs } => {
                let sign = if *op == BinaryOp::Add { 1 } else { -1 };
                if let Some(t) = self.term(lhs).filter(|_| self.independent(rhs)) {
                    return Some(t.plus(sign, rhs));
                }
                let t = self.term(rhs).filter(|_| self.independent(lhs))?;
                Some(if sign > 0 { t } else { t.negated() }.plus(1, lhs))
            }
            _ => None,
        }
    }

    /// The comparisons of a rejecting condition, or `None` if any part is of another shape.
    fn disjuncts(&self, cond: &'e Expr, out: &mut Vec<Guard<'e>>) -> Option<()> {
        match &cond.kind {
            ExprKind::Binary { op: BinaryOp::Or | BinaryOp::BitOr, lhs, rhs } => {
                self.disjuncts(lhs, out)?;
                self.disjuncts(rhs, out)
            }
            ExprKind::Binary {
                op:
                    op @ (BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne),
                lhs,
                rhs,
            } => {
                if let Some(term) = self.term(lhs).filter(|_| self.independent(rhs)) {
                    out.push(Guard { term, cmp: *op, value: rhs });
                    return Some(());
                }
                let term = self.term(rhs).filter(|_| self.independent(lhs))?;
                let cmp = match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Ge => BinaryOp::Le,
                    other => *other,
                };
                out.push(Guard { term, cmp, value: lhs });
                Some(())
            }
            _ => None,
        }
    }
}
