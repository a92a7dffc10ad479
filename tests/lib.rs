//! The engines of every example, generated at build time (see `build.rs`), and helpers
//! to play them in tests.

use tgdl_play::{Agent, RandomAgent};
use tgdl_runtime::{Game, GameInfo, Status};

/// One example game.
pub struct Example {
    pub name: &'static str,
    pub path: &'static str,
    pub engine: fn() -> GameInfo,
    /// Plays one seeded random game; returns how it ended.
    pub playout: fn(players: u32, seed: u64, max_decisions: u64) -> Ending,
    /// The benchmarks' fixed workload ([`benchmark_playouts`]): plays games `0..games`,
    /// returns the decisions made.
    pub benchmark: fn(games: u64) -> u64,
    pub run: fn(&Script) -> Run,
    /// Runs the game binary's command line in process: arguments (after the program
    /// name) and standard input; returns the exit code and standard output.
    pub cli: fn(&[&str], &str) -> (u8, String),
    /// Runs scenario files, given as `(path, text)`, against the game in process
    /// (`tgdl_play::scenario`).
    pub scenarios: fn(&[(String, String)]) -> tgdl_play::scenario::Report,
    /// Plays seeded random games and checks, after every decision, that no seat's
    /// observation shows what is hidden from it (see [`secrecy`]).
    pub secrecy: fn(players: u32, first_seed: u64, games: u64) -> Result<secrecy::Seen, String>,
    /// Determinizes at decision points of seeded random games (see [`secrecy`]).
    pub determinization:
        fn(players: u32, first_seed: u64, points: u64, samples: u64) -> Result<secrecy::Sampled, String>,
    /// The information-state test of search agents (see [`secrecy::information`]).
    pub information:
        fn(players: u32, first_seed: u64, points: u64, iterations: u32) -> Result<secrecy::Informed, String>,
}

pub mod secrecy;

/// The command line of a game binary, in process.
pub fn cli<G: Game>(args: &[&str], input: &str) -> (u8, String) {
    let mut out = Vec::new();
    let mut all = vec!["game"];
    all.extend_from_slice(args);
    let code = tgdl_play::cli::run_cli::<G>(all, input.as_bytes(), &mut out, std::io::sink(), false);
    (code, String::from_utf8_lossy(&out).into_owned())
}

/// A test program of `tests/programs`: the same shape as an example.
pub type Program = Example;

/// How to play a test program: player count, seed, the option indices to choose first
/// (then random choices).
#[derive(Clone, Debug, Default)]
pub struct Script {
    pub players: Option<u32>,
    pub seed: u64,
    pub choices: Vec<usize>,
    pub max_decisions: u64,
}

/// What a scripted game produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The game's log lines.
    pub log: Vec<String>,
    /// `player 0 wins`, `draw`, `ranking ...`, `error at FILE:LINE:COL: MESSAGE`,
    /// `unfinished`, or `cannot start: ...`.
    pub result: String,
    /// The labels of the decisions taken, as `player N: label`.
    pub decisions: Vec<String>,
}

/// Plays `G` by a script: its choices first, then seeded random choices.
pub fn run<G: Game>(script: &Script) -> Run {
    let players = script.players.unwrap_or_else(|| G::info().min_players);
    let mut game = match G::start(players, script.seed) {
        Ok(g) => g,
        Err(e) => {
            return Run { log: Vec::new(), result: format!("cannot start: {e}"), decisions: Vec::new() };
        }
    };
    let mut agent = RandomAgent::new(script.seed ^ 0x5eed);
    let mut choices = script.choices.iter();
    let mut decisions = Vec::new();
    let limit = if script.max_decisions == 0 { 10_000 } else { script.max_decisions };
    // Chance, when the game meets it as events of its own.
    let mut chance = tgdl_runtime::Rng::new(script.seed ^ 0xc4a2ce);
    let result = loop {
        match game.status() {
            Status::Over => break game.outcome().map(|o| o.describe()).unwrap_or_default(),
            Status::Chance => {
                if let Err(e) = game.sample_chance(&mut chance) {
                    break format!("chance failed: {e}");
                }
            }
            Status::Failed => {
                break game
                    .error()
                    .map(|e| format!("error at {}: {}", e.location, e.message))
                    .unwrap_or_default();
            }
            Status::Decide(p) => {
                if decisions.len() as u64 >= limit {
                    break "unfinished".to_string();
                }
                let index = match choices.next() {
                    Some(&i) => i,
                    None => agent.choose_in(&game).unwrap_or(0),
                };
                decisions.push(format!("player {}: {}", p.0, game.label(index)));
                if let Err(e) = game.apply(index) {
                    break format!("bad choice {index}: {e}");
                }
            }
        }
    };
    Run { log: game.log().to_vec(), result, decisions }
}

