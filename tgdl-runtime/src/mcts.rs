//! A search agent: Monte Carlo tree search (UCT) over decisions (notes §5).
//!
//! Every decision a game asks — moves of the turn menu, inputs met in the middle of an
//! effect, any player's — is a node; chance is sampled by playing on. Each iteration starts
//! from a game the deciding player cannot tell from the real one ([`Decision::determinize`]:
//! the hidden cards redistributed, future chance re-seeded), so the search never looks at
//! what its seat may not see: information-set MCTS, one tree over many determinizations.
//! A child is keyed by its choice (a move or an answer, as data), so the same child is
//! found again in every determinization that offers it; UCB counts how often a child was
//! available rather than how often its parent was visited.

use crate::agent::{Agent, AgentError, Decision};
use crate::game::{Choice, Game, Outcome, Status};
use crate::rng::Rng;
use std::fmt;
use std::time::{Duration, Instant};

/// How long MCTS thinks about one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations: deterministic for a seed.
    Iterations(u32),
    /// This long (not deterministic).
    Time(Duration),
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::Iterations(DEFAULT_ITERATIONS)
    }
}

/// `mcts` without a budget: iterations per decision.
pub const DEFAULT_ITERATIONS: u32 = 1_000;

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Time(d) => write!(f, "{}s", d.as_secs_f64()),
        }
    }
}

impl std::str::FromStr for Budget {
    type Err = String;

    /// `200` (iterations) or `2s`, `0.5s` (seconds).
    fn from_str(s: &str) -> Result<Budget, String> {
        let bad =
            || format!("`{s}` is not an MCTS budget: write iterations (`mcts:500`) or seconds (`mcts:2s`)");
        match s.strip_suffix('s') {
            Some(secs) => {
                let secs: f64 = secs.parse().map_err(|_| bad())?;
                if !(secs > 0.0 && secs <= 86_400.0) {
                    return Err(bad());
                }
                Ok(Budget::Time(Duration::from_secs_f64(secs)))
            }
            None => match s.parse::<u32>() {
                Ok(n) if n > 0 => Ok(Budget::Iterations(n)),
                _ => Err(bad()),
            },
        }
    }
}

/// The exploration constant of UCB1 (rewards are in `[0, 1]`).
const EXPLORATION: f64 = 0.7;

/// Decisions a rollout plays before it counts as unfinished (every player scores ½).
const ROLLOUT_LIMIT: u32 = 2_000;

/// A node of the tree: the choice that led here, made by `player`.
#[derive(Clone, Debug)]
struct Node<M> {
    choice: Option<Choice<M>>,
    player: u32,
    children: Vec<u32>,
    visits: u32,
    /// Iterations in which this node's choice was offered at its parent.
    available: u32,
    /// Sum of `player`'s rewards over the iterations through this node.
    reward: f64,
}

/// Chooses by Monte Carlo tree search.
#[derive(Clone, Debug)]
pub struct MctsAgent {
    budget: Budget,
    rng: Rng,
}

impl MctsAgent {
    pub fn new(budget: Budget, seed: u64) -> MctsAgent {
        MctsAgent { budget, rng: Rng::new(seed) }
    }

    /// Searches from `decision`; returns the option with the most visits at the root
    /// (ties: the first), and the number of iterations run.
    pub fn search<G: Game>(&mut self, decision: &Decision<'_, G>) -> Result<(usize, u32), AgentError> {
        let options = decision.choices();
        if options.is_empty() {
            return Err(AgentError::NoOptions);
        }
        let mut tree: Vec<Node<G::Move>> = vec![Node {
            choice: None,
            player: decision.player(),
            children: Vec::new(),
            visits: 0,
            available: 0,
            reward: 0.0,
        }];
        let started = Instant::now();
        let mut iterations = 0u32;
        loop {
            let done = match self.budget {
                Budget::Iterations(n) => iterations >= n,
                // The clock is read every 16 iterations.
                Budget::Time(d) => iterations % 16 == 0 && iterations > 0 && started.elapsed() >= d,
            };
            if done {
                break;
            }
            let sample =
                decision.determinize(&mut self.rng).map_err(|e| AgentError::Refused(e.to_string()))?;
            self.iterate(&mut tree, sample);
            iterations += 1;
        }
        let root = &tree[0];
        let mut best: Option<(usize, u32)> = None;
        for (i, choice) in options.iter().enumerate() {
            let visits = root
                .children
                .iter()
                .map(|&c| &tree[c as usize])
                .find(|n| n.choice.as_ref() == Some(choice))
                .map_or(0, |n| n.visits);
            if best.is_none_or(|(_, v)| visits > v) {
                best = Some((i, visits));
            }
        }
        Ok((best.map_or(0, |(i, _)| i), iterations))
    }

