//! `winner`: the winning player, a ranking, or a list of players, as the engine's
//! outcome.

use super::context::BodyGen;
use crate::hir::{Expr, ExprKind, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

impl<'g, 'p> BodyGen<'g, 'p> {
    /// `winner p;`: one player first, everyone else second.
    pub(super) fn win_player(&mut self, e: &Expr) -> TokenStream {
        let p = self.value(e);
        if super::tokens::needs_mut(e) {
            quote!({
                let winner = #p;
                self.core.win_player(winner)
            })
        } else {
            quote!(self.core.win_player(#p))
        }
    }

    /// The ranking of a `winner` statement as `Vec<Vec<rt::Player>>`.
    pub(super) fn ranking(&mut self, e: &Expr) -> TokenStream {
        if e.ty == Ty::Player {
            let p = self.value(e);
            return quote!([vec![#p]]);
        }
        // A literal ranking is built directly, without allocating lists in the world.
        if let ExprKind::ListLit(places) = &e.kind {
            let places: Vec<TokenStream> = places.iter().map(|p| self.players_vec(p)).collect();
            return quote!([#(#places),*]);
        }
        // The list is computed first (it may call functions), then read.
        let h = self.value(e);
        let outer = self.g.collection_arena(&e.ty);
        let inner_ty = e.ty.element().cloned().unwrap_or(Ty::Error);
        let inner = self.g.collection_arena(&inner_ty);
        let outer_null = self.g.null.elem(self.g.prog, &e.ty);
        let inner_null = self.g.null.elem(self.g.prog, &inner_ty);
        let get_list = if outer_null { quote!(.flatten()) } else { quote!() };
        let players = if inner_null {
            quote!(self.#inner[place].items.iter().flatten().copied().collect::<Vec<rt::Player>>())
        } else {
            quote!(self.#inner[place].items.clone())
        };
        // A list in a variable is read in place; another expression is computed first.
        let (bind, list) = match syn::parse2::<Ident>(h.clone()) {
            Ok(name) => (quote!(), quote!(#name)),
            Err(_) => (quote!(let ranking_list = #h;), quote!(ranking_list)),
        };
        quote!({
            #bind
            self.#outer[#list].items.iter().cloned()#get_list
                .map(|place| #players)
                .collect::<Vec<_>>()
        })
    }

    /// A `List<player>` expression as a `Vec<rt::Player>` (nulls dropped).
    pub(super) fn players_vec(&mut self, e: &Expr) -> TokenStream {
        match &e.kind {
            ExprKind::Builtin { op: crate::hir::Builtin::PlayerAll, .. } => quote!(self.core.all_players()),
            ExprKind::ListLit(items) => {
                let items: Vec<TokenStream> = items.iter().map(|i| self.repr(i, true)).collect();
                quote!(vec![#(#items),*].into_iter().flatten().collect::<Vec<rt::Player>>())
            }
            _ => {
                let h = self.value(e);
                let arena = self.g.collection_arena(&e.ty);
                if self.g.null.elem(self.g.prog, &e.ty) {
                    quote!({ let players = #h; self.#arena[players].items.iter().flatten().copied().collect::<Vec<rt::Player>>() })
                } else {
                    quote!({ let players = #h; self.#arena[players].items.clone() })
                }
            }
        }
    }
}
