//! Loops: `for ... in` over lists (in place when the body cannot change them) and table
//! keys, `while` loops that narrow a nullable local, and their labels.

use super::body::block_assigns;
use super::context::{BodyGen, LoopInfo};
use crate::hir::{Block, Expr, LocalId, Locals, StmtKind, Ty};
use proc_macro2::TokenStream;
use quote::quote;

impl<'g, 'p> BodyGen<'g, 'p> {
    /// `for (T x in list)` over a list the body cannot change (see `may_change_lists`):
    /// the items are read in place, one by one, instead of from a copy.
    pub(super) fn for_in_place(
        &mut self,
        s: &crate::hir::Stmt,
        local: LocalId,
        list: &Expr,
        body: &Block,
        locals: &Locals,
    ) -> TokenStream {
        let name = self.local_name(local);
        let nullable = self.local_nullable(local);
        let elem_nullable = self.g.null.elem(self.g.prog, &list.ty);
        let arena = self.g.collection_arena(&list.ty);
        let h = self.value(list);
        let l = self.temp("list");
        let k = self.temp("k");
        let tick = self.at(s.span);
        let label = self.label("loop");
        self.loops.push(LoopInfo::plain(label));
        let b = self.block(body, locals);
        self.loops.pop();
        // Strings are shared, not copied: the loop variable holds a clone of the `Arc`.
        let clone = if list.ty.element() == Some(&Ty::String) { quote!(.clone()) } else { quote!() };
        let item = match (elem_nullable, nullable) {
            (false, true) => quote!(Some(self.#arena[#l].items[#k]#clone)),
            _ => quote!(self.#arena[#l].items[#k]#clone),
        };
        let m = if self.mutable.contains(&local) { quote!(mut) } else { quote!() };
        quote! {
            let #l = #h;
            for #k in 0..self.#arena[#l].items.len() {
                let #m #name = #item;
                self.core.tick(#tick)?;
                #b
            }
        }
    }

    /// The local a `while (x != null && ..)` condition tests, when the loop can read it
    /// as a value: the rest of the condition does not assign it.
    pub(super) fn while_null_test(&self, cond: &crate::hir::Expr) -> Option<LocalId> {
        use crate::hir::{BinaryOp, ExprKind};
        match &cond.kind {
            // The rest becomes `if !(rest) { break; }`: only where that negation reads
            // plainly (`!=` for `==`, `!f()`), not for orderings or `&&`/`||` chains.
            ExprKind::Binary { op: BinaryOp::And, lhs, rhs }
                if matches!(&rhs.kind, ExprKind::Binary { op: BinaryOp::Eq | BinaryOp::Ne, .. })
                    || !matches!(&rhs.kind, ExprKind::Binary { .. } | ExprKind::Unary { .. }) =>
            {
                self.null_test(lhs, true).filter(|&l| !super::tokens::assigns(rhs, l))
            }
            _ => self.null_test(cond, true),
        }
    }

    /// `while (x != null && c) { .. }` reads `x` as a value in `c` and in the body up to
    /// (and including the value of) the first statement that assigns `x`:
    ///
    /// ```text
    /// while let Some(x_value) = x {
    ///     if !(c) { break; }
    ///     ..
    /// }
    /// ```
    pub(super) fn narrowing_while(
        &mut self,
        s: &crate::hir::Stmt,
        cond: &crate::hir::Expr,
        body: &Block,
        locals: &Locals,
    ) -> TokenStream {
        use crate::hir::ExprKind;
        let l = self.while_null_test(cond).expect("checked by the caller");
        let name = self.local_name(l);
        let alias = self.temp(&format!("{}_value", name.to_string().trim_start_matches("r#")));
        let tick = self.at(s.span);
        let label = self.label("loop");
        self.loops.push(LoopInfo::plain(label));
        self.narrowed.insert(l);
        self.aliases.insert(l, alias.clone());
        let rest = match &cond.kind {
            ExprKind::Binary { op: crate::hir::BinaryOp::And, rhs, .. } => {
                let stop = self.negation(rhs);
                quote!(if #stop { break; })
            }
            _ => quote!(),
        };
        let mut stmts = Vec::new();
        for stmt in &body.stmts {
            let narrowed = self.aliases.contains_key(&l);
            let assigns = block_assigns(&Block { stmts: vec![stmt.clone()] }, l);
            // `x = e` may still read `x` in `e`; a nested assignment ends narrowing before.
            let simple = matches!(&stmt.kind,
                StmtKind::Expr(e) if matches!(&e.kind, ExprKind::Assign { target, value }
                    if matches!(target.kind, ExprKind::Local(t) if t == l) && !super::tokens::assigns(value, l)));
            if narrowed && assigns && !simple {
                self.narrowed.remove(&l);
                self.aliases.remove(&l);
            }
            stmts.push(self.stmt(stmt, locals));
            if assigns {
                self.narrowed.remove(&l);
                self.aliases.remove(&l);
            }
        }
        self.narrowed.remove(&l);
        self.aliases.remove(&l);
        self.loops.pop();
        quote! {
            while let Some(#alias) = #name {
                #rest
                self.core.tick(#tick)?;
                #(#stmts)*
            }
        }
    }

    pub(super) fn label(&mut self, base: &str) -> syn::Lifetime {
        self.labels += 1;
        syn::Lifetime::new(&format!("'{base}{}", self.labels), proc_macro2::Span::call_site())
    }

    /// The elements of a list or stack, as an owned `Vec` snapshot.
    /// `for (K k in t)` over the keys of a `Table<K, V>`, in insertion order. The keys are
    /// taken at the start; a change of the table's keys inside the loop (adding or removing
    /// one) is a located error at the loop, found at the next key or at the end.
    pub(super) fn for_in_keys(
        &mut self,
        s: &crate::hir::Stmt,
        local: LocalId,
        table: &Expr,
        body: &Block,
        locals: &Locals,
    ) -> TokenStream {
        let name = self.local_name(local);
        let nullable = self.local_nullable(local);
        let key_ty = match &table.ty {
            Ty::Table(_, Some(k)) => (**k).clone(),
            _ => Ty::Error,
        };
        let h = self.value(table);
        let arena = self.g.collection_arena(&table.ty);
        let l = self.loc(s.span);
        let tick = self.at(s.span);
        let (t, keys, i, k) = (self.temp("table"), self.temp("keys"), self.temp("i"), self.temp("key"));
        let conv = self.key_back(quote!(#k), &key_ty, l.clone());
        let label = self.label("loop");
        self.loops.push(LoopInfo::plain(label));
        let b = self.block(body, locals);
        self.loops.pop();
        let bind = if nullable { quote!(let #name = Some(#name);) } else { quote!() };
        let m = if self.mutable.contains(&local) { quote!(mut) } else { quote!() };
        let msg = "the table's keys changed inside the loop over them";
        quote!({
            let #t = #h;
            let #keys: Vec<rt::collections::Key> =
                self.#arena[#t].entries.iter().map(|(k, _)| k.clone()).collect();
            for (#i, #k) in #keys.iter().enumerate() {
                if self.#arena[#t].entries.len() != #keys.len() || self.#arena[#t].entries[#i].0 != *#k {
                    return rt::error::fail(#l, #msg);
                }
                let #m #name = #conv?;
                #bind
                self.core.tick(#tick)?;
                #b
            }
            if !self.#arena[#t].entries.iter().map(|(k, _)| k).eq(#keys.iter()) {
                return rt::error::fail(#l, #msg);
            }
        })
    }

    pub fn list_items(&mut self, list: &Expr) -> TokenStream {
        let h = self.value(list);
        let arena = self.g.collection_arena(&list.ty);
        // The list is computed first (it may be a call or a new list), then copied.
        let (h, lets) = if super::tokens::needs_mut(list) {
            (quote!(list), quote!(let list = #h;))
        } else {
            (h, quote!())
        };
        match list.ty {
            Ty::Stack(_) => quote!({ #lets self.#arena[#h].items.iter().cloned().collect::<Vec<_>>() }),
            _ if lets.is_empty() => quote!(self.#arena[#h].items.clone()),
            _ => quote!({ #lets self.#arena[#h].items.clone() }),
        }
    }
}
