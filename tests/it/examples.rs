//! Every example checks, builds and plays to its end; tic-tac-toe, connect four,
//! Breakthrough and Reversi are compared move for move with hand-written reference engines.

use tgdl_play::perft;
use tgdl_reference::{Breakthrough, ConnectFour, Reversi, TicTacToe};
use tgdl_runtime::{Game, Rng, Status};
use tgdl_tests::{EXAMPLES, Ending, connect_four, tic_tac_toe};

#[test]
fn every_example_plays_to_its_end() {
    assert!(EXAMPLES.len() >= 2);
    for example in EXAMPLES {
        let info = (example.engine)();
        for players in [info.min_players, info.max_players] {
            for seed in 0..20 {
                match (example.playout)(players, seed, 10_000) {
                    Ending::Over { places, decisions } => {
                        let mut all: Vec<u32> = places.concat();
                        all.sort_unstable();
                        assert_eq!(
                            all,
                            (0..players).collect::<Vec<_>>(),
                            "{}: every player placed once",
                            example.name
                        );
                        assert!(decisions > 0);
                    }
                    other => panic!("{} with {players} players, seed {seed}: {other:?}", example.name),
                }
            }
        }
    }
}

/// Plays random option indices through two engines of the same game and checks that
/// they offer the same number of options at every step and end the same way.
fn same_game<A: Game, B: Game>(seed: u64) -> (Option<Vec<Vec<u32>>>, u64) {
    let mut a = A::start(2, seed).expect("2 players");
    let mut b = B::start(2, seed).expect("2 players");
    let mut rng = Rng::new(seed);
    loop {
        match (a.status(), b.status()) {
            (Status::Decide(pa), Status::Decide(pb)) => {
                assert_eq!(pa, pb, "seed {seed}: the same player decides");
                let n = a.options().len();
                assert_eq!(
                    n,
                    b.options().len(),
                    "seed {seed}: the same number of options after {} decisions",
                    a.decisions()
                );
                let i = rng.below(n as u64) as usize;
                a.apply(i).expect("a listed option");
                b.apply(i).expect("a listed option");
            }
            (Status::Over, Status::Over) => {
                let (oa, ob) = (a.outcome().cloned(), b.outcome().cloned());
                assert_eq!(oa, ob, "seed {seed}: the same result");
                return (oa.map(|o| o.places), a.decisions());
            }
            (sa, sb) => panic!("seed {seed}: generated engine {sa:?} ({:?}), reference {sb:?}", a.error()),
        }
    }
}

#[test]
fn tic_tac_toe_matches_the_reference_engine() {
    let mut wins = [0; 3];
    for seed in 0..2000 {
        let (places, _) = same_game::<tic_tac_toe::Game, TicTacToe>(seed);
        let places = places.expect("over");
        wins[if places.len() == 1 { 2 } else { places[0][0] as usize }] += 1;
    }
    // Random tic-tac-toe: about 58% first player, 29% second, 13% draws.
    assert!(wins[0] > 1050 && wins[0] < 1300, "{wins:?}");
    assert!(wins[1] > 480 && wins[1] < 680, "{wins:?}");
    assert!(wins[2] > 170 && wins[2] < 350, "{wins:?}");
}

#[test]
fn connect_four_matches_the_reference_engine() {
    for seed in 0..500 {
        same_game::<connect_four::Game, ConnectFour>(seed);
    }
}

/// [`same_game`], and the two engines label every option alike.
fn same_labels<A: Game, B: Game>(seed: u64) {
    let mut a = A::start(2, seed).expect("2 players");
    let mut b = B::start(2, seed).expect("2 players");
    let mut rng = Rng::new(seed);
    while let Status::Decide(_) = a.status() {
        let labels = a.labels();
        assert_eq!(labels, b.labels(), "seed {seed}: the same labels after {} decisions", a.decisions());
        assert_eq!(a.prompt(), b.prompt());
        let i = rng.below(labels.len() as u64) as usize;
        a.apply(i).expect("a listed option");
        b.apply(i).expect("a listed option");
    }
    assert_eq!(a.outcome(), b.outcome(), "seed {seed}");
}

#[test]
fn breakthrough_matches_the_reference_engine() {
    let mut wins = [0; 2];
    for seed in 0..200 {
        let (places, decisions) = same_game::<tgdl_tests::breakthrough::Game, Breakthrough>(seed);
        let places = places.expect("over");
        assert_eq!(places.len(), 2, "seed {seed}: Breakthrough has no draws");
        wins[places[0][0] as usize] += 1;
        assert!(decisions > 10, "seed {seed}: {decisions} decisions");
    }
    // Both sides win random games.
    assert!(wins[0] > 50 && wins[1] > 50, "{wins:?}");
    for seed in 0..10 {
        same_labels::<tgdl_tests::breakthrough::Game, Breakthrough>(seed);
    }
}

#[test]
fn reversi_matches_the_reference_engine() {
    let mut results = [0; 3];
    for seed in 0..200 {
        let (places, _) = same_game::<tgdl_tests::reversi::Game, Reversi>(seed);
        let places = places.expect("over");
        results[if places.len() == 1 { 2 } else { places[0][0] as usize }] += 1;
    }
    // Both sides win random games, and some are drawn (32 discs each).
    assert!(results[0] > 50 && results[1] > 50 && results[2] > 0, "{results:?}");
    for seed in 0..10 {
        same_labels::<tgdl_tests::reversi::Game, Reversi>(seed);
    }
}

#[test]
fn tic_tac_toe_perft_counts_the_published_figures() {
    let game = tic_tac_toe::Game::start(2, 0).expect("2 players");
    assert_eq!(perft(&game, 9), vec![9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]);
}

