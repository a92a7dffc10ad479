//! The moves of an interpreted game: small `Copy` values, as the engine requires, that
//! carry an action, the object it belongs to and its leading inputs. The first few inputs
//! are held in the move; the rest of a longer choice is interned once per process and
//! named by its number, so a move of any length stays a few words.

use crate::value::Slot;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, MutexGuard};

/// The leading inputs a move holds itself.
pub(crate) const INLINE: usize = 4;

/// A move of the turn menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) action: u32,
    pub(crate) this: Slot,
    inline: [Slot; INLINE],
    /// The inputs past the first [`INLINE`]: 0 for none, else one more than their number
    /// in the interner (equal inputs, equal numbers: moves compare as their inputs do).
    more: u32,
    /// Whether playing it may ask a player mid-effect (the action's, kept with the move:
    /// the engine asks the type, not the world).
    pub(crate) asks: bool,
}

impl Move {
    pub(crate) fn new(action: u32, this: Slot, inputs: &[Slot], asks: bool) -> Move {
        let mut inline = [Slot::Null; INLINE];
        let held = inputs.len().min(INLINE);
        inline[..held].copy_from_slice(&inputs[..held]);
        let more = if inputs.len() > INLINE { interner().intern(&inputs[INLINE..]) + 1 } else { 0 };
        Move { action, this, inline, more, asks }
    }

    /// The `k`-th leading input.
    pub(crate) fn input(&self, k: usize) -> Slot {
        if k < INLINE {
            return self.inline[k];
        }
        match self.more.checked_sub(1) {
            Some(n) => interner().slots[n as usize].get(k - INLINE).copied().unwrap_or(Slot::Null),
            None => Slot::Null,
        }
    }
}

/// The longer choices made so far in this process, each once.
#[derive(Default)]
struct Interner {
    slots: Vec<Box<[Slot]>>,
    numbers: HashMap<Box<[Slot]>, u32>,
}

impl Interner {
    fn intern(&mut self, slots: &[Slot]) -> u32 {
        if let Some(&n) = self.numbers.get(slots) {
            return n;
        }
        let n = self.slots.len() as u32;
        self.slots.push(slots.into());
        self.numbers.insert(slots.into(), n);
        n
    }
}

fn interner() -> MutexGuard<'static, Interner> {
    static INTERNER: LazyLock<Mutex<Interner>> = LazyLock::new(Mutex::default);
    INTERNER.lock().unwrap_or_else(|e| e.into_inner())
}
