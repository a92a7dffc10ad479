//! Random playouts in parallel and their statistics: wins and places per seat with 95%
//! Wilson intervals, draws, unfinished games, rule errors grouped by place and message,
//! game lengths, throughput.
//!
//! Game `i` starts with seed `Rng::derive_seed(seed, i)` and its seats choose with
//! [`seat_seed`] of that seed, exactly as `play --seed <that seed> --seats random` does,
//! so any simulated game can be replayed alone. Per-game results are folded into integer
//! tallies whose merge is commutative, so every statistic except the timing is the same
//! for any number of threads.

use crate::agent::{Agent, RandomAgent, seat_seed, seat_seeds};
use crate::driver::{DEFAULT_MAX_DECISIONS, SeatKind};
use crate::payoffs::{Mean, PayoffSums};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::{self, Write};
use std::time::Instant;
use tgdl_runtime::game::{Game, Start, StartError, Status};
use tgdl_runtime::params::Params;
use tgdl_runtime::rng::Rng;

/// The options of `simulate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimOptions {
    pub games: u64,
    pub players: u32,
    pub seed: u64,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    pub max_decisions: u64,
    /// Show a progress bar (only drawn when standard error is a terminal).
    pub progress: bool,
    /// Who plays each seat (one per player; no people); empty: every seat random, on the
    /// playout loop without agents' overhead.
    pub seats: Vec<SeatKind>,
    /// The values of the game's parameters.
    pub params: Params,
}

impl SimOptions {
    pub fn new(games: u64, players: u32) -> SimOptions {
        SimOptions {
            games,
            players,
            seed: 0,
            threads: 0,
            max_decisions: DEFAULT_MAX_DECISIONS,
            progress: false,
            seats: Vec::new(),
            params: Params::defaults(),
        }
    }
}

/// Why a simulation could not run.
#[derive(Debug)]
pub enum SimError {
    Start(StartError),
    /// The seats cannot play (a person, or a list that does not fit the players).
    Seats(String),
    Threads(String),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Start(e) => write!(f, "{e}"),
            SimError::Seats(m) => write!(f, "{m}"),
            SimError::Threads(m) => write!(f, "cannot start worker threads: {m}"),
        }
    }
}

impl std::error::Error for SimError {}

/// Games that hit the same rule error (same location and message).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorGroup {
    pub location: String,
    pub message: String,
    pub count: u64,
    /// The lowest index of a game that hit it.
    pub first_game: u64,
    /// That game's seed: `play --seed <first_seed> --seats random` replays it.
    pub first_seed: u64,
}

/// The statistics of a simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub game: &'static str,
    pub games: u64,
    pub players: u32,
    /// Who played each seat, as on the command line (`random`, `mcts:200`).
    pub seats: Vec<String>,
    /// The values of the game's parameters, by name.
    pub params: BTreeMap<String, String>,
    pub seed: u64,
    pub max_decisions: u64,
    pub threads: usize,
    /// Games each seat won alone, or with its team (`winners`).
    pub wins: Vec<u64>,
    /// `places[seat][k]`: games the seat ended in place `k` (0 = first; tied players share
    /// a place). Only games that ended count.
    pub places: Vec<Vec<u64>>,
    /// Games where every player shared first place (not a team result).
    pub draws: u64,
    /// Games that ended with a team result (`winners`), those all the players won
    /// together and those they all lost together.
    pub team_games: u64,
    pub team_wins: u64,
    pub team_losses: u64,
    /// Games that ended normally (not by error or budget).
    pub over: u64,
    pub unfinished: u64,
    /// Sorted by count (most first), then first game.
    pub errors: Vec<ErrorGroup>,
    /// `(length, games)` for games that ended normally, by length.
    pub lengths: Vec<(u64, u64)>,
    /// Games that ended with payoffs, and each seat's mean payoff over them.
    pub payoff_games: u64,
    pub payoffs: Vec<Mean>,
    pub seconds: f64,
}

/// A 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z * Z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // At the ends the bounds are exactly 0 and 1; rounding would miss them.
    let lo = if k == 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if k == n { 1.0 } else { (centre + half).min(1.0) };
    (lo, hi)
}

