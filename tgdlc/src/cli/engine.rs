//! Which engine runs a game (`--engine`, docs/playing.md "Two engines"): the
//! interpreter, in this process the moment the game checks, or the native binary, built
//! with cargo and cached by the game's code. Under `auto`, `play` and `serve` take the
//! cached binary when there is one and otherwise the interpreter, starting a build of
//! the binary in the background for next time; the batch commands (`simulate`,
//! `tournament`, `perft`), whose speed is the point, run native.

use super::run::{self, serve_args};
use super::{Engine, RunArgs, Session, main_file};
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use tgdl_build::BuildOptions;
use tgdl_interp::{Interpreted, Prepared};

/// The environment variable that stops `auto` from building native engines in the
/// background (tests and CI set it: a build is minutes of rustc).
pub(super) const NO_BACKGROUND_BUILD: &str = "TGDL_NO_BACKGROUND_BUILD";

/// `tgdlc SUBCOMMAND FILE ARGS...` with the engine `args.engine` asks for: the exit code.
pub(super) fn run(session: &Session, subcommand: &str, args: &RunArgs) -> u8 {
    let file = main_file(&args.file);
    let file = file.as_path();
    let game_args = if subcommand == "serve" { serve_args(file, &args.args) } else { args.args.clone() };
    match args.engine {
        Engine::Native => run::run(session, subcommand, file, &game_args),
        Engine::Interpreted => match prepared(session, file) {
            Ok(prepared) => run_interpreted(prepared, subcommand, file, &game_args),
            Err(code) => code,
        },
        Engine::Auto if subcommand == "play" || subcommand == "serve" => {
            auto(session, subcommand, file, &game_args)
        }
        Engine::Auto => {
            eprintln!(
                "tgdlc: {subcommand} runs the native engine (built once, cached); --engine interpreted starts at once"
            );
            run::run(session, subcommand, file, &game_args)
        }
    }
}

/// Checks a game (no code generation) and prepares it for the interpreter; diagnostics
/// are printed here.
pub(super) fn prepared(session: &Session, file: &Path) -> Result<Arc<Prepared>, u8> {
    let compilation = session.compile_valid(file, false)?;
    let Some(program) = &compilation.program else { return Err(1) };
    Ok(tgdl_interp::prepare(program, &compilation.sources))
}

/// Runs the game's command line in this process on the interpreter, playing `prepared`.
pub(super) fn run_interpreted(
    prepared: Arc<Prepared>,
    subcommand: &str,
    file: &Path,
    args: &[OsString],
) -> u8 {
    tgdl_interp::install(prepared);
    // Usage lines then say `tgdlc play FILE`, as the native binary's do.
    tgdl_play::cli::set_game_file(file);
    let mut argv = vec![OsString::from("tgdlc"), OsString::from(subcommand)];
    argv.extend(args.iter().cloned());
    if subcommand == "serve" {
        tgdl_server::run_cli::<Interpreted>(argv)
    } else {
        tgdl_play::cli::run_main::<Interpreted>(argv)
    }
}

/// `auto` for `play` and `serve`: the cached binary of this very game if there is one,
/// else the interpreter (and a background build), else a build. Says which on one line of
/// standard error; standard output is the game's alone.
fn auto(session: &Session, subcommand: &str, file: &Path, args: &[OsString]) -> u8 {
    let compilation = match session.compile_valid(file, true) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let (Some(program), Some(code)) = (&compilation.program, &compilation.generated) else { return 1 };
    let doing = if subcommand == "serve" { "serving" } else { "playing" };
    // A cache that cannot be looked in (no runtime, no cache directory) holds nothing:
    // the interpreter needs neither.
    if let Ok(Some(binary)) = tgdl_build::cached(&program.name, code) {
        eprintln!("tgdlc: {doing} with the native engine (cached)");
        return run::run_binary(&binary, subcommand, file, args);
    }
    let prepared = tgdl_interp::prepare(program, &compilation.sources);
    let building = if std::env::var_os(NO_BACKGROUND_BUILD).is_some_and(|v| !v.is_empty() && v != "0") {
        format!("no native build: {NO_BACKGROUND_BUILD} is set")
    } else if build_in_background(session, file) {
        "native engine building in the background".to_string()
    } else {
        "the background build of the native engine could not start".to_string()
    };
    eprintln!("tgdlc: {doing} with the interpreter ({building})");
    run_interpreted(prepared, subcommand, file, args)
}

/// Starts `tgdlc build-in-background FILE`, detached: its own process group (Ctrl-C at
/// the game does not stop it), no terminal streams (it prints nothing into the game), and
/// it outlives this process. Whether it started.
fn build_in_background(session: &Session, file: &Path) -> bool {
    let Ok(tgdlc) = std::env::current_exe() else { return false };
    let mut cmd = Command::new(tgdlc);
    cmd.arg("build-in-background");
    if let Some(root) = &session.options.import_root {
        cmd.arg("--import-root").arg(root);
    }
    cmd.arg(file).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    match cmd.spawn() {
        Ok(mut child) => {
            // Reaped if it ends while the game runs; when this process ends first, the
            // build goes on alone.
            std::thread::spawn(move || child.wait());
            true
        }
        Err(_) => false,
    }
}

/// `tgdlc build-in-background FILE`: the native engine into the cache, silently (its
/// streams are null); the exit code says how it went.
pub(super) fn build_quietly(session: &Session, file: &Path) -> u8 {
    let compilation = session.compile(file, true);
    if compilation.has_errors() {
        return 1;
    }
    let Some((name, code)) = run::generated(compilation) else { return 1 };
    match tgdl_build::build(&name, &code, &BuildOptions { verbose: false, status: false }) {
        Ok(_) => 0,
        Err(_) => 1,
    }
}
