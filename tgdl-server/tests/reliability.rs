//! What a hostile or unlucky client cannot do to the server (docs/reliability.md,
//! "The server"): every test runs the real server on loopback against an SQLite file.

mod common;

use common::{Client, Reply, TestServer, db_file};
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tgdl_server::Config;
use tgdl_server::store::{Store, StoredMatch};
use tgdl_tests::{slow_move, tic_tac_toe};

const CHILD_DB: &str = "TGDL_SERVER_RELIABILITY_CHILD_DB";

/// Not a test of its own: a tic-tac-toe server process for the tests that read its
/// standard error (it runs only when the variable names a database).
#[test]
fn child_server() {
    let Some(db) = std::env::var_os(CHILD_DB) else { return };
    let args = ["game", "serve", "--port", "0", "--db"].iter().map(Into::into).chain([db]).collect();
    std::process::exit(tgdl_server::run_cli::<tic_tac_toe::Game>(args).into());
}

/// Starts the child server on `db`; its address (or `None` if it exited) and the process.
fn spawn_child(db: &Path) -> (Option<SocketAddr>, std::process::Child) {
    let exe = std::env::current_exe().expect("the test binary");
    let mut child = Command::new(exe)
        .args(["child_server", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_DB, db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut lines = BufReader::new(child.stdout.take().expect("its output")).lines();
    let addr = lines.by_ref().map_while(Result::ok).find_map(|line| {
        line.split_once("listening on http://").map(|(_, url)| url.trim().parse().expect("an address"))
    });
    std::thread::spawn(move || for _ in lines {});
    (addr, child)
}

fn human_match(id: &str, players: u32) -> StoredMatch {
    StoredMatch {
        id: id.into(),
        game: "TicTacToe".into(),
        players,
        seed: 1,
        seats: vec!["human".into(); players as usize],
        tokens: (0..players).map(|i| Some(format!("token{i}"))).collect(),
        decisions: vec![],
        deciders: vec![],
        params: Default::default(),
    }
}

/// A seat is stored as its name and read back by parsing it: a seat whose name would not
/// parse back to it (`mcts:1e-10s` was written `mcts:0s`, which the parser refuses, and
/// then the next start refused the whole database) is refused when the match is created.
#[test]
fn a_seat_is_refused_unless_it_reads_back_as_given() {
    let db = db_file("seat-round-trip");
    let server = TestServer::start::<tic_tac_toe::Game>(Store::open(&db).unwrap(), 10);
    let c = server.client();
    let r = c.post("/api/matches", &json!({ "players": 2, "seats": ["human", "mcts:1e-10s"] }));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.error().contains("1e-10s"), "{}", r.body);
    let (kept, _) = c.create(&json!({ "players": 2, "seats": ["human", "mcts:0.25s"] }));
    assert_eq!(server.store.count().unwrap(), 1, "only the match that reads back is stored");
    server.stop();
    // The next start reads every match back.
    let again = TestServer::start::<tic_tac_toe::Game>(Store::open(&db).unwrap(), 10);
    let s = again.client().state(&kept, None);
    assert_eq!(s["seats"][1]["kind"], "mcts:0.25s");
}

/// A match the game can no longer rebuild (3 players, after the game became 2-player)
/// does not stop the server: it is reported, kept in the database, and answered with a
/// clear error; the other matches are served.
#[test]
fn a_match_that_no_longer_fits_is_reported_kept_and_skipped() {
    let db = db_file("no-longer-fits");
    {
        let store = Store::open(&db).unwrap();
        store.insert_match(&human_match("threeplayers", 3)).unwrap();
        store.insert_match(&human_match("twoplayers", 2)).unwrap();
        store.close().unwrap();
    }
    let (addr, mut child) = spawn_child(&db);
    let Some(addr) = addr else {
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        panic!("the server did not start:\n{err}");
    };
    let c = Client { addr };
    let r = c.get("/api/matches/threeplayers");
    assert_eq!(r.status, 404, "{}", r.body);
    assert!(r.error().contains("cannot rebuild") && r.error().contains("3"), "{}", r.body);
    assert_eq!(c.state("twoplayers", None)["players"], 2);
    let r = c.decide("threeplayers", "token0", 0);
    assert_eq!(r.status, 404, "{}", r.body);
    // SIGTERM: a graceful stop (the same as Ctrl-C).
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    assert!(child.wait().unwrap().success());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(
        err.contains("warning: match threeplayers is kept in the database but not served")
            && err.contains("players"),
        "{err}"
    );
    let store = Store::open(&db).unwrap();
    let ids: Vec<String> = store.load_all().unwrap().into_iter().map(|m| m.id).collect();
    assert_eq!(ids, ["threeplayers", "twoplayers"], "both matches are still stored");
}

/// A full disk: the agent's decision cannot be stored. It is tried again after waits
/// that double (not at once, forever), the match stays where it was stored, and play
/// goes on once storing works again, with memory and database agreeing. The failure is
/// injected (`Store::fail_writes`, as a full disk fails writes): a test cannot fill a
/// disk on demand.
#[test]
fn an_agent_decision_that_cannot_be_stored_is_retried_with_backoff() {
    let db = db_file("disk-full");
    let store = Store::open(&db).unwrap();
    let mut m = human_match("agentfirst", 2);
    m.seats[0] = "random".into();
    m.tokens[0] = None;
    store.insert_match(&m).unwrap();
    store.fail_writes(Some("database or disk is full"));
    let server = TestServer::start::<tic_tac_toe::Game>(store, 10);
    let c = server.client();
    // Waiting here, not measuring: however slow the machine, a busy loop fails thousands
    // of writes in this time, waits that double from 100 ms fewer than a dozen.
    std::thread::sleep(Duration::from_secs(2));
    let failures = server.store.write_failures();
    assert!((1..=12).contains(&failures), "{failures} failed writes in 2 s");
    let s = c.state("agentfirst", None);
    assert_eq!(s["decisions"], 0, "a decision not stored is not taken: {s}");
    assert_eq!(s["decides"], 0);
    server.store.fail_writes(None);
    let s = c.settled("agentfirst", Some("token1"));
    assert_eq!(s["decisions"], 1, "{s}");
    assert_eq!(s["decides"], 1);
    let label = s["history"][0]["label"].clone();
    server.stop();
    let again = TestServer::start::<tic_tac_toe::Game>(Store::open(&db).unwrap(), 10);
    let s = again.client().settled("agentfirst", Some("token1"));
    assert_eq!((s["decisions"].clone(), s["history"][0]["label"].clone()), (json!(1), label));
}

/// Requests another site could make (a form, `fetch` with `text/plain`, a rebound DNS
/// name) are refused with a JSON error and change nothing.
#[test]
fn cross_site_requests_are_refused_and_change_nothing() {
    let db = db_file("cross-site");
    let server = TestServer::start::<tic_tac_toe::Game>(Store::open(&db).unwrap(), 10);
    let c = server.client();
    let own = c.addr.to_string();
    let body = json!({ "players": 2 }).to_string();
    let create = |host: &str, content_type: Option<&str>, origin: Option<&str>| -> Reply {
        c.request_with("POST", "/api/matches", Some(body.as_bytes()), host, content_type, origin)
    };
    let r = create(&own, Some("text/plain"), None);
    assert_eq!((r.status, r.error().contains("application/json")), (415, true), "{}", r.body);
    let r = create(&own, None, None);
    assert_eq!(r.status, 415, "{}", r.body);
    let r = create(&own, Some("application/x-www-form-urlencoded"), Some(&format!("http://{own}")));
    assert_eq!(r.status, 415, "{}", r.body);
    let r = create(&own, Some("application/json"), Some("http://evil.example"));
    assert_eq!((r.status, r.error().contains("cross-site")), (403, true), "{}", r.body);
    let r = create(&own, Some("application/json"), Some("null"));
    assert_eq!(r.status, 403, "{}", r.body);
    let r = create("evil.example:80", Some("application/json"), None);
    assert_eq!((r.status, r.error().contains("--allow-host")), (403, true), "{}", r.body);
    let r = c.request_with("GET", "/api/game", None, "rebound.example", None, None);
    assert_eq!(r.status, 403, "DNS rebinding reads nothing either: {}", r.body);
    assert_eq!(server.store.count().unwrap(), 0, "no refused request created anything");

    // The server's own pages: same origin, JSON.
    let r = create(&own, Some("application/json; charset=utf-8"), Some(&format!("http://{own}")));
    assert_eq!(r.status, 201, "{}", r.body);
    let r = create(&format!("localhost:{}", c.addr.port()), Some("application/json"), None);
    assert_eq!(r.status, 201, "{}", r.body);
    let (id, tokens) = c.create(&json!({ "players": 2 }));
    let decision = json!({ "token": tokens[0], "option": 0 }).to_string();
    let path = format!("/api/matches/{id}/decisions");
    let r = c.request_with("POST", &path, Some(decision.as_bytes()), &own, Some("text/plain"), None);
    assert_eq!(r.status, 415, "{}", r.body);
    assert_eq!(c.state(&id, None)["decisions"], 0, "the refused decision changed nothing");

    // A name allowed on purpose (a reverse proxy's).
    let proxied = TestServer::with_config::<tic_tac_toe::Game>(
        Store::in_memory().unwrap(),
        Config { allowed_hosts: vec!["games.example".into()], ..Config::default() },
    );
    let r = proxied.client().request_with(
        "POST",
        "/api/matches",
        Some(body.as_bytes()),
        "games.example",
        Some("application/json"),
        Some("https://games.example"),
    );
    assert_eq!(r.status, 201, "{}", r.body);
}

/// Matches do not pile up: a full server makes room by deleting the match that finished
/// first; finished matches and matches without a change are deleted after their delays,
/// at start and as the server runs; what is deleted is gone from the file too.
#[test]
fn finished_and_abandoned_matches_are_cleaned_up() {
    let db = db_file("cleanup");
    let config = Config { max_matches: 2, ..Config::default() };
    let server = TestServer::with_config::<tic_tac_toe::Game>(Store::open(&db).unwrap(), config.clone());
    let c = server.client();
    let (done, _) = c.create(&json!({ "players": 2, "seats": ["random", "random"] }));
    assert_eq!(c.settled(&done, None)["finished"], true);
    let (waiting, _) = c.create(&json!({ "players": 2 }));
    // Full: the finished match makes room.
    let (third, _) = c.create(&json!({ "players": 2 }));
    assert_eq!(c.get(&format!("/api/matches/{done}")).status, 404);
    // Full, and nothing finished: refused.
    let r = c.post("/api/matches", &json!({ "players": 2 }));
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.error().contains("none of them finished"), "{}", r.body);
    assert_eq!(server.store.count().unwrap(), 2);
    server.stop();

    // Across a restart: unfinished matches stay within their delay...
    let server = TestServer::with_config::<tic_tac_toe::Game>(Store::open(&db).unwrap(), config.clone());
    assert_eq!(server.client().state(&waiting, None)["decisions"], 0);
    server.stop();
    // ...and go after it (here, at once).
    let gone = Config { keep_idle: Duration::ZERO, ..config.clone() };
    let server = TestServer::with_config::<tic_tac_toe::Game>(Store::open(&db).unwrap(), gone);
    let c = server.client();
    assert_eq!(c.get(&format!("/api/matches/{third}")).status, 404);
    assert_eq!(server.store.count().unwrap(), 0);
    server.stop();

    // The sweep runs while the server runs: a finished match goes after its delay.
    let swept =
        Config { keep_finished: Duration::ZERO, sweep_every: Duration::from_millis(50), ..Config::default() };
    let server = TestServer::with_config::<tic_tac_toe::Game>(Store::open(&db).unwrap(), swept);
    let c = server.client();
    let (done, _) = c.create(&json!({ "players": 2, "seats": ["random", "random"] }));
    let (open, _) = c.create(&json!({ "players": 2 }));
    // Polls until the sweep has run (a bound for a hung test, not a timing assertion).
    let mut tries = 0;
    while c.get(&format!("/api/matches/{done}")).status != 404 {
        tries += 1;
        assert!(tries < 3000, "the finished match was never swept");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(c.state(&open, None)["decisions"], 0, "an unfinished match stays");
    server.stop();
    let ids: Vec<String> = Store::open(&db).unwrap().load_all().unwrap().into_iter().map(|m| m.id).collect();
    assert_eq!(ids, [open]);
}

/// Reads until the server closes the connection; `false` if it was still open when the
/// generous safety bound ran out.
fn closed_by_server(stream: &mut TcpStream, bound: Duration) -> bool {
    stream.set_read_timeout(Some(bound)).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return false;
            }
            Err(_) => return true,
        }
    }
}

