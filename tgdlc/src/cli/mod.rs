//! The `tgdlc` command line (docs/cli.md): `check`, `emit`, `build`, `play`, `simulate`,
//! `perft`, `tournament`, `serve`, `test`, `why`, `new` and `explain`.
//!
//! Exit codes: 0 success, 1 an invalid game (or a failed build, file, rule error or
//! scenario of the game binary), 2 a usage error. `play`, `simulate` and `perft` exit
//! with the game's own code, whichever engine runs it.

mod check;
mod engine;
mod explain;
mod fmt;
mod new;
mod run;
mod test;
mod watch;
mod why;

use clap::{Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tgdl_compiler::{CodegenOptions, Compilation, Input, Options};

#[derive(Parser, Debug)]
#[command(
    name = "tgdlc",
    version,
    about = "The TGDL compiler: Tabletop Game Description Language to native game engines",
    disable_help_subcommand = true
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Let imports reach files anywhere under DIR (by default they must stay inside the
    /// game's folder, the directory of its main file)
    #[arg(long, global = true, value_name = "DIR")]
    import_root: Option<PathBuf>,
    /// How to print diagnostics, for every command that compiles a game: rendered on
    /// stderr, or one JSON object per line on stdout (give it before FILE for play,
    /// simulate, perft, tournament and serve)
    #[arg(long, global = true, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
}

/// What every compiling command of this run shares, from the global options of the
/// command line: how to find the game's files and how to print diagnostics.
struct Session {
    options: Options,
    message_format: MessageFormat,
}

impl Session {
    /// Loads and checks a game, and generates its engine when `generate`.
    fn compile(&self, file: &Path, generate: bool) -> Compilation {
        let options = Options { generate: generate.then(CodegenOptions::default), ..self.options.clone() };
        tgdl_compiler::compile(Input::File(file), &options)
    }

    /// Compiles a game (generating its engine when `generate`), printing its
    /// diagnostics; the compilation when the game is valid.
    fn compile_valid(&self, file: &Path, generate: bool) -> Result<Compilation, u8> {
        let compilation = self.compile(file, generate);
        self.report(&compilation)?;
        if compilation.has_errors() { Err(1) } else { Ok(compilation) }
    }

    /// Prints a compilation's diagnostics in this run's message format: rendered on
    /// standard error, or JSON lines on standard output. Err(1) when standard output is
    /// closed.
    fn report(&self, compilation: &Compilation) -> Result<(), u8> {
        use std::io::Write;
        match self.message_format {
            MessageFormat::Human => eprint!("{}", compilation.render(color())),
            MessageFormat::Json => {
                let mut out = std::io::stdout().lock();
                for d in &compilation.diagnostics {
                    writeln!(out, "{}", d.to_json(&compilation.sources)).map_err(|_| 1u8)?;
                }
                out.flush().map_err(|_| 1u8)?;
            }
        }
        Ok(())
    }
}

/// The game's main file: FILE itself, or `FILE/main.tgdl` when FILE is a project
/// directory (as `tgdlc new` makes them).
fn main_file(file: &Path) -> PathBuf {
    let main = file.join("main.tgdl");
    if file.is_dir() && main.is_file() { main } else { file.to_path_buf() }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check a game and report its diagnostics (exit 0 when it is valid)
    Check {
        /// The game's main .tgdl file (or a project directory holding main.tgdl)
        file: PathBuf,
        /// Also check a value for a parameter of the game, as NAME=VALUE; repeatable
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
    },
    /// Print the Rust engine generated for a game
    Emit {
        /// The game's main .tgdl file
        file: PathBuf,
        /// Write the code to this file instead of standard output
        #[arg(short, long, value_name = "OUT.rs")]
        output: Option<PathBuf>,
    },
    /// Build a standalone, optimised binary that plays the game
    Build {
        /// The game's main .tgdl file
        file: PathBuf,
        /// The binary to write [default: the file's name without extension, here]
        #[arg(short, long, value_name = "BIN")]
        output: Option<PathBuf>,
        /// Show cargo's progress and warnings
        #[arg(short, long)]
        verbose: bool,
        /// Build a Python wheel (pyo3, maturin) instead; -o names its directory
        /// [default: the current directory]
        #[arg(long)]
        python: bool,
    },
    /// Play the game in the terminal (options go to the game's command line)
    Play(PlayArgs),
    /// Play random games in parallel and report statistics (e.g. `-n 1000 --json`)
    Simulate(RunArgs),
    /// Count the decision sequences of each length (e.g. `--depth 4 --json`)
    Perft(RunArgs),
    /// Agents play every seating rotation (e.g. `--seats mcts:200,random -n 100 --json`)
    Tournament(RunArgs),
    /// Serve the game to browsers (e.g. `--port 8080`; matches are kept in FILE's
    /// directory, `NAME.sqlite`, unless `--db PATH` is given)
    Serve(RunArgs),
    /// Run the scenarios beside games (docs/testing.md): builds each game, runs its
    /// .scenarios file, reports like `cargo test`
    Test {
        /// Games (.tgdl, whose .scenarios file of the same name is run) or .scenarios files
        /// [default: every .tgdl file under the current directory with a .scenarios file
        /// beside it]
        files: Vec<PathBuf>,
        /// One JSON object per scenario file, a line each, instead of the reports
        #[arg(long)]
        json: bool,
        /// Which engine runs the scenarios: the interpreter (at once, in this process) or
        /// the game's native binary (built once, cached); auto is native
        #[arg(long, value_enum, default_value_t = Engine::Auto)]
        engine: Engine,
    },
    /// Why a move is or is not offered, and which rule decides it (on the interpreter;
    /// e.g. `tgdlc why chess.tgdl --replay game.json "e1-g1"`)
    Why {
        /// The game's main .tgdl file
        file: PathBuf,
        /// The move's label, as the menu writes it
        label: String,
        /// Players [default: the game's minimum]
        #[arg(long)]
        players: Option<u32>,
        /// The game's seed
        #[arg(long, default_value_t = 0)]
        seed: u128,
        /// A value for a parameter, as NAME=VALUE; repeatable
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
        /// Ask at the decision after this trace's decisions (its players, seed and
        /// parameters too)
        #[arg(long, value_name = "T.json")]
        replay: Option<PathBuf>,
        /// The answer as one JSON object (`offered`, `seat`, `lines`)
        #[arg(long)]
        json: bool,
    },
    /// Format .tgdl files in place (with --check: list the files that would change)
    Fmt {
        /// The files to format
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write nothing; exit 1 when a file is not formatted
        #[arg(long)]
        check: bool,
    },
    /// Run the language server on standard input and output (for editors)
    Lsp,
    /// Create a new game project directory NAME with a small playable game
    New {
        /// The directory to create (its last component names the game)
        name: PathBuf,
    },
    /// Explain a diagnostic code (e.g. E0002), or list them all with --list
    Explain {
        /// A code such as E0002
        #[arg(required_unless_present = "list")]
        code: Option<String>,
        /// List every code with its title
        #[arg(long, conflicts_with = "code")]
        list: bool,
    },
    /// Build a game's native engine into the cache, printing nothing: what `play` and
    /// `serve` start in the background while the interpreter plays
    #[command(name = "build-in-background", hide = true)]
    BuildInBackground {
        /// The game's main .tgdl file
        file: PathBuf,
    },
}

/// `play`'s arguments: those of every command that runs a game, and `--watch`.
#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// Play with the interpreter, and start the game again under the new rules, its
    /// decisions replayed, whenever one of its files changes (may come among ARGS)
    #[arg(long)]
    watch: bool,
    #[command(flatten)]
    run: RunArgs,
}

