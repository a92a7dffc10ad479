//! Playing one game: seats, seed, the decision budget, replaying a trace, the event lines
//! and the final `result:` line.

use crate::agent::{
    Agent, AgentError, Console, ConsoleWriter, HumanAgent, RandomAgent, SharedConsole, seat_seed,
};
use crate::chances::{ChanceFollower, Drawn};
use crate::mcts::{Budget, MctsAgent};
use crate::render;
use crate::trace::{SeatTrace, Trace, TraceChance, TraceDecision, TraceResult};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use tgdl_runtime::error::RuleError;
use tgdl_runtime::game::{Game, Outcome, Start, StartError, Status};
use tgdl_runtime::hidden::Viewer;
use tgdl_runtime::params::Params;

/// The default decision budget: a game still running after it ends as "unfinished".
pub const DEFAULT_MAX_DECISIONS: u64 = 10_000;

/// How a played game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    Over(Outcome),
    /// A rule of the game failed.
    Error(RuleError),
    /// The decision budget ran out.
    Unfinished {
        decisions: u64,
    },
    /// A person quit.
    Quit {
        player: u32,
        decisions: u64,
    },
    /// A seat could not choose (its input ended, its script ran out, ...).
    Stopped {
        player: u32,
        decisions: u64,
        reason: String,
    },
}

impl GameResult {
    /// `player 0 wins`, `draw`, `ranking ...`, `error at FILE:LINE:COL: message`,
    /// `unfinished after N decisions`, ...
    pub fn text(&self) -> String {
        match self {
            GameResult::Over(outcome) => outcome.describe(),
            GameResult::Error(e) => format!("error at {}: {}", e.location, e.message),
            GameResult::Unfinished { decisions } => format!("unfinished after {decisions} decisions"),
            GameResult::Quit { player, decisions } => {
                format!("player {player} quit after {decisions} decisions")
            }
            GameResult::Stopped { player, decisions, reason } => {
                format!("stopped after {decisions} decisions: player {player}: {reason}")
            }
        }
    }

    /// The last line of a played game's output.
    pub fn line(&self) -> String {
        format!("result: {}", self.text())
    }

    /// Whether the game or a seat failed (exit code 1), rather than ending, running out of
    /// decisions or being quit.
    pub fn is_failure(&self) -> bool {
        matches!(self, GameResult::Error(_) | GameResult::Stopped { .. })
    }

    pub fn to_trace(&self) -> TraceResult {
        match self {
            GameResult::Over(outcome) => TraceResult::over(outcome),
            GameResult::Error(e) => TraceResult::error(e),
            GameResult::Unfinished { decisions } => {
                TraceResult::Unfinished { decisions: *decisions, text: self.text() }
            }
            GameResult::Quit { player, .. } | GameResult::Stopped { player, .. } => {
                TraceResult::Abandoned { player: *player, text: self.text() }
            }
        }
    }
}

/// Why a game could not be played at all.
#[derive(Debug)]
pub enum PlayError {
    /// The game refused to start (player count).
    Start(StartError),
    /// Bad options (seats for more players than the game has, ...): exit code 2.
    Usage(String),
    /// The trace file could not be read or written.
    Trace(String),
    /// The game does not follow the trace being replayed.
    Replay(String),
    /// Writing the output failed.
    Io(io::Error),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Start(e) => write!(f, "{e}"),
            PlayError::Usage(m) | PlayError::Trace(m) => write!(f, "{m}"),
            PlayError::Replay(m) => write!(f, "replay: {m}"),
            PlayError::Io(e) => write!(f, "output error: {e}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<io::Error> for PlayError {
    fn from(e: io::Error) -> Self {
        PlayError::Io(e)
    }
}

impl From<StartError> for PlayError {
    fn from(e: StartError) -> Self {
        PlayError::Start(e)
    }
}

/// The settings of one game (the players and seed are overridden by a replayed trace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayConfig {
    pub players: u32,
    pub seed: u128,
    pub max_decisions: u64,
    /// Print every decision as `player P: label` (always done when a person is seated).
    pub verbose: bool,
    /// Show the designer everything: every hand, secret and told line (`--reveal`).
    pub reveal: bool,
    /// Also keep what this seat saw, decision by decision (`--trace-for P`).
    pub trace_for: Option<u32>,
    /// The values of the game's parameters.
    pub params: Params,
}

