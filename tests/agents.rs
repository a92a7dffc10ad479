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