/// A game file and the arguments passed verbatim to its command line.
#[derive(clap::Args, Debug)]
struct RunArgs {
    /// Which engine runs the game: the interpreter (starts at once), the native binary
    /// (built with cargo once, then cached), or auto: for play and serve the cached
    /// binary when there is one, else the interpreter (building the binary in the
    /// background), for the others native (may come among ARGS)
    #[arg(long, value_enum, default_value_t = Engine::Auto)]
    engine: Engine,
    /// The game's main .tgdl file
    file: PathBuf,
    /// Options of the game binary (see `tgdlc play FILE --help`)
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "ARGS")]
    args: Vec<OsString>,
}

/// What runs a game (`--engine`, docs/playing.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum Engine {
    /// The interpreter: the game starts the moment it checks
    Interpreted,
    /// The game's binary, built with cargo (cached by the game's code)
    Native,
    /// The cached binary when there is one, else the interpreter for play and serve
    /// (the binary is built in the background for next time); native for the others
    #[default]
    Auto,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum MessageFormat {
    #[default]
    Human,
    Json,
}

/// The whole program: parses the command line and runs the subcommand.
pub fn main() -> ExitCode {
    install_panic_hook();
    let cli = match parse_args(std::env::args_os().collect()) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    ExitCode::from(run(cli))
}

