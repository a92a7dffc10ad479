//! The command line of a game binary built by `tgdlc build` (docs/cli.md): `play` (the
//! default), `simulate`, `perft`, `tournament` and `test`, with their flags, outputs and
//! exit codes.
//!
//! Exit codes: 0 success (a game over, unfinished or quit; every scenario passed), 1 a rule
//! error, a game that cannot start, a failed file or scenario, 2 a usage error.

use crate::agent::StdinLines;
use crate::driver::{DEFAULT_MAX_DECISIONS, PlayError, PlayOptions, SeatKind, run_play};
use crate::perft::perft_full;
use crate::simulate::{SimOptions, simulate};
use crate::watch::Event;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::Receiver;
use tgdl_runtime::game::{ChanceMode, Game, Start};
use tgdl_runtime::limits::Limits;
use tgdl_runtime::params::Params;

#[derive(Parser, Debug)]
#[command(args_conflicts_with_subcommands = true, disable_help_subcommand = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand, the options of `play`.
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play one game at the terminal (the default).
    Play(PlayArgs),
    /// Play many random games in parallel and report statistics.
    Simulate(SimulateArgs),
    /// Count the decision sequences of each length from the start.
    Perft(PerftArgs),
    /// Agents play every seating rotation: wins per agent and per seat
    Tournament(TournamentArgs),
    /// Run the scenarios of .scenarios files (docs/testing.md): exit 1 when one fails
    Test(TestArgs),
}

#[derive(Args, Debug)]
struct TestArgs {
    /// The scenario files
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Print one JSON object instead of the report
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Args, Debug)]
struct TournamentArgs {
    /// One agent per player (`random`, `mcts`, `mcts:ITERATIONS`, `mcts:SECONDSs`)
    #[arg(long, value_delimiter = ',', required = true)]
    seats: Vec<SeatKind>,
    #[command(flatten)]
    batch: Batch,
}

/// The options of a batch of games (`simulate`, `tournament`).
#[derive(Args, Debug)]
struct Batch {
    /// Number of games
    #[arg(short = 'n', long = "games", value_name = "GAMES")]
    games: u64,
    /// Seed of the batch; game i uses a seed derived from it and i
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = seed)]
    seed: u64,
    /// Worker threads, at most one per game [default: one per core]
    #[arg(long, value_name = "T", value_parser = thread_count)]
    threads: Option<usize>,
    /// Print one JSON object instead of the report
    #[arg(long)]
    json: bool,
    /// Decisions after which a game ends as unfinished
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DECISIONS)]
    max_decisions: u64,
    #[command(flatten)]
    params: ParamArgs,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The values of the game's parameters.
#[derive(Args, Debug, Default)]
struct ParamArgs {
    /// A parameter of the game (`param ...;`), as NAME=VALUE; repeatable
    #[arg(long = "param", value_name = "NAME=VALUE")]
    param: Vec<String>,
}

impl ParamArgs {
    fn params<G: Game>(&self) -> Result<Params, (u8, String)> {
        Params::parse(G::info().params, &self.param).map_err(|e| (2, e.to_string()))
    }
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// Number of players [default: the game's minimum]
    #[arg(long)]
    players: Option<u32>,
    /// Who plays each seat; a shorter list repeats its last entry
    /// (`human`, `random`, `mcts`, `mcts:ITERATIONS`, `mcts:SECONDSs`)
    /// [default: human,mcts when standard input is a terminal, else random]
    #[arg(long, value_delimiter = ',')]
    seats: Vec<SeatKind>,
    /// Seed of the game's generator, up to 128 bits [default: 128 bits from the operating
    /// system, printed as `seed: S` when no person is seated]
    #[arg(long, allow_hyphen_values = true, value_parser = game_seed)]
    seed: Option<u128>,
    /// Write the game's trace (JSON) to this file
    #[arg(long, value_name = "T.json")]
    trace: Option<PathBuf>,
    /// Replay the decisions of this trace, then go on with the seats
    #[arg(long, value_name = "T.json")]
    replay: Option<PathBuf>,
    /// Decisions after which the game ends as unfinished
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DECISIONS)]
    max_decisions: u64,
    /// Print every decision as `player P: label`
    #[arg(long, short)]
    verbose: bool,
    /// Show the people seated everything: every hand, secret and private line (for the
    /// designer)
    #[arg(long)]
    reveal: bool,
    /// Write to the trace only what player P saw (their observations, the decisions they
    /// could read)
    #[arg(long, value_name = "P", requires = "trace")]
    trace_for: Option<u32>,
    /// Write the played game as a scenario (docs/testing.md) to this file: players, seed,
    /// parameters, one `play` line per decision and the result
    #[arg(long, value_name = "OUT.scenarios")]
    record: Option<PathBuf>,
    #[command(flatten)]
    params: ParamArgs,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Args, Debug)]
