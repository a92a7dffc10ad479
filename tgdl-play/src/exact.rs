//! The exact walk: every history of a game from a position to its end, each weighed by
//! its probability when the players choose uniformly at random and chance by its own
//! probabilities. It gives the number of terminal histories, the probability of each
//! result and each player's expected reward: what a researcher checks a game against
//! (OpenSpiel's counts and values), without trying seeds.
//!
//! Chance is walked only when the game meets it as events of its own (a game started with
//! explicit chance); a seeded game walks the one world its seed draws.

use std::collections::BTreeMap;
use tgdl_runtime::game::{Game, Status};

/// What the exact walk found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exact {
    /// Histories that end (the game over, or a rule error).
    pub histories: u64,
    /// Each result (`player 0 wins`, `draw`, ...) with its probability.
    pub results: BTreeMap<String, f64>,
    /// Each player's expected return: their payoffs when the game gives them, else 1 for
    /// first place, 0 for last, evenly between, ½ in a draw (as search agents count them).
    pub returns: Vec<f64>,
    /// The probability of ending in a rule error, and the first error met.
    pub errors: f64,
    pub first_error: Option<String>,
    /// The probability of reaching a chance event whose outcomes cannot be listed
    /// (`random()`), where the walk stops.
    pub unlisted: f64,
}

/// Why the walk stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExactError {
    /// The tree has more nodes than the walk may visit.
    TooLarge { nodes: u64 },
}

impl std::fmt::Display for ExactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExactError::TooLarge { nodes } => {
                write!(f, "the game tree has more than {nodes} nodes: too large to walk exactly")
            }
        }
    }
}

impl std::error::Error for ExactError {}

/// Walks every history from `game`, visiting at most `max_nodes` positions.
pub fn exact<G: Game>(game: &G, max_nodes: u64) -> Result<Exact, ExactError> {
    let mut walk = Walk {
        acc: Exact { returns: vec![0.0; game.players() as usize], ..Exact::default() },
        nodes: 0,
        max_nodes,
    };
    // Depth first with a stack of its own: a long game cannot overflow the thread's stack.
    // Children are pushed last first, so they are visited (and summed) in option order.
    let mut stack = vec![(game.clone(), 1.0)];
    while let Some((game, weight)) = stack.pop() {
        for (i, p) in walk.visit(&game, weight)?.into_iter().rev() {
            let mut next = game.clone();
            if next.apply(i).is_ok() {
                stack.push((next, weight * p));
            }
        }
    }
    Ok(walk.acc)
}

struct Walk {
    acc: Exact,
    nodes: u64,
    max_nodes: u64,
}

impl Walk {
    /// Counts `game` and, unless it ended, gives its branches with their probabilities.
    fn visit<G: Game>(&mut self, game: &G, weight: f64) -> Result<Vec<(usize, f64)>, ExactError> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(ExactError::TooLarge { nodes: self.max_nodes });
        }
        Ok(match game.status() {
            Status::Over => {
                self.acc.histories += 1;
                if let Some(outcome) = game.outcome() {
                    *self.acc.results.entry(outcome.describe()).or_default() += weight;
                    let rewards = crate::mcts::rewards(outcome, game.players());
                    for (total, r) in self.acc.returns.iter_mut().zip(rewards) {
                        *total += weight * r;
                    }
                }
                Vec::new()
            }
            Status::Failed => {
                self.acc.histories += 1;
                self.acc.errors += weight;
                if self.acc.first_error.is_none() {
                    self.acc.first_error = game.error().map(|e| e.to_string());
                }
                Vec::new()
            }
            Status::Chance if game.options().is_empty() => {
                self.acc.unlisted += weight;
                Vec::new()
            }
            Status::Chance => game.chance_outcomes(),
            Status::Decide(_) => {
                let n = game.options().len();
                (0..n).map(|i| (i, 1.0 / n as f64)).collect()
            }
        })
    }
}
