//! Which collections a piece of code may change: a `for` loop over a list the body cannot
//! change reads it in place instead of iterating over a copy.

use super::layout::Layout;
use super::repr::collection_key;
use crate::hir::{Block, Builtin, ClassId, Expr, ExprKind, FuncId, FuncKind, StmtKind, Ty};
use std::collections::HashSet;

impl Layout<'_> {
    /// Whether running `block` may change a list of type `list_ty` (push, remove, clear,
    /// shuffle, assign an item, connect tiles, ...), directly or in the functions it
    /// calls — including the code the language runs for it: a turn's `default` behind
    /// `turn.pass()`, the attribute initialisers (and a stack's `default`) behind `new`.
    /// Actions called like functions, events and inputs count as changing anything: what
    /// they run is decided later.
    pub(crate) fn may_change_lists(&self, block: &Block, list_ty: &Ty) -> bool {
        let key = collection_key(self.prog, list_ty);
        let mut seen = HashSet::new();
        let mut seen_classes = HashSet::new();
        let mut work = vec![Code::Block(block.clone())];
        while let Some(code) = work.pop() {
            let mut changes = false;
            let mut calls: Vec<FuncId> = Vec::new();
            let mut created: Vec<ClassId> = Vec::new();
            let mut visit = |e: &Expr| {
                changes |= self.expr_changes_lists(e, &key);
                match &e.kind {
                    ExprKind::Call { func, .. } => calls.push(*func),
                    // `turn.pass()` runs the active turn's `default`: any of them.
                    ExprKind::Builtin { op: Builtin::TurnPass, args } if args.is_empty() => calls.extend(
                        (0..self.prog.funcs.len() as u32)
                            .map(FuncId)
                            .filter(|&f| self.prog.func(f).kind == FuncKind::TurnDefault),
                    ),
                    ExprKind::New { class, .. } => created.push(*class),
                    _ => {}
                }
            };
            match &code {
                Code::Block(b) => {
                    b.walk_exprs(&mut visit);
                    b.walk_stmts(&mut |s| {
                        changes |= matches!(s.kind, StmtKind::Throw(_) | StmtKind::Input(_));
                    });
                }
                Code::Expr(e) => e.walk(&mut visit),
            }
            if changes {
                return true;
            }
            // `new C()` runs the initialisers of C's attributes (its bases' too) and the
            // `default` of a stack.
            for class in created {
                if !seen_classes.insert(class) {
                    continue;
                }
                for a in self.prog.all_attrs(class) {
                    if let Some(init) = &self.prog.attr(a).init {
                        work.push(Code::Expr(init));
                    }
                }
                calls.extend((0..self.prog.funcs.len() as u32).map(FuncId).filter(|&f| {
                    let func = self.prog.func(f);
                    func.kind == FuncKind::DeckDefault
                        && func.owner.is_some_and(|o| self.prog.is_subclass(class, o))
                }));
            }
            for f in calls {
                for g in std::iter::once(f).chain(self.overriders(f)) {
                    if seen.insert(g) {
                        work.push(Code::Block(self.prog.func(g).body.clone()));
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

/// Code [`Layout::may_change_lists`] looks into: a body, or an attribute's initialiser.
enum Code<'p> {
    Block(Block),
    Expr(&'p Expr),
}
