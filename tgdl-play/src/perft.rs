//! Perft: the number of decision sequences of each length from a position, by cloning
//! states. A game that ends (or fails) before the depth is not extended. In a game started
//! with explicit chance, every chance outcome is a step of a sequence too (as OpenSpiel
//! counts histories); a `random()` it meets, whose outcomes cannot be listed, is counted
//! apart and not extended.

use rayon::prelude::*;
use tgdl_runtime::error::RuleError;
use tgdl_runtime::game::{Game, Status};

/// Below this depth the walk stays on one thread.
const PARALLEL_DEPTH: u32 = 4;

/// What a perft walk found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Perft {
    /// `counts[k]`: sequences of `k + 1` decisions.
    pub counts: Vec<u64>,
    /// Sequences shorter than the depth that ended in a rule error (counted in `counts`
    /// too). Options at the last level are counted without being played, so an error
    /// there goes unseen.
    pub errors: u64,
    /// The first of them in the engine's option order.
    pub first_error: Option<RuleError>,
    /// Sequences that stopped at a chance event whose outcomes cannot be listed.
    pub unlisted: u64,
}

impl Perft {
    fn new(depth: u32) -> Perft {
        Perft { counts: vec![0; depth as usize], errors: 0, first_error: None, unlisted: 0 }
    }

    /// Adds a walk of the same depth that comes later in option order.
    fn merge(mut self, later: Perft) -> Perft {
        for (a, b) in self.counts.iter_mut().zip(&later.counts) {
            *a += b;
        }
        self.errors += later.errors;
        self.unlisted += later.unlisted;
        if self.first_error.is_none() {
            self.first_error = later.first_error;
        }
        self
    }
}

/// The number of decision sequences of each length `1..=depth` from `game`.
pub fn perft<G: Game>(game: &G, depth: u32) -> Vec<u64> {
    perft_full(game, depth).counts
}

/// Perft with the rule errors met on the way. Parallel over the first decision when the
/// depth is large enough; the result is the same either way.
pub fn perft_full<G: Game>(game: &G, depth: u32) -> Perft {
    let mut result = Perft::new(depth);
    if depth == 0 || !walkable(game) {
        return result;
    }
    // One copy per level below the first decision.
    let copies = || (1..depth).map(|_| game.clone()).collect::<Vec<G>>();
    if depth < PARALLEL_DEPTH {
        walk(game, 0, &mut result, &mut copies());
        return result;
    }
    let n = moves(game);
    result.counts[0] = n as u64;
    (0..n)
        .into_par_iter()
        .map(|i| {
            let mut sub = Perft::new(depth);
            step(game, i, 1, &mut sub, &mut copies());
            sub
        })
        .collect::<Vec<_>>()
        .into_iter()
        .fold(result, Perft::merge)
}

/// Whether the walk goes on from `game`: a decision, or a chance event with listed outcomes.
fn walkable<G: Game>(game: &G) -> bool {
    match game.status() {
        Status::Decide(_) => true,
        Status::Chance => !game.options().is_empty(),
        Status::Over | Status::Failed => false,
    }
}

/// Counts the sequences continuing from `game`, which is deciding at `level` (the number of
/// decisions already taken). `copies` holds one game for each level below, into which
/// every option is played (`clone_from` copies into its allocations): a walk allocates
/// only when a copy grows.
/// The moves at a node: its options, or at the start of a round of simultaneous choices
/// every joint choice of its players (one move, as OpenSpiel counts them).
fn moves<G: Game>(game: &G) -> usize {
    match game.round() {
        Some(round) if round.is_fresh() => round.players.iter().map(|&p| game.options_of(p).len()).product(),
        _ => game.options().len(),
    }
}

/// Takes move `i` of [`moves`]: a joint choice is each player's, in seat order, the
/// last player's option varying fastest.
fn take<G: Game>(game: &mut G, i: usize) -> Result<(), tgdl_runtime::game::ApplyError> {
    let Some(round) = game.round().filter(|r| r.is_fresh()) else { return game.apply(i) };
    let sizes: Vec<usize> = round.players.iter().map(|&p| game.options_of(p).len()).collect();
    let mut rest = i;
    let mut picks = vec![0; sizes.len()];
    for (k, &n) in sizes.iter().enumerate().rev() {
        picks[k] = rest % n.max(1);
        rest /= n.max(1);
    }
    for (&p, &pick) in round.players.iter().zip(&picks) {
        game.apply_for(p, pick)?;
    }
    Ok(())
}

fn walk<G: Game>(game: &G, level: usize, acc: &mut Perft, copies: &mut [G]) {
    let n = moves(game);
    acc.counts[level] += n as u64;
    if level + 1 < acc.counts.len() {
        for i in 0..n {
            step(game, i, level + 1, acc, copies);
        }
    }
}

/// Applies option `i` to a copy of `game` (the first of `copies`) and walks on from
/// `level` with the others.
fn step<G: Game>(game: &G, i: usize, level: usize, acc: &mut Perft, copies: &mut [G]) {
    let Some((next, below)) = copies.split_first_mut() else { return };
    next.clone_from(game);
    if take(next, i).is_err() {
        return;
    }
    match next.status() {
        Status::Decide(_) | Status::Chance if walkable(next) => walk(next, level, acc, below),
        Status::Chance => acc.unlisted += 1,
        Status::Decide(_) | Status::Over => {}
        Status::Failed => {
            acc.errors += 1;
            if acc.first_error.is_none() {
                acc.first_error = next.error().cloned();
            }
        }
    }
}
