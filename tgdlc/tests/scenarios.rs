//! `tgdlc test` end to end: a game built once (tic-tac-toe, shared with the other tests
//! through the build cache), a passing and a failing scenario file, their reports, JSON and
//! exit codes, files found by themselves, and a game played with `--record` whose scenario
//! then passes; the same reports from the interpreter (`--engine interpreted`).

use std::path::{Path, PathBuf};
use std::process::Command;

const GAME: &str = include_str!("../../examples/tic_tac_toe.tgdl");

fn tgdlc(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tgdlc"));
    cmd.current_dir(dir);
    // A game played by the interpreter starts no native build in the background here.
    cmd.env("TGDL_NO_BACKGROUND_BUILD", "1");
    if std::env::var_os("TGDL_CACHE").is_none() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        cmd.env("TGDL_CACHE", root.join("target/tgdl-cache"));
    }
    cmd
}

fn output(cmd: &mut Command) -> (String, String, i32) {
    let out = cmd.output().expect("tgdlc runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `dir/sub/tic_tac_toe.tgdl` (the example, under its own name: the same engine, one
/// build) with `scenarios` beside it, when given.
fn game_in(dir: &Path, sub: &str, scenarios: Option<&str>) -> PathBuf {
    let folder = dir.join(sub);
    std::fs::create_dir_all(&folder).expect("a temporary directory");
    std::fs::write(folder.join("tic_tac_toe.tgdl"), GAME).expect("the game");
    if let Some(text) = scenarios {
        std::fs::write(folder.join("tic_tac_toe.scenarios"), text).expect("the scenarios");
    }
    folder.join("tic_tac_toe.tgdl")
}

const PASSING: &str = "scenario \"the centre first\"\nplay \"place Cell(1, 1)\"\nactive 1\n\n\
                       scenario \"a row wins\"\nplay \"place Cell(0, 0)\"\nplay \"place Cell(0, 1)\"\n\
                       play \"place Cell(1, 0)\"\nplay \"place Cell(1, 1)\"\nplay \"place Cell(2, 0)\"\n\
                       result \"player 0 wins\"\n";

const FAILING: &str = "scenario \"passes\"\nactive 0\n\nscenario \"a cell twice\"\nplay \"place Cell(1, 1)\"\n\
                       play \"place Cell(1, 1)\"\n";

#[test]
fn tgdlc_test_reports_passes_and_located_failures_and_runs_recorded_games() {
    let dir = std::env::temp_dir().join(format!("tgdlc-scenarios-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    game_in(&dir, "pass", Some(PASSING));
    game_in(&dir, "fail", Some(FAILING));

    let (out, err, code) = output(tgdlc(&dir).args(["test", "pass/tic_tac_toe.tgdl"]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("running 2 scenarios (pass/tic_tac_toe.scenarios)\n"), "{out}");
    assert!(out.contains("test the centre first ... ok\ntest a row wins ... ok\n"), "{out}");
    assert!(out.ends_with("\ntest result: ok. 2 passed; 0 failed\n"), "{out}");

    // The scenario file names its game just as well.
    let (out, err, code) = output(tgdlc(&dir).args(["test", "fail/tic_tac_toe.scenarios"]));
    assert_eq!(code, 1, "{out}{err}");
    for expected in [
        "test passes ... ok\ntest a cell twice ... FAILED\n",
        "fail/tic_tac_toe.scenarios:6:1: \"place Cell(1, 1)\" is not on the menu of player 1\n",
        "6 | play \"place Cell(1, 1)\"\n  | ^^^^^^^^^^^^^^^^^^^^^^^\n",
        "the menu of player 1 (8 options):\n",
        "the decisions taken (1):\n  1. player 0: place Cell(1, 1)\n",
        "test result: FAILED. 1 passed; 1 failed\n",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }

    let (out, _, code) = output(tgdlc(&dir).args(["test", "fail/tic_tac_toe.tgdl", "--json"]));
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!((json["passed"].as_u64(), json["failed"].as_u64()), (Some(1), Some(1)));
    let failure = &json["scenarios"][1]["failure"];
    assert_eq!((failure["line"].as_u64(), failure["column"].as_u64()), (Some(6), Some(1)));
    assert_eq!(failure["file"], "fail/tic_tac_toe.scenarios");

    // A game played with --record, then tested: its scenario passes.
    game_in(&dir, "rec", None);
    let (out, err, code) = output(tgdlc(&dir).args([
        "play",
        "rec/tic_tac_toe.tgdl",
        "--seats",
        "random",
        "--seed",
        "5",
        "--record",
        "rec/tic_tac_toe.scenarios",
    ]));
    assert_eq!(code, 0, "{out}{err}");
    let result = out.lines().last().and_then(|l| l.strip_prefix("result: ")).expect("a result line");
    let recorded =
        std::fs::read_to_string(dir.join("rec/tic_tac_toe.scenarios")).expect("the recorded scenario");
    assert!(recorded.contains("\nplayers 2\nseed 5\nplay \"place Cell("), "{recorded}");
    assert!(recorded.ends_with(&format!("result \"{result}\"\n")), "{recorded}");
    let (out, err, code) = output(tgdlc(&dir).args(["test", "rec/tic_tac_toe.scenarios"]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("test recorded game, seed 5 ... ok"), "{out}");

    // With no files: every game under the current directory with scenarios beside it.
    let (out, _, code) = output(tgdlc(&dir).arg("test"));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("running 2 scenarios (fail/tic_tac_toe.scenarios)"), "{out}");
    assert!(out.contains("running 1 scenario (rec/tic_tac_toe.scenarios)"), "{out}");
    assert!(
        out.ends_with("tgdlc test: FAILED. 2 of 3 scenario files passed\n    fail/tic_tac_toe.scenarios\n"),
        "{out}"
    );

    // On the interpreter (no build), the same reports byte for byte, and the same codes.
    for args in
        [&["test", "fail/tic_tac_toe.tgdl"][..], &["test", "fail/tic_tac_toe.tgdl", "--json"], &["test"]]
    {
        let native = output(tgdlc(&dir).args(args));
        let interpreted = output(tgdlc(&dir).args(args).args(["--engine", "interpreted"]));
        assert_eq!((&native.0, native.2), (&interpreted.0, interpreted.2), "{args:?}");
    }

    // A game without scenarios, and a malformed file, are refused with what is wrong.
    game_in(&dir, "none", None);
    let (_, err, code) = output(tgdlc(&dir).args(["test", "none/tic_tac_toe.tgdl"]));
    assert_eq!(code, 1);
    assert!(
        err.contains("`none/tic_tac_toe.tgdl` has no `tic_tac_toe.scenarios` of the same name beside it"),
        "{err}"
    );
    std::fs::write(dir.join("none/tic_tac_toe.scenarios"), "scenario \"x\"\nplayers\n").expect("a file");
    let (out, _, code) = output(tgdlc(&dir).args(["test", "none/tic_tac_toe.tgdl"]));
    assert_eq!(code, 1);
    assert!(
        out.contains("none/tic_tac_toe.scenarios:2:8: expected the number of players, a whole number"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
