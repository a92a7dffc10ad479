//! The language server's answer to typing: the time from a `textDocument/didChange` of
//! `tests/data/large.tgdl` (1,356 lines) to the `textDocument/publishDiagnostics` for it,
//! through `tgdlc::lsp::serve` on an in-memory connection, so the whole server path is
//! measured (decoding the change, loading, parsing, checking, indexing for hover and
//! rename, converting and sending the diagnostics) but no process or pipe.
//! Target: under 50 ms. Figures: docs/performance.md ("Editor").
//!
//! Beside it, `tgdl_compiler::check_file` of the same file (what `tgdlc check` does) for scale.
//!
//! `cargo bench -p tgdlc --bench lsp`; with `TGDL_LSP_EDITS=N` the binary makes N edits
//! (each awaiting its diagnostics) once and exits, a fixed workload for callgrind or perf:
//!
//! ```sh
//! cargo bench -p tgdlc --bench lsp --no-run      # prints target/release/deps/lsp-HASH
//! TGDL_LSP_EDITS=20 valgrind --tool=callgrind target/release/deps/lsp-HASH
//! ```

use criterion::{BenchmarkId, Criterion};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;

struct Session {
    conn: Connection,
    uri: String,
    version: i32,
    server: Option<std::thread::JoinHandle<()>>,
}

impl Session {
    fn start(path: &Path, text: &str) -> Session {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || tgdlc::lsp::serve(&server).expect("the server ends cleanly"));
        let uri = format!("file://{}", path.display());
        let s = Session { conn, uri, version: 1, server: Some(handle) };
        s.request(1, "initialize", json!({ "capabilities": {} }));
        s.notify("initialized", json!({}));
        let doc = json!({ "uri": s.uri, "languageId": "tgdl", "version": 1, "text": text });
        s.notify("textDocument/didOpen", json!({ "textDocument": doc }));
        s.diagnostics();
        s
    }

    fn notify(&self, method: &str, params: Value) {
        self.conn.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    }

    fn request(&self, id: i32, method: &str, params: Value) -> Value {
        let id = RequestId::from(id);
        self.conn.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        loop {
            if let Message::Response(r) = self.conn.receiver.recv_timeout(Duration::from_secs(60)).unwrap() {
                if r.id == id {
                    return r.result.unwrap_or(Value::Null);
                }
            }
        }
    }

    /// The hover at a position (the first request after an edit builds the name index).
    fn hover(&self, line: usize, character: usize) -> Value {
        let params = json!({
            "textDocument": { "uri": self.uri },
            "position": { "line": line, "character": character },
        });
        self.request(2, "textDocument/hover", params)
    }

    /// Waits for the diagnostics of the document; gives how many there are.
    fn diagnostics(&self) -> usize {
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(60)).expect("diagnostics") {
                Message::Notification(n)
                    if n.method == "textDocument/publishDiagnostics"
                        && n.params["uri"] == self.uri.as_str() =>
                {
                    return n.params["diagnostics"].as_array().map_or(0, Vec::len);
                }
                _ => {}
            }
        }
    }

    /// Sends the whole new text (full sync, as the server asks) and waits for its diagnostics.
    fn edit(&mut self, text: &str) -> usize {
        self.version += 1;
        let params = json!({
            "textDocument": { "uri": self.uri, "version": self.version },
            "contentChanges": [{ "text": text }],
        });
        self.notify("textDocument/didChange", params);
        self.diagnostics()
    }

    fn stop(mut self) {
        self.request(i32::MAX, "shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().unwrap();
    }
}

fn bench(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/large.tgdl");
    let path = std::fs::canonicalize(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = std::fs::read_to_string(&path).unwrap();
    // Two edits a designer makes: a value changed (the program stays valid), and a type
    // error typed in (one diagnostic).
    let fort = "number fort = 0;";
    assert!(text.contains(fort));
    let valid = [text.replacen(fort, "number fort = 1;", 1), text.replacen(fort, "number fort = 2;", 1)];
    let broken =
        [text.replacen(fort, "number fort = \"a\";", 1), text.replacen(fort, "number fort = \"b\";", 1)];

    let mut session = Session::start(&path, &text);
    assert_eq!(session.edit(&valid[0]), 0, "the edited program checks");
    assert_eq!(session.edit(&broken[0]), 1, "the broken program has one error");
    if let Some(n) = std::env::var("TGDL_LSP_EDITS").ok().and_then(|n| n.parse::<usize>().ok()) {
        for i in 0..n {
            session.edit(&valid[i % 2]);
        }
        session.stop();
        std::process::exit(0);
    }

    // The hover on `fort`: after an edit, it also pays for the index of every name.
    let line = text.lines().position(|l| l.contains(fort)).unwrap();
    let character = text.lines().nth(line).unwrap().find("fort").unwrap() + 1;
    let shown = session.hover(line, character);
    assert!(shown["contents"]["value"].as_str().is_some_and(|h| h.contains("number Land.fort")), "{shown}");

    let mut group = c.benchmark_group("lsp");
    for (name, texts) in [("valid", &valid), ("error", &broken)] {
        let mut i = 0;
        group.bench_function(BenchmarkId::new("didChange_to_diagnostics", name), |b| {
            b.iter(|| {
                i += 1;
                session.edit(&texts[i % 2])
            })
        });
    }
    let mut i = 0;
    group.bench_function(BenchmarkId::new("didChange_then_hover", "valid"), |b| {
        b.iter(|| {
            i += 1;
            session.edit(&valid[i % 2]);
            session.hover(line, character)
        })
    });
    group.bench_function(BenchmarkId::new("check_file", "valid"), |b| {
        b.iter(|| std::hint::black_box(tgdl_compiler::check_file(&path)).has_errors())
    });
    group.finish();
    session.stop();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
