//! The command line of a game binary, run in-process: flags, outputs, exit codes.

use tgdl_play::cli::run_cli;
use tgdl_reference::TicTacToe;
use tgdl_reference::WalkGame;
use tgdl_runtime::Game;

struct Run {
    code: u8,
    out: String,
    err: String,
}

fn run<G: Game>(args: &[&str], input: &str, tty: bool) -> Run {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut argv = vec!["game"];
    argv.extend_from_slice(args);
    let code = run_cli::<G>(argv, input.as_bytes(), &mut out, &mut err, tty);
    Run { code, out: String::from_utf8(out).unwrap(), err: String::from_utf8(err).unwrap() }
}

fn ttt(args: &[&str]) -> Run {
    run::<TicTacToe>(args, "", false)
}

#[test]
fn perft_json_and_text() {
    let r = ttt(&["perft", "--depth", "3", "--json"]);
    assert_eq!((r.code, r.out.as_str()), (0, "{\"perft\":[9,72,504]}\n"));
    let r = ttt(&["perft", "--depth", "2"]);
    assert_eq!(r.out, "depth 1: 9\ndepth 2: 72\n");
    let r = ttt(&["perft", "--depth", "0", "--json"]);
    assert_eq!(r.out, "{\"perft\":[]}\n");
    // Rule errors met by perft are reported, with exit code 1.
    let r = run::<WalkGame>(&["perft", "--depth", "6"], "", false);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("rule error at walk.tgdl:9:13: fell off the board"), "{}", r.err);
}

#[test]
fn play_is_the_default_subcommand() {
    for args in [&["--seed", "4"][..], &["play", "--seed", "4"][..]] {
        let r = ttt(args);
        assert_eq!(r.code, 0, "{}", r.err);
        assert!(r.out.lines().last().unwrap().starts_with("result: "), "{}", r.out);
        // No seed line when the seed is given; no event lines without a person or --verbose.
        assert_eq!(r.out.lines().count(), 1, "{}", r.out);
    }
    let r = ttt(&["--seed", "4", "--verbose"]);
    assert!(r.out.starts_with("player 0: X at "), "{}", r.out);
    let r = ttt(&[]);
    assert!(r.out.starts_with("seed: "), "{}", r.out);
}

#[test]
fn seats_default_to_a_person_at_a_terminal() {
    let r = run::<TicTacToe>(&["--seed", "1"], "q\n", true);
    assert_eq!(r.code, 0);
    assert!(r.out.contains("player 0, choose a cell:"), "{}", r.out);
    assert!(r.out.ends_with("result: player 0 quit after 0 decisions\n"), "{}", r.out);
    let r = run::<TicTacToe>(&["--seed", "1", "--seats", "random,human"], "", false);
    assert_eq!(r.code, 0, "the person's input ended: they left, as with q");
    assert!(r.out.contains("player 0: X at "), "{}", r.out);
    assert!(r.out.ends_with("result: player 1 quit after 1 decisions\n"), "{}", r.out);
}

/// Enter takes the only option; `q` and the end of the input (Ctrl-D) end the
/// game quietly, with the result line and exit code 0.
#[test]
fn enter_takes_the_only_option_and_q_or_ctrl_d_quit_quietly() {
    // A drawn game between two people at one terminal: the last cell is the only option.
    let moves = "1\n1\n1\n2\n1\n2\n2\n1\n";
    let r = run::<TicTacToe>(&["--seed", "1", "--seats", "human,human"], &format!("{moves}\n"), false);
    assert_eq!((r.code, r.err.as_str()), (0, ""));
    assert!(
        r.out.contains("player 0, choose a cell:\n  1) X at (2, 2)\n> \nplayer 0: X at (2, 2)\n"),
        "{}",
        r.out
    );
    assert!(r.out.ends_with("result: draw\n"), "{}", r.out);
    // With several options, Enter asks again.
    let r = run::<TicTacToe>(&["--seed", "1", "--seats", "human,human"], "\nq\n", false);
    assert!(r.out.contains("> \nplease type a number from 1 to 9, or q to quit\n> q\n"), "{}", r.out);
    for (input, decisions) in [("q\n", 0), ("", 0), ("5\n", 1), ("5\nQuit\n", 1)] {
        let r = run::<TicTacToe>(&["--seed", "1", "--seats", "human"], input, true);
        assert_eq!((r.code, r.err.as_str()), (0, ""), "{input:?}: {}", r.out);
        let last = format!("result: player {} quit after {decisions} decisions\n", decisions % 2);
        assert!(r.out.ends_with(&last), "{input:?}: {}", r.out);
        assert!(!r.out.contains("error") && !r.out.contains("stopped"), "{input:?}: {}", r.out);
    }
}