/// The shape of `simulate --json`.
#[derive(Serialize)]
struct ReportJson<'a> {
    game: &'a str,
    games: u64,
    players: u32,
    seats: &'a [String],
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    params: &'a BTreeMap<String, String>,
    seed: u64,
    max_decisions: u64,
    wins: &'a [u64],
    wins_ci95: Vec<(f64, f64)>,
    places: &'a [Vec<u64>],
    draws: u64,
    draws_ci95: (f64, f64),
    /// Only for a game that ended with a team result.
    #[serde(skip_serializing_if = "Option::is_none")]
    team_games: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    team_wins: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    team_wins_ci95: Option<(f64, f64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    team_losses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    team_losses_ci95: Option<(f64, f64)>,
    unfinished: u64,
    errors: &'a [ErrorGroup],
    mean_length: f64,
    min_length: u64,
    max_length: u64,
    lengths: &'a [(u64, u64)],
    /// Only for a game that ended with payoffs.
    #[serde(skip_serializing_if = "Option::is_none")]
    payoff_games: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean_payoffs: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean_payoffs_ci95: Option<Vec<(f64, f64)>>,
    seconds: f64,
    games_per_sec: f64,
}

impl Report {
    /// Mean length of the games that ended normally (0 when none did).
    pub fn mean_length(&self) -> f64 {
        if self.over == 0 {
            return 0.0;
        }
        let total: u64 = self.lengths.iter().map(|&(len, n)| len * n).sum();
        total as f64 / self.over as f64
    }

    pub fn min_length(&self) -> u64 {
        self.lengths.first().map_or(0, |&(len, _)| len)
    }

    pub fn max_length(&self) -> u64 {
        self.lengths.last().map_or(0, |&(len, _)| len)
    }

    pub fn games_per_sec(&self) -> f64 {
        if self.seconds > 0.0 { self.games as f64 / self.seconds } else { 0.0 }
    }

    /// Games that stopped on a rule error.
    pub fn error_games(&self) -> u64 {
        self.errors.iter().map(|e| e.count).sum()
    }

    /// The `--json` object. Only `seconds` and `games_per_sec` depend on the run.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self.json()).unwrap_or_default()
    }

    /// The `--json` output: one line, fields in a fixed order.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(&self.json()).unwrap_or_default()
    }

    fn json(&self) -> ReportJson<'_> {
        ReportJson {
            game: self.game,
            games: self.games,
            players: self.players,
            seats: &self.seats,
            params: &self.params,
            seed: self.seed,
            max_decisions: self.max_decisions,
            wins: &self.wins,
            wins_ci95: self.wins.iter().map(|&w| wilson(w, self.games)).collect(),
            places: &self.places,
            draws: self.draws,
            draws_ci95: wilson(self.draws, self.games),
            team_games: (self.team_games > 0).then_some(self.team_games),
            team_wins: (self.team_games > 0).then_some(self.team_wins),
            team_wins_ci95: (self.team_games > 0).then(|| wilson(self.team_wins, self.games)),
            team_losses: (self.team_games > 0).then_some(self.team_losses),
            team_losses_ci95: (self.team_games > 0).then(|| wilson(self.team_losses, self.games)),
            unfinished: self.unfinished,
            errors: &self.errors,
            mean_length: self.mean_length(),
            min_length: self.min_length(),
            max_length: self.max_length(),
            lengths: &self.lengths,
            payoff_games: (self.payoff_games > 0).then_some(self.payoff_games),
            mean_payoffs: (self.payoff_games > 0).then(|| self.payoffs.iter().map(|m| m.mean).collect()),
            mean_payoffs_ci95: (self.payoff_games > 0).then(|| self.payoffs.iter().map(|m| m.ci95).collect()),
            seconds: self.seconds,
            games_per_sec: self.games_per_sec(),
        }
    }

    /// The report for people.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        let n = self.games;
        let _ = writeln!(
            out,
            "{}: {n} games, {} players, seed {}, at most {} decisions each",
            self.game, self.players, self.seed, self.max_decisions
        );
        let _ = writeln!(out, "seats       {}", self.seats.join(", "));
        if !self.params.is_empty() {
            let params: Vec<String> = self.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let _ = writeln!(out, "params      {}", params.join(", "));
        }
        for (seat, wins) in self.wins.iter().enumerate() {
            let _ = writeln!(out, "seat {seat}");
            let _ = writeln!(out, "  {:<10}{}", "wins", rate(*wins, n));
            for (k, &count) in self.places[seat].iter().enumerate() {
                let _ = writeln!(out, "  {:<10}{}", ordinal(k + 1), rate(count, n));
            }
            if let Some(m) = self.payoffs.get(seat) {
                let _ = writeln!(out, "  {:<10}mean {}", "payoff", crate::payoffs::describe(m));
            }
        }
        if self.payoff_games > 0 && self.payoff_games < self.over {
            let _ = writeln!(
                out,
                "{:<12}over the {} games that ended with payoffs",
                "payoffs", self.payoff_games
            );
        }
        if self.team_games > 0 {
            // A co-operative game: how often the players won, and lost, together.
            let _ = writeln!(out, "{:<12}{}", "team wins", rate(self.team_wins, n));
            let _ = writeln!(out, "{:<12}{}", "team losses", rate(self.team_losses, n));
        }
        let _ = writeln!(out, "{:<12}{}", "draws", rate(self.draws, n));
        let _ = writeln!(out, "{:<12}{}", "unfinished", rate(self.unfinished, n));
        if self.errors.is_empty() {
            let _ = writeln!(out, "rule errors none");
        } else {
            let _ = writeln!(out, "{:<12}{}", "rule errors", rate(self.error_games(), n));
            for e in &self.errors {
                let _ = writeln!(
                    out,
                    "  {:>7} x {}: {} (first in game {}: play --seed {} --seats {})",
                    e.count,
                    e.location,
                    e.message,
                    e.first_game,
                    e.first_seed,
                    self.seats.join(",")
                );
            }
        }
        if self.over > 0 {
            let _ = writeln!(
                out,
                "length      mean {:.2}, min {}, max {} decisions",
                self.mean_length(),
                self.min_length(),
                self.max_length()
            );
            out.push_str(&histogram(&self.lengths, 40));
        }
        let _ = writeln!(
            out,
            "time        {:.3} s on {} threads, {:.0} games/s",
            self.seconds,
            self.threads,
            self.games_per_sec()
        );
        out
    }
}

