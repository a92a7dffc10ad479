//! `simulate` and `perft` through the game binaries' command line (in process): the same
//! seed gives the same statistics on any number of threads, perft matches the published
//! figures, and the balance report shows connect four's first-player advantage.

use serde_json::Value;
use tgdl_tests::{EXAMPLES, Example, tic_tac_toe};

fn example(name: &str) -> &'static Example {
    EXAMPLES.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("no example `{name}`"))
}

/// Runs the game's command line; returns the one JSON object it printed.
fn json_of(example: &Example, args: &[&str]) -> Value {
    let (code, out) = (example.cli)(args, "");
    assert_eq!(code, 0, "{} {args:?} exited with {code}:\n{out}", example.name);
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{} {args:?}: {e}:\n{out}", example.name))
}

/// `simulate --json` without the two fields that depend on the run (the clock).
fn simulate(example: &Example, games: u64, threads: usize) -> Value {
    simulate_seed(example, games, threads, 7)
}

fn simulate_seed(example: &Example, games: u64, threads: usize, seed: u64) -> Value {
    let (games, threads, seed) = (games.to_string(), threads.to_string(), seed.to_string());
    let mut report =
        json_of(example, &["simulate", "-n", &games, "--seed", &seed, "--threads", &threads, "--json"]);
    let fields = report.as_object_mut().expect("a JSON object");
    for timing in ["seconds", "games_per_sec"] {
        assert!(fields.remove(timing).is_some_and(|v| v.is_number()), "{}: `{timing}`", example.name);
    }
    report
}

/// Games of an example's report: 2,000, but random chess games are long (some 400
/// moves, each trying every pair of squares) and debug builds slow, so 50 of those.
fn report_games(example: &Example) -> u64 {
    if example.name == "chess" { 50 } else { 2000 }
}

#[test]
fn simulation_gives_the_same_report_on_one_or_two_threads() {
    // Every example's report, kept as a snapshot: a change to the compiler or the
    // runtime that changes how any example plays shows up here (review it: a changed
    // report is only right when the rules or the random choices meant to change).
    let mut reports = String::new();
    for example in EXAMPLES {
        let games = report_games(example);
        let one = simulate(example, games, 1);
        reports.push_str(&format!("{}: {one}\n", example.name));
        let two = simulate(example, games, 2);
        assert_eq!(one, two, "{}: the statistics depend on the thread count", example.name);
        // The report is about these games, and none hit a rule error or the budget.
        assert_eq!(one["games"], games, "{}", example.name);
        assert_eq!(one["errors"], serde_json::json!([]), "{}", example.name);
        assert_eq!(one["unfinished"], 0, "{}", example.name);
        let wins: u64 = one["wins"].as_array().expect("wins").iter().filter_map(Value::as_u64).sum();
        let draws = one["draws"].as_u64().expect("draws");
        assert!(wins + draws <= games, "{}: {one}", example.name);
        // Another seed plays other games (a twentieth of them show it). A game of a few
        // outcomes can give two seeds the same counts by chance: one of two other seeds
        // must differ.
        let first = simulate_seed(example, games / 20, 1, 7);
        let differs = [8, 9].into_iter().any(|seed| {
            let mut other = simulate_seed(example, games / 20, 1, seed);
            other["seed"] = 7.into();
            other != first
        });
        assert!(differs, "{}: the seed changes the games", example.name);
    }
    // Kept in `tests/snapshots/` under the name it had when this file was a test binary of
    // its own (`simulate`), not under this module's path.
    insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("simulate__reports_of_2000_games_seed_7", reports);
    });
}

fn perft(example: &Example, depth: u32) -> Vec<u64> {
    let report = json_of(example, &["perft", "--depth", &depth.to_string(), "--json"]);
    report["perft"]
        .as_array()
        .expect("`perft` is a list")
        .iter()
        .map(|n| n.as_u64().expect("a count"))
        .collect()
}

#[test]
fn perft_of_generated_tic_tac_toe_to_depth_9() {
    let counts = perft(example("tic_tac_toe"), 9);
    assert_eq!(counts, [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]);
    // The command line and the library agree.
    let game = <tic_tac_toe::Game as tgdl_runtime::Game>::start(2, 0).expect("2 players");
    assert_eq!(tgdl_play::perft(&game, 9), counts);
}

/// Connect four has no early ends before depth 7, so every count is a power of 7.
const CONNECT_FOUR_PERFT: [u64; 7] = [7, 49, 343, 2401, 16807, 117649, 823536];

#[test]
fn perft_of_generated_connect_four_to_depth_7() {
    assert_eq!(perft(example("connect_four"), 7), CONNECT_FOUR_PERFT);
}

/// Random connect four favours the first player: about 55.8% wins against 44.0% (and
/// 0.2% draws). Over `n` games the difference of wins has mean 0.118·n and standard
/// deviation about 0.99·√n: for 4,000 games, 472 ± 63. Asking for a lead of 4% of the
/// games (160) is five standard deviations below the mean, so no seed would fail it by
/// chance (and the seed here is fixed, so the test is deterministic anyway). It is also
/// what the report says by itself: the 95% intervals of the two seats do not overlap.
#[test]
fn balance_report_shows_the_first_players_advantage_in_connect_four() {
    let games = 4000;
    let report = json_of(
        example("connect_four"),
        &["simulate", "-n", &games.to_string(), "--seed", "1", "--threads", "2", "--json"],
    );
    let wins: Vec<u64> =
        report["wins"].as_array().expect("wins").iter().map(|w| w.as_u64().expect("a count")).collect();
    assert_eq!(wins.len(), 2);
    assert!(wins[0] > wins[1] + games / 25, "first player's lead too small: {wins:?}");
    assert!(wins[0] + wins[1] + report["draws"].as_u64().expect("draws") == games, "{report}");
    let interval = |seat: usize| {
        let ci = &report["wins_ci95"][seat];
        (ci[0].as_f64().expect("lower bound"), ci[1].as_f64().expect("upper bound"))
    };
    let (first, second) = (interval(0), interval(1));
    assert!(first.0 > second.1, "the 95% intervals overlap: {first:?} {second:?}");
    assert!(first.0 < 0.558 && 0.558 < first.1, "seat 0 wins about 55.8%: {first:?}");
    // Places agree with wins: a sole winner is in first place, the loser in second.
    assert_eq!(report["places"][0][0], wins[0] + report["draws"].as_u64().expect("draws"));
    // Games last at least 7 decisions (four discs of the first player) and at most 42.
    assert!(
        report["min_length"].as_u64() >= Some(7) && report["max_length"].as_u64() <= Some(42),
        "{report}"
    );
}

/// The program of the compiler benchmark (`benches/compiler.rs`) must stay a valid game of
/// over a thousand lines, without warnings, as the language evolves.
#[test]
fn the_large_benchmark_program_checks() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/large.tgdl");
    let text = std::fs::read_to_string(&path).expect("tests/data/large.tgdl");
    assert!(text.lines().count() >= 1000, "the large program has {} lines", text.lines().count());
    let compilation = tgdl_compiler::check_file(&path);
    assert!(compilation.diagnostics.is_empty(), "{}", compilation.render(false));
    assert!(tgdl_compiler::generate_file(&path).is_ok());
}