#[test]
fn tic_tac_toe_exhaustive_walk_counts_every_game() {
    // Walks every move sequence with option enumeration and state cloning.
    fn walk(game: &tic_tac_toe::Game, counts: &mut [u64; 4]) {
        match game.status() {
            Status::Over => {
                let o = game.outcome().expect("over");
                counts[0] += 1;
                match o.sole_winner() {
                    Some(0) => counts[1] += 1,
                    Some(_) => counts[2] += 1,
                    None => counts[3] += 1,
                }
            }
            Status::Decide(_) => {
                for i in 0..game.options().len() {
                    let mut next = game.clone();
                    next.apply(i).expect("a listed option");
                    walk(&next, counts);
                }
            }
            Status::Failed | Status::Chance => panic!("rule error: {:?}", game.error()),
        }
    }
    let mut counts = [0u64; 4];
    walk(&tic_tac_toe::Game::start(2, 0).expect("2 players"), &mut counts);
    assert_eq!(counts, [255_168, 131_184, 77_904, 46_080]);
}

#[test]
fn connect_four_perft_to_depth_five() {
    let game = connect_four::Game::start(2, 0).expect("2 players");
    assert_eq!(perft(&game, 5), vec![7, 49, 343, 2401, 16807]);
}

#[test]
fn the_same_seed_gives_the_same_game() {
    for example in EXAMPLES {
        let info = (example.engine)();
        for seed in [1, 7, 42] {
            let a = (example.playout)(info.min_players, seed, 10_000);
            let b = (example.playout)(info.min_players, seed, 10_000);
            assert_eq!(a, b, "{} seed {seed}", example.name);
        }
    }
}

#[test]
fn a_state_cloned_mid_game_continues_identically() {
    let mut game = connect_four::Game::start(2, 3).expect("2 players");
    for i in [3, 3, 2, 4] {
        game.apply(i).expect("a listed option");
    }
    let mut copy = game.clone();
    for i in [0, 1, 5, 2, 3] {
        game.apply(i % game.options().len()).expect("valid");
        copy.apply(i % copy.options().len()).expect("valid");
        assert_eq!(game.view(), copy.view());
    }
}

#[test]
fn a_game_cloned_in_the_middle_of_an_effect_continues_identically() {
    use tgdl_tests::cake_cutting;
    let mut game = cake_cutting::Game::start(2, 9).expect("2 players");
    game.apply(3).expect("player 0 cuts");
    // Player 1 now chooses a piece while player 0's `cut` is still running.
    assert_eq!(game.status(), Status::Decide(tgdl_runtime::Player(1)));
    assert!(game.label(0).starts_with("the left piece"), "{}", game.label(0));
    let mut copy = game.clone();
    for i in [1, 5, 0, 2, 1, 0, 7, 1] {
        if !matches!(game.status(), Status::Decide(_)) {
            break;
        }
        let n = game.options().len();
        game.apply(i % n).expect("valid");
        copy.apply(i % n).expect("valid");
        assert_eq!(game.log(), copy.log());
        assert_eq!(game.view(), copy.view());
        assert_eq!(game.status(), copy.status());
    }
}

