//! The hand-written reference engines: perft, exhaustive game counts, labels, views.

use tgdl_runtime::game::{ApplyError, Game, Status};
use tgdl_runtime::perft::perft;
use tgdl_runtime::reference::{ConnectFour, TicTacToe};

#[test]
fn tic_tac_toe_perft() {
    let game = TicTacToe::start(2, 0).unwrap();
    assert_eq!(perft(&game, 9), [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]);
    // Deeper than the game lasts: no sequence is longer than 9.
    assert_eq!(perft(&game, 10)[9], 0);
    assert_eq!(perft(&game, 0), Vec::<u64>::new());
}

#[derive(Default, Debug, PartialEq, Eq)]
struct Counts {
    games: u64,
    first: u64,
    second: u64,
    draws: u64,
}

fn walk(game: &TicTacToe, counts: &mut Counts) {
    match game.status() {
        Status::Decide(_) => {
            for i in 0..game.options().len() {
                let mut next = game.clone();
                next.apply(i).unwrap();
                walk(&next, counts);
            }
        }
        Status::Over => {
            counts.games += 1;
            match game.outcome().unwrap().sole_winner() {
                Some(0) => counts.first += 1,
                Some(_) => counts.second += 1,
                None => counts.draws += 1,
            }
        }
        Status::Failed => panic!("tic-tac-toe failed: {:?}", game.error()),
    }
}

#[test]
fn tic_tac_toe_exhaustive_walk() {
    let mut counts = Counts::default();
    walk(&TicTacToe::start(2, 0).unwrap(), &mut counts);
    assert_eq!(counts, Counts { games: 255_168, first: 131_184, second: 77_904, draws: 46_080 });
}

#[test]
fn tic_tac_toe_rules() {
    assert!(TicTacToe::start(3, 0).is_err());
    let mut game = TicTacToe::start(2, 0).unwrap();
    assert_eq!(game.label(4), "X at (1, 1)");
    // X takes the top row while O plays the middle row.
    for cell in [0, 3, 1, 4, 2] {
        let i = game.options().iter().position(|c| matches!(c, tgdl_runtime::Choice::Move(p) if p.0 == cell));
        game.apply(i.unwrap()).unwrap();
    }
    assert_eq!(game.status(), Status::Over);
    assert_eq!(game.outcome().unwrap().describe(), "player 0 wins");
    assert_eq!(game.decisions(), 5);
    assert_eq!(game.apply(0), Err(ApplyError::NotDeciding));
    assert!(game.options().is_empty());
}

#[test]
fn connect_four_perft() {
    let game = ConnectFour::start(2, 0).unwrap();
    // The last level is counted without being played, so depth 7 is quick even in debug.
    assert_eq!(perft(&game, 7), [7, 49, 343, 2401, 16807, 117649, 823536]);
    // Serial (shallow) and parallel (deep) walks agree.
    assert_eq!(perft(&game, 3), perft(&game, 7)[..3]);
}

fn drop_in(game: &mut ConnectFour, column: u8) {
    assert!(matches!(game.status(), Status::Decide(_)), "the game ended: {:?}", game.outcome());
    let label = format!("drop in column {column}");
    let i = (0..game.options().len()).find(|&i| game.label(i) == label);
    game.apply(i.unwrap_or_else(|| panic!("column {column} is full"))).unwrap();
}

#[test]
fn connect_four_rules() {
    let mut game = ConnectFour::start(2, 0).unwrap();
    assert_eq!(game.apply(7), Err(ApplyError::OutOfRange { index: 7, options: 7 }));
    // Six discs fill column 0, which then leaves the options.
    for _ in 0..6 {
        drop_in(&mut game, 0);
    }
    assert_eq!(game.options().len(), 6);
    assert_eq!(game.label(0), "drop in column 1");
    // X: columns 2, 3, 4, 5 on the bottom row; O answers in column 6.
    for c in [2, 6, 3, 6, 4, 6] {
        drop_in(&mut game, c);
    }
    assert_eq!(game.status(), Status::Decide(tgdl_runtime::Player(0)));
    drop_in(&mut game, 5);
    assert_eq!(game.outcome().unwrap().describe(), "player 0 wins");
}

#[test]
fn connect_four_diagonal_and_draw() {
    // O (player 1) connects (1,0), (2,1), (3,2), (4,3).
    let mut game = ConnectFour::start(2, 0).unwrap();
    for c in [0, 1, 2, 2, 3, 3, 4, 3, 4, 4, 6, 4] {
        drop_in(&mut game, c);
    }
    assert_eq!(game.outcome().unwrap().describe(), "player 1 wins");

    // Columns filled X X X O O O / O O O X X X (bottom up) in the pattern A A B A A B A.
    let mut game = ConnectFour::start(2, 0).unwrap();
    let moves = [
        0, 2, 0, 2, 0, 0, 1, 0, 1, 0, 1, 1, 3, 1, 3, 1, 3, 2, 2, 3, 2, 3, 2, 3, 4, 5, 4, 5, 4, 4, 6, 4, 6, 4,
        6, 5, 5, 6, 5, 6, 5, 6,
    ];
    for c in moves {
        drop_in(&mut game, c);
    }
    assert_eq!(game.decisions(), 42);
    assert_eq!(game.outcome().unwrap().describe(), "draw");
}

#[test]
fn views_draw_the_board() {
    let mut game = ConnectFour::start(2, 0).unwrap();
    game.apply(3).unwrap();
    let text = tgdl_runtime::render::render_view(&game.view());
    assert!(text.starts_with("== Connect four ==\nplayer 1 to play\n"), "{text}");
    assert!(text.ends_with("5  .  .  .  X  .  .  .\n"), "{text}");
}
