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
use std::collections::{HashMap, VecDeque};

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

    /// `push`, bounded by the list budget ([`crate::limits`]). Generated code calls it as a
    /// statement, with nothing to return an error through: past the budget the item is not
    /// added and the refusal is recorded, and the engine ends the decision with it as a rule
    /// error when the run returns.
    #[inline]
    pub fn push(&mut self, value: T) {
        let len = self.items.len() + 1;
        match crate::limits::check_list_items(len) {
            Ok(()) => self.items.push(value),
            Err(limit) => crate::limits::refuse_growth(len, limit),
        }
    }

    /// `push` with the place of the statement: past the list budget, a located error. What
    /// generated code calls; the check is one comparison with the budget.
    #[inline]
    pub fn push_at(&mut self, value: T, at: &'static Loc) -> Flow<()> {
        let len = self.items.len() + 1;
        if let Err(limit) = crate::limits::check_list_items(len) {
            return too_many(len, limit, *at);
        }
        self.items.push(value);
        Ok(())
    }

    /// `append`, bounded by the list budget ([`crate::limits`]): past it, a located error.
    pub fn append_at(&mut self, other: &List<T>, loc: Loc) -> Flow<()> {
        let len = self.items.len() + other.items.len();
        if let Err(limit) = crate::limits::check_list_items(len) {
            return too_many(len, limit, loc);
        }
        self.items.extend(other.items.iter().cloned());
        Ok(())
    }

    /// `append` without a place to report at: bounded as [`List::push`] is.
    pub fn append(&mut self, other: &List<T>) {
        let len = self.items.len() + other.items.len();
        match crate::limits::check_list_items(len) {
            Ok(()) => self.items.extend(other.items.iter().cloned()),
            Err(limit) => crate::limits::refuse_growth(len, limit),
        }
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

/// A list past the list budget, as a located error.
#[cold]
#[inline(never)]
fn too_many<X>(len: usize, limit: usize, loc: Loc) -> Flow<X> {
    fail(loc, format!("this list would hold {len} items, over the limit of {limit}"))
}

/// A stack past the list budget, as a located error.
#[cold]
#[inline(never)]
fn too_many_in_stack<X>(len: usize, limit: usize, loc: Loc) -> Flow<X> {
    fail(loc, format!("this stack would hold {len} items, over the limit of {limit}"))
}

/// A table past the list budget, as a located error.
#[cold]
#[inline(never)]
fn too_many_entries<X>(len: usize, limit: usize, loc: Loc) -> Flow<X> {
    fail(loc, format!("this table would hold {len} entries, over the limit of {limit}"))
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
///
/// `entries` is the table in insertion order (iteration, `keys()`, `for`, display read it
/// directly); change it only through the methods, which keep the index of a large table
/// in step. Once a table has more than [`INDEXED_FROM`] entries, each entry gets a stamp
/// (increasing: `stamps` is sorted, in step with `entries`) and a hash index maps each key
/// to its stamp: a lookup is a hash and a binary search, an insert a push, a removal
/// shifts the entries after it as before, with nothing to renumber. Smaller tables, most
/// of them, are searched in place, which is faster there and copies nothing more when a
/// search clones the world.
pub struct Table<T> {
    pub entries: Vec<(Key, T)>,
    /// The stamp of each entry while the table is indexed (else empty).
    stamps: Vec<u64>,
    /// Each key's stamp while the table is indexed (else empty). Derived from `entries`:
    /// equality, printing and serialisation ignore the index.
    index: HashMap<Key, u64, BuildKeyHasher>,
    /// The next entry's stamp.
    next: u64,
}

/// Tables with more entries than this are indexed.
pub const INDEXED_FROM: usize = 16;

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table { entries: Vec::new(), stamps: Vec::new(), index: HashMap::default(), next: 0 }
    }
}

impl<T: PartialEq> PartialEq for Table<T> {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Table<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").field("entries", &self.entries).finish()
    }
}

impl<T: Serialize> Serialize for Table<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Table", 1)?;
        s.serialize_field("entries", &self.entries)?;
        s.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Table<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Entries<T> {
            entries: Vec<(Key, T)>,
        }
        let Entries { entries } = Entries::deserialize(deserializer)?;
        Ok(Table::from_entries(entries))
    }
}