/// A played game: the final state, how it ended, and its trace.
#[derive(Clone, Debug)]
pub struct Played<G> {
    pub game: G,
    pub result: GameResult,
    pub trace: Trace,
    /// What the seat of `PlayConfig::trace_for` saw.
    pub seat_trace: Option<SeatTrace>,
}

/// Who the terminal's shared lines (decisions, log, final position) are for: everyone
/// at it may read them. With one person seated, that person; with several, only what
/// is public (each sees their own hand at their turn); with nobody seated, the designer.
pub fn terminal_viewer(humans: &[u32], reveal: bool) -> Viewer {
    match humans {
        _ if reveal => Viewer::All,
        [] => Viewer::All,
        [one] => Viewer::Seat(*one),
        _ => Viewer::Public,
    }
}

/// Plays one game. `seats[p]` chooses for player `p`. With `replay`, the game starts with
/// the trace's players and seed and takes its decisions in order, checking each label;
/// when the trace ends first, the seats go on. Writes the event lines and the `result:`
/// line to `out`.
pub fn play_game<G: Game>(
    seats: &mut [Box<dyn Agent<G> + '_>],
    config: &PlayConfig,
    replay: Option<&Trace>,
    out: &mut dyn Write,
) -> Result<Played<G>, PlayError> {
    let info = G::info();
    let (players, seed) = match replay {
        Some(t) if t.game != info.name => {
            return Err(PlayError::Replay(format!("the trace is of {:?}, not {:?}", t.game, info.name)));
        }
        Some(t) => (t.players, t.seed),
        None => (config.players, config.seed),
    };
    let params = match replay {
        Some(t) => Params::from_named(info.params, &t.params.clone().into_iter().collect::<Vec<_>>())
            .map_err(|e| PlayError::Replay(format!("the trace's parameters: {e}")))?,
        None => config.params.clone(),
    };
    let start = Start::observed::<G>(players, seed).with_params(params.clone());
    let mut game = G::start_with(&start)?;
    let mut chance = ChanceLog::<G>::new(&start);
    if seats.len() < players as usize {
        return Err(PlayError::Usage(format!("{} seats for {players} players", seats.len())));
    }
    let humans: Vec<u32> = (0..players).filter(|&p| seats[p as usize].is_human()).collect();
    let human = !humans.is_empty();
    let viewer = terminal_viewer(&humans, config.reveal);
    let echo = config.verbose || human;
    if config.verbose {
        // What `setup` logged, before the first decision.
        for line in game.log_for(viewer) {
            writeln!(out, "  {line}")?;
        }
    }
    let mut seat_trace = config.trace_for.map(|seat| SeatTrace::new(&info, players, seat, &game));
    let replayed: &[TraceDecision] = replay.map_or(&[], |t| &t.decisions);
    let mut decisions: Vec<TraceDecision> = Vec::new();
    let mut seats_asked = false;

    let result = loop {
        let player = match game.status() {
            Status::Over => match game.outcome() {
                Some(o) => break GameResult::Over(o.clone()),
                None => break GameResult::Error(internal::<G>("the game is over without an outcome")),
            },
            Status::Failed => match game.error() {
                Some(e) => break GameResult::Error(e.clone()),
                None => break GameResult::Error(internal::<G>("the game failed without an error")),
            },
            Status::Decide(p) => p.0,
            // A seeded game draws its chance as it plays.
            Status::Chance => break GameResult::Error(internal::<G>("a seeded game stopped for chance")),
        };
        let made = decisions.len() as u64;
        if made >= config.max_decisions {
            break GameResult::Unfinished { decisions: made };
        }
        let index = match replayed.get(decisions.len()) {
            Some(d) => check_replayed(&game, player, d, decisions.len() + 1)?,
            None => {
                seats_asked = true;
                let Some(seat) = seats.get_mut(player as usize) else {
                    break GameResult::Error(internal::<G>(&format!("player {player} has no seat")));
                };
                match seat.choose_in(&game) {
                    Ok(i) => i,
                    // The end of a person's input (Ctrl-D) is leaving the table: quitting.
                    Err(AgentError::Quit | AgentError::EndOfInput) => {
                        break GameResult::Quit { player, decisions: made };
                    }
                    Err(e) => break GameResult::Stopped { player, decisions: made, reason: e.to_string() },
                }
            }
        };
        let label = game.label(index);
        // What the viewer and the traced seat read of the decision, as the menu stood.
        let shown = if echo { game.labels_for(viewer).swap_remove(index) } else { String::new() };
        let traced = seat_trace.as_ref().map(|t| game.labels_for(Viewer::Seat(t.seat)).swap_remove(index));
        let logged = if echo { game.log_for(viewer).len() } else { 0 };
        if let Err(e) = game.apply(index) {
            break GameResult::Stopped { player, decisions: made, reason: e.to_string() };
        }
        if echo {
            writeln!(out, "player {player}: {shown}")?;
            // What the move logged, under it. A move waiting for an input keeps its log
            // so far; when it resumes it writes those lines again first (it is re-run).
            for line in game.log_for(viewer).get(logged..).unwrap_or_default() {
                writeln!(out, "  {line}")?;
            }
        }
        if let (Some(t), Some(traced)) = (&mut seat_trace, traced) {
            t.record(&game, player, index, traced);
        }
        decisions.push(TraceDecision { player, index, label });
        chance.decided(index);
    };

    if decisions.len() < replayed.len() && matches!(result, GameResult::Over(_) | GameResult::Error(_)) {
        return Err(PlayError::Replay(format!(
            "the game ended after {} decisions, but the trace has {}",
            decisions.len(),
            replayed.len()
        )));
    }
    if human {
        // The final position, under how the game ended (no one is to play any more).
        write!(out, "\n{}", render::render_final(&game.observation(viewer), 5, &result.text()))?;
    }
    writeln!(out, "{}", result.line())?;
    out.flush()?;
    // A replay that needed no seat keeps the original seats, so that replaying a complete
    // trace reproduces it byte for byte.
    let seat_names = match replay {
        Some(t) if !seats_asked => t.seats.clone(),
        _ => seats.iter().take(players as usize).map(|s| s.name().to_string()).collect(),
    };
    let trace = Trace {
        game: info.name.to_string(),
        source: info.source.to_string(),
        players,
        seed,
        params: params.named(info.params),
        seats: seat_names,
        decisions,
        chance: chance.read(Viewer::All),
        result: Some(result.to_trace()),
    };
    if let Some(t) = &mut seat_trace {
        t.chance = chance.read(Viewer::Seat(t.seat));
        t.result = Some(result.to_trace());
    }
    Ok(Played { game, result, trace, seat_trace })
}

/// The chance outcomes of a game being played, for its traces.
struct ChanceLog<G> {
    /// `None` once following failed: the traces then say nothing more of chance rather
    /// than stop the game.
    follower: Option<ChanceFollower<G>>,
    drawn: Vec<Drawn>,
}

impl<G: Game> ChanceLog<G> {
    fn new(start: &Start) -> ChanceLog<G> {
        match ChanceFollower::new(start) {
            Ok((follower, drawn)) => ChanceLog { follower: Some(follower), drawn },
            Err(_) => ChanceLog { follower: None, drawn: Vec::new() },
        }
    }

    fn decided(&mut self, option: usize) {
        if let Some(follower) = &mut self.follower {
            match follower.decided(option) {
                Ok(drawn) => self.drawn.extend(drawn),
                Err(_) => self.follower = None,
            }
        }
    }

    fn read(&self, viewer: Viewer) -> Vec<TraceChance> {
        self.drawn
            .iter()
            .map(|d| TraceChance { after: d.after, label: d.label_for(viewer).to_string() })
            .collect()
    }
}

/// The option a replayed decision chooses, after checking it is still the same decision.
fn check_replayed<G: Game>(
    game: &G,
    player: u32,
    d: &TraceDecision,
    number: usize,
) -> Result<usize, PlayError> {
    if d.player != player {
        return Err(PlayError::Replay(format!(
            "decision {number} is player {}'s in the trace, but player {player} decides now",
            d.player
        )));
    }
    let options = game.options().len();
    if d.index >= options {
        return Err(PlayError::Replay(format!(
            "decision {number} is option {} ({:?}) in the trace, but there are only {options} options",
            d.index, d.label
        )));
    }
    let label = game.label(d.index);
    if label != d.label {
        return Err(PlayError::Replay(format!(
            "decision {number} is {:?} in the trace, but option {} is now {label:?}",
            d.label, d.index
        )));
    }
    Ok(d.index)
}

fn internal<G: Game>(message: &str) -> RuleError {
    RuleError { message: format!("internal error: {message}"), location: G::info().source.to_string() }
}

/// Who sits in a seat, from the command line: `human`, `random`, `mcts`, `mcts:500`
/// (iterations per decision) or `mcts:2s` (seconds per decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person at the terminal.
    Human,
    /// Uniformly random choices, seeded from the game's seed.
    Random,
    /// Monte Carlo tree search, seeded from the game's seed.
    Mcts(Budget),
}

