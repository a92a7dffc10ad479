//! `Engine` resolving inputs met in the middle of a move (and in `setup`) by replay: the
//! chance drawn before an input is drawn again identically, the log is not duplicated,
//! and a state cloned mid-move continues exactly like the original.

use tgdl_reference::{Duel, DuelGame};
use tgdl_runtime::game::{Game, Status};
use tgdl_runtime::rng::Rng;
use tgdl_runtime::{Engine, Player};

fn started(seed: u64) -> DuelGame {
    let mut game = DuelGame::start(2, seed).unwrap();
    assert_eq!(game.prompt(), "who starts?");
    assert_eq!(game.status(), Status::Decide(Player(0)));
    apply_labels(&mut game, &["player 0"]);
    game
}

#[test]
fn setup_input_is_a_decision() {
    let mut game = DuelGame::start(2, 1).unwrap();
    assert_eq!(game.decisions(), 0);
    apply_labels(&mut game, &["player 1"]);
    assert_eq!(game.decisions(), 1);
    assert_eq!(game.status(), Status::Decide(Player(1)));
    assert_eq!(game.prompt(), "choose a move");
    assert_eq!(game.log(), ["player 1 starts"]);
    let labels: Vec<String> = (0..game.options().len()).map(|i| game.label(i)).collect();
    assert_eq!(labels, ["attack with 1", "attack with 2", "attack with 3", "rest"]);
}

#[test]
fn input_in_the_middle_of_a_move_goes_to_the_defender() {
    let mut game = started(7);
    apply_labels(&mut game, &["attack with 2"]);
    assert_eq!(game.status(), Status::Decide(Player(1)));
    assert!(game.prompt().starts_with("block an attack of "), "{}", game.prompt());
    assert_eq!(game.log().len(), 2, "{:?}", game.log());
    let roll_line = game.log()[1].clone();
    assert!(roll_line.starts_with("player 0 attacks with 2 and rolls "));

    // The second question, to the attacker, in the same move.
    apply_labels(&mut game, &["yes"]);
    assert_eq!(game.status(), Status::Decide(Player(0)), "{:?}", game.error());
    assert_eq!(game.prompt(), "press on?");
    // Replaying the move drew the same roll and did not write its line twice.
    assert_eq!(game.log(), ["player 0 starts".to_string(), roll_line.clone()]);

    apply_labels(&mut game, &["yes"]);
    assert_eq!(game.status(), Status::Decide(Player(1)));
    assert_eq!(game.prompt(), "choose a move");
    assert_eq!(game.log().len(), 3);
    assert_eq!(game.log()[1], roll_line);
    assert!(game.log()[2].starts_with("player 0 presses on and rolls "));
    assert_eq!(game.decisions(), 4);
}

#[test]
fn a_state_cloned_mid_move_continues_identically() {
    let mut game = started(11);
    apply_labels(&mut game, &["attack with 3"]);
    let copy = game.clone();
    assert_eq!(copy, game);

    let mut a = game;
    let mut b = copy;
    let answers = ["yes", "yes", "rest", "attack with 1", "no", "attack with 2", "yes", "no"];
    for label in answers {
        apply_labels(&mut a, &[label]);
        apply_labels(&mut b, &[label]);
        assert_eq!(a, b, "after {label}");
        assert_eq!(a.log(), b.log());
        assert_eq!(a.prompt(), b.prompt());
    }

    // A branch with different answers shares the roll drawn before the question.
    let mut c = started(11);
    apply_labels(&mut c, &["attack with 3", "no"]);
    assert_eq!(c.log()[1], a.log()[1]);
    assert_ne!(c.world().score, a.world().score);
}

#[test]
fn same_seed_same_choices_same_game() {
    let play = |seed: u64| {
        let mut game = DuelGame::start(2, seed).unwrap();
        let mut chooser = Rng::new(seed);
        while let Status::Decide(_) = game.status() {
            let n = game.options().len() as u64;
            game.apply(chooser.below(n) as usize).unwrap();
        }
        game
    };
    let mut pressed = 0;
    for seed in 0..20 {
        let (a, b) = (play(seed), play(seed));
        assert_eq!(a, b);
        assert_eq!(a.status(), Status::Over, "{:?}", a.error());
        pressed += a.log().iter().filter(|l| l.contains("presses on")).count();
        assert_ne!(a.log(), play(seed + 100).log());
    }
    assert!(pressed > 0, "no game took the two-question path");
}

#[test]
fn world_is_reachable() {
    let game: Engine<Duel> = started(3);
    assert_eq!(game.world().score, [0, 0]);
    assert_eq!(game.world().turns, 0);
}

/// Applies the options whose labels are given, in order; panics with the available labels
/// when one is missing.
fn apply_labels<G: Game>(game: &mut G, labels: &[&str]) {
    for label in labels {
        let n = game.options().len();
        let Some(i) = (0..n).find(|&i| game.label(i) == *label) else {
            let have: Vec<String> = (0..n).map(|i| game.label(i)).collect();
            panic!("no option {label:?}; the options are {have:?}");
        };
        game.apply(i).expect("a listed option applies");
    }
}