    /// One iteration on a determinized game: select, expand one node, play out at random,
    /// back up the rewards.
    fn iterate<G: Game>(&mut self, tree: &mut Vec<Node<G::Move>>, mut game: G) {
        let mut path: Vec<u32> = vec![0];
        let mut node = 0usize;
        let mut expanded = false;
        while let Status::Decide(p) = game.status() {
            let options = game.options();
            // Options not yet in the tree, in order; one is expanded.
            let untried: Vec<usize> = (0..options.len())
                .filter(|&i| {
                    !tree[node]
                        .children
                        .iter()
                        .any(|&c| tree[c as usize].choice.as_ref() == Some(&options[i]))
                })
                .collect();
            let index = if !untried.is_empty() {
                let index = untried[self.rng.below(untried.len() as u64) as usize];
                let child = tree.len() as u32;
                tree.push(Node {
                    choice: Some(options[index]),
                    player: p.0,
                    children: Vec::new(),
                    visits: 0,
                    available: 0,
                    reward: 0.0,
                });
                tree[node].children.push(child);
                node = child as usize;
                expanded = true;
                index
            } else {
                let (child, index) = self.select(tree, node, options);
                node = child;
                index
            };
            path.push(node as u32);
            if game.apply(index).is_err() {
                break;
            }
            if expanded {
                break;
            }
        }
        let rewards = self.rollout(&mut game);
        for &n in &path {
            let n = &mut tree[n as usize];
            n.visits += 1;
            n.reward += rewards.get(n.player as usize).copied().unwrap_or(0.0);
        }
    }

    /// UCB1 over the children this game offers now (counting their availability).
    fn select<M: PartialEq + Copy>(
        &self,
        tree: &mut [Node<M>],
        node: usize,
        options: &[Choice<M>],
    ) -> (usize, usize) {
        let mut best = (usize::MAX, 0usize, f64::NEG_INFINITY);
        let children = tree[node].children.clone();
        for c in children {
            let child = &mut tree[c as usize];
            let Some(index) = options.iter().position(|o| Some(o) == child.choice.as_ref()) else { continue };
            child.available += 1;
            let visits = child.visits.max(1) as f64;
            let score = child.reward / visits + EXPLORATION * ((child.available as f64).ln() / visits).sqrt();
            if score > best.2 {
                best = (c as usize, index, score);
            }
        }
        (best.0, best.1)
    }

    /// Plays on at random; each player's reward in `[0, 1]`.
    fn rollout<G: Game>(&mut self, game: &mut G) -> Vec<f64> {
        let mut steps = 0;
        while let Status::Decide(_) = game.status() {
            let n = game.options().len();
            if n == 0 || steps >= ROLLOUT_LIMIT {
                break;
            }
            if game.apply(self.rng.below(n as u64) as usize).is_err() {
                break;
            }
            steps += 1;
        }
        let players = game.players();
        match game.outcome() {
            Some(outcome) => rewards(outcome, players),
            // Unfinished, or a rule error: nobody's better off.
            None => vec![0.5; players as usize],
        }
    }
}

/// Rewards from a ranking: first place 1, last place 0, evenly between; all ½ in a draw.
pub fn rewards(outcome: &Outcome, players: u32) -> Vec<f64> {
    let places = outcome.places.len();
    (0..players)
        .map(|p| {
            if places <= 1 {
                0.5
            } else {
                let place = outcome.place_of(p).min(places - 1);
                (places - 1 - place) as f64 / (places - 1) as f64
            }
        })
        .collect()
}

impl<G: Game> Agent<G> for MctsAgent {
    fn choose(&mut self, decision: &Decision<'_, G>) -> Result<usize, AgentError> {
        if decision.options() == 1 {
            return Ok(0);
        }
        self.search(decision).map(|(index, _)| index)
    }

    fn name(&self) -> &str {
        "mcts"
    }
}
