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

use super::layout::Layout;
use super::values::Base;
use crate::hir::{ClassId, Input, InputMode, Program, Stmt, StmtKind};
use proc_macro2::Ident;
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
pub(crate) fn instances(
    g: &Layout<'_>,
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
fn walked_class(g: &Layout<'_>, input: &Input) -> Option<ClassId> {
    if input.domain.is_some() || matches!(input.mode, InputMode::Function { .. }) {
        return None;
    }
    match g.values(input.candidate_ty()) {
        Base::Arena(c) if !g.covers_hierarchy(c) && g.has_variants(c) => Some(c),
        _ => None,
    }
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
