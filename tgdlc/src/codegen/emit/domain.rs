//! Candidate domains: an input over the tiles of one regular group whose first
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
use crate::codegen::plan::openings::{opening, opening_test};
use crate::hir::{
    BinaryOp, Builtin, BuiltinAttr, ClassId, Expr, ExprKind, Geometry, Input, LocalId, Program, StmtKind, Ty,
    UnaryOp,
};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coord {
    X,
    Y,
}

/// `sign * coordinate + Σ sᵢ·valueᵢ`, the values independent of the candidate.
#[derive(Clone, Debug)]
struct Term<'e> {
    coord: Coord,
    sign: i64,
    offsets: Vec<(i64, &'e Expr)>,
}

impl<'e> Term<'e> {
    fn negated(mut self) -> Term<'e> {
        self.sign = -self.sign;
        for (s, _) in &mut self.offsets {
            *s = -*s;
        }
        self
    }

    fn plus(mut self, sign: i64, value: &'e Expr) -> Term<'e> {
        self.offsets.push((sign, value));
        self
    }
}

/// A comparison whose truth rejects the candidate: `term <cmp> value`.
#[derive(Debug)]
struct Guard<'e> {
    term: Term<'e>,
    cmp: BinaryOp,
    value: &'e Expr,
}

/// Reads the leading guards of an input's first filter.
struct Reader<'e> {
    prog: &'e Program,
    binder: LocalId,
    /// Locals the filter declares: none may appear in a value computed before the loop.
    declared: HashSet<LocalId>,
    terms: HashMap<LocalId, Term<'e>>,
}

impl<'e> Reader<'e> {
    /// A value computed the same for every candidate: numeric, reading neither the
    /// candidate nor the filter's own locals, assigning nothing, creating nothing.
    fn independent(&self, e: &Expr) -> bool {
        let mut ok = e.ty == Ty::Number;
        e.walk(&mut |x| match &x.kind {
            ExprKind::Local(l) if *l == self.binder || self.declared.contains(l) => ok = false,
            ExprKind::Assign { .. } | ExprKind::New { .. } => ok = false,
            _ => {}
        });
        ok
    }

    fn term(&self, e: &'e Expr) -> Option<Term<'e>> {
        if e.ty != Ty::Number {
            return None;
        }
        match &e.kind {
            ExprKind::Attr { object, attr } if matches!(object.kind, ExprKind::Local(l) if l == self.binder) =>
            {
                let coord = match self.prog.attr(*attr).builtin {
                    Some(BuiltinAttr::X) => Coord::X,
                    Some(BuiltinAttr::Y) => Coord::Y,
                    _ => return None,
                };
                Some(Term { coord, sign: 1, offsets: Vec::new() })
            }
            ExprKind::Local(l) => self.terms.get(l).cloned(),
            ExprKind::Unary { op: UnaryOp::Neg, operand } => self.term(operand).map(Term::negated),
            ExprKind::Binary { op: op @ (BinaryOp::Add | BinaryOp::Sub), lhs, rhs } => {
                let sign = if *op == BinaryOp::Add { 1 } else { -1 };
                if let Some(t) = self.term(lhs).filter(|_| self.independent(rhs)) {
                    return Some(t.plus(sign, rhs));
                }
                let t = self.term(rhs).filter(|_| self.independent(lhs))?;
                Some(if sign > 0 { t } else { t.negated() }.plus(1, lhs))
            }
            _ => None,
        }
    }

    /// The comparisons of a rejecting condition, or `None` if any part is of another shape.
    fn disjuncts(&self, cond: &'e Expr, out: &mut Vec<Guard<'e>>) -> Option<()> {
        match &cond.kind {
            ExprKind::Binary { op: BinaryOp::Or | BinaryOp::BitOr, lhs, rhs } => {
                self.disjuncts(lhs, out)?;
                self.disjuncts(rhs, out)
            }
            ExprKind::Binary {
                op:
                    op @ (BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne),
                lhs,
                rhs,
            } => {
                if let Some(term) = self.term(lhs).filter(|_| self.independent(rhs)) {
                    out.push(Guard { term, cmp: *op, value: rhs });
                    return Some(());
                }
                let term = self.term(rhs).filter(|_| self.independent(lhs))?;
                let cmp = match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Ge => BinaryOp::Le,
                    other => *other,
                };
                out.push(Guard { term, cmp, value: lhs });
                Some(())
            }
            _ => None,
        }
    }
}

/// A leading guard statement of the first filter: its index among the filter's
/// statements and the comparisons it rejects on.
struct GuardStmt<'e> {
    index: usize,
    guards: Vec<Guard<'e>>,
    /// Whether every comparison is one bounds express (none is `==`), so that on the cells
    /// kept the whole statement can be redundant.
    bounding: bool,
}

