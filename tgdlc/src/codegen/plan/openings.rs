//! The tests an input's first filter opens with: a candidate that fails them cannot
//! pass, so they bound where its candidates are looked for.

use crate::hir::{BinaryOp, Expr, ExprKind, Input, LocalId, StmtKind};

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
