//! Expressions. Each becomes a Rust expression over `self` (the `World`), in the value's
//! representation (`Option` only where `null` can occur). Sub-expressions that need
//! `&mut self` are bound to temporaries first wherever the expression around them holds a
//! borrow, in source order.

use super::assign::cannot_overflow;
use super::context::{BodyGen, Code};
use super::tokens::{assigns, group, needs_mut, reads, without_clone};
use super::tokens::{comparison, is_trivial, number_lit, wrap};
use crate::hir::{BinaryOp, BuiltinAttr, ClassId, Expr, ExprKind, PlayerOp, Ty, UnaryOp};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

impl<'g, 'p> BodyGen<'g, 'p> {
    /// The expression in its natural representation.
    pub fn expr(&mut self, e: &Expr) -> TokenStream {
        self.code(e).ts
    }

    /// The expression's value, known not to be null (a located error if it is).
    pub fn value(&mut self, e: &Expr) -> TokenStream {
        let c = self.code(e);
        if c.null {
            let ts = c.ts;
            let l = self.at(e.span);
            quote!(rt::error::some(#ts, #l)?)
        } else {
            c.ts
        }
    }

    /// Whether `e` is a whole number computed as an `i64` (see `codegen::whole`).
    pub(super) fn is_whole(&self, e: &Expr) -> bool {
        self.g.whole.range(self.g.prog, &self.g.null, self.owner, e).is_some()
    }

    /// A whole-number expression as an `i64` (see `codegen::whole`): literals, whole
    /// locals, tile coordinates, and `+ - *` of those.
    pub(super) fn whole(&mut self, e: &Expr) -> TokenStream {
        if self.is_whole(e) {
            match &e.kind {
                ExprKind::Number(n) => {
                    let lit = Literal::i64_unsuffixed(n.abs() as i64);
                    return if *n < 0.0 { group(quote!(-#lit)) } else { quote!(#lit) };
                }
                ExprKind::Local(l) => {
                    let n = self.local_name(*l);
                    return quote!(#n);
                }
                ExprKind::Attr { object, attr } => return self.attr_read_as(object, *attr, true).ts,
                ExprKind::Call { func, receiver, args, virtual_call } => {
                    return self.call(e, *func, receiver.as_deref(), args, *virtual_call, true).ts;
                }
                ExprKind::Unary { operand, .. } => {
                    let v = self.whole(operand);
                    return group(quote!(-#v));
                }
                ExprKind::Binary { op, lhs, rhs } => {
                    let a = self.whole(lhs);
                    let b = self.whole(rhs);
                    return match op {
                        BinaryOp::Add => group(quote!(#a + #b)),
                        BinaryOp::Sub => group(quote!(#a - #b)),
                        _ => group(quote!(#a * #b)),
                    };
                }
                _ => {}
            }
        }
        // The analysis only stores whole values in whole slots; a double here would be a
        // compiler bug, and truncating it would hide it.
        let v = self.value(e);
        let l = self.loc(e.span);
        quote!(rt::value::whole(#v, #l)?)
    }

    /// The expression as `Option<T>` (`nullable`) or `T`.
    pub fn repr(&mut self, e: &Expr, nullable: bool) -> TokenStream {
        if matches!(e.kind, ExprKind::Null) {
            return if nullable {
                quote!(None)
            } else {
                let l = self.at(e.span);
                quote!(rt::error::some(None, #l)?)
            };
        }
        if nullable {
            let c = self.code(e);
            let ts = c.ts;
            if c.null { ts } else { quote!(Some(#ts)) }
        } else {
            self.value(e)
        }
    }

    /// Binds the values of `exprs` to temporaries where needed so that they can be used
    /// inside an expression holding a borrow of the world. Returns the `let`s and the
    /// values, in order. With `all`, every non-trivial value is bound.
    pub(super) fn hoist(
        &mut self,
        values: Vec<(TokenStream, bool)>,
        all: bool,
    ) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let last = values.iter().rposition(|(_, muts)| *muts || all);
        let mut lets = Vec::new();
        let mut out = Vec::new();
        for (i, (ts, _)) in values.into_iter().enumerate() {
            if last.is_some_and(|l| i <= l) && !is_trivial(&ts) {
                let t = self.temp("value");
                lets.push(quote!(let #t = #ts;));
                out.push(quote!(#t));
            } else {
                out.push(ts);
            }
        }
        (lets, out)
    }

    pub(super) fn code(&mut self, e: &Expr) -> Code {
        let g = self.g;
        let prog = g.prog;
        match &e.kind {
            ExprKind::Number(n) => Code { ts: number_lit(*n), null: false },
            ExprKind::String(s) => Code { ts: quote!(rt::Str::from(#s)), null: false },
            ExprKind::Bool(b) => Code { ts: quote!(#b), null: false },
            ExprKind::Null => Code { ts: quote!(None), null: true },
            ExprKind::Local(l) => {
                let n = self.aliases.get(l).cloned().unwrap_or_else(|| self.local_name(*l));
                if self.local_whole(*l) {
                    return Code { ts: quote!(rt::value::number(#n)), null: false };
                }
                let null = self.local_nullable(*l) && !self.narrowed.contains(l);
                let ts = if e.ty == Ty::String { quote!(#n.clone()) } else { quote!(#n) };
                Code { ts, null }
            }
            ExprKind::This => Code { ts: self.this_value(), null: false },
            ExprKind::Event => match &self.event {
                Some((n, null)) => Code { ts: quote!(#n), null: *null },
                None => Code { ts: quote!(None), null: true },
            },
            ExprKind::Global(c) => {
                let h = g.handle_ty(*c);
                Code { ts: quote!(<#h>::from_index(0)), null: false }
            }
            ExprKind::BoardGroup { board, group } => {
                let c = g.group_const(*board, *group);
                Code { ts: quote!(#c), null: false }
            }
            ExprKind::Param(i) => {
                let choices = &prog.params[*i].choices;
                let i = proc_macro2::Literal::usize_unsuffixed(*i);
                let ts = if e.ty == Ty::Bool {
                    quote!(self.core.param_bool(#i))
                } else if e.ty == Ty::String {
                    // The value is the index of the text, checked when the game started.
                    let arms = choices.iter().enumerate().map(|(k, c)| quote!(#k => #c,));
                    quote!(rt::Str::from(match self.core.param(#i) as usize { #(#arms)* _ => "" }))
                } else {
                    quote!(self.core.param(#i))
                };
                Code { ts, null: false }
            }
            ExprKind::Attr { object, attr } => self.attr_read(object, *attr),
            ExprKind::Call { func, receiver, args, virtual_call } => {
                self.call(e, *func, receiver.as_deref(), args, *virtual_call, false)
            }
            ExprKind::CallAction { action, receiver } => {
                let this =
                    if g.is_global(prog.action(*action).owner) { None } else { Some(self.value(receiver)) };
                let call = g.call_action_now(*action, this);
                let l = self.loc(e.span);
                Code { ts: quote!({ self.core.enter(#l)?; #call; self.core.leave(); }), null: false }
            }
            ExprKind::Builtin { op, args } => self.builtin(e, *op, args),
            ExprKind::Unary { op, operand } => {
                let v = self.value(operand);
                let ts = match op {
                    UnaryOp::Neg => group(quote!(-#v)),
                    UnaryOp::Not => group(quote!(!#v)),
                };
                Code { ts, null: false }
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(e, *op, lhs, rhs),
            ExprKind::ToPlayer(inner) => {
                let v = self.value(inner);
                let (lets, v) = self.hoist(vec![(v, needs_mut(inner))], false);
                let v = &v[0];
                Code { ts: wrap(lets, quote!(self.core.wrap_player(#v))), null: false }
            }
            ExprKind::ToNumber(inner) => {
                let v = self.value(inner);
                Code { ts: quote!(#v.number()), null: false }
            }
            ExprKind::ToText(inner) => {
                let c = self.code(inner);
                // Object labels read the world: bind a value that needs it mutably first.
                let (lets, v) = self.hoist(vec![(c.ts, needs_mut(inner))], false);
                let text = self.text(v[0].clone(), &inner.ty, c.null);
                Code { ts: wrap(lets, quote!(rt::Str::from(#text))), null: false }
            }
            ExprKind::Is { operand, class } => {
                let c = self.code(operand);
                let o = if c.null {
                    c.ts
                } else {
                    let t = c.ts;
                    quote!(Some(#t))
                };
                let ts = if g.covers_hierarchy(*class) || g.is_global(*class) {
                    quote!(#o.is_some())
                } else {
                    let test = self.kind_test(*class, quote!(h));
                    quote!(match #o { Some(h) => #test, None => false })
                };
                Code { ts, null: false }
            }
            ExprKind::As { operand, class } => {
                let c = self.code(operand);
                // Every object of the hierarchy is a `class`: the cast changes nothing.
                if g.covers_hierarchy(*class) || g.is_global(*class) {
                    return c;
                }
                let o = if c.null {
                    c.ts
                } else {
                    let t = c.ts;
                    quote!(Some(#t))
                };
                let test = self.kind_test(*class, quote!(h));
                Code { ts: quote!(match #o { Some(h) if #test => Some(h), _ => None }), null: true }
            }
            ExprKind::New { class, inits } => self.new_object(*class, inits),
            ExprKind::ListLit(items) => {
                let nullable = g.null.elem(prog, &e.ty);
                let vals: Vec<TokenStream> = items.iter().map(|i| self.repr(i, nullable)).collect();
                let arena = g.collection_arena(&e.ty);
                let t = self.temp("items");
                Code {
                    ts: quote!({ let #t = vec![#(#vals),*]; self.#arena.alloc(rt::List::from_vec(#t)) }),
                    null: false,
                }
            }
            ExprKind::StackLit(items) => {
                let vals: Vec<TokenStream> = items.iter().map(|i| self.repr(i, true)).collect();
                let arena = g.collection_arena(&e.ty);
                let t = self.temp("items");
                let elem = g.rust_ty(e.ty.element().unwrap_or(&Ty::Error), true);
                let ts = quote!({
                    let #t: Vec<#elem> = vec![#(#vals),*];
                    self.#arena.alloc(rt::Stack::from_vec(#t.into_iter().flatten().collect()))
                });
                Code { ts, null: false }
            }
            ExprKind::TableLit(pairs) => {
                let arena = g.collection_arena(&e.ty);
                if pairs.is_empty() {
                    return Code { ts: quote!(self.#arena.alloc(rt::Table::default())), null: false };
                }
                let t = self.temp("table");
                let mut sets = Vec::new();
                for (k, v) in pairs {
                    let key = self.key(k);
                    let val = self.repr(v, true);
                    let (kn, vn) = (self.temp("key"), self.temp("value"));
                    sets.push(quote!({ let #kn = #key; let #vn = #val; #t.set(#kn, #vn); }));
                }
                let ts = quote!({
                    let mut #t = rt::Table::default();
                    #(#sets)*
                    self.#arena.alloc(#t)
                });
                Code { ts, null: false }
            }
            ExprKind::Index { object, index } => {
                let h = self.value(object);
                let arena = g.collection_arena(&object.ty);
                match &object.ty {
                    Ty::Table(..) => {
                        let k = self.key(index);
                        let (lets, vals) = self.hoist(vec![(h, needs_mut(object)), (k, true)], false);
                        let (h, k) = (&vals[0], &vals[1]);
                        Code { ts: wrap(lets, quote!(self.#arena[#h].get(&#k))), null: true }
                    }
                    _ => {
                        let i = self.value(index);
                        let l = self.loc(e.span);
                        let (lets, vals) =
                            self.hoist(vec![(h, needs_mut(object)), (i, needs_mut(index))], false);
                        let (h, i) = (&vals[0], &vals[1]);
                        let null = g.null.elem(prog, &object.ty);
                        Code { ts: wrap(lets, quote!(self.#arena[#h].get(#i, #l)?)), null }
                    }
                }
            }
            ExprKind::Assign { target, value } => Code { ts: self.assign(target, value), null: false },
        }
    }

    /// A call of `func`. With `raw`, a function returning an `i64` (`whole`) gives that
    /// `i64`, for `whole`; otherwise its result is a double, as everywhere else.
    fn call(
        &mut self,
        e: &Expr,
        func: crate::hir::FuncId,
        receiver: Option<&Expr>,
        args: &[Expr],
        virtual_call: bool,
        raw: bool,
    ) -> Code {
        let g = self.g;
        let prog = g.prog;
        let f = prog.func(func);
        let name = if virtual_call { g.func_name[&func].clone() } else { g.impl_name(func) };
        let mut values = Vec::new();
        if let Some(r) = receiver {
            let owner = f.owner.unwrap_or(ClassId(0));
            if !g.is_global(owner) && f.owner.is_some() {
                values.push((self.value(r), needs_mut(r)));
            } else if needs_mut(r) {
                // A global's methods need no handle; still evaluate the receiver.
                let v = self.expr(r);
                values.push((quote!({ let _ = #v; }), true));
                let (lets, _) = self.hoist(values, true);
                values = Vec::new();
                let _ = lets;
            }
        }
        let params: Vec<_> =
            f.inputs.iter().filter(|i| matches!(i.mode, crate::hir::InputMode::Function { .. })).collect();
        for (input, arg) in params.iter().zip(args) {
            let callee = crate::codegen::plan::repr::Owner::Func(self.family(func));
            let v = if g.local_whole(callee, input.local) {
                self.whole(arg)
            } else {
                self.repr(arg, g.local_nullable(callee, input.local))
            };
            values.push((v, needs_mut(arg)));
        }
        let (lets, vals) = self.hoist(values, false);
        let null = f.ret != Ty::Void && g.null.ret(func);
        let call = if g.may_recurse(func) {
            // A call that may lead back here counts against the depth limit: endless
            // recursion is a located error, not a stack overflow (or, once the
            // optimiser turns a tail call into a loop, a hang).
            let l = self.loc(e.span);
            let result = self.temp("result");
            quote!({
                self.core.enter(#l)?;
                let #result = self.#name(#(#vals),*);
                self.core.leave();
                #result?
            })
        } else {
            quote!(self.#name(#(#vals),*)?)
        };
        let call = if g.ret_whole(func) && !raw { quote!(rt::value::number(#call)) } else { call };
        Code { ts: wrap(lets, call), null }
    }

    fn family(&self, f: crate::hir::FuncId) -> crate::hir::FuncId {
        let mut f = f;
        while let Some(o) = self.g.prog.func(f).overrides {
            f = o;
        }
        f
    }

    /// `matches!(self.<arena>[h].kind, Variants...)`: whether `h` is a `class`.
    pub(super) fn kind_test(&self, class: ClassId, h: TokenStream) -> TokenStream {
        let g = self.g;
        match g.hierarchy(class) {
            Some(hier) if hier.kind_enum.is_some() && !g.covers_hierarchy(class) => {
                let arena = &hier.arena;
                let vs = g.variants_of(class);
                if vs.is_empty() { quote!(false) } else { quote!(matches!(self.#arena[#h].kind, #(#vs)|*)) }
            }
            _ => quote!(true),
        }
    }

    fn attr_read(&mut self, object: &Expr, attr: crate::hir::AttrId) -> Code {
        self.attr_read_as(object, attr, false)
    }

    /// An attribute's value; with `whole`, tile coordinates as the `i64` they are stored as.
    fn attr_read_as(&mut self, object: &Expr, attr: crate::hir::AttrId, whole: bool) -> Code {
        let g = self.g;
        let prog = g.prog;
        let a = prog.attr(attr);
        let coordinate = matches!(a.builtin, Some(BuiltinAttr::X | BuiltinAttr::Y));
        let null = g.null.attr(prog, attr);
        let clone = if a.ty == Ty::String { quote!(.clone()) } else { quote!() };
        match a.builtin {
            Some(BuiltinAttr::Active) => return Code { ts: quote!(self.core.active), null: false },
            Some(BuiltinAttr::Tiles) => {
                let gr = self.value(object);
                let l = self.at(object.span);
                return Code { ts: quote!(rt::error::some(self.groups[#gr].tiles, #l)?), null: false };
            }
            Some(BuiltinAttr::Groups) => {
                let board = prog.class(a.class);
                let arena = g.collection_arena(&a.ty);
                let entries: Vec<TokenStream> = board
                    .groups
                    .iter()
                    .enumerate()
                    .map(|(i, gr)| {
                        let name = &gr.name;
                        let c = g.group_const(a.class, i);
                        quote!((rt::collections::Key::String(rt::Str::from(#name)), #c))
                    })
                    .collect();
                return Code {
                    ts: quote!(self.#arena.alloc(rt::Table::from_entries(vec![#(#entries),*]))),
                    null: false,
                };
            }
            _ => {}
        }
        let field = &g.attr_field[&attr];
        let owner_class = match &object.ty {
            Ty::Class(c) => *c,
            _ => a.class,
        };
        if let Some((_, gf)) = g.globals.get(&prog.class(owner_class).root) {
            let pre = if needs_mut(object) {
                let v = self.expr(object);
                quote!(let _ = #v;)
            } else {
                quote!()
            };
            return Code { ts: wrap(vec![pre], quote!(self.#gf.#field #clone)), null };
        }
        let Some(h) = g.hierarchy(a.class) else {
            return Code { ts: quote!(()), null: false };
        };
        let arena = h.arena.clone();
        let o = self.value(object);
        let (lets, vals) = self.hoist(vec![(o, needs_mut(object))], false);
        let o = &vals[0];
        let ts = if g.attr_on_root(attr) {
            quote!(self.#arena[#o].#field #clone)
        } else {
            quote!(self.#arena[#o].#field()?)
        };
        // Tile coordinates are stored whole (see `codegen::whole`).
        let ts = if coordinate && !whole { quote!(rt::value::number(#ts)) } else { ts };
        Code { ts: wrap(lets, ts), null }
    }

    /// The nullable local tested by `x != null` (`non_null`) or `x == null`, if `e` is one.
    pub(super) fn null_test(&self, e: &Expr, non_null: bool) -> Option<crate::hir::LocalId> {
        let ExprKind::Binary { op, lhs, rhs } = &e.kind else { return None };
        let wanted = if non_null { BinaryOp::Ne } else { BinaryOp::Eq };
        if *op != wanted {
            return None;
        }
        let local = match (&lhs.kind, &rhs.kind) {
            (ExprKind::Local(l), ExprKind::Null) | (ExprKind::Null, ExprKind::Local(l)) => *l,
            _ => return None,
        };
        (self.local_nullable(local) && !self.narrowed.contains(&local)).then_some(local)
    }

    /// The left operand `a` of an operation whose right operand `rhs` may change the
    /// world: bound to a temporary first, so that it is read before `rhs` runs (left to
    /// right, as written) and no borrow of the world is held across `rhs` (`self.core.active
    /// == self.next()?` would hold one). Returns the `let` (or nothing) and the operand.
    fn left_first(&mut self, a: TokenStream, rhs: &Expr) -> (TokenStream, TokenStream) {
        if needs_mut(rhs) && !is_trivial(&a) {
            let t = self.temp("lhs");
            (quote!(let #t = #a;), quote!(#t))
        } else {
            (quote!(), a)
        }
    }

    /// `let t = ts;` and `t` (nothing to bind for a plain name or literal).
    fn bind(&mut self, base: &str, ts: TokenStream) -> (TokenStream, TokenStream) {
        if is_trivial(&ts) {
            return (quote!(), ts);
        }
        let t = self.temp(base);
        (quote!(let #t = #ts;), quote!(#t))
    }

    fn binary(&mut self, e: &Expr, op: BinaryOp, lhs: &Expr, rhs: &Expr) -> Code {
        let l = self.at(e.span);
        // Whole numbers compare as the integers they are stored as.
        if matches!(
            op,
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne
        ) && self.is_whole(lhs)
            && self.is_whole(rhs)
        {
            let a = self.whole(lhs);
            let b = self.whole(rhs);
            return Code { ts: comparison(op, a, b), null: false };
        }
        let ts = match op {
            BinaryOp::Eq | BinaryOp::Ne => {
                let eq = op == BinaryOp::Eq;
                if matches!(rhs.kind, ExprKind::Null) && matches!(lhs.kind, ExprKind::Null) {
                    return Code { ts: quote!(#eq), null: false };
                }
                if matches!(rhs.kind, ExprKind::Null) || matches!(lhs.kind, ExprKind::Null) {
                    let other = if matches!(rhs.kind, ExprKind::Null) { lhs } else { rhs };
                    let c = self.code(other);
                    let ts = c.ts;
                    return Code {
                        ts: match (c.null, eq) {
                            (true, true) => quote!(#ts.is_none()),
                            (true, false) => quote!(#ts.is_some()),
                            (false, true) => quote!({ let _ = #ts; false }),
                            (false, false) => quote!({ let _ = #ts; true }),
                        },
                        null: false,
                    };
                }
                // A string against a literal (`piece == "K"`) compares in place, without
                // making a string of the literal.
                let literal = match (&lhs.kind, &rhs.kind) {
                    (ExprKind::String(s), _) => Some((s, rhs)),
                    (_, ExprKind::String(s)) => Some((s, lhs)),
                    _ => None,
                };
                if let Some((s, other)) = literal {
                    // A string local held as the literal it equals (`plan::coded`).
                    if let ExprKind::Local(l) = other.kind
                        && self.coded.contains_key(&l)
                    {
                        let name = self.local_name(l);
                        return Code { ts: comparison(op, quote!(#name), quote!(Some(#s))), null: false };
                    }
                    let c = self.code(other);
                    let ts = group(without_clone(c.ts));
                    if s.is_empty() && !c.null {
                        let ts = if eq { quote!(#ts.is_empty()) } else { quote!(!#ts.is_empty()) };
                        return Code { ts: group(ts), null: false };
                    }
                    let (a, b) = if c.null {
                        (quote!(#ts.as_deref()), quote!(Some(#s)))
                    } else {
                        (quote!(&*#ts), quote!(#s))
                    };
                    return Code { ts: comparison(op, a, b), null: false };
                }
                let a = self.code(lhs);
                let b = self.code(rhs);
                // Numbers and booleans compare as Rust primitives, which borrow nothing.
                let primitive = matches!(lhs.ty, Ty::Number | Ty::Bool) && !a.null && !b.null;
                let (first, at) = if primitive { (quote!(), a.ts) } else { self.left_first(a.ts, rhs) };
                let (a, b) = if a.null || b.null {
                    let bt = b.ts;
                    (if a.null { at } else { quote!(Some(#at)) }, if b.null { bt } else { quote!(Some(#bt)) })
                } else {
                    (at, b.ts)
                };
                wrap(vec![first], comparison(op, a, b))
            }
            // A chain `a + b + c` of strings is one `format!`, literals written inline.
            BinaryOp::Concat => self.concatenation(e),
            // `x != null && e`: inside `e`, `x` is known not to be null.
            BinaryOp::And | BinaryOp::Or
                if self
                    .null_test(lhs, op == BinaryOp::And)
                    .is_some_and(|l| reads(rhs, l) && !assigns(rhs, l)) =>
            {
                let l = self.null_test(lhs, op == BinaryOp::And).expect("checked");
                let name = self.local_name(l);
                self.narrowed.insert(l);
                let b = self.value(rhs);
                self.narrowed.remove(&l);
                if op == BinaryOp::And {
                    quote!(match #name { Some(#name) => #b, None => false })
                } else {
                    quote!(match #name { None => true, Some(#name) => #b })
                }
            }
            BinaryOp::And | BinaryOp::Or => {
                let a = self.value(lhs);
                let b = self.value(rhs);
                if op == BinaryOp::And { group(quote!(#a && #b)) } else { group(quote!(#a || #b)) }
            }
            _ => {
                let a = self.value(lhs);
                let b = self.value(rhs);
                // `self.core.wrap_player(..)` borrows the world while its argument runs:
                // operands that change the world are computed before, in order. (Other
                // operands are `f64`s, copied as they are read.)
                let (first, a, second, b) = match op {
                    BinaryOp::PlayerArith(_) if needs_mut(lhs) || needs_mut(rhs) => {
                        let (first, a) = self.bind("lhs", a);
                        let (second, b) = self.bind("rhs", b);
                        (first, a, second, b)
                    }
                    _ => (quote!(), a, quote!(), b),
                };
                let value = match op {
                    BinaryOp::Add if cannot_overflow(op, lhs, rhs) => group(quote!(#a + #b)),
                    BinaryOp::Sub if cannot_overflow(op, lhs, rhs) => group(quote!(#a - #b)),
                    BinaryOp::Mul if cannot_overflow(op, lhs, rhs) => group(quote!(#a * #b)),
                    // A double can overflow to infinity (then NaN): a located error.
                    BinaryOp::Add => quote!(rt::value::finite(#a + #b, #l)?),
                    BinaryOp::Sub => quote!(rt::value::finite(#a - #b, #l)?),
                    BinaryOp::Mul => quote!(rt::value::finite(#a * #b, #l)?),
                    // A division fails on zero or an overflow: by a literal of at least 1
                    // (in size) neither can happen, so it is a plain `/`.
                    BinaryOp::Div if matches!(rhs.kind, ExprKind::Number(n) if n.abs() >= 1.0) => {
                        group(quote!(#a / #b))
                    }
                    BinaryOp::Div => quote!(rt::value::div(#a, #b, #l)?),
                    BinaryOp::Rem => quote!(rt::value::rem(#a, #b, #l)?),
                    BinaryOp::Pow => quote!(rt::value::pow(#a, #b, #l)?),
                    BinaryOp::Concat => quote!(rt::value::concat_at(&#a, &#b, #l)?),
                    BinaryOp::PlayerArith(p) => {
                        let n = match p {
                            PlayerOp::Add => group(quote!(#a + #b)),
                            PlayerOp::Sub => group(quote!(#a - #b)),
                            PlayerOp::Mul => group(quote!(#a * #b)),
                            PlayerOp::Div => quote!(rt::value::div(#a, #b, #l)?),
                            PlayerOp::Rem => quote!(rt::value::rem(#a, #b, #l)?),
                            PlayerOp::Pow => quote!(rt::value::pow(#a, #b, #l)?),
                        };
                        quote!(self.core.wrap_player(#n))
                    }
                    BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => comparison(op, a, b),
                    BinaryOp::BitAnd => group(quote!(#a & #b)),
                    BinaryOp::BitOr => group(quote!(#a | #b)),
                    BinaryOp::Xor => group(quote!(#a ^ #b)),
                    _ => quote!(false),
                };
                wrap(vec![first, second], value)
            }
        };
        Code { ts, null: false }
    }

    fn new_object(&mut self, class: ClassId, inits: &[(crate::hir::AttrId, Expr)]) -> Code {
        let g = self.g;
        let prog = g.prog;
        let Some(h) = g.hierarchy(class) else { return Code { ts: quote!(()), null: false } };
        let arena = h.arena.clone();
        let obj = self.temp("object");
        let blank = if prog.class(class).kind == crate::hir::ClassKind::Tile {
            // A tile created in a graph group's `default`: `this` is the group.
            let kind = g.blank_kind(h, class);
            let list = g.collection_arena(&Ty::List(Box::new(Ty::Class(prog.builtins.connection))));
            let connections = if g.uses_connections {
                quote!(connections: self.#list.alloc(rt::List::default()),)
            } else {
                quote!()
            };
            let flat = g.flat_blank_fields(h);
            quote!(Tile { group: this, x: 0, y: 0, #connections #flat kind: #kind })
        } else if prog.class(class).root == prog.builtins.connection {
            g.blank_connection(class, quote!(None))
        } else if prog.class(class).root == prog.builtins.event {
            let kind = g.blank_kind(h, class);
            let flat = g.flat_blank_fields(h);
            quote!(Event { #flat kind: #kind })
        } else {
            let f = &g.blank_fn[&class];
            quote!(self.#f())
        };
        let init_fn = g.init_fn_name(class);
        let init_call = if g.has_initialisers(class) { quote!(self.#init_fn(#obj)?;) } else { quote!() };
        let mut sets = Vec::new();
        for (a, v) in inits {
            let field = &g.attr_field[a];
            let val = self.repr(v, g.null.attr(prog, *a));
            let t = self.temp("value");
            if g.attr_on_root(*a) {
                sets.push(quote!(let #t = #val; self.#arena[#obj].#field = #t;));
            } else {
                let m = format_ident!("{}_mut", field.to_string().trim_start_matches("r#"));
                sets.push(quote!(let #t = #val; *self.#arena[#obj].#m()? = #t;));
            }
        }
        // `default` blocks of decks, base first.
        let mut defaults = Vec::new();
        let mut chain = Vec::new();
        let mut cur = Some(class);
        while let Some(c) = cur {
            chain.push(c);
            cur = prog.class(c).base;
        }
        for c in chain.iter().rev() {
            if let Some(d) = prog.class(*c).default {
                let n = &g.func_name[&d];
                defaults.push(quote!(self.#n(#obj)?;));
            }
        }
        // Listed at once, before what its initialisers create (`instances`).
        let record = g.after_allocation(prog.class(class).root, quote!(self), quote!(#obj));
        let ts = if init_call.is_empty() && sets.is_empty() && defaults.is_empty() && record.is_empty() {
            // Nothing runs once it exists: a blank object (built first: building it
            // may need the world too).
            quote!({
                let #obj = #blank;
                self.#arena.alloc(#obj)
            })
        } else {
            quote!({
                let #obj = #blank;
                let #obj = self.#arena.alloc(#obj);
                #record
                #init_call
                #(#sets)*
                #(#defaults)*
                #obj
            })
        };
        Code { ts, null: false }
    }
}
