//! Scenarios (`tgdl_play::scenario`, docs/testing.md): every `examples/NAME.scenarios`
//! passes against its example, run in process; failures and malformed files are located
//! and carry what the game showed; the report and its JSON keep their shape; a recorded
//! game replays as a scenario; and mutants of examples (`build.rs`) fail their example's
//! own scenarios at the step that pins the rule they break.

use std::path::Path;
use tgdl_play::scenario::Report;
use tgdl_tests::EXAMPLES;

/// One mutant of an example (`build.rs`).
pub struct Mutant {
    pub name: &'static str,
    pub example: &'static str,
    pub scenarios: fn(&[(String, String)]) -> Report,
}

include!(concat!(env!("OUT_DIR"), "/mutants.rs"));

const EXAMPLES_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");

/// The scenario file of an example, as `(path, text)` with the path as reports show it.
fn scenario_file(example: &str) -> Option<(String, String)> {
    let text = std::fs::read_to_string(Path::new(EXAMPLES_DIR).join(format!("{example}.scenarios"))).ok()?;
    Some((format!("examples/{example}.scenarios"), text))
}

/// Runs scenario text against an example, by name.
fn run(example: &str, text: &str) -> Report {
    let e = EXAMPLES.iter().find(|e| e.name == example).expect("an example");
    (e.scenarios)(&[(format!("{example}.scenarios"), text.to_string())])
}

#[test]
fn every_example_scenario_passes() {
    let mut ran = Vec::new();
    let mut failed = String::new();
    for example in EXAMPLES {
        let Some(file) = scenario_file(example.name) else { continue };
        let report = (example.scenarios)(&[file]);
        let scenarios = report.files[0].runs.len();
        assert!(scenarios > 0 || !report.ok(), "{}: a scenario file without scenarios", example.name);
        if !report.ok() {
            failed.push_str(&report.render_text());
        }
        ran.push(example.name);
    }
    assert!(failed.is_empty(), "scenarios of the examples failed:\n{failed}");
    for required in ["chess", "reversi", "tic_tac_toe", "crazy_eights", "connect_four", "courtiers"] {
        assert!(ran.contains(&required), "examples/{required}.scenarios is missing");
    }
}

#[test]
fn every_scenario_file_has_its_game() {
    for entry in std::fs::read_dir(EXAMPLES_DIR).expect("examples/").flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "scenarios") {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            assert!(EXAMPLES.iter().any(|e| e.name == stem), "{} has no example beside it", path.display());
        }
    }
}

#[test]
fn a_label_not_on_the_menu_is_located_with_the_menu_and_near_matches() {
    let text = "scenario \"typo\"\nplay \"place Cell(1, 1)\"\n  play \"place Cell(0,0)\"   # no space\n";
    let report = run("tic_tac_toe", text);
    assert_eq!((report.passed(), report.failed()), (0, 1));
    let out = report.render_text();
    for expected in [
        "test typo ... FAILED",
        "tic_tac_toe.scenarios:3:3: \"place Cell(0,0)\" is not on the menu of player 1",
        "3 |   play \"place Cell(0,0)\"   # no space",
        "  |   ^^^^^^^^^^^^^^^^^^^^^^\n",
        "near matches: \"place Cell(0, 0)\"",
        "the menu of player 1 (8 options):\n  1) place Cell(0, 0)\n",
        "the decisions taken (1):\n  1. player 0: place Cell(1, 1)\n",
        "test result: FAILED. 0 passed; 1 failed",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }
}

