//! Object initialisation: the methods running attribute initialisers, and `connect`.

use super::context::Gen;
use super::context::{BodyGen, Ret, This};
use crate::codegen::plan::repr::Owner;
use crate::hir::{ClassId, ExprKind, Locals, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

impl<'p> Gen<'p> {
    pub(super) fn init_fn_name(&self, class: ClassId) -> Ident {
        self.init_fn[&class].clone()
    }

    /// Whether creating a `class` runs attribute initialisers.
    pub(super) fn has_initialisers(&self, class: ClassId) -> bool {
        self.prog.all_attrs(class).iter().any(|&a| self.initialiser(a).is_some())
    }

    /// The initialiser of an attribute that has to run: one that only stores the value a
    /// blank object already holds (`0`, `false`, `""`, `null`) changes nothing, even to
    /// code reading the attribute before it runs, so it is left out.
    pub(super) fn initialiser(&self, a: crate::hir::AttrId) -> Option<&crate::hir::Expr> {
        let init = self.prog.attr(a).init.as_ref()?;
        // What `blank_value` puts there: `null` in a nullable field, else the zero value.
        let nullable = self.null.attr(self.prog, a);
        let blank = match &init.kind {
            ExprKind::Null => nullable,
            ExprKind::Number(n) => !nullable && *n == 0.0 && n.is_sign_positive(),
            ExprKind::Bool(b) => !nullable && !b,
            ExprKind::String(s) => !nullable && s.is_empty(),
            _ => false,
        };
        (!blank).then_some(init)
    }

    /// `init_<class>`: attribute initialisers in order, base classes first.
    pub(super) fn init_fns(&self) -> TokenStream {
        let mut out = Vec::new();
        for (i, c) in self.prog.classes.iter().enumerate() {
            let id = ClassId(i as u32);
            if c.builtin || !self.has_initialisers(id) || c.kind == crate::hir::ClassKind::Group {
                continue;
            }
            let global = self.is_global(id);
            // Objects of a class only derived from are never initialised as that class.
            if !global && !self.created.contains(&id) {
                continue;
            }
            if !global && self.hierarchy(id).is_none() {
                continue;
            }
            let empty = Locals::default();
            let this = if global { This::Global(id) } else { This::Instance(id) };
            let mut b = BodyGen::new(self, Owner::Setup, &empty, &[], this, Ret::Unit);
            let mut sets = Vec::new();
            let mut uses = false;
            for a in self.prog.all_attrs(id) {
                let Some(init) = self.initialiser(a) else { continue };
                init.walk(&mut |e| uses |= matches!(e.kind, ExprKind::This));
                let field = &self.attr_field[&a];
                let v = b.repr(init, self.null.attr(self.prog, a));
                if global {
                    let (_, gf) = &self.globals[&id];
                    sets.push(quote!(self.#gf.#field = #v;));
                } else {
                    let arena = &self.hierarchy(id).expect("checked").arena;
                    let t = b.temp("value");
                    if self.attr_on_root(a) {
                        sets.push(quote!(let #t = #v; self.#arena[this].#field = #t;));
                    } else {
                        let m = format_ident!("{}_mut", field.to_string().trim_start_matches("r#"));
                        sets.push(quote!(let #t = #v; *self.#arena[this].#m()? = #t;));
                    }
                }
            }
            let f = self.init_fn_name(id);
            let doc = format!(" Runs the attribute initialisers of a new `{}`.", c.name);
            let param = if global {
                quote!()
            } else {
                let h = self.handle_ty(id);
                quote!(this: #h)
            };
            let _ = uses;
            out.push(quote! {
                #[doc = #doc]
                fn #f(&mut self, #param) -> rt::Flow<()> {
                    #(#sets)*
                    Ok(())
                }
            });
        }
        quote!(#(#out)*)
    }

    pub(super) fn connect_fn(&self) -> TokenStream {
        if !self.uses_tiles || !self.uses_connections {
            return quote!();
        }
        let ta = &self.hierarchy(self.prog.builtins.tile).expect("tiles").arena;
        let ca = &self.hierarchy(self.prog.builtins.connection).expect("tiles").arena;
        let la = self.collection_arena(&Ty::List(Box::new(Ty::Class(self.prog.builtins.connection))));
        let to = self.builtin_field(self.prog.builtins.connection, crate::hir::BuiltinAttr::To);
        let forward = self.blank_connection(self.prog.builtins.connection, quote!(Some(to)));
        let backward = self.blank_connection(self.prog.builtins.connection, quote!(Some(from)));
        let ch = self.hierarchy(self.prog.builtins.connection).expect("connections are used");
        let copy = if self.hierarchy_is_copy(ch) { quote!(self.#ca[c]) } else { quote!(self.#ca[c].clone()) };
        let record_f = self.after_allocation(self.prog.builtins.connection, quote!(self), quote!(f));
        let record_b = self.after_allocation(self.prog.builtins.connection, quote!(self), quote!(b));
        quote! {
            /// `from.connect(to[, with])`: links two tiles both ways; `with` is used for
            /// `from → to` and a copy of it for `to → from`.
            #[allow(dead_code)]
            fn connect(&mut self, from: rt::Id<Tile>, to: rt::Id<Tile>, with: Option<rt::Id<Connection>>) {
                let (forward, backward) = match with {
                    Some(c) => {
                        self.#ca[c].#to = Some(to);
                        let mut copy = #copy;
                        copy.#to = Some(from);
                        // New connections are listed at once when a class of them is
                        // (`instances`): `#record_b` and `#record_f` are empty otherwise.
                        let b = self.#ca.alloc(copy);
                        #record_b
                        (c, b)
                    }
                    None => {
                        let f = self.#ca.alloc(#forward);
                        #record_f
                        let b = self.#ca.alloc(#backward);
                        #record_b
                        (f, b)
                    }
                };
                let list = self.#ta[from].connections;
                self.#la[list].push(forward);
                let list = self.#ta[to].connections;
                self.#la[list].push(backward);
            }
        }
    }
}
