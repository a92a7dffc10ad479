//! Looks: how the table draws objects, from their classes' `glyph`, `colour` and `shape` functions
//! (run as labels are: on a copy of the world).

use super::context::Gen;
use crate::facts::{has_looks, look_fns};
use crate::hir::{ClassKind, FuncId};
use proc_macro2::TokenStream;
use quote::quote;

impl Gen<'_> {
    /// Whether views carry looks: some class says how it looks.
    pub(super) fn has_looks(&self) -> bool {
        has_looks(self.prog)
    }

    /// The `World` helpers (an object's look, a cell's look) and the `Rules` method asking
    /// the first; nothing when no class says how it looks.
    pub(super) fn looks(&self) -> (TokenStream, TokenStream) {
        if !self.has_looks() {
            return (quote!(), quote!());
        }
        let prog = self.prog;
        // Called on the world itself: `object_look` runs them on a copy, a grid on one copy.
        let call = |f: Option<FuncId>| match f {
            Some(f) => {
                let n = &self.func_name[&f];
                if self.null.ret(f) {
                    quote!(self.#n(id).ok().flatten().map(|text| text.to_string()))
                } else {
                    quote!(self.#n(id).ok().map(|text| text.to_string()))
                }
            }
            None => quote!(None),
        };
        let mut arms = Vec::new();
        for h in &self.hierarchies {
            let mut variants = Vec::new();
            for (class, _) in &h.variants {
                let Some([glyph, colour, shape]) = look_fns(prog, *class) else { continue };
                let (glyph, colour, shape) = (call(glyph), call(colour), call(shape));
                // In the order the functions are declared in `Look` (each may change the world
                // a later one reads: they run as written, one after the other).
                let look = quote!({
                    let glyph = #glyph;
                    let colour = #colour;
                    rt::view::Look::of(glyph, colour, #shape)
                });
                variants.push((self.variant_pattern(h, *class), look));
            }
            if variants.is_empty() {
                continue;
            }
            let (arena, tag) = (&h.arena, h.tag);
            let body = match variants.as_slice() {
                [(_, look)] if h.kind_enum.is_none() || h.variants.len() == 1 => look.clone(),
                _ => {
                    let variants = variants.iter().map(|(p, look)| quote!(#p => #look,));
                    quote!(#[allow(unreachable_patterns)] match self.#arena[id].kind { #(#variants)* _ => None })
                }
            };
            arms.push(quote! {
                #tag => {
                    if index as usize >= self.#arena.len() {
                        return None;
                    }
                    let id = rt::Id::from_index(index as usize);
                    #body
                }
            });
        }
        let tile_look = self.tile_look_fn();
        let helpers = quote! {
            /// How the table draws an object: what its class's `glyph`, `colour` and `shape` return,
            /// run on a copy of the world as labels are.
            fn object_look(&self, tag: u32, index: u32) -> Option<rt::view::Look> {
                self.clone().look_on(tag, index)
            }

            /// An object's look, its functions run on this world (a copy: a whole grid's
            /// looks are worked out on one).
            fn look_on(&mut self, tag: u32, index: u32) -> Option<rt::view::Look> {
                match tag {
                    #(#arms)*
                    _ => None,
                }
            }

            #tile_look
        };
        let methods = quote! {
            fn object_look(&self, tag: u32, index: u32) -> Option<rt::view::Look> {
                World::object_look(self, tag, index)
            }
        };
        (helpers, methods)
    }

    /// A cell's look: the first piece on it that has one (in class, then creation order),
    /// else its tile's.
    fn tile_look_fn(&self) -> TokenStream {
        let prog = self.prog;
        let Some(h) = self.hierarchy(prog.builtins.tile).filter(|_| self.uses_tiles) else { return quote!() };
        let tile_tag = h.tag;
        let mut pieces = Vec::new();
        for ph in &self.hierarchies {
            if prog.class(ph.root).kind != ClassKind::Interactable {
                continue;
            }
            let (pa, tag) = (&ph.arena, ph.tag);
            let tile = self.builtin_field(ph.root, crate::hir::BuiltinAttr::Tile);
            let discarded = self.builtin_field(ph.root, crate::hir::BuiltinAttr::Discarded);
            pieces.push(quote! {
                let on: Vec<u32> = self.#pa.iter()
                    .filter(|(_, piece)| piece.#tile == Some(t) && !piece.#discarded)
                    .map(|(id, _)| id.index() as u32)
                    .collect();
                for index in on {
                    if let Some(look) = self.look_on(#tag, index) {
                        return Some(look);
                    }
                }
            });
        }
        quote! {
            /// How a cell draws: as the first piece on it that has a look, else as its tile.
            fn tile_look(&mut self, t: rt::Id<Tile>) -> Option<rt::view::Look> {
                #(#pieces)*
                self.look_on(#tile_tag, t.index() as u32)
            }
        }
    }
}