fn ordinal(k: usize) -> String {
    let suffix = match (k % 10, k % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
}

/// `count` of `n` with its percentage and 95% Wilson interval.
fn rate(count: u64, n: u64) -> String {
    if n == 0 {
        return count.to_string();
    }
    let (lo, hi) = wilson(count, n);
    format!(
        "{count:>9}  {:>5.1}%  (95% CI {:.1}-{:.1}%)",
        100.0 * count as f64 / n as f64,
        100.0 * lo,
        100.0 * hi
    )
}

/// Game lengths as rows of `#`: one row per length, or per range of lengths when there are
/// more than 24 distinct values.
fn histogram(lengths: &[(u64, u64)], width: usize) -> String {
    let (Some(&(min, _)), Some(&(max, _))) = (lengths.first(), lengths.last()) else {
        return String::new();
    };
    let span = max - min + 1;
    let bucket = span.div_ceil(20).max(1);
    let bucket = if span <= 24 { 1 } else { bucket };
    let rows = span.div_ceil(bucket) as usize;
    let mut counts = vec![0u64; rows];
    for &(len, n) in lengths {
        counts[((len - min) / bucket) as usize] += n;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1);
    let labels: Vec<String> = (0..rows as u64)
        .map(|r| {
            let lo = min + r * bucket;
            if bucket == 1 { lo.to_string() } else { format!("{lo}-{}", lo + bucket - 1) }
        })
        .collect();
    let label_width = labels.iter().map(String::len).max().unwrap_or(1);
    let mut out = String::new();
    for (label, &count) in labels.iter().zip(&counts) {
        let bar = (count as u128 * width as u128).div_ceil(top as u128) as usize;
        let _ = writeln!(out, "  {label:>label_width$} | {:<width$} {count}", "#".repeat(bar));
    }
    out
}

/// Integer tallies of a range of games; merging is commutative and associative. Tallies
/// of ranges covering `0..n`, merged, give the statistics of `simulate` over `n` games: a
/// run split over processes or machines (the Python bindings' Ray driver) sends these.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Tally {
    wins: Vec<u64>,
    places: Vec<Vec<u64>>,
    draws: u64,
    /// Games ended by `winners`; of them, those every player won and those none did.
    #[serde(default)]
    team_games: u64,
    #[serde(default)]
    team_wins: u64,
    #[serde(default)]
    team_losses: u64,
    over: u64,
    unfinished: u64,
    /// `lengths[len]`: games that ended normally after `len` decisions.
    lengths: Vec<u64>,
    /// (location, message) → (count, first game, its seed).
    #[serde(with = "error_list")]
    errors: BTreeMap<(String, String), (u64, u64, u64)>,
    /// The games that ended with payoffs.
    #[serde(default)]
    payoffs: PayoffSums,
}