/// Typed text picks an option only when it fits one; text fitting several
/// lists them and asks again.
#[test]
fn typed_text_fitting_several_options_asks_again() {
    let r = run::<TicTacToe>(&["--seed", "1", "--seats", "human,human"], "X at (0\nx AT (0,2)\nq\n", false);
    let expected = "> X at (0\n`X at (0` fits 3 options:\n  1) X at (0, 0)\n  2) X at (0, 1)\n  3) X at (0, 2)\n\
                    type the number of the one you mean\n> x AT (0,2)\nplayer 0: X at (0, 2)\n";
    assert!(r.out.contains(expected), "{}", r.out);
    assert!(r.out.ends_with("result: player 1 quit after 1 decisions\n"), "{}", r.out);
    // The end of a label after a space fits too: `(1, 1)` is `X at (1, 1)`.
    let r = run::<TicTacToe>(&["--seed", "1", "--seats", "human,human"], "(1, 1)\nq\n", false);
    assert!(r.out.contains("player 0: X at (1, 1)\n"), "{}", r.out);
}

/// The final position's header says how the game ended.
#[test]
fn the_final_header_states_the_result() {
    let r = run::<TicTacToe>(&["--seed", "1", "--seats", "human,human"], &"1\n".repeat(7), false);
    let last_screen = &r.out[r.out.rfind("== Tic-tac-toe ==").unwrap()..];
    assert!(last_screen.starts_with("== Tic-tac-toe ==\ngame over: player 0 wins\n"), "{last_screen}");
    assert!(last_screen.ends_with("result: player 0 wins\n"), "{last_screen}");
    let r = run::<TicTacToe>(&["--seed", "1", "--seats", "human,human"], "1\nq\n", false);
    let last_screen = &r.out[r.out.rfind("== Tic-tac-toe ==").unwrap()..];
    assert!(
        last_screen.starts_with("== Tic-tac-toe ==\ngame over: player 1 quit after 1 decisions\n"),
        "{last_screen}"
    );
}

