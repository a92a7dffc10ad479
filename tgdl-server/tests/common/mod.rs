//! A server on loopback for tests (in process, port 0) and a small blocking HTTP client.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tgdl_runtime::game::Game;
use tgdl_server::store::Store;
use tgdl_server::{Config, Server};

/// A server running on its own runtime in a background thread.
pub struct TestServer {
    pub addr: SocketAddr,
    /// The store it writes.
    pub store: Arc<Store>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    pub fn start<G: Game>(store: Store, max_matches: usize) -> TestServer {
        TestServer::with_config::<G>(store, Config { max_matches, ..Config::default() })
    }

    pub fn with_config<G: Game>(store: Store, config: Config) -> TestServer {
        let server = Server::<G>::new(store, config).expect("the server starts");
        let store = server.store();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
                tx.send(listener.local_addr().expect("an address")).expect("the test waits");
                server
                    .run(listener, async move {
                        let _ = stopped.await;
                    })
                    .await
                    .expect("the server runs");
            });
            runtime.shutdown_timeout(Duration::from_secs(1));
        });
        let addr = rx.recv().expect("the server reports its address");
        TestServer { addr, store, stop: Some(stop), thread: Some(thread) }
    }

    pub fn in_memory<G: Game>() -> TestServer {
        TestServer::start::<G>(Store::in_memory().expect("a database"), 1000)
    }

    pub fn client(&self) -> Client {
        Client { addr: self.addr }
    }
}

impl TestServer {
    /// Stops the server (as at shutdown: requests finish, the database is closed).
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A fresh database file for a test (under the target directory), with no leftovers.
pub fn db_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tgdl-server-tests");
    std::fs::create_dir_all(&dir).expect("a directory");
    let db = dir.join(format!("{name}-{}.sqlite", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    db
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.halt();
    }
}

/// An HTTP/1.1 client: one connection per request.
#[derive(Clone, Copy, Debug)]
pub struct Client {
    pub addr: SocketAddr,
}

/// A response: status and body.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// The message of a JSON error.
    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_else(|| panic!("no error message: {}", self.body)).to_string()
    }
}

impl Client {
    pub fn request(&self, method: &str, path: &str, body: Option<&[u8]>) -> Reply {
        let host = self.addr.to_string();
        let content_type = body.map(|_| "application/json");
        self.request_with(method, path, body, &host, content_type, None)
    }

    /// A request with the given `Host`, `Content-Type` and `Origin` headers.
    pub fn request_with(
        &self,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
        host: &str,
        content_type: Option<&str>,
        origin: Option<&str>,
    ) -> Reply {
        let mut stream = TcpStream::connect(self.addr).expect("connect");
        // A safety net against a hung test, not an assertion on timing.
        stream.set_read_timeout(Some(Duration::from_secs(300))).expect("timeout");
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
        if let Some(t) = content_type {
            head.push_str(&format!("Content-Type: {t}\r\n"));
        }
        if let Some(o) = origin {
            head.push_str(&format!("Origin: {o}\r\n"));
        }
        if let Some(b) = body {
            head.push_str(&format!("Content-Length: {}\r\n", b.len()));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).expect("send");
        if let Some(b) = body {
            // The server may answer (413) before reading everything.
            let _ = stream.write_all(b);
        }
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        parse_response(&raw)
    }

    pub fn get(&self, path: &str) -> Reply {
        self.request("GET", path, None)
    }

    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.request("POST", path, Some(body.to_string().as_bytes()))
    }

    /// Creates a match; its id and its seats' tokens (None for agents).
    pub fn create(&self, body: &Value) -> (String, Vec<Option<String>>) {
        let r = self.post("/api/matches", body);
        assert_eq!(r.status, 201, "{}", r.body);
        let v = r.json();
        let id = v["id"].as_str().expect("an id").to_string();
        let tokens = v["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| s.get("token").and_then(|t| t.as_str()).map(String::from))
            .collect();
        (id, tokens)
    }

    pub fn state(&self, id: &str, token: Option<&str>) -> Value {
        let path = match token {
            Some(t) => format!("/api/matches/{id}?token={t}"),
            None => format!("/api/matches/{id}"),
        };
        let r = self.get(&path);
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    }

    /// Waits (long polls) until the match waits for a human or is over; its state for `token`.
    pub fn settled(&self, id: &str, token: Option<&str>) -> Value {
        loop {
            let s = self.state(id, token);
            let decides = s["decides"].as_u64();
            let human = decides.is_some_and(|p| s["seats"][p as usize]["kind"] == "human");
            if s["finished"] == true || human {
                return s;
            }
            let n = s["decisions"].as_u64().expect("decisions");
            let path = match token {
                Some(t) => format!("/api/matches/{id}?token={t}&after={n}"),
                None => format!("/api/matches/{id}?after={n}"),
            };
            let r = self.get(&path);
            assert_eq!(r.status, 200, "{}", r.body);
        }
    }

    pub fn decide(&self, id: &str, token: &str, option: usize) -> Reply {
        self.post(
            &format!("/api/matches/{id}/decisions"),
            &serde_json::json!({ "token": token, "option": option }),
        )
    }

    /// Opens the update stream; reads events with [`Events::next`].
    pub fn events(&self, path: &str) -> Events {
        let mut stream = TcpStream::connect(self.addr).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(300))).expect("timeout");
        let head = format!("GET {path} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n", self.addr);
        stream.write_all(head.as_bytes()).expect("send");
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).expect("a status line");
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("a header");
            if line == "\r\n" || line.is_empty() {
                break;
            }
        }
        Events { status, reader }
    }
}

/// An open event stream (chunked transfer encoding is read line by line: chunk sizes
/// are lines of their own and are skipped).
pub struct Events {
    pub status: String,
    reader: BufReader<TcpStream>,
}

impl Events {
    /// The next `state` event's data, parsed.
    pub fn next(&mut self) -> Value {
        let mut event = String::new();
        let mut data = String::new();
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).expect("read an event");
            assert!(n > 0, "the stream ended");
            let line = line.trim_end_matches(['\r', '\n']);
            if let Some(e) = line.strip_prefix("event:") {
                event = e.trim().to_string();
            } else if let Some(d) = line.strip_prefix("data:") {
                data.push_str(d.strip_prefix(' ').unwrap_or(d));
            } else if line.is_empty() && event == "state" && !data.is_empty() {
                return serde_json::from_str(&data).expect("JSON data");
            }
        }
    }
}

fn parse_response(raw: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(raw);
    let (head, body) =
        text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("not an HTTP response: {text:?}"));
    let status: u16 = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status code");
    let chunked = head.lines().any(|l| l.to_ascii_lowercase().starts_with("transfer-encoding: chunked"));
    let body = if chunked { dechunk(body) } else { body.to_string() };
    Reply { status, body }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else { break };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].strip_prefix("\r\n").unwrap_or(&rest[n..]);
    }
    out
}
