//! Menus kept up to date. When every action of the turn menu picks one tile
//! whose filter reads nothing but that tile's own attributes (`input Slot column { return
//! column.filled < 6; }`), a move changes the menu only where it writes those attributes.
//! The world then keeps, per action, which tiles passed the filter when the menu was last
//! built and which tiles have been written since. After a move only the written tiles are
//! tested again: when none changed its answer the menu stands as it is, else the option of
//! each tile that changed is taken out or put back in its place, without running any other
//! filter. Options stay in creation order, so the menu is the one a full build would make.
//!
//! Tiles are numbered by creation index (bit `i` of word `i / 64`); `W` words are enough
//! for every tile of the class, known when the game is compiled.

/// One action's tiles: those that passed its filter in the menu the world last built, and
/// those written since.
#[derive(Clone, Debug)]
pub struct Kept<const W: usize> {
    passes: [u64; W],
    dirty: [u64; W],
}

/// A cache of the menu, not part of the game: two worlds in the same state are equal
/// whatever their caches hold (one may have been copied, the other played to).
impl<const W: usize> PartialEq for Kept<W> {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl<const W: usize> Default for Kept<W> {
    fn default() -> Self {
        Kept::new()
    }
}

impl<const W: usize> Kept<W> {
    pub const fn new() -> Self {
        Kept { passes: [0; W], dirty: [0; W] }
    }

    /// Forgets everything: a full build of the menu follows.
    #[inline]
    pub fn clear(&mut self) {
        *self = Kept::new();
    }

    /// During a full build: tile `index` passed.
    #[inline]
    pub fn record(&mut self, index: usize) {
        self.passes[index / 64] |= 1 << (index % 64);
    }

    /// An attribute the filter reads was written on tile `index`.
    #[inline]
    pub fn touch(&mut self, index: usize) {
        self.dirty[index / 64] |= 1 << (index % 64);
    }

    /// The lowest tile written since the last look, taken off the written ones.
    #[inline]
    pub fn next_dirty(&mut self) -> Option<usize> {
        take_lowest(&mut self.dirty)
    }

    /// Tile `index` was tested again and `passes` now (or not): whether that changed.
    #[inline]
    pub fn set(&mut self, index: usize, passes: bool) -> bool {
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        let changed = (self.passes[word] & bit != 0) != passes;
        if changed {
            self.passes[word] ^= bit;
        }
        changed
    }

    /// How many tiles pass: the action's options.
    #[inline]
    pub fn count(&self) -> usize {
        self.passes.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// How many tiles below `index` pass: where tile `index`'s option stands among the
    /// action's options.
    #[inline]
    pub fn rank(&self, index: usize) -> usize {
        let (word, bit) = (index / 64, index % 64);
        let below: usize = self.passes[..word].iter().map(|w| w.count_ones() as usize).sum();
        below + (self.passes[word] & ((1u64 << bit) - 1)).count_ones() as usize
    }

    /// The tiles that pass, in creation order: the action's options. The menu is changed
    /// in place ([`update`]), so only the tests list them.
    #[cfg(test)]
    pub fn passing(&self) -> Passing<W> {
        Passing { words: self.passes }
    }
}

/// A menu kept up to date, after a tile answered its filter differently: its option, at
/// `at`, is taken out of the menu (`None`) or put in (`Some`). `at` is within the menu
/// when the menu is the one the world last built, as [`Kept`] requires; the bound only
/// keeps a broken promise from panicking (unoptimised builds compare every kept menu with
/// a full build).
#[inline]
pub fn update<T>(menu: &mut Vec<T>, at: usize, option: Option<T>) {
    match option {
        Some(option) => menu.insert(at.min(menu.len()), option),
        None if at < menu.len() => {
            menu.remove(at);
        }
        None => {}
    }
}

/// The tiles of a [`Kept`] that pass, lowest index first.
#[cfg(test)]
#[derive(Clone, Debug)]
pub struct Passing<const W: usize> {
    words: [u64; W],
}

#[cfg(test)]
impl<const W: usize> Iterator for Passing<W> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        take_lowest(&mut self.words)
    }
}

/// The lowest set bit of a set held in words, taken off the set.
#[inline]
fn take_lowest(words: &mut [u64]) -> Option<usize> {
    let (k, word) = words.iter_mut().enumerate().find(|(_, w)| **w != 0)?;
    let bit = word.trailing_zeros() as usize;
    *word &= *word - 1;
    Some(k * 64 + bit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_give_the_full_build() {
        // 150 tiles over three words; the menu starts as every third tile, then tiles are
        // written one or several at a time (tile 0 twice in one move: back as it was).
        let n = 150;
        let mut state: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
        let mut kept = Kept::<3>::new();
        for (i, _) in state.iter().enumerate().filter(|(_, s)| **s) {
            kept.record(i);
        }
        // The menu, kept as the generated code keeps it: one option per passing tile.
        let mut menu: Vec<usize> = kept.passing().collect();
        let writes: [&[usize]; 6] = [&[0], &[1, 2, 149], &[64, 63, 65], &[0, 0, 3], &[127, 128], &[5]];
        let mut changes = vec![];
        for written in writes {
            for &i in written {
                state[i] = !state[i];
                kept.touch(i);
            }
            let mut changed = false;
            while let Some(i) = kept.next_dirty() {
                if kept.set(i, state[i]) {
                    changed = true;
                    update(&mut menu, kept.rank(i), state[i].then_some(i));
                }
            }
            changes.push(changed);
            let full: Vec<usize> = (0..n).filter(|&i| state[i]).collect();
            assert_eq!(kept.passing().collect::<Vec<_>>(), full);
            assert_eq!(menu, full);
            assert_eq!(kept.count(), full.len());
        }
        assert_eq!(changes, [true, true, true, true, true, true]);
        // A tile written back to what it was: nothing changes.
        kept.touch(7);
        assert_eq!(kept.next_dirty(), Some(7));
        assert!(!kept.set(7, state[7]));
        assert_eq!(kept.next_dirty(), None);
    }

    #[test]
    fn clearing_forgets_everything() {
        let mut kept = Kept::<2>::new();
        kept.record(3);
        kept.record(100);
        kept.touch(5);
        assert_eq!(kept.passing().collect::<Vec<_>>(), [3, 100]);
        kept.clear();
        assert_eq!(kept.passing().next(), None);
        assert_eq!(kept.next_dirty(), None);
    }

    #[test]
    fn caches_do_not_make_worlds_differ() {
        let mut a = Kept::<1>::new();
        a.record(3);
        assert_eq!(a, Kept::<1>::new());
    }
}