struct SimulateArgs {
    #[command(flatten)]
    batch: Batch,
    /// Number of players [default: the game's minimum, or one per seat]
    #[arg(long)]
    players: Option<u32>,
    /// Who plays each seat; a shorter list repeats its last entry (`random`, `mcts`,
    /// `mcts:ITERATIONS`, `mcts:SECONDSs`) [default: random]. With search agents the
    /// report is the first-player edge under competent play
    #[arg(long, value_delimiter = ',')]
    seats: Vec<SeatKind>,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// Longest sequence length
    #[arg(long, value_name = "D", required_unless_present = "exact")]
    depth: Option<u32>,
    /// Chance events are steps of their own: each roll, each card off a shuffled deck, each
    /// step of a shuffle is counted with all its outcomes (as OpenSpiel counts histories)
    #[arg(long)]
    chance: bool,
    /// Walk every history to the end instead: the number of terminal histories, and with
    /// players choosing uniformly at random (and chance by its probabilities), the
    /// probability of each result and each player's expected payoff (or reward from the ranking)
    #[arg(long)]
    exact: bool,
    /// The most positions `--exact` visits before giving up
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    max_nodes: u64,
    /// Number of players [default: the game's minimum]
    #[arg(long)]
    players: Option<u32>,
    /// Seed of the game's generator, up to 128 bits
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = game_seed)]
    seed: u128,
    /// Print `{"perft": [n1, n2, ...]}`
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    params: ParamArgs,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The flags that raise (or lower) the engines' budgets ([`tgdl_runtime::limits`]), shared by
/// `play`, `simulate`, `perft`, `tournament` and `serve`. A flag left out keeps the
/// budget in force (the default, unless an embedder set it).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Budgets of one decision")]
pub struct LimitArgs {
    /// Loop iterations one decision may run [default: 10000000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_loop_steps: Option<u64>,
    /// Depth of nested calls, 3000 at most [default: 1000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(tgdl_runtime::limits::MAX_CALL_DEPTH)))]
    pub max_call_depth: Option<u32>,
    /// Actions events may run in one decision [default: 1000000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_event_runs: Option<u64>,
    /// Bytes of the longest string a game may build [default: 16777216]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_string_bytes: Option<u64>,
    /// Items of the longest list or stack, entries of the largest table, a game may build [default: 16777216]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_list_items: Option<u64>,
}

impl LimitArgs {
    /// The budgets in force, with the flags given.
    pub fn limits(&self) -> Limits {
        tgdl_runtime::limits::Changes {
            loop_steps: self.max_loop_steps,
            call_depth: self.max_call_depth,
            event_runs: self.max_event_runs,
            string_bytes: self.max_string_bytes,
            list_items: self.max_list_items,
        }
        .applied_to_current()
    }

    /// Sets the process's budgets from the flags (clap has checked their ranges).
    pub fn apply(&self) -> Result<(), String> {
        tgdl_runtime::limits::set(self.limits())
    }
}

/// A seed: a whole number from 0 to 2^64 - 1 (clap's own message for `-1` would call it
/// an unknown option).
fn seed(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| format!("a seed is a whole number from 0 to {}, not `{text}`", u64::MAX))
}

