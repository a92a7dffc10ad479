//! Durability: a real server process (this test binary, re-run as `serve` through
//! `tgdl_server::run_cli`, as a game binary runs it) plays 20 matches, is killed with
//! SIGKILL, and started again on the same database: every match is at the state an
//! uninterrupted server reaches with the same decisions, and plays on to its end.

mod common;

use common::{Client, TestServer};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use tgdl_tests::{crazy_eights, goofspiel};

const CHILD_DB: &str = "TGDL_SERVER_TEST_CHILD_DB";
/// `goofspiel` to serve Goofspiel (simultaneous bids) instead of crazy eights.
const CHILD_GAME: &str = "TGDL_SERVER_TEST_CHILD_GAME";

/// Not a test of its own: the server process the durability tests start (it runs only
/// when the variable names a database, and then serves until killed).
#[test]
fn child_server() {
    let Some(db) = std::env::var_os(CHILD_DB) else { return };
    let args = ["game", "serve", "--port", "0", "--db"].iter().map(Into::into).chain([db]).collect();
    let code = match std::env::var(CHILD_GAME).as_deref() {
        Ok("goofspiel") => tgdl_server::run_cli::<goofspiel::Game>(args),
        _ => tgdl_server::run_cli::<crazy_eights::Game>(args),
    };
    std::process::exit(code.into());
}

/// The server process, and where it listens. Killed when dropped (a failed test leaves
/// no server behind).
struct Process {
    child: Child,
    addr: SocketAddr,
}