#[test]
fn failed_assertions_show_what_the_game_showed() {
    let cases: &[(&str, &[&str])] = &[
        ("result \"player 0 wins\"", &["2:1: the game is not over: player 0 decides"]),
        ("view \"Rules\" \"moves\" = \"3\"", &["Rules moves is \"0\", not \"3\""]),
        (
            "view \"Rules\" \"turns\" = \"3\"",
            &["Rules has no attribute \"turns\"; it shows:", "^\n  moves: 0\n"],
        ),
        ("view \"Board.Grid\" \"3,3\" = \"X\"", &["Board.Grid has no cell 3,3"]),
        (
            "view \"Score\" \"x\" = \"1\"",
            &["the view has no section \"Score\"; it has \"Board.Grid\", \"Rules\""],
        ),
        ("active 1", &["player 0 decides, not player 1"]),
        ("over", &["the game is not over: player 0 decides"]),
        ("log contains \"wins\"", &["no line of the log contains \"wins\"", "the log is empty"]),
        ("offered contains \"pass\"", &["player 0 is not offered an option containing \"pass\""]),
        ("not offered contains \"Cell(2\"", &["the options containing it:\n  place Cell(2, 0)\n"]),
        (
            "seat 0 sees \"nothing of the kind\"",
            &["seat 0 does not see \"nothing of the kind\"; what it sees:"],
        ),
        ("seat 0 does not see \"moves: 0\"", &["seat 0 sees \"moves: 0\", on these lines"]),
        ("seat 2 sees \"x\"", &["there is no seat 2: the game has 2 players"]),
        ("random 12", &["of the 12 decisions were taken, then the game is over"]),
    ];
    for (step, expected) in cases {
        let report = run("tic_tac_toe", &format!("scenario \"s\"\n{step}\n"));
        let out = report.render_text();
        assert_eq!(report.failed(), 1, "{step} should fail:\n{out}");
        assert!(out.contains("tic_tac_toe.scenarios:2:1: "), "{step}: not located:\n{out}");
        for e in *expected {
            assert!(out.contains(e), "{step}: missing {e:?} in:\n{out}");
        }
    }
    // After the end, nobody decides; the result says how it ended.
    let report = run("tic_tac_toe", "scenario \"s\"\nrandom until over\nplay \"place Cell(0, 0)\"\n");
    assert!(
        report
            .render_text()
            .contains("nobody decides, so nobody can play \"place Cell(0, 0)\": the game is over (")
    );
    // Parameters and players the game refuses fail where they are given.
    let report = run("tic_tac_toe", "scenario \"s\"\nplayers 3\n");
    assert!(
        report.render_text().contains(":2:1: the game does not start: this game is for 2 players, not 3")
    );
    let report = run("goofspiel", "scenario \"s\"\nparam num_cards = 4\nparam points_order = sideways\n");
    assert!(report.render_text().contains(":3:1: the game refuses this parameter: `points_order` takes"));
}

#[test]
fn malformed_files_give_located_errors() {
    let report = run("tic_tac_toe", "scenario \"s\"\nover\nplay place\n");
    assert!(!report.ok());
    assert_eq!(report.errors().count(), 1);
    let out = report.render_text();
    assert!(
        out.contains(
            "tic_tac_toe.scenarios:3:6: expected the option's label, in double quotes: write \"place\""
        ),
        "{out}"
    );
    assert!(out.contains("3 | play place\n  |      ^^^^^\n"), "{out}");
    assert!(out.contains("test result: FAILED. 0 passed; 0 failed; 1 file not read"), "{out}");
    let json = report.to_json();
    assert_eq!(json["errors"][0]["line"], 3);
    assert_eq!(json["errors"][0]["column"], 6);
    assert_eq!(json["errors"][0]["source"], "play place");
}

#[test]
fn the_report_and_its_json_keep_their_shape() {
    let text = "scenario \"passes\"\nplay \"place Cell(1, 1)\"\nactive 1\n\nscenario \"fails\"\nplay \"place Cell(1, 1)\"\nactive 0\n";
    let report = run("tic_tac_toe", text);
    let out = report.render_text();
    assert!(
        out.starts_with("\nrunning 2 scenarios (tic_tac_toe.scenarios)\ntest passes ... ok\ntest fails ... FAILED\n\nfailures:\n\n---- fails ----\n"),
        "{out}"
    );
    assert!(
        out.ends_with(
            "\nfailures:\n    fails (tic_tac_toe.scenarios:5)\n\ntest result: FAILED. 1 passed; 1 failed\n"
        ),
        "{out}"
    );
    let json = report.to_json();
    let keys = |v: &serde_json::Value| v.as_object().expect("an object").keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&json), ["errors", "failed", "passed", "scenarios"]);
    assert_eq!((json["passed"].as_u64(), json["failed"].as_u64()), (Some(1), Some(1)));
    let scenarios = json["scenarios"].as_array().expect("scenarios");
    assert_eq!(keys(&scenarios[0]), ["failure", "file", "line", "name", "passed"]);
    assert_eq!(scenarios[0]["failure"], serde_json::Value::Null);
    assert_eq!(scenarios[1]["name"], "fails");
    assert_eq!(scenarios[1]["passed"], false);
    let failure = &scenarios[1]["failure"];
    assert_eq!(keys(failure), ["column", "decisions", "file", "line", "message", "source"]);
    assert_eq!((failure["line"].as_u64(), failure["column"].as_u64()), (Some(7), Some(1)));
    assert_eq!(failure["file"], "tic_tac_toe.scenarios");
    assert_eq!(failure["source"], "active 0");
    assert_eq!(failure["message"], "player 1 decides, not player 0");
    assert_eq!(failure["decisions"], serde_json::json!(["player 0: place Cell(1, 1)"]));
}