impl std::str::FromStr for SeatKind {
    type Err = String;

    fn from_str(s: &str) -> Result<SeatKind, String> {
        match s.split_once(':') {
            None if s == "human" => Ok(SeatKind::Human),
            None if s == "random" => Ok(SeatKind::Random),
            None if s == "mcts" => Ok(SeatKind::Mcts(Budget::default())),
            Some(("mcts", budget)) => budget.parse().map(SeatKind::Mcts),
            _ => {
                Err(format!("`{s}` is not a seat: use human, random, mcts, mcts:ITERATIONS or mcts:SECONDSs"))
            }
        }
    }
}

impl SeatKind {
    /// The agent of a seat that is not a person, drawing from `seed`; `None` for
    /// [`SeatKind::Human`], whose agent needs a console.
    pub fn agent<G: Game>(self, seed: u64) -> Option<Box<dyn Agent<G>>> {
        match self {
            SeatKind::Human => None,
            SeatKind::Random => Some(Box::new(RandomAgent::new(seed))),
            SeatKind::Mcts(budget) => Some(Box::new(MctsAgent::<G>::new(budget, seed))),
        }
    }
}

impl std::fmt::Display for SeatKind {
    /// As written on the command line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeatKind::Human => f.write_str("human"),
            SeatKind::Random => f.write_str("random"),
            SeatKind::Mcts(budget) => write!(f, "mcts:{budget}"),
        }
    }
}

