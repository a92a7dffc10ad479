//! `winner` and `payoffs`: the winning player, a ranking, or a list of players, and each
//! player's payoff, as the engine's outcome.

use super::context::BodyGen;
use crate::hir::{Expr, ExprKind, Ty};
use crate::source::Span;
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

    /// `payoffs p;` or `winner r payoffs p;`: both are computed (they may call functions)
    /// before the core is borrowed to end the game.
    pub(super) fn end_with_payoffs(
        &mut self,
        ranking: Option<&Expr>,
        payoffs: &Expr,
        span: Span,
    ) -> TokenStream {
        let numbers = self.numbers_vec(payoffs);
        let l = self.at(span);
        match ranking {
            Some(r) => {
                let r = self.ranking(r);
                quote!({
                    let ranking = #r;
                    let payoffs: Vec<f64> = #numbers;
                    self.core.end_with_payoffs(Some(&ranking), payoffs, #l)
                })
            }
            None => quote!({
                let payoffs: Vec<f64> = #numbers;
                self.core.end_with_payoffs(None, payoffs, #l)
            }),
        }
    }

    /// `winners team;` or `winners team payoffs p;`: the team and the payoffs are computed
    /// (they may call functions) before the core is borrowed to end the game.
    pub(super) fn win_team(&mut self, team: &Expr, payoffs: Option<&Expr>, span: Span) -> TokenStream {
        let team = self.players_vec(team);
        let l = self.at(span);
        let payoffs = match payoffs {
            Some(p) => {
                let numbers = self.numbers_vec(p);
                quote!(Some(#numbers))
            }
            None => quote!(None),
        };
        quote!({
            let team: Vec<rt::Player> = #team;
            let payoffs: Option<Vec<f64>> = #payoffs;
            self.core.win_team(&team, payoffs, #l)
        })
    }

    /// A `List<number>` expression as a `Vec<f64>`; a null element becomes NaN, which the
    /// engine refuses as a payoff.
    fn numbers_vec(&mut self, e: &Expr) -> TokenStream {
        if let ExprKind::ListLit(items) = &e.kind {
            let items: Vec<TokenStream> = items
                .iter()
                .map(|i| {
                    if matches!(i.kind, ExprKind::Null) {
                        return quote!(f64::NAN);
                    }
                    let c = self.code(i);
                    let ts = c.ts;
                    if c.null { quote!(#ts.unwrap_or(f64::NAN)) } else { ts }
                })
                .collect();
            return quote!(vec![#(#items),*]);
        }
        let h = self.value(e);
        let arena = self.g.collection_arena(&e.ty);
        // A list in a variable is read in place; another expression is computed first.
        let (bind, list) = match syn::parse2::<Ident>(h.clone()) {
            Ok(name) => (quote!(), quote!(#name)),
            Err(_) => (quote!(let numbers = #h;), quote!(numbers)),
        };
        if self.g.null.elem(self.g.prog, &e.ty) {
            quote!({ #bind self.#arena[#list].items.iter().map(|x| x.unwrap_or(f64::NAN)).collect() })
        } else {
            quote!({ #bind self.#arena[#list].items.clone() })
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
                // A `null` literal names no one (`Outcome::from_ranking` drops an empty
                // place); left out, it cannot leave the vector without an element type. So
                // with an empty list (`winner {{}, {0, 1}};`, `winners {};`).
                let items: Vec<TokenStream> = items
                    .iter()
                    .filter(|i| !matches!(i.kind, ExprKind::Null))
                    .map(|i| self.repr(i, true))
                    .collect();
                if items.is_empty() {
                    return quote!(Vec::<rt::Player>::new());
                }
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
