//! The hand-written reference engines: perft, exhaustive game counts, labels, views.

use tgdl_play::perft::perft;
use tgdl_reference::{Breakthrough, ConnectFour, Reversi, TicTacToe};
use tgdl_runtime::game::{ApplyError, Game, Status};
use tgdl_runtime::rng::Rng;

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
        Status::Failed | Status::Chance => panic!("tic-tac-toe failed: {:?}", game.error()),
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
    let text = tgdl_play::render::render_view(&game.view());
    assert!(text.starts_with("== Connect four ==\nplayer 1 to play\n"), "{text}");
    assert!(text.ends_with("5  .  .  .  X  .  .  .\n"), "{text}");
}

/// Plays the option labelled `label`.
fn play<G: Game>(game: &mut G, label: &str) {
    assert!(matches!(game.status(), Status::Decide(_)), "the game ended: {:?}", game.outcome());
    let labels = game.labels();
    let i = labels.iter().position(|l| l == label);
    game.apply(i.unwrap_or_else(|| panic!("no option `{label}` among {labels:?}"))).unwrap();
}

#[test]
fn breakthrough_perft() {
    let game = Breakthrough::start(2, 0).unwrap();
    let depth = if cfg!(debug_assertions) { 4 } else { 5 };
    let published = [22, 484, 11_132, 256_036, 6_182_818];
    assert_eq!(perft(&game, depth), published[..depth as usize]);
}

#[test]
fn breakthrough_rules() {
    assert!(Breakthrough::start(3, 0).is_err());
    let mut game = Breakthrough::start(2, 0).unwrap();
    assert_eq!(game.options().len(), 22);
    // Pawns in square order, each pawn's steps left to right; the back row is blocked.
    let labels = game.labels();
    assert_eq!(labels[0], "step from=Square(0, 6) to=Square(0, 5)");
    assert_eq!(labels[1], "step from=Square(0, 6) to=Square(1, 5)");
    assert_eq!(labels[2], "step from=Square(1, 6) to=Square(0, 5)");
    assert_eq!(labels[21], "step from=Square(7, 6) to=Square(7, 5)");
    assert_eq!(game.prompt(), "choose a move");
    // W marches up column 0 while B advances on column 7.
    for (w, b) in [((0, 6), (7, 1)), ((0, 5), (7, 2)), ((0, 4), (7, 3)), ((0, 3), (7, 4))] {
        play(&mut game, &format!("step from=Square(0, {}) to=Square(0, {})", w.1, w.1 - 1));
        play(&mut game, &format!("step from=Square(7, {}) to=Square(7, {})", b.1, b.1 + 1));
    }
    // Pawns ahead block straight steps: W at (0, 2) may only capture on (1, 1).
    let from_front: Vec<String> =
        game.labels().into_iter().filter(|l| l.starts_with("step from=Square(0, 2)")).collect();
    assert_eq!(from_front, ["step from=Square(0, 2) to=Square(1, 1)"]);
    play(&mut game, "step from=Square(0, 2) to=Square(1, 1)");
    assert_eq!((game.pawns(0), game.pawns(1)), (16, 15));
    play(&mut game, "step from=Square(7, 5) to=Square(6, 6)");
    assert_eq!((game.pawns(0), game.pawns(1)), (15, 15));
    assert_eq!(game.cell(6, 6), Some(1));
    assert_eq!(game.status(), Status::Decide(tgdl_runtime::Player(0)));
    // Capturing onto the far row wins.
    play(&mut game, "step from=Square(1, 1) to=Square(0, 0)");
    assert_eq!(game.outcome().unwrap().describe(), "player 0 wins");
    assert_eq!(game.decisions(), 11);
    assert!(game.options().is_empty());
    assert_eq!(game.apply(0), Err(ApplyError::NotDeciding));
    let text = tgdl_play::render::render_view(&game.view());
    assert!(text.starts_with("== Breakthrough ==\n"), "{text}");
}

