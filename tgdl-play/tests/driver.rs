//! Playing one game: result lines, the decision budget, traces and their replay, people at
//! a scripted console.

use std::path::PathBuf;
use tgdl_play::agent::{AgentError, HumanAgent, ScriptedAgent};
use tgdl_play::driver::{PlayConfig, PlayError, PlayOptions, SeatKind, play_game, run_play};
use tgdl_play::trace::{Trace, TraceResult};
use tgdl_play::{Agent, GameResult};
use tgdl_reference::{ConnectFour, TicTacToe};
use tgdl_reference::{DuelGame, WalkGame};
use tgdl_runtime::Game;

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("driver-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn last_line(output: &[u8]) -> String {
    String::from_utf8_lossy(output).lines().last().unwrap_or_default().to_string()
}

fn random_opts(seed: u64) -> PlayOptions {
    PlayOptions { seed: Some(seed.into()), seats: vec![SeatKind::Random], ..PlayOptions::default() }
}

/// Plays with random seats and a trace, replays the trace into a second one, and checks the
/// two traces are the same bytes and the games end with the same line.
fn trace_round_trip<G: Game>(name: &str, seed: u64, players: Option<u32>) -> Trace {
    let (first, second) = (temp(&format!("{name}-1.json")), temp(&format!("{name}-2.json")));
    let mut out1 = Vec::new();
    let opts = PlayOptions { trace: Some(first.clone()), players, ..random_opts(seed) };
    run_play::<G, _, _>(&opts, &b""[..], &mut out1).unwrap();
    let mut out2 = Vec::new();
    let opts = PlayOptions {
        replay: Some(first.clone()),
        trace: Some(second.clone()),
        seats: vec![SeatKind::Human],
        ..PlayOptions::default()
    };
    // A human seat is never asked: the trace is complete.
    run_play::<G, _, _>(&opts, &b""[..], &mut out2).unwrap();
    let (a, b) = (std::fs::read(&first).unwrap(), std::fs::read(&second).unwrap());
    assert_eq!(String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
    assert_eq!(last_line(&out1), last_line(&out2));
    let trace = Trace::load(&first).unwrap();
    assert_eq!(last_line(&out1), format!("result: {}", trace.result.as_ref().unwrap().text()));
    trace
}

#[test]
fn replaying_a_complete_trace_reproduces_it() {
    let trace = trace_round_trip::<TicTacToe>("ttt", 42, None);
    assert_eq!((trace.game.as_str(), trace.players, trace.seed), ("Tic-tac-toe", 2, 42));
    assert_eq!(trace.seats, ["random", "random"]);
    assert!(matches!(trace.result, Some(TraceResult::Over { .. })));
    trace_round_trip::<ConnectFour>("c4", 7, None);
    // Inputs in the middle of moves and in setup.
    let duel = trace_round_trip::<DuelGame>("duel", 3, None);
    assert_eq!(duel.decisions[0].label.split(' ').next(), Some("player"));
    // A rule error, three players.
    let walk = (0..50)
        .map(|seed| trace_round_trip::<WalkGame>(&format!("walk{seed}"), seed, Some(3)))
        .find(|t| matches!(t.result, Some(TraceResult::Error { .. })))
        .expect("some walk falls off the board");
    let text = walk.to_json();
    assert!(text.contains("\"status\": \"error\""), "{text}");
    assert!(text.contains("\"location\": \"walk.tgdl:9:13\""), "{text}");
}

#[test]
fn trace_json_shape() {
    let trace = trace_round_trip::<TicTacToe>("shape", 1, None);
    let json: serde_json::Value = serde_json::from_str(&trace.to_json()).unwrap();
    let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    for key in ["game", "source", "players", "seed", "seats", "decisions", "result"] {
        assert!(keys.contains(&key), "{keys:?}");
    }
    let d = &json["decisions"][0];
    assert_eq!(d["player"], 0);
    assert!(d["index"].is_u64() && d["label"].is_string());
    let r = &json["result"];
    assert!(["over", "error", "unfinished"].contains(&r["status"].as_str().unwrap()));
    assert!(r["text"].is_string());
}

#[test]
fn a_short_trace_continues_with_the_seats() {
    let full = trace_round_trip::<ConnectFour>("short", 11, None);
    let mut short = full.clone();
    short.decisions.truncate(3);
    short.result = None;
    let path = temp("short-3.json");
    short.save(&path).unwrap();
    let out = temp("short-out.json");
    let opts = PlayOptions { replay: Some(path), trace: Some(out.clone()), ..random_opts(11) };
    run_play::<ConnectFour, _, _>(&opts, &b""[..], Vec::new()).unwrap();
    let continued = Trace::load(&out).unwrap();
    assert_eq!(continued.decisions[..3], full.decisions[..3]);
    assert!(continued.result.is_some());
}

#[test]
fn a_replay_that_does_not_match_names_the_decision() {
    let mut trace = trace_round_trip::<TicTacToe>("mismatch", 5, None);
    trace.decisions[1].label = "X at (9, 9)".into();
    let path = temp("mismatch-bad.json");
    trace.save(&path).unwrap();
    let opts = PlayOptions { replay: Some(path), ..PlayOptions::default() };
    let err = run_play::<TicTacToe, _, _>(&opts, &b""[..], Vec::new()).unwrap_err();
    assert!(matches!(err, PlayError::Replay(_)));
    let message = err.to_string();
    assert!(message.contains("decision 2 is \"X at (9, 9)\" in the trace"), "{message}");

    let mut trace = trace_round_trip::<TicTacToe>("mismatch2", 5, None);
    trace.decisions[3].index = 99;
    let path = temp("mismatch-index.json");
    trace.save(&path).unwrap();
    let opts = PlayOptions { replay: Some(path), ..PlayOptions::default() };
    let err = run_play::<TicTacToe, _, _>(&opts, &b""[..], Vec::new()).unwrap_err();
    assert!(err.to_string().contains("decision 4 is option 99"), "{err}");

    // Decisions after the end of the game.
    let mut trace = trace_round_trip::<TicTacToe>("mismatch3", 5, None);
    let extra = trace.decisions[0].clone();
    trace.decisions.push(extra);
    let path = temp("mismatch-long.json");
    trace.save(&path).unwrap();
    let opts = PlayOptions { replay: Some(path), ..PlayOptions::default() };
    let err = run_play::<TicTacToe, _, _>(&opts, &b""[..], Vec::new()).unwrap_err();
    assert!(err.to_string().contains("but the trace has"), "{err}");

    // A trace of another game.
    let path = temp("mismatch-game.json");
    trace.game = "Chess".into();
    trace.save(&path).unwrap();
    let opts = PlayOptions { replay: Some(path), ..PlayOptions::default() };
    let err = run_play::<TicTacToe, _, _>(&opts, &b""[..], Vec::new()).unwrap_err();
    assert!(err.to_string().contains("the trace is of \"Chess\""), "{err}");
}

#[test]
fn bad_trace_files_are_errors_not_panics() {
    let path = temp("garbage.json");
    std::fs::write(&path, "{ this is not json").unwrap();
    let opts = PlayOptions { replay: Some(path.clone()), ..PlayOptions::default() };
    let err = run_play::<TicTacToe, _, _>(&opts, &b""[..], Vec::new()).unwrap_err();
    assert!(matches!(err, PlayError::Trace(_)));
    assert!(err.to_string().contains("garbage.json: not a valid trace"), "{err}");

    let opts = PlayOptions { replay: Some(temp("missing.json")), ..PlayOptions::default() };
    let err = run_play::<TicTacToe, _, _>(&opts, &b""[..], Vec::new()).unwrap_err();
    assert!(err.to_string().starts_with("cannot read trace"), "{err}");

    std::fs::write(&path, r#"{"game": "Tic-tac-toe", "players": 2}"#).unwrap();
    let opts = PlayOptions { replay: Some(path), ..PlayOptions::default() };
    assert!(run_play::<TicTacToe, _, _>(&opts, &b""[..], Vec::new()).is_err());
}

#[test]
fn the_budget_ends_a_game_as_unfinished() {
    let mut out = Vec::new();
    let opts = PlayOptions { max_decisions: 2, verbose: true, ..random_opts(1) };
    let result = run_play::<WalkGame, _, _>(&opts, &b""[..], &mut out).unwrap();
    assert_eq!(result, GameResult::Unfinished { decisions: 2 });
    assert!(!result.is_failure());
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("player 0: ") && lines[1].starts_with("player 0: "), "{text}");
    assert_eq!(lines[2], "result: unfinished after 2 decisions");

    let opts = PlayOptions { max_decisions: 0, ..random_opts(1) };
    let mut out = Vec::new();
    run_play::<TicTacToe, _, _>(&opts, &b""[..], &mut out).unwrap();
    assert_eq!(last_line(&out), "result: unfinished after 0 decisions");
}

#[test]
fn rule_errors_end_the_game_with_their_location() {
    let mut seats: Vec<Box<dyn Agent<WalkGame>>> = vec![Box::new(ScriptedAgent::new(vec![0, 0, 0, 0]))];
    let config = PlayConfig {
        players: 1,
        seed: 0,
        max_decisions: 100,
        verbose: false,
        reveal: false,
        trace_for: None,
        params: Default::default(),
    };
    let mut out = Vec::new();
    let played = play_game(&mut seats, &config, None, &mut out).unwrap();
    assert!(played.result.is_failure());
    assert_eq!(String::from_utf8(out).unwrap(), "result: error at walk.tgdl:9:13: fell off the board\n");
    assert_eq!(played.trace.seats, ["scripted"]);

    // A script that runs out stops the game; it is not a rule error.
    let mut seats: Vec<Box<dyn Agent<WalkGame>>> = vec![Box::new(ScriptedAgent::new(vec![1]))];
    let played = play_game(&mut seats, &config, None, &mut Vec::new()).unwrap();
    assert!(matches!(played.result, GameResult::Stopped { player: 0, decisions: 1, .. }));
    // With a fallback it plays on.
    let mut seats: Vec<Box<dyn Agent<WalkGame>>> = vec![Box::new(ScriptedAgent::new(vec![1]).then_random(3))];
    let played = play_game(&mut seats, &config, None, &mut Vec::new()).unwrap();
    assert!(played.trace.decisions.len() > 1);
}

#[test]
fn start_errors_and_seat_lists() {
    let opts = PlayOptions { players: Some(3), ..random_opts(0) };
    let err = run_play::<TicTacToe, _, _>(&opts, &b""[..], Vec::new()).unwrap_err();
    assert_eq!(err.to_string(), "this game is for 2 players, not 3");
    let opts = PlayOptions { seats: vec![SeatKind::Random; 3], ..random_opts(0) };
    let err = run_play::<TicTacToe, _, _>(&opts, &b""[..], Vec::new()).unwrap_err();
    assert!(matches!(err, PlayError::Usage(_)), "{err}");
    assert_eq!(
        tgdl_play::driver::expand_seats(&[SeatKind::Human, SeatKind::Random], 4).unwrap(),
        [SeatKind::Human, SeatKind::Random, SeatKind::Random, SeatKind::Random]
    );
}

#[test]
fn a_fresh_seed_is_printed_to_the_designer_alone() {
    let seed_line = |opts: &PlayOptions, input: &str| {
        let mut out = Vec::new();
        run_play::<TicTacToe, _, _>(opts, input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        text.lines().find_map(|l| l.strip_prefix("seed: ").map(str::to_string))
    };
    // Agents alone: the designer watches, and may replay the game from the seed.
    let agents = PlayOptions { seats: vec![SeatKind::Random], ..PlayOptions::default() };
    let seeds: Vec<u128> =
        (0..2).map(|_| seed_line(&agents, "").expect("a seed line").parse().unwrap()).collect();
    assert_ne!(seeds[0], seeds[1], "each game its own seed");
    assert!(seeds.iter().any(|&s| s > u128::from(u64::MAX)), "128 bits, not 64: {seeds:?}");
    // A person at the table is never told it; with `--reveal` the designer is.
    let person = PlayOptions { seats: vec![SeatKind::Human, SeatKind::Random], ..PlayOptions::default() };
    let moves = "1\n2\n3\n4\n5\n6\n7\n8\n9\n".repeat(3);
    assert_eq!(seed_line(&person, &moves), None);
    let designer = PlayOptions { reveal: true, ..person };
    assert!(seed_line(&designer, &moves).is_some());
}

fn human(input: &str) -> HumanAgent<&[u8], Vec<u8>> {
    HumanAgent::new(input.as_bytes(), Vec::new())
}

fn output(agent: &HumanAgent<&[u8], Vec<u8>>) -> String {
    String::from_utf8(agent.console().borrow().output.clone()).unwrap()
}

#[test]
fn human_agent_reasks_on_bad_input() {
    let game = TicTacToe::start(2, 0).unwrap();
    let mut agent = human("abc\n0\n10\n\n  2 \n");
    assert_eq!(agent.choose_in(&game).unwrap(), 1);
    let text = output(&agent);
    assert!(text.contains("== Tic-tac-toe =="), "{text}");
    assert!(text.contains("player 0, choose a cell:\n  1) X at (0, 0)\n  2) X at (0, 1)\n"), "{text}");
    assert!(text.contains("  9) X at (2, 2)\n> "), "{text}");
    assert_eq!(text.matches("please type a number from 1 to 9, or q to quit").count(), 4, "{text}");

    // An exact label is an answer too.
    let mut agent = human("X at (1, 1)\n");
    assert_eq!(agent.choose_in(&game).unwrap(), 4);
}

#[test]
fn human_agent_quits_and_fails_at_end_of_input() {
    let game = TicTacToe::start(2, 0).unwrap();
    assert!(matches!(human("q\n").choose_in(&game), Err(AgentError::Quit)));
    assert!(matches!(human("oops\nQUIT\n").choose_in(&game), Err(AgentError::Quit)));
    assert!(matches!(human("").choose_in(&game), Err(AgentError::EndOfInput)));
    assert!(matches!(human("12\n").choose_in(&game), Err(AgentError::EndOfInput)));
}

#[test]
fn a_person_plays_through_run_play() {
    // The person always takes the first option; the random seat answers.
    let input = "1\n".repeat(9);
    let mut out = Vec::new();
    let opts = PlayOptions { seats: vec![SeatKind::Human, SeatKind::Random], ..random_opts(8) };
    let result = run_play::<TicTacToe, _, _>(&opts, input.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(matches!(result, GameResult::Over(_)), "{text}");
    assert!(text.contains("player 0: X at (0, 0)\n"), "{text}");
    assert!(text.contains("player 1: O at "), "{text}");
    assert_eq!(last_line(text.as_bytes()), result.line());
    // The final position is drawn before the result.
    let before_result = text.lines().rev().nth(1).unwrap();
    assert!(before_result.starts_with("2 "), "{text}");

    // Two people at one console take turns reading it.
    let mut out = Vec::new();
    let opts = PlayOptions { seats: vec![SeatKind::Human], echo_input: true, ..random_opts(8) };
    let result = run_play::<TicTacToe, _, _>(&opts, "1\n".repeat(7).as_bytes(), &mut out).unwrap();
    assert_eq!(result.text(), "player 0 wins");
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("\n> 1\nplayer ").count(), 7, "{text}");
    let moves: Vec<&str> = text.lines().filter(|l| l.starts_with("player ") && l.contains(": ")).collect();
    assert_eq!(
        moves,
        [
            "player 0: X at (0, 0)",
            "player 1: O at (0, 1)",
            "player 0: X at (0, 2)",
            "player 1: O at (1, 0)",
            "player 0: X at (1, 1)",
            "player 1: O at (1, 2)",
            "player 0: X at (2, 0)"
        ]
    );
}

#[test]
fn quitting_and_end_of_input() {
    let mut out = Vec::new();
    let opts = PlayOptions { seats: vec![SeatKind::Human, SeatKind::Random], ..random_opts(8) };
    let result = run_play::<TicTacToe, _, _>(&opts, "1\nq\n".as_bytes(), &mut out).unwrap();
    assert_eq!(result, GameResult::Quit { player: 0, decisions: 2 });
    assert!(!result.is_failure());
    assert_eq!(last_line(&out), "result: player 0 quit after 2 decisions");

    // The end of the input (Ctrl-D) is the person leaving: quitting, not a failure.
    let mut out = Vec::new();
    let result = run_play::<TicTacToe, _, _>(&opts, "".as_bytes(), &mut out).unwrap();
    assert_eq!(result, GameResult::Quit { player: 0, decisions: 0 });
    assert!(!result.is_failure());
    assert_eq!(last_line(&out), "result: player 0 quit after 0 decisions");
}

#[test]
fn a_quit_game_can_be_resumed_from_its_trace() {
    let path = temp("resume.json");
    let opts = PlayOptions {
        seats: vec![SeatKind::Human, SeatKind::Random],
        trace: Some(path.clone()),
        ..random_opts(8)
    };
    run_play::<TicTacToe, _, _>(&opts, "1\nq\n".as_bytes(), Vec::new()).unwrap();
    let trace = Trace::load(&path).unwrap();
    assert_eq!(trace.decisions.len(), 2);
    assert!(matches!(trace.result, Some(TraceResult::Abandoned { player: 0, .. })));

    let mut out = Vec::new();
    let opts = PlayOptions {
        seats: vec![SeatKind::Human, SeatKind::Random],
        replay: Some(path),
        ..PlayOptions::default()
    };
    let result = run_play::<TicTacToe, _, _>(&opts, "1\n1\n1\n1\n".as_bytes(), &mut out).unwrap();
    assert!(matches!(result, GameResult::Over(_)), "{}", String::from_utf8_lossy(&out));
}