#[test]
fn every_trace_replays_exactly() {
    // Cake cutting and harvest answer inputs in the middle of effects.
    let dir = std::env::temp_dir().join(format!("tgdl-trace-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    for example in EXAMPLES {
        let name = example.name;
        let trace = dir.join(format!("{name}.json")).display().to_string();
        let again = dir.join(format!("{name}-again.json")).display().to_string();
        let (code, first) =
            (example.cli)(&["play", "--seats", "random", "--seed", "5", "--trace", &trace], "");
        assert_eq!(code, 0, "{first}");
        let (code, second) = (example.cli)(&["play", "--replay", &trace, "--trace", &again], "");
        assert_eq!(code, 0, "{second}");
        assert_eq!(first.lines().last(), second.lines().last(), "{name}");
        assert!(first.lines().last().unwrap_or_default().starts_with("result: "), "{name}: {first}");
        assert_eq!(std::fs::read(&trace).expect("trace"), std::fs::read(&again).expect("replayed"), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A trace lists what chance did after each decision: the dice race's every roll, as the
/// designer reads it; a seat's trace of crazy eights names the cards dealt into its own
/// hand and no other.
#[test]
fn traces_tell_what_chance_did_as_each_reader_may_know_it() {
    let dir = std::env::temp_dir().join(format!("tgdl-chance-trace-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let read = |path: &std::path::Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(path).expect("trace")).expect("JSON")
    };
    let race = dir.join("race.json");
    let (code, out) = (example("dice_race").cli)(
        &["play", "--seats", "random", "--seed", "3", "--trace", &race.display().to_string()],
        "",
    );
    assert_eq!(code, 0, "{out}");
    let trace = read(&race);
    let chance = trace["chance"].as_array().expect("the rolls");
    // One roll a turn, each after the decision that rolled it.
    assert_eq!(chance.len(), trace["decisions"].as_array().unwrap().len());
    for (k, roll) in chance.iter().enumerate() {
        assert_eq!(roll["after"], k + 1);
        let face: u32 = roll["label"].as_str().unwrap().strip_prefix("rolls ").unwrap().parse().unwrap();
        assert!((1..=6).contains(&face), "{roll}");
    }

    let (all, mine) = (dir.join("all.json"), dir.join("mine.json"));
    for (path, extra) in [(&all, None), (&mine, Some("1"))] {
        let mut args = vec!["play", "--seats", "random", "--seed", "8"];
        let path = path.display().to_string();
        args.extend(["--trace", &path]);
        if let Some(seat) = extra {
            args.extend(["--trace-for", seat]);
        }
        let (code, out) = (example("crazy_eights").cli)(&args, "");
        assert_eq!(code, 0, "{out}");
    }
    let (all, mine) = (read(&all), read(&mine));
    let labels = |t: &serde_json::Value| -> Vec<String> {
        t["chance"].as_array().unwrap().iter().map(|c| c["label"].as_str().unwrap().to_string()).collect()
    };
    let (all, mine_labels) = (labels(&all), labels(&mine));
    assert_eq!(all.len(), mine_labels.len());
    assert!(all.iter().all(|l| l.starts_with("deals ") && !l.contains("hidden")), "{all:?}");
    // Seat 1's first hand: the cards it holds before its first decision.
    let first_hand: Vec<String> = mine["observations"][0]["hands"][1]["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    for card in &first_hand {
        assert!(mine_labels.contains(&format!("deals {card}")), "seat 1 reads its card {card} dealt");
    }
    for (designer, seat) in all.iter().zip(&mine_labels) {
        assert!(seat == designer || seat == "deals a hidden Card", "{seat} for {designer}");
    }
    let hidden = mine_labels.iter().filter(|l| *l == "deals a hidden Card").count();
    assert!(hidden >= first_hand.len(), "seat 0's cards are hidden from seat 1 ({hidden})");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_example_plays_to_its_end_with_human_seats() {
    // A person who answers 1, 2, 3, 1, 2, 3, ... (a number too high is asked again).
    let answers: String = (0..30_000).map(|i| format!("{}\n", 1 + i % 3)).collect();
    for example in EXAMPLES {
        let info = (example.engine)();
        let players = info.max_players.min(4).to_string();
        let (code, text) =
            (example.cli)(&["play", "--players", &players, "--seats", "human", "--seed", "3"], &answers);
        assert_eq!(code, 0, "{}: {text}", example.name);
        let last = text.lines().last().unwrap_or_default();
        assert!(last.starts_with("result: ") && !last.contains("unfinished"), "{}: {last}", example.name);
        assert!(text.contains("choose"), "{}: the human was asked", example.name);
    }
}

/// The example called `name`.
fn example(name: &str) -> &'static tgdl_tests::Example {
    EXAMPLES.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("no example {name}"))
}

#[test]
fn hex_never_ends_in_a_draw() {
    let hex = example("hex");
    for seed in 0..1_000 {
        match (hex.playout)(2, seed, 200) {
            // A win places one player first and the other second: no shared place.
            Ending::Over { places, decisions } => {
                assert_eq!(places.len(), 2, "seed {seed}: {places:?} after {decisions} decisions");
                assert!(decisions <= 121, "seed {seed}: {decisions} stones on 121 cells");
            }
            other => panic!("seed {seed}: {other:?}"),
        }
    }
}

#[test]
fn the_dice_race_and_the_map_game_end_for_every_player_count() {
    for name in ["dice_race", "pilgrims"] {
        let game = example(name);
        for players in 2..=4 {
            for seed in 0..50 {
                let ending = (game.playout)(players, seed, 10_000);
                assert!(
                    matches!(ending, Ending::Over { .. }),
                    "{name}, {players} players, seed {seed}: {ending:?}"
                );
            }
        }
    }
}

#[test]
fn the_large_program_plays_to_its_end() {
    let large = tgdl_tests::DATA.iter().find(|p| p.name == "large").expect("tests/data/large.tgdl");
    for players in 2..=4 {
        for seed in 0..30 {
            let ending = (large.playout)(players, seed, 10_000);
            assert!(matches!(ending, Ending::Over { .. }), "{players} players, seed {seed}: {ending:?}");
        }
    }
}

#[test]
fn breakthrough_perft_counts_the_published_figures() {
    // Written the natural way (two square inputs), with its inputs' candidates bounded by
    // their filters' guards: the counts are those of the game, not of the shortcut.
    let game = tgdl_tests::breakthrough::Game::start(2, 0).unwrap();
    let depth = if cfg!(debug_assertions) { 4 } else { 5 };
    let published = [22, 484, 11_132, 256_036, 6_182_818];
    assert_eq!(perft(&game, depth), published[..depth as usize]);
    // And so does the hand-written engine.
    assert_eq!(perft(&Breakthrough::start(2, 0).unwrap(), depth), published[..depth as usize]);
}

#[test]
fn reversi_perft_counts_the_published_figures() {
    let game = tgdl_tests::reversi::Game::start(2, 0).unwrap();
    let depth = if cfg!(debug_assertions) { 6 } else { 8 };
    let published = [4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216];
    assert_eq!(perft(&game, depth), published[..depth as usize]);
    // And so does the hand-written engine.
    assert_eq!(perft(&Reversi::start(2, 0).unwrap(), depth), published[..depth as usize]);
}

#[test]
fn english_draughts_perft_counts_the_published_figures() {
    // A whole run of jumps is one move (depth 7: 1.5 s in a debug build). At depth 8 the
    // example counts 6 fewer than the published 845,931: where two runs from one square
    // end on the same square, the figures count two moves, the example one that then asks
    // the way.
    let game = tgdl_tests::english_draughts::Game::start(2, 0).unwrap();
    assert_eq!(perft(&game, 7), [7, 49, 302, 1_469, 7_361, 36_768, 179_740]);
}

/// English draughts writes its moves as draughts players do (`11-15`, `11x18`), its
/// squares numbered 1 to 32, and tells a table the two squares each move names.
#[test]
fn english_draughts_writes_its_moves_as_players_do() {
    use tgdl_runtime::hidden::Viewer;
    let game = tgdl_tests::english_draughts::Game::start(2, 0).unwrap();
    let mut labels = game.labels();
    labels.sort();
    assert_eq!(labels, ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]);
    let at = game.labels().iter().position(|l| l == "11-15").unwrap();
    assert_eq!(game.things_of(0, Viewer::Seat(0))[at], ["11", "15"]);
    // Square 11 is column 2 of row 5 (row 0 at the top), and its name is in the view.
    let view = serde_json::to_value(game.view()).unwrap();
    assert_eq!(view["sections"][0]["Grid"]["names"][5][2], "11", "{view}");
}

#[test]
fn amazons_perft_counts_the_published_figures() {
    // A move (the amazon's queen move and its arrow) is one decision of three inputs.
    // Depth 2 takes a second in a debug build.
    let game = tgdl_tests::amazons::Game::start(2, 0).unwrap();
    assert_eq!(perft(&game, 2), [2_176, 4_307_152]);
}

/// Two moves that would read the same (`R: move Square(0, 3)` for two rooks)
/// say where each piece stands, labels stay distinct, and typed text fitting both asks
/// again with the candidates.
#[test]
fn twin_moves_name_the_square_of_their_piece() {
    use tgdl_play::agent::{Agent, HumanAgent};
    let mut found = None;
    'games: for seed in 0..200 {
        let mut game = tgdl_tests::skirmish::Game::start(2, seed).unwrap();
        let mut rng = Rng::new(seed);
        while let Status::Decide(_) = game.status() {
            let labels = game.labels();
            let mut sorted = labels.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), labels.len(), "seed {seed}: labels are distinct: {labels:?}");
            if let Some(i) = labels.iter().position(|l| l.contains(" at Square(")) {
                found = Some((game.clone(), labels, i));
                break 'games;
            }
            game.apply(rng.below(labels.len() as u64) as usize).unwrap();
        }
    }
    let (game, labels, i) = found.expect("some random game offers two pieces the same move");
    // `R at Square(0, 4): move Square(0, 3)`: the piece's label, where it stands, the move.
    let (piece, rest) = labels[i].split_once(" at ").unwrap();
    let (square, action) = rest.split_once(": ").unwrap();
    let twins: Vec<&String> = labels
        .iter()
        .filter(|l| l.starts_with(&format!("{piece} at ")) && l.ends_with(&format!(": {action}")))
        .collect();
    assert!(twins.len() >= 2, "{labels:?}");
    assert!(game.label(i) == labels[i]);
    // The square is where the piece stands on the drawn board: column x, row y.
    let (x, y) = square.trim_start_matches("Square(").trim_end_matches(')').split_once(", ").unwrap();
    let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
    let tgdl_runtime::view::Section::Grid { cells, .. } = &game.view().sections[0] else { panic!() };
    assert_eq!(cells[y][x].as_deref(), Some(piece), "{labels:?}");
    // Typing the move without the square fits every twin: asked again, with them listed.
    let mut agent = HumanAgent::new(std::io::Cursor::new(format!("{action}\n{}\n", labels[i])), Vec::new());
    agent.echo_input = true;
    let chosen = agent.choose_in(&game).unwrap();
    assert_eq!(chosen, i);
    let out = String::from_utf8(agent.console().borrow().output.clone()).unwrap();
    assert!(out.contains(&format!("`{action}` fits {} options:\n", twins.len())), "{out}");
    for twin in twins {
        assert!(out.contains(&format!(") {twin}\n")), "{out}");
    }
}

