//! Expressions. Each becomes a Rust expression over `self` (the `World`), in the value's
//! representation (`Option` only where `null` can occur). Sub-expressions that need
//! `&mut self` are bound to temporaries first wherever the expression around them holds a
//! borrow, in source order.

use super::body::BodyGen;
use super::repr::collection_key;
use crate::hir::{BinaryOp, Builtin, BuiltinAttr, ClassId, Expr, ExprKind, PlayerOp, Ty, UnaryOp};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// A generated expression and facts about it.
pub(super) struct Code {
    pub ts: TokenStream,
    /// The value is an `Option`.
    pub null: bool,
}

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
                ExprKind::Call { .. } => {
                    self.whole_call = true;
                    return self.code(e).ts;
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
    fn hoist(&mut self, values: Vec<(TokenStream, bool)>, all: bool) -> (Vec<TokenStream>, Vec<TokenStream>) {
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
            ExprKind::Attr { object, attr } => self.attr_read(object, *attr),
            ExprKind::Call { func, receiver, args, virtual_call } => {
                // `whole` asks for the `i64` a whole function returns; elsewhere it is a double.
                let raw = std::mem::take(&mut self.whole_call);
                let f = prog.func(*func);
                let name = if *virtual_call { g.func_name[func].clone() } else { g.impl_name(*func) };
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
                let params: Vec<_> = f
                    .inputs
                    .iter()
                    .filter(|i| matches!(i.mode, crate::hir::InputMode::Function { .. }))
                    .collect();
                for (input, arg) in params.iter().zip(args) {
                    let callee = super::repr::Owner::Func(self.family(*func));
                    let v = if g.local_whole(callee, input.local) {
                        self.whole(arg)
                    } else {
                        self.repr(arg, g.local_nullable(callee, input.local))
                    };
                    values.push((v, needs_mut(arg)));
                }
                let (lets, vals) = self.hoist(values, false);
                let null = f.ret != Ty::Void && g.null.ret(*func);
                let call = if g.may_recurse(*func) {
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
                let call = if g.ret_whole(*func) && !raw { quote!(rt::value::number(#call)) } else { call };
                Code { ts: wrap(lets, call), null }
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

    fn family(&self, f: crate::hir::FuncId) -> crate::hir::FuncId {
        let mut f = f;
        while let Some(o) = self.g.prog.func(f).overrides {
            f = o;
        }
        f
    }

    /// `matches!(self.<arena>[h].kind, Variants...)`: whether `h` is a `class`.
    fn kind_test(&self, class: ClassId, h: TokenStream) -> TokenStream {
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

    fn assign(&mut self, target: &Expr, value: &Expr) -> TokenStream {
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
                if let Some(index) = g.owner_indexes.get(attr) {
                    // An indexed owner: its sets follow the write (`codegen::owners`).
                    let sets = &index.field;
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
                    // Kept menus whose filters read the attribute test the tile again.
                    let touches = g.kept_touches(*attr, &quote!(#target));
                    return wrap_unit(
                        lets,
                        quote!({
                            let #value = #v;
                            let #target = #o;
                            let #before = #read;
                            self.#arena[#target].#field = #value;
                            self.#sets.moved(#target.index(), #before, #read);
                            #touches
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
                let touches = g.kept_touches(*attr, &group(o.clone()));
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
                        let (lets, vals) = self.hoist(vec![(v, true), (h, true), (k, true)], true);
                        let (v, h, k) = (&vals[0], &vals[1], &vals[2]);
                        wrap_unit(lets, quote!(self.#arena[#h].set(#k, #v)))
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
    fn compound_assign(&mut self, target: &Expr, value: &Expr) -> Option<TokenStream> {
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
            ExprKind::Attr { object, attr } if g.kept.iter().any(|k| k.reads.contains(attr)) => {
                let o = group(self.value(object));
                g.kept_touches(*attr, &o)
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

    /// `"x: " + n + "!"` as `format!("x: {}!", ..)`. Each operand is shown as TGDL prints
    /// it; a null operand prints `null` instead of failing.
    fn concatenation(&mut self, e: &Expr) -> TokenStream {
        self.concatenation_as(e, false)
    }

    /// The concatenation as a `String` (`as_string`) or an `rt::Str`.
    fn concatenation_as(&mut self, e: &Expr, as_string: bool) -> TokenStream {
        fn flatten<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
            match &e.kind {
                ExprKind::Binary { op: BinaryOp::Concat, lhs, rhs } => {
                    flatten(lhs, out);
                    flatten(rhs, out);
                }
                _ => out.push(e),
            }
        }
        let mut parts = Vec::new();
        flatten(e, &mut parts);
        // `"" + x` is just the text of `x`.
        if let [ExprKind::String(empty), ExprKind::ToText(inner)] =
            parts.iter().map(|p| &p.kind).collect::<Vec<_>>().as_slice()
            && empty.is_empty()
        {
            let c = self.code(inner);
            return match (&inner.ty, c.null) {
                (Ty::Number, false) => {
                    let v = c.ts;
                    wrap_str(quote!(rt::value::fmt_number(#v)), as_string)
                }
                // Object labels read the world: a value that needs it mutably comes first.
                (ty, null) if needs_mut(inner) => {
                    let t = self.temp("value");
                    let v = c.ts;
                    let text = wrap_str(self.text(quote!(#t), ty, null), as_string);
                    quote!({ let #t = #v; #text })
                }
                (ty, null) => {
                    let text = self.text(c.ts, ty, null);
                    wrap_str(text, as_string)
                }
            };
        }
        let mut format = String::new();
        let mut lets = Vec::new();
        for part in parts {
            let inner = match &part.kind {
                ExprKind::String(text) => {
                    format.push_str(&text.replace('{', "{{").replace('}', "}}"));
                    continue;
                }
                ExprKind::ToText(inner) => inner.as_ref(),
                _ => part,
            };
            // Each piece is bound to a local, in order, and captured by name: the
            // pretty-printer formats the `let`s, which it cannot do inside `format!`.
            let c = self.code(inner);
            let v = c.ts;
            let shown = match (&inner.ty, c.null) {
                (Ty::String | Ty::Bool, false) => v,
                (Ty::Number, false) => quote!(rt::value::fmt_number(#v)),
                (Ty::Player, false) => quote!(#v.0),
                // Object labels read the world: a value that needs it mutably comes first.
                (ty, null) if needs_mut(inner) => {
                    let t = self.temp("value");
                    lets.push(quote!(let #t = #v;));
                    self.text(quote!(#t), ty, null)
                }
                (ty, null) => self.text(v, ty, null),
            };
            let name = self.temp("text");
            format.push_str(&format!("{{{name}}}"));
            lets.push(quote!(let #name = #shown;));
        }
        if lets.is_empty() {
            return if as_string { quote!(String::from(#format)) } else { quote!(rt::Str::from(#format)) };
        }
        if lets.len() == 1 && format == "{text}" {
            // A single piece without literal text needs no `format!`.
            let only = &lets[0];
            let text = wrap_str(quote!(text.to_string()), as_string);
            return quote!({ #only #text });
        }
        let text = wrap_str(quote!(format!(#format)), as_string);
        // A string that doubles in a loop reaches the limit in a few dozen steps.
        let l = self.loc(e.span);
        quote!({
            #(#lets)*
            rt::value::bounded(#text, #l)?
        })
    }

    /// A table key from any non-null value.
    fn key(&mut self, k: &Expr) -> TokenStream {
        let c = self.code(k);
        let l = self.loc(k.span);
        let v = if c.null {
            let ts = c.ts;
            quote!(rt::collections::key(#ts, #l)?)
        } else {
            c.ts
        };
        match &k.ty {
            Ty::Number => quote!(rt::collections::Key::number(#v)),
            Ty::Player => quote!(rt::collections::Key::number(#v.number())),
            Ty::String => quote!(rt::collections::Key::String(#v)),
            Ty::Bool => quote!(rt::collections::Key::Bool(#v)),
            Ty::Class(c) => {
                let tag = self.g.hierarchy(*c).map_or(u32::MAX, |h| h.tag);
                quote!(rt::collections::Key::Object(#tag, #v.index() as u32))
            }
            Ty::List(_) | Ty::Table(..) | Ty::Stack(_) => {
                let tag = 1000
                    + self
                        .g
                        .collections
                        .keys()
                        .position(|x| *x == collection_key(self.g.prog, &k.ty))
                        .unwrap_or(0) as u32;
                quote!(rt::collections::Key::Object(#tag, #v.index() as u32))
            }
            _ => quote!(rt::collections::Key::Bool(false)),
        }
    }

    /// A table key `k` (an `&rt::Key`) back as the `K` of a `Table<K, V>`, as an
    /// `rt::Flow`: the inverse of [`Self::key`].
    pub(super) fn key_back(&self, k: TokenStream, ty: &Ty, l: TokenStream) -> TokenStream {
        match ty {
            Ty::Number => quote!(#k.to_number(#l)),
            Ty::Player => quote!(#k.to_number(#l).map(|n| rt::Player(n as u32))),
            Ty::String => quote!(#k.to_str(#l)),
            Ty::Bool => quote!(#k.to_bool(#l)),
            Ty::Class(c) => {
                let h = self.g.handle_ty(*c);
                quote!(#k.to_index(#l).map(<#h>::from_index))
            }
            ty => {
                let h = self.g.rust_ty(ty, false);
                quote!(#k.to_index(#l).map(<#h>::from_index))
            }
        }
    }

    /// The text of a value (`ToText`), as a `String`.
    pub(super) fn text(&mut self, v: TokenStream, ty: &Ty, nullable: bool) -> TokenStream {
        if matches!(ty, Ty::Null) {
            return quote!(String::from("null"));
        }
        if nullable {
            let inner = self.text(quote!(x), ty, false);
            return quote!(match #v { Some(x) => #inner, None => String::from("null") });
        }
        match ty {
            Ty::String => quote!(#v.to_string()),
            Ty::Number => quote!(rt::value::fmt_number(#v)),
            Ty::Bool => quote!(#v.to_string()),
            Ty::Player => quote!(#v.0.to_string()),
            Ty::Class(c) => match self.g.hierarchy(*c) {
                Some(h) => {
                    let tag = h.tag;
                    quote!(self.object_label(#tag, #v.index() as u32))
                }
                None => {
                    let name = &self.g.prog.class(*c).name;
                    quote!({ let _ = #v; String::from(#name) })
                }
            },
            Ty::List(elem) | Ty::Stack(elem) => {
                let arena = self.g.collection_arena(ty);
                let elem_null = self.g.null.elem(self.g.prog, ty);
                let inner = self.text(quote!(x), elem, elem_null);
                quote!(
                    format!("[{}]", self.#arena[#v].items.iter().cloned().map(|x| #inner).collect::<Vec<_>>().join(", "))
                )
            }
            Ty::Table(..) => {
                let arena = self.g.collection_arena(ty);
                quote!(format!("{{{} entries}}", self.#arena[#v].entries.len()))
            }
            _ => quote!(String::from("null")),
        }
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
                    // A string local held as the literal it equals (`body::coded_strings`).
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
        let record = g.record_created(prog.class(class).root, quote!(self), quote!(#obj));
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

    fn builtin(&mut self, e: &Expr, op: Builtin, args: &[Expr]) -> Code {
        use Builtin::*;
        let g = self.g;
        let prog = g.prog;
        let l = self.loc(e.span);
        // Where a change of turn happened, kept as a pointer: `turn.pass()` runs every move.
        let changed = self.at(e.span);
        let receiver_free = matches!(
            op,
            PlayerAll
                | PlayerActive
                | TurnActive
                | PlayerCount
                | TurnCurrent
                | TurnPass
                | PhaseActive
                | PhaseSet
                | TurnsUse
                | Roll
                | Random
                | Log
                | Tell
                | Abs
                | Floor
                | Ceil
                | Round
                | Sqrt
                | Pow
                | Min
                | Max
        );
        if !receiver_free {
            return self.collection_builtin(e, op, args, l);
        }
        if op == Log {
            return Code { ts: self.log_line(&args[0]), null: false };
        }
        // Arguments are used inside calls on the world: bind those that need it first.
        let values: Vec<(TokenStream, bool)> = args.iter().map(|a| (self.value(a), needs_mut(a))).collect();
        let (lets, vals) = self.hoist(values, false);
        let arg = |_: &mut Self, i: usize| vals[i].clone();
        let unit = |ts: TokenStream| Code { ts, null: false };
        let code = match op {
            PlayerAll => {
                let arena = g.collection_arena(&e.ty);
                let wrap = if g.null.elem(prog, &e.ty) {
                    quote!(.into_iter().map(Some).collect())
                } else {
                    quote!()
                };
                unit(
                    quote!({ let players = self.core.all_players()#wrap; self.#arena.alloc(rt::List::from_vec(players)) }),
                )
            }
            PlayerActive | TurnActive => unit(quote!(self.core.active)),
            PlayerCount => unit(group(quote!(self.core.players as f64))),
            TurnCurrent => unit(quote!(rt::Str::from(TURN_NAMES[self.core.turn]))),
            // Each change of turn records where it happened: an empty menu after it is
            // reported there.
            TurnPass => match args.len() {
                0 => unit(quote!({ self.pass_turn()?; self.core.turn_changed_at = Some(#changed); })),
                1 => {
                    let p = arg(self, 0);
                    unit(quote!({ self.core.active = #p; self.core.turn_changed_at = Some(#changed); }))
                }
                _ => {
                    let p = arg(self, 0);
                    let ph = arg(self, 1);
                    let t = self.temp("player");
                    unit(
                        quote!({ let #t = #p; self.core.phase = #ph; self.core.active = #t; self.core.turn_changed_at = Some(#changed); }),
                    )
                }
            },
            PhaseActive => unit(quote!(self.core.phase.clone())),
            PhaseSet => {
                let s = arg(self, 0);
                unit(quote!({ self.core.phase = #s; self.core.turn_changed_at = Some(#changed); }))
            }
            TurnsUse => {
                let t = arg(self, 0);
                let ph = if args.len() > 1 {
                    let p = arg(self, 1);
                    quote!(Some(#p))
                } else {
                    quote!(None)
                };
                unit(quote!({ self.use_turn(&#t, #ph, #l)?; self.core.turn_changed_at = Some(#changed); }))
            }
            Roll => {
                let n = arg(self, 0);
                unit(quote!(self.core.roll(#n, #l)?))
            }
            Random => unit(quote!(self.core.random())),
            Log => {
                let s = arg(self, 0);
                let t = self.temp("line");
                unit(quote!({ let #t = #s; self.core.log.push(#t.to_string()); }))
            }
            Tell => {
                let (p, s) = (arg(self, 0), arg(self, 1));
                let t = self.temp("line");
                unit(quote!({ let #t = #s; self.core.tell(#p, #t.to_string()); }))
            }
            Abs | Floor | Ceil | Round => {
                let v = arg(self, 0);
                let m = match op {
                    Abs => quote!(abs),
                    Floor => quote!(floor),
                    Ceil => quote!(ceil),
                    _ => quote!(round),
                };
                // `f64::floor(x)`, not `x.floor()`: a literal's float type would be ambiguous.
                unit(quote!(f64::#m(#v)))
            }
            Sqrt => {
                let v = arg(self, 0);
                unit(quote!(rt::value::sqrt(#v, #l)?))
            }
            Pow => {
                let (a, b) = (arg(self, 0), arg(self, 1));
                unit(quote!(rt::value::pow(#a, #b, #l)?))
            }
            Min | Max => {
                let vals: Vec<TokenStream> = (0..args.len()).map(|i| arg(self, i)).collect();
                let m = if op == Min { quote!(min) } else { quote!(max) };
                let folded = vals[1..].iter().fold(vals[0].clone(), |acc, v| quote!(f64::#m(#acc, #v)));
                unit(folded)
            }
            _ => unit(quote!(())),
        };
        Code { ts: wrap(lets, code.ts), null: code.null }
    }

    /// `log(e)`: the line is built as a `String` (a concatenation straight from
    /// `format!`) and pushed onto the game's log.
    fn log_line(&mut self, e: &Expr) -> TokenStream {
        let line = match &e.kind {
            ExprKind::Binary { op: BinaryOp::Concat, .. } => self.concatenation_as(e, true),
            ExprKind::String(text) => quote!(String::from(#text)),
            _ => {
                let v = self.value(e);
                quote!(#v.to_string())
            }
        };
        if needs_mut(e) {
            // The line may call functions on the world: build it before borrowing the log.
            quote!({
                let line = #line;
                self.core.log.push(line);
            })
        } else {
            quote!(self.core.log.push(#line))
        }
    }

    /// Operations with a receiver: collections, decks, objects, groups.
    fn collection_builtin(&mut self, _e: &Expr, op: Builtin, args: &[Expr], l: TokenStream) -> Code {
        use Builtin::*;
        let g = self.g;
        let prog = g.prog;
        let recv = &args[0];
        // A deck behaves as its stack of cards.
        let (coll_ty, recv_code) = match &recv.ty {
            Ty::Class(c)
                if prog.class(*c).kind == crate::hir::ClassKind::Deck
                    && !matches!(op, DeckReshuffle | Assign) =>
            {
                let h = g.hierarchy(*c).expect("decks live in an arena");
                let arena = &h.arena;
                let d = self.value(recv);
                let elem = prog.class(prog.class(*c).root).element.clone().unwrap_or(Ty::Error);
                (Ty::Stack(Box::new(elem)), quote!(self.#arena[#d].items))
            }
            _ => (recv.ty.clone(), self.value(recv)),
        };
        let arena = if matches!(coll_ty, Ty::List(_) | Ty::Table(..) | Ty::Stack(_)) {
            Some(g.collection_arena(&coll_ty))
        } else {
            None
        };
        let elem_null = g.null.elem(prog, &coll_ty);
        // Grid coordinates that are whole numbers index without conversions.
        let grid_whole = matches!(op, GroupAt | GroupIndex) && args[1..].iter().all(|a| self.is_whole(a));
        let mut vals = vec![(recv_code, needs_mut(recv))];
        for (i, a) in args.iter().enumerate().skip(1) {
            let v = match op {
                ListPush | ListContains | ListIndexOf | ListRemove => self.repr(a, elem_null),
                StackPush | StackPushFront => self.repr(a, true),
                Assign => self.repr(a, true),
                GroupAt | GroupIndex if grid_whole => self.whole(a),
                _ => self.value(a),
            };
            let _ = i;
            vals.push((v, needs_mut(a)));
        }
        // A mutating operation borrows the receiver's arena mutably while its arguments
        // are used: bind them first. Reading operations only need that for arguments
        // that themselves need the world mutably.
        let reads_only = matches!(
            op,
            ListLength
                | StackLength
                | TableLength
                | ListContains
                | StackContains
                | ListIndexOf
                | StackPeek
                | StackPeekFront
                | GroupAt
                | GroupIndex
        );
        let (lets, v) = self.hoist(vals, !reads_only);
        let h = &v[0];
        let a1 = v.get(1).cloned().unwrap_or_default();
        let a2 = v.get(2).cloned().unwrap_or_default();
        let ar = arena.clone().unwrap_or_else(|| super::names::ident("missing"));
        let unit = |ts: TokenStream| Code { ts, null: false };
        let code = match op {
            ListLength | StackLength | TableLength => unit(quote!(self.#ar[#h].len())),
            ListPush => unit(quote!(self.#ar[#h].push(#a1))),
            ListAppend => {
                let t = self.temp("other");
                unit(quote!({ let #t = self.#ar[#a1].clone(); self.#ar[#h].append_at(&#t, #l)?; }))
            }
            ListClear | StackClear | TableClear => unit(quote!(self.#ar[#h].clear())),
            ListContains | StackContains => unit(quote!(self.#ar[#h].contains(&#a1))),
            ListIndexOf => unit(quote!(self.#ar[#h].index_of(&#a1))),
            ListRemove => unit(quote!({ self.#ar[#h].remove(&#a1); })),
            ListRemoveAt => Code { ts: quote!(self.#ar[#h].remove_at(#a1, #l)?), null: elem_null },
            ListShuffle | StackShuffle => unit(quote!(self.#ar[#h].shuffle(&mut self.core.rng))),
            TableKeys => {
                let key_ty = _e.ty.element().cloned().unwrap_or(Ty::Error);
                let conv = self.key_back(quote!(k), &key_ty, l.clone());
                let list_arena = g.collection_arena(&_e.ty);
                unit(quote!({
                    let keys = self.#ar[#h]
                        .entries
                        .iter()
                        .map(|(k, _)| #conv)
                        .collect::<rt::Flow<Vec<_>>>()?;
                    self.#list_arena.alloc(rt::List::from_vec(keys))
                }))
            }
            ListCast => {
                let class = match _e.ty.element() {
                    Some(Ty::Class(c)) => *c,
                    _ => prog.builtins.tile,
                };
                let test = self.kind_test(class, quote!(*x));
                let convert = if elem_null {
                    quote!(|x| match x { Some(x) if #test => Some(*x), _ => None })
                } else {
                    quote!(|x| if #test { Some(*x) } else { None })
                };
                unit(quote!({
                    let items: Vec<_> = self.#ar[#h].items.iter().map(#convert).collect();
                    self.#ar.alloc(rt::List::from_vec(items))
                }))
            }
            ListCopy | StackClone | TableCopy => {
                unit(quote!({ let copy = self.#ar[#h].clone(); self.#ar.alloc(copy) }))
            }
            StackPush | StackPushFront => {
                let push = if op == StackPush { quote!(push) } else { quote!(push_front) };
                match self.deck_face(recv) {
                    // A card pushed onto a deck is face up exactly when the deck is open.
                    Some((ea, face_up, open)) => unit(quote!({
                        let card = #a1;
                        if let Some(card) = card {
                            self.#ea[card].#face_up = #open;
                        }
                        self.#ar[#h].#push(card);
                    })),
                    None => unit(quote!(self.#ar[#h].#push(#a1))),
                }
            }
            StackPop => Code { ts: quote!(self.#ar[#h].pop()), null: true },
            StackPopFront => Code { ts: quote!(self.#ar[#h].pop_front()), null: true },
            StackPeek => Code { ts: quote!(self.#ar[#h].peek()), null: true },
            StackPeekFront => Code { ts: quote!(self.#ar[#h].peek_front()), null: true },
            DeckReshuffle => unit(self.reshuffle(recv, h)),
            Assign => {
                let c = recv.ty.class().unwrap_or(prog.builtins.event);
                let hier = g.hierarchy(c).expect("assignable objects live in an arena");
                let oa = &hier.arena;
                if g.visibility(c) == crate::hir::Visibility::Group {
                    let members = g.builtin_field(c, BuiltinAttr::Members);
                    let la = g.collection_arena(&Ty::List(Box::new(Ty::Player)));
                    let wrap = if g.null.elem(prog, &Ty::List(Box::new(Ty::Player))) {
                        quote!(Some(p))
                    } else {
                        quote!(p)
                    };
                    unit(quote!(if let Some(p) = #a1 {
                        let list = self.#oa[#h].#members;
                        if !self.#la[list].contains(&#wrap) { self.#la[list].push(#wrap); }
                    }))
                } else {
                    let owner = g.builtin_field(c, BuiltinAttr::Owner);
                    unit(quote!(self.#oa[#h].#owner = #a1))
                }
            }
            Reveal => {
                let c = recv.ty.class().unwrap_or(prog.builtins.event);
                let oa = &g.hierarchy(c).expect("pieces live in an arena").arena;
                let face_up = g.builtin_field(c, BuiltinAttr::FaceUp);
                unit(quote!(self.#oa[#h].#face_up = true))
            }
            MoveTo => {
                let c = recv.ty.class().unwrap_or(prog.builtins.event);
                let oa = &g.hierarchy(c).expect("pieces live in an arena").arena;
                let tile = g.builtin_field(c, BuiltinAttr::Tile);
                let face_up = g.builtin_field(c, BuiltinAttr::FaceUp);
                // On a tile, everyone sees it, from then on (docs/hidden-information.md).
                unit(quote!({
                    self.#oa[#h].#tile = Some(#a1);
                    self.#oa[#h].#face_up = true;
                }))
            }
            Discard => {
                let c = recv.ty.class().unwrap_or(prog.builtins.event);
                let oa = &g.hierarchy(c).expect("pieces live in an arena").arena;
                let tile = g.builtin_field(c, BuiltinAttr::Tile);
                let discarded = g.builtin_field(c, BuiltinAttr::Discarded);
                let face_up = g.builtin_field(c, BuiltinAttr::FaceUp);
                let sa = g.collection_arena(&args[1].ty);
                unit(quote!({
                    self.#oa[#h].#discarded = true;
                    self.#oa[#h].#face_up = true;
                    self.#oa[#h].#tile = None;
                    self.#sa[#a1].push(Some(#h));
                }))
            }
            // A group named in the source has a grid known at compile time (`grid_const`).
            GroupAt | GroupIndex => {
                let grid = match &recv.kind {
                    ExprKind::BoardGroup { board, group } => g.grid_consts.get(&(*board, *group)),
                    _ => None,
                };
                let group = match grid {
                    Some(grid) => quote!(#grid),
                    None => quote!(self.groups[#h]),
                };
                let (at, tile, index) = if grid_whole {
                    (quote!(at_i64), quote!(tile_i64), quote!(index_i64))
                } else {
                    (quote!(at), quote!(tile), quote!(index))
                };
                match op {
                    GroupAt => Code { ts: quote!(#group.#at(#a1, #a2)), null: true },
                    _ if super::repr::group_is_full(prog, recv) => {
                        Code { ts: quote!(#group.#tile(#a1, #a2, #l)?), null: false }
                    }
                    _ => Code { ts: quote!(#group.#index(#a1, #a2, #l)?), null: true },
                }
            }
            GroupAdd => {
                let ta = &g.hierarchy(prog.builtins.tile).expect("tiles").arena;
                let la = g.collection_arena(&Ty::List(Box::new(Ty::Class(prog.builtins.tile))));
                let item = if g.tile_lists_nullable() { quote!(Some(#a1)) } else { quote!(#a1) };
                unit(quote!({
                    let tiles = rt::error::some(self.groups[#h].tiles, #l)?;
                    let position = self.#la[tiles].len();
                    self.#ta[#a1].group = #h;
                    self.#ta[#a1].x = position as i64;
                    self.#ta[#a1].y = 0;
                    self.#la[tiles].push(#item);
                }))
            }
            Connect => {
                let with = if args.len() > 2 { quote!(Some(#a2)) } else { quote!(None) };
                unit(quote!(self.connect(#h, #a1, #with)))
            }
            _ => unit(quote!(())),
        };
        Code { ts: wrap(lets, code.ts), null: code.null }
    }

    /// `deck.reshuffle()`: the discards go back in, no longer discarded, then shuffle.
    /// For a push onto a deck of pieces or cards: their arena, their `face_up` field,
    /// and whether the deck is open.
    fn deck_face(&self, recv: &Expr) -> Option<(proc_macro2::Ident, proc_macro2::Ident, bool)> {
        let g = self.g;
        let prog = g.prog;
        let c = recv.ty.class().filter(|&c| prog.class(c).kind == crate::hir::ClassKind::Deck)?;
        let elem = prog.class(prog.class(c).root).element.clone()?.class()?;
        let eh = g.hierarchy(elem)?;
        if prog.class(eh.root).kind != crate::hir::ClassKind::Interactable || prog.class(eh.root).builtin {
            return None;
        }
        Some((eh.arena.clone(), g.builtin_field(eh.root, BuiltinAttr::FaceUp), prog.class(c).open))
    }

    fn reshuffle(&mut self, deck: &Expr, h: &TokenStream) -> TokenStream {
        let g = self.g;
        let prog = g.prog;
        let c = deck.ty.class().unwrap_or(prog.builtins.event);
        let root = prog.class(c).root;
        let da = &g.hierarchy(c).expect("decks").arena;
        let elem = prog.class(root).element.clone().unwrap_or(Ty::Error);
        let sa = g.collection_arena(&Ty::Stack(Box::new(elem.clone())));
        let discard_stack = g.builtin_field(root, BuiltinAttr::DiscardStack);
        let flag = match elem.class().and_then(|e| g.hierarchy(e)) {
            Some(eh) if prog.class(eh.root).kind == crate::hir::ClassKind::Interactable => {
                let ea = &eh.arena;
                let discarded = g.builtin_field(eh.root, BuiltinAttr::Discarded);
                let face_up = g.builtin_field(eh.root, BuiltinAttr::FaceUp);
                // Back in the deck, face down.
                quote!(for &card in &returned {
                    self.#ea[card].#discarded = false;
                    self.#ea[card].#face_up = false;
                })
            }
            _ => quote!(),
        };
        quote!({
            let items = self.#da[#h].items;
            let discards = self.#da[#h].#discard_stack;
            let returned: Vec<_> = self.#sa[discards].items.drain(..).collect();
            #flag
            self.#sa[items].items.extend(returned);
            self.#sa[items].shuffle(&mut self.core.rng);
        })
    }
}

/// Whether evaluating an expression may need `&mut self` (calls, allocation, chance, change).
pub(super) fn needs_mut(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        use Builtin::*;
        found |= match &x.kind {
            ExprKind::Call { .. }
            | ExprKind::CallAction { .. }
            | ExprKind::New { .. }
            | ExprKind::ListLit(_)
            | ExprKind::StackLit(_)
            | ExprKind::TableLit(_)
            | ExprKind::Assign { .. } => true,
            ExprKind::Attr { attr: _, .. } => false,
            ExprKind::Builtin { op, .. } => !matches!(
                op,
                PlayerActive
                    | PlayerCount
                    | TurnActive
                    | TurnCurrent
                    | PhaseActive
                    | Abs
                    | Floor
                    | Ceil
                    | Round
                    | Min
                    | Max
                    | Sqrt
                    | Pow
                    | ListLength
                    | ListContains
                    | ListIndexOf
                    | TableLength
                    | StackLength
                    | StackPeek
                    | StackPeekFront
                    | StackContains
                    | GroupAt
                    | GroupIndex
            ),
            _ => false,
        };
    });
    found
}

fn number_lit(n: f64) -> TokenStream {
    let lit = Literal::f64_unsuffixed(n);
    quote!(#lit)
}

/// An invisible group: keeps a sub-expression together; prettyplease prints the
/// parentheses only where precedence needs them.
pub(super) fn group(ts: TokenStream) -> TokenStream {
    proc_macro2::TokenTree::Group(proc_macro2::Group::new(proc_macro2::Delimiter::None, ts)).into()
}

/// A single identifier or literal: cheap to repeat, never worth a temporary.
fn is_trivial(ts: &TokenStream) -> bool {
    let mut it = ts.clone().into_iter();
    matches!(
        (it.next(), it.next()),
        (Some(proc_macro2::TokenTree::Ident(_) | proc_macro2::TokenTree::Literal(_)), None)
    )
}

/// `{ lets; expr }`, or just `expr` when there is nothing to bind.
fn wrap(lets: Vec<TokenStream>, ts: TokenStream) -> TokenStream {
    let lets: Vec<TokenStream> = lets.into_iter().filter(|l| !l.is_empty()).collect();
    if lets.is_empty() { ts } else { quote!({ #(#lets)* #ts }) }
}

/// Like [`wrap`] for statements that produce no value.
fn wrap_unit(lets: Vec<TokenStream>, ts: TokenStream) -> TokenStream {
    if lets.is_empty() { ts } else { quote!({ #(#lets)* #ts; }) }
}

/// A string read (`name.clone()`, `obj.attr.clone()`) as a place to borrow: a
/// comparison needs no copy.
pub(super) fn without_clone(ts: TokenStream) -> TokenStream {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = ts.clone().into_iter().collect();
    match tokens.as_slice() {
        [rest @ .., TokenTree::Punct(dot), TokenTree::Ident(clone), TokenTree::Group(args)]
            if !rest.is_empty()
                && dot.as_char() == '.'
                && clone == "clone"
                && args.delimiter() == Delimiter::Parenthesis
                && args.stream().is_empty() =>
        {
            rest.iter().cloned().collect()
        }
        _ => ts,
    }
}

/// `a OP b` for a comparison operator (`==`, `!=`, `<`, `>`, `<=`, `>=`).
fn comparison(op: BinaryOp, a: TokenStream, b: TokenStream) -> TokenStream {
    group(match op {
        BinaryOp::Eq => quote!(#a == #b),
        BinaryOp::Ne => quote!(#a != #b),
        BinaryOp::Lt => quote!(#a < #b),
        BinaryOp::Gt => quote!(#a > #b),
        BinaryOp::Le => quote!(#a <= #b),
        _ => quote!(#a >= #b),
    })
}

/// A `String` expression as itself (`as_string`) or as an `rt::Str`.
fn wrap_str(text: TokenStream, as_string: bool) -> TokenStream {
    if as_string { text } else { quote!(rt::Str::from(#text)) }
}

/// Whether expression tokens contain a block (`{ let v = ..; .. }`, a labelled block)
/// outside macro arguments (`matches!(k, A { .. })` is fine): an `if` or `while`
/// condition holding one is bound to a variable first.
pub(super) fn has_block(ts: &TokenStream) -> bool {
    use proc_macro2::{Delimiter, TokenTree};
    let tokens: Vec<TokenTree> = ts.clone().into_iter().collect();
    tokens.iter().enumerate().any(|(i, t)| match t {
        TokenTree::Punct(p) => p.as_char() == '\'',
        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => true,
        TokenTree::Group(g) => {
            let macro_args = i >= 2
                && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '!')
                && matches!(&tokens[i - 2], TokenTree::Ident(_));
            !macro_args && has_block(&g.stream())
        }
        _ => false,
    })
}

/// Whether an expression reads the local `l` anywhere inside it.
pub(super) fn reads(e: &Expr, l: crate::hir::LocalId) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x.kind, ExprKind::Local(t) if t == l));
    found
}

/// Whether an expression assigns the local `l` anywhere inside it.
pub(super) fn assigns(e: &Expr, l: crate::hir::LocalId) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        if let ExprKind::Assign { target, .. } = &x.kind {
            found |= matches!(target.kind, ExprKind::Local(t) if t == l);
        }
    });
    found
}

/// Whether `lhs op rhs` (`+`, `-`, `*`) is finite whatever finite values the operands
/// hold, so it needs no `finite` check: every number a game holds is finite (each
/// operation that could leave the finite range is checked), and a finite double plus or
/// minus a literal of at most 2^52 in size, or times a literal of at most 1 in size,
/// stays finite (the sum rounds to at most `f64::MAX`; the product shrinks).
fn cannot_overflow(op: BinaryOp, lhs: &Expr, rhs: &Expr) -> bool {
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
