//! The search agent (notes §5) by seeded play against the random agent, through the game
//! binaries' command line (in process). Full size (200 tic-tac-toe games a seat, 100
//! connect-four games) needs an optimised build: `.ci/run` runs this file with
//! `--release`; a debug build plays fewer games with smaller budgets.

use tgdl_tests::{EXAMPLES, Example};

fn example(name: &str) -> &'static Example {
    EXAMPLES.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("no example `{name}`"))
}

const FULL: bool = !cfg!(debug_assertions);

/// Plays one game; returns its `result:` text.
fn result(e: &Example, seats: &str, seed: u64) -> String {
    let (code, out) = (e.cli)(&["play", "--seats", seats, "--seed", &seed.to_string()], "");
    let last = out.lines().last().unwrap_or_default().to_string();
    assert_eq!(code, 0, "{seats} seed {seed}: {out}");
    last.strip_prefix("result: ").unwrap_or_else(|| panic!("{out}")).to_string()
}

#[test]
fn mcts_never_loses_tic_tac_toe_to_random() {
    let e = example("tic_tac_toe");
    let (games, budget) = if FULL { (200, "mcts:2000") } else { (6, "mcts:500") };
    for seat in 0..2 {
        let seats = if seat == 0 { format!("{budget},random") } else { format!("random,{budget}") };
        for seed in 0..games {
            let r = result(e, &seats, seed);
            assert!(r == format!("player {seat} wins") || r == "draw", "{seats} seed {seed}: {r}");
        }
    }
}

#[test]
fn mcts_beats_random_at_connect_four() {
    let e = example("connect_four");
    let (games, budget) = if FULL { (100, "mcts:1000") } else { (4, "mcts:200") };
    let mut wins = 0;
    for seed in 0..games {
        let seats = if seed % 2 == 0 { format!("{budget},random") } else { format!("random,{budget}") };
        if result(e, &seats, seed) == format!("player {} wins", seed % 2) {
            wins += 1;
        }
    }
    assert!(wins * 100 >= games * 95, "{wins} of {games}");
}

#[test]
fn mcts_plays_card_games_on_what_its_seat_sees() {
    // Information-set search over determinizations: it plays to the end, and better than
    // chance against a random player.
    let e = example("crazy_eights");
    let (games, budget) = if FULL { (40, "mcts:300") } else { (2, "mcts:50") };
    let mut wins = 0;
    for seed in 0..games {
        if result(e, &format!("{budget},random"), seed) == "player 0 wins" {
            wins += 1;
        }
    }
    if FULL {
        assert!(wins * 10 >= games * 7, "{wins} of {games}");
    }
}

#[test]
fn mcts_refuses_a_game_masters_secret() {
    let e = example("buckets");
    let (code, out) = (e.cli)(&["play", "--seats", "mcts,random", "--seed", "4"], "");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the secret `Rule.in_force` is hidden from every player"), "{out}");
}

#[test]
fn mcts_is_deterministic_for_a_seed() {
    let e = example("connect_four");
    let play = || (e.cli)(&["play", "--seats", "mcts:100,mcts:150", "--seed", "9", "-v"], "");
    let (first, second) = (play(), play());
    assert_eq!(first, second);
    assert!(first.1.contains("result: "), "{}", first.1);
}

#[test]
fn seat_names_are_checked() {
    let e = example("tic_tac_toe");
    for bad in ["mcts:0", "mcts:x", "mcts:-1s", "robot"] {
        let (code, out) = (e.cli)(&["play", "--seats", bad], "");
        assert_eq!(code, 2, "{bad}: {out}");
    }
}

/// `tournament --json` without the fields that depend on the clock.
fn tournament(e: &Example, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["tournament"];
    all.extend_from_slice(args);
    let (code, out) = (e.cli)(&all, "");
    assert_eq!(code, 0, "{args:?}: {out}");
    let mut v: serde_json::Value =
        serde_json::from_str(out.trim()).unwrap_or_else(|err| panic!("{err}: {out}"));
    let fields = v.as_object_mut().unwrap();
    for timing in ["seconds", "decisions_per_sec"] {
        assert!(fields.remove(timing).is_some_and(|t| t.is_number()), "{timing}");
    }
    v
}

#[test]
fn a_tournament_rotates_the_seats_and_counts_per_agent() {
    let e = example("connect_four");
    let games = if FULL { "40" } else { "6" };
    let one = tournament(
        e,
        &["--seats", "mcts:100,random", "-n", games, "--seed", "3", "--json", "--threads", "1"],
    );
    let two = tournament(
        e,
        &["--seats", "mcts:100,random", "-n", games, "--seed", "3", "--json", "--threads", "2"],
    );
    assert_eq!(one, two, "the report does not depend on the threads");
    let n: u64 = games.parse().unwrap();
    let agents = one["agents"].as_array().unwrap();
    assert_eq!(agents[0]["agent"], "mcts:100");
    // Each agent took each seat in half the games.
    assert_eq!(agents[0]["games_by_seat"], serde_json::json!([n / 2, n / 2]));
    let wins = agents[0]["wins"].as_u64().unwrap();
    assert!(wins * 10 >= n * 8, "{one}");
    let seat_wins: u64 = one["wins_by_seat"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).sum();
    assert_eq!(seat_wins + one["draws"].as_u64().unwrap(), n);
    let ci = agents[0]["wins_ci95"].as_array().unwrap();
    assert!(
        ci[0].as_f64().unwrap() <= wins as f64 / n as f64
            && wins as f64 / n as f64 <= ci[1].as_f64().unwrap()
    );
}

#[test]
fn a_tournament_is_for_agents() {
    let e = example("tic_tac_toe");
    let (code, _) = (e.cli)(&["tournament", "--seats", "human,random", "-n", "2"], "");
    assert_eq!(code, 2);
    let (code, _) = (e.cli)(&["tournament", "--seats", "random,random,random", "-n", "2"], "");
    assert_eq!(code, 2, "tic-tac-toe is for two");
}