/// Parses a command line (program name first). For `play`, `simulate`, `perft`,
/// `tournament` and `serve`, everything after FILE belongs to the game's command line,
/// `--help` included, so it is set aside before clap sees it; tgdlc's own options of
/// these commands (`--engine`, `--watch`) are taken from among it first.
fn parse_args(mut args: Vec<OsString>) -> Result<Cli, clap::Error> {
    let is_run = args
        .get(1)
        .is_some_and(|a| a == "play" || a == "simulate" || a == "perft" || a == "tournament" || a == "serve");
    if is_run {
        lift_own_options(&mut args);
    }
    let has_file = args.get(2).is_some_and(|a| !a.to_string_lossy().starts_with('-'));
    let rest = if is_run && has_file { args.split_off(3) } else { Vec::new() };
    let mut cli = Cli::try_parse_from(args)?;
    if let Command::Play(PlayArgs { run: a, .. })
    | Command::Simulate(a)
    | Command::Perft(a)
    | Command::Tournament(a)
    | Command::Serve(a) = &mut cli.command
    {
        a.args.extend(rest);
    }
    Ok(cli)
}

/// Moves tgdlc's own options of the commands that run a game (`--engine E`,
/// `--engine=E`, `--watch`) from wherever they are to just after the subcommand, before
/// FILE, where clap reads them: `tgdlc play g.tgdl --seats human --watch` is
/// `tgdlc play --watch g.tgdl --seats human`. The game's command line has no options of
/// these names, so none of its arguments is taken; a `--` ends the search (what follows
/// is the game's, verbatim).
fn lift_own_options(args: &mut Vec<OsString>) {
    let mut own = Vec::new();
    let mut i = 2;
    while i < args.len() {
        let arg = args[i].to_string_lossy();
        if arg == "--" {
            break;
        } else if arg == "--watch" || arg.starts_with("--engine=") {
            own.push(args.remove(i));
        } else if arg == "--engine" {
            own.push(args.remove(i));
            if i < args.len() {
                own.push(args.remove(i));
            }
        } else {
            i += 1;
        }
    }
    let at = 2.min(args.len());
    args.splice(at..at, own);
}

fn run(cli: Cli) -> u8 {
    let session = Session {
        options: Options { import_root: cli.import_root, ..Options::default() },
        message_format: cli.message_format,
    };
    let s = &session;
    match cli.command {
        Command::Check { file, params } => check::check(s, &main_file(&file), &params),
        Command::Emit { file, output } => check::emit(s, &main_file(&file), output.as_deref()),
        Command::Build { file, output, verbose, python: false } => {
            run::build(s, &main_file(&file), output.as_deref(), verbose)
        }
        Command::Build { file, output, verbose, python: true } => {
            run::build_python(s, &main_file(&file), output.as_deref(), verbose)
        }
        Command::Play(PlayArgs { watch: true, run: a }) => {
            watch::play(s, &main_file(&a.file), &a.args, a.engine)
        }
        Command::Play(PlayArgs { watch: false, run: a }) => engine::run(s, "play", &a),
        Command::Simulate(a) => engine::run(s, "simulate", &a),
        Command::Perft(a) => engine::run(s, "perft", &a),
        Command::Tournament(a) => engine::run(s, "tournament", &a),
        Command::Serve(a) => engine::run(s, "serve", &a),
        Command::BuildInBackground { file } => engine::build_quietly(s, &main_file(&file)),
        Command::Test { files, json, engine } => test::test(s, &files, json, engine),
        Command::Why { file, label, players, seed, params, replay, json } => why::why(
            s,
            &why::Question {
                file: &main_file(&file),
                label: &label,
                players,
                seed,
                params: &params,
                replay: replay.as_deref(),
                json,
            },
        ),
        Command::Fmt { files, check } => fmt::fmt(&files, check),
        Command::Lsp => match crate::lsp::run_stdio() {
            Ok(()) => 0,
            Err(e) => fail(format!("language server: {e}")),
        },
        Command::New { name } => new::new(&name),
        Command::Explain { code, list } => explain::explain(code.as_deref(), list),
    }
}

/// Whether diagnostics on standard error get colours: a terminal, and `NO_COLOR` unset.
fn color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Prints `error: message` on standard error and gives exit code 1.
fn fail(message: impl std::fmt::Display) -> u8 {
    eprintln!("error: {message}");
    1
}