/// The options of `play`, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayOptions {
    /// Default: the game's minimum.
    pub players: Option<u32>,
    /// One per player; a shorter list repeats its last entry; empty means all random.
    pub seats: Vec<SeatKind>,
    /// Default: 128 bits fresh from the operating system, printed as `seed: S` when no
    /// person is seated (or with `reveal`).
    pub seed: Option<u128>,
    pub trace: Option<PathBuf>,
    pub replay: Option<PathBuf>,
    pub max_decisions: u64,
    pub verbose: bool,
    /// Human seats write each answer they read after the prompt (for input that is not a
    /// terminal, which does not show what was typed).
    pub echo_input: bool,
    /// Show everything to the people seated (for the designer).
    pub reveal: bool,
    /// Write, with `trace`, only what this seat saw.
    pub trace_for: Option<u32>,
    /// The values of the game's parameters (`--param NAME=VALUE`).
    pub params: Params,
    /// Write the played game as a scenario to this file (`--record`).
    pub record: Option<PathBuf>,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            players: None,
            seats: Vec::new(),
            seed: None,
            trace: None,
            replay: None,
            max_decisions: DEFAULT_MAX_DECISIONS,
            verbose: false,
            echo_input: false,
            reveal: false,
            trace_for: None,
            params: Params::defaults(),
            record: None,
        }
    }
}

/// A seed of 128 bits from the operating system's generator: a game played for real
/// cannot be guessed from its seed's size, nor its seed from the game (see
/// [`tgdl_runtime::GameRng`]).
pub fn fresh_seed() -> u128 {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No generator to read: the standard library's hash keys (drawn from the system
        // when it can) and the clock, hashed twice.
        use std::hash::{BuildHasher, Hasher};
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        for half in bytes.chunks_mut(8) {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(nanos);
            h.write_u32(std::process::id());
            half.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    u128::from_le_bytes(bytes)
}

/// The seat list for `players` players: a shorter list repeats its last entry.
pub fn expand_seats(seats: &[SeatKind], players: u32) -> Result<Vec<SeatKind>, PlayError> {
    if seats.len() > players as usize {
        return Err(PlayError::Usage(format!("{} seats given for {players} players", seats.len())));
    }
    let last = seats.last().copied().unwrap_or(SeatKind::Random);
    Ok((0..players as usize).map(|i| seats.get(i).copied().unwrap_or(last)).collect())
}

/// The agents of seats `kinds` (one per player) in a game started with `seed`: people at
/// `console`, agents seeded from the game's seed as in every front end.
pub(crate) fn seat_agents<'c, G: Game, R: BufRead + 'c, W: Write + 'c>(
    kinds: &[SeatKind],
    seed: u128,
    console: &SharedConsole<R, W>,
    opts: &PlayOptions,
) -> Vec<Box<dyn Agent<G> + 'c>> {
    kinds
        .iter()
        .enumerate()
        .map(|(i, kind)| -> Box<dyn Agent<G> + 'c> {
            match *kind {
                SeatKind::Human => {
                    let mut agent = HumanAgent::on(console.clone());
                    agent.echo_input = opts.echo_input;
                    agent.reveal = opts.reveal;
                    Box::new(agent)
                }
                SeatKind::Random => Box::new(RandomAgent::new(seat_seed(seed, i as u32))),
                SeatKind::Mcts(budget) => Box::new(MctsAgent::new(budget, seat_seed(seed, i as u32))),
            }
        })
        .collect()
}