impl Tally {
    pub fn new(players: usize) -> Tally {
        Tally { wins: vec![0; players], places: vec![vec![0; players]; players], ..Tally::default() }
    }

    pub fn merge(mut self, other: Tally) -> Tally {
        add(&mut self.wins, &other.wins);
        for (a, b) in self.places.iter_mut().zip(&other.places) {
            add(a, b);
        }
        self.draws += other.draws;
        self.team_games += other.team_games;
        self.team_wins += other.team_wins;
        self.team_losses += other.team_losses;
        self.over += other.over;
        self.unfinished += other.unfinished;
        add(&mut self.lengths, &other.lengths);
        self.payoffs.merge(&other.payoffs);
        for (key, (count, first, seed)) in other.errors {
            let entry = self.errors.entry(key).or_insert((0, u64::MAX, 0));
            entry.0 += count;
            if first < entry.1 {
                entry.1 = first;
                entry.2 = seed;
            }
        }
        self
    }

    /// Records how game `index` ended.
    fn record<G: Game>(&mut self, index: u64, seed: u64, game: &G, decisions: u64, unfinished: bool) {
        if unfinished {
            self.unfinished += 1;
            return;
        }
        match (game.status(), game.outcome(), game.error()) {
            (Status::Over, Some(outcome), _) => {
                self.over += 1;
                let len = decisions as usize;
                if self.lengths.len() <= len {
                    self.lengths.resize(len + 1, 0);
                }
                self.lengths[len] += 1;
                if let Some(payoffs) = &outcome.payoffs {
                    self.payoffs.add(payoffs);
                }
                if let Some(team) = &outcome.team {
                    self.team_games += 1;
                    self.team_wins += outcome.all_won() as u64;
                    self.team_losses += outcome.all_lost() as u64;
                    for &w in team {
                        if let Some(x) = self.wins.get_mut(w as usize) {
                            *x += 1;
                        }
                    }
                } else if outcome.is_draw() {
                    self.draws += 1;
                } else if let Some(w) = outcome.sole_winner() {
                    if let Some(x) = self.wins.get_mut(w as usize) {
                        *x += 1;
                    }
                }
                for (place, group) in outcome.places.iter().enumerate() {
                    for &p in group {
                        if let Some(x) = self.places.get_mut(p as usize).and_then(|row| row.get_mut(place)) {
                            *x += 1;
                        }
                    }
                }
            }
            (_, _, Some(e)) => self.error(index, seed, e.location.clone(), e.message.clone()),
            _ => self.error(
                index,
                seed,
                G::info().source.to_string(),
                "internal error: the game stopped without an outcome or an error".to_string(),
            ),
        }
    }

    fn error(&mut self, index: u64, seed: u64, location: String, message: String) {
        let entry = self.errors.entry((location, message)).or_insert((0, index, seed));
        entry.0 += 1;
    }
}

/// The errors of a [`Tally`] as a list (JSON maps take only string keys).
mod error_list {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::BTreeMap;

    type Errors = BTreeMap<(String, String), (u64, u64, u64)>;

