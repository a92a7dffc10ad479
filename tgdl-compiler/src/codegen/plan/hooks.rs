//! What each write and each allocation must also update, as data: the owner index
//! following an attribute (`owners`), the marks of the kept menus whose filters read it
//! (`kept`), the instance lists a new object joins (`instances`). One emitter
//! (`emit::writes`) turns them into code, after every assignment and allocation.

use super::instances::Instances;
use super::kept::KeptMenu;
use super::owners::OwnerIndex;
use crate::hir::{AttrId, ClassId};
use proc_macro2::Ident;
use std::collections::BTreeMap;

/// What a write to one attribute must also update.
pub(crate) struct WriteHooks {
    /// The `World` field of the owner index following the attribute's value: the write
    /// moves the object from the set of its old value to that of its new one.
    pub owners: Option<Ident>,
    /// The `World` fields of the kept menus whose filters read the attribute: the write
    /// marks the object in each.
    pub kept: Vec<Ident>,
}

/// The hooks of every attribute that has some, and those of every allocation.
#[derive(Default)]
pub(crate) struct Hooks {
    pub writes: BTreeMap<AttrId, WriteHooks>,
    /// Root of a hierarchy → the method recording its new objects in the instance lists
    /// (`created_tile`), called right after each allocation.
    pub allocations: BTreeMap<ClassId, Ident>,
}

/// Gathers the hooks of the indexes the world keeps.
pub(crate) fn hooks(
    owner_indexes: &BTreeMap<AttrId, OwnerIndex>,
    instances: &Instances,
    kept: &[KeptMenu],
) -> Hooks {
    let mut writes: BTreeMap<AttrId, WriteHooks> = BTreeMap::new();
    for (attr, index) in owner_indexes {
        writes.entry(*attr).or_insert_with(|| WriteHooks { owners: None, kept: Vec::new() }).owners =
            Some(index.field.clone());
    }
    for k in kept {
        for attr in &k.reads {
            writes
                .entry(*attr)
                .or_insert_with(|| WriteHooks { owners: None, kept: Vec::new() })
                .kept
                .push(k.field.clone());
        }
    }
    Hooks { writes, allocations: instances.created.clone() }
}