#[test]
fn the_same_file_gives_the_same_report() {
    // Agents are seeded from the scenario's seed: search and random play alike every run.
    let text = "scenario \"agents\"\nseed 5\nmcts:30 3\nrandom 2\nmcts:30 until over\nresult \"draw\"\n";
    let first = run("tic_tac_toe", text);
    for _ in 0..3 {
        assert_eq!(run("tic_tac_toe", text), first);
    }
    let again =
        run("connect_four", "scenario \"r\"\nseed 9\nrandom until over\nresult \"x\"\n").render_text();
    assert_eq!(
        run("connect_four", "scenario \"r\"\nseed 9\nrandom until over\nresult \"x\"\n").render_text(),
        again
    );
}

/// Plays a seeded game of every seat random with `play --record`, then runs the recorded
/// scenario: it passes, ending as the game did.
fn record_and_replay(example: &str, args: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("tgdl-record-{example}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("game.scenarios");
    let e = EXAMPLES.iter().find(|e| e.name == example).expect("an example");
    let mut all = vec!["play", "--seats", "random", "--record", path.to_str().expect("a UTF-8 path")];
    all.extend_from_slice(args);
    let (code, out) = (e.cli)(&all, "");
    assert_eq!(code, 0, "{out}");
    let recorded = std::fs::read_to_string(&path).expect("the recorded scenario");
    let report = (e.scenarios)(&[("game.scenarios".to_string(), recorded.clone())]);
    assert!(report.ok(), "{recorded}\n{}", report.render_text());
    let result = out.lines().last().and_then(|l| l.strip_prefix("result: ")).expect("a result line");
    assert!(recorded.ends_with(&format!("result \"{result}\"\n")), "{recorded}");
    let _ = std::fs::remove_dir_all(&dir);
    recorded
}

#[test]
fn a_recorded_game_replays_as_a_scenario() {
    let recorded = record_and_replay("crazy_eights", &["--seed", "3", "--players", "3"]);
    assert!(recorded.contains("\nplayers 3\nseed 3\nplay \""), "{recorded}");
    // Parameters are recorded, and rounds of simultaneous choices replay in seat order.
    let recorded = record_and_replay(
        "goofspiel",
        &["--seed", "4", "--param", "num_cards=4", "--param", "points_order=descending"],
    );
    assert!(recorded.contains("\nparam num_cards = 4\nparam points_order = descending\n"), "{recorded}");
}

/// For each mutant: the scenario of its example that catches it, and the step (as
/// written in the example's scenario file) where it fails.
const CAUGHT: &[(&str, &str, &str)] = &[
    (
        "chess_castles_through_attack",
        "castling is refused through an attacked square",
        "not offered \"e1-g1\"",
    ),
    ("tic_tac_toe_without_anti_diagonal", "the anti-diagonal wins", "over"),
    ("connect_four_overfills", "a full column takes no more discs", "not offered \"drop Slot(3, 0)\""),
    ("reversi_passes_at_will", "a player who can place may not pass", "not offered \"pass\""),
    ("crazy_eights_never_calls", "an eight's player calls the suit to follow", "offered \"call diamonds\""),
    ("crazy_eights_draws_four", "three draws a turn, then a pass", "not offered \"draw\""),
];

#[test]
fn mutants_fail_the_scenarios_that_pin_their_rule() {
    assert!(MUTANTS.len() >= 5);
    for mutant in MUTANTS {
        let &(_, scenario, step) = CAUGHT
            .iter()
            .find(|(name, _, _)| *name == mutant.name)
            .unwrap_or_else(|| panic!("{}: say which scenario catches it", mutant.name));
        let (path, text) = scenario_file(mutant.example).expect("the example's scenarios");
        // The step's line: the first after the scenario's own line that reads so.
        let start =
            text.lines().position(|l| l == format!("scenario \"{scenario}\"")).expect("the scenario") + 1;
        let line = text
            .lines()
            .enumerate()
            .skip(start)
            .find(|(_, l)| l.split('#').next().map(str::trim_end) == Some(step))
            .map(|(i, _)| i + 1)
            .unwrap_or_else(|| panic!("{}: no step {step:?} in {scenario:?}", mutant.name));
        let report = (mutant.scenarios)(&[(path.clone(), text)]);
        let run = report.files[0].runs.iter().find(|r| r.name == scenario).expect("the scenario ran");
        let Some(failure) = &run.failure else {
            panic!("{}: {scenario:?} passes against the mutant:\n{}", mutant.name, report.render_text());
        };
        assert_eq!(failure.at.line, line, "{}: fails elsewhere:\n{}", mutant.name, report.render_text());
        assert!(report.render_text().contains(&format!("{path}:{line}:1: ")), "{}: not located", mutant.name);
    }
}
