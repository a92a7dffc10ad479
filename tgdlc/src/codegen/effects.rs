//! Which collections a piece of code may change: a `for` loop over a list the body cannot
//! change reads it in place instead of iterating over a copy.

use super::Gen;
use super::repr::collection_key;
use crate::hir::{Block, Builtin, Expr, ExprKind, FuncId, StmtKind, Ty};
use std::collections::HashSet;

impl Gen<'_> {
    /// Whether running `block` may change a list of type `list_ty` (push, remove, clear,
    /// shuffle, assign an item, connect tiles, ...), directly or in the functions it
    /// calls. Actions called like functions, events and inputs count as changing
    /// anything: what they run is decided later.
    pub(super) fn may_change_lists(&self, block: &Block, list_ty: &Ty) -> bool {
        let key = collection_key(self.prog, list_ty);
        let mut seen = HashSet::new();
        let mut work = vec![block.clone()];
        while let Some(b) = work.pop() {
            let mut changes = false;
            let mut calls: Vec<FuncId> = Vec::new();
            b.walk_stmts(&mut |s| {
                changes |= matches!(s.kind, StmtKind::Throw(_) | StmtKind::Input(_));
            });
            b.walk_exprs(&mut |e| {
                changes |= self.expr_changes_lists(e, &key);
                if let ExprKind::Call { func, .. } = &e.kind {
                    calls.push(*func);
                }
            });
            if changes {
                return true;
            }
            for f in calls {
                for g in std::iter::once(f).chain(self.overriders(f)) {
                    if seen.insert(g) {
                        work.push(self.prog.func(g).body.clone());
                    }
                }
            }
        }
        false
    }

    /// Whether this one expression (not what it calls) may change a list of `key`.
    fn expr_changes_lists(&self, e: &Expr, key: &str) -> bool {
        let same = |x: &Expr| collection_key(self.prog, &x.ty) == key;
        match &e.kind {
            ExprKind::CallAction { .. } => true,
            ExprKind::Builtin { op, args } => match op {
                Builtin::ListPush
                | Builtin::ListAppend
                | Builtin::ListClear
                | Builtin::ListRemove
                | Builtin::ListRemoveAt
                | Builtin::ListShuffle => args.first().is_some_and(same),
                // `this.add(t)` and `a.connect(b)` extend lists of tiles and connections;
                // `assign` the member lists of group-visible objects.
                Builtin::GroupAdd | Builtin::Connect | Builtin::Assign => true,
                _ => false,
            },
            ExprKind::Assign { target, .. } => {
                matches!(&target.kind, ExprKind::Index { object, .. } if same(object))
            }
            _ => false,
        }
    }
}
