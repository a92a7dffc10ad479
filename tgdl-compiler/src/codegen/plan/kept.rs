//! Menus kept up to date. When every action of the turn menu is a global
//! action without conditions that picks one board tile, and its filters read nothing but
//! that tile's own attributes (`input Slot column { return column.filled < 6; }`), the
//! compiler can tell which options a move changes: those of the tiles whose attributes it
//! writes. The world keeps, per action, which tiles passed when the menu was last built and
//! which have been written since (`tgdl_runtime::kept`); every assignment to an attribute a
//! filter reads marks its tile, and after a move only the marked tiles are tested again.
//! When none answers differently the menu stands; else it is listed again from the tiles
//! that pass, without running a filter. A move that asks an input, the start of a game
//! and a determinization still build the menu in full.
//!
//! The filter of a marked tile sees exactly what it saw at the last build, but for the
//! writes that marked it: it reads no other object, no global, no player, no function and
//! runs no loop (so it spends no budget), so a tile left unmarked passes or fails as
//! before, and the kept menu equals a full build (the engine checks that in unoptimised
//! builds).

use super::layout::Layout;
use crate::hir::{ActionId, AttrId, Block, BuiltinAttr, ClassId, Expr, ExprKind, LocalId, StmtKind, Ty};
use proc_macro2::Ident;
use std::collections::BTreeSet;

/// One action whose options the world keeps.
pub(crate) struct KeptMenu {
    pub action: ActionId,
    /// The `World` field holding its tiles (`rt::kept::Kept`).
    pub field: Ident,
    /// Words of its tile sets: one bit per tile, by creation index.
    pub words: usize,
    /// The attributes its filters read: writes to them mark the tile.
    pub reads: BTreeSet<AttrId>,
}

/// The kept menus, one per menu action in menu order, when every menu action can be kept;
/// otherwise none (the menu is built in full after every move).
pub(crate) fn kept_menus(g: &Layout, fresh: &mut dyn FnMut(&str) -> Ident) -> Vec<KeptMenu> {
    let actions = g.menu_actions();
    let mut out = Vec::new();
    for a in actions {
        let Some((class, reads)) = keepable(g, a) else { return Vec::new() };
        let last = g.static_tiles[&class].last().copied().unwrap_or(0);
        let field = fresh(&format!("kept_{}", g.action_name[&a]));
        out.push(KeptMenu { action: a, field, words: last / 64 + 1, reads });
    }
    out
}

/// The tile class an action picks from and the attributes its filters read, when its
/// options can be kept.
fn keepable(g: &Layout, a: ActionId) -> Option<(ClassId, BTreeSet<AttrId>)> {
    let prog = g.prog;
    let action = prog.action(a);
    // Offered whenever it is the player's turn: no condition on the event, no `requires`.
    let unconditional = action.triggers.iter().any(|t| g.is_choice_trigger(t.event) && t.body.is_none());
    if !g.is_global(action.owner) || !unconditional || !action.requires.is_empty() {
        return None;
    }
    if g.leading_inputs(a) != [0] || action.inputs.is_empty() {
        return None;
    }
    let input = &action.inputs[0];
    let Ty::Class(class) = *input.candidate_ty() else { return None };
    // Board tiles of a class without subclasses: a fixed set, walked in creation order.
    if input.optional || input.domain.is_some() || !g.static_tiles.contains_key(&class) {
        return None;
    }
    if prog.descendants(class) != [class] {
        return None;
    }
    let mut reads = BTreeSet::new();
    for f in &input.filters {
        let mut locals = vec![f.binder];
        f.body.walk_stmts(&mut |s| {
            if let StmtKind::Let { local, .. } = s.kind {
                locals.push(local);
            }
        });
        let reader = Reader { g, class, binder: f.binder, locals: &locals };
        if !reader.block(&f.body, &mut reads) {
            return None;
        }
    }
    Some((class, reads))
}

/// Checks that a filter reads only its own tile.
struct Reader<'a, 'g> {
    g: &'a Layout<'g>,
    class: ClassId,
    binder: LocalId,
    /// The binder and the filter's own variables.
    locals: &'a [LocalId],
}

