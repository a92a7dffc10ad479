//! Engines side by side: an engine agrees with itself over whole games, and two engines
//! that differ are told apart at the first decision where they do, naming what differs.

use tgdl_play::RandomAgent;
use tgdl_play::compare::{Compare, side_by_side};
use tgdl_reference::{Breakthrough, ConnectFour, TicTacToe};
use tgdl_runtime::{Game, Status};

const HOW: Compare = Compare { same_moves: true, max_decisions: 1_000 };

#[test]
fn an_engine_agrees_with_itself_over_whole_games() {
    for seed in 0..20 {
        let mut agent = RandomAgent::new(seed);
        let (a, b) = (ConnectFour::start(2, seed).unwrap(), ConnectFour::start(2, seed).unwrap());
        let (end, decisions) =
            side_by_side(a, b, seed, HOW, |_, _, labels| agent.pick(labels.len()).unwrap()).unwrap();
        assert!(matches!(end.status(), Status::Over), "seed {seed}");
        assert!(decisions >= 7, "seed {seed}: a connect-four game lasts 7 decisions at least");
    }
}

#[test]
fn the_first_difference_is_named() {
    let (a, b) = (TicTacToe::start(2, 0).unwrap(), ConnectFour::start(2, 0).unwrap());
    let error = side_by_side(a, b, 0, HOW, |_, _, _| 0).map(|(_, n)| n).expect_err("two games differ");
    assert!(error.starts_with("before decision 0: labels differ from item 0 on (of 9 and 7)"), "{error}");
}

#[test]
fn the_decision_count_stops_a_game_that_would_go_on() {
    let (a, b) = (Breakthrough::start(2, 1).unwrap(), Breakthrough::start(2, 1).unwrap());
    let how = Compare { max_decisions: 5, ..HOW };
    let (end, decisions) = side_by_side(a, b, 1, how, |_, _, _| 0).unwrap();
    assert_eq!(decisions, 5);
    assert!(matches!(end.status(), Status::Decide(_)));
}