/// The seed of one game: a whole number from 0 to 2^128 - 1.
fn game_seed(text: &str) -> Result<u128, String> {
    text.parse().map_err(|_| format!("a seed is a whole number from 0 to {}, not `{text}`", u128::MAX))
}

/// A thread count: 1 or more (0 used to mean the default, silently).
fn thread_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("give at least 1 thread, or leave --threads out for one per core".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("a thread count is a whole number of 1 or more, not `{text}`")),
    }
}

/// The whole program of a game binary: parses the process's arguments and runs.
pub fn main<G: Game>() -> ExitCode {
    ExitCode::from(run_main::<G>(std::env::args_os().collect()))
}

/// What [`main`] does with a command line (program name first), on the process's
/// standard streams: for a front end that runs a game in process (`tgdlc play
/// --engine interpreted`). The exit code.
pub fn run_main<G: Game>(args: Vec<OsString>) -> u8 {
    let stdin_is_terminal = std::io::stdin().is_terminal();
    match parse::<G>(args) {
        Ok(cli) => execute::<G, _, _, _>(
            cli,
            StdinLines::default(),
            std::io::stdout(),
            std::io::stderr(),
            stdin_is_terminal,
        ),
        Err(e) => print_usage_error(&e),
    }
}

/// The game file usage lines name when no `TGDL_GAME_FILE` is set: set by a front end
/// that runs the game in process ([`set_game_file`]).
static GAME_FILE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Names the game's file in usage and help text, as `TGDL_GAME_FILE` does for a game
/// binary run by `tgdlc` (see [`as_typed`]). The first call wins.
pub fn set_game_file(file: &std::path::Path) {
    let _ = GAME_FILE.set(file.display().to_string());
}

