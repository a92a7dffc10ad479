//! The play loop of a watched game (`tgdl_play::watch`) on the hand-written tic-tac-toe:
//! lines answer people, a reload starts the game again and replays its decisions by label
//! up to the first the new rules refuse, and seeded agents play the game `play` plays.

use std::sync::mpsc::channel;
use tgdl_play::cli::run_cli;
use tgdl_play::driver::{PlayOptions, SeatKind};
use tgdl_play::watch::{Event, Restart, play_watched};
use tgdl_reference::TicTacToe;
use tgdl_runtime::game::{Game, StartError};

/// Plays a watched game fed `events` (all sent before it starts); its output.
fn watched(seats: &[SeatKind], events: Vec<Event<TicTacToe>>) -> String {
    let (send, receive) = channel();
    for event in events {
        send.send(event).unwrap();
    }
    drop(send);
    let opts =
        PlayOptions { seats: seats.to_vec(), seed: Some(5), echo_input: true, ..PlayOptions::default() };
    let mut out = Vec::new();
    play_watched::<TicTacToe, _>(&opts, receive, &mut out).expect("the game is played");
    String::from_utf8(out).unwrap()
}

fn line(text: &str) -> Event<TicTacToe> {
    Event::Line(text.to_string())
}

/// Rules under which the game starts with these options already taken.
fn starting_with(moves: &'static [usize]) -> Event<TicTacToe> {
    let restart: Restart<TicTacToe> = Box::new(move |start| {
        let mut game = TicTacToe::start_with(start)?;
        for &m in moves {
            game.apply(m).expect("a legal move");
        }
        Ok(game)
    });
    Event::Reload(restart)
}

const PEOPLE: &[SeatKind] = &[SeatKind::Human, SeatKind::Human];

#[test]
fn a_reload_replays_the_decisions_made() {
    let out = watched(PEOPLE, vec![line("1"), line("1"), starting_with(&[]), line("q")]);
    assert!(out.contains("player 0: X at (0, 0)\n"), "{out}");
    assert!(out.contains("player 1: O at (0, 1)\n"), "{out}");
    let (before, after) = out.split_once("rules reloaded: 2 decisions replayed\n").expect(&out);
    // The board is drawn again, both marks on it, and the game goes on from there.
    assert!(after.contains("player 0, choose a cell:"), "{after}");
    assert_eq!(after.matches("X at").count(), 7, "seven empty cells are offered:\n{after}");
    assert!(!before.contains("result:"), "{before}");
    assert!(out.ends_with("result: player 0 quit after 2 decisions\n"), "{out}");
}

#[test]
fn replaying_stops_at_the_first_decision_the_new_rules_refuse() {
    // Under the new rules, X starts at (2, 2) and O holds (0, 1): X at (0, 0) is still
    // legal, O at (0, 1) no longer.
    let out = watched(PEOPLE, vec![line("1"), line("1"), starting_with(&[8, 1]), line("q")]);
    assert!(
        out.contains(
            "decision 2, `O at (0, 1)`, is no longer legal under the new rules: the game continues from decision 1\n"
        ),
        "{out}"
    );
    assert!(out.ends_with("result: player 1 quit after 1 decisions\n"), "{out}");

    // The very first decision refused: the game continues from the start.
    let out = watched(PEOPLE, vec![line("1"), starting_with(&[0]), line("q")]);
    assert!(
        out.contains("decision 1, `X at (0, 0)`, is no longer legal under the new rules: the game continues from the start\n"),
        "{out}"
    );
}

#[test]
fn rules_that_cannot_start_the_game_leave_it_as_it_was() {
    let refuse: Restart<TicTacToe> = Box::new(|_| Err(StartError::Players { given: 2, min: 3, max: 4 }));
    let out = watched(PEOPLE, vec![line("1"), Event::Reload(refuse), line("1"), line("q")]);
    assert!(out.contains("rules reloaded, but they cannot start this game: "), "{out}");
    assert!(out.contains("the game goes on under the rules as they were\n"), "{out}");
    assert!(out.contains("player 1: O at (0, 1)\n"), "{out}");
    assert!(out.ends_with("result: player 0 quit after 2 decisions\n"), "{out}");
}

#[test]
fn seeded_agents_play_the_game_play_plays() {
    let out = watched(&[SeatKind::Random], vec![starting_with(&[]), line("ignored")]);
    let mut played = Vec::new();
    let code = run_cli::<TicTacToe>(
        ["game", "play", "--seats", "random", "--seed", "5"],
        &b""[..],
        &mut played,
        std::io::sink(),
        false,
    );
    assert_eq!(code, 0);
    let played = String::from_utf8(played).unwrap();
    assert!(played.starts_with("result: "), "{played}");
    assert_eq!(out, format!("rules reloaded: 0 decisions replayed\n{played}"));
}