/// How a playout ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Places, as the outcome gives them.
    Over {
        places: Vec<Vec<u32>>,
        decisions: u64,
    },
    Error(String),
    Unfinished,
}

/// The benchmarks' fixed workload: games `0..games` with every seat random, as `simulate
/// --seed 0` seeds them (and, like it, restarting one game value: an engine may reuse its
/// allocations), with two players where the game allows them, else its fewest; returns the
/// total number of decisions (so the work cannot be optimised away).
pub fn benchmark_playouts<G: Game>(games: u64) -> u64 {
    let info = G::info();
    let players = 2.clamp(info.min_players, info.max_players.max(info.min_players));
    let mut agents: Vec<RandomAgent> = Vec::with_capacity(players as usize);
    let mut decisions = 0;
    let mut game = G::start(players, 0).expect("the benchmark's number of players");
    for i in 0..games {
        let seed = tgdl_runtime::Rng::derive_seed(0, i);
        agents.clear();
        agents.extend(tgdl_play::agent::seat_seeds(seed.into()).take(players as usize).map(RandomAgent::new));
        game.restart(players, seed).expect("the benchmark's number of players");
        decisions += tgdl_play::simulate::random_playout(&mut game, &mut agents, u64::MAX).0;
        std::hint::black_box(&game);
    }
    decisions
}

/// A random playout of `G`: every seat random, seeded.
pub fn playout<G: Game>(players: u32, seed: u64, max_decisions: u64) -> Ending {
    let mut game = match G::start(players, seed) {
        Ok(g) => g,
        Err(e) => return Ending::Error(e.to_string()),
    };
    let mut agent = RandomAgent::new(seed ^ 0x5eed);
    // Chance, when the game meets it as events of its own.
    let mut chance = tgdl_runtime::Rng::new(seed ^ 0xc4a2ce);
    for _ in 0..max_decisions {
        match game.status() {
            Status::Over => {
                let places = game.outcome().map(|o| o.places.clone()).unwrap_or_default();
                return Ending::Over { places, decisions: game.decisions() };
            }
            Status::Chance => {
                if let Err(e) = game.sample_chance(&mut chance) {
                    return Ending::Error(e.to_string());
                }
            }
            Status::Failed => return Ending::Error(game.error().map(|e| e.to_string()).unwrap_or_default()),
            Status::Decide(_) => {
                let choice = match agent.choose_in(&game) {
                    Ok(c) => c,
                    Err(e) => return Ending::Error(format!("{e:?}")),
                };
                if let Err(e) = game.apply(choice) {
                    return Ending::Error(e.to_string());
                }
            }
        }
    }
    Ending::Unfinished
}

include!(concat!(env!("OUT_DIR"), "/examples.rs"));

/// A result line without the file name of its location (tests compare results of
/// programs written to different paths):
/// `error at /some/path/file.tgdl:12:5: message` → `error at 12:5: message`, and
/// `error at /some/path/file.tgdl: message` → `error at file.tgdl: message`.
pub fn without_file(result: &str) -> String {
    if let Some((location, message)) = result.strip_prefix("error at ").and_then(|rest| rest.split_once(": "))
    {
        let parts: Vec<&str> = location.rsplitn(3, ':').collect();
        if parts.len() == 3 {
            return format!("error at {}:{}: {message}", parts[1], parts[0]);
        }
        // An error located at a whole file (a refused `push`): its name only.
        if let Some(name) = std::path::Path::new(location).file_name().and_then(|n| n.to_str())
            && location.ends_with(".tgdl")
        {
            return format!("error at {name}: {message}");
        }
    }
    result.to_string()
}
