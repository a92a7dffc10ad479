//! Arenas and typed handles: how reference objects live inside one plain, cloneable state.
//!
//! Nothing is ever freed (TGDL objects live until the game ends), except the temporaries
//! of a speculative evaluation, which [`Arena::truncate`] rolls back.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::num::NonZeroU32;

/// A handle to an object of type `T` in an [`Arena<T>`]. `Option<Id<T>>` (a nullable
/// reference) is as small as the handle itself.
pub struct Id<T> {
    raw: NonZeroU32,
    _marker: PhantomData<fn() -> T>,
}

impl<T> Id<T> {
    /// The handle of the `index`-th object created. `const`, so generated code can name
    /// objects created in a fixed order (board groups) as constants.
    pub const fn from_index(index: usize) -> Id<T> {
        assert!(index < u32::MAX as usize, "arena holds more than u32::MAX objects");
        match NonZeroU32::new(index as u32 + 1) {
            Some(raw) => Id { raw, _marker: PhantomData },
            None => panic!("index + 1 is never zero"),
        }
    }

    /// Position in creation order.
    #[inline]
    pub fn index(self) -> usize {
        self.raw.get() as usize - 1
    }
}

impl<T> Clone for Id<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Id<T> {}
impl<T> PartialEq for Id<T> {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}
impl<T> Eq for Id<T> {}
impl<T> PartialOrd for Id<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Id<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.raw.cmp(&other.raw)
    }
}
impl<T> Hash for Id<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.raw.hash(state)
    }
}
impl<T> fmt::Debug for Id<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.index())
    }
}
impl<T> Serialize for Id<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.index() as u32)
    }
}
impl<'de, T> Deserialize<'de> for Id<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Id::from_index(u32::deserialize(d)? as usize))
    }
}

/// Objects of one type, in creation order.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Arena<T> {
    items: Vec<T>,
}

// By hand, for `clone_from`: restarting a game copies the empty world into the old one's
// allocations instead of allocating anew.
impl<T: Clone> Clone for Arena<T> {
    fn clone(&self) -> Self {
        Arena { items: self.items.clone() }
    }

    fn clone_from(&mut self, source: &Self) {
        self.items.clone_from(&source.items);
    }
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { items: Vec::new() }
    }
}

impl<T> Arena<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_capacity(capacity: usize) -> Self {
        Arena { items: Vec::with_capacity(capacity) }
    }

    #[inline]
    pub fn alloc(&mut self, value: T) -> Id<T> {
        self.items.push(value);
        Id::from_index(self.items.len() - 1)
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Handles of every object, in creation order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = Id<T>> + ExactSizeIterator + use<T> {
        (0..self.items.len()).map(Id::from_index)
    }

    pub fn iter(&self) -> impl Iterator<Item = (Id<T>, &T)> {
        self.items.iter().enumerate().map(|(i, v)| (Id::from_index(i), v))
    }

    /// Drops the objects created after `len` objects existed: the temporaries of a
    /// speculative evaluation, which cannot be referenced from the state.
    pub fn truncate(&mut self, len: usize) {
        self.items.truncate(len);
    }
}

impl<T> std::ops::Index<Id<T>> for Arena<T> {
    type Output = T;
    #[inline]
    fn index(&self, id: Id<T>) -> &T {
        &self.items[id.index()]
    }
}

impl<T> std::ops::IndexMut<Id<T>> for Arena<T> {
    #[inline]
    fn index_mut(&mut self, id: Id<T>) -> &mut T {
        &mut self.items[id.index()]
    }
}
