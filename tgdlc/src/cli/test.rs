//! `tgdlc test [FILES] [--json] [--engine E]`: builds each game (as `play` does, cached)
//! and runs the scenarios beside it through its binary's `test` subcommand, or with
//! `--engine interpreted` runs them at once on the interpreter, in this process, through
//! the same command line. FILES are games (`.tgdl`,
//! or a project directory), whose `.scenarios` file of the same name is run, or
//! `.scenarios` files, whose game is the `.tgdl` file of the same name; with none, every
//! `.tgdl` file under the current directory that has a `.scenarios` file beside it.

use super::{Engine, Session, fail, main_file};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A game and its scenarios.
#[derive(Debug, PartialEq, Eq)]
struct Suite {
    game: PathBuf,
    scenarios: PathBuf,
}

/// Runs every suite; the exit code is the worst of the binaries' (1 for a game that
/// does not build or a file that is missing).
pub(super) fn test(session: &Session, files: &[PathBuf], json: bool, engine: Engine) -> u8 {
    let (suites, mut code) = if files.is_empty() {
        let found = discover(Path::new("."));
        if found.is_empty() {
            return fail(
                "no scenarios here: no .tgdl file under the current directory has a .scenarios file of the same name beside it",
            );
        }
        (found, 0)
    } else {
        suites_of(files)
    };
    let mut failed = Vec::new();
    for suite in &suites {
        let status = if engine == Engine::Interpreted {
            interpreted(session, suite, json)
        } else {
            native(session, suite, json)
        };
        if status != 0 {
            failed.push(suite.scenarios.display().to_string());
        }
        code = code.max(status);
    }
    // The reports are the output; with several games, which of them failed.
    if suites.len() > 1 && !json {
        let verdict = if failed.is_empty() { "ok" } else { "FAILED" };
        println!(
            "\ntgdlc test: {verdict}. {} of {} scenario files passed",
            suites.len() - failed.len(),
            suites.len()
        );
        for f in &failed {
            println!("    {f}");
        }
    }
    code
}

/// Runs a suite on the interpreter: the game checked and prepared here, its scenarios run
/// by the command line every game binary has (`test`), in this process.
fn interpreted(session: &Session, suite: &Suite, json: bool) -> u8 {
    let prepared = match super::engine::prepared(session, &suite.game) {
        Ok(prepared) => prepared,
        Err(code) => return code,
    };
    let mut args: Vec<OsString> = vec![suite.scenarios.clone().into()];
    if json {
        args.push("--json".into());
    }
    super::engine::run_interpreted(prepared, "test", &suite.game, &args)
}

/// Runs a suite through the game's binary (built as `play` builds it, cached).
fn native(session: &Session, suite: &Suite, json: bool) -> u8 {
    match super::run::build_game(session, &suite.game, false, None) {
        Ok(built) => {
            let mut cmd = Command::new(&built.binary);
            cmd.arg("test").arg(&suite.scenarios);
            if json {
                cmd.arg("--json");
            }
            cmd.env("TGDL_GAME_FILE", &suite.game);
            match cmd.status() {
                Ok(status) => status.code().map_or(1, |c| c.clamp(0, 255) as u8),
                Err(e) => fail(format!("cannot run `{}`: {e}", built.binary.display())),
            }
        }
        Err(c) => c,
    }
}

/// The suites FILES name, and 1 when one names nothing to test (said on standard error).
fn suites_of(files: &[PathBuf]) -> (Vec<Suite>, u8) {
    let mut suites: Vec<Suite> = Vec::new();
    let mut code = 0;
    for file in files {
        let suite = if file.extension().is_some_and(|e| e == "scenarios") {
            Suite { game: file.with_extension("tgdl"), scenarios: file.clone() }
        } else {
            let game = main_file(file);
            Suite { scenarios: game.with_extension("scenarios"), game }
        };
        let missing = [&suite.game, &suite.scenarios].into_iter().find(|p| !p.is_file());
        if let Some(missing) = missing {
            code = fail(format!(
                "`{}` has no `{}` of the same name beside it",
                file.display(),
                missing.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            ));
            continue;
        }
        if !suites.contains(&suite) {
            suites.push(suite);
        }
    }
    (suites, code)
}

/// Every `.tgdl` file under `dir` with a `.scenarios` file of the same name beside it,
/// sorted; hidden directories and `target` are not searched.
fn discover(dir: &Path) -> Vec<Suite> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "tgdl") {
                let scenarios = path.with_extension("scenarios");
                if scenarios.is_file() {
                    let strip = |p: PathBuf| p.strip_prefix(".").map(Path::to_path_buf).unwrap_or(p);
                    found.push(Suite { game: strip(path), scenarios: strip(scenarios) });
                }
            }
        }
    }
    found.sort_by(|a, b| a.game.cmp(&b.game));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_and_scenario_files_name_each_other() {
        let dir = std::env::temp_dir().join(format!("tgdlc-test-suites-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        for f in ["a.tgdl", "a.scenarios", "b.tgdl", "sub/c.tgdl", "sub/c.scenarios"] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let found = discover(&dir);
        let games: Vec<PathBuf> = found.iter().map(|s| s.game.clone()).collect();
        assert_eq!(games, [dir.join("a.tgdl"), dir.join("sub/c.tgdl")]);
        let (suites, code) = suites_of(&[dir.join("a.scenarios"), dir.join("a.tgdl"), dir.join("b.tgdl")]);
        assert_eq!(code, 1, "b.tgdl has no scenarios");
        assert_eq!(suites, [Suite { game: dir.join("a.tgdl"), scenarios: dir.join("a.scenarios") }]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