/// Hex boards number their columns on two lines, one right above the cells of
/// the even rows, one above the odd rows, so the coordinates of the menu (`Cell(x, y)`:
/// column x, row y) can be read off the drawing; the 121 options are laid out in columns
/// above the board, which stays next to the prompt.
#[test]
fn hex_coordinates_read_off_the_drawing() {
    // Cell(5, 3) by its coordinates alone (the end of `place Cell(5, 3)`), then Cell(4, 2).
    let (code, out) =
        (example("hex").cli)(&["--seats", "human,human", "--seed", "1"], "Cell(5,3)\ncell(4, 2)\nq\n");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("player 0: place Cell(5, 3)\n") && out.contains("player 1: place Cell(4, 2)\n"),
        "{out}"
    );
    let screen = &out[out.rfind("== Hex ==").unwrap()..];
    let lines: Vec<&str> = screen.lines().collect();
    let header = |name: &str| *lines.iter().find(|l| l.starts_with(name)).unwrap();
    let (even, odd) = (header("even"), header(" odd"));
    let row = |r: &str| *lines.iter().find(|l| l.starts_with(&format!("{r:>4} "))).unwrap();
    // The number straight above a stone, on the line of its row's parity, is its column.
    let column_above = |header: &str, at: usize| {
        let start = header[..=at].rfind(' ').map_or(0, |s| s + 1);
        header[start..].split(' ').next().unwrap().to_string()
    };
    let x_at = row("3").find('X').expect("X in row 3");
    assert_eq!(column_above(odd, x_at), "5", "{screen}");
    let o_at = row("2").find('O').expect("O in row 2");
    assert_eq!(column_above(even, o_at), "4", "{screen}");
    // The long menu: in columns, before the board; the prompt follows the board.
    let first = &out[..out.find("player 0: place").unwrap()];
    let (menu, board) = (first.find("  1) place Cell(0, 0)").unwrap(), first.find("Board.Cells:").unwrap());
    let prompt = first.find("player 0, choose a move: type 1 to 121 (listed above the board)").unwrap();
    assert!(menu < board && board < prompt, "{first}");
    let menu_lines = first[menu..board].lines().filter(|l| l.contains(") place")).count();
    assert!(menu_lines <= 41, "{menu_lines} lines: {first}");
    assert!(first.lines().all(|l| l.chars().count() <= 80), "{first}");
}

/// After the game ends, the header of the last drawing says how.
#[test]
fn the_last_drawing_says_how_the_game_ended() {
    let (code, out) = (example("tic_tac_toe").cli)(&["--seats", "human", "--seed", "3"], &"1\n".repeat(9));
    assert_eq!(code, 0, "{out}");
    let result = out.lines().last().unwrap().strip_prefix("result: ").unwrap();
    let screen = &out[out.rfind("== TicTacToe ==").unwrap()..];
    assert!(screen.starts_with(&format!("== TicTacToe ==\ngame over: {result}\n")), "{screen}");
    assert!(!screen.contains("to play"), "{screen}");
}

