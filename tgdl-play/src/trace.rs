//! JSON traces of played games: everything needed to replay one (game, players, seed,
//! every decision with its label) and how it ended.
//!
//! ```json
//! {
//!   "game": "Tic-tac-toe",
//!   "source": "tic_tac_toe.tgdl",
//!   "players": 2,
//!   "seed": 42,
//!   "seats": ["human", "random"],
//!   "decisions": [{ "player": 0, "index": 4, "label": "X at (1, 1)" }],
//!   "result": { "status": "over", "places": [[0], [1]], "text": "player 0 wins" }
//! }
//! ```
//!
//! `result.status` is `over` (with `places`), `error` (with `location` and `message`),
//! `unfinished` (with `decisions`), or `abandoned` (a seat quit or failed; with `player`).
//! Every result has `text`, the text of the `result:` line.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use tgdl_runtime::error::RuleError;
use tgdl_runtime::game::{Game, GameInfo, Outcome};
use tgdl_runtime::hidden::{Observation, Viewer};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub game: String,
    pub source: String,
    pub players: u32,
    /// Up to 128 bits (a JSON number: read it as a big integer).
    pub seed: u128,
    /// The values of the game's parameters, by name (none when it declares none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, String>,
    /// The kind of agent in each seat (`human`, `random`, ...).
    pub seats: Vec<String>,
    pub decisions: Vec<TraceDecision>,
    /// What chance did, outcome by outcome, as the designer reads it (absent in a game
    /// that met no chance).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chance: Vec<TraceChance>,
    /// How the game ended; `null` in a trace of an unended game.
    #[serde(default)]
    pub result: Option<TraceResult>,
}

/// One chance outcome: how many decisions came before it (0: the setup) and its label
/// (`rolls 4`, `deals 7 of hearts`; in a seat's trace, as the seat read it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceChance {
    pub after: usize,
    pub label: String,
}

/// One decision: who chose, the index of the option (0-based) and its label, which a
/// replay checks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceDecision {
    pub player: u32,
    pub index: usize,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum TraceResult {
    /// `payoffs`: each player's payoff, when the game ended with them.
    Over {
        places: Vec<Vec<u32>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        payoffs: Option<Vec<f64>>,
        text: String,
    },
    Error {
        location: String,
        message: String,
        text: String,
    },
    Unfinished {
        decisions: u64,
        text: String,
    },
    Abandoned {
        player: u32,
        text: String,
    },
}

impl TraceResult {
    /// The text of the `result:` line.
    pub fn text(&self) -> &str {
        match self {
            TraceResult::Over { text, .. }
            | TraceResult::Error { text, .. }
            | TraceResult::Unfinished { text, .. }
            | TraceResult::Abandoned { text, .. } => text,
        }
    }

    pub fn over(outcome: &Outcome) -> TraceResult {
        TraceResult::Over {
            places: outcome.places.clone(),
            payoffs: outcome.payoffs.clone(),
            text: outcome.describe(),
        }
    }

    pub fn error(e: &RuleError) -> TraceResult {
        TraceResult::Error {
            location: e.location.clone(),
            message: e.message.clone(),
            text: format!("error at {}: {}", e.location, e.message),
        }
    }
}

impl Trace {
    /// Pretty JSON with a final newline: the bytes written to a trace file.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    pub fn from_json(text: &str) -> Result<Trace, String> {
        serde_json::from_str(text).map_err(|e| format!("not a valid trace: {e}"))
    }

    /// Reads a trace file; the error names the file.
    pub fn load(path: &Path) -> Result<Trace, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read trace {}: {e}", path.display()))?;
        Trace::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        write_trace(path, &self.to_json())
    }
}

/// What one seat saw of a game (`play --trace --trace-for P`): its observation before the
/// first decision and after every decision, and the decisions as it could read them —
/// its own with their index, the others' by label, unless the label names an object
/// hidden from it. No seed, and nothing the seat could not see: it cannot be replayed,
/// only read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatTrace {
    pub game: String,
    pub source: String,
    pub players: u32,
    pub seat: u32,
    pub decisions: Vec<SeatDecision>,
    /// `observations[0]` before the first decision, `observations[i]` after decision `i`.
    pub observations: Vec<Observation>,
    /// The chance outcomes as this seat read them: a card dealt to another hand is
    /// `deals a hidden Card`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chance: Vec<TraceChance>,
    #[serde(default)]
    pub result: Option<TraceResult>,
}

/// A decision as one seat saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatDecision {
    pub player: u32,
    /// The option chosen, for the seat's own decisions only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    pub label: String,
}

impl SeatTrace {
    pub fn new<G: Game>(info: &GameInfo, players: u32, seat: u32, game: &G) -> SeatTrace {
        SeatTrace {
            game: info.name.to_string(),
            source: info.source.to_string(),
            players,
            seat,
            decisions: Vec::new(),
            observations: vec![game.observation(Viewer::Seat(seat))],
            chance: Vec::new(),
            result: None,
        }
    }

    /// Records a decision just applied to `game`: `label` is the option as this seat read
    /// it before (`Game::labels_for`).
    pub fn record<G: Game>(&mut self, game: &G, player: u32, index: usize, label: String) {
        let own = player == self.seat;
        self.decisions.push(SeatDecision { player, index: own.then_some(index), label });
        self.observations.push(game.observation(Viewer::Seat(self.seat)));
    }

    /// Pretty JSON with a final newline, as [`Trace::to_json`].
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        write_trace(path, &self.to_json())
    }
}

/// Whether a trace can be written at `path`, checked before the game so that a typo in
/// the path is reported before anyone plays (and nothing is left behind).
pub fn check_writable(path: &Path) -> Result<(), String> {
    check_writable_as(path, "trace")
}

/// [`check_writable`] for a file of another kind (`scenario`), named so in the error.
pub fn check_writable_as(path: &Path, kind: &str) -> Result<(), String> {
    let existed = path.exists();
    match std::fs::OpenOptions::new().append(true).create(true).open(path) {
        Ok(_) => {
            if !existed {
                let _ = std::fs::remove_file(path);
            }
            Ok(())
        }
        Err(e) => Err(format!("cannot write {kind} {}: {e}", path.display())),
    }
}

/// Writes a trace file as the compiler writes its outputs: through a link, the file it
/// points at; into a temporary file beside it, renamed over it, so that a game killed
/// while its trace is written leaves the previous trace or the whole new one. The error
/// names the file.
fn write_trace(path: &Path, json: &str) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write trace {}: {e}", path.display());
    let target = match std::fs::canonicalize(path) {
        Ok(target) => target,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => path.to_path_buf(),
        Err(e) => return Err(fail(e)),
    };
    if target.exists() && !target.is_file() {
        return Err(format!("cannot write trace {}: it is not a regular file", path.display()));
    }
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = target.with_file_name(format!(".{name}.trace.{}", std::process::id()));
    let result = std::fs::write(&tmp, json).and_then(|()| std::fs::rename(&tmp, &target));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(fail)
}
