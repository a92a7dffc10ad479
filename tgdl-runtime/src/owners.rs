//! Who stands where: for a `player` attribute of a tile class that menus filter
//! on (`input Square from { return from.pawn == player.active(); }`), the world keeps, per
//! player, the set of tiles whose attribute names that player, updated at every write. The
//! menu then walks only those tiles — in creation order, as it would walk them all — and
//! the filter still runs on each, so the moves offered are the same.

use crate::value::Player;

/// Per player, a set of tiles by creation index: one bit each. `N` is the number of
/// words of all the sets together (players × words of one set), known when the game is
/// compiled: the sets are a plain array, copied with the world without an allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owners<const N: usize> {
    /// Words of one player's set.
    words: usize,
    /// Player `p`'s set is `bits[p * words..(p + 1) * words]`.
    bits: [u64; N],
}

impl<const N: usize> Owners<N> {
    /// Empty sets over tiles `0..tiles`, for as many players as `N` words hold.
    pub fn new(tiles: usize) -> Owners<N> {
        Owners { words: tiles.div_ceil(64), bits: [0; N] }
    }

    /// Empties every set.
    pub fn clear(&mut self) {
        self.bits = [0; N];
    }

    /// The attribute of tile `index` changed from `before` to `after`.
    #[inline]
    pub fn moved(&mut self, index: usize, before: Option<Player>, after: Option<Player>) {
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        if let Some(slot) = before.and_then(|p| self.bits.get_mut(p.0 as usize * self.words + word)) {
            *slot &= !bit;
        }
        if let Some(slot) = after.and_then(|p| self.bits.get_mut(p.0 as usize * self.words + word)) {
            *slot |= bit;
        }
    }

    /// Word `k` of player `p`'s set (empty past the end).
    #[inline]
    fn word(&self, p: Player, k: usize) -> u64 {
        if k >= self.words {
            return 0;
        }
        self.bits.get(p.0 as usize * self.words + k).copied().unwrap_or(0)
    }
}

/// A walk over one player's set in increasing index, reading the sets a word at a time so
/// that the world stays free to borrow between steps.
#[derive(Clone, Debug)]
pub struct Cursor {
    player: Player,
    /// The word being walked, and what is left of it.
    word: usize,
    left: u64,
    started: bool,
}

impl Cursor {
    pub fn new(player: Player) -> Cursor {
        Cursor { player, word: 0, left: 0, started: false }
    }

    /// The next tile index of the player's set.
    #[inline]
    pub fn next<const N: usize>(&mut self, owners: &Owners<N>) -> Option<usize> {
        if !self.started {
            self.started = true;
            self.left = owners.word(self.player, 0);
        }
        while self.left == 0 {
            self.word += 1;
            if self.word >= owners.words {
                return None;
            }
            self.left = owners.word(self.player, self.word);
        }
        let bit = self.left.trailing_zeros() as usize;
        self.left &= self.left - 1;
        Some(self.word * 64 + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk<const N: usize>(owners: &Owners<N>, p: u32) -> Vec<usize> {
        let mut cursor = Cursor::new(Player(p));
        std::iter::from_fn(|| cursor.next(owners)).collect()
    }

    #[test]
    fn sets_follow_every_change_in_creation_order() {
        // Two players, three words each.
        let mut o = Owners::<6>::new(130);
        for i in [129, 3, 64, 0, 70] {
            o.moved(i, None, Some(Player(1)));
        }
        o.moved(5, None, Some(Player(0)));
        assert_eq!(walk(&o, 1), [0, 3, 64, 70, 129]);
        assert_eq!(walk(&o, 0), [5]);
        o.moved(64, Some(Player(1)), Some(Player(0)));
        o.moved(3, Some(Player(1)), None);
        assert_eq!(walk(&o, 1), [0, 70, 129]);
        assert_eq!(walk(&o, 0), [5, 64]);
        // A player the sets were not sized for has none (never offered anything).
        o.moved(7, None, Some(Player(9)));
        assert!(walk(&o, 9).is_empty());
        o.clear();
        assert!(walk(&o, 1).is_empty());
    }

    #[test]
    fn no_tiles_no_walk() {
        let o = Owners::<0>::new(0);
        assert!(walk(&o, 0).is_empty());
    }
}
