//! The walks of narrowed candidates (`plan::candidates`). Candidate domains: an input
//! over the tiles of one regular group whose first
//! filter opens with guards on the candidate's coordinates walks only the cells those
//! guards let through (`tgdl_runtime::domain`), not the whole group.
//!
//! A guard is `if (A || B ...) { return false; }` where each comparison sets a coordinate
//! term — `to.x`, `to.y`, or a local declared before it as such a coordinate plus or
//! minus values that do not depend on the candidate (`number dx = to.x - from.x;`) —
//! against a value that does not depend on it. Guards are read from the top of the filter
//! and the reading stops at the first statement of another shape: the statements before a
//! guard used are then only those declarations, which cannot fail, so skipping a cell a
//! guard rejects skips nothing the filter would have done. The values are computed once
//! before the loop (filters only read the game, so once is as good as every time); if
//! computing them stops on an error, the whole group is walked and the filter meets the
//! error where it always did.

use super::context::BodyGen;
use crate::codegen::plan::candidates::CellBox;
use crate::codegen::plan::openings::Coord;
use crate::hir::{BinaryOp, ClassId, Expr, ExprKind, UnaryOp};
use proc_macro2::TokenStream;
use quote::quote;

/// The walk of an input's candidates bounded by its filter's leading guards.
pub(super) struct Domain {
    /// Computes the bounds before the loop (and the flag of `redundant`).
    pub prelude: TokenStream,
    /// The cells within the bounds: tile handles in creation order.
    pub cells: TokenStream,
    /// A flag, and the guard statements of the first filter (by index) that reject no cell
    /// walked while it is true: the filter then skips them.
    pub redundant: Option<(proc_macro2::Ident, Vec<usize>)>,
}