    pub fn serialize<S: Serializer>(errors: &Errors, s: S) -> Result<S::Ok, S::Error> {
        let list: Vec<(&str, &str, u64, u64, u64)> =
            errors.iter().map(|((l, m), &(c, f, seed))| (l.as_str(), m.as_str(), c, f, seed)).collect();
        list.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Errors, D::Error> {
        let list: Vec<(String, String, u64, u64, u64)> = Vec::deserialize(d)?;
        Ok(list.into_iter().map(|(l, m, c, f, seed)| ((l, m), (c, f, seed))).collect())
    }
}

fn add(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Plays `game` to the end with one random agent per seat (`agents[p]` chooses for player
/// `p`). Returns the number of decisions and whether the budget ran out first. Stops early,
/// still deciding, only when the engine offers no options or refuses one it offered.
pub fn random_playout<G: Game>(game: &mut G, agents: &mut [RandomAgent], max_decisions: u64) -> (u64, bool) {
    let mut decisions = 0;
    while let Status::Decide(p) = game.status() {
        if decisions >= max_decisions {
            return (decisions, true);
        }
        let n = game.options().len();
        // `agents[p]`, without a division when every seat has its agent (the usual case).
        let seat = p.0 as usize;
        let seat = if seat < agents.len() { seat } else { seat % agents.len().max(1) };
        let Some(agent) = agents.get_mut(seat) else {
            break;
        };
        let Some(index) = agent.pick(n) else {
            break;
        };
        if game.apply(index).is_err() {
            break;
        }
        decisions += 1;
    }
    (decisions, false)
}

/// Plays `game` to the end with `agents[p]` choosing for player `p`, as `play` does.
/// Returns the number of decisions, whether the budget ran out first, and why an agent
/// refused to choose, if one did.
pub fn agents_playout<G: Game>(
    game: &mut G,
    agents: &mut [Box<dyn Agent<G>>],
    max_decisions: u64,
) -> (u64, bool, Option<String>) {
    let mut decisions = 0;
    while let Status::Decide(p) = game.status() {
        if decisions >= max_decisions {
            return (decisions, true, None);
        }
        let Some(agent) = agents.get_mut(p.0 as usize) else { break };
        match agent.choose_in(game) {
            Ok(index) if game.apply(index).is_ok() => decisions += 1,
            Ok(_) => break,
            Err(e) => return (decisions, false, Some(e.to_string())),
        }
    }
    (decisions, false, None)
}

/// Games of `range` with the seats' agents (some not random).
fn run_range_with_agents<G: Game>(opts: &SimOptions, range: std::ops::Range<u64>) -> Tally {
    let mut tally = Tally::new(opts.players as usize);
    for i in range {
        let seed = Rng::derive_seed(opts.seed, i);
        let start = Start::observed::<G>(opts.players, seed.into()).with_params(opts.params.clone());
        let mut game = match G::start_with(&start) {
            Ok(game) => game,
            Err(e) => {
                tally.error(i, seed, G::info().source.to_string(), e.to_string());
                continue;
            }
        };
        let mut agents: Vec<Box<dyn Agent<G>>> = opts
            .seats
            .iter()
            .enumerate()
            .map(|(p, kind)| {
                // `simulate` refuses people before it starts.
                kind.agent::<G>(seat_seed(seed.into(), p as u32))
                    .unwrap_or_else(|| Box::new(RandomAgent::new(0)))
            })
            .collect();
        let (decisions, unfinished, refused) = agents_playout(&mut game, &mut agents, opts.max_decisions);
        if let Some(why) = refused {
            tally.error(i, seed, G::info().source.to_string(), format!("a seat's agent refused: {why}"));
        } else if !unfinished && matches!(game.status(), Status::Decide(_)) {
            let message = "internal error: the engine offered no option it would apply";
            tally.error(i, seed, G::info().source.to_string(), message.to_string());
        } else {
            tally.record(i, seed, &game, decisions, unfinished);
        }
    }
    tally
}

fn run_range<G: Game>(opts: &SimOptions, range: std::ops::Range<u64>) -> Tally {
    if opts.seats.iter().any(|s| *s != SeatKind::Random) {
        return run_range_with_agents::<G>(opts, range);
    }
    let players = opts.players as usize;
    let mut tally = Tally::new(players);
    let mut agents: Vec<RandomAgent> = Vec::with_capacity(players);
    // One game, restarted for each seed: its allocations are reused.
    let mut current: Option<G> = None;
    for i in range {
        let seed = Rng::derive_seed(opts.seed, i);
        agents.clear();
        agents.extend(seat_seeds(seed.into()).take(players).map(RandomAgent::new));
        let started = match current.as_mut() {
            Some(game) => game.restart(opts.players, seed),
            None => G::start_with(&Start::seeded(opts.players, seed.into()).with_params(opts.params.clone()))
                .map(|game| {
                    current = Some(game);
                }),
        };
        let game = match (started, current.as_mut()) {
            (Ok(()), Some(game)) => game,
            (Err(e), _) => {
                tally.error(i, seed, G::info().source.to_string(), e.to_string());
                continue;
            }
            // A game that started is in `current`.
            (Ok(()), None) => continue,
        };
        let (decisions, unfinished) = random_playout(game, &mut agents, opts.max_decisions);
        if !unfinished && matches!(game.status(), Status::Decide(_)) {
            let message = "internal error: the engine offered no option it would apply";
            tally.error(i, seed, G::info().source.to_string(), message.to_string());
        } else {
            tally.record(i, seed, game, decisions, unfinished);
        }
    }
    tally
}

/// Why `opts` cannot be simulated, if it cannot.
fn check<G: Game>(opts: &SimOptions) -> Result<(), SimError> {
    let info = G::info();
    if opts.players < info.min_players || opts.players > info.max_players {
        return Err(SimError::Start(StartError::Players {
            given: opts.players,
            min: info.min_players,
            max: info.max_players,
        }));
    }
    if opts.seats.contains(&SeatKind::Human) {
        return Err(SimError::Seats("simulate is played by agents: use random or mcts seats".into()));
    }
    if !opts.seats.is_empty() && opts.seats.len() != opts.players as usize {
        return Err(SimError::Seats(format!("{} seats for {} players", opts.seats.len(), opts.players)));
    }
    Ok(())
}

/// The tally of games `range` of `opts` (on this thread): the same games, seeds and seats
/// as [`simulate`] plays.
pub fn simulate_range<G: Game>(opts: &SimOptions, range: std::ops::Range<u64>) -> Result<Tally, SimError> {
    check::<G>(opts)?;
    Ok(run_range::<G>(opts, range))
}

/// The threads a batch of `games` games starts: `wanted` (0: one per core), but never
/// more than there are games to share out.
pub fn worker_threads(wanted: usize, games: u64) -> usize {
    let wanted =
        if wanted == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { wanted };
    wanted.min(games.max(1).try_into().unwrap_or(usize::MAX))
}

/// Plays `opts.games` random games on a pool of `opts.threads` threads.
pub fn simulate<G: Game>(opts: &SimOptions) -> Result<Report, SimError> {
    check::<G>(opts)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(worker_threads(opts.threads, opts.games))
        .stack_size(tgdl_runtime::limits::GAME_STACK_BYTES)
        .build()
        .map_err(|e| SimError::Threads(e.to_string()))?;
    let threads = pool.current_num_threads();
    let bar = progress_bar(opts.progress, opts.games);
    let started = Instant::now();
    // Chunks only balance the work; the tallies do not depend on how games are grouped.
    let chunk = (opts.games / (threads as u64 * 16)).clamp(1, 1024);
    let chunks = opts.games.div_ceil(chunk);
    let tally = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let range = c * chunk..((c + 1) * chunk).min(opts.games);
                let len = range.end - range.start;
                let t = run_range::<G>(opts, range);
                if let Some(bar) = &bar {
                    bar.inc(len);
                }
                t
            })
            .reduce(|| Tally::new(opts.players as usize), Tally::merge)
    });
    let seconds = started.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(Report::from_tally::<G>(opts, tally, threads, seconds))
}

