//! `List`, `Table` and `Stack` with the semantics of the spec (docs/language.md) and the notes:
//! located errors for bad indices, `null` for missing keys and empty pops.
//!
//! In a running game these are reference objects: they live in arenas of the state and
//! are shared through [`crate::arena::Id`] handles, so `b = a; b.push(x)` changes `a`.

use crate::arena::Id;
use crate::chance::Unordered;
use crate::engine::Core;
use crate::error::{Flow, Loc, fail};
use crate::rng::Rng;
use crate::value::{Str, fmt_number, index};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// `List<T>`: indexed, insertion-ordered.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct List<T> {
    pub items: Vec<T>,
}

impl<T> Default for List<T> {
    fn default() -> Self {
        List { items: Vec::new() }
    }
}

impl<T: Clone + PartialEq> List<T> {
    pub fn from_vec(items: Vec<T>) -> Self {
        List { items }
    }

    pub fn len(&self) -> f64 {
        self.items.len() as f64
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn get(&self, i: f64, loc: Loc) -> Flow<T> {
        Ok(self.items[index(i, self.items.len(), loc)?].clone())
    }

    pub fn set(&mut self, i: f64, value: T, loc: Loc) -> Flow<()> {
        let i = index(i, self.items.len(), loc)?;
        self.items[i] = value;
        Ok(())
    }

    pub fn push(&mut self, value: T) {
        self.items.push(value);
    }

    /// `append`, bounded by the list budget ([`crate::limits`]): past it, a located error.
    pub fn append_at(&mut self, other: &List<T>, loc: Loc) -> Flow<()> {
        let len = self.items.len() + other.items.len();
        let limit = crate::limits::list_items();
        if len > limit {
            return crate::error::fail(
                loc,
                format!("this list would hold {len} items, over the limit of {limit}"),
            );
        }
        self.append(other);
        Ok(())
    }

    pub fn append(&mut self, other: &List<T>) {
        self.items.extend(other.items.iter().cloned());
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }

    pub fn contains(&self, value: &T) -> bool {
        self.items.contains(value)
    }

    pub fn index_of(&self, value: &T) -> f64 {
        self.items.iter().position(|v| v == value).map_or(-1.0, |i| i as f64)
    }

    /// Removes the first equal element; `false` if there was none.
    pub fn remove(&mut self, value: &T) -> bool {
        match self.items.iter().position(|v| v == value) {
            Some(i) => {
                self.items.remove(i);
                true
            }
            None => false,
        }
    }

    pub fn remove_at(&mut self, i: f64, loc: Loc) -> Flow<T> {
        let i = index(i, self.items.len(), loc)?;
        Ok(self.items.remove(i))
    }

    /// Puts the items in a random order, each step of the shuffle a chance event of an
    /// explicit game.
    pub fn shuffle(&mut self, core: &mut Core) -> Flow<()> {
        core.shuffle(&mut self.items)
    }
}

/// A table key: any value except null. Player 1 and number 1 are the same key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Key {
    /// A number (or player), by its bits with `-0` folded into `0`.
    Number(u64),
    String(Str),
    Bool(bool),
    /// A reference object: the arena it lives in (a per-game type tag) and its index.
    Object(u32, u32),
}

impl Key {
    pub fn number(x: f64) -> Key {
        Key::Number(if x == 0.0 { 0 } else { x.to_bits() })
    }

    pub fn describe(&self) -> String {
        match self {
            Key::Number(bits) => fmt_number(f64::from_bits(*bits)),
            Key::String(s) => format!("{s:?}"),
            Key::Bool(b) => b.to_string(),
            Key::Object(tag, i) => format!("object {tag}#{i}"),
        }
    }
}

/// `Table<T>`: an associative array keeping insertion order. Never holds null values:
/// assigning null removes the key.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Table<T> {
    pub entries: Vec<(Key, T)>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table { entries: Vec::new() }
    }
}

impl<T: Clone> Table<T> {
    pub fn len(&self) -> f64 {
        self.entries.len() as f64
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `t[k]`: the value, or null when the key is absent.
    pub fn get(&self, key: &Key) -> Option<T> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    }

