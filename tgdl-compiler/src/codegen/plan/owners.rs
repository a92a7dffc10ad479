//! Owner indexes: a menu input whose filter opens with an ownership test,
//! `input Square from { return from.pawn == player.active() && ...; }` or
//! `if (from.pawn != player.active() || ...) { return false; }`, walks only the tiles whose
//! attribute names the active player, from sets the world keeps up to date
//! (`tgdl_runtime::owners`), instead of every tile of the class.
//!
//! The sets are exact: every assignment to the attribute updates them, and they are built
//! again from the tiles after the board is made and after the global classes are created
//! (the only other writes, by initialisers). They list tiles in creation order, and the
//! filter still runs on each tile walked, so the menu is the same; the tiles skipped are
//! those whose test, the filter's first evaluation, which reads an attribute and cannot
//! fail, is false.

use crate::hir::{AttrId, Builtin, ClassId, Expr, ExprKind, Input, Program, Ty};
use proc_macro2::Ident;
use std::collections::{BTreeMap, HashMap};

/// The sets kept for one attribute.
pub(crate) struct OwnerIndex {
    /// The `World` field holding them.
    pub field: Ident,
    /// The creation indices of the class's tiles.
    pub tiles: Vec<usize>,
}

/// The attribute of an input's ownership test, when its first filter opens with one and
/// the attribute can be indexed: a writable, not secret `player` attribute declared by a
/// tile class without subclasses whose tiles all come from boards.
pub(crate) fn ownership_test(
    prog: &Program,
    static_tiles: &HashMap<ClassId, Vec<usize>>,
    input: &Input,
) -> Option<AttrId> {
    // An input with an `in` list walks its list, not the class's tiles.
    let Ty::Class(class) = *input.candidate_ty() else { return None };
    let (lhs, rhs, binder) = super::openings::opening_test(input)?;
    let is_active = |e: &Expr| matches!(&e.kind, ExprKind::Builtin { op: Builtin::PlayerActive, args } if args.is_empty());
    let attr_of = |e: &Expr| match &e.kind {
        ExprKind::Attr { object, attr } if matches!(object.kind, ExprKind::Local(l) if l == binder) => {
            Some(*attr)
        }
        _ => None,
    };
    let attr = match (attr_of(lhs), attr_of(rhs)) {
        (Some(a), None) if is_active(rhs) => a,
        (None, Some(a)) if is_active(lhs) => a,
        _ => return None,
    };
    let a = prog.attr(attr);
    let indexable = a.ty == Ty::Player
        && a.builtin.is_none()
        && a.writable
        && !a.secret
        && a.class == class
        && prog.descendants(class) == [class]
        && static_tiles.contains_key(&class);
    indexable.then_some(attr)
}

/// The attributes some menu input's ownership test reads, each with a fresh `World` field.
pub(crate) fn owner_indexes(
    prog: &Program,
    static_tiles: &HashMap<ClassId, Vec<usize>>,
    fresh: &mut dyn FnMut(&str) -> Ident,
) -> BTreeMap<AttrId, OwnerIndex> {
    let mut out = BTreeMap::new();
    for action in &prog.actions {
        for input in &action.inputs {
            let Some(attr) = ownership_test(prog, static_tiles, input) else { continue };
            out.entry(attr).or_insert_with(|| {
                let a = prog.attr(attr);
                let name = format!(
                    "owners_{}_{}",
                    crate::codegen::names::snake(&prog.class(a.class).name),
                    crate::codegen::names::snake(&a.name)
                );
                OwnerIndex { field: fresh(&name), tiles: static_tiles[&a.class].clone() }
            });
        }
    }
    out
}