#[test]
fn chess_perft_counts_the_published_figures() {
    let game = tgdl_tests::chess::Game::start(2, 0).unwrap();
    let depth = if cfg!(debug_assertions) { 3 } else { 5 };
    let published = [20, 400, 8_902, 197_281, 4_865_609];
    assert_eq!(perft(&game, depth), published[..depth as usize]);
}

/// A chess move in coordinate notation (`e2e4`, `b7a8q`) as the example writes it, in
/// long notation: `e2-e4`, a promotion `b7-a8=Q`.
fn chess_label(uci: &str) -> String {
    let (from, to) = (&uci[0..2], &uci[2..4]);
    match uci.get(4..5) {
        None => format!("{from}-{to}"),
        Some(p) => format!("{from}-{to}={}", p.to_uppercase()),
    }
}

/// The chess example after the moves `uci` (each must be offered), with its labels.
fn chess_after(uci: &str) -> (tgdl_tests::chess::Game, Vec<String>) {
    let mut game = tgdl_tests::chess::Game::start(2, 0).unwrap();
    for m in uci.split_whitespace() {
        let labels = game.labels();
        let wanted = chess_label(m);
        let i = labels
            .iter()
            .position(|l| *l == wanted)
            .unwrap_or_else(|| panic!("{m} ({wanted}) in {labels:?}"));
        game.apply(i).unwrap();
    }
    let labels = game.labels();
    (game, labels)
}

/// Castling, en passant and promotion, move by move, and perft from positions that need
/// them, against counts from an independent move generator (python-chess).
#[test]
fn chess_castles_takes_en_passant_and_promotes() {
    let offered = |labels: &[String], m: &str| labels.contains(&chess_label(m));
    // En passant, only right after the double step.
    let (_, labels) = chess_after("e2e4 d7d5 e4e5 f7f5");
    assert!(offered(&labels, "e5f6") && !offered(&labels, "e5d6"), "{labels:?}");
    let (_, labels) = chess_after("e2e4 d7d5 e4e5 f7f5 a2a3 a7a6");
    assert!(!offered(&labels, "e5f6"), "{labels:?}");
    // The pawn that took en passant stands on f6, and the pawn it took is gone.
    let (_, labels) = chess_after("e2e4 d7d5 e4e5 f7f5 e5f6 a7a6 a2a3");
    assert!(offered(&labels, "g7f6") && offered(&labels, "e7f6"), "{labels:?}");
    assert!(!labels.iter().any(|l| l.starts_with("move from=Square(5, 3)")), "{labels:?}");
    // Castling: the king takes two steps and the rook jumps over it.
    let (_, labels) = chess_after("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5");
    assert!(offered(&labels, "e1g1"), "{labels:?}");
    let (_, labels) = chess_after("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6");
    assert!(offered(&labels, "f1e1") && offered(&labels, "g1h1") && !offered(&labels, "h1h2"), "{labels:?}");
    let (_, labels) = chess_after("d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7 e1c1");
    assert!(offered(&labels, "e8c8"), "{labels:?}");
    // Not once the king has moved and come back, nor through an attacked square.
    let (_, labels) = chess_after("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1e2 g8f6 e2e1 a7a6");
    assert!(!offered(&labels, "e1g1"), "{labels:?}");
    let (_, labels) = chess_after("e2e4 b7b6 g2g3 c8a6 f1g2 b8c6 g1f3 g8f6");
    assert!(!offered(&labels, "e1g1") && !offered(&labels, "e1f1") && offered(&labels, "h1g1"), "{labels:?}");
    // Promotion: four options for each square a pawn can reach on the last row.
    let (_, labels) = chess_after("a2a4 b7b5 a4b5 a7a6 b5a6 c8b7 a6b7 g8f6");
    let promotions: Vec<&String> = labels.iter().filter(|l| l.contains('=')).collect();
    assert_eq!(promotions.len(), 4, "{labels:?}");
    for piece in ["q", "r", "b", "n"] {
        assert!(offered(&labels, &format!("b7a8{piece}")), "{labels:?}");
    }
    // The new piece moves as what it became: a knight on a8 reaches b6 and c7.
    let (_, labels) = chess_after("a2a4 b7b5 a4b5 a7a6 b5a6 c8b7 a6b7 g8f6 b7a8n e7e6");
    assert!(offered(&labels, "a8b6") && offered(&labels, "a8c7") && !offered(&labels, "a8a7"), "{labels:?}");

    // Checkmate ends the game (the fool's mate).
    let (game, labels) = chess_after("f2f3 e7e5 g2g4 d8h4");
    assert_eq!(game.status(), Status::Over, "{labels:?}");
    assert_eq!(game.outcome().map(|o| o.places.clone()), Some(vec![vec![1], vec![0]]));
    // Stalemate is a draw (Sam Loyd's ten-move stalemate).
    let (game, labels) = chess_after(
        "e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6",
    );
    assert_eq!(game.status(), Status::Over, "{labels:?}");
    assert_eq!(game.outcome().map(|o| o.places.clone()), Some(vec![vec![0, 1]]));
    // The fifty-move rule: the hundredth ply without a capture or a pawn move draws.
    let shuffles = "g1f3 g8f6 f3g1 f6g8 ".repeat(25);
    let (game, _) = chess_after(shuffles.trim_end().rsplit_once(' ').unwrap().0);
    assert!(matches!(game.status(), Status::Decide(_)));
    let (game, _) = chess_after(&shuffles);
    assert_eq!(game.outcome().map(|o| o.places.clone()), Some(vec![vec![0, 1]]));

    // Perft from positions reached by these openings and by random games (80 plies),
    // counted by python-chess.
    let positions: [(&str, [u64; 3]); 8] = [
        ("e2e4 d7d5 e4e5 f7f5", [31, 707, 21_637]),
        ("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", [33, 1_150, 37_139]),
        ("d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7", [35, 1_219, 43_480]),
        ("e2e4 b7b6 g2g3 c8a6 f1g2 b8c6 g1f3 g8f6", [24, 735, 19_794]),
        ("a2a4 b7b5 a4b5 a7a6 b5a6 c8b7 a6b7 g8f6", [29, 696, 20_899]),
        (
            "f2f3 f7f6 a2a4 d7d5 g2g3 d8d6 e2e3 d6c5 f1a6 c8g4 e1e2 c5c4 d2d3 c4e4 a6b7 c7c6 d3e4 \
             e7e6 b7a8 e8d8 a8b7 g8e7 b1c3 h7h5 e2d2 f6f5 d1f1 b8d7 e4f5 e7c8 d2e2 f8c5 c3b5 h8e8 \
             f1g2 d7b8 a4a5 g4f5 a1a2 c5b6 e3e4 e8h8 a2a1 h8h6 c1g5 d8d7 g5h6 c6b5 a1c1 b6d8 h6g5 \
             d5d4 e2d1 c8b6 g5h6 d8c7 b7a8 b6a4 d1d2 g7g6 h6g5 d4d3 c1a1 c7b6 g5f4 b6d8 a1f1 d8g5 \
             f1f2 g5d8 d2e3 h5h4 f4d6 d8f6 e3d2 f5e4 b2b3 f6d8 d6e7 e4b7",
            [31, 884, 26_471],
        ),
        (
            "a2a4 b7b5 a4a5 e7e6 b1c3 g7g5 g2g3 h7h5 c3b1 d7d5 g1h3 d8e7 h3f4 b8a6 f4e6 f7f5 b2b3 \
             g5g4 e6g5 e7g7 h2h3 g7h6 d2d4 h6f6 e1d2 f6d6 h3h4 a6c5 g5h7 a8b8 d1e1 d6g6 c2c4 f5f4 \
             d4c5 g6e6 b1c3 f8e7 c3b5 e6d7 c4d5 a7a6 c1a3 d7d6 b5d4 c8d7 h1h3 f4g3 e1c1 g3f2 h7f6 \
             e7f6 h3c3 e8d8 d4b5 h8h6 c1c2 d7f5 c5d6 d8d7 c3d3 f6h4 d3h3 f5c2 d2c2 b8f8 h3h2 f8f7 \
             c2c1 h6g6 c1b2 g6h6 b5c3 g4g3 b3b4 g8f6 h2g2 h4g5 c3d1 f7g7",
            [19, 517, 10_991],
        ),
        (
            "c2c4 d7d6 b1c3 g8f6 d1b3 d8d7 b3a4 b7b5 a4a6 b5b4 e2e4 e7e5 c3d5 h7h5 a6a3 d7e6 g1h3 \
             f6g4 d5b6 c8a6 g2g3 b4b3 a3d6 e6c8 a2a3 h5h4 d6d4 f7f6 b6d5 c8e6 d5f6 e8f7 f6d5 b8d7 \
             e1e2 h8h5 d5b6 f7g8 b6d7 e6b6 d4d3 g4e3 d3c3 a8c8 d7f8 a6b5 f1g2 g7g6 f2f3 e3g4 d2d3 \
             c8e8 f8g6 h4g3 d3d4 e8f8 g6e7 g8g7 c3e1 b6h6 e1f1 b5a4 c1d2 a4d7 f1d1 h6d2 e2d2 g7h7 \
             h3f4 h5f5 e7c6 f5f6 d1b1 d7e6 f3g4 h7h8 c6a7 f8d8 h2h4 e6c4",
            [38, 1_363, 48_912],
        ),
    ];
    let depth = if cfg!(debug_assertions) { 2 } else { 3 };
    for (moves, counts) in positions {
        let (game, _) = chess_after(moves);
        assert_eq!(perft(&game, depth), counts[..depth as usize], "after {moves}");
    }
}

