//! A class's own instances: for a class whose objects share an arena with
//! other classes' (`Bucket` among the tiles, `Joker` among the cards), the world lists the
//! handles of its objects in creation order, so that an input's candidates walk that list
//! instead of the whole arena with a test of each object's kind.
//!
//! Arenas hand out handles in creation order and never reuse one, and the generated code
//! records every new object of the class as soon as it is allocated: the list is the
//! arena's handles of the class, in the order [`crate::Arena::ids`] gives them.
//!
//! A walk is a plain iterator that leaves the world free to change while it runs (filters
//! and menus borrow the world mutably between steps): it holds the list as it was when the
//! walk began, shared with the world until an object is created, like `Arena::ids`, which
//! fixes the number of objects walked when it starts.

use crate::arena::Id;
use std::fmt;
use std::sync::Arc;

/// The handles of one class's objects, in creation order. Copying it (with the world)
/// shares the handles until one of the copies records a new object.
pub struct Instances<T> {
    ids: Arc<Vec<Id<T>>>,
}

impl<T> Instances<T> {
    pub fn new() -> Instances<T> {
        Instances { ids: Arc::new(Vec::new()) }
    }

    /// Records a new object; handles come in creation order.
    #[inline]
    pub fn push(&mut self, id: Id<T>) {
        debug_assert!(
            self.ids.last().is_none_or(|last| *last < id),
            "objects are recorded in creation order"
        );
        Arc::make_mut(&mut self.ids).push(id);
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The first object recorded.
    #[inline]
    pub fn first(&self) -> Option<Id<T>> {
        self.ids.first().copied()
    }

    /// Every object recorded so far, in creation order.
    #[inline]
    pub fn ids(&self) -> Walk<T> {
        Walk { ids: Arc::clone(&self.ids), at: 0 }
    }
}

impl<T> Default for Instances<T> {
    fn default() -> Self {
        Instances::new()
    }
}

// By hand: `Id<T>` is `Copy` whatever `T` is, which a derive would not see.
impl<T> Clone for Instances<T> {
    fn clone(&self) -> Self {
        Instances { ids: Arc::clone(&self.ids) }
    }
}

impl<T> PartialEq for Instances<T> {
    fn eq(&self, other: &Self) -> bool {
        self.ids == other.ids
    }
}

impl<T> Eq for Instances<T> {}

impl<T> fmt::Debug for Instances<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.ids.iter()).finish()
    }
}

/// A walk over the objects recorded when it began (see [`Instances::ids`]).
pub struct Walk<T> {
    ids: Arc<Vec<Id<T>>>,
    at: usize,
}

impl<T> Iterator for Walk<T> {
    type Item = Id<T>;

    #[inline]
    fn next(&mut self) -> Option<Id<T>> {
        let id = self.ids.get(self.at).copied()?;
        self.at += 1;
        Some(id)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.ids.len() - self.at;
        (left, Some(left))
    }
}

impl<T> ExactSizeIterator for Walk<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &Instances<()>) -> Vec<usize> {
        list.ids().map(Id::index).collect()
    }

    #[test]
    fn a_walk_sees_the_objects_recorded_before_it_began() {
        let mut list = Instances::<()>::new();
        list.push(Id::from_index(1));
        list.push(Id::from_index(4));
        let mut walk = list.ids();
        assert_eq!(walk.next().map(Id::index), Some(1));
        // Created during the walk: not walked, as `Arena::ids` would not.
        list.push(Id::from_index(7));
        assert_eq!(walk.len(), 1);
        assert_eq!(walk.map(Id::index).collect::<Vec<_>>(), [4]);
        assert_eq!(ids(&list), [1, 4, 7]);
        assert_eq!(list.first().map(Id::index), Some(1));
    }

    #[test]
    fn copies_are_independent() {
        let mut list = Instances::<()>::new();
        list.push(Id::from_index(0));
        let mut copy = list.clone();
        copy.push(Id::from_index(2));
        list.push(Id::from_index(3));
        assert_eq!(ids(&list), [0, 3]);
        assert_eq!(ids(&copy), [0, 2]);
        assert_ne!(list, copy);
        copy.clone_from(&list);
        assert_eq!(copy, list);
        assert!(Instances::<()>::default().is_empty());
        assert_eq!(list.len(), 2);
    }
}
