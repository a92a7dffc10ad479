//! A search agent: Monte Carlo tree search (UCT) over decisions (docs/agents.md).
//!
//! Every decision a game asks — moves of the turn menu, inputs met in the middle of an
//! effect, any player's — is a node; chance is sampled by playing on. Each iteration starts
//! from a game the deciding player cannot tell from the real one ([`Decision::determinize`]:
//! the hidden cards redistributed, future chance re-seeded), so the search never looks at
//! what its seat may not see: information-set MCTS, one tree over many determinizations.
//! A child is keyed by its choice (a move or an answer, as data), so the same child is
//! found again in every determinization that offers it; UCB counts how often a child was
//! available rather than how often its parent was visited.
//!
//! A round of simultaneous choices is one node, searched decoupled: each of its players
//! picks an option by its own statistics at that node (UCB over its options, its own
//! rewards), not knowing what the others pick, and the round's joint choice leads to the
//! child below. No player's choice is searched as if it knew another's.
//!
//! The tree is one arena: a node's children sit side by side, created together the first
//! time the node is reached (in the order of its options, so a child is usually found at
//! its option's index). Between decisions of a game where nothing is hidden, the subtree
//! under what was played is kept and the rest dropped.

use crate::agent::{Agent, AgentError, Decision};
use std::fmt;
use std::time::{Duration, Instant};
use tgdl_runtime::game::{Choice, Game, Outcome, Status};
use tgdl_runtime::rng::Rng;
use tgdl_runtime::view::View;

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
                // Below a nanosecond the duration is zero, which would be written back as
                // `0s`, a budget this parser refuses: refuse it here too.
                let time = Duration::from_secs_f64(secs);
                if time.is_zero() {
                    return Err(format!("`{s}` is not an MCTS budget: it rounds to no time at all"));
                }
                Ok(Budget::Time(time))
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

/// Nodes the tree may hold; past it, iterations play out from where the tree ends. About
/// 40 bytes a node: a few hundred megabytes at most, whatever the time budget.
const MAX_NODES: usize = 1 << 23;

/// Decisions by others between two of ours that subtree reuse follows (more: a new tree).
const MAX_REUSE_DEPTH: u64 = 2;

/// "No children yet."
const LEAF: u32 = u32::MAX;

/// What names a child: the choice as data where nothing is hidden (the same child is
/// found again whatever the determinization), its index among the options where something
/// is (a choice as data names objects by identity, which can tell what a hidden object is).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Key<M> {
    Choice(Choice<M>),
    Index(u32),
    /// At a round: option `index` of `player`'s menu (that player's statistics).
    Member {
        player: u32,
        index: u32,
    },
    /// At a round: where its joint choice leads (a fingerprint of every player's option).
    Joint(u64),
}

impl<M: Copy> Key<M> {
    fn of(options: &[Choice<M>], index: usize, hidden: bool) -> Key<M> {
        if hidden { Key::Index(index as u32) } else { Key::Choice(options[index]) }
    }
}

/// A node of the tree: the choice that led here, made by `player`.
#[derive(Clone, Debug)]
struct Node<M> {
    choice: Option<Key<M>>,
    player: u32,
    /// The children are `first..first + len` in the arena ([`LEAF`]: not expanded).
    first: u32,
    len: u32,
    visits: u32,
    /// Iterations in which this node's choice was offered at its parent.
    available: u32,
    /// Sum of `player`'s rewards over the iterations through this node.
    reward: f64,
}

impl<M> Node<M> {
    fn new(choice: Option<Key<M>>, player: u32) -> Node<M> {
        Node { choice, player, first: LEAF, len: 0, visits: 0, available: 0, reward: 0.0 }
    }

    fn children(&self) -> std::ops::Range<usize> {
        if self.first == LEAF { 0..0 } else { self.first as usize..(self.first + self.len) as usize }
    }
}

/// What the last search left for the next one (games where nothing is hidden): the game
/// it searched and the option chosen there.
#[derive(Clone, Debug)]
struct Played<G> {
    game: G,
    option: usize,
}

/// Chooses by Monte Carlo tree search.
#[derive(Clone, Debug)]
pub struct MctsAgent<G: Game> {
    budget: Budget,
    rng: Rng,
    /// The arena; `tree[0]` is the root.
    tree: Vec<Node<G::Move>>,
    /// Where a kept subtree is copied (its allocation reused).
    spare: Vec<Node<G::Move>>,
    last: Option<Played<G>>,
    /// Per-iteration buffers.
    path: Vec<u32>,
    rewards: Vec<f64>,
    /// The least and greatest return seen, and `1 / (high - low)`: UCB1 compares returns
    /// mapped onto `0..=1`, whatever the game pays (chips, points). Rankings give returns
    /// in `0..=1` already, where the mapping changes nothing.
    low: f64,
    high: f64,
    scale: f64,
    /// Iterations of the last search that started from a kept subtree's statistics.
    kept: u32,
}

