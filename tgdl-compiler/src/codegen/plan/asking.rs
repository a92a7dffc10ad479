//! Which code may ask a player for an input in the middle of an effect (an action, the
//! setup, and what they call).

use super::layout::Layout;
use crate::hir::{ActionId, Block, Builtin, ExprKind, FuncId, InputMode, StmtKind};
use std::collections::HashMap;

impl Layout<'_> {
    /// Whether running this action (its inputs, effect and everything it starts) may ask a
    /// player something: such moves are run from a saved copy of the world.
    pub(crate) fn action_may_ask(&self, a: ActionId, from_menu: bool) -> bool {
        let mut memo = HashMap::new();
        let action = self.prog.action(a);
        let leading = if from_menu { self.leading_inputs(a).len() } else { 0 };
        action.inputs.iter().skip(leading).any(|i| !matches!(i.mode, InputMode::Auto))
            || self.block_may_ask(&action.effect, &mut memo)
            || (from_menu && self.has_queue() && self.cascade_may_ask(&mut memo))
    }

    pub(crate) fn setup_may_ask(&self) -> bool {
        let mut memo = HashMap::new();
        self.block_may_ask(&self.prog.setup.body, &mut memo)
            || self.prog.funcs.iter().any(|f| {
                f.kind == crate::hir::FuncKind::GroupDefault && self.block_may_ask(&f.body, &mut memo)
            })
            || self
                .prog
                .attrs
                .iter()
                .any(|a| a.init.as_ref().is_some_and(|e| self.expr_may_ask(e, &mut memo)))
            || (self.has_queue() && self.cascade_may_ask(&mut memo))
    }

    pub(crate) fn cascade_may_ask(&self, memo: &mut HashMap<FuncId, bool>) -> bool {
        self.prog.actions.iter().enumerate().any(|(i, a)| {
            a.triggers.iter().any(|t| !self.is_choice_trigger(t.event))
                && (a.inputs.iter().any(|x| !matches!(x.mode, InputMode::Auto)) || {
                    let _ = i;
                    self.block_may_ask(&a.effect, memo)
                })
        })
    }

    pub(crate) fn block_may_ask(&self, b: &Block, memo: &mut HashMap<FuncId, bool>) -> bool {
        let mut found = false;
        b.walk_stmts(&mut |s| {
            if let StmtKind::Input(i) = &s.kind {
                found |= !matches!(i.mode, InputMode::Auto);
            }
        });
        if found {
            return true;
        }
        let mut exprs = Vec::new();
        b.walk_exprs(&mut |e| exprs.push(e.clone()));
        exprs.iter().any(|e| self.expr_may_ask(e, memo))
    }

    pub(crate) fn expr_may_ask(&self, e: &crate::hir::Expr, memo: &mut HashMap<FuncId, bool>) -> bool {
        let mut calls = Vec::new();
        let mut actions = Vec::new();
        let mut pass = false;
        e.walk(&mut |x| match &x.kind {
            ExprKind::Call { func, .. } => calls.push(*func),
            ExprKind::CallAction { action, .. } => actions.push(*action),
            ExprKind::Builtin { op: Builtin::TurnPass, args } if args.is_empty() => pass = true,
            ExprKind::New { class, .. } => {
                if let Some(d) = self.prog.class(*class).default {
                    calls.push(d);
                }
            }
            _ => {}
        });
        if pass && self.prog.turns.iter().filter_map(|t| t.default).any(|f| self.func_may_ask(f, memo)) {
            return true;
        }
        calls.into_iter().any(|f| {
            self.func_may_ask(f, memo) || self.overriders(f).into_iter().any(|o| self.func_may_ask(o, memo))
        }) || actions.into_iter().any(|a| {
            let action = self.prog.action(a);
            action.inputs.iter().any(|i| !matches!(i.mode, InputMode::Auto))
                || self.block_may_ask(&action.effect, memo)
        })
    }

    pub(crate) fn func_may_ask(&self, f: FuncId, memo: &mut HashMap<FuncId, bool>) -> bool {
        if let Some(&m) = memo.get(&f) {
            return m;
        }
        memo.insert(f, false); // recursion: assume no until shown otherwise
        let func = self.prog.func(f);
        let r = func.inputs.iter().any(|i| matches!(i.mode, InputMode::Player { .. }))
            || self.block_may_ask(&func.body, memo);
        memo.insert(f, r);
        r
    }
}