/// Prints a clap error or help text where clap would (help on standard output), as the
/// person typed the command ([`as_typed`]); the exit code.
pub fn print_usage_error(e: &clap::Error) -> u8 {
    let text = as_typed(e.render().to_string());
    if e.use_stderr() {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    e.exit_code().clamp(0, 255) as u8
}

/// Usage and help text as the person typed the command: run by `tgdlc perft FILE ...`
/// (which names the binary `tgdlc` and passes FILE in `TGDL_GAME_FILE`), `tgdlc perft`
/// becomes `tgdlc perft FILE`.
pub fn as_typed(text: String) -> String {
    let Some(file) = std::env::var("TGDL_GAME_FILE").ok().or_else(|| GAME_FILE.get().cloned()) else {
        return text;
    };
    ["play", "simulate", "perft", "tournament", "serve", "test"]
        .iter()
        .fold(text, |text, sub| text.replace(&format!("tgdlc {sub} "), &format!("tgdlc {sub} {file} ")))
}

/// Runs a command line with the given streams, as `main` would: for tests and for
/// `tgdlc play`. `stdin_is_terminal` picks the default seats. Returns the exit code.
pub fn run_cli<G: Game>(
    args: impl IntoIterator<Item = impl Into<OsString>>,
    input: impl BufRead,
    output: impl Write,
    mut errors: impl Write,
    stdin_is_terminal: bool,
) -> u8 {
    match parse::<G>(args.into_iter().map(Into::into).collect()) {
        Ok(cli) => execute::<G, _, _, _>(cli, input, output, errors, stdin_is_terminal),
        Err(e) => {
            let text = e.render().to_string();
            let mut output = output;
            let _ = if e.use_stderr() {
                errors.write_all(text.as_bytes())
            } else {
                output.write_all(text.as_bytes())
            };
            e.exit_code().clamp(0, 255) as u8
        }
    }
}

fn command<G: Game>() -> clap::Command {
    let info = G::info();
    Cli::command().name(info.name).about(format!(
        "{}: play it, simulate random games, count decision sequences, test scenarios",
        info.name
    ))
}

fn parse<G: Game>(mut args: Vec<OsString>) -> Result<Cli, clap::Error> {
    let mut cmd = command::<G>();
    if let Some(bin) = args.first().and_then(|a| std::path::Path::new(a).file_stem()) {
        cmd = cmd.bin_name(bin.to_string_lossy().into_owned());
    }
    if args.is_empty() {
        args.push(G::info().name.into());
    }
    let matches = cmd.try_get_matches_from_mut(args)?;
    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
}

fn execute<G: Game, R: BufRead, W: Write, E: Write>(
    cli: Cli,
    input: R,
    mut output: W,
    mut errors: E,
    stdin_is_terminal: bool,
) -> u8 {
    let command = cli.command.unwrap_or(Command::Play(cli.play));
    let limits = match &command {
        Command::Play(args) => &args.limits,
        Command::Simulate(args) => &args.batch.limits,
        Command::Perft(args) => &args.limits,
        Command::Tournament(args) => &args.batch.limits,
        Command::Test(args) => &args.limits,
    };
    if let Err(message) = limits.apply() {
        let _ = writeln!(errors, "error: {message}");
        return 2;
    }
    let result = match command {
        Command::Play(args) => play::<G, _, _>(args, input, &mut output, stdin_is_terminal),
        Command::Simulate(args) => run_simulate::<G>(args, &mut output),
        Command::Perft(args) => run_perft::<G>(args, &mut output, &mut errors),
        Command::Tournament(args) => run_tournament::<G>(args, &mut output),
        Command::Test(args) => run_test::<G>(args, &mut output),
    };
    let _ = output.flush();
    match result {
        Ok(code) => code,
        Err((code, message)) => {
            let _ = writeln!(errors, "error: {message}");
            code
        }
    }
}

/// An exit code, or an exit code and the message for standard error.
type Exit = Result<u8, (u8, String)>;

fn play<G: Game, R: BufRead, W: Write>(args: PlayArgs, input: R, output: W, stdin_is_terminal: bool) -> Exit {
    let opts = play_options::<G>(args, stdin_is_terminal)?;
    match run_play::<G, _, _>(&opts, input, output) {
        Ok(result) => Ok(if result.is_failure() { 1 } else { 0 }),
        Err(e @ PlayError::Usage(_)) => Err((2, e.to_string())),
        Err(e) => Err((1, e.to_string())),
    }
}

/// The options of `play` from its flags (the default seats depend on whether a person
/// is at a terminal).
fn play_options<G: Game>(args: PlayArgs, stdin_is_terminal: bool) -> Result<PlayOptions, (u8, String)> {
    let seats = match (args.seats.is_empty(), stdin_is_terminal) {
        (false, _) => args.seats,
        (true, false) => vec![SeatKind::Random],
        // The default seats fit any player count, one-player games included.
        (true, true) => {
            let players = args.players.unwrap_or(G::info().min_players);
            // A person meets a real opponent: the search agent.
            if players <= 1 {
                vec![SeatKind::Human]
            } else {
                vec![SeatKind::Human, SeatKind::Mcts(Default::default())]
            }
        }
    };
    let opts = PlayOptions {
        players: args.players,
        seats,
        seed: args.seed,
        trace: args.trace,
        replay: args.replay,
        max_decisions: args.max_decisions,
        verbose: args.verbose,
        echo_input: !stdin_is_terminal,
        reveal: args.reveal,
        trace_for: args.trace_for,
        params: args.params.params::<G>()?,
        record: args.record,
    };
    Ok(opts)
}

/// `play` with its arguments (program name first) for a game whose rules are being
/// edited (`tgdlc play --watch`): human seats read the lines of `events`, and each
/// reload in it starts the game again under the new rules ([`crate::watch`]). Standard
/// output and error as `main`'s; the exit code.
pub fn watch<G: Game>(args: Vec<OsString>, events: Receiver<Event<G>>, stdin_is_terminal: bool) -> u8 {
    let cli = match parse::<G>(args) {
        Ok(cli) => cli,
        Err(e) => return print_usage_error(&e),
    };
    let args = match cli.command {
        None => cli.play,
        Some(Command::Play(args)) => args,
        Some(_) => {
            eprintln!("error: only `play` watches the game's files");
            return 2;
        }
    };
    let saved = [
        ("--trace", args.trace.is_some()),
        ("--replay", args.replay.is_some()),
        ("--record", args.record.is_some()),
        ("--trace-for", args.trace_for.is_some()),
    ];
    if let Some((flag, _)) = saved.iter().find(|(_, given)| *given) {
        eprintln!("error: a watched game is a draft whose rules change: {flag} is not taken with --watch");
        return 2;
    }
    if let Err(message) = args.limits.apply() {
        eprintln!("error: {message}");
        return 2;
    }
    let result =
        play_options::<G>(args, stdin_is_terminal).and_then(|opts| {
            match crate::watch::play_watched::<G, _>(&opts, events, std::io::stdout()) {
                Ok(result) => Ok(if result.is_failure() { 1 } else { 0 }),
                Err(e @ PlayError::Usage(_)) => Err((2, e.to_string())),
                Err(e) => Err((1, e.to_string())),
            }
        });
    match result {
        Ok(code) => code,
        Err((code, message)) => {
            eprintln!("error: {message}");
            code
        }
    }
}

fn run_simulate<G: Game>(args: SimulateArgs, output: &mut dyn Write) -> Exit {
    let info = G::info();
    // Two seats name two players, unless the count is given.
    let players = args.players.unwrap_or((args.seats.len() as u32).clamp(info.min_players, info.max_players));
    let seats = if args.seats.is_empty() {
        Vec::new()
    } else {
        if args.seats.contains(&SeatKind::Human) {
            return Err((2, "simulate is played by agents: use random or mcts seats".into()));
        }
        crate::driver::expand_seats(&args.seats, players).map_err(|e| (2, e.to_string()))?
    };
    let opts = SimOptions {
        games: args.batch.games,
        players,
        seed: args.batch.seed,
        threads: args.batch.threads.unwrap_or(0),
        max_decisions: args.batch.max_decisions,
        progress: true,
        seats,
        params: args.batch.params.params::<G>()?,
    };
    let report = simulate::<G>(&opts).map_err(|e| (1, e.to_string()))?;
    let text = if args.batch.json { format!("{}\n", report.to_json_string()) } else { report.render_text() };
    output.write_all(text.as_bytes()).map_err(|e| (1, format!("output error: {e}")))?;
    Ok(if report.errors.is_empty() { 0 } else { 1 })
}

/// `test FILES... [--json]`: every scenario of the files, in parallel; exit 1 when one
/// fails or a file cannot be read.
fn run_test<G: Game>(args: TestArgs, output: &mut dyn Write) -> Exit {
    let mut files = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| (1, format!("cannot read `{}`: {e}", path.display())))?;
        files.push((path.display().to_string(), text));
    }
    let report = crate::scenario::run_texts::<G>(&files);
    let text = if args.json { format!("{}\n", report.to_json()) } else { report.render_text() };
    output.write_all(text.as_bytes()).map_err(|e| (1, format!("output error: {e}")))?;
    Ok(if report.ok() { 0 } else { 1 })
}