/// `play`: plays one game with human seats reading `input`; everything (views, prompts,
/// events, the `result:` line) goes to `output`. Writes the trace file if asked.
pub fn run_play<G: Game, R: BufRead, W: Write>(
    opts: &PlayOptions,
    input: R,
    output: W,
) -> Result<GameResult, PlayError> {
    let replay = match &opts.replay {
        Some(path) => Some(Trace::load(path).map_err(PlayError::Trace)?),
        None => None,
    };
    if let Some(path) = &opts.trace {
        crate::trace::check_writable(path).map_err(PlayError::Trace)?;
    }
    if let Some(path) = &opts.record {
        crate::trace::check_writable_as(path, "scenario").map_err(PlayError::Trace)?;
    }
    let console = Console::shared(input, output);
    let mut out = ConsoleWriter(console.clone());
    let (players, seed) = match &replay {
        Some(t) => {
            if let Some(p) = opts.players.filter(|&p| p != t.players) {
                return Err(PlayError::Usage(format!(
                    "--players {p} does not match the trace ({})",
                    t.players
                )));
            }
            if let Some(s) = opts.seed.filter(|&s| s != t.seed) {
                return Err(PlayError::Usage(format!("--seed {s} does not match the trace ({})", t.seed)));
            }
            (t.players, t.seed)
        }
        None => {
            let players = opts.players.unwrap_or(G::info().min_players);
            let seed = match opts.seed {
                Some(s) => s,
                None => {
                    let s = fresh_seed();
                    // Shown to the designer, never to a person at the table: it would
                    // give away every hidden card and future roll. A full trace keeps it.
                    if opts.reveal || !opts.seats.contains(&SeatKind::Human) {
                        writeln!(out, "seed: {s}")?;
                    }
                    s
                }
            };
            (players, seed)
        }
    };
    // Check the player count before laying out seats, so a bad count reports the game's
    // bounds rather than the seat list.
    let info = G::info();
    if players < info.min_players || players > info.max_players {
        return Err(PlayError::Start(StartError::Players {
            given: players,
            min: info.min_players,
            max: info.max_players,
        }));
    }
    let mut seats = seat_agents::<G, _, _>(&expand_seats(&opts.seats, players)?, seed, &console, opts);
    if let Some(p) = opts.trace_for.filter(|&p| p >= players) {
        return Err(PlayError::Usage(format!("--trace-for {p}: there are only {players} players")));
    }
    // Several people at one terminal take turns at a cleared screen.
    let humans = seats.iter().take(players as usize).filter(|s| s.is_human()).count();
    console.borrow_mut().hot_seat = humans >= 2 && !opts.reveal && G::has_hidden_information();
    let config = PlayConfig {
        players,
        seed,
        max_decisions: opts.max_decisions,
        verbose: opts.verbose,
        reveal: opts.reveal,
        trace_for: opts.trace_for,
        params: opts.params.clone(),
    };
    let played = play_game(&mut seats, &config, replay.as_ref(), &mut out)?;
    match (&opts.trace, &played.seat_trace) {
        (Some(path), Some(seat_trace)) => seat_trace.save(path).map_err(PlayError::Trace)?,
        (Some(path), None) => played.trace.save(path).map_err(PlayError::Trace)?,
        (None, _) => {}
    }
    if let Some(path) = &opts.record {
        crate::scenario::record::save(&played.trace, path).map_err(PlayError::Trace)?;
    }
    Ok(played.result)
}