/// The guard statements at the top of the input's first filter (empty: none usable).
fn leading_guards<'e>(prog: &'e Program, input: &'e Input) -> Vec<GuardStmt<'e>> {
    let Some(filter) = input.filters.first() else { return Vec::new() };
    let mut declared = HashSet::new();
    filter.body.walk_stmts(&mut |s| {
        if let StmtKind::Let { local, .. } = &s.kind {
            declared.insert(*local);
        }
    });
    let mut reader = Reader { prog, binder: filter.binder, declared, terms: HashMap::new() };
    let mut stmts = Vec::new();
    for (index, stmt) in filter.body.stmts.iter().enumerate() {
        match &stmt.kind {
            StmtKind::Let { local, init: Some(init) } => match reader.term(init) {
                Some(t) => {
                    reader.terms.insert(*local, t);
                }
                None => break,
            },
            StmtKind::If { cond, then_branch, else_branch } if else_branch.stmts.is_empty() => {
                let rejects = matches!(
                    then_branch.stmts.as_slice(),
                    [s] if matches!(&s.kind, StmtKind::Return(Some(e)) if matches!(e.kind, ExprKind::Bool(false)))
                );
                let mut found = Vec::new();
                if !rejects || reader.disjuncts(cond, &mut found).is_none() {
                    break;
                }
                let bounding = found.iter().all(|g| g.cmp != BinaryOp::Eq);
                // `==` guards leave holes, not bounds.
                found.retain(|g| g.cmp != BinaryOp::Eq);
                stmts.push(GuardStmt { index, guards: found, bounding });
            }
            _ => break,
        }
    }
    stmts.retain(|s| !s.guards.is_empty());
    stmts
}

/// The additive leaves of a number, `a + b - c` giving `(1, a), (1, b), (-1, c)`, when
/// each is a literal below 2^40 or a value read without arithmetic (a local, an attribute,
/// a call, an element): summing a few such values once each is exact in doubles when each
/// is small (checked as the menu runs), so the filter and the bounds agree. `None` for
/// anything else, or too many leaves.
fn leaves<'e>(e: &'e Expr, sign: i64, out: &mut Vec<(i64, &'e Expr)>) -> Option<()> {
    match &e.kind {
        ExprKind::Binary { op: op @ (BinaryOp::Add | BinaryOp::Sub), lhs, rhs } => {
            leaves(lhs, sign, out)?;
            leaves(rhs, if *op == BinaryOp::Add { sign } else { -sign }, out)
        }
        ExprKind::Unary { op: UnaryOp::Neg, operand } => leaves(operand, -sign, out),
        ExprKind::Number(n) if n.fract() == 0.0 && n.abs() < (1u64 << 40) as f64 => {
            out.push((sign, e));
            Some(())
        }
        ExprKind::Local(_)
        | ExprKind::Attr { .. }
        | ExprKind::Call { .. }
        | ExprKind::Builtin { .. }
        | ExprKind::ToNumber(_)
        | ExprKind::Index { .. } => {
            out.push((sign, e));
            (out.len() <= 8).then_some(())
        }
        _ => None,
    }
}

