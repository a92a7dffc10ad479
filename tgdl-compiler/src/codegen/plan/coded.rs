//! Coded string locals: a string local compared only with literals is held as the
//! literal it equals, so declaring one copies no string.

use crate::hir::{Block, ExprKind, LocalId, Locals, StmtKind, Ty};
use std::collections::{HashMap, HashSet};

/// The string locals that can be held as the literal they equal (an `Option<&'static
/// str>`) rather than as a string: declared with a value, never assigned after, and read
/// only in comparisons with string literals (`string kind = from.piece; if (kind == "P")
/// ...`). Each maps to the literals it is compared with, in order of first appearance.
/// Declaring one then copies no string (a shared string's copy is two atomic operations),
/// in rules like chess's `legal`, run a thousand times a decision.
pub(crate) fn coded_strings(
    blocks: &[&Block],
    locals: &Locals,
    mutable: &HashSet<LocalId>,
) -> HashMap<LocalId, Vec<String>> {
    let mut declared = HashSet::new();
    for b in blocks {
        b.walk_stmts(&mut |s| {
            if let StmtKind::Let { local, init: Some(_) } = &s.kind {
                declared.insert(*local);
            }
        });
    }
    let mut reads: HashMap<LocalId, usize> = HashMap::new();
    let mut compared: HashMap<LocalId, (usize, Vec<String>)> = HashMap::new();
    for b in blocks {
        b.walk_exprs(&mut |e| match &e.kind {
            ExprKind::Local(l) => *reads.entry(*l).or_default() += 1,
            ExprKind::Binary { op: crate::hir::BinaryOp::Eq | crate::hir::BinaryOp::Ne, lhs, rhs } => {
                if let (ExprKind::Local(l), ExprKind::String(lit))
                | (ExprKind::String(lit), ExprKind::Local(l)) = (&lhs.kind, &rhs.kind)
                {
                    let (n, literals) = compared.entry(*l).or_default();
                    *n += 1;
                    if !literals.contains(lit) {
                        literals.push(lit.clone());
                    }
                }
            }
            _ => {}
        });
    }
    compared
        .into_iter()
        .filter(|(l, (n, _))| {
            declared.contains(l)
                && !mutable.contains(l)
                && locals.get(*l).ty == Ty::String
                && reads.get(l) == Some(n)
        })
        .map(|(l, (_, literals))| (l, literals))
        .collect()
}
