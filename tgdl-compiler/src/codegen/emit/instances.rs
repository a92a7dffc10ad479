//! The class instance lists' part of the world (`tgdl_runtime::instances`; see
//! `plan::instances`): their fields and the `created_*` methods filling them.

use super::context::Gen;
use proc_macro2::TokenStream;
use quote::quote;

impl Gen<'_> {
    /// The `World` fields of the lists, with their docs.
    pub(super) fn instance_fields(&self) -> Vec<TokenStream> {
        self.instances
            .lists
            .iter()
            .map(|(c, list)| {
                let doc = format!(
                    " Every `{}` object, its subclasses' included, in creation order.",
                    self.prog.class(*c).name
                );
                let f = &list.field;
                let s = &self.hierarchy(*c).expect("listed classes have an arena").strukt;
                quote! { #[doc = #doc] pub #f: rt::instances::Instances<#s>, }
            })
            .collect()
    }

    /// The `created_*` methods: each pushes a new object onto the list of every listed
    /// class it belongs to.
    pub(super) fn created_fns(&self) -> TokenStream {
        let fns = self.hierarchies.iter().filter_map(|h| {
            let f = self.instances.created.get(&h.root)?;
            let (arena, s) = (&h.arena, &h.strukt);
            let pushes =
                self.instances.lists.iter().filter(|(c, _)| self.prog.class(**c).root == h.root).map(
                    |(c, list)| {
                        let (vs, field) = (self.variants_of(*c), &list.field);
                        quote!(if matches!(self.#arena[id].kind, #(#vs)|*) { self.#field.push(id); })
                    },
                );
            let doc = format!(
                " Records a new `{}` object in the lists of the classes it belongs to (see `instances`).",
                h.strukt
            );
            Some(quote! {
                #[doc = #doc]
                fn #f(&mut self, id: rt::Id<#s>) {
                    #(#pushes)*
                }
            })
        });
        quote!(#(#fns)*)
    }
}
