//! Functions: one method of `World` per TGDL function, the dispatchers of overridden
//! ones, turn and group `default`s, and where rule errors are located.

use super::body::uses_this;
use super::context::{BodyGen, Gen, InputFailure, Ret, This};
use crate::codegen::names::{Namer, ident, snake};
use crate::codegen::plan::repr::Owner;
use crate::hir::{ClassId, FuncId, InputMode, Ty};
use crate::source::Span;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

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

    /// The function a family of overrides starts from (whose locals say how its inputs
    /// are passed).
    pub(super) fn family_of(&self, f: FuncId) -> FuncId {
        let mut f = f;
        while let Some(o) = self.prog.func(f).overrides {
            f = o;
        }
        f
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

    pub(super) fn function(&self, id: FuncId) -> TokenStream {
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
    pub(super) fn default_block(&self, id: FuncId) -> TokenStream {
        let f = self.prog.func(id);
        let (this, params, doc) = match f.kind {
            crate::hir::FuncKind::GroupDefault => (
                This::Group,
                quote!(this: rt::Id<Group>),
                " Builds a graph group (its `default` block).".to_string(),
            ),
            crate::hir::FuncKind::TurnSimultaneous => (
                This::None,
                quote!(),
                format!(
                    " The players who choose together in the turn `{}` (its `simultaneous` block).",
                    f.name.trim_end_matches("_simultaneous")
                ),
            ),
            crate::hir::FuncKind::TurnResolve => (
                This::None,
                quote!(),
                format!(
                    " What follows a round of the turn `{}` (its `resolve` block).",
                    f.name.trim_end_matches("_resolve")
                ),
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
    pub(super) fn dispatchers(&self) -> TokenStream {
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

pub(super) fn depth_of(prog: &crate::hir::Program, mut c: ClassId) -> usize {
    let mut d = 0;
    while let Some(b) = prog.class(c).base {
        d += 1;
        c = b;
    }
    d
}
