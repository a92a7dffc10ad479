//! The base walk of an input's candidates: its `in` list, or every value of its type, in
//! the order menus list them (see `candidates` for the narrowed walks).

use super::layout::Layout;
use crate::hir::{ClassId, Expr, Ty};

/// Every candidate of an input before narrowing, in the order menus list them.
pub(crate) enum Base<'i> {
    /// The elements of the input's `in` list.
    InList(&'i Expr),
    Players,
    Bools,
    /// A global class's one object.
    Global(ClassId),
    /// Tiles made only by boards: handles known when the game is compiled.
    StaticTiles(ClassId),
    /// The list the world keeps of the class's objects (see `instances`).
    Instances(ClassId),
    /// The class's arena, each object's kind tested.
    Arena(ClassId),
    /// Every board group.
    Groups,
    Nothing,
}

impl Layout<'_> {
    /// Every value of a type, without the world's lists.
    pub(crate) fn values(&self, ty: &Ty) -> Base<'static> {
        match ty {
            Ty::Player => Base::Players,
            Ty::Bool => Base::Bools,
            Ty::Class(c) if self.is_global(*c) => Base::Global(*c),
            Ty::Class(c) if self.static_tiles.contains_key(c) => Base::StaticTiles(*c),
            Ty::Class(c) if self.hierarchy(*c).is_some() => Base::Arena(*c),
            Ty::Class(c) if *c == self.prog.builtins.group => Base::Groups,
            _ => Base::Nothing,
        }
    }
}
