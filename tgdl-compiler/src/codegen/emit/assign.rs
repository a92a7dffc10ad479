//! Assignments to locals, attributes and collection items, with what a write must also
//! update (see `writes`).

use super::context::BodyGen;
use super::tokens::wrap_unit;
use super::tokens::{group, needs_mut};
use crate::hir::{BinaryOp, Expr, ExprKind, Ty};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

impl<'g, 'p> BodyGen<'g, 'p> {
    pub(super) fn assign(&mut self, target: &Expr, value: &Expr) -> TokenStream {
        let g = self.g;
        let prog = g.prog;
        if let Some(ts) = self.compound_assign(target, value) {
            return ts;
        }
        // `x = x` changes nothing (and Rust warns of it).
        if let (ExprKind::Local(t), ExprKind::Local(v)) = (&target.kind, &value.kind)
            && t == v
        {
            let n = self.local_name(*t);
            return quote!(let _ = #n);
        }
        match &target.kind {
            ExprKind::Local(l) => {
                let n = self.local_name(*l);
                let v = if self.local_whole(*l) {
                    self.whole(value)
                } else {
                    self.repr(value, self.local_nullable(*l))
                };
                quote!(#n = #v)
            }
            ExprKind::Attr { object, attr } => {
                let a = prog.attr(*attr);
                let field = &g.attr_field[attr];
                let v = self.repr(value, g.null.attr(prog, *attr));
                let owner_class = match &object.ty {
                    Ty::Class(c) => *c,
                    _ => a.class,
                };
                if let Some((_, gf)) = g.globals.get(&prog.class(owner_class).root) {
                    return quote!(self.#gf.#field = #v);
                }
                let Some(h) = g.hierarchy(a.class) else { return quote!(()) };
                let arena = h.arena.clone();
                let o = self.value(object);
                // Rust evaluates the value before the place, as TGDL does.
                let (lets, vals) = self.hoist(vec![(v, needs_mut(value)), (o, needs_mut(object))], false);
                let (v, o) = (&vals[0], &vals[1]);
                if g.write_moves_owner(*attr) {
                    // An indexed owner: its sets follow the write (`plan::owners`), and kept
                    // menus whose filters read the attribute test the tile again.
                    let (value, target, before) =
                        (self.temp("value"), self.temp("target"), self.temp("before"));
                    let owner = |t: &proc_macro2::Ident| {
                        if g.null.attr(prog, *attr) {
                            quote!(self.#arena[#t].#field)
                        } else {
                            quote!(Some(self.#arena[#t].#field))
                        }
                    };
                    let read = owner(&target);
                    let hooks = g.after_write(*attr, &quote!(#target), Some((&before, &read)));
                    return wrap_unit(
                        lets,
                        quote!({
                            let #value = #v;
                            let #target = #o;
                            let #before = #read;
                            self.#arena[#target].#field = #value;
                            #hooks
                        }),
                    );
                }
                let place = if g.attr_on_root(*attr) {
                    quote!(self.#arena[#o].#field = #v)
                } else {
                    let m = format_ident!("{}_mut", field.to_string().trim_start_matches("r#"));
                    quote!(*self.#arena[#o].#m()? = #v)
                };
                // Kept menus whose filters read the attribute test the tile again (`kept`):
                // the place is read again, pure (else hoisted) and just found.
                let touches = g.after_write(*attr, &group(o.clone()), None);
                if touches.is_empty() {
                    return wrap_unit(lets, place);
                }
                wrap_unit(lets, quote!({ #place; #touches }))
            }
            ExprKind::Index { object, index } => {
                let arena = g.collection_arena(&object.ty);
                let h = self.value(object);
                match &object.ty {
                    Ty::Table(..) => {
                        let k = self.key(index);
                        let v = self.repr(value, true);
                        // A new key is checked against the list budget, at the assignment.
                        let at = self.at(target.span);
                        let (lets, vals) = self.hoist(vec![(v, true), (h, true), (k, true)], true);
                        let (v, h, k) = (&vals[0], &vals[1], &vals[2]);
                        wrap_unit(lets, quote!(self.#arena[#h].set_at(#k, #v, #at)?))
                    }
                    _ => {
                        let nullable = g.null.elem(prog, &object.ty);
                        let v = self.repr(value, nullable);
                        let i = self.value(index);
                        let l = self.loc(target.span);
                        let (lets, vals) = self.hoist(vec![(v, true), (h, true), (i, true)], true);
                        let (v, h, i) = (&vals[0], &vals[1], &vals[2]);
                        wrap_unit(lets, quote!(self.#arena[#h].set(#i, #v, #l)?))
                    }
                }
            }
            _ => quote!(()),
        }
    }

    /// `t = t + e` (how `t += e` is checked) written back as `t += e` when `t` is a plain
    /// non-null number place.
    pub(super) fn compound_assign(&mut self, target: &Expr, value: &Expr) -> Option<TokenStream> {
        let g = self.g;
        let ExprKind::Binary { op, lhs, rhs } = &value.kind else { return None };
        let sym = match op {
            BinaryOp::Add => quote!(+=),
            BinaryOp::Sub => quote!(-=),
            BinaryOp::Mul => quote!(*=),
            _ => return None,
        };
        if **lhs != *target || target.ty != Ty::Number {
            return None;
        }
        // A write that moves an owner index reads the old value first: the general path.
        if let ExprKind::Attr { attr, .. } = &target.kind
            && g.write_moves_owner(*attr)
        {
            return None;
        }
        let place = match &target.kind {
            ExprKind::Local(l) if !self.local_nullable(*l) => {
                let n = self.local_name(*l);
                quote!(#n)
            }
            ExprKind::Attr { object, attr }
                if !g.null.attr(g.prog, *attr) && g.prog.attr(*attr).builtin.is_none() =>
            {
                let field = &g.attr_field[attr];
                let owner = match &object.ty {
                    Ty::Class(c) => *c,
                    _ => g.prog.attr(*attr).class,
                };
                if let Some((_, gf)) = g.globals.get(&g.prog.class(owner).root) {
                    quote!(self.#gf.#field)
                } else if needs_mut(object) {
                    return None;
                } else {
                    let arena = g.hierarchy(g.prog.attr(*attr).class)?.arena.clone();
                    let o = self.value(object);
                    if g.attr_on_root(*attr) {
                        quote!(self.#arena[#o].#field)
                    } else {
                        let m = format_ident!("{}_mut", field.to_string().trim_start_matches("r#"));
                        quote!(*self.#arena[#o].#m()?)
                    }
                }
            }
            _ => return None,
        };
        let whole = matches!(target.kind, ExprKind::Local(l) if self.local_whole(l));
        // Kept menus whose filters read the attribute test the tile again (`kept`); the
        // object is pure (else the write takes the general path) and read once more.
        let touch = match &target.kind {
            ExprKind::Attr { object, attr } if g.write_has_hooks(*attr) => {
                let o = group(self.value(object));
                g.after_write(*attr, &o, None)
            }
            _ => quote!(),
        };
        let v = if whole { self.whole(rhs) } else { self.value(rhs) };
        // A double can overflow to infinity (and then to NaN): a located error, as for `^`.
        let check = if whole || cannot_overflow(*op, lhs, rhs) {
            quote!()
        } else {
            let l = self.at(value.span);
            quote!(rt::value::finite(#place, #l)?;)
        };
        if needs_mut(rhs) {
            let t = self.temp("value");
            Some(quote!({ let #t = #v; #place #sym #t; #check #touch }))
        } else if whole {
            Some(quote!(#place #sym #v))
        } else {
            Some(quote!({ #place #sym #v; #check #touch }))
        }
    }
}

/// Whether `lhs op rhs` (`+`, `-`, `*`) is finite whatever finite values the operands
/// hold, so it needs no `finite` check: every number a game holds is finite (each
/// operation that could leave the finite range is checked), and a finite double plus or
/// minus a literal of at most 2^52 in size, or times a literal of at most 1 in size,
/// stays finite (the sum rounds to at most `f64::MAX`; the product shrinks).
pub(super) fn cannot_overflow(op: BinaryOp, lhs: &Expr, rhs: &Expr) -> bool {
    let literal = |e: &Expr| match e.kind {
        ExprKind::Number(n) => Some(n.abs()),
        _ => None,
    };
    let bound = match op {
        BinaryOp::Add | BinaryOp::Sub => (1u64 << 52) as f64,
        BinaryOp::Mul => 1.0,
        _ => return false,
    };
    [lhs, rhs].into_iter().any(|e| literal(e).is_some_and(|n| n <= bound))
}
