//! `tgdlc serve` stopped as process managers and terminals stop it (SIGTERM from systemd
//! or Docker, SIGHUP from a closed terminal or multiplexer, SIGINT from Ctrl-C): the
//! server it runs stops gracefully — requests in flight are answered, update streams end,
//! the database is closed — and nothing is left holding the port or the database.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn tgdlc() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tgdlc"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    cmd.current_dir(&root);
    // A game played by the interpreter starts no native build in the background here.
    cmd.env("TGDL_NO_BACKGROUND_BUILD", "1");
    // Share one cache inside the workspace's target directory (CI sets it too).
    if std::env::var_os("TGDL_CACHE").is_none() {
        cmd.env("TGDL_CACHE", root.join("target/tgdl-cache"));
    }
    cmd
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgdl-serve-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// Sends a request and returns the connection, to read the answer later.
fn send(addr: SocketAddr, request: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).expect("connect");
    // A bound for a hung test, not a timing assertion.
    stream.set_read_timeout(Some(Duration::from_secs(120))).expect("a timeout");
    stream.write_all(request.as_bytes()).expect("send");
    stream
}

fn read_all(mut stream: TcpStream) -> String {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw).into_owned()
}

fn stop_with(signal: &str) {
    let dir = temp_dir(signal);
    let db = dir.join("ttt.sqlite");
    let mut child = tgdlc()
        .args(["serve", "examples/tic_tac_toe.tgdl", "--port", "0", "--db"])
        .arg(&db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tgdlc runs");
    let mut lines = BufReader::new(child.stdout.take().expect("its output")).lines();
    let addr: SocketAddr =
        match lines.by_ref().map_while(Result::ok).find_map(|l| {
            l.strip_prefix("listening on http://").map(|a| a.trim().parse().expect("an address"))
        }) {
            Some(a) => a,
            None => {
                let mut err = String::new();
                let _ = child.stderr.take().expect("its errors").read_to_string(&mut err);
                panic!("tgdlc serve did not start:\n{err}");
            }
        };
    std::thread::spawn(move || for _ in lines {});

    let body = r#"{"players": 2}"#;
    let created = read_all(send(
        addr,
        &format!(
            "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    ));
    assert!(created.starts_with("HTTP/1.1 201"), "{created}");
    let id = created.split("\"id\":\"").nth(1).and_then(|r| r.split('"').next()).expect("an id").to_string();
    // In flight when the signal comes: an update stream and a long poll.
    let mut stream = send(addr, &format!("GET /api/matches/{id}/events HTTP/1.1\r\nHost: {addr}\r\n\r\n"));
    let mut first = [0u8; 64];
    let _ = stream.read(&mut first).expect("the stream starts");
    let poll = send(
        addr,
        &format!("GET /api/matches/{id}?after=0 HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    std::thread::sleep(Duration::from_millis(200));

    let pid = child.id().to_string();
    assert!(Command::new("kill").args([&format!("-{signal}"), &pid]).status().expect("kill runs").success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("SIG{signal}: tgdlc serve still runs after 2 minutes");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    let _ = child.stderr.take().expect("its errors").read_to_string(&mut err);
    assert!(status.success(), "SIG{signal}: {status}\n{err}");
    // Nothing is left running as that process, holding the port or the database.
    assert!(!Command::new("kill").args(["-0", &pid]).stderr(Stdio::null()).status().unwrap().success());
    TcpListener::bind(addr).expect("the port is free");
    assert!(read_all(poll).starts_with("HTTP/1.1 200"), "the long poll is answered");
    let _ = read_all(stream);
    // SQLite deletes the write-ahead log when the last connection closes cleanly.
    let wal = PathBuf::from(format!("{}-wal", db.display()));
    assert!(!wal.exists(), "SIG{signal}: the database was not closed ({} is left)", wal.display());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_stops_tgdlc_serve_gracefully() {
    stop_with("TERM");
}

#[test]
fn sighup_stops_tgdlc_serve_gracefully() {
    stop_with("HUP");
}

#[test]
fn sigint_stops_tgdlc_serve_gracefully() {
    stop_with("INT");
}