fn run_tournament<G: Game>(args: TournamentArgs, output: &mut dyn Write) -> Exit {
    let opts = crate::tournament::TournamentOptions {
        agents: args.seats,
        games: args.batch.games,
        seed: args.batch.seed,
        threads: args.batch.threads.unwrap_or(0),
        max_decisions: args.batch.max_decisions,
        progress: true,
        params: args.batch.params.params::<G>()?,
    };
    let info = G::info();
    crate::tournament::check_options(&opts, info.min_players, info.max_players).map_err(|e| (2, e))?;
    let report = crate::tournament::tournament::<G>(&opts).map_err(|e| (1, e))?;
    let text = if args.batch.json { format!("{}\n", report.to_json_string()) } else { report.render_text() };
    output.write_all(text.as_bytes()).map_err(|e| (1, format!("output error: {e}")))?;
    Ok(if report.errors == 0 && report.refused.is_none() { 0 } else { 1 })
}

fn run_perft<G: Game>(args: PerftArgs, output: &mut dyn Write, errors: &mut dyn Write) -> Exit {
    let players = args.players.unwrap_or(G::info().min_players);
    let chance = if args.chance { ChanceMode::Explicit } else { ChanceMode::Seeded };
    let params = args.params.params::<G>()?;
    // A count is recorded with the values it was made with.
    let named = params.named(G::info().params);
    let start = Start { players, seed: args.seed, chance, record: false, params };
    let game = G::start_with(&start).map_err(|e| (1, e.to_string()))?;
    let write_error = |e: std::io::Error| (1, format!("output error: {e}"));
    if args.exact {
        return run_exact(&game, &args, &named, output);
    }
    let depth = args.depth.unwrap_or(0);
    let result = if args.json {
        let result = perft_full(&game, depth);
        let json = if named.is_empty() {
            serde_json::json!({ "perft": result.counts })
        } else {
            serde_json::json!({ "perft": result.counts, "params": named })
        };
        writeln!(output, "{json}").map_err(write_error)?;
        result
    } else {
        // Depth by depth, each line as soon as it is known: a deep count on a long game
        // shows its progress instead of running silently. Deepening repeats the shallower
        // levels, a small fraction of the deepest one's work.
        let mut result = crate::perft::Perft::default();
        for depth in 1..=depth {
            let exhausted = result.counts.last() == Some(&0);
            if !exhausted {
                result = perft_full(&game, depth);
            } else {
                result.counts.push(0);
            }
            writeln!(output, "depth {depth}: {}", result.counts[depth as usize - 1]).map_err(write_error)?;
            output.flush().map_err(write_error)?;
        }
        result
    };
    if result.unlisted > 0 {
        let _ = writeln!(
            errors,
            "warning: {} sequences stopped at a `random()`, whose outcomes cannot be listed",
            result.unlisted
        );
    }
    match &result.first_error {
        Some(e) => {
            let _ = writeln!(
                errors,
                "warning: {} sequences ended in a rule error; the first: {e}",
                result.errors
            );
            Ok(1)
        }
        None => Ok(0),
    }
}

