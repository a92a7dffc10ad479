//! What a write or an allocation must also update: the marks of kept menus, the
//! instance lists of new objects.

use super::context::Gen;
use crate::hir::{AttrId, ClassId};
use proc_macro2::TokenStream;
use quote::quote;

impl Gen<'_> {
    /// What a write to `attr` of the tile `object` (a pure expression) must add: a mark in
    /// each kept menu whose filters read the attribute. Empty when none does.
    pub(super) fn kept_touches(&self, attr: AttrId, object: &TokenStream) -> TokenStream {
        let kept = self.kept.iter().filter(|k| k.reads.contains(&attr)).map(|k| &k.field);
        quote!(#(self.#kept.touch(#object.index());)*)
    }

    /// The call that records `id`, just allocated in the hierarchy rooted at `root`, on
    /// `world` (`self` or a world being built); nothing when no class of it has a list.
    pub(super) fn record_created(&self, root: ClassId, world: TokenStream, id: TokenStream) -> TokenStream {
        match self.instances.created.get(&root) {
            Some(f) => quote!(#world.#f(#id);),
            None => quote!(),
        }
    }
}
