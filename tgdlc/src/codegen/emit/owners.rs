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

use super::context::Gen;
use crate::hir::{AttrId, Builtin, ClassId, Expr, ExprKind, Input, Program, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
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
pub(super) fn ownership_test(
    prog: &Program,
    static_tiles: &HashMap<ClassId, Vec<usize>>,
    input: &Input,
) -> Option<AttrId> {
    // An input with an `in` list walks its list, not the class's tiles.
    let Ty::Class(class) = *input.candidate_ty() else { return None };
    let (lhs, rhs, binder) = super::domain::opening_test(input)?;
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
pub(super) fn owner_indexes(
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

impl Gen<'_> {
    /// The `World` fields of the owner indexes, with their docs.
    pub(super) fn owner_fields(&self) -> Vec<TokenStream> {
        self.owner_indexes
            .iter()
            .map(|(attr, index)| {
                let a = self.prog.attr(*attr);
                let doc = format!(
                    " Per player, the `{}` tiles whose `{}` names them (`tgdl_runtime::owners`).",
                    self.prog.class(a.class).name,
                    a.name
                );
                let (f, n) = (&index.field, self.owner_words(index));
                quote! { #[doc = #doc] pub #f: rt::owners::Owners<#n>, }
            })
            .collect()
    }

    /// The words of an index's sets: one set per player the game allows, one bit per tile.
    pub(super) fn owner_words(&self, index: &OwnerIndex) -> usize {
        let tiles = index.tiles.last().map_or(0, |&t| t + 1);
        self.prog.max_players as usize * tiles.div_ceil(64)
    }

    /// Fills every owner index from the tiles (after the board is built, and after the
    /// global classes' initialisers).
    pub(super) fn rebuild_owners(&self, world: TokenStream) -> TokenStream {
        let steps = self.owner_indexes.iter().map(|(attr, index)| {
            let (f, tiles) = (&index.field, &index.tiles);
            let field = &self.attr_field[attr];
            let arena = &self.hierarchy(self.prog.attr(*attr).class).expect("a tile class").arena;
            let value =
                if self.null.attr(self.prog, *attr) { quote!(t.#field) } else { quote!(Some(t.#field)) };
            let tiles = super::tokens::static_candidates(tiles);
            quote! {
                #world.#f.clear();
                for id in #tiles {
                    let t = &#world.#arena[id];
                    let owner = #value;
                    #world.#f.moved(id.index(), None, owner);
                }
            }
        });
        quote!(#(#steps)*)
    }

    /// The owner index an input's candidates come from, if any.
    pub(super) fn owner_index_of(&self, input: &Input) -> Option<(AttrId, &OwnerIndex)> {
        let attr = ownership_test(self.prog, &self.static_tiles, input)?;
        self.owner_indexes.get(&attr).map(|i| (attr, i))
    }
}
