//! A class's own instances: an input whose candidates are the objects of a
//! class that does not cover its hierarchy (`input Bucket into` where the tile arena also
//! holds other tiles, `input Joker j` where `Card` has several subclasses) walks a list
//! the world keeps of that class's objects, and its subclasses', instead of the whole
//! arena with a test of each object's kind.
//!
//! The lists are exact and in creation order: arenas hand out handles in creation order
//! and never reuse one (`tgdl_runtime::Arena` only grows, and the marks a speculative menu
//! truncates back to cover collections, never class objects), and every allocation in a
//! hierarchy with listed classes is followed at once by a call to the hierarchy's
//! `created_*` method, which pushes the new handle onto the lists of the classes it belongs
//! to, before anything the new object's initialisers create. So a list is the arena's
//! handles of the class, in the order `arena.ids()` gives them, and the menus, the labels
//! and seeded play are those of the walk over the whole arena. The discarded test stays:
//! discarded objects remain in the list, as in the arena.

use super::context::Gen;
use crate::hir::{ClassId, Input, InputMode, Program, Stmt, StmtKind, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::BTreeMap;

/// The list kept for one class.
pub(crate) struct InstanceList {
    /// The `World` field holding it (`tgdl_runtime::instances::Instances`).
    pub field: Ident,
}

/// The lists the world keeps, and the methods recording new objects in them.
#[derive(Default)]
pub(crate) struct Instances {
    /// Listed class → its list.
    pub lists: BTreeMap<ClassId, InstanceList>,
    /// Root of a hierarchy with listed classes → the method recording its new objects
    /// (`created_tile`).
    pub created: BTreeMap<ClassId, Ident>,
}

/// The classes whose list the world keeps, each with a fresh `World` field: the candidate
/// classes of inputs (of actions, functions and `input` statements; lists included) that
/// walk their arena, when the class does not cover its hierarchy. Inputs with an `in` list
/// walk their list; tile classes made only by boards (`static_tiles`) have their handles
/// known when the game is compiled; global classes have one object.
pub(super) fn instances(
    g: &Gen<'_>,
    fresh_field: &mut dyn FnMut(&str) -> Ident,
    fresh_fn: &mut dyn FnMut(&str) -> Ident,
) -> Instances {
    let mut classes = Vec::new();
    for_each_input(g.prog, &mut |input| {
        if let Some(c) = walked_class(g, input)
            && !classes.contains(&c)
        {
            classes.push(c);
        }
    });
    // Declaration order, so the fields come in an order independent of the inputs'.
    classes.sort();
    let mut out = Instances::default();
    for c in classes {
        let name = format!("instances_{}", crate::codegen::names::snake(&g.prog.class(c).name));
        out.lists.insert(c, InstanceList { field: fresh_field(&name) });
        let root = g.prog.class(c).root;
        out.created.entry(root).or_insert_with(|| {
            fresh_fn(&format!("created_{}", crate::codegen::names::snake(&g.prog.class(root).name)))
        });
    }
    out
}

/// The class whose arena an input's candidates would walk with a test of each object's
/// kind, if any.
fn walked_class(g: &Gen<'_>, input: &Input) -> Option<ClassId> {
    if input.domain.is_some() || matches!(input.mode, InputMode::Function { .. }) {
        return None;
    }
    let Ty::Class(c) = *input.candidate_ty() else { return None };
    let walked = g.hierarchy(c).is_some()
        && !g.is_global(c)
        && !g.static_tiles.contains_key(&c)
        && !g.covers_hierarchy(c)
        && !g.variants_of(c).is_empty();
    walked.then_some(c)
}

/// Calls `f` on every input of the program: of actions, of functions, and `input`
/// statements in any body.
fn for_each_input(prog: &Program, f: &mut impl FnMut(&Input)) {
    let mut stmt = |s: &Stmt| {
        if let StmtKind::Input(input) = &s.kind {
            f(input);
        }
    };
    // Statements come first (they borrow `f` through `stmt`), then declared inputs.
    for func in &prog.funcs {
        func.body.walk_stmts(&mut stmt);
        for i in &func.inputs {
            i.filters.iter().for_each(|fl| fl.body.walk_stmts(&mut stmt));
        }
    }
    for a in &prog.actions {
        a.effect.walk_stmts(&mut stmt);
        a.requires.iter().for_each(|r| r.walk_stmts(&mut stmt));
        a.triggers.iter().filter_map(|t| t.body.as_ref()).for_each(|b| b.walk_stmts(&mut stmt));
        for i in &a.inputs {
            i.filters.iter().for_each(|fl| fl.body.walk_stmts(&mut stmt));
        }
    }
    prog.setup.body.walk_stmts(&mut stmt);
    for i in
        prog.funcs.iter().flat_map(|func| &func.inputs).chain(prog.actions.iter().flat_map(|a| &a.inputs))
    {
        f(i);
    }
}

impl Gen<'_> {
    /// The list of `class`'s own instances, when the world keeps one.
    pub(super) fn instance_list(&self, class: ClassId) -> Option<&Ident> {
        self.instances.lists.get(&class).map(|l| &l.field)
    }

    /// The `World` fields of the lists, with their docs.
    pub(super) fn instance_fields(&self) -> Vec<TokenStream> {
        self.instances
            .lists
            .iter()
            .map(|(c, list)| {
                let doc = format!(
                    " Every `{}` object, its subclasses' included, in creation order.",
                    self.prog.class(*c).name
                );
                let f = &list.field;
                let s = &self.hierarchy(*c).expect("listed classes have an arena").strukt;
                quote! { #[doc = #doc] pub #f: rt::instances::Instances<#s>, }
            })
            .collect()
    }

    /// The call that records `id`, just allocated in the hierarchy rooted at `root`, on
    /// `world` (`self` or a world being built); nothing when no class of it has a list.
    pub(super) fn record_created(&self, root: ClassId, world: TokenStream, id: TokenStream) -> TokenStream {
        match self.instances.created.get(&root) {
            Some(f) => quote!(#world.#f(#id);),
            None => quote!(),
        }
    }

    /// The `created_*` methods: each pushes a new object onto the list of every listed
    /// class it belongs to.
    pub(super) fn created_fns(&self) -> TokenStream {
        let fns = self.hierarchies.iter().filter_map(|h| {
            let f = self.instances.created.get(&h.root)?;
            let (arena, s) = (&h.arena, &h.strukt);
            let pushes =
                self.instances.lists.iter().filter(|(c, _)| self.prog.class(**c).root == h.root).map(
                    |(c, list)| {
                        let (vs, field) = (self.variants_of(*c), &list.field);
                        quote!(if matches!(self.#arena[id].kind, #(#vs)|*) { self.#field.push(id); })
                    },
                );
            let doc = format!(
                " Records a new `{}` object in the lists of the classes it belongs to (see `instances`).",
                h.strukt
            );
            Some(quote! {
                #[doc = #doc]
                fn #f(&mut self, id: rt::Id<#s>) {
                    #(#pushes)*
                }
            })
        });
        quote!(#(#fns)*)
    }
}