#[test]
fn exit_codes() {
    let r = ttt(&["--players", "3", "--seed", "1"]);
    assert_eq!((r.code, r.err.as_str()), (1, "error: this game is for 2 players, not 3\n"));
    let r = ttt(&["--bogus"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("--bogus"), "{}", r.err);
    let r = ttt(&["--seats", "robot"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("robot"), "{}", r.err);
    let r = ttt(&["--seats", "random,random,random", "--seed", "0"]);
    assert_eq!(r.code, 2, "{}", r.err);
    let r = ttt(&["simulate"]);
    assert_eq!(r.code, 2, "-n is required");
    let r = ttt(&["perft", "--depth", "x"]);
    assert_eq!(r.code, 2);
    let r = ttt(&["--replay", "/nonexistent/trace.json"]);
    assert_eq!(r.code, 1);
    assert!(r.err.starts_with("error: cannot read trace /nonexistent/trace.json"), "{}", r.err);
    let r = ttt(&["--help"]);
    assert_eq!(r.code, 0);
    assert!(r.out.contains("simulate") && r.out.contains("perft"), "{}", r.out);
    let r = ttt(&["simulate", "--help"]);
    assert!(r.out.contains("--threads <T>") && r.out.contains("-n, --games <GAMES>"), "{}", r.out);
    // A rule error in play.
    let walk = (0..40)
        .map(|seed| run::<WalkGame>(&["--seed", &seed.to_string()], "", false))
        .find(|r| r.out.contains("result: error at"))
        .expect("some walk fails");
    assert_eq!(walk.code, 1);
    assert!(walk.out.ends_with("result: error at walk.tgdl:9:13: fell off the board\n"));
}

#[test]
fn simulate_json_and_text() {
    let r = ttt(&["simulate", "-n", "200", "--seed", "2", "--threads", "2", "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let json: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(json["games"], 200);
    assert_eq!(json["wins"].as_array().unwrap().len(), 2);
    assert_eq!(r.out.lines().count(), 1);
    let r = ttt(&["simulate", "-n", "50", "--players", "2"]);
    assert!(r.out.starts_with("Tic-tac-toe: 50 games, 2 players, seed 0"), "{}", r.out);
    // Rule errors in simulated games: exit code 1, the report still printed.
    let r = run::<WalkGame>(&["simulate", "--games", "100", "--max-decisions", "30", "--json"], "", false);
    assert_eq!(r.code, 1);
    let json: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(json["errors"][0]["message"], "fell off the board");
    let r = ttt(&["simulate", "-n", "5", "--players", "1"]);
    assert_eq!((r.code, r.err.as_str()), (1, "error: this game is for 2 players, not 1\n"));
}

#[test]
fn trace_and_replay_from_the_command_line() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    let r1 = ttt(&["--seed", "77", "--trace", a.to_str().unwrap()]);
    let r2 = ttt(&["--replay", a.to_str().unwrap(), "--trace", b.to_str().unwrap()]);
    assert_eq!((r1.code, r2.code), (0, 0));
    assert_eq!(r1.out, r2.out);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let r3 = ttt(&["--replay", a.to_str().unwrap(), "--seed", "3"]);
    assert_eq!(r3.code, 2, "{}", r3.err);
    // Through a link, the trace is written into the file it points at (renamed over it,
    // so a game killed while writing leaves the old trace or the new one whole).
    let link = dir.join("link.json");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&b, &link).unwrap();
    std::fs::write(&b, "old").unwrap();
    let r4 = ttt(&["--seed", "77", "--trace", link.to_str().unwrap()]);
    assert_eq!(r4.code, 0, "{}", r4.err);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

/// The command line's bad values: each gets a clear message before anything
/// runs, and `--threads` never starts more threads than there are games.
#[test]
fn bad_counts_and_seeds_are_refused_with_a_clear_message() {
    let r = ttt(&["simulate", "-n", "10", "--threads", "0"]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.err.contains("give at least 1 thread"), "{}", r.err);
    for args in [
        &["--seed", "-1"][..],
        &["simulate", "-n", "3", "--seed", "-1"],
        &["perft", "--depth", "1", "--seed", "x"],
    ] {
        let r = ttt(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.err);
        // One game's seed has 128 bits; a batch's, 64.
        let most = if args[0] == "simulate" { u128::from(u64::MAX) } else { u128::MAX };
        assert!(r.err.contains(&format!("a seed is a whole number from 0 to {most}")), "{}", r.err);
    }
    let r = ttt(&["simulate", "-n", "2", "--threads", "64"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains(" on 2 threads,"), "{}", r.out);
}

#[test]
fn an_unwritable_trace_is_reported_before_the_game() {
    let dir = std::env::temp_dir().join(format!("tgdl-no-such-dir-{}", std::process::id()));
    let path = dir.join("t.json");
    let r = ttt(&["--seed", "3", "--trace", path.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("cannot write trace"), "{}", r.err);
    // Nothing was played: no result line.
    assert!(!r.out.contains("result:"), "{}", r.out);
    // A writable path is left as it was found when the check passes: the game writes it.
    let ok = std::env::temp_dir().join(format!("tgdl-trace-probe-{}.json", std::process::id()));
    let r = ttt(&["--seed", "3", "--trace", ok.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(std::fs::read_to_string(&ok).unwrap().contains("\"decisions\""));
    let _ = std::fs::remove_file(ok);
}