    /// `t[k] = v`; `v == null` removes the key.
    pub fn set(&mut self, key: Key, value: Option<T>) {
        let pos = self.entries.iter().position(|(k, _)| *k == key);
        match (pos, value) {
            (Some(i), Some(v)) => self.entries[i].1 = v,
            (None, Some(v)) => self.entries.push((key, v)),
            (Some(i), None) => {
                self.entries.remove(i);
            }
            (None, None) => {}
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn keys(&self) -> impl Iterator<Item = &Key> {
        self.entries.iter().map(|(k, _)| k)
    }
}

/// The keys of a `Table<K, V>` back as `K`s (`keys()`, `for (K k in t)`). Every key of
/// such a table was made from a `K`; another kind of key is a located error, not a panic.
impl Key {
    pub fn to_number(&self, loc: Loc) -> Flow<f64> {
        match self {
            Key::Number(bits) => Ok(f64::from_bits(*bits)),
            other => other.not_a(loc, "number"),
        }
    }

    pub fn to_str(&self, loc: Loc) -> Flow<Str> {
        match self {
            Key::String(s) => Ok(s.clone()),
            other => other.not_a(loc, "string"),
        }
    }

    pub fn to_bool(&self, loc: Loc) -> Flow<bool> {
        match self {
            Key::Bool(b) => Ok(*b),
            other => other.not_a(loc, "bool"),
        }
    }

    /// The arena index of an object key.
    pub fn to_index(&self, loc: Loc) -> Flow<usize> {
        match self {
            Key::Object(_, i) => Ok(*i as usize),
            other => other.not_a(loc, "object"),
        }
    }

    #[cold]
    #[inline(never)]
    fn not_a<X>(&self, loc: Loc, what: &str) -> Flow<X> {
        fail(loc, format!("the table key {} is not a {what}", self.describe()))
    }
}

/// A null table key is a rule error.
pub fn key<K>(k: Option<K>, loc: Loc) -> Flow<K> {
    match k {
        Some(k) => Ok(k),
        None => fail(loc, "null used as a table key"),
    }
}

/// `Stack<T>`: the top is the back. Never holds null: pushing null does nothing.
///
/// A deck shuffled with [`Stack::shuffle_deck`] keeps which of its items are in no known
/// order ([`Unordered`]): in an explicit game each card taken off it is a chance event
/// ([`crate::chance`]). The plain operations keep those marks in place.
#[derive(Debug, PartialEq)]
pub struct Stack<T> {
    pub items: VecDeque<T>,
    unordered: Unordered,
}

impl<T> Default for Stack<T> {
    fn default() -> Self {
        Stack { items: VecDeque::new(), unordered: Unordered::default() }
    }
}

impl<T: Clone + PartialEq> Stack<T> {
    pub fn from_vec(items: Vec<T>) -> Self {
        Stack { items: items.into(), unordered: Unordered::default() }
    }

    pub fn len(&self) -> f64 {
        self.items.len() as f64
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn push(&mut self, value: Option<T>) {
        if let Some(v) = value {
            self.items.push_back(v);
        }
    }

    pub fn push_front(&mut self, value: Option<T>) {
        if let Some(v) = value {
            self.items.push_front(v);
            if !self.unordered.is_empty() {
                self.unordered.lo += 1;
                self.unordered.hi += 1;
            }
        }
    }

    pub fn pop(&mut self) -> Option<T> {
        let top = self.items.pop_back()?;
        self.unordered.hi = self.unordered.hi.min(self.items.len() as u32);
        Some(top)
    }

    pub fn pop_front(&mut self) -> Option<T> {
        let bottom = self.items.pop_front()?;
        self.unordered.lo = self.unordered.lo.saturating_sub(1);
        self.unordered.hi = self.unordered.hi.saturating_sub(1);
        Some(bottom)
    }

    pub fn peek(&self) -> Option<T> {
        self.items.back().cloned()
    }

    pub fn peek_front(&self) -> Option<T> {
        self.items.front().cloned()
    }

    pub fn contains(&self, value: &T) -> bool {
        self.items.contains(value)
    }

    pub fn clear(&mut self) {
        self.items.clear();
        self.unordered = Unordered::default();
    }

    /// Takes every item out, bottom first.
    pub fn take_all(&mut self) -> Vec<T> {
        self.unordered = Unordered::default();
        self.items.drain(..).collect()
    }

    /// Puts `items` on top, the last one topmost.
    pub fn extend(&mut self, items: impl IntoIterator<Item = T>) {
        self.items.extend(items);
    }

    /// Puts the items in a random order, each step of the shuffle a chance event of an
    /// explicit game (a stack whose order is seen, or of values).
    pub fn shuffle(&mut self, core: &mut Core) -> Flow<()> {
        self.unordered = Unordered::default();
        core.shuffle(self.items.make_contiguous())
    }
}

impl<T> Stack<Id<T>> {
    /// Shuffles a deck of objects: every card unordered, each one taken off an end a chance
    /// event of an explicit game ([`Core::shuffle_deck`]).
    pub fn shuffle_deck(&mut self, core: &mut Core) {
        core.shuffle_deck(&mut self.items, &mut self.unordered);
    }

    /// The arena indices of the items, bottom first.
    fn indices(&self) -> Vec<u32> {
        self.items.iter().map(|id| id.index() as u32).collect()
    }

    /// Brings the item chance picks for the end at `at` (the top: `hi - 1`, or the bottom:
    /// `lo`) to that end, out of the unordered part. `tag` is the objects' arena.
    fn settle_end(&mut self, core: &mut Core, tag: u32, top: bool) -> Flow<()> {
        let u = self.unordered;
        let len = self.items.len() as u32;
        let at_end = if top { u.hi == len } else { u.lo == 0 };
        if u.is_empty() || !at_end {
            return Ok(());
        }
        let end = if top { u.hi - 1 } else { u.lo };
        let picked = core.deal(tag, &self.indices(), u, end)?;
        self.items.swap(picked as usize, end as usize);
        if top {
            self.unordered.hi -= 1;
        } else {
            self.unordered.lo += 1;
        }
        Ok(())
    }

    /// `pop()` of a deck: the top card, which chance picks among the unordered ones.
    pub fn deal(&mut self, core: &mut Core, tag: u32) -> Flow<Option<Id<T>>> {
        self.settle_end(core, tag, true)?;
        Ok(self.pop())
    }

    /// `pop_front()` of a deck.
    pub fn deal_front(&mut self, core: &mut Core, tag: u32) -> Flow<Option<Id<T>>> {
        self.settle_end(core, tag, false)?;
        Ok(self.pop_front())
    }

    /// `peek()` of a deck: the top card, settled by chance if it was unordered.
    pub fn peek_dealt(&mut self, core: &mut Core, tag: u32) -> Flow<Option<Id<T>>> {
        self.settle_end(core, tag, true)?;
        Ok(self.peek())
    }

    /// `peek_front()` of a deck.
    pub fn peek_front_dealt(&mut self, core: &mut Core, tag: u32) -> Flow<Option<Id<T>>> {
        self.settle_end(core, tag, false)?;
        Ok(self.peek_front())
    }

    /// Puts the unordered items in a random order from `rng` and forgets the marks: an
    /// explicit game becoming a seeded one (a sample of a player's information state
    /// handed to a search).
    pub fn settle_all(&mut self, rng: &mut Rng) {
        let u = self.unordered;
        if !u.is_empty() {
            let part = &mut self.items.make_contiguous()[u.lo as usize..u.hi as usize];
            rng.shuffle(part);
        }
        self.unordered = Unordered::default();
    }
}

impl<T: Clone> Clone for List<T> {
    fn clone(&self) -> Self {
        List { items: self.items.clone() }
    }

    /// Reuses this collection's allocation (see `Arena`'s `clone_from`).
    fn clone_from(&mut self, source: &Self) {
        self.items.clone_from(&source.items);
    }
}

impl<T: Clone> Clone for Stack<T> {
    fn clone(&self) -> Self {
        Stack { items: self.items.clone(), unordered: self.unordered }
    }

    /// Reuses this collection's allocation (see `Arena`'s `clone_from`).
    fn clone_from(&mut self, source: &Self) {
        self.items.clone_from(&source.items);
        self.unordered = source.unordered;
    }
}

impl<T: Clone> Clone for Table<T> {
    fn clone(&self) -> Self {
        Table { entries: self.entries.clone() }
    }

    /// Reuses this collection's allocation (see `Arena`'s `clone_from`).
    fn clone_from(&mut self, source: &Self) {
        self.entries.clone_from(&source.entries);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const L: Loc = Loc::new("t.tgdl", 1, 1);

    #[test]
    fn list_operations() {
        let mut l = List::from_vec(vec![1.0, 2.0, 3.0]);
        assert_eq!(l.get(1.0, L).unwrap(), 2.0);
        assert!(l.get(1.9, L).is_err(), "a fraction is not an index");
        assert!(l.get(3.0, L).is_err());
        assert_eq!(l.index_of(&3.0), 2.0);
        assert_eq!(l.index_of(&9.0), -1.0);
        assert!(l.remove(&2.0));
        assert_eq!(l.items, vec![1.0, 3.0]);
        assert_eq!(l.remove_at(0.0, L).unwrap(), 1.0);
        l.append(&List::from_vec(vec![4.0]));
        assert_eq!(l.items, vec![3.0, 4.0]);
    }

    #[test]
    fn table_keeps_order_and_removes_on_null() {
        let mut t = Table::default();
        t.set(Key::number(1.0), Some("a"));
        t.set(Key::String("x".into()), Some("b"));
        t.set(Key::number(1.0), Some("c"));
        assert_eq!(t.get(&Key::number(1.0)), Some("c"));
        t.set(Key::number(1.0), None);
        assert_eq!(t.get(&Key::number(1.0)), None);
        assert_eq!(t.len(), 1.0);
        assert_eq!(Key::number(-0.0), Key::number(0.0));
    }

    #[test]
    fn stack_top_is_last_and_null_push_is_noop() {
        let mut s = Stack::from_vec(vec![1, 2, 3]);
        s.push(None);
        assert_eq!(s.peek(), Some(3));
        assert_eq!(s.pop(), Some(3));
        assert_eq!(s.pop_front(), Some(1));
        s.push_front(Some(0));
        assert_eq!(s.items, vec![0, 2]);
        s.clear();
        assert_eq!(s.pop(), None);
    }
}