#[test]
fn breakthrough_random_games_end_by_a_win() {
    // Every game ends with a pawn on the far row or the last enemy pawn taken.
    let (mut far_row, mut wiped_out) = (0, 0);
    for seed in 0..300 {
        let mut game = Breakthrough::start(2, seed).unwrap();
        let mut rng = Rng::new(seed);
        while let Status::Decide(_) = game.status() {
            game.apply(rng.below(game.options().len() as u64) as usize).unwrap();
        }
        let winner = game.outcome().unwrap().sole_winner().expect("no draws") as u8;
        let goal = if winner == 0 { 0 } else { 7 };
        if (0..8).any(|x| game.cell(x, goal) == Some(winner)) {
            far_row += 1;
        } else {
            assert_eq!(game.pawns(1 - winner), 0, "seed {seed}");
            wiped_out += 1;
        }
        assert!(game.pawns(winner) > 0);
    }
    assert_eq!(far_row + wiped_out, 300);
    assert!(far_row > 250, "{far_row} {wiped_out}");
}

#[test]
fn reversi_perft() {
    let game = Reversi::start(2, 0).unwrap();
    let depth = if cfg!(debug_assertions) { 8 } else { 9 };
    let published = [4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288];
    assert_eq!(perft(&game, depth), published[..depth as usize]);
}

#[test]
fn reversi_rules() {
    assert!(Reversi::start(1, 0).is_err());
    let mut game = Reversi::start(2, 0).unwrap();
    assert_eq!(
        game.labels(),
        ["place Square(3, 2)", "place Square(2, 3)", "place Square(5, 4)", "place Square(4, 5)"]
    );
    play(&mut game, "place Square(3, 2)");
    // B's disc turned over W's on (3, 3).
    assert_eq!((game.discs(0), game.discs(1)), (4, 1));
    assert_eq!(game.cell(3, 3), Some(0));
    assert_eq!(game.labels(), ["place Square(2, 2)", "place Square(4, 2)", "place Square(2, 4)"]);
    play(&mut game, "place Square(2, 2)");
    assert_eq!((game.discs(0), game.discs(1)), (3, 3));
    assert_eq!(game.cell(3, 3), Some(1));
    let text = tgdl_play::render::render_view(&game.view());
    assert!(text.starts_with("== Reversi ==\nplayer 0 to play\n"), "{text}");
}

#[test]
fn reversi_passes_and_ends_by_the_count() {
    let (mut passes, mut draws, mut full) = (0, 0, 0);
    for seed in 0..300 {
        let mut game = Reversi::start(2, seed).unwrap();
        let mut rng = Rng::new(seed);
        while let Status::Decide(p) = game.status() {
            if game.labels() == ["pass"] {
                passes += 1;
                game.apply(0).unwrap();
                // The other player placed last and can place again: never two passes.
                assert_eq!(game.status(), Status::Decide(tgdl_runtime::Player(1 - p.0)));
                assert!(game.labels().iter().all(|l| l.starts_with("place ")), "seed {seed}");
                continue;
            }
            game.apply(rng.below(game.options().len() as u64) as usize).unwrap();
        }
        let (b, w) = (game.discs(0), game.discs(1));
        let on_board =
            (0..8).flat_map(|y| (0..8).map(move |x| (x, y))).filter(|&(x, y)| game.cell(x, y).is_some());
        assert_eq!(on_board.count(), (b + w) as usize, "seed {seed}");
        full += usize::from(b + w == 64);
        let outcome = game.outcome().unwrap();
        match b.cmp(&w) {
            std::cmp::Ordering::Greater => assert_eq!(outcome.sole_winner(), Some(0)),
            std::cmp::Ordering::Less => assert_eq!(outcome.sole_winner(), Some(1)),
            std::cmp::Ordering::Equal => {
                assert!(outcome.is_draw());
                draws += 1;
            }
        }
    }
    // Random Reversi mostly fills the board; some games pass, a few are drawn.
    assert!(passes > 50 && draws > 3 && full > 250, "{passes} passes, {draws} draws, {full} full");
}