/// Refuses an output path that is one of the game's own source files (`tgdlc build game`
/// on a source without extension, `emit g.tgdl -o g.tgdl`): writing would destroy it.
fn refuse_overwriting_sources(output: &Path, compilation: &Compilation) -> Result<(), u8> {
    let target = match std::fs::canonicalize(output) {
        Ok(existing) => existing,
        // A file that does not exist yet cannot be a source.
        Err(_) => return Ok(()),
    };
    for (_, file) in compilation.sources.files() {
        if file.path.as_deref() == Some(target.as_path()) {
            return Err(fail(format!(
                "`{}` is a source file of the game; refusing to write over it\n\
                 help: give another output path with -o",
                tgdl_compiler::source::printable(&output.display().to_string())
            )));
        }
    }
    Ok(())
}

/// A panic is a compiler bug: say so, and how to report it.
fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default(info);
        eprintln!(
            "error: internal compiler error: tgdlc panicked\n\
             note: this is a bug in tgdlc; please report it with the .tgdl files that caused it"
        );
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        parse_args(std::iter::once("tgdlc").chain(args.iter().copied()).map(OsString::from).collect())
    }

    #[test]
    fn run_arguments_pass_through_verbatim() {
        let cli = parse(&["play", "g.tgdl", "--seats", "human,random", "--seed", "7"]).unwrap();
        let Command::Play(PlayArgs { run: a, watch: false }) = cli.command else { panic!("not play") };
        assert_eq!(a.file, PathBuf::from("g.tgdl"));
        assert_eq!(a.engine, Engine::Auto);
        assert_eq!(a.args, ["--seats", "human,random", "--seed", "7"]);

        let cli = parse(&["simulate", "g.tgdl", "-n", "100", "--json"]).unwrap();
        let Command::Simulate(a) = cli.command else { panic!("not simulate") };
        assert_eq!(a.args, ["-n", "100", "--json"]);

        let cli = parse(&["perft", "g.tgdl", "--help"]).unwrap();
        let Command::Perft(a) = cli.command else { panic!("not perft") };
        assert_eq!(a.args, ["--help"]);

        let cli = parse(&["play", "g.tgdl", "--", "-h", "-V"]).unwrap();
        let Command::Play(PlayArgs { run: a, .. }) = cli.command else { panic!("not play") };
        assert_eq!(a.args, ["--", "-h", "-V"]);

        // tgdlc's own help for the subcommand.
        assert_eq!(parse(&["play", "--help"]).unwrap_err().kind(), clap::error::ErrorKind::DisplayHelp);
        assert!(parse(&["play"]).is_err());
    }

    #[test]
    fn engine_and_watch_are_tgdlc_s_wherever_they_are() {
        let play = |args: &[&str]| match parse(args).map(|cli| cli.command) {
            Ok(Command::Play(PlayArgs { run, watch })) => (run.engine, watch, run.args),
            other => panic!("not play: {other:?}"),
        };
        let (engine, watch, args) = play(&["play", "--engine", "native", "g.tgdl", "--seed", "1"]);
        assert_eq!(
            (engine, watch, args),
            (Engine::Native, false, vec![OsString::from("--seed"), "1".into()])
        );
        let (engine, watch, args) =
            play(&["play", "g.tgdl", "--seats", "human", "--watch", "--engine=interpreted"]);
        assert_eq!((engine, watch), (Engine::Interpreted, true));
        assert_eq!(args, ["--seats", "human"]);
        // After `--`, everything is the game's.
        let (engine, watch, args) = play(&["play", "g.tgdl", "--", "--watch", "--engine", "native"]);
        assert_eq!((engine, watch), (Engine::Auto, false));
        assert_eq!(args, ["--", "--watch", "--engine", "native"]);

        let cli = parse(&["simulate", "g.tgdl", "-n", "10", "--engine", "interpreted"]).unwrap();
        let Command::Simulate(a) = cli.command else { panic!("not simulate") };
        assert_eq!((a.engine, a.args), (Engine::Interpreted, vec![OsString::from("-n"), "10".into()]));

        assert!(parse(&["play", "g.tgdl", "--engine", "fast"]).is_err());
        assert!(parse(&["play", "g.tgdl", "--engine"]).is_err());
        // Only `play` watches.
        assert!(parse(&["simulate", "g.tgdl", "--watch"]).is_err());
    }

    #[test]
    fn usage_errors() {
        assert!(parse(&[]).is_err());
        assert!(parse(&["check"]).is_err());
        assert!(parse(&["explain"]).is_err());
        assert!(parse(&["explain", "E0001", "--list"]).is_err());
        assert!(parse(&["check", "g.tgdl", "--message-format", "xml"]).is_err());
        assert!(parse(&["explain", "--list"]).is_ok());
    }
}
