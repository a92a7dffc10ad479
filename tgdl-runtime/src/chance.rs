//! Chance as a game meets it: `roll`, `random()`, the steps of a shuffle and the cards
//! dealt off a shuffled deck.
//!
//! A seeded game draws every outcome from its generator as it plays (and, when asked to,
//! records what it drew). An explicit game ([`ChanceMode::Explicit`]) stops at each event
//! instead: the engine puts the event as a decision of chance, whose outcomes can be
//! listed, weighed and chosen. Both see the same events in the same order, with the same
//! outcomes equally likely, so a recorded seeded game can be replayed explicitly outcome
//! by outcome.
//!
//! A shuffled deck is dealt lazily in an explicit game: shuffling only marks the cards as
//! unordered, and each card that comes off it (from either end) is an event whose
//! outcomes are the unordered cards. A deal of five cards from 52 is five events of 52,
//! 51, 50, 49 and 48 outcomes, not one of 52!. A seeded game shuffles the cards at once,
//! as it always has, and keeps the same marks so that both agree on which draws are
//! events.

use serde::{Deserialize, Serialize};

/// A chance event, as an explicit game puts it to chance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChanceEvent {
    /// `roll(n)`: outcome `i` is the face `i + 1`.
    Roll(u64),
    /// One step of a shuffle: outcome `i` is the item at position `i` among the first `n`,
    /// which moves to position `n - 1`.
    Step(u64),
    /// The next object off a shuffled deck: outcome `i` is `objects[i]` (indices in the
    /// arena with `tag`).
    Deal { tag: u32, objects: Vec<u32> },
    /// `random()`: a number in `[0, 1)`, drawn rather than listed.
    Unit,
}

impl ChanceEvent {
    /// How many outcomes can be listed (none for [`ChanceEvent::Unit`]).
    pub fn outcomes(&self) -> u64 {
        match self {
            ChanceEvent::Roll(n) | ChanceEvent::Step(n) => *n,
            ChanceEvent::Deal { objects, .. } => objects.len() as u64,
            ChanceEvent::Unit => 0,
        }
    }

    /// What the record of a seeded game holds for outcome `i` (see [`Chance::record`]).
    pub fn recorded(&self, i: u32) -> u64 {
        match self {
            ChanceEvent::Deal { objects, .. } => objects.get(i as usize).map_or(u64::MAX, |&o| u64::from(o)),
            _ => u64::from(i),
        }
    }

    /// The outcome a record entry names, if it is one of this event's.
    pub fn outcome_of(&self, recorded: u64) -> Option<u32> {
        match self {
            ChanceEvent::Deal { objects, .. } => {
                objects.iter().position(|&o| u64::from(o) == recorded).map(|i| i as u32)
            }
            ChanceEvent::Unit => None,
            _ => (recorded < self.outcomes()).then_some(recorded as u32),
        }
    }
}

/// How outcome `outcome` of `event` reads, without looking at the game: the outcome
/// itself when `told`, else only that the event happened. A dealt object is named by its
/// arena index here: games name it ([`crate::Game::chance_label_for`]).
pub fn plain_label(event: &ChanceEvent, outcome: u32, told: bool) -> String {
    match (event, told) {
        (ChanceEvent::Roll(_), true) => format!("rolls {}", u64::from(outcome) + 1),
        (ChanceEvent::Roll(n), false) => format!("rolls a hidden die of {n} faces"),
        (ChanceEvent::Step(_), true) => format!("shuffles, taking position {outcome}"),
        (ChanceEvent::Step(_), false) => "shuffles".to_string(),
        (ChanceEvent::Deal { objects, .. }, true) => {
            format!("deals object {}", objects.get(outcome as usize).copied().unwrap_or(u32::MAX))
        }
        (ChanceEvent::Deal { .. }, false) => "deals a hidden object".to_string(),
        (ChanceEvent::Unit, _) => "draws random()".to_string(),
    }
}

/// How a game meets chance (`roll`, `random()`, a shuffle, a card drawn from a shuffled
/// stack).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChanceMode {
    /// Drawn from the game's generator as it plays: the same seed gives the same game.
    #[default]
    Seeded,
    /// Every chance event is a decision of its own ([`crate::game::Status::Chance`]), whose outcomes and
    /// probabilities can be listed and chosen: for exact tree walks and for algorithms
    /// that treat chance as a player. A shuffled stack is dealt lazily: the card that comes
    /// off is the outcome, so a deal has as many outcomes as cards left.
    Explicit,
}

/// How one game meets chance: its mode, and what it drew when it records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chance {
    pub mode: ChanceMode,
    /// The outcomes drawn so far, in order, when the game records them (a game played for
    /// real, whose players' information states are replayed from it): a face or step by its
    /// index, a dealt object by its arena index, a `random()` by its bits.
    pub record: Option<Vec<u64>>,
    /// Objects (arena tag, index) dealt off a shuffled deck since the engine last looked,
    /// when the game records: wherever a seat saw them before, the shuffle hid.
    pub dealt: Vec<(u32, u32)>,
}

impl Chance {
    pub fn new(mode: ChanceMode) -> Chance {
        Chance { mode, record: None, dealt: Vec::new() }
    }

    /// Seeded, recording nothing, keeping the dealt list's allocation.
    pub fn restart(&mut self) {
        self.mode = ChanceMode::default();
        self.record = None;
        self.dealt.clear();
    }

    /// Notes an outcome drawn by a seeded game.
    #[inline]
    pub fn note(&mut self, outcome: u64) {
        if let Some(record) = &mut self.record {
            record.push(outcome);
        }
    }

    /// Notes an object dealt off a shuffled deck, when the game records.
    #[inline]
    pub fn note_dealt(&mut self, tag: u32, index: u32) {
        if self.record.is_some() {
            self.dealt.push((tag, index));
        }
    }

    /// Keeps the record's allocation (`Core`'s `clone_from`).
    pub fn clone_from(&mut self, source: &Chance) {
        self.mode = source.mode;
        self.dealt.clone_from(&source.dealt);
        match (&mut self.record, &source.record) {
            (Some(mine), Some(theirs)) => mine.clone_from(theirs),
            (mine, theirs) => *mine = theirs.clone(),
        }
    }
}

/// The shuffled part of a deck: the items in `lo..hi` (positions from the bottom) are in
/// no known order. Pushing on top leaves it; pushing under it moves it up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unordered {
    pub lo: u32,
    pub hi: u32,
}

impl Unordered {
    pub fn is_empty(self) -> bool {
        self.lo >= self.hi
    }

    pub fn len(self) -> u32 {
        self.hi.saturating_sub(self.lo)
    }
}
