//! Which code may ask a player for an input in the middle of an effect (an action, the
//! setup, and what they call): `crate::facts`, which the interpreter shares.

use super::layout::Layout;
use crate::hir::ActionId;

impl Layout<'_> {
    /// Whether running this action (its inputs, effect and everything it starts) may ask a
    /// player something: such moves are run from a saved copy of the world.
    pub(crate) fn action_may_ask(&self, a: ActionId, from_menu: bool) -> bool {
        crate::facts::action_may_ask(self.prog, a, from_menu)
    }

    pub(crate) fn setup_may_ask(&self) -> bool {
        crate::facts::setup_may_ask(self.prog)
    }
}