impl<G: Game> MctsAgent<G> {
    pub fn new(budget: Budget, seed: u64) -> MctsAgent<G> {
        MctsAgent {
            budget,
            rng: Rng::new(seed),
            tree: Vec::new(),
            spare: Vec::new(),
            last: None,
            path: Vec::new(),
            rewards: Vec::new(),
            low: 0.0,
            high: 1.0,
            scale: 1.0,
            kept: 0,
        }
    }

    /// The visits the root had from the previous search when this one began (0: a new
    /// tree).
    pub fn kept_visits(&self) -> u32 {
        self.kept
    }

    /// Searches from `decision`; returns the option with the most visits at the root
    /// (ties: the first), and the number of iterations run.
    pub fn search(&mut self, decision: &Decision<'_, G>) -> Result<(usize, u32), AgentError> {
        let options = decision.options();
        if options == 0 {
            return Err(AgentError::NoOptions);
        }
        let refused = |e: tgdl_runtime::hidden::DeterminizeError| AgentError::Refused(e.to_string());
        let mut worlds = decision.worlds();
        let mut sample = worlds.next(&mut self.rng).map_err(refused)?;
        // The seat chooses in a round: the worlds stand at its start, a joint node.
        let joint = sample.round().is_some_and(|r| r.is_fresh());
        let now = if G::has_hidden_information() { None } else { Some(sample.clone()) };
        if !now.as_ref().is_some_and(|now| self.keep_subtree(now)) {
            self.tree.clear();
            self.tree.push(Node::new(None, decision.player()));
        }
        self.kept = self.tree[0].visits;
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
            if iterations > 0 {
                worlds.next_into(&mut self.rng, &mut sample).map_err(refused)?;
            }
            self.iterate(&mut sample);
            iterations += 1;
        }
        let root = &self.tree[0];
        let mut best: Option<(usize, u32, u32)> = None;
        for i in 0..options {
            let key = match decision.choices() {
                _ if joint => Key::Member { player: decision.player(), index: i as u32 },
                Some(choices) => Key::Choice(choices[i]),
                None => Key::Index(i as u32),
            };
            let Some(c) = find_child(&self.tree, root, i, &key) else { continue };
            let visits = self.tree[c].visits;
            if best.is_none_or(|(_, v, _)| visits > v) {
                best = Some((i, visits, c as u32));
            }
        }
        let (index, _, _) = best.unwrap_or((0, 0, 0));
        self.last = now.map(|game| Played { game, option: index });
        Ok((index, iterations))
    }

    /// Makes the subtree of what was played since the last search the tree, when that can
    /// be told for sure: our option, then at most [`MAX_REUSE_DEPTH`] decisions by others,
    /// each found by replaying it on the last game and comparing what is seen.
    fn keep_subtree(&mut self, now: &G) -> bool {
        let Some(Played { game, option }) = self.last.take() else { return false };
        let Some(root) = self.tree.first() else { return false };
        let mut game = game;
        let Some(mut node) = find_child(&self.tree, root, option, &Key::Choice(game.options()[option]))
        else {
            return false;
        };
        if game.apply(option).is_err() {
            return false;
        }
        let Some(gap) = now.decisions().checked_sub(game.decisions()) else { return false };
        if gap > MAX_REUSE_DEPTH {
            return false;
        }
        let target = (now.view(), now.log().to_vec());
        for _ in 0..gap {
            // Which option of the game leads on to `now`: the first whose result looks the same,
            // or (with decisions left to find) the only way on.
            let n = game.options().len();
            let mut found = None;
            for i in 0..n {
                let mut next = game.clone();
                if next.apply(i).is_err() {
                    continue;
                }
                if next.decisions() < now.decisions() || same(&next, now, &target) {
                    if found.is_some() {
                        return false;
                    }
                    found = Some((i, next));
                }
            }
            let Some((i, next)) = found else { return false };
            let Some(child) = find_child(&self.tree, &self.tree[node], i, &Key::Choice(game.options()[i]))
            else {
                return false;
            };
            node = child;
            game = next;
        }
        if !same(&game, now, &target) {
            return false;
        }
        self.compact(node);
        true
    }

    /// Copies the subtree under `node` into a fresh arena with `node` as root.
    fn compact(&mut self, node: usize) {
        let mut kept = std::mem::take(&mut self.spare);
        kept.clear();
        let mut root = self.tree[node].clone();
        root.choice = None;
        kept.push(root);
        // Breadth first: each node's children are copied side by side.
        let mut next = 0;
        while next < kept.len() {
            let range = kept[next].children();
            if !range.is_empty() {
                kept[next].first = kept.len() as u32;
                kept.extend_from_slice(&self.tree[range]);
            }
            next += 1;
        }
        self.spare = std::mem::replace(&mut self.tree, kept);
    }

    /// One iteration on a determinized game: select down the tree, expand the node reached
    /// (all its options at once) and step into one, play out at random, back up the rewards.
    fn iterate(&mut self, game: &mut G) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        let hidden = G::has_hidden_information();
        loop {
            let p = match game.status() {
                Status::Decide(p) => p,
                // A world drawn from an information state meets its chance as events: drawn
                // here, as a playout would.
                Status::Chance => {
                    if game.sample_chance(&mut self.rng).is_err() {
                        break;
                    }
                    continue;
                }
                Status::Over | Status::Failed => break,
            };
            if let Some(round) = game.round().filter(|r| r.is_fresh()) {
                match self.joint_step(node, game, &round.players) {
                    Some((child, true)) => node = child,
                    _ => break,
                }
                continue;
            }
            let options = game.options();
            if self.tree[node].first == LEAF {
                if self.tree.len() + options.len() > MAX_NODES {
                    break;
                }
                let first = self.tree.len() as u32;
                self.tree
                    .extend((0..options.len()).map(|i| Node::new(Some(Key::of(options, i, hidden)), p.0)));
                let n = &mut self.tree[node];
                (n.first, n.len) = (first, options.len() as u32);
            }
            let Some((child, index)) = self.select(node, options.len(), |i| Key::of(options, i, hidden), p.0)
            else {
                break;
            };
            let fresh = self.tree[child].visits == 0;
            self.path.push(child as u32);
            node = child;
            if game.apply(index).is_err() || fresh {
                break;
            }
        }
        self.rollout(game);
        for &n in &self.path {
            let n = &mut self.tree[n as usize];
            n.visits += 1;
            n.reward += self.rewards.get(n.player as usize).copied().unwrap_or(0.0);
        }
    }

    /// Widens the range of returns to hold the last playout's payoffs.
    fn widen(&mut self) {
        for &r in &self.rewards {
            self.low = self.low.min(r);
            self.high = self.high.max(r);
        }
        self.scale = 1.0 / (self.high - self.low);
    }

    /// The child to step into and its option: one never visited (at random), else the best
    /// by UCB1 over the children this game offers now (counting their availability). An
    /// option the node has no child for (another determinization offered other options)
    /// gets one.
    fn select(
        &mut self,
        node: usize,
        options: usize,
        key_of: impl Fn(usize) -> Key<G::Move>,
        player: u32,
    ) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize)> = None;
        let mut best_score = f64::NEG_INFINITY;
        let mut unvisited = 0u32;
        // Children usually share their availability (always, when nothing is hidden and
        // no die decides the options): its logarithm is computed once.
        let mut ln = (0u32, 0f64);
        for i in 0..options {
            let key = key_of(i);
            let c = match find_child(&self.tree, &self.tree[node], i, &key) {
                Some(c) => c,
                None => self.add_child(node, key, player)?,
            };
            let child = &mut self.tree[c];
            child.available += 1;
            if child.visits == 0 {
                unvisited += 1;
                continue;
            }
            if unvisited > 0 {
                continue;
            }
            if ln.0 != child.available {
                ln = (child.available, (child.available as f64).ln());
            }
            let visits = child.visits as f64;
            let score =
                (child.reward / visits - self.low) * self.scale + EXPLORATION * (ln.1 / visits).sqrt();
            if score > best_score {
                best_score = score;
                best = Some((c, i));
            }
        }
        if unvisited == 0 {
            return best;
        }
        // One of the children never visited, each as likely.
        let mut k = self.rng.below(unvisited as u64);
        for i in 0..options {
            let c = find_child(&self.tree, &self.tree[node], i, &key_of(i))?;
            if self.tree[c].visits == 0 {
                if k == 0 {
                    return Some((c, i));
                }
                k -= 1;
            }
        }
        None
    }

    /// One round of simultaneous choices from `node`, decoupled: each player picks by its
    /// own statistics among its options (their nodes join the path, for its rewards), then
    /// the joint choice is applied and its child entered. The child, and whether the
    /// descent goes on (the child was visited before and the choices applied).
    fn joint_step(&mut self, node: usize, game: &mut G, players: &[u32]) -> Option<(usize, bool)> {
        let mut picks = Vec::with_capacity(players.len());
        let mut print: u64 = 0xcbf2_9ce4_8422_2325;
        for &q in players {
            let n = game.options_of(q).len();
            let (child, index) = self.select(node, n, |i| Key::Member { player: q, index: i as u32 }, q)?;
            self.path.push(child as u32);
            picks.push((q, index));
            print = (print ^ (index as u64 + 1)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        let applied = picks.iter().all(|&(q, i)| game.apply_for(q, i).is_ok());
        let key = Key::Joint(print);
        let child = match find_child(&self.tree, &self.tree[node], 0, &key) {
            Some(c) => c,
            None => self.add_child(node, key, players[0])?,
        };
        let fresh = self.tree[child].visits == 0;
        self.path.push(child as u32);
        Some((child, applied && !fresh))
    }

    /// Gives `node` a child for `choice`: its children are moved to the end of the arena
    /// with the new one after them.
    #[cold]
    fn add_child(&mut self, node: usize, choice: Key<G::Move>, player: u32) -> Option<usize> {
        let range = self.tree[node].children();
        if self.tree.len() + range.len() + 1 > MAX_NODES {
            return None;
        }
        let first = self.tree.len();
        self.tree.extend_from_within(range);
        self.tree.push(Node::new(Some(choice), player));
        let n = &mut self.tree[node];
        n.first = first as u32;
        n.len += 1;
        Some(self.tree.len() - 1)
    }

    /// Plays on at random; each player's reward in `[0, 1]` into `self.rewards`.
    fn rollout(&mut self, game: &mut G) {
        let mut steps = 0;
        loop {
            let applied = match game.status() {
                Status::Decide(_) => {
                    let n = game.options().len();
                    if n == 0 || steps >= ROLLOUT_LIMIT {
                        break;
                    }
                    game.apply(self.rng.below(n as u64) as usize)
                }
                Status::Chance => game.sample_chance(&mut self.rng),
                Status::Over | Status::Failed => break,
            };
            if applied.is_err() {
                break;
            }
            steps += 1;
        }
        let players = game.players();
        self.rewards.clear();
        match game.outcome() {
            Some(outcome) => {
                self.rewards.extend((0..players).map(|p| outcome.return_of(p)));
                if outcome.payoffs.is_some() {
                    self.widen();
                }
            }
            // Unfinished, or a rule error: nobody's better off.
            None => self.rewards.resize(players as usize, (self.low + self.high) / 2.0),
        }
    }
}

/// Whether two games look the same: who decides among which options, the log, and what
/// can be drawn (the costly part, compared last).
fn same<G: Game>(game: &G, now: &G, target: &(View, Vec<String>)) -> bool {
    game.decisions() == now.decisions()
        && game.status() == now.status()
        && game.options() == now.options()
        && game.log() == target.1.as_slice()
        && game.view() == target.0
}

/// The child of `node` for `choice`, offered as option `index`: usually the child at that
/// index (children are created in the order of the options).
#[inline]
fn find_child<M: PartialEq>(
    tree: &[Node<M>],
    node: &Node<M>,
    index: usize,
    choice: &Key<M>,
) -> Option<usize> {
    let range = node.children();
    let at = range.start + index;
    if at < range.end && tree[at].choice.as_ref() == Some(choice) {
        return Some(at);
    }
    range.into_iter().find(|&c| tree[c].choice.as_ref() == Some(choice))
}

/// Each player's return ([`Outcome::returns`]): the game's payoffs, or from the ranking
/// first place 1, last place 0, evenly between; all ½ in a draw.
pub fn rewards(outcome: &Outcome, players: u32) -> Vec<f64> {
    outcome.returns(players)
}

impl<G: Game> Agent<G> for MctsAgent<G> {
    fn choose(&mut self, decision: &Decision<'_, G>) -> Result<usize, AgentError> {
        if decision.options() == 1 {
            // The tree is not followed through a forced move.
            self.last = None;
            return Ok(0);
        }
        self.search(decision).map(|(index, _)| index)
    }

    fn name(&self) -> &str {
        "mcts"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A budget is written back (in a seat name, a database) with `Display`: what is
    /// written must parse to the same budget, and a budget that would be written as no
    /// time at all is refused when it is read first.
    #[test]
    fn budgets_read_back_as_written() {
        for text in ["1", "500", "2s", "0.5s", "0.3s", "1e-9s", "59.999999999s", "1.0000000001s"] {
            let budget: Budget = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            let written = budget.to_string();
            assert_eq!(written.parse::<Budget>(), Ok(budget), "`{text}` is written `{written}`");
        }
        for text in ["1e-10s", "0.0000000001s", "0s", "0", "-1s", "NaNs", "infs", "s", ""] {
            assert!(text.parse::<Budget>().is_err(), "`{text}` is refused");
        }
    }
}
