//! Candidate domains (issue 16): an input over the tiles of one regular group whose first
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

use super::body::BodyGen;
use crate::hir::{
    BinaryOp, BuiltinAttr, ClassId, Expr, ExprKind, Geometry, Input, LocalId, Program, StmtKind, Ty, UnaryOp,
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

/// The guards at the top of the input's first filter (empty: none usable).
fn leading_guards<'e>(prog: &'e Program, input: &'e Input) -> Vec<Guard<'e>> {
    let Some(filter) = input.filters.first() else { return Vec::new() };
    let mut declared = HashSet::new();
    filter.body.walk_stmts(&mut |s| {
        if let StmtKind::Let { local, .. } = &s.kind {
            declared.insert(*local);
        }
    });
    let mut reader = Reader { prog, binder: filter.binder, declared, terms: HashMap::new() };
    let mut guards = Vec::new();
    for stmt in &filter.body.stmts {
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
                guards.extend(found);
            }
            _ => break,
        }
    }
    // `==` guards leave holes, not bounds.
    guards.retain(|g| g.cmp != BinaryOp::Eq);
    guards
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

impl BodyGen<'_, '_> {
    /// The candidates of a menu input bounded by its filter's leading guards, when it has
    /// any: an iterator of tile handles in creation order.
    pub(super) fn domain_candidates(&mut self, input: &Input) -> Option<TokenStream> {
        let g = self.g;
        let Ty::Class(c) = input.candidate_ty() else { return None };
        let indices: &Vec<usize> = g.static_tiles.get::<ClassId>(c)?;
        let (base, columns, rows) = full_group(g.prog, indices)?;
        let guards = leading_guards(g.prog, input);
        if guards.is_empty() {
            return None;
        }
        let (xs, ys, full) = (self.temp("xs"), self.temp("ys"), self.temp("full"));
        let mut steps = Vec::new();
        for guard in &guards {
            let axis = if guard.term.coord == Coord::X { &xs } else { &ys };
            let offsets: Vec<TokenStream> = guard
                .term
                .offsets
                .iter()
                .map(|&(s, e)| match literal(e) {
                    // A literal folds its sign in: `+ 1.0`, never `- -1.0`.
                    Some(n) => {
                        let lit = proc_macro2::Literal::f64_unsuffixed(n.abs());
                        if (s > 0) == (n >= 0.0) { quote!(+ #lit) } else { quote!(- #lit) }
                    }
                    None => {
                        let v = self.number(e);
                        if s > 0 { quote!(+ #v) } else { quote!(- #v) }
                    }
                })
                .collect();
            let value = self.number(guard.value);
            let sign = guard.term.sign;
            let cmp = match guard.cmp {
                BinaryOp::Lt => quote!(Lt),
                BinaryOp::Le => quote!(Le),
                BinaryOp::Gt => quote!(Gt),
                BinaryOp::Ge => quote!(Ge),
                _ => quote!(Ne),
            };
            steps.push(quote!(#axis.unless(#sign, 0.0 #(#offsets)*, rt::domain::Cmp::#cmp, #value);));
        }
        let bind = |axis: &proc_macro2::Ident, coord: Coord, i: TokenStream| {
            if guards.iter().any(|g| g.term.coord == coord) {
                quote!(let mut #axis = #full.#i;)
            } else {
                quote!(let #axis = #full.#i;)
            }
        };
        let (bind_x, bind_y) = (bind(&xs, Coord::X, quote!(0)), bind(&ys, Coord::Y, quote!(1)));
        Some(quote!({
            let #full = (rt::domain::Bounds::new(#columns), rt::domain::Bounds::new(#rows));
            let (#xs, #ys) = rt::domain::attempt(|| -> rt::Flow<(rt::domain::Bounds, rt::domain::Bounds)> {
                #bind_x
                #bind_y
                #(#steps)*
                Ok((#xs, #ys))
            })
            .unwrap_or(#full);
            rt::domain::cells(#base, #columns, #xs, #ys)
        }))
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
