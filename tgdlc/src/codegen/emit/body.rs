//! Bodies: the context of one generated function (its locals, `this`, `event`, loops)
//! and the statements of TGDL blocks. Every generated body returns `rt::Flow<T>`, so
//! rule errors, inputs waiting for an answer and `winner` all propagate with `?`.

use super::context::{BodyGen, Gen, InputFailure, LoopInfo, Ret, This};
use crate::codegen::names::{Namer, ident, snake};
use crate::codegen::plan::repr::Owner;
use crate::hir::{Block, ClassId, Expr, ExprKind, FuncId, InputMode, LocalId, Locals, StmtKind, Ty};
use crate::source::Span;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

impl<'g, 'p> BodyGen<'g, 'p> {
    /// `let kind: Option<&'static str> = ...;` for a string local held as the literal it
    /// equals (see `plan::coded`): `None` for null or any other string. The value is
    /// read in place (`from.piece` is not copied).
    fn coded_let(&mut self, name: &Ident, local: LocalId, init: &Expr) -> TokenStream {
        let literals = self.coded[&local].clone();
        let c = self.code(init);
        let ts = super::tokens::group(super::tokens::without_clone(c.ts));
        let value = if c.null { quote!(#ts.as_deref()) } else { quote!(Some(&*#ts)) };
        quote!(let #name: Option<&'static str> = match #value { #(Some(#literals) => Some(#literals),)* _ => None };)
    }

    /// The value of `return v;`. A turn's `default` that returns null is a located rule
    /// error at that `return` naming the turn, not a generic null error.
    fn returned(&mut self, v: &Expr, nullable: bool) -> TokenStream {
        let turn = match self.owner {
            Owner::Func(f) if self.g.prog.func(f).kind == crate::hir::FuncKind::TurnDefault => {
                self.g.prog.turns.iter().find(|t| t.default == Some(f)).map(|t| t.name.clone())
            }
            _ => None,
        };
        if let Owner::Func(f) = self.owner
            && self.g.ret_whole(f)
        {
            return self.whole(v);
        }
        let Some(turn) = turn.filter(|_| !nullable) else { return self.repr(v, nullable) };
        let c = self.code(v);
        if !c.null {
            return c.ts;
        }
        let l = self.loc(v.span);
        let msg = format!("the `default` of the turn `{turn}` returned null: it must return the next player");
        let ts = c.ts;
        quote!(match #ts { Some(next) => next, None => return rt::error::fail(#l, #msg) })
    }

    pub fn block(&mut self, b: &Block, locals: &Locals) -> TokenStream {
        let stmts: Vec<TokenStream> = b.stmts.iter().map(|s| self.stmt(s, locals)).collect();
        quote!(#(#stmts)*)
    }

    /// The statements of a filter's body, those at `guards` (indices of its statements)
    /// running only while `flag` is false: guards that a candidate domain made redundant
    /// (see `domain`).
    pub fn guarded_block(
        &mut self,
        b: &Block,
        locals: &Locals,
        flag: &Ident,
        guards: &[usize],
    ) -> TokenStream {
        let stmts: Vec<TokenStream> = b
            .stmts
            .iter()
            .enumerate()
            .map(
                |(i, s)| if guards.contains(&i) { self.guard(s, locals, flag) } else { self.stmt(s, locals) },
            )
            .collect();
        quote!(#(#stmts)*)
    }

    /// A statement that runs only while `flag` is false. A guard is
    /// `if (cond) { return false; }`.
    fn guard(&mut self, s: &crate::hir::Stmt, locals: &Locals, flag: &Ident) -> TokenStream {
        match &s.kind {
            StmtKind::If { cond, then_branch, else_branch } if else_branch.stmts.is_empty() => {
                let c = self.value(cond);
                let t = self.block(then_branch, locals);
                if super::tokens::has_block(&c) {
                    let condition = self.temp("condition");
                    quote!(if !#flag { let #condition = #c; if #condition { #t } })
                } else {
                    let c = super::tokens::group(c);
                    quote!(if !#flag && #c { #t })
                }
            }
            _ => {
                let code = self.stmt(s, locals);
                quote!(if !#flag { #code })
            }
        }
    }

    /// A function's body: when its last statement returns (on every branch), that
    /// statement becomes the tail expression instead of an explicit `return`. Returns
    /// the tokens and whether they already end with the result.
    pub fn body(&mut self, b: &Block, locals: &Locals) -> (TokenStream, bool) {
        let Some((last, rest)) = b.stmts.split_last() else { return (quote!(), false) };
        let rest: Vec<TokenStream> = rest.iter().map(|s| self.stmt(s, locals)).collect();
        match self.tail(last, locals) {
            Some(t) => (quote!(#(#rest)* #t), true),
            None => {
                let l = self.stmt(last, locals);
                (quote!(#(#rest)* #l), false)
            }
        }
    }

    /// A statement ending a body, as the body's value: `return e;` → `Ok(e)`, `winner`,
    /// and an `if`/`else` both of whose branches end that way.
    fn tail(&mut self, s: &crate::hir::Stmt, locals: &Locals) -> Option<TokenStream> {
        if self.break_with.is_some() {
            return None;
        }
        match &s.kind {
            StmtKind::Return(value) => Some(match (&self.ret.clone(), value) {
                (Ret::Value(_, nullable), Some(v)) => {
                    let v = self.returned(v, *nullable);
                    ok_tail(v)
                }
                _ => quote!(Ok(())),
            }),
            StmtKind::Winner(e) if e.ty == Ty::Player => Some(self.win_player(e)),
            StmtKind::Winner(e) => {
                let ranking = self.ranking(e);
                Some(if super::tokens::needs_mut(e) {
                    quote!({
                        let ranking = #ranking;
                        self.core.win(&ranking)
                    })
                } else {
                    quote!(self.core.win(&#ranking))
                })
            }
            StmtKind::If { cond, then_branch, else_branch }
                if ends_in_return(then_branch) && ends_in_return(else_branch) =>
            {
                let c = self.value(cond);
                let (t, _) = self.body(then_branch, locals);
                let (e, _) = self.body(else_branch, locals);
                if super::tokens::has_block(&c) {
                    let v = self.temp("condition");
                    return Some(quote!({ let #v = #c; if #v { #t } else { #e } }));
                }
                Some(quote!(if #c { #t } else { #e }))
            }
            _ => None,
        }
    }

    /// `for (T x in list)` over a list the body cannot change (see `may_change_lists`):
    /// the items are read in place, one by one, instead of from a copy.
    fn for_in_place(
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
    fn while_null_test(&self, cond: &crate::hir::Expr) -> Option<LocalId> {
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
    fn narrowing_while(
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

    /// `!c` as people write it: `a != b` for `a == b` and back, else `!(c)`.
    fn negation(&mut self, c: &crate::hir::Expr) -> TokenStream {
        use crate::hir::{BinaryOp, ExprKind};
        if let ExprKind::Binary { op: op @ (BinaryOp::Eq | BinaryOp::Ne), lhs, rhs } = &c.kind {
            let op = if *op == BinaryOp::Eq { BinaryOp::Ne } else { BinaryOp::Eq };
            let flipped = crate::hir::Expr {
                kind: ExprKind::Binary { op, lhs: lhs.clone(), rhs: rhs.clone() },
                ..c.clone()
            };
            return self.value(&flipped);
        }
        let v = self.value(c);
        quote!(!(#v))
    }

    fn stmt(&mut self, s: &crate::hir::Stmt, locals: &Locals) -> TokenStream {
        match &s.kind {
            StmtKind::Let { local, init } => {
                let name = self.local_name(*local);
                let ty = self.local_ty(*local, locals);
                let nullable = self.local_nullable(*local);
                let m = if self.mutable.contains(local) { quote!(mut) } else { quote!() };
                match init {
                    Some(e) if self.coded.contains_key(local) => self.coded_let(&name, *local, e),
                    Some(e) if self.local_whole(*local) => {
                        let v = self.whole(e);
                        quote!(let #m #name: #ty = #v;)
                    }
                    Some(e) => {
                        let v = self.repr(e, nullable);
                        quote!(let #m #name: #ty = #v;)
                    }
                    None => quote!(let #m #name: #ty = None;),
                }
            }
            StmtKind::Expr(e) => {
                let code = self.expr(e);
                if e.ty == Ty::Void || e.ty.is_error() { quote!(#code;) } else { quote!(let _ = #code;) }
            }
            // `if (x != null) { .. }`: inside, `x` is its value (when the branch keeps it).
            StmtKind::If { cond, then_branch, else_branch }
                if self
                    .null_test(cond, true)
                    .is_some_and(|l| block_reads(then_branch, l) && !block_assigns(then_branch, l)) =>
            {
                let l = self.null_test(cond, true).expect("checked");
                let name = self.local_name(l);
                self.narrowed.insert(l);
                let t = self.block(then_branch, locals);
                self.narrowed.remove(&l);
                if else_branch.stmts.is_empty() {
                    quote!(if let Some(#name) = #name { #t })
                } else {
                    let e = self.block(else_branch, locals);
                    quote!(if let Some(#name) = #name { #t } else { #e })
                }
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                let c = self.value(cond);
                // A condition holding a block is computed first.
                let (bind, c) = if super::tokens::has_block(&c) {
                    let t = self.temp("condition");
                    (quote!(let #t = #c;), quote!(#t))
                } else {
                    (quote!(), c)
                };
                let t = self.block(then_branch, locals);
                let ts = if else_branch.stmts.is_empty() {
                    quote!(if #c { #t })
                } else if let [crate::hir::Stmt { kind: StmtKind::If { .. }, .. }] =
                    else_branch.stmts.as_slice()
                {
                    let e = self.block(else_branch, locals);
                    quote!(if #c { #t } else #e)
                } else {
                    let e = self.block(else_branch, locals);
                    quote!(if #c { #t } else { #e })
                };
                if bind.is_empty() { ts } else { quote!({ #bind #ts }) }
            }
            StmtKind::While { cond, body } if self.while_null_test(cond).is_some() => {
                self.narrowing_while(s, cond, body, locals)
            }
            StmtKind::While { cond, body } => {
                let tick = self.at(s.span);
                let label = self.label("loop");
                self.loops.push(LoopInfo::plain(label));
                let b = self.block(body, locals);
                self.loops.pop();
                // `while (true)` is a `loop`: Rust then knows it only ends by `break`/`return`.
                let c = if matches!(cond.kind, crate::hir::ExprKind::Bool(true)) {
                    None
                } else {
                    Some(self.value(cond))
                };
                match c {
                    None => quote! {
                        loop {
                            self.core.tick(#tick)?;
                            #b
                        }
                    },
                    // A condition holding a block is computed at the top of each round.
                    Some(c) if super::tokens::has_block(&c) => quote! {
                        loop {
                            let go_on = #c;
                            if !go_on {
                                break;
                            }
                            self.core.tick(#tick)?;
                            #b
                        }
                    },
                    Some(c) => quote! {
                        while #c {
                            self.core.tick(#tick)?;
                            #b
                        }
                    },
                }
            }
            StmtKind::For { init, cond, step, body } => {
                let i = self.block(init, locals);
                let c = cond.as_ref().map(|c| self.value(c));
                let st = self.block(step, locals);
                let tick = self.at(s.span);
                let label = self.label("loop");
                // `continue` leaves a labelled body so that the step still runs.
                let step_label = if contains_continue(body) { Some(self.label("step")) } else { None };
                self.loops.push(LoopInfo { label, step: step_label.clone(), label_used: false });
                let b = self.block(body, locals);
                let info = self.loops.pop().expect("pushed above");
                let body_tokens = match &step_label {
                    Some(l) => quote!(#l: { #b }),
                    None => b,
                };
                let head = match (&c, cond.as_ref().map(|c| &c.kind)) {
                    (_, None | Some(crate::hir::ExprKind::Bool(true))) => quote!(loop),
                    (Some(c), _) => quote!(while #c),
                    (None, _) => quote!(loop),
                };
                let loop_label = if info.label_used {
                    let l = &info.label;
                    quote!(#l:)
                } else {
                    quote!()
                };
                let ts = quote! {
                    #loop_label #head {
                        self.core.tick(#tick)?;
                        #body_tokens
                        #st
                    }
                };
                if init.stmts.is_empty() { ts } else { quote!({ #i #ts }) }
            }
            StmtKind::ForIn { local, list, body }
                if matches!(list.ty, Ty::List(_)) && !self.g.may_change_lists(body, &list.ty) =>
            {
                self.for_in_place(s, *local, list, body, locals)
            }
            StmtKind::ForIn { local, list, body } if matches!(list.ty, Ty::Table(..)) => {
                self.for_in_keys(s, *local, list, body, locals)
            }
            StmtKind::ForIn { local, list, body } => {
                let name = self.local_name(*local);
                let nullable = self.local_nullable(*local);
                let elem_nullable = self.g.null.elem(self.g.prog, &list.ty);
                let items = self.list_items(list);
                let tick = self.at(s.span);
                let label = self.label("loop");
                self.loops.push(LoopInfo::plain(label));
                let b = self.block(body, locals);
                self.loops.pop();
                let bind = match (elem_nullable, nullable) {
                    (false, true) => quote!(let #name = Some(#name);),
                    _ => quote!(),
                };
                let m = if self.mutable.contains(local) { quote!(mut) } else { quote!() };
                quote! {
                    for #m #name in #items {
                        #bind
                        self.core.tick(#tick)?;
                        #b
                    }
                }
            }
            StmtKind::Return(Some(v)) if self.break_with.is_some() => {
                let label = self.break_with.clone().expect("checked");
                let v = self.value(v);
                // `break 'l { .. }` reads like a labelled block: parenthesise a block value.
                let starts_with_block = matches!(
                    v.clone().into_iter().next(),
                    Some(proc_macro2::TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Brace
                );
                if starts_with_block { quote!(break #label (#v);) } else { quote!(break #label #v;) }
            }
            StmtKind::Return(value) => match (&self.ret.clone(), value) {
                (Ret::Value(_, nullable), Some(v)) => {
                    let v = ok_tail(self.returned(v, *nullable));
                    quote!(return #v;)
                }
                _ => quote!(return Ok(());),
            },
            StmtKind::Break => match self.loops.last_mut() {
                // Inside the labelled body of a `for`, the loop must be named.
                Some(info) if info.step.is_some() => {
                    info.label_used = true;
                    let l = &info.label;
                    quote!(break #l;)
                }
                _ => quote!(break;),
            },
            StmtKind::Continue => match self.loops.last() {
                Some(LoopInfo { step: Some(label), .. }) => quote!(break #label;),
                _ => quote!(continue;),
            },
            StmtKind::Winner(e) if e.ty == Ty::Player => {
                let win = self.win_player(e);
                quote!(return #win;)
            }
            StmtKind::Winner(e) => {
                let ranking = self.ranking(e);
                // The ranking may call functions: compute it before borrowing the core.
                if super::tokens::needs_mut(e) {
                    quote!({
                        let ranking = #ranking;
                        return self.core.win(&ranking);
                    })
                } else {
                    quote!(return self.core.win(&#ranking);)
                }
            }
            StmtKind::Throw(e) => {
                let v = self.value(e);
                if super::tokens::needs_mut(e) {
                    quote!({
                        let event = #v;
                        self.throw(event)?;
                    })
                } else {
                    quote!(self.throw(#v)?;)
                }
            }
            StmtKind::Input(input) => {
                let name = self.local_name(input.local);
                let ty = self.local_ty(input.local, locals);
                let value = self.ask_input(input, locals, InputFailure::Error(s.span));
                let m = if self.mutable.contains(&input.local) { quote!(mut) } else { quote!() };
                quote!(let #m #name: #ty = #value;)
            }
            StmtKind::Block(b) => {
                let b = self.block(b, locals);
                quote!({ #b })
            }
        }
    }

    fn label(&mut self, base: &str) -> syn::Lifetime {
        self.labels += 1;
        syn::Lifetime::new(&format!("'{base}{}", self.labels), proc_macro2::Span::call_site())
    }

    /// The elements of a list or stack, as an owned `Vec` snapshot.
    /// `for (K k in t)` over the keys of a `Table<K, V>`, in insertion order. The keys are
    /// taken at the start; a change of the table's keys inside the loop (adding or removing
    /// one) is a located error at the loop, found at the next key or at the end.
    fn for_in_keys(
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

    /// `winner p;`: one player first, everyone else second.
    fn win_player(&mut self, e: &Expr) -> TokenStream {
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
    fn ranking(&mut self, e: &Expr) -> TokenStream {
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
    fn players_vec(&mut self, e: &Expr) -> TokenStream {
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

    /// The expression for `this` (a handle).
    pub fn this_value(&self) -> TokenStream {
        match &self.this {
            This::Instance(_) => quote!(this),
            This::Group => quote!(this),
            This::Global(c) => {
                let h = self.g.handle_ty(*c);
                quote!(<#h>::from_index(0))
            }
            This::None => quote!(()),
        }
    }
}

/// Whether a block assigns the local `l` anywhere (then it cannot be narrowed there).
fn block_assigns(b: &Block, l: LocalId) -> bool {
    let mut found = false;
    b.walk_exprs(&mut |e| found |= super::tokens::assigns(e, l));
    b.walk_stmts(&mut |s| {
        if let StmtKind::Input(i) = &s.kind {
            found |= i.local == l;
        }
    });
    found
}

/// `Ok(v)` as a body's value; `Ok(x?)` is just `x` (every `?` in generated code is on
/// an `rt::Flow`), when `?` ends a chain of calls, fields and indexing at the top level.
fn ok_tail(v: TokenStream) -> TokenStream {
    use proc_macro2::TokenTree;
    let tokens: Vec<TokenTree> = v.clone().into_iter().collect();
    let ends_in_try = matches!(tokens.last(), Some(TokenTree::Punct(p)) if p.as_char() == '?');
    // Only `.` (and `::` paths) may join the chain: any other operator binds looser
    // than `?`, so the `?` would not apply to the whole value.
    let plain_chain = tokens[..tokens.len().saturating_sub(1)].iter().all(|t| match t {
        TokenTree::Punct(p) => matches!(p.as_char(), '.' | ':' | '?'),
        _ => true,
    });
    if ends_in_try && plain_chain {
        tokens[..tokens.len() - 1].iter().cloned().collect()
    } else {
        quote!(Ok(#v))
    }
}

/// Whether a block reads the local `l` anywhere.
fn block_reads(b: &Block, l: LocalId) -> bool {
    let mut found = false;
    b.walk_exprs(&mut |e| found |= matches!(e.kind, ExprKind::Local(x) if x == l));
    found
}

/// Whether a block's last statement returns on every branch (so it can be a tail).
fn ends_in_return(b: &Block) -> bool {
    match b.stmts.last().map(|s| &s.kind) {
        Some(StmtKind::Return(_) | StmtKind::Winner(_)) => true,
        Some(StmtKind::If { then_branch, else_branch, .. }) => {
            ends_in_return(then_branch) && ends_in_return(else_branch)
        }
        _ => false,
    }
}

fn contains_continue(b: &Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Continue => true,
        StmtKind::If { then_branch, else_branch, .. } => {
            contains_continue(then_branch) || contains_continue(else_branch)
        }
        StmtKind::Block(b) => contains_continue(b),
        _ => false,
    })
}

impl<'p> Gen<'p> {
    /// Line and column of a span's start (1-based).
    pub(super) fn line_col(&self, span: Span) -> (u32, u32) {
        match &self.sources {
            Some(s) => {
                let file = s.get(span.file);
                file.line_col(span.start)
            }
            None => (0, 0),
        }
    }

    /// `loc(line, column)` (or `loc_in(file, ..)`) for a span, outside a body.
    pub(super) fn loc_of(&self, span: Span) -> TokenStream {
        let (line, column) = self.line_col(span);
        if span.file.0 == 0 {
            quote!(loc(#line, #column))
        } else {
            let f = span.file.0 as usize;
            quote!(loc_in(#f, #line, #column))
        }
    }

    /// `loc_ref::<line, column>()` (or `loc_ref_in::<file, ..>()`) for a span: a `&'static Loc`,
    /// for the checks on hot paths (loop ticks, nulls, finite arithmetic).
    pub(super) fn at_of(&self, span: Span) -> TokenStream {
        let (line, column) = self.line_col(span);
        if span.file.0 == 0 {
            quote!(loc_ref::<#line, #column>())
        } else {
            let f = span.file.0 as usize;
            quote!(loc_ref_in::<#f, #line, #column>())
        }
    }

    /// User functions: one Rust method of `World` each (plus a dispatcher for overridden ones).
    pub(super) fn functions(&self) -> TokenStream {
        let mut out = Vec::new();
        for (i, f) in self.prog.funcs.iter().enumerate() {
            let id = FuncId(i as u32);
            if f.kind == crate::hir::FuncKind::User || f.kind == crate::hir::FuncKind::DeckDefault {
                out.push(self.function(id));
            } else {
                out.push(self.default_block(id));
            }
        }
        out.push(self.dispatchers());
        quote! {
            // A game may store a value it never reads again, and define functions its
            // rules never call (in a library it imports, say): neither is an error.
            #[allow(unused_assignments, dead_code)]
            impl World {
                #(#out)*
            }
        }
    }

    /// The implementation name of a function (overridden functions are reached through a
    /// dispatcher that keeps the plain name).
    pub(super) fn impl_name(&self, f: FuncId) -> Ident {
        let name = &self.func_name[&f];
        if self.overriders(f).is_empty() {
            name.clone()
        } else {
            format_ident!("{}_impl", name.to_string().trim_start_matches("r#"))
        }
    }

    fn function(&self, id: FuncId) -> TokenStream {
        let f = self.prog.func(id);
        let this = match f.owner {
            Some(c) if self.is_global(c) => This::Global(c),
            Some(c) => This::Instance(c),
            None => This::None,
        };
        let ret_nullable = self.null.ret(id);
        let ret = if f.ret == Ty::Void || f.ret.is_error() {
            Ret::Unit
        } else {
            Ret::Value(f.ret.clone(), ret_nullable)
        };
        let owner = Owner::Func(id);
        let mut b = BodyGen::new(self, owner, &f.locals, &[&f.body], this.clone(), ret.clone());
        let mut params = Vec::new();
        if let This::Instance(c) = &this {
            let h = self.handle_ty(*c);
            let uses =
                uses_this(&f.body) || f.inputs.iter().any(|i| !i.filters.is_empty() || i.domain.is_some());
            let n = if uses || f.kind == crate::hir::FuncKind::DeckDefault {
                quote!(this)
            } else {
                quote!(_this)
            };
            params.push(quote!(#n: #h));
        }
        let mut prelude = Vec::new();
        for input in &f.inputs {
            let name = b.local_name(input.local);
            let ty = b.local_ty(input.local, &f.locals);
            match &input.mode {
                InputMode::Function { .. } => {
                    let m = if b.mutable.contains(&input.local) { quote!(mut) } else { quote!() };
                    params.push(quote!(#m #name: #ty));
                }
                _ => {
                    let v = b.ask_input(input, &f.locals, InputFailure::Error(input.span));
                    prelude.push(quote!(let #name: #ty = #v;));
                }
            }
        }
        let (body, ends) = b.body(&f.body, &f.locals);
        let ret_ty = match &ret {
            Ret::Unit => quote!(()),
            Ret::Value(..) if self.ret_whole(id) => quote!(i64),
            Ret::Value(t, n) => self.rust_ty(t, *n),
        };
        let tail = match ret {
            _ if ends => quote!(),
            Ret::Unit => quote!(Ok(())),
            // Every path returns (checked); this satisfies the Rust compiler.
            Ret::Value(..) if crate::sema::always_returns(&f.body) => quote!(),
            Ret::Value(..) => {
                let l = b.loc(f.span);
                quote!(Err(rt::error::missing_return(#l)))
            }
        };
        let name = self.impl_name(id);
        let doc = match f.owner {
            Some(c) if f.kind == crate::hir::FuncKind::DeckDefault => {
                format!(" `default` of `{}`.", self.prog.class(c).name)
            }
            Some(c) => format!(" `{}.{}`", self.prog.class(c).name, f.name),
            None => format!(" `{}`", f.name),
        };
        // Small functions are inlined: a rule like "count the discs in a line" is called
        // many times per move, and a call costs as much as its body.
        let inline = if self.is_small_leaf(id) { quote!(#[inline(always)]) } else { quote!() };
        quote! {
            #[doc = #doc]
            #inline
            fn #name(&mut self, #(#params),*) -> rt::Flow<#ret_ty> {
                #(#prelude)*
                #body
                #tail
            }
        }
    }

    /// Turn and group `default` blocks.
    fn default_block(&self, id: FuncId) -> TokenStream {
        let f = self.prog.func(id);
        let (this, params, doc) = match f.kind {
            crate::hir::FuncKind::GroupDefault => (
                This::Group,
                quote!(this: rt::Id<Group>),
                " Builds a graph group (its `default` block).".to_string(),
            ),
            _ => (
                This::None,
                quote!(),
                format!(
                    " The next player of the turn `{}` (its `default` block).",
                    f.name.trim_end_matches("_default")
                ),
            ),
        };
        let ret = if f.ret == Ty::Void { Ret::Unit } else { Ret::Value(f.ret.clone(), false) };
        let mut b = BodyGen::new(self, Owner::Func(id), &f.locals, &[&f.body], this, ret.clone());
        let (body, ends) = b.body(&f.body, &f.locals);
        let name = &self.func_name[&id];
        let (ret_ty, tail) = match ret {
            _ if ends => {
                let t = if let Ret::Value(t, _) = &ret { self.rust_ty(t, false) } else { quote!(()) };
                (t, quote!())
            }
            Ret::Unit => (quote!(()), quote!(Ok(()))),
            Ret::Value(t, _) => {
                let tail = if crate::sema::always_returns(&f.body) {
                    quote!()
                } else {
                    let l = b.loc(f.span);
                    quote!(Err(rt::error::missing_return(#l)))
                };
                (self.rust_ty(&t, false), tail)
            }
        };
        quote! {
            #[doc = #doc]
            fn #name(&mut self, #params) -> rt::Flow<#ret_ty> {
                #body
                #tail
            }
        }
    }

    /// For each overridden function, a method with its name that runs the implementation
    /// of the object's class.
    fn dispatchers(&self) -> TokenStream {
        let mut out = Vec::new();
        for (i, f) in self.prog.funcs.iter().enumerate() {
            let id = FuncId(i as u32);
            let overriders = self.overriders(id);
            if overriders.is_empty() || f.overrides.is_some() {
                continue;
            }
            let Some(owner) = f.owner else { continue };
            let Some(h) = self.hierarchy(owner) else { continue };
            let Some(kind) = &h.kind_enum else { continue };
            let arena = &h.arena;
            let _ = kind;
            let name = &self.func_name[&id];
            let hty = self.handle_ty(owner);
            // The dispatcher's own parameter names: unique (`fooBar` and `foo_bar`), never
            // `this`, which it takes first.
            let mut param_names = Namer::with_reserved(&["this"]);
            let inputs: Vec<(Ident, &crate::hir::Input)> = f
                .inputs
                .iter()
                .filter(|i| matches!(i.mode, InputMode::Function { .. }))
                .map(|i| (ident(&param_names.fresh(&snake(&i.name))), i))
                .collect();
            let params: Vec<TokenStream> = inputs
                .iter()
                .map(|(n, i)| {
                    let t = self.local_rust_ty(Owner::Func(id), i.local, &i.ty);
                    quote!(#n: #t)
                })
                .collect();
            let args: Vec<&Ident> = inputs.iter().map(|(n, _)| n).collect();
            let ret = if f.ret == Ty::Void {
                quote!(())
            } else if self.ret_whole(id) {
                quote!(i64)
            } else {
                self.rust_ty(&f.ret, self.null.ret(id))
            };
            // Each concrete class runs the most derived implementation along its chain.
            let mut arms = Vec::new();
            for (class, v) in &h.variants {
                if !self.prog.is_subclass(*class, owner) {
                    continue;
                }
                let mut imp = id;
                let mut best_depth = 0;
                for &o in &overriders {
                    let oc = self.prog.func(o).owner.unwrap_or(owner);
                    if self.prog.is_subclass(*class, oc) {
                        let depth = depth_of(self.prog, oc);
                        if depth > best_depth {
                            best_depth = depth;
                            imp = o;
                        }
                    }
                }
                let target = self.impl_name(imp);
                let _ = v;
                let pattern = self.variant_pattern(h, *class);
                arms.push(quote!(#pattern => self.#target(this, #(#args),*),));
            }
            out.push(quote! {
                /// Runs the implementation for the object's class.
                fn #name(&mut self, this: #hty, #(#params),*) -> rt::Flow<#ret> {
                    match self.#arena[this].kind {
                        #(#arms)*
                        #[allow(unreachable_patterns)]
                        _ => Err(rt::error::wrong_class()),
                    }
                }
            });
        }
        quote!(#(#out)*)
    }
}

fn depth_of(prog: &crate::hir::Program, mut c: ClassId) -> usize {
    let mut d = 0;
    while let Some(b) = prog.class(c).base {
        d += 1;
        c = b;
    }
    d
}

/// Whether a block mentions `this`.
pub(super) fn uses_this(b: &Block) -> bool {
    let mut found = false;
    b.walk_exprs(&mut |e| {
        if matches!(e.kind, ExprKind::This) {
            found = true;
        }
    });
    found
}

/// Whether a block mentions `event`.
/// Whether a block reads `event` other than as `event.active`, which is the engine's
/// active player (the generated code reads no `event` for it, so binding one would leave
/// an unused variable).
pub(super) fn uses_event(prog: &crate::hir::Program, b: &Block) -> bool {
    let (mut events, mut actives) = (0, 0);
    b.walk_exprs(&mut |e| count_event_reads(prog, e, &mut events, &mut actives));
    events > actives
}

/// Counts `event` reads in one expression node, and among them those of `event.active`.
pub(super) fn count_event_reads(
    prog: &crate::hir::Program,
    e: &crate::hir::Expr,
    events: &mut usize,
    actives: &mut usize,
) {
    match &e.kind {
        ExprKind::Event => *events += 1,
        ExprKind::Attr { object, attr }
            if matches!(object.kind, ExprKind::Event)
                && prog.attr(*attr).builtin == Some(crate::hir::BuiltinAttr::Active) =>
        {
            *actives += 1
        }
        _ => {}
    }
}
