//! The one place that writes what an assignment or an allocation must also update (the
//! plan's hooks, `plan::hooks`): owner index moves, kept-menu marks, instance lists.

use super::context::Gen;
use crate::hir::{AttrId, ClassId};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

impl Gen<'_> {
    /// Whether a write to `attr` moves its object between the sets of an owner index (the
    /// write then reads the old value first, for [`Gen::after_write`]).
    pub(super) fn write_moves_owner(&self, attr: AttrId) -> bool {
        self.hooks.writes.get(&attr).is_some_and(|h| h.owners.is_some())
    }

    /// Whether a write to `attr` needs anything after it.
    pub(super) fn write_has_hooks(&self, attr: AttrId) -> bool {
        self.hooks.writes.contains_key(&attr)
    }

    /// What a write to `attr` of the object `object` (a pure expression) must add after
    /// it: the owner index's move from the value `before` to the value `read` now reads
    /// (given when [`Gen::write_moves_owner`]), then a mark in each kept menu whose
    /// filters read the attribute. Empty when the attribute has no hooks.
    pub(super) fn after_write(
        &self,
        attr: AttrId,
        object: &TokenStream,
        owner: Option<(&Ident, &TokenStream)>,
    ) -> TokenStream {
        let Some(hooks) = self.hooks.writes.get(&attr) else { return quote!() };
        let moved = match (&hooks.owners, owner) {
            (Some(sets), Some((before, read))) => quote!(self.#sets.moved(#object.index(), #before, #read);),
            _ => quote!(),
        };
        let kept = &hooks.kept;
        quote!(#moved #(self.#kept.touch(#object.index());)*)
    }

    /// What the allocation of `id` in the hierarchy rooted at `root`, on `world` (`self`
    /// or a world being built), must add after it: recording it in the instance lists of
    /// its classes. Empty when no class of the hierarchy has a list.
    pub(super) fn after_allocation(&self, root: ClassId, world: TokenStream, id: TokenStream) -> TokenStream {
        match self.hooks.allocations.get(&root) {
            Some(f) => quote!(#world.#f(#id);),
            None => quote!(),
        }
    }
}
