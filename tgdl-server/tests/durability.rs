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
use tgdl_tests::crazy_eights;

const CHILD_DB: &str = "TGDL_SERVER_TEST_CHILD_DB";

/// Not a test of its own: the server process the durability test starts (it runs only
/// when the variable names a database, and then serves until killed).
#[test]
fn child_server() {
    let Some(db) = std::env::var_os(CHILD_DB) else { return };
    let args = ["game", "serve", "--port", "0", "--db"].iter().map(Into::into).chain([db]).collect();
    std::process::exit(tgdl_server::run_cli::<crazy_eights::Game>(args).into());
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
    let exe = std::env::current_exe().expect("the test binary");
    let mut child = Command::new(exe)
        .args(["child_server", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_DB, db)
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
