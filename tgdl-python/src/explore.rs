//! The facts about a game's tree that OpenSpiel's `GameInfo` and `GameType` state and a
//! TGDL game does not declare: the largest menu, the most outcomes of a chance event, the
//! longest game, the range of the returns, whether chance ever decides and whether the
//! returns always sum to the same number.
//!
//! A game's returns are its payoffs when it ends with `payoffs`, unbounded numbers the
//! program computes; otherwise they come from the ranking and lie in `[0, 1]`. So whether
//! any history ended with payoffs is noted too: when the walk is incomplete, it says
//! whether `[0, 1]` can be trusted as the range of the returns.
//!
//! They are found by walking every history with explicit chance (depth first, within a
//! budget of positions). A walk that ends has seen every position, so its facts hold for
//! every game; when the tree is larger than the budget, or holds a `random()` (whose
//! outcomes cannot be listed), seeded random playouts add what they meet, and the facts
//! are only what was seen (`complete` is false).

use serde::Serialize;
use tgdl_play::driver::DEFAULT_MAX_DECISIONS;
use tgdl_runtime::{Game, Rng, Start, Status};

/// What the exploration found.
#[derive(Clone, Debug, Serialize)]
pub struct Exploration {
    /// Every history was walked: the facts below hold for every game.
    pub complete: bool,
    /// Positions the walk visited.
    pub nodes: u64,
    /// Histories that ended (over or failed), walked or played out.
    pub histories: u64,
    /// Random playouts played after the walk (none when the walk was complete).
    pub playouts: u64,
    /// The most options of a player's decision.
    pub max_actions: u64,
    /// The most outcomes of a chance event.
    pub max_chance_outcomes: u64,
    /// The most decisions, chance outcomes, and both, in one history.
    pub max_decisions: u64,
    pub max_chance_nodes: u64,
    pub max_length: u64,
    /// A chance event was met; one whose outcomes cannot be listed (`random()`) was met.
    pub chance: bool,
    pub unlisted: bool,
    /// Histories that ended in a rule error.
    pub errors: u64,
    /// A history ended with payoffs (`payoffs p;`, `winner r payoffs p;`).
    pub payoffs: bool,
    /// The lowest and highest return of any player at the end of a history.
    pub min_return: f64,
    pub max_return: f64,
    /// The lowest and highest sum of the players' returns at the end of a history.
    pub min_sum: f64,
    pub max_sum: f64,
}

/// Each player's return at the end of a game: its payoff when the game ended with
/// payoffs, else 1 for first place, 0 for last, evenly between, ½ each in a draw
/// (`tgdl_play::mcts::rewards`); zeros before the end or after a rule error.
pub fn returns_of<G: Game>(game: &G) -> Vec<f64> {
    match game.outcome() {
        Some(outcome) if game.status() == Status::Over => tgdl_play::mcts::rewards(outcome, game.players()),
        _ => vec![0.0; game.players() as usize],
    }
}

impl Exploration {
    fn new() -> Exploration {
        Exploration {
            complete: false,
            nodes: 0,
            histories: 0,
            playouts: 0,
            max_actions: 0,
            max_chance_outcomes: 0,
            max_decisions: 0,
            max_chance_nodes: 0,
            max_length: 0,
            chance: false,
            unlisted: false,
            errors: 0,
            payoffs: false,
            min_return: f64::INFINITY,
            max_return: f64::NEG_INFINITY,
            min_sum: f64::INFINITY,
            max_sum: f64::NEG_INFINITY,
        }
    }

    /// Notes a position reached after `decisions` decisions and `chances` chance outcomes.
    /// Returns whether it ended.
    fn visit<G: Game>(&mut self, game: &G, decisions: u64, chances: u64) -> bool {
        self.max_decisions = self.max_decisions.max(decisions);
        self.max_chance_nodes = self.max_chance_nodes.max(chances);
        self.max_length = self.max_length.max(decisions + chances);
        match game.status() {
            Status::Over | Status::Failed => {
                self.histories += 1;
                if game.status() == Status::Failed {
                    self.errors += 1;
                }
                self.payoffs |= game.outcome().is_some_and(|o| o.payoffs.is_some());
                let returns = returns_of(game);
                for &r in &returns {
                    self.min_return = self.min_return.min(r);
                    self.max_return = self.max_return.max(r);
                }
                let sum: f64 = returns.iter().sum();
                self.min_sum = self.min_sum.min(sum);
                self.max_sum = self.max_sum.max(sum);
                true
            }
            Status::Chance => {
                self.chance = true;
                let n = game.options().len() as u64;
                if n == 0 {
                    self.unlisted = true;
                }
                self.max_chance_outcomes = self.max_chance_outcomes.max(n);
                false
            }
            Status::Decide(_) => {
                self.max_actions = self.max_actions.max(game.options().len() as u64);
                false
            }
        }
    }
}

/// Explores the game of `players` players: every history while the walk visits at most
/// `max_nodes` positions, else also `playouts` random playouts seeded from `seed`.
pub fn explore<G: Game>(
    players: u32,
    params: &tgdl_runtime::Params,
    max_nodes: u64,
    playouts: u64,
    seed: u64,
) -> Result<Exploration, String> {
    let start =
        G::start_with(&Start::explicit(players).with_params(params.clone())).map_err(|e| e.to_string())?;
    let mut found = Exploration::new();
    // Depth first, with an explicit stack: games can be long.
    let mut stack: Vec<(G, u64, u64)> = vec![(start.clone(), 0, 0)];
    let mut walked = true;
    while let Some((game, decisions, chances)) = stack.pop() {
        if found.nodes >= max_nodes {
            walked = false;
            break;
        }
        found.nodes += 1;
        if found.visit(&game, decisions, chances) {
            continue;
        }
        let status = game.status();
        let n = game.options().len();
        if n == 0 {
            // `random()`: its outcomes cannot be listed, so the walk cannot go on from here.
            walked = false;
            continue;
        }
        let (d, c) =
            if status == Status::Chance { (decisions, chances + 1) } else { (decisions + 1, chances) };
        for i in (0..n).rev() {
            let mut next = game.clone();
            if next.apply(i).is_ok() {
                stack.push((next, d, c));
            }
        }
    }
    found.complete = walked;
    if !walked {
        let mut rng = Rng::new(seed);
        for _ in 0..playouts {
            playout(&start, &mut rng, &mut found);
            found.playouts += 1;
        }
    }
    if found.histories == 0 {
        found.min_return = 0.0;
        found.max_return = 0.0;
        found.min_sum = 0.0;
        found.max_sum = 0.0;
    }
    Ok(found)
}

/// One game from `start`, every player choosing uniformly and chance by its probabilities,
/// for at most the driver's number of decisions.
fn playout<G: Game>(start: &G, rng: &mut Rng, found: &mut Exploration) {
    let mut game = start.clone();
    let (mut decisions, mut chances) = (0, 0);
    loop {
        if found.visit(&game, decisions, chances) || decisions >= DEFAULT_MAX_DECISIONS {
            return;
        }
        let applied = match game.status() {
            Status::Chance => {
                chances += 1;
                game.sample_chance(rng)
            }
            _ => {
                decisions += 1;
                let n = game.options().len() as u64;
                game.apply(rng.below(n) as usize)
            }
        };
        if applied.is_err() {
            return;
        }
    }
}
