//! Games embedded with `tgdl!` (inline and from a file), played by seeded agents: every
//! outcome, log line, option list and perft count is checked against an independent Rust
//! model of Nim computed from the recorded moves, and the winning strategy always wins.

use tgdl_play::{Agent, RandomAgent, perft};
use tgdl_runtime::{Game, Status};

tgdl_macros::tgdl! {
    // Nim: players take 1, 2 or 3 stones in turn; whoever takes the last one wins.
    game Nim players 2;

    class Amount {
        number n = 1;

        function label {
            returns string;
            effect { return "" + n; }
        }
    }

    global class Pile {
        number stones = 15;

        action take {
            trigger PlayerChoiceEvent;
            input Amount amount { return amount.n <= stones; }
            effect {
                stones -= amount.n;
                log("player " + player.active() + " takes " + amount.n + ", " + stones + " left");
                if (stones == 0) { winner player.active(); }
                turn.pass();
            }
        }
    }

    setup {
        for (number n = 1; n <= 3; n += 1) {
            Amount amount = new Amount() { n = n };
        }
    }
}

/// The same game with 16 stones, from a file that imports `Amount` from another.
mod from_file {
    tgdl_macros::tgdl!(file = "ui/games/nim.tgdl");
}

/// What one decision looked like: who chose, how many options there were, the label of
/// the chosen one.
#[derive(Debug)]
struct Decision {
    player: u32,
    options: usize,
    label: String,
}

/// Chooses an option index for the player deciding in a state.
type Chooser<G> = Box<dyn FnMut(&G) -> usize>;

/// Plays `game` to its end, each player choosing with its agent; returns the decisions
/// and the final state.
fn play<G: Game>(mut game: G, agents: &mut [Chooser<G>; 2]) -> (Vec<Decision>, G) {
    let mut decisions = Vec::new();
    while let Status::Decide(player) = game.status() {
        let choice = agents[player.0 as usize](&game);
        decisions.push(Decision {
            player: player.0,
            options: game.options().len(),
            label: game.label(choice),
        });
        game.apply(choice).expect("agents choose among the options");
        assert!(decisions.len() <= 64, "Nim ends within its number of stones");
    }
    (decisions, game)
}

fn random<G: Game>(seed: u64) -> Chooser<G> {
    let mut agent = RandomAgent::new(seed);
    Box::new(move |game| agent.choose_in(game).expect("a decision has options"))
}

/// Leaves a multiple of four stones when it can (the amounts offered are 1, 2, 3 that
/// fit, in that order), given a way to read the pile.
fn strategy<G: Game>(stones: fn(&G) -> f64) -> Chooser<G> {
    Box::new(move |game| (stones(game) as usize % 4).max(1) - 1)
}

/// The independent model: replays the recorded moves on a pile of `stones`, checking
/// each decision, and returns the winner (who took the last stone) and the log lines.
fn replay(stones: u32, decisions: &[Decision]) -> (u32, Vec<String>) {
    let mut left = stones;
    let mut log = Vec::new();
    for (i, d) in decisions.iter().enumerate() {
        assert!(left > 0, "a move after the last stone");
        assert_eq!(d.player, i as u32 % 2, "players alternate");
        assert_eq!(d.options, left.min(3) as usize, "one option per amount that fits");
        let amount: u32 = d.label.strip_prefix("take ").and_then(|n| n.parse().ok()).expect("`take N`");
        assert!((1..=left.min(3)).contains(&amount), "{amount} from {left}");
        left -= amount;
        log.push(format!("player {} takes {amount}, {left} left", d.player));
    }
    assert_eq!(left, 0, "the game ends when the pile is empty");
    (decisions.last().expect("at least one move").player, log)
}