impl<T> Table<T> {
    /// A table of these entries, in this order (a later repeat of a key replaces the
    /// earlier value, as assigning it again does).
    pub fn from_entries(entries: Vec<(Key, T)>) -> Self {
        let mut table = Table { entries: Vec::with_capacity(entries.len()), ..Table::default() };
        for (k, v) in entries {
            table.set(k, Some(v));
        }
        table
    }

    pub fn len(&self) -> f64 {
        self.entries.len() as f64
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn indexed(&self) -> bool {
        self.entries.len() > INDEXED_FROM
    }

    /// Where `key` is in `entries`.
    #[inline]
    fn position(&self, key: &Key) -> Option<usize> {
        if self.indexed() {
            let stamp = self.index.get(key)?;
            self.stamps.binary_search(stamp).ok()
        } else {
            self.entries.iter().position(|(k, _)| k == key)
        }
    }

    /// `t[k] = v`; `v == null` removes the key.
    pub fn set(&mut self, key: Key, value: Option<T>) {
        match (self.position(&key), value) {
            (Some(i), Some(v)) => self.entries[i].1 = v,
            (None, Some(v)) => {
                if self.indexed() {
                    self.index.insert(key.clone(), self.next);
                    self.stamps.push(self.next);
                    self.next += 1;
                }
                self.entries.push((key, v));
                if self.entries.len() == INDEXED_FROM + 1 {
                    self.reindex();
                }
            }
            (Some(i), None) => {
                let indexed = self.indexed();
                self.entries.remove(i);
                if indexed {
                    self.stamps.remove(i);
                    self.index.remove(&key);
                }
                if !self.indexed() {
                    self.unindex();
                }
            }
            (None, None) => {}
        }
    }

    /// `t[k] = v` with the place of the assignment: a new key past the list budget (a table
    /// holds at most as many entries as a list holds items) is a located error, checked only
    /// when the key is new.
    #[inline]
    pub fn set_at(&mut self, key: Key, value: Option<T>, at: &'static Loc) -> Flow<()> {
        let len = self.entries.len() + 1;
        if value.is_some()
            && let Err(limit) = crate::limits::check_list_items(len)
            && self.position(&key).is_none()
        {
            return too_many_entries(len, limit, *at);
        }
        self.set(key, value);
        Ok(())
    }

    /// Stamps and indexes every entry (the table just became large).
    fn reindex(&mut self) {
        self.unindex();
        self.stamps.extend(0..self.entries.len() as u64);
        self.index.reserve(self.entries.len());
        for (i, (k, _)) in self.entries.iter().enumerate() {
            self.index.insert(k.clone(), i as u64);
        }
        self.next = self.entries.len() as u64;
    }

    fn unindex(&mut self) {
        self.stamps.clear();
        self.index.clear();
        self.next = 0;
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.unindex();
    }

    pub fn keys(&self) -> impl Iterator<Item = &Key> {
        self.entries.iter().map(|(k, _)| k)
    }
}

impl<T: Clone> Table<T> {
    /// `t[k]`: the value, or null when the key is absent.
    #[inline]
    pub fn get(&self, key: &Key) -> Option<T> {
        self.position(key).map(|i| self.entries[i].1.clone())
    }
}

/// The hasher of table indexes: FxHash's multiply-rotate, then a finaliser; fast on the
/// small keys tables hold (numbers, object ids, short strings). Not keyed: a table's iteration order never
/// depends on it (that is `entries`' order), only the speed of its lookups does.
#[derive(Clone, Copy, Default)]
pub struct BuildKeyHasher;

impl std::hash::BuildHasher for BuildKeyHasher {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    /// Mixed (murmur3's finaliser): a number key's bits end in zeros (`1.0`, `2.0`, ...),
    /// and the multiply alone would keep them there, in the bits that pick the bucket.
    #[inline]
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
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

    /// Bounded by the list budget as [`List::push`] is.
    #[inline]
    pub fn push(&mut self, value: Option<T>) {
        if let Some(v) = value {
            let len = self.items.len() + 1;
            match crate::limits::check_list_items(len) {
                Ok(()) => self.items.push_back(v),
                Err(limit) => crate::limits::refuse_growth(len, limit),
            }
        }
    }

    /// Bounded by the list budget as [`List::push`] is.
    #[inline]
    pub fn push_front(&mut self, value: Option<T>) {
        if let Some(v) = value {
            let len = self.items.len() + 1;
            match crate::limits::check_list_items(len) {
                Ok(()) => {
                    self.items.push_front(v);
                    if !self.unordered.is_empty() {
                        self.unordered.lo += 1;
                        self.unordered.hi += 1;
                    }
                }
                Err(limit) => crate::limits::refuse_growth(len, limit),
            }
        }
    }

