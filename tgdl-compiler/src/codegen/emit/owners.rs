//! The owner indexes' part of the world (`tgdl_runtime::owners`; see `plan::owners`):
//! their fields and their rebuilding from the tiles.

use super::context::Gen;
use proc_macro2::TokenStream;
use quote::quote;

impl Gen<'_> {
    /// The `World` fields of the owner indexes, with their docs.
    pub(super) fn owner_fields(&self) -> Vec<TokenStream> {
        self.owner_indexes
            .iter()
            .map(|(attr, index)| {
                let a = self.prog.attr(*attr);
                let doc = format!(
                    " Per player, the `{}` tiles whose `{}` names them (`tgdl_runtime::owners`).",
                    self.prog.class(a.class).name,
                    a.name
                );
                let (f, n) = (&index.field, self.owner_words(index));
                quote! { #[doc = #doc] pub #f: rt::owners::Owners<#n>, }
            })
            .collect()
    }

    /// Fills every owner index from the tiles (after the board is built, and after the
    /// global classes' initialisers).
    pub(super) fn rebuild_owners(&self, world: TokenStream) -> TokenStream {
        let steps = self.owner_indexes.iter().map(|(attr, index)| {
            let (f, tiles) = (&index.field, &index.tiles);
            let field = &self.attr_field[attr];
            let arena = &self.hierarchy(self.prog.attr(*attr).class).expect("a tile class").arena;
            let value =
                if self.null.attr(self.prog, *attr) { quote!(t.#field) } else { quote!(Some(t.#field)) };
            let tiles = super::tokens::static_candidates(tiles);
            quote! {
                #world.#f.clear();
                for id in #tiles {
                    let t = &#world.#arena[id];
                    let owner = #value;
                    #world.#f.moved(id.index(), None, owner);
                }
            }
        });
        quote!(#(#steps)*)
    }
}