impl Reader<'_, '_> {
    fn block(&self, b: &Block, reads: &mut BTreeSet<AttrId>) -> bool {
        b.stmts.iter().all(|s| match &s.kind {
            StmtKind::Let { init, .. } => init.as_ref().is_none_or(|e| self.expr(e, reads)),
            StmtKind::If { cond, then_branch, else_branch } => {
                self.expr(cond, reads) && self.block(then_branch, reads) && self.block(else_branch, reads)
            }
            StmtKind::Return(Some(e)) => self.expr(e, reads),
            StmtKind::Block(b) => self.block(b, reads),
            // Loops spend the budget; the rest do not belong in a filter.
            _ => false,
        })
    }

    fn expr(&self, e: &Expr, reads: &mut BTreeSet<AttrId>) -> bool {
        match &e.kind {
            ExprKind::Number(_) | ExprKind::String(_) | ExprKind::Bool(_) | ExprKind::Null => true,
            ExprKind::Local(l) => self.locals.contains(l),
            ExprKind::Attr { object, attr } => {
                matches!(object.kind, ExprKind::Local(l) if l == self.binder) && self.attr(*attr, reads)
            }
            ExprKind::Unary { operand, .. } => self.expr(operand, reads),
            ExprKind::Binary { lhs, rhs, .. } => self.expr(lhs, reads) && self.expr(rhs, reads),
            ExprKind::ToPlayer(x) | ExprKind::ToNumber(x) | ExprKind::ToText(x) => self.expr(x, reads),
            _ => false,
        }
    }

    /// An attribute of the tile: a coordinate (fixed), or a plain value declared by the
    /// tile's class and kept in the tile struct (every write to it marks the tile).
    fn attr(&self, attr: AttrId, reads: &mut BTreeSet<AttrId>) -> bool {
        let prog = self.g.prog;
        let a = prog.attr(attr);
        match a.builtin {
            Some(BuiltinAttr::X | BuiltinAttr::Y) => true,
            Some(_) => false,
            None => {
                let plain = matches!(a.ty, Ty::Number | Ty::String | Ty::Bool | Ty::Player | Ty::Class(_));
                let ok = plain && !a.secret && a.class == self.class && self.g.attr_on_root(attr);
                if ok {
                    reads.insert(attr);
                }
                ok
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// Whether the menu of a game whose global class holds `rules` is kept.
    fn keeps(rules: &str) -> bool {
        let text = format!(
            "game G players 2;
            tile Cell {{ number n = 0; player p; Cell link; }}
            board B {{ group Grid {{ geometry square; grid {{ Cell Cell Cell }} }} }}
            global class Rules {{
                number limit = 3;
                function small {{ function input Cell c; returns bool; effect {{ return c.n < 3; }} }}
                {rules}
            }}
            turn Alternate {{ default {{ return turn.active() + 1; }} }}
            setup {{ }}"
        );
        let code = crate::generate_source("kept.tgdl", &text).unwrap_or_else(|c| panic!("{c}"));
        code.contains("const KEEPS_MENU: bool = true;")
    }

    /// An action picking a cell with `filter`, whose effect bumps the cell.
    fn action(name: &str, filter: &str) -> String {
        format!(
            "action {name} {{ trigger PlayerChoiceEvent; input Cell c {filter}
                effect {{ c.n += 1; turn.pass(); }} }}"
        )
    }

    #[test]
    fn filters_reading_only_their_tile_are_kept() {
        assert!(keeps(&action("a", "{ return c.n < 3; }")));
        assert!(keeps(&action("a", ";")));
        assert!(keeps(&action(
            "a",
            "{ number m = c.n * 2; if (c.x == 0 && c.p != null) { return false; } return m < 5 || c.link == null; }"
        )));
        assert!(keeps(&(action("a", "{ return c.n < 3; }") + &action("b", "{ return c.n >= 3; }"))));
    }

    #[test]
    fn filters_reading_anything_else_are_not() {
        for filter in [
            "{ return c.p == player.active(); }",
            "{ return c.n < limit; }",
            "{ return small(c: c); }",
            "{ return c.link != null && c.link.n < 3; }",
            "{ number k = 0; while (k < c.n) { k += 1; } return k < 3; }",
        ] {
            assert!(!keeps(&action("a", filter)), "{filter}");
        }
        // One action that cannot be kept: the whole menu is built again.
        assert!(!keeps(&(action("a", "{ return c.n < 3; }") + &action("b", "{ return c.n < limit; }"))));
        // Two inputs in the menu.
        assert!(!keeps(
            "action a { trigger PlayerChoiceEvent; input Cell c { return c.n < 3; } input Cell d { return d.n < 3; }
                effect { turn.pass(); } }"
        ));
    }
}
