//! `tgdlc build`, and the native engine of `play`, `simulate`, `perft`, `tournament`,
//! `serve`: build the game (cached), then run its binary with the subcommand and the
//! remaining arguments (`test` builds through here too).

use super::{Session, fail};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use tgdl_build::{BuildOptions, Built};

/// Checks, generates and builds a game; diagnostics and errors are printed here. The
/// binary will be copied to `output`, which must not be a source of the game.
pub(super) fn build_game(
    session: &Session,
    file: &Path,
    verbose: bool,
    output: Option<&Path>,
) -> Result<Built, u8> {
    let compilation = session.compile_valid(file, true)?;
    if let Some(output) = output {
        super::refuse_overwriting_sources(output, &compilation)?;
    }
    let Some((name, code)) = generated(compilation) else { return Err(1) };
    tgdl_build::build(&name, &code, &BuildOptions { verbose, status: true }).map_err(fail)
}

/// The game's name and generated engine, for a build. The engine names the game's files
/// as every front end does (relative to the main file's directory), so the build cache,
/// keyed by the code, reuses the binary of the same game reached by another path.
pub(super) fn generated(compilation: tgdl_compiler::Compilation) -> Option<(String, String)> {
    Some((compilation.program?.name, compilation.generated?))
}

/// `tgdlc build FILE [-o BIN]`.
pub(super) fn build(session: &Session, file: &Path, output: Option<&Path>, verbose: bool) -> u8 {
    let target = match output {
        Some(o) => o.to_path_buf(),
        None => {
            let stem = file.file_stem().map_or_else(|| OsString::from("game"), |s| s.to_os_string());
            let mut name = stem;
            name.push(std::env::consts::EXE_SUFFIX);
            PathBuf::from(name)
        }
    };
    let built = match build_game(session, file, verbose, Some(&target)) {
        Ok(b) => b,
        Err(code) => return code,
    };
    if target.is_dir() {
        return fail(format!("`{}` is a directory; give the binary's file name with -o", target.display()));
    }
    // Copy next to the destination, then rename over it: works even when the old binary
    // is running.
    let partial = partial_name(&target);
    if let Err(e) = std::fs::copy(&built.binary, &partial) {
        return fail(format!("cannot write `{}`: {e}", partial.display()));
    }
    if let Err(e) = std::fs::rename(&partial, &target) {
        let _ = std::fs::remove_file(&partial);
        return fail(format!("cannot write `{}`: {e}", target.display()));
    }
    eprintln!("    Finished `{}`", target.display());
    0
}

/// `tgdlc build FILE --python [-o DIR]`: the game's wheel, written to DIR.
pub(super) fn build_python(session: &Session, file: &Path, output: Option<&Path>, verbose: bool) -> u8 {
    let compilation = match session.compile_valid(file, true) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let Some((name, code)) = generated(compilation) else { return 1 };
    let dir = output.unwrap_or(Path::new("."));
    match tgdl_build::build_python(&name, &code, dir, &BuildOptions { verbose, status: true }) {
        Ok(built) => {
            eprintln!("    Finished `{}` (import {})", built.wheel.display(), built.module);
            println!("{}", built.wheel.display());
            0
        }
        Err(e) => fail(e),
    }
}

fn partial_name(target: &Path) -> PathBuf {
    let mut name = target.file_name().map_or_else(|| OsString::from("game"), |n| n.to_os_string());
    name.push(format!(".partial-{}", std::process::id()));
    target.with_file_name(name)
}

/// `tgdlc play|simulate|perft|tournament|serve FILE ARGS...` on the native engine: builds
/// the game (cached) and runs its binary; the binary's exit code.
pub(super) fn run(session: &Session, subcommand: &str, file: &Path, args: &[OsString]) -> u8 {
    match build_game(session, file, false, None) {
        Ok(built) => run_binary(&built.binary, subcommand, file, args),
        Err(code) => code,
    }
}

/// Runs a game binary with the subcommand and its arguments, in place of this process.
pub(super) fn run_binary(binary: &Path, subcommand: &str, file: &Path, args: &[OsString]) -> u8 {
    let mut cmd = Command::new(binary);
    cmd.arg(subcommand).args(args);
    // The binary's usage lines and errors then say `tgdlc perft FILE`, what was typed,
    // not the cached binary's name.
    cmd.env("TGDL_GAME_FILE", file);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::arg0(&mut cmd, "tgdlc");
    exec(cmd, binary)
}

/// The arguments of `serve` for the game's command line: the matches are kept beside
/// the game (`FILE` with the extension `.sqlite`) unless `--db` is given.
pub(super) fn serve_args(file: &Path, args: &[OsString]) -> Vec<OsString> {
    let mut args = args.to_vec();
    let has_db = args.iter().any(|a| a == "--db" || a.to_string_lossy().starts_with("--db="));
    if !has_db {
        args.extend([OsString::from("--db"), file.with_extension("sqlite").into_os_string()]);
    }
    args
}

/// Replaces this process with the game binary (Unix), so signals, the terminal and the
/// exit code are the game's own.
#[cfg(unix)]
fn exec(mut cmd: Command, binary: &Path) -> u8 {
    use std::os::unix::process::CommandExt;
    let error = cmd.exec();
    fail(format!("cannot run `{}`: {error}", binary.display()))
}

/// Runs the game binary and exits with its code.
#[cfg(not(unix))]
fn exec(mut cmd: Command, binary: &Path) -> u8 {
    match cmd.status() {
        Ok(status) => status.code().map_or(1, |c| c.clamp(0, 255) as u8),
        Err(error) => fail(format!("cannot run `{}`: {error}", binary.display())),
    }
}
