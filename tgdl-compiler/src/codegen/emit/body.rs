//! Statements of TGDL blocks, and a function's body as a tail expression. Every
//! generated body returns `rt::Flow<T>`, so rule errors, inputs waiting for an answer
//! and `winner` all propagate with `?`.

use super::context::{BodyGen, Gen, InputFailure, LoopInfo, Ret, This};
use crate::codegen::plan::repr::Owner;
use crate::hir::{Block, Expr, ExprKind, LocalId, Locals, StmtKind, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

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
            StmtKind::Payoffs { ranking, payoffs } => {
                Some(self.end_with_payoffs(ranking.as_ref(), payoffs, s.span))
            }
            StmtKind::Team { team, payoffs } => Some(self.win_team(team, payoffs.as_ref(), s.span)),
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

    /// `!c` as people write it: `a != b` for `a == b` and back, else `!(c)`.
    pub(super) fn negation(&mut self, c: &crate::hir::Expr) -> TokenStream {
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

    pub(super) fn stmt(&mut self, s: &crate::hir::Stmt, locals: &Locals) -> TokenStream {
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
            StmtKind::Payoffs { ranking, payoffs } => {
                let end = self.end_with_payoffs(ranking.as_ref(), payoffs, s.span);
                quote!(return #end;)
            }
            StmtKind::Team { team, payoffs } => {
                let end = self.win_team(team, payoffs.as_ref(), s.span);
                quote!(return #end;)
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
pub(super) fn block_assigns(b: &Block, l: LocalId) -> bool {
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
        Some(
            StmtKind::Return(_) | StmtKind::Winner(_) | StmtKind::Payoffs { .. } | StmtKind::Team { .. },
        ) => true,
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

impl<'p> Gen<'p> {}

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