/// A connection from the loopback address `ip` (127.0.0.2, ...: another client, as any
/// 127.x address is this machine's).
fn connect_from(ip: &str, addr: SocketAddr) -> TcpStream {
    let local: std::net::IpAddr = ip.parse().unwrap();
    let stream =
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket.bind(SocketAddr::new(local, 0)).unwrap();
            socket.connect(addr).await.unwrap().into_std().unwrap()
        });
    stream.set_nonblocking(false).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    stream
}

fn get_on(stream: &mut TcpStream, addr: SocketAddr, path: &str) -> String {
    // A refused connection may be answered and closed before the request is written: the
    // write then fails, and the answer is still there to read.
    let _ = write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let mut raw = String::new();
    let _ = stream.read_to_string(&mut raw);
    raw
}

/// Idle and slow clients cannot lock everyone out: a request head must arrive within
/// the header timeout, a silent connection is closed after the idle timeout, and
/// connections and update streams are bounded in all and per client address.
#[test]
fn idle_and_slow_connections_are_bounded() {
    // A head that never ends, and a keep-alive connection left silent, are closed.
    let timeouts = Config {
        header_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_secs(1),
        ..Config::default()
    };
    let server =
        TestServer::with_config::<tic_tac_toe::Game>(Store::open(&db_file("timeouts")).unwrap(), timeouts);
    let addr = server.addr;
    let mut slow = TcpStream::connect(addr).unwrap();
    write!(slow, "GET /api/game HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
    assert!(closed_by_server(&mut slow, Duration::from_secs(30)), "a head that never ends is cut off");
    let mut idle = TcpStream::connect(addr).unwrap();
    write!(idle, "GET /api/game HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    assert!(closed_by_server(&mut idle, Duration::from_secs(30)), "a silent connection is closed");
    server.stop();

    // Connections: at most 3 from one address, 5 in all.
    let bounds = Config {
        max_connections: 5,
        max_connections_per_client: 3,
        max_streams: 4,
        max_streams_per_client: 2,
        ..Config::default()
    };
    let server =
        TestServer::with_config::<tic_tac_toe::Game>(Store::open(&db_file("bounds")).unwrap(), bounds);
    let addr = server.addr;
    let c = server.client();
    let held: Vec<TcpStream> = (0..3).map(|_| connect_from("127.0.0.1", addr)).collect();
    // The server counts a connection once it accepts it: wait until it refuses the next.
    let mut refused = String::new();
    for _ in 0..3000 {
        refused = get_on(&mut connect_from("127.0.0.1", addr), addr, "/api/game");
        if refused.starts_with("HTTP/1.1 503") {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(refused.starts_with("HTTP/1.1 503") && refused.contains("from this address"), "{refused}");
    // Another client still gets in.
    let other = get_on(&mut connect_from("127.0.0.2", addr), addr, "/api/game");
    assert!(other.starts_with("HTTP/1.1 200"), "{other}");
    let more: Vec<TcpStream> = (0..2).map(|_| connect_from("127.0.0.3", addr)).collect();
    let mut full = String::new();
    for _ in 0..3000 {
        full = get_on(&mut connect_from("127.0.0.4", addr), addr, "/api/game");
        if full.starts_with("HTTP/1.1 503") {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(full.contains("too many connections to this server"), "{full}");
    drop(held);
    drop(more);
    // The places come back once the server notices the closed sockets.
    for _ in 0..3000 {
        if c.get("/api/game").status == 200 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }

    // Update streams: at most 2 from one address.
    let (id, _) = c.create(&json!({ "players": 2 }));
    let path = format!("/api/matches/{id}/events");
    let mut first = c.events(&path);
    let mut second = c.events(&path);
    assert!(first.status.contains("200") && second.status.contains("200"));
    first.next();
    second.next();
    let r = c.get(&path);
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.error().contains("too many update streams"), "{}", r.body);
    drop(first);
    // A closed stream gives its place back (once the server notices the closed socket).
    let mut reopened = None;
    for _ in 0..3000 {
        let e = c.events(&path);
        if e.status.contains("200") {
            reopened = Some(e);
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    reopened.expect("a place is given back").next();
}

/// A request whose head arrives but whose body does not (a declared length, a few bytes,
/// then silence) is answered 408 and its connection closed: waiting for the body counts
/// as answering the request, so neither the header timeout nor the idle timeout would
/// ever close it, and a few hundred such requests would hold every connection.
#[test]
fn a_body_that_never_arrives_is_cut_off() {
    let config = Config {
        header_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_secs(1),
        ..Config::default()
    };
    let server =
        TestServer::with_config::<tic_tac_toe::Game>(Store::open(&db_file("slow-body")).unwrap(), config);
    let addr = server.addr;
    let mut slow = TcpStream::connect(addr).unwrap();
    write!(
        slow,
        "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"pl"
    )
    .unwrap();
    // A safety bound for a hung test, far above the timeouts: not a timing assertion.
    slow.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut answer = String::new();
    let _ = slow.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "the request is answered 408 and closed: {answer:?}");
    assert!(answer.contains("\"error\""), "{answer}");
    assert_eq!(server.store.count().unwrap(), 0, "nothing was created");
}

/// A slow move (within its budget) runs on a blocking thread and holds no lock that a
/// request about anything else needs: while three slow moves run, on a server with two
/// async workers, the game's description and the moving matches' states are answered.
/// Checked by order (the reads answer while the moves still run), not by time.
#[test]
fn slow_moves_do_not_hold_up_other_requests() {
    let server = TestServer::with_config::<slow_move::Game>(
        Store::open(&db_file("slow-moves")).unwrap(),
        Config::default(),
    );
    let c = server.client();
    let matches: Vec<(String, String)> = (0..3)
        .map(|_| {
            let (id, tokens) = c.create(&json!({ "players": 2 }));
            (id, tokens[0].clone().expect("a human seat"))
        })
        .collect();
    let state = c.state(&matches[0].0, Some(&matches[0].1));
    assert_eq!(state["options"][0]["label"], "slow", "{state}");
    let finished = Arc::new(AtomicUsize::new(0));
    let moves: Vec<_> = matches
        .iter()
        .cloned()
        .map(|(id, token)| {
            let finished = finished.clone();
            std::thread::spawn(move || {
                let r = c.decide(&id, &token, 0);
                (r, finished.fetch_add(1, Ordering::SeqCst))
            })
        })
        .collect();
    // Let the moves start (they run for a second or more each).
    std::thread::sleep(Duration::from_millis(300));
    let info = c.get("/api/game");
    let info_order = finished.fetch_add(1, Ordering::SeqCst);
    let moving = c.get(&format!("/api/matches/{}", matches[1].0));
    let moving_order = finished.fetch_add(1, Ordering::SeqCst);
    assert_eq!(info.status, 200, "{}", info.body);
    assert_eq!(moving.status, 200, "{}", moving.body);
    let mut move_orders = Vec::new();
    for m in moves {
        let (r, order) = m.join().unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["log"][0], "slow 378");
        move_orders.push(order);
    }
    assert_eq!(
        (info_order, moving_order),
        (0, 1),
        "the reads answered before any slow move ended (moves ended at {move_orders:?})"
    );
    assert_eq!(moving.json()["decisions"], 0, "the state read during a move is the stored one");
}