    /// `push` with the place of the statement: past the list budget, a located error
    /// (`push(null)` does nothing, so it cannot fail).
    #[inline]
    pub fn push_at(&mut self, value: Option<T>, at: &'static Loc) -> Flow<()> {
        if value.is_some() {
            let len = self.items.len() + 1;
            if let Err(limit) = crate::limits::check_list_items(len) {
                return too_many_in_stack(len, limit, *at);
            }
            self.push(value);
        }
        Ok(())
    }

    /// `push_front` with the place of the statement, as [`Stack::push_at`].
    #[inline]
    pub fn push_front_at(&mut self, value: Option<T>, at: &'static Loc) -> Flow<()> {
        if value.is_some() {
            let len = self.items.len() + 1;
            if let Err(limit) = crate::limits::check_list_items(len) {
                return too_many_in_stack(len, limit, *at);
            }
            self.push_front(value);
        }
        Ok(())
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

/// What a deck holds: objects, each known by its index in its arena (a chance event of
/// an explicit game names the card dealt by it).
pub trait DeckItem: Clone + PartialEq {
    fn arena_index(&self) -> u32;
}

impl<T> DeckItem for Id<T> {
    fn arena_index(&self) -> u32 {
        self.index() as u32
    }
}

impl<T: DeckItem> Stack<T> {
    /// Shuffles a deck of objects: every card unordered, each one taken off an end a chance
    /// event of an explicit game ([`Core::shuffle_deck`]).
    pub fn shuffle_deck(&mut self, core: &mut Core) {
        core.shuffle_deck(&mut self.items, &mut self.unordered);
    }

    /// The arena indices of the items, bottom first.
    fn indices(&self) -> Vec<u32> {
        self.items.iter().map(DeckItem::arena_index).collect()
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
    pub fn deal(&mut self, core: &mut Core, tag: u32) -> Flow<Option<T>> {
        self.settle_end(core, tag, true)?;
        Ok(self.pop())
    }

    /// `pop_front()` of a deck.
    pub fn deal_front(&mut self, core: &mut Core, tag: u32) -> Flow<Option<T>> {
        self.settle_end(core, tag, false)?;
        Ok(self.pop_front())
    }

    /// `peek()` of a deck: the top card, settled by chance if it was unordered.
    pub fn peek_dealt(&mut self, core: &mut Core, tag: u32) -> Flow<Option<T>> {
        self.settle_end(core, tag, true)?;
        Ok(self.peek())
    }

    /// `peek_front()` of a deck.
    pub fn peek_front_dealt(&mut self, core: &mut Core, tag: u32) -> Flow<Option<T>> {
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
        Table {
            entries: self.entries.clone(),
            stamps: self.stamps.clone(),
            index: self.index.clone(),
            next: self.next,
        }
    }

    /// Reuses this collection's allocation (see `Arena`'s `clone_from`).
    fn clone_from(&mut self, source: &Self) {
        self.entries.clone_from(&source.entries);
        self.stamps.clone_from(&source.stamps);
        self.index.clone_from(&source.index);
        self.next = source.next;
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

    /// Large tables (indexed) behave as small ones (searched): the same operations on
    /// both sizes give the same entries, in the same order.
    #[test]
    fn large_tables_keep_the_semantics_of_small_ones() {
        for size in [3usize, INDEXED_FROM, INDEXED_FROM + 1, 1000] {
            let mut t = Table::default();
            for i in 0..size {
                t.set(Key::number(i as f64), Some(i));
            }
            // Player 1 and number 1 are one key (a player's key is its number), as are -0 and 0.
            t.set(Key::number(1.0), Some(100));
            t.set(Key::number(-0.0), Some(200));
            assert_eq!(t.get(&Key::number(0.0)), Some(200), "size {size}");
            assert_eq!(t.len(), size as f64);
            // Removal by null, in the middle; a removed key that comes back goes to the end.
            t.set(Key::number(1.0), None);
            assert_eq!(t.get(&Key::number(1.0)), None);
            assert_eq!(t.get(&Key::number(2.0)), Some(2));
            t.set(Key::number(1.0), Some(1));
            let order: Vec<Key> = t.keys().cloned().collect();
            let mut want: Vec<Key> = (0..size).filter(|&i| i != 1).map(|i| Key::number(i as f64)).collect();
            want.push(Key::number(1.0));
            assert_eq!(order, want, "size {size}");
            for (i, (k, _)) in t.entries.iter().enumerate() {
                assert_eq!(t.position(k), Some(i), "size {size}: the index follows the entries");
            }
            // Strings and numbers are different keys; removing what is absent does nothing.
            t.set(Key::String("1".into()), Some(7));
            assert_eq!(t.get(&Key::number(1.0)), Some(1));
            t.set(Key::String("absent".into()), None);
            assert_eq!(t.len(), size as f64 + 1.0);
            // A clone is equal, and stays equal through the same changes.
            let mut c = t.clone();
            assert_eq!(c, t);
            c.set(Key::Bool(true), Some(9));
            t.set(Key::Bool(true), Some(9));
            assert_eq!(c, t);
            let mut reused = Table::default();
            reused.clone_from(&t);
            assert_eq!(reused.get(&Key::Bool(true)), Some(9));
            // Serialised as its entries; read back with a working index.
            let json = serde_json::to_string(&t).unwrap();
            let back: Table<usize> = serde_json::from_str(&json).unwrap();
            assert_eq!(back, t);
            assert_eq!(back.get(&Key::number((size - 1) as f64)), t.get(&Key::number((size - 1) as f64)));
            assert_eq!(format!("{back:?}"), format!("{t:?}"), "printing shows the entries only");
            // Clearing empties the index too.
            t.clear();
            assert_eq!(t.get(&Key::number(2.0)), None);
            t.set(Key::number(2.0), Some(2));
            assert_eq!(t.keys().count(), 1);
        }
        // Entries given at once: a repeated key keeps its first place and last value.
        let t = Table::from_entries(vec![(Key::Bool(true), 1), (Key::Bool(false), 2), (Key::Bool(true), 3)]);
        assert_eq!(t.entries, vec![(Key::Bool(true), 3), (Key::Bool(false), 2)]);
    }

    /// Every way a list or stack grows is bounded by the list budget: `append_at` with a
    /// located error, `push` and `append` (no error path) by not growing and recording the
    /// refusal for the engine.
    #[test]
    fn lists_and_stacks_grow_only_within_the_budget() {
        let limit = crate::limits::list_items();
        crate::limits::take_refused_growth();
        let mut l = List::from_vec(vec![0u8; limit - 1]);
        l.push(1);
        assert_eq!(crate::limits::take_refused_growth(), None);
        l.push(2);
        assert_eq!(l.items.len(), limit, "a push past the budget adds nothing");
        assert_eq!(crate::limits::take_refused_growth(), Some((limit + 1, limit)));
        l.append(&List::from_vec(vec![3]));
        assert_eq!(crate::limits::take_refused_growth(), Some((limit + 1, limit)));
        assert!(l.append_at(&List::from_vec(vec![3]), L).is_err());
        assert_eq!(l.items.len(), limit);
        drop(l);
        let mut s = Stack::from_vec(vec![0u8; limit]);
        s.push(Some(1));
        s.push_front(Some(1));
        s.push(None);
        assert_eq!(s.items.len(), limit);
        assert_eq!(crate::limits::take_refused_growth(), Some((limit + 1, limit)));
    }

    /// What generated code calls (`push_at`, `push_front_at`): past the budget, nothing is
    /// added and the error is located at the statement. (`set_at` on a table, whose
    /// entries at the default budget would take gigabytes here: tests/limits.rs, with a
    /// small budget.)
    #[test]
    fn located_growth_stops_at_the_budget() {
        static AT: Loc = Loc::new("t.tgdl", 7, 3);
        let limit = crate::limits::list_items();
        let mut l = List::from_vec(vec![0u8; limit - 1]);
        assert!(l.push_at(1, &AT).is_ok());
        let err = l.push_at(2, &AT).unwrap_err();
        assert!(format!("{err:?}").contains("this list would hold"), "{err:?}");
        assert_eq!(l.items.len(), limit);
        drop(l);
        let mut s = Stack::from_vec(vec![0u8; limit]);
        assert!(s.push_at(None, &AT).is_ok(), "pushing null adds nothing");
        assert!(s.push_at(Some(1), &AT).is_err());
        assert!(s.push_front_at(Some(1), &AT).is_err());
        assert_eq!(s.items.len(), limit);
        assert_eq!(crate::limits::take_refused_growth(), None, "located errors record no refusal");
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