impl BodyGen<'_, '_> {
    /// The walk of the cells of a group within the box its filter's leading guards allow
    /// (see `plan::candidates`).
    pub(super) fn cell_walk(&mut self, cells: &CellBox) -> Domain {
        let (base, columns, rows, stmts) = (cells.base, cells.columns, cells.rows, &cells.guards);
        let (xs, ys, full, proven) =
            (self.temp("xs"), self.temp("ys"), self.temp("full"), self.temp("proven"));
        let mut steps = Vec::new();
        let mut redundant = Vec::new();
        let mut proven_changes = false;
        for stmt in stmts {
            let exact = &stmt.exact;
            if exact.is_some() {
                redundant.push(stmt.index);
            }
            for (k, guard) in stmt.guards.iter().enumerate() {
                let axis = if guard.term.coord == Coord::X { &xs } else { &ys };
                let sign = guard.term.sign;
                let cmp = cmp_name(guard.cmp);
                // Every part a small whole number known at compile time: integer bounds,
                // exact by construction.
                if let Some(parts) = &exact
                    && parts[k].0.iter().chain(&parts[k].1).all(|&(_, e)| self.small_whole(e))
                {
                    let (offset, value) = (self.whole_sum(&parts[k].0), self.whole_sum(&parts[k].1));
                    steps.push(quote!(#axis.unless_whole(#sign, #offset, rt::domain::Cmp::#cmp, #value);));
                    continue;
                }
                // The flag is cleared when a part is not small and whole as the menu runs.
                proven_changes |= exact.is_some();
                let (offset, value) = match &exact {
                    Some(parts) => {
                        let (offsets, value) = &parts[k];
                        (self.checked_sum(offsets, &proven), self.checked_sum(value, &proven))
                    }
                    None => {
                        let offsets: Vec<TokenStream> =
                            guard.term.offsets.iter().map(|&(s, e)| self.signed(s, e)).collect();
                        (quote!(0.0 #(#offsets)*), self.number(guard.value))
                    }
                };
                let narrow = quote!(#axis.unless(#sign, #offset, rt::domain::Cmp::#cmp, #value));
                steps.push(if exact.is_some() {
                    quote!(if !#narrow { #proven = false; })
                } else {
                    quote!(#narrow;)
                });
            }
        }
        let bind = |axis: &proc_macro2::Ident, coord: Coord, i: TokenStream| {
            if stmts.iter().flat_map(|s| &s.guards).any(|g| g.term.coord == coord) {
                quote!(let mut #axis = #full.#i;)
            } else {
                quote!(let #axis = #full.#i;)
            }
        };
        let (bind_x, bind_y) = (bind(&xs, Coord::X, quote!(0)), bind(&ys, Coord::Y, quote!(1)));
        let full_bounds = quote!((rt::domain::Bounds::new(#columns), rt::domain::Bounds::new(#rows)));
        // With integer bounds alone the guards are proven redundant unless the box cannot
        // be computed (then the walk is of every cell, and the guards run).
        let bind_proven =
            if proven_changes { quote!(let mut #proven = true;) } else { quote!(let #proven = true;) };
        let prelude = if redundant.is_empty() {
            quote! {
                let #full = #full_bounds;
                let (#xs, #ys) = rt::domain::attempt(|| -> rt::Flow<(rt::domain::Bounds, rt::domain::Bounds)> {
                    #bind_x
                    #bind_y
                    #(#steps)*
                    Ok((#xs, #ys))
                })
                .unwrap_or(#full);
            }
        } else {
            quote! {
                let #full = #full_bounds;
                let (#xs, #ys, #proven) =
                    rt::domain::attempt(|| -> rt::Flow<(rt::domain::Bounds, rt::domain::Bounds, bool)> {
                        #bind_x
                        #bind_y
                        #bind_proven
                        #(#steps)*
                        Ok((#xs, #ys, #proven))
                    })
                    .unwrap_or((#full.0, #full.1, false));
            }
        };
        Domain {
            prelude,
            cells: quote!(rt::domain::cells(#base, #columns, #xs, #ys)),
            redundant: (!redundant.is_empty()).then_some((proven, redundant)),
        }
    }

    /// The candidates of an input whose filter opens by requiring one known object (see
    /// `plan::openings::known_object`): that object alone, computed once before the walk, when it is
    /// not null; if computing it stops on an error, every candidate, so the filter meets
    /// the error where it always did. `all` is the walk of every candidate.
    pub(super) fn known_walk(&mut self, known: &Expr, class: ClassId, all: &TokenStream) -> TokenStream {
        let value = self.repr(known, true);
        let h = self.g.handle_ty(class);
        let k = self.temp("known");
        quote!({
            let #k = rt::domain::attempt(|| -> rt::Flow<Option<#h>> { Ok(#value) });
            #k.flatten().into_iter().chain(#k.is_none().then(|| #all).into_iter().flatten())
        })
    }

    /// The candidates of an input whose filter opens by requiring membership of a list
    /// (see `plan::openings::membership_list`): the list's objects in creation order (their handles'
    /// order), without nulls or repeats, the list computed once before the walk; if
    /// computing it stops on an error, every candidate, so the filter meets the error where
    /// it always did. `all` is the walk of every candidate. Also the test keeping the
    /// objects of the input's class that are not discarded: the list may hold others.
    pub(super) fn member_walk(
        &mut self,
        list: &Expr,
        c: ClassId,
        all: &TokenStream,
        var: &TokenStream,
    ) -> (TokenStream, Option<TokenStream>) {
        let g = self.g;
        let h = self.value(list);
        let arena = g.collection_arena(&list.ty);
        let items = if g.null.elem(g.prog, &list.ty) {
            quote!(self.#arena[list].items.iter().copied().flatten().collect())
        } else {
            quote!(self.#arena[list].items.to_vec())
        };
        let k = self.temp("members");
        let iter = quote!({
            let #k = rt::domain::attempt(|| -> rt::Flow<Vec<_>> {
                let list = #h;
                let mut members: Vec<_> = #items;
                members.sort_unstable_by_key(|m| m.index());
                members.dedup();
                Ok(members)
            });
            let every = #k.is_none();
            #k.into_iter().flatten().chain(every.then(|| #all).into_iter().flatten())
        });
        (iter, self.class_test(c, var))
    }

    /// `+ v` or `- v`, a literal's sign folded in (`+ 1.0`, never `- -1.0`).
    fn signed(&mut self, s: i64, e: &Expr) -> TokenStream {
        match literal(e) {
            Some(n) => {
                let lit = proc_macro2::Literal::f64_unsuffixed(n.abs());
                if (s > 0) == (n >= 0.0) { quote!(+ #lit) } else { quote!(- #lit) }
            }
            None => {
                let v = self.number(e);
                if s > 0 { quote!(+ #v) } else { quote!(- #v) }
            }
        }
    }

    /// A whole number whose every value lies within ±2^40, known at compile time.
    fn small_whole(&self, e: &Expr) -> bool {
        const SMALL: i64 = 1 << 40;
        self.g
            .whole
            .range(self.g.prog, &self.g.null, self.owner, e)
            .is_some_and(|r| -SMALL < r.lo && r.hi < SMALL)
    }

    /// The sum of additive leaves that are all [`Self::small_whole`], as an `i64`.
    fn whole_sum(&mut self, parts: &[(i64, &Expr)]) -> TokenStream {
        let mut sum = TokenStream::new();
        for (k, &(s, e)) in parts.iter().enumerate() {
            let w = self.whole(e);
            sum.extend(match (k, s > 0) {
                (0, true) => quote!(#w),
                (0, false) => quote!(-#w),
                (_, true) => quote!(+ #w),
                (_, false) => quote!(- #w),
            });
        }
        if sum.is_empty() { quote!(0) } else { super::tokens::group(sum) }
    }

    /// The sum of additive leaves (see `plan::openings`), each value that is not a literal
    /// checked small into the flag `proven`.
    fn checked_sum(&mut self, parts: &[(i64, &Expr)], proven: &proc_macro2::Ident) -> TokenStream {
        let terms: Vec<TokenStream> = parts
            .iter()
            .map(|&(s, e)| {
                if literal(e).is_some() {
                    return self.signed(s, e);
                }
                if self.small_whole(e) {
                    let w = self.whole(e);
                    return if s > 0 { quote!(+ (#w as f64)) } else { quote!(- (#w as f64)) };
                }
                let v = if self.is_whole(e) {
                    let w = self.whole(e);
                    quote!(#w as f64)
                } else {
                    self.value(e)
                };
                let v = quote!(rt::domain::term(#v, &mut #proven));
                if s > 0 { quote!(+ #v) } else { quote!(- #v) }
            })
            .collect();
        quote!(0.0 #(#terms)*)
    }

    /// A number as an `f64`, whole or not.
    fn number(&mut self, e: &Expr) -> TokenStream {
        if let Some(n) = literal(e) {
            let lit = proc_macro2::Literal::f64_unsuffixed(n.abs());
            return if n < 0.0 { quote!(-#lit) } else { quote!(#lit) };
        }
        if self.is_whole(e) {
            let w = self.whole(e);
            quote!((#w as f64))
        } else {
            self.value(e)
        }
    }
}

/// The name of a comparison in `rt::domain::Cmp` (`==` never reaches here).
fn cmp_name(op: BinaryOp) -> TokenStream {
    match op {
        BinaryOp::Lt => quote!(Lt),
        BinaryOp::Le => quote!(Le),
        BinaryOp::Gt => quote!(Gt),
        BinaryOp::Ge => quote!(Ge),
        _ => quote!(Ne),
    }
}

/// A number literal, negated or not.
fn literal(e: &Expr) -> Option<f64> {
    let n = match &e.kind {
        ExprKind::Number(n) => *n,
        ExprKind::Unary { op: UnaryOp::Neg, operand } => match operand.kind {
            ExprKind::Number(n) => -n,
            _ => return None,
        },
        _ => return None,
    };
    n.is_finite().then_some(n)
}