/// The group whose tiles are exactly the static tiles `indices`, when it is regular and
/// has no blank cell: its first handle, columns and rows.
pub(super) fn full_group(prog: &Program, indices: &[usize]) -> Option<(usize, usize, usize)> {
    let mut base = 0;
    for group in prog.classes.iter().flat_map(|c| &c.groups) {
        let cells = group.cells.iter().flatten().flatten().count();
        let whole = group.geometry != Geometry::Graph
            && !group.cells.is_empty()
            && group.cells.iter().flatten().all(Option::is_some);
        if whole
            && indices.len() == cells
            && indices.first() == Some(&base)
            && indices.last() == Some(&(base + cells - 1))
        {
            let columns = group.cells[0].len();
            return Some((base, columns, cells / columns));
        }
        base += cells;
    }
    None
}

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
    /// The candidates of a menu input bounded by its filter's leading guards, when it has
    /// any.
    pub(super) fn domain_candidates(&mut self, input: &Input) -> Option<Domain> {
        let g = self.g;
        let Ty::Class(c) = input.candidate_ty() else { return None };
        let indices: &Vec<usize> = g.static_tiles.get::<ClassId>(c)?;
        let (base, columns, rows) = full_group(g.prog, indices)?;
        let stmts = leading_guards(g.prog, input);
        if stmts.is_empty() {
            return None;
        }
        let (xs, ys, full, proven) =
            (self.temp("xs"), self.temp("ys"), self.temp("full"), self.temp("proven"));
        let mut steps = Vec::new();
        let mut redundant = Vec::new();
        let mut proven_changes = false;
        for stmt in &stmts {
            // Each guard of the statement as additive leaves, when all can be checked.
            let exact: Option<Vec<_>> = stmt
                .guards
                .iter()
                .map(|guard| {
                    let mut offsets = Vec::new();
                    for &(s, e) in &guard.term.offsets {
                        leaves(e, s, &mut offsets)?;
                    }
                    let mut value = Vec::new();
                    leaves(guard.value, 1, &mut value)?;
                    Some((offsets, value))
                })
                .collect();
            let exact = exact.filter(|_| stmt.bounding);
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
        Some(Domain {
            prelude,
            cells: quote!(rt::domain::cells(#base, #columns, #xs, #ys)),
            redundant: (!redundant.is_empty()).then_some((proven, redundant)),
        })
    }

    /// The candidates of an input whose filter opens by requiring one known object (see
    /// [`known_object`]): that object alone, computed once before the walk, when it is
    /// not null; if computing it stops on an error, every candidate, so the filter meets
    /// the error where it always did. `all` is the walk of every candidate.
    pub(super) fn known_candidate(&mut self, input: &Input, all: &TokenStream) -> Option<TokenStream> {
        let known = known_object(self.g.prog, input)?;
        let value = self.repr(known, true);
        let h = self.g.handle_ty(match known.ty {
            Ty::Class(d) => d,
            _ => return None,
        });
        let k = self.temp("known");
        Some(quote!({
            let #k = rt::domain::attempt(|| -> rt::Flow<Option<#h>> { Ok(#value) });
            #k.flatten().into_iter().chain(#k.is_none().then(|| #all).into_iter().flatten())
        }))
    }

    /// The candidates of an input whose filter opens by requiring membership of a list
    /// (see [`membership_list`]): the list's objects in creation order (their handles'
    /// order), without nulls or repeats, the list computed once before the walk; if
    /// computing it stops on an error, every candidate, so the filter meets the error where
    /// it always did. `all` is the walk of every candidate. Also the test keeping the
    /// objects of the input's class that are not discarded: the list may hold others.
    pub(super) fn member_candidates(
        &mut self,
        input: &Input,
        all: &TokenStream,
        var: &TokenStream,
    ) -> Option<(TokenStream, Option<TokenStream>)> {
        let list = membership_list(input)?;
        let Ty::Class(c) = *input.candidate_ty() else { return None };
        let g = self.g;
        g.hierarchy(c)?;
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
        Some((iter, self.class_test(c, var)))
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

    /// The sum of additive leaves (see [`leaves`]), each value that is not a literal
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

/// Whether `e` can be computed once for every candidate: it does not read the filter's
/// binder, and changes nothing.
fn independent(e: &Expr, binder: LocalId) -> bool {
    let mut independent = true;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Local(l) if *l == binder => independent = false,
        ExprKind::Assign { .. } | ExprKind::New { .. } => independent = false,
        _ => {}
    });
    independent
}

/// The object an input's first filter opens by requiring (`to == E`, see
/// [`opening_test`]), where `E` does not read the candidate and is of the input's class or
/// a subclass. Only that object can pass, so the menu tries it alone (see
/// `BodyGen::known_candidate`).
fn known_object<'e>(prog: &Program, input: &'e Input) -> Option<&'e Expr> {
    let Ty::Class(class) = *input.candidate_ty() else { return None };
    let (lhs, rhs, binder) = opening_test(input)?;
    let is_binder = |e: &Expr| matches!(e.kind, ExprKind::Local(l) if l == binder);
    let known = match (is_binder(lhs), is_binder(rhs)) {
        (true, false) => rhs,
        (false, true) => lhs,
        _ => return None,
    };
    let fits = matches!(known.ty, Ty::Class(d) if prog.is_subclass(d, class));
    (independent(known, binder) && fits).then_some(known)
}

/// The list an input's first filter opens by requiring the candidate to be in
/// (`return L.contains(c) && ...;`, or `if (!L.contains(c) || ...) { return false; }`),
/// where `L` does not read the candidate. Only the list's elements can pass, so the menu
/// tries them alone (see `BodyGen::member_candidates`). Objects only: their creation
/// order is their handles' order.
pub(super) fn membership_list(input: &Input) -> Option<&Expr> {
    if !matches!(input.candidate_ty(), Ty::Class(_)) {
        return None;
    }
    let (test, rejects, binder) = opening(input)?;
    let call = match (&test.kind, rejects) {
        (_, false) => test,
        (ExprKind::Unary { op: UnaryOp::Not, operand }, true) => operand,
        _ => return None,
    };
    match &call.kind {
        ExprKind::Builtin { op: Builtin::ListContains, args } => match args.as_slice() {
            [list, elem]
                if matches!(elem.kind, ExprKind::Local(l) if l == binder) && independent(list, binder) =>
            {
                Some(list)
            }
            _ => None,
        },
        _ => None,
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