impl Report {
    /// The report of `opts.games` games from their merged tally.
    pub fn from_tally<G: Game>(opts: &SimOptions, tally: Tally, threads: usize, seconds: f64) -> Report {
        let mut errors: Vec<ErrorGroup> = tally
            .errors
            .into_iter()
            .map(|((location, message), (count, first_game, first_seed))| ErrorGroup {
                location,
                message,
                count,
                first_game,
                first_seed,
            })
            .collect();
        errors.sort_by(|a, b| b.count.cmp(&a.count).then(a.first_game.cmp(&b.first_game)));
        let lengths =
            tally.lengths.iter().enumerate().filter(|&(_, &n)| n > 0).map(|(l, &n)| (l as u64, n)).collect();
        Report {
            game: G::info().name,
            games: opts.games,
            players: opts.players,
            seats: if opts.seats.is_empty() {
                vec![SeatKind::Random.to_string(); opts.players as usize]
            } else {
                opts.seats.iter().map(SeatKind::to_string).collect()
            },
            params: opts.params.named(G::info().params),
            seed: opts.seed,
            max_decisions: opts.max_decisions,
            threads,
            wins: tally.wins,
            places: tally.places,
            draws: tally.draws,
            team_games: tally.team_games,
            team_wins: tally.team_wins,
            team_losses: tally.team_losses,
            over: tally.over,
            unfinished: tally.unfinished,
            errors,
            lengths,
            payoff_games: tally.payoffs.games,
            payoffs: tally.payoffs.means(),
            seconds,
        }
    }
}

/// A bar counting `games` on standard error, when asked and standard error is a terminal.
pub(crate) fn progress_bar(enabled: bool, games: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !enabled || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(games);
    // Fits an 80-column terminal; the rate in whole games.
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games, {rate}, {eta} left")
    {
        let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0} games/s", state.per_sec());
        };
        bar.set_style(style.with_key("rate", rate));
    }
    Some(bar)
}