#[test]
fn random_games_end_as_the_rules_say() {
    let mut winners = [0; 2];
    for seed in 0..200 {
        let game = nim::Game::start(2, seed).unwrap();
        let (decisions, end) = play(game, &mut [random(seed), random(seed + 1000)]);
        let (winner, log) = replay(15, &decisions);
        assert_eq!(end.outcome().and_then(|o| o.sole_winner()), Some(winner), "seed {seed}");
        assert_eq!(end.log(), log, "seed {seed}");
        winners[winner as usize] += 1;
    }
    // Both players win some random games.
    assert!(winners.iter().all(|&w| w > 20), "{winners:?}");
}

#[test]
fn the_winning_strategy_always_wins() {
    let stones = |g: &nim::Game| g.world().pile.stones;
    for seed in 0..50 {
        // 15 stones: the first player wins by leaving a multiple of four.
        let game = nim::Game::start(2, seed).unwrap();
        let (decisions, end) = play(game, &mut [strategy(stones), random(seed)]);
        assert_eq!(replay(15, &decisions).0, 0);
        assert_eq!(end.outcome().unwrap().sole_winner(), Some(0), "seed {seed}");

        // 16 stones (the file): the second player does.
        let file_stones = |g: &from_file::nim::Game| g.world().pile.stones;
        let game = from_file::nim::Game::start(2, seed).unwrap();
        let (decisions, end) = play(game, &mut [random(seed), strategy(file_stones)]);
        assert_eq!(replay(16, &decisions).0, 1);
        assert_eq!(end.outcome().unwrap().sole_winner(), Some(1), "seed {seed}");
    }
}

#[test]
fn cloned_states_continue_alike() {
    let mut game = nim::Game::start(2, 3).unwrap();
    game.apply(1).unwrap();
    game.apply(2).unwrap();
    let copy = game.clone();
    let (a, end_a) = play(game, &mut [random(9), random(10)]);
    let (b, end_b) = play(copy, &mut [random(9), random(10)]);
    let labels = |d: &[Decision]| d.iter().map(|d| d.label.clone()).collect::<Vec<_>>();
    assert_eq!(labels(&a), labels(&b));
    assert_eq!(end_a.outcome(), end_b.outcome());
    assert_eq!(end_a.log(), end_b.log());
}

/// The number of sequences of `depth` moves from a pile of `stones` (a game that ends
/// earlier is not extended), by recursion.
fn count_sequences(stones: u32, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if stones == 0 {
        return 0;
    }
    (1..=stones.min(3)).map(|take| count_sequences(stones - take, depth - 1)).sum()
}

#[test]
fn perft_counts_match_the_model() {
    let game = from_file::nim::Game::start(2, 0).unwrap();
    let expected: Vec<u64> = (1..=8).map(|d| count_sequences(16, d)).collect();
    assert_eq!(perft(&game, 8), expected);
}

tgdl_macros::tgdl! {
    // Divides by the number of stones left: a rule error once the pile is empty.
    game Shares players 2;

    global class Pile {
        number stones = 2;
        number share = 0;

        action take {
            trigger PlayerChoiceEvent;
            effect {
                stones -= 1;
                share = 12 / stones;
                turn.pass();
            }
        }
    }

    setup { }
}

/// A rule error of an inline game is located in this Rust file, at the expression that
/// failed (the TGDL text lines up with the Rust file on rustc 1.88 and later).
#[test]
fn rule_errors_point_into_the_rust_file() {
    let mut game = shares::Game::start(2, 0).unwrap();
    game.apply(0).unwrap();
    assert_eq!(game.world().pile.share, 12.0);
    game.apply(0).unwrap();
    assert_eq!(game.status(), Status::Failed);
    let error = game.error().expect("division by zero");
    let (file, position) = error.location.split_once(':').expect("file:line:column");
    assert!(file.ends_with("macro_game.rs"), "{error}");
    let (line, column) = position.split_once(':').expect("line:column");
    let line: usize = line.parse().unwrap();
    let column: usize = column.parse().unwrap();
    let text = include_str!("macro_game.rs").lines().nth(line - 1).unwrap();
    assert!(text.chars().skip(column - 1).collect::<String>().starts_with("12 / stones"), "{error}: {text}");
}
