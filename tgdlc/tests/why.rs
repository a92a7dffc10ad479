//! `tgdlc why` (docs/testing.md, "Why not?"): a move on the menu is told with the rules it
//! passed; a move that is not, with the rule that removed it, its place, the values it read
//! and, inside the functions it called, where the rules said no.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn tgdlc(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tgdlc"))
        .current_dir(root())
        .args(args)
        .env("NO_COLOR", "1")
        .env("TGDL_NO_BACKGROUND_BUILD", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tgdlc runs");
    child.stdin.take().expect("piped").write_all(input.as_bytes()).expect("input written");
    child.wait_with_output().expect("tgdlc ends")
}

fn why(args: &[&str]) -> String {
    let out = tgdlc(&[&["why"], args].concat(), "");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgdlc-why-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

#[test]
fn a_move_on_the_menu_is_told_with_the_rules_it_passed() {
    let out = why(&["examples/tic_tac_toe.tgdl", "place Cell(1, 1)"]);
    assert_eq!(
        out,
        "`place Cell(1, 1)` is offered\n\
         it is the action `place` (tic_tac_toe.tgdl:62:12)\n\
         the filter of `cell` lets Cell(1, 1) through (tic_tac_toe.tgdl:64:27): `input Cell cell { return cell.mark == null; }`\n"
    );
}

#[test]
fn a_refused_move_is_told_with_the_rule_and_the_values_it_read() {
    let dir = scratch("ttt");
    let trace = dir.join("t.json");
    let t = trace.to_str().expect("UTF-8 path");
    let played = tgdlc(
        &[
            "play",
            "examples/tic_tac_toe.tgdl",
            "--engine",
            "interpreted",
            "--seats",
            "human,human",
            "--trace",
            t,
        ],
        "Cell(1, 1)\nq\n",
    );
    assert!(trace.exists(), "{}", String::from_utf8_lossy(&played.stderr));
    let out = why(&["examples/tic_tac_toe.tgdl", "--replay", t, "place Cell(1, 1)"]);
    assert!(out.starts_with("`place Cell(1, 1)` is not offered\n"), "{out}");
    assert!(
        out.contains(
            "the filter of `cell` refuses Cell(1, 1) (tic_tac_toe.tgdl:64:27): `input Cell cell { return cell.mark == null; }`\n  with cell.mark = 0\n"
        ),
        "{out}"
    );
    let out = why(&["examples/tic_tac_toe.tgdl", "--replay", t, "place Cell(7, 1)"]);
    assert!(out.ends_with("no value of the input `cell` reads `Cell(7, 1)`\n"), "{out}");
    let out = why(&["examples/tic_tac_toe.tgdl", "jump", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(json["offered"], false);
    assert_eq!(json["lines"][0], "no move of the menu's actions reads `jump`");
}

/// The trace of a chess game played by `moves` (`e2e4`, ...) on the interpreter.
fn chess_trace(name: &str, moves: &[&str]) -> PathBuf {
    let typed: String = moves.iter().map(|m| format!("{}-{}\n", &m[0..2], &m[2..4])).collect();
    let trace = scratch(name).join("chess.json");
    let t = trace.to_str().expect("UTF-8 path");
    tgdlc(
        &["play", "examples/chess.tgdl", "--engine", "interpreted", "--seats", "human,human", "--trace", t],
        &format!("{typed}q\n"),
    );
    trace
}

/// Castling through a square a bishop attacks: the filter of `to` refuses it, and the
/// chain of `return false` leads from `legal` into `can_castle`'s attacked-square check.
#[test]
fn castling_through_an_attacked_square_points_at_the_rule_that_forbids_it() {
    let trace = chess_trace("chess", &["g2g3", "b7b6", "f1g2", "c8a6", "g1f3", "e7e6", "e2e3", "d7d6"]);
    let t = trace.to_str().expect("UTF-8 path");
    let out = why(&["examples/chess.tgdl", "--replay", t, "e1-g1"]);
    assert!(out.starts_with("`e1-g1` is not offered\n"), "{out}");
    assert!(out.contains("the filter of `to` refuses g1 (chess.tgdl:317:27)"), "{out}");
    assert!(
        out.ends_with(
            "  because chess.tgdl:224:44: `if (abs(dx) == 2 && dy == 0) { return can_castle(king: from, to: to); }`\n  \
             because chess.tgdl:260:79: `if (attacked(target: s, by: them, from: king, to: s, taken: s)) { return false; }`\n"
        ),
        "{out}"
    );
}

/// A knight pinned to its king (1. d4 e6 2. c4 Bb4+ 3. Nc3 a6): its moves are refused by
/// the filter of `to`, whose `legal()` says no where the move would leave the king attacked.
#[test]
fn a_pinned_piece_is_told_that_its_move_would_leave_the_king_attacked() {
    let trace = chess_trace("pin", &["d2d4", "e7e6", "c2c4", "f8b4", "b1c3", "a7a6"]);
    let t = trace.to_str().expect("UTF-8 path");
    let label = "c3-e4";
    let out = why(&["examples/chess.tgdl", "--replay", t, label]);
    assert!(out.starts_with(&format!("`{label}` is not offered\n")), "{out}");
    assert!(out.contains("the filter of `to` refuses e4 (chess.tgdl:317:27)"), "{out}");
    assert!(
        out.ends_with("  because chess.tgdl:236:9: `return !attacked(target: king, by: me + 1, from: from, to: to, taken: taken);`\n"),
        "legal() says no where the king would be attacked: {out}"
    );
    // The king's own moves are still on the menu.
    let out = why(&["examples/chess.tgdl", "--replay", t, "e1-d2"]);
    assert!(out.contains("is offered\n"), "{out}");
}

/// A move the game writes itself (`11-15`, English draughts' `label_step`) is asked about
/// as it reads: the move whose squares it writes so is walked.
#[test]
fn a_move_the_game_writes_is_asked_about_as_it_reads() {
    let out = why(&["examples/english_draughts.tgdl", "8-11"]);
    assert!(out.starts_with("`8-11` is not offered\n"), "{out}");
    assert!(out.contains("the filter of `to` refuses 11 (english_draughts.tgdl:"), "{out}");
    let out = why(&["examples/english_draughts.tgdl", "11-15"]);
    assert!(out.starts_with("`11-15` is offered\n"), "{out}");
}

/// In a filter of several statements, the one that said no is told, with the values it
/// read (not those of statements it never reached).
#[test]
fn the_statement_that_said_no_is_told_with_its_own_values() {
    let out = why(&["examples/breakthrough.tgdl", "step from=Square(3, 6) to=Square(5, 5)"]);
    assert!(
        out.ends_with(
            "the filter of `to` refuses Square(5, 5) (breakthrough.tgdl:74:13): `if (dx < -1 || dx > 1) { return false; }`\n  with dx = 2\n"
        ),
        "{out}"
    );
    let out = why(&["examples/breakthrough.tgdl", "step from=Square(3, 6) to=Square(3, 4)"]);
    assert!(
        out.ends_with(
            "(breakthrough.tgdl:72:13): `if (to.y != from.y + forward(p: player.active())) { return false; }`\n  with to.y = 4, from.y = 6\n"
        ),
        "{out}"
    );
}

/// At the terminal's prompt, `why LABEL` answers and the prompt comes back.
#[test]
fn why_at_the_prompt_answers_and_asks_again() {
    let out = tgdlc(
        &["play", "examples/tic_tac_toe.tgdl", "--engine", "interpreted", "--seats", "human,human"],
        "Cell(1, 1)\nwhy place Cell(1, 1)\nq\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let answer = text.split("`place Cell(1, 1)` is not offered\n").nth(1).unwrap_or_else(|| panic!("{text}"));
    assert!(answer.starts_with("it is the action `place` (tic_tac_toe.tgdl:62:12)\n"), "{text}");
    assert!(answer.contains("  with cell.mark = 0\n> "), "the prompt again: {text}");
    assert!(text.ends_with("result: player 1 quit after 1 decisions\n"), "{text}");
}

/// The server answers `GET /api/matches/{id}/why?token=T&label=L` for a seat, on the
/// interpreter; a spectator and a question without a label are refused.
#[test]
fn the_server_answers_why_for_a_seat() {
    use std::io::{BufRead, BufReader, Read};
    use std::net::{SocketAddr, TcpStream};
    let dir = scratch("serve");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tgdlc"))
        .current_dir(root())
        .args(["serve", "examples/tic_tac_toe.tgdl", "--engine", "interpreted", "--port", "0", "--db"])
        .arg(dir.join("ttt.sqlite"))
        .env("TGDL_NO_BACKGROUND_BUILD", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tgdlc runs");
    let mut lines = BufReader::new(child.stdout.take().expect("its output")).lines();
    let addr: SocketAddr = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("listening on http://").map(|a| a.trim().parse().expect("an address")))
        .expect("tgdl serve listens");
    std::thread::spawn(move || for _ in lines {});
    let request = |head: &str, body: &str| {
        let mut stream = TcpStream::connect(addr).expect("connect");
        let text = format!(
            "{head} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(text.as_bytes()).expect("send");
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer
    };
    let created = request("POST /api/matches", r#"{"players": 2, "seats": ["human", "human"]}"#);
    assert!(created.starts_with("HTTP/1.1 201"), "{created}");
    let body = created.split("\r\n\r\n").nth(1).expect("a body");
    let json: serde_json::Value = serde_json::from_str(body).expect("JSON");
    let id = json["id"].as_str().expect("an id");
    let token = json["seats"][0]["token"].as_str().expect("seat 0's token");
    let asked = request(&format!("GET /api/matches/{id}/why?token={token}&label=place%20Cell(1,%201)"), "");
    assert!(asked.starts_with("HTTP/1.1 200"), "{asked}");
    let answer: serde_json::Value =
        serde_json::from_str(asked.split("\r\n\r\n").nth(1).expect("a body")).expect("JSON");
    assert_eq!(answer["lines"][0], "`place Cell(1, 1)` is offered", "{answer}");
    let spectator = request(&format!("GET /api/matches/{id}/why?label=place%20Cell(1,%201)"), "");
    assert!(spectator.starts_with("HTTP/1.1 403"), "{spectator}");
    let unlabelled = request(&format!("GET /api/matches/{id}/why?token={token}"), "");
    assert!(unlabelled.starts_with("HTTP/1.1 400") && unlabelled.contains("\"error\""), "{unlabelled}");
    let game = request("GET /api/game", "");
    assert!(game.contains("\"why\":true"), "the interpreter says it answers why: {game}");
    let _ = child.kill();
    let _ = child.wait();
}