/// A parameter (`param number dice = 1 in 1..5;` in liar's dice) changes the game every
/// command plays, is refused outside its range, and travels with the trace: a replay
/// plays the same variant.
#[test]
fn liars_dice_plays_the_variant_its_parameter_names() {
    let e = EXAMPLES.iter().find(|e| e.name == "liars_dice").unwrap();
    let perft = |extra: &[&str]| {
        let mut args = vec!["perft", "--depth", "2", "--json"];
        args.extend_from_slice(extra);
        let (code, out) = (e.cli)(&args, "");
        assert_eq!(code, 0, "{out}");
        serde_json::from_str::<serde_json::Value>(out.trim()).unwrap()
    };
    // One die each: 12 bids open the game; two each: bids go up to four dice.
    assert_eq!(perft(&[]), serde_json::json!({"perft": [12, 78], "params": {"dice": "1"}}));
    assert_eq!(
        perft(&["--param", "dice=2"]),
        serde_json::json!({"perft": [24, 300], "params": {"dice": "2"}})
    );
    let (code, out) = (e.cli)(&["perft", "--depth", "1", "--param", "dice=9"], "");
    assert_eq!(code, 2, "{out}");
    let (code, out) = (e.cli)(&["simulate", "-n", "20", "--param", "dice=0", "--json"], "");
    assert_eq!(code, 2, "{out}");
    let (code, out) = (e.cli)(&["simulate", "-n", "200", "--param", "dice=3", "--json"], "");
    assert_eq!(code, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(report["params"], serde_json::json!({"dice": "3"}));

    let dir = std::env::temp_dir().join(format!("tgdl-param-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (trace, again) = (dir.join("t.json").display().to_string(), dir.join("u.json").display().to_string());
    let args = ["play", "--seats", "random", "--seed", "5", "--param", "dice=3", "-v", "--trace", &trace];
    let (code, first) = (e.cli)(&args, "");
    assert_eq!(code, 0, "{first}");
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    assert_eq!(saved["params"], serde_json::json!({"dice": "3"}));
    let (code, second) = (e.cli)(&["play", "--replay", &trace, "-v", "--trace", &again], "");
    assert_eq!(code, 0, "{second}");
    assert_eq!(first, second, "the replay plays the same variant");
    assert_eq!(std::fs::read_to_string(&trace).unwrap(), std::fs::read_to_string(&again).unwrap());
    std::fs::remove_dir_all(&dir).ok();
}

/// Modern games (docs/modern-games.md): the engine builder and the worker placement game
/// played by search agents at every player count, their payoffs checked against the points
/// their logs tell, and a rule of each checked on seeded play.
mod modern {
    use tgdl_play::agent::Decision;
    use tgdl_play::mcts::{Budget, MctsAgent};
    use tgdl_runtime::view::Section;
    use tgdl_runtime::{Game, Rng, Start, Status};

    type Gems = tgdl_tests::gem_merchants::Game;
    type Guild = tgdl_tests::guild_hall::Game;
    type Hanabi = tgdl_tests::hanabi::Game;

    /// Plays a game to its end with a search agent of `iterations` in every seat.
    fn searched<G: Game>(players: u32, seed: u64, iterations: u32) -> G {
        let mut game =
            G::start_with(&Start::observed::<G>(players, seed.into())).expect("a valid player count");
        let mut agents: Vec<MctsAgent<G>> = (0..players)
            .map(|p| MctsAgent::new(Budget::Iterations(iterations), seed * 16 + u64::from(p)))
            .collect();
        loop {
            match game.status() {
                Status::Decide(p) => {
                    let decision = Decision::of(&game).expect("a decision");
                    let (index, _) = agents[p.0 as usize].search(&decision).expect("the search decides");
                    game.apply(index).expect("a listed option");
                }
                Status::Over => return game,
                other => panic!("{players} players, seed {seed}: {other:?} {:?}", game.error()),
            }
        }
    }

    /// The number after `prefix` and before the next space or `pt` in `line`.
    fn number_after(line: &str, prefix: &str) -> Option<u32> {
        let rest = &line[line.find(prefix)? + prefix.len()..];
        rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
    }

    /// Each player's points and cards bought, from a game's log: cards bought
    /// (`player 1 buys T2 white 2pt: ...`) and nobles (`the noble: ... visits player 1`).
    fn gem_points(log: &[String], players: u32) -> (Vec<f64>, Vec<u32>) {
        let (mut points, mut cards) = (vec![0.0; players as usize], vec![0; players as usize]);
        for line in log {
            if let Some(p) = line.strip_prefix("player ").filter(|l| l.contains(" buys ")) {
                let p = number_after(p, "").expect("a player") as usize;
                cards[p] += 1;
                if let Some(at) = line.find("pt:") {
                    let worth = line[..at].rsplit(' ').next().and_then(|n| n.parse::<u32>().ok());
                    points[p] += f64::from(worth.expect("points"));
                }
            }
            if line.starts_with("the noble") {
                points[number_after(line, "visits player ").expect("a player") as usize] += 3.0;
            }
        }
        (points, cards)
    }

    /// Each player's points from a guild hall log: contracts fulfilled and what is left at
    /// the end.
    fn guild_points(log: &[String], players: u32) -> Vec<f64> {
        let mut points = vec![0.0; players as usize];
        for line in log {
            let Some(rest) = line.strip_prefix("player ") else { continue };
            let p = number_after(rest, "").expect("a player") as usize;
            if line.contains(" fulfils ") {
                points[p] += f64::from(number_after(line, " for ").expect("points"));
            }
            if line.contains(" scores ") {
                points[p] += f64::from(number_after(line, " scores ").expect("points"));
            }
        }
        points
    }

    /// The winners of an outcome are those with the most points.
    fn the_best_win(places: &[Vec<u32>], points: &[f64]) {
        let best = points.iter().cloned().fold(f64::MIN, f64::max);
        for &p in &places[0] {
            assert_eq!(points[p as usize], best, "{places:?} {points:?}");
        }
    }

    #[test]
    fn gem_merchants_ends_with_the_points_as_payoffs_under_search() {
        // Every iteration plays a random game to its end (90 to 190 decisions): a debug
        // build searches little, an optimised one more, on two seeds.
        let (seeds, iterations) = if cfg!(debug_assertions) { (1, 8) } else { (2, 30) };
        for players in 2..=4 {
            for seed in 0..seeds {
                let game: Gems = searched(players, seed, iterations);
                let outcome = game.outcome().expect("over");
                let (points, cards) = gem_points(game.log(), players);
                assert_eq!(
                    outcome.payoffs.as_deref(),
                    Some(points.as_slice()),
                    "{players} players, seed {seed}"
                );
                the_best_win(&outcome.places, &points);
                // Of equal points, fewer cards rank first.
                let first = outcome.places[0][0] as usize;
                for (p, &pts) in points.iter().enumerate() {
                    if pts == points[first] {
                        assert!(cards[first] <= cards[p], "{players} players, seed {seed}: {cards:?}");
                    }
                }
                // Someone reached 15, unless the 40 rounds ran out.
                let end = game.log().last().expect("a log");
                assert!(points.iter().any(|&p| p >= 15.0) || end.ends_with("round 41"), "{points:?}: {end}");
            }
        }
    }

    #[test]
    fn guild_hall_ends_with_the_points_as_payoffs_under_search() {
        for players in 2..=4 {
            for seed in 0..2 {
                let game: Guild = searched(players, seed, 30);
                let outcome = game.outcome().expect("over");
                let points = guild_points(game.log(), players);
                assert_eq!(
                    outcome.payoffs.as_deref(),
                    Some(points.as_slice()),
                    "{players} players, seed {seed}"
                );
                the_best_win(&outcome.places, &points);
                let rounds = game.log().iter().filter(|l| l.starts_with("round ")).count();
                assert_eq!(rounds, 7, "eight rounds");
            }
        }
    }

    /// The tokens each merchant holds, read off the view's `merchants` line
    /// (`player 0: 3 points, 2 cards, tokens 1 2 0 0 1 0, bonuses ...`), and the bank's.
    fn tokens(game: &Gems) -> (Vec<Vec<u32>>, Vec<u32>) {
        let numbers = |text: &str| -> Vec<u32> {
            text.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect()
        };
        let (mut held, mut bank) = (Vec::new(), Vec::new());
        for section in game.view().sections {
            if let Section::Attributes { items, .. } = section {
                for (name, value) in items {
                    if name == "merchants" {
                        for part in value.split("tokens ").skip(1) {
                            held.push(numbers(part.split(',').next().expect("tokens"))[..6].to_vec());
                        }
                    }
                    if name == "gems" {
                        bank = numbers(&value);
                    }
                }
            }
        }
        (held, bank)
    }

    #[test]
    fn a_merchant_holds_ten_tokens_at_most_and_no_token_is_lost() {
        for players in 2..=4 {
            let per_colour = [0, 0, 4, 5, 7][players as usize];
            for seed in 0..3 {
                let mut game = Gems::start(players, seed).expect("a valid player count");
                let mut rng = Rng::new(seed);
                let mut turns = 0;
                while let Status::Decide(_) = game.status() {
                    if game.view().phase.is_empty() {
                        turns += 1;
                        let (held, bank) = tokens(&game);
                        assert_eq!(held.len(), players as usize);
                        for (p, h) in held.iter().enumerate() {
                            assert!(h.iter().sum::<u32>() <= 10, "seed {seed}: player {p} holds {h:?}");
                        }
                        for colour in 0..6 {
                            let total: u32 = bank[colour] + held.iter().map(|h| h[colour]).sum::<u32>();
                            assert_eq!(total, if colour == 5 { 5 } else { per_colour }, "seed {seed}");
                        }
                    }
                    let n = game.options().len() as u64;
                    game.apply(rng.below(n) as usize).expect("a listed option");
                }
                assert!(turns > 20, "seed {seed}: {turns} turns");
            }
        }
    }

    #[test]
    fn a_space_taken_is_closed_until_the_round_ends() {
        for players in 2..=4 {
            let agents = if players == 4 { 2 } else { 3 };
            for seed in 0..10 {
                let run = tgdl_tests::run::<Guild>(&tgdl_tests::Script {
                    players: Some(players),
                    seed,
                    ..Default::default()
                });
                assert!(run.result.contains("payoffs"), "{}", run.result);
                let mut rounds = vec![Vec::new()];
                for line in &run.log {
                    if line.starts_with("round ") {
                        rounds.push(Vec::new());
                    }
                    if let Some(at) = line.find(" sends an agent to the ") {
                        rounds.last_mut().expect("a round").push(line[at..].to_string());
                    }
                }
                assert_eq!(rounds.len(), 8, "seed {seed}");
                for spaces in &rounds {
                    assert_eq!(spaces.len(), agents * players as usize, "seed {seed}: every agent placed");
                    let mut distinct = spaces.clone();
                    distinct.sort();
                    distinct.dedup();
                    assert_eq!(distinct.len(), spaces.len(), "seed {seed}: one agent a space: {spaces:?}");
                }
            }
        }
    }

    /// Hanabi at every player count, by random and by searching seats: hands of five cards
    /// (four from four players on), and a team result whose shared payoff is the cards
    /// played well, out of 25 — or 0 when the third fuse burned.
    #[test]
    fn hanabi_scores_the_cards_played_well_for_the_whole_team() {
        use tgdl_play::{Agent, RandomAgent};
        use tgdl_runtime::hidden::Viewer;
        let iterations = if cfg!(debug_assertions) { 20 } else { 200 };
        for players in 2..=5 {
            let hand = if players >= 4 { 4 } else { 5 };
            for seed in 0..4u64 {
                let searching = seed % 2 == 1;
                let game: Hanabi = if searching {
                    searched(players, seed, iterations)
                } else {
                    let mut game = Hanabi::start(players, seed).expect("2 to 5 players");
                    let dealt = game.observation(Viewer::All);
                    for h in &dealt.hands {
                        assert_eq!(h.counts, [("Card".to_string(), hand)], "{players} players");
                    }
                    let mut agent = RandomAgent::new(seed);
                    while let Status::Decide(_) = game.status() {
                        let i = agent.choose_in(&game).expect("a choice");
                        game.apply(i).expect("a listed option");
                    }
                    game
                };
                let at = format!("{players} players, seed {seed}, search {searching}");
                assert_eq!(game.status(), Status::Over, "{at}: {:?}", game.error());
                let outcome = game.outcome().expect("over");
                let team = outcome.team.as_ref().expect("a team result");
                let played = game.log().iter().filter(|l| l.contains(" plays the ")).count() as f64;
                let blown = game.log().iter().any(|l| l.contains("the third fuse burns"));
                let payoffs = outcome.payoffs.clone().expect("payoffs");
                let expected = if blown { 0.0 } else { played / 25.0 };
                assert!(payoffs.iter().all(|&x| (x - expected).abs() < 1e-9), "{at}: {payoffs:?}");
                // Everyone wins together (the fireworks were scored), or loses together.
                assert_eq!(team.is_empty(), blown, "{at}: {team:?}");
            }
        }
    }
}