impl Process {
    /// SIGKILL (on Unix `Child::kill` sends it): no chance to flush or close anything.
    fn kill(&mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("reaped");
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn(db: &Path) -> Process {
    spawn_game(db, "crazy_eights")
}

fn spawn_game(db: &Path, game: &str) -> Process {
    let exe = std::env::current_exe().expect("the test binary");
    let mut child = Command::new(exe)
        .args(["child_server", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_DB, db)
        .env(CHILD_GAME, game)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server starts");
    let stdout = child.stdout.take().expect("its output");
    let mut lines = BufReader::new(stdout).lines();
    let addr = loop {
        let line = lines.next().expect("the server prints where it listens").expect("a line");
        // (The test harness may print `test child_server ... ` first on the same line.)
        if let Some((_, url)) = line.split_once("listening on http://") {
            break url.trim().parse().expect("an address");
        }
    };
    // Keep reading its output, so it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Process { child, addr }
}

/// Seats and script of match `i`: 3 players, two people and a random agent.
fn create(c: &Client, i: u64) -> (String, Vec<Option<String>>) {
    c.create(&json!({ "players": 3, "seats": ["human", "random", "human"], "seed": 500 + i }))
}

fn choice(decisions: u64, options: usize, i: u64) -> usize {
    ((decisions * 5 + i) % options as u64) as usize
}

/// Plays up to `count` human decisions of a match; the last answer is not waited past
/// (the agent may still be thinking when the server is killed).
fn play(c: &Client, id: &str, tokens: &[Option<String>], i: u64, count: usize) {
    for _ in 0..count {
        let s = c.settled(id, None);
        if s["finished"] == true {
            return;
        }
        let p = s["decides"].as_u64().unwrap() as usize;
        let token = tokens[p].as_deref().expect("a human decides");
        let mine = c.state(id, Some(token));
        let options = mine["options"].as_array().unwrap().len();
        let n = mine["decisions"].as_u64().unwrap();
        let r = c.post(
            &format!("/api/matches/{id}/decisions"),
            &json!({ "token": token, "option": choice(n, options, i), "decisions": n }),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
}

/// What must be the same after a restart: everything but the match's id.
fn comparable(mut s: Value) -> Value {
    s.as_object_mut().expect("a state").remove("id");
    s
}

fn db_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tgdl-server-durability");
    std::fs::create_dir_all(&dir).expect("a directory");
    let db = dir.join(format!("{name}-{}.sqlite", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    db
}

#[test]
fn a_killed_server_resumes_every_match() {
    const MATCHES: u64 = 20;
    let db = db_path("killed");
    let mut first = spawn(&db);
    let c = Client { addr: first.addr };
    let mut matches = Vec::new();
    for i in 0..MATCHES {
        let (id, tokens) = create(&c, i);
        matches.push((id, tokens));
    }
    for (i, (id, tokens)) in matches.iter().enumerate() {
        play(&c, id, tokens, i as u64, 2 + i % 5);
    }
    first.kill();

    // The same script on a server that was never interrupted.
    let reference = TestServer::in_memory::<crazy_eights::Game>();
    let r = reference.client();
    let mut expected = Vec::new();
    for i in 0..MATCHES {
        let (id, tokens) = create(&r, i);
        play(&r, &id, &tokens, i, 2 + i as usize % 5);
        expected.push((id, tokens));
    }

    let mut second = spawn(&db);
    let c = Client { addr: second.addr };
    for (i, ((id, tokens), (rid, rtokens))) in matches.iter().zip(&expected).enumerate() {
        for seat in 0..3 {
            let now = c.settled(id, tokens[seat].as_deref());
            let want = r.settled(rid, rtokens[seat].as_deref());
            assert_eq!(comparable(now), comparable(want), "match {i}, seat {seat}");
        }
        let spectator = c.settled(id, None);
        assert!(spectator["decisions"].as_u64().unwrap() >= 2, "match {i} has its decisions");
    }
    // Every match plays on to its end.
    for (i, (id, tokens)) in matches.iter().enumerate() {
        play(&c, id, tokens, i as u64, 400);
        let end = c.settled(id, None);
        assert_eq!(end["finished"], true, "match {i}: {}", end["result"]);
        assert!(
            end["result"]
                .as_str()
                .is_some_and(|r| r.contains("wins") || r.contains("ranking") || r == "draw"),
            "{}",
            end["result"]
        );
    }
    second.kill();
}

/// Two players of a round of simultaneous bids submit at the same moment; the server is
/// killed and started again: both bids are kept, and the round was resolved once.
#[test]
fn simultaneous_bids_survive_a_kill_and_resolve_once() {
    let db = db_path("rounds");
    let mut first = spawn_game(&db, "goofspiel");
    let c = Client { addr: first.addr };
    let (id, tokens) = c.create(&json!({
        "players": 2, "seats": ["human", "human"], "seed": 9,
        "params": { "num_cards": 4, "points_order": "descending" },
    }));
    let tokens: Vec<String> = tokens.into_iter().map(|t| t.expect("two people")).collect();
    // Each bids at once, having seen the round open (decision 0): player 0 its card 1
    // (option 0), player 1 its card 3 (option 2).
    let bids = std::thread::scope(|s| {
        let handles: Vec<_> = [(0usize, 0usize), (1, 2)]
            .into_iter()
            .map(|(seat, option)| {
                let (c, id, token) = (&c, &id, &tokens[seat]);
                s.spawn(move || {
                    c.post(
                        &format!("/api/matches/{id}/decisions"),
                        &json!({ "token": token, "option": option, "decisions": 0 }),
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a submission")).collect::<Vec<_>>()
    });
    for r in &bids {
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let before = c.state(&id, None);
    assert_eq!(before["decisions"], 2, "{before}");
    let resolved = |s: &Value| {
        s["log"].as_array().unwrap().iter().filter(|l| l.as_str().unwrap().starts_with("prize 4:")).count()
    };
    assert_eq!(resolved(&before), 1, "the round is resolved once: {before}");
    assert!(before["log"].to_string().contains("prize 4: player 0 bids 1, player 1 bids 3"), "{before}");
    first.kill();

    let second = spawn_game(&db, "goofspiel");
    let c = Client { addr: second.addr };
    let after = c.state(&id, None);
    assert_eq!(comparable(after.clone()), comparable(before), "the match after the restart");
    assert_eq!(resolved(&after), 1);
    // The next round, the other way round: player 1 first. Player 0 reads its bid as a
    // secret until the round closes.
    let r = c.decide(&id, &tokens[1], 0);
    assert_eq!(r.status, 200, "{}", r.body);
    let mine = c.state(&id, Some(&tokens[0]));
    assert_eq!(mine["observation"]["round"], json!({ "players": [0, 1], "chosen": [false, true] }));
    assert_eq!(mine["history"][2]["label"], "a secret choice", "{mine}");
    assert_eq!(mine["options"].as_array().unwrap().len(), 3, "player 0 still bids: {mine}");
    let r = c.decide(&id, &tokens[0], 0);
    assert_eq!(r.status, 200, "{}", r.body);
    let s = c.state(&id, None);
    assert!(s["log"].to_string().contains("prize 3: player 0 bids 2, player 1 bids 1"), "{s}");
    // The history steps through the rounds as they were submitted.
    let step = c.get(&format!("/api/matches/{id}/history/3?token={}", tokens[0])).json();
    assert_eq!(step["observation"]["round"], json!({ "players": [0, 1], "chosen": [false, true] }), "{step}");
    let step = c.get(&format!("/api/matches/{id}/history/4")).json();
    assert_eq!(step["log"], s["log"], "{step}");
}