/// `perft --exact`: every history to its end.
fn run_exact<G: Game>(
    game: &G,
    args: &PerftArgs,
    named: &std::collections::BTreeMap<String, String>,
    output: &mut dyn Write,
) -> Exit {
    let exact = crate::exact::exact(game, args.max_nodes).map_err(|e| (1, e.to_string()))?;
    let text = if args.json {
        let results: serde_json::Map<String, serde_json::Value> =
            exact.results.iter().map(|(r, p)| (r.clone(), serde_json::json!(p))).collect();
        format!(
            "{}\n",
            serde_json::json!({
                "histories": exact.histories,
                "results": results,
                "returns": exact.returns,
                "errors": exact.errors,
                "unlisted": exact.unlisted,
                "params": named,
            })
        )
    } else {
        let mut text = String::new();
        if !named.is_empty() {
            let params: Vec<String> = named.iter().map(|(k, v)| format!("{k}={v}")).collect();
            text.push_str(&format!("params: {}\n", params.join(", ")));
        }
        text.push_str(&format!("terminal histories: {}\n", exact.histories));
        for (result, p) in &exact.results {
            text.push_str(&format!("{result}: {p:.6}\n"));
        }
        for (player, r) in exact.returns.iter().enumerate() {
            // A value that rounds to zero is written `0.000000`, never `-0.000000`.
            let r = if r.abs() < 5e-7 { 0.0 } else { *r };
            text.push_str(&format!("player {player} expects {r:.6}\n"));
        }
        if exact.unlisted > 0.0 {
            text.push_str(&format!(
                "stopped at a random(), whose outcomes cannot be listed: {:.6}\n",
                exact.unlisted
            ));
        }
        if let Some(e) = &exact.first_error {
            text.push_str(&format!("rule errors: {:.6}; the first: {e}\n", exact.errors));
        }
        text
    };
    output.write_all(text.as_bytes()).map_err(|e| (1, format!("output error: {e}")))?;
    Ok(if exact.first_error.is_some() { 1 } else { 0 })
}
