//! Hostile inputs to the compiler, each pinned to the clear error or correct
//! result it now gives: files the compiler must not read or write, text that must not
//! reach a terminal raw, line endings, chains that used to exhaust the stack or take
//! quadratic time, and files with thousands of errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgdlc-reliability-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

fn tgdlc_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgdlc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env(
            "TGDL_CACHE",
            std::env::temp_dir().join(format!("tgdlc-reliability-cache-{}", std::process::id())),
        )
        .output()
        .expect("run tgdlc")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const GAME: &str = "game G players 2;\nsetup { }\n";

#[test]
fn an_output_path_that_is_a_source_is_refused_and_the_source_kept() {
    let dir = scratch("overwrite");
    // A source without extension: `build` would name the binary after it.
    std::fs::write(dir.join("mygame"), GAME).unwrap();
    std::fs::write(dir.join("x.tgdl"), GAME).unwrap();
    for args in
        [&["build", "mygame"][..], &["emit", "x.tgdl", "-o", "x.tgdl"], &["emit", "x.tgdl", "-o", "./x.tgdl"]]
    {
        let out = tgdlc_in(&dir, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("is a source file of the game; refusing to write over it"),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(std::fs::read_to_string(dir.join("mygame")).unwrap(), GAME);
    assert_eq!(std::fs::read_to_string(dir.join("x.tgdl")).unwrap(), GAME);
    // An imported file is a source too.
    std::fs::write(dir.join("main.tgdl"), "game G players 2;\nimport \"lib.tgdl\";\nsetup { }\n").unwrap();
    std::fs::write(dir.join("lib.tgdl"), "").unwrap();
    let out = tgdlc_in(&dir, &["emit", "main.tgdl", "-o", "lib.tgdl"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(dir.join("lib.tgdl")).unwrap(), "");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn imports_stay_inside_the_games_folder() {
    let dir = scratch("confined");
    let game = dir.join("game");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(dir.join("secret.tgdl"), "this is private: do not echo\n").unwrap();
    std::fs::write(game.join("up.tgdl"), "game G players 2;\nimport \"../secret.tgdl\";\nsetup { }\n")
        .unwrap();
    std::fs::write(game.join("abs.tgdl"), "game G players 2;\nimport \"/etc/passwd\";\nsetup { }\n").unwrap();
    for file in ["up.tgdl", "abs.tgdl"] {
        let out = tgdlc_in(&game, &["check", file]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("is outside the game's folder"), "{err}");
        assert!(!err.contains("do not echo") && !err.contains("root:"), "a file outside was read: {err}");
    }
    // `--import-root` widens the tree on purpose (and then the file's syntax is judged).
    let out = tgdlc_in(&game, &["check", "--import-root", "..", "up.tgdl"]);
    assert!(stderr(&out).contains("error[E0001]"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn only_regular_files_are_read() {
    let dir = scratch("devices");
    std::fs::write(dir.join("zero.tgdl"), "game G players 2;\nimport \"/dev/zero\";\nsetup { }\n").unwrap();
    let fifo = dir.join("fifo.tgdl");
    let made = Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    std::fs::write(dir.join("pipe.tgdl"), "game G players 2;\nimport \"fifo.tgdl\";\nsetup { }\n").unwrap();
    // Even with the root widened to everything, a device is not read (it never ends).
    let out = tgdlc_in(&dir, &["check", "--import-root", "/", "zero.tgdl"]);
    assert!(
        stderr(&out).contains("cannot read imported file `/dev/zero`: it is not a regular file"),
        "{}",
        stderr(&out)
    );
    if made {
        // A FIFO would block forever.
        let out = tgdlc_in(&dir, &["check", "pipe.tgdl"]);
        assert!(stderr(&out).contains("it is not a regular file"), "{}", stderr(&out));
        let out = tgdlc_in(&dir, &["check", "fifo.tgdl"]);
        assert!(stderr(&out).contains("it is not a regular file"), "{}", stderr(&out));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn control_characters_never_reach_the_terminal() {
    let dir = scratch("control");
    // In a string: refused where it is, shown as `?`.
    std::fs::write(dir.join("s.tgdl"), "game G players 2;\nsetup { log(\"\u{1b}[2J\u{7}\"); }\n").unwrap();
    let out = tgdlc_in(&dir, &["check", "s.tgdl"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("a string cannot hold the control character U+001B"), "{err}");
    assert!(err.contains("s.tgdl:2:14"), "{err}");
    // In a comment next to an error: the excerpt shows it as `?`.
    std::fs::write(dir.join("c.tgdl"), "game G players 2;\nsetup { x = 1; } // \u{1b}]0;title\u{7}\n")
        .unwrap();
    let out = tgdlc_in(&dir, &["check", "c.tgdl"]);
    let err = stderr(&out);
    assert!(err.contains("cannot find `x`"), "{err}");
    assert!(err.contains("// ?]0;title?"), "{err}");
    assert!(!out.stderr.iter().any(|&b| b == 0x1b || b == 0x07), "raw control bytes on stderr");
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn a_line_break_in_the_main_files_path_stays_inside_the_generated_comment() {
    let dir = scratch("path");
    let name = "a\nfn injected() {}\n.tgdl";
    std::fs::write(dir.join(name), GAME).unwrap();
    let out = tgdlc_in(&dir, &["emit", name]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let code = String::from_utf8(out.stdout).unwrap();
    assert!(
        code.starts_with(
            "// Engine for the game `G`, generated by tgdlc from `a\\nfn injected() {}\\n.tgdl`.\n"
        ),
        "{code}"
    );
    assert!(!code.lines().any(|l| l.starts_with("fn injected")), "{code}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn carriage_returns_end_lines() {
    // Old Mac line endings: a `//` comment ends at the `\r`, and lines count from them.
    let ok = tgdl_compiler::check_source("cr.tgdl", "game G players 2;\r// a comment\rsetup { }\r");
    assert!(!ok.has_errors(), "{ok:?}");
    let bad = tgdl_compiler::check_source("cr.tgdl", "game G players 2;\r// a comment\rsetup { x = 1; }\r");
    let d = &bad.diagnostics[0];
    let at = bad.sources.location(d.primary.span);
    assert_eq!((at.line, at.column), (3, 9), "{bad:?}");
    let mixed = tgdl_compiler::check_source("crlf.tgdl", "game G players 2;\r\n\r\nsetup { x = 1; }\r\n");
    let at = mixed.sources.location(mixed.diagnostics[0].primary.span);
    assert_eq!((at.line, at.column), (3, 9), "{mixed:?}");
}

/// `if (x == 0) { } else if (x == 1) { } ...` with `n` branches after the first.
fn else_if_chain(n: usize) -> String {
    let mut s = String::from(
        "game G players 2;\nsetup {\n    number x = 7;\n    number y = 0;\n    if (x == 0) { y = 1; }",
    );
    for i in 1..=n {
        s.push_str(&format!(" else if (x == {i}) {{ y = {i}; }}"));
    }
    s.push_str(" else { y = -1; }\n    log(\"\" + y);\n}\n");
    s
}

#[test]
fn a_long_flat_else_if_chain_is_not_nesting() {
    let c = tgdl_compiler::check_source("chain.tgdl", &else_if_chain(300));
    assert!(!c.has_errors(), "{c:?}");
    // Code generation walks the chain too (on the compiler's stack, as the command line
    // runs it).
    let code = tgdl_compiler::generate_source("chain.tgdl", &else_if_chain(1000)).expect("checked");
    assert!(code.contains("y = 1000"), "the last branch is generated");
    let c = tgdl_compiler::check_source("chain.tgdl", &else_if_chain(5000));
    assert!(c.render(false).contains("too many `else if` branches in one chain"), "{}", c.render(false));
}

/// A game of `n + 1` functions, each calling the next (`f0` calls `f1` ... `fn` returns 1).
fn call_chain(n: usize) -> String {
    let mut s = String::from("game G players 2;\n");
    for i in 0..n {
        s.push_str(&format!("function f{i} {{ returns number; effect {{ return f{}(); }} }}\n", i + 1));
    }
    s.push_str(&format!(
        "function f{n} {{ returns number; effect {{ return 1; }} }}\nsetup {{ log(\"\" + f0()); }}\n"
    ));
    s
}

#[test]
fn long_chains_of_calls_and_classes_are_checked_on_a_bounded_stack() {
    let c = tgdl_compiler::check_source("calls.tgdl", &call_chain(12_000));
    assert!(!c.has_errors(), "{}", c.render(false));

    // A chain of 3,000 classes: refused past the inheritance bound, once per 65 levels,
    // in linear time.
    let mut s = String::from("game G players 2;\nclass C0 { number a = 1; }\n");
    for i in 1..3000 {
        s.push_str(&format!("class C{i} : C{} {{ }}\n", i - 1));
    }
    s.push_str("setup { }\n");
    let c = tgdl_compiler::check_source("classes.tgdl", &s);
    let first = &c.diagnostics[0];
    assert_eq!(first.message, "`C65` has more than 64 classes above it");
    assert_eq!(c.sources.location(first.primary.span).line, 67);
}

#[test]
fn thousands_of_errors_on_one_line_print_a_bounded_report() {
    let n = 12_000;
    let line: Vec<String> = (0..n).map(|i| format!("x{i} = 1;")).collect();
    let text = format!("game G players 2;\nsetup {{ {} }}\n", line.join(" "));
    let c = tgdl_compiler::check_source("long.tgdl", &text);
    assert_eq!(c.diagnostics.len(), n);
    let rendered = c.render(false);
    assert!(rendered.len() < 40_000, "{} bytes", rendered.len());
    assert!(rendered.contains(&format!("note: {} more diagnostics not shown", n - 50)), "{rendered}");
    assert!(rendered.ends_with(&format!("due to {n} previous errors\n")), "{rendered}");
    // Each excerpt is a window of the line around its error, with the real column.
    assert!(rendered.contains("--> long.tgdl:2:440"), "{rendered}");
    let excerpt = rendered.lines().find(|l| l.starts_with("2 | ")).unwrap();
    assert!(excerpt.len() < 300, "{excerpt}");
}

/// `tgdlc lsp` as an editor runs it, over its standard input and output.
struct LspProcess {
    child: std::process::Child,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl LspProcess {
    fn start() -> LspProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tgdlc"))
            .arg("lsp")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start tgdlc lsp");
        let output = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut lsp = LspProcess { child, output };
        lsp.send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#);
        assert!(lsp.receive().contains("\"hoverProvider\":true"));
        lsp.send(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#);
        lsp
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        use std::io::Write;
        let stdin = self.child.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, body: &str) {
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// The next message the server writes.
    fn receive(&mut self) -> String {
        use std::io::{BufRead, Read};
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(self.output.read_line(&mut line).unwrap() > 0, "the server ended");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.output.read_exact(&mut body).unwrap();
        String::from_utf8(body).unwrap()
    }

    /// The next message that contains `needle`, skipping others (diagnostics).
    fn receive_containing(&mut self, needle: &str) -> String {
        loop {
            let message = self.receive();
            if message.contains(needle) {
                return message;
            }
        }
    }

    fn open(&mut self, uri: &str, text: &str) {
        let params = serde_json::json!({
            "textDocument": { "uri": uri, "languageId": "tgdl", "version": 1, "text": text }
        });
        let body =
            serde_json::json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": params });
        self.send(&body.to_string());
    }

    fn finish(mut self) -> std::process::ExitStatus {
        drop(self.child.stdin.take());
        self.child.wait().unwrap()
    }
}

#[test]
fn the_language_server_answers_broken_frames_and_goes_on() {
    let mut lsp = LspProcess::start();
    lsp.send("{ not json");
    assert!(lsp.receive().contains("tgdlc lsp ignored a message that is not JSON"));
    lsp.send(r#"{"jsonrpc":"2.0","id":2,"method":7}"#);
    let answer = lsp.receive();
    assert!(answer.contains("\"id\":2") && answer.contains("not a request it can read"), "{answer}");
    lsp.send_raw(b"Content-Length: twelve\r\n\r\n");
    assert!(lsp.receive().contains("whose length is not a number"));
    lsp.send_raw(format!("X-Padding: {}\r\nContent-Length: 2\r\n\r\n{{}}", "x".repeat(100_000)).as_bytes());
    assert!(lsp.receive().contains("header line longer than"));
    // Still answering.
    lsp.send(r#"{"jsonrpc":"2.0","id":3,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///nowhere.tgdl"}}}"#);
    assert!(lsp.receive().contains("\"id\":3"));
    // A frame claiming 100 GB is skipped as it arrives, not allocated; here the input ends
    // inside it, and the server ends cleanly.
    lsp.send_raw(b"Content-Length: 100000000000\r\n\r\n{\"jsonrpc\":\"2.0\"");
    drop(lsp.child.stdin.take());
    assert!(lsp.receive().contains("a message of 100000000000 bytes"));
    assert!(lsp.finish().success());
}

#[test]
fn the_language_server_takes_every_program_check_takes() {
    let mut lsp = LspProcess::start();
    // The longest `else if` chain the checker accepts, and 12,000 functions each calling
    // the next (each with an outline entry).
    lsp.open("file:///tmp/tgdl-lsp-chain.tgdl", &else_if_chain(4096));
    let diagnostics = lsp.receive_containing("publishDiagnostics");
    assert!(diagnostics.contains("\"diagnostics\":[]"), "{diagnostics}");
    let n = 12_000;
    let calls = call_chain(n);
    lsp.open("file:///tmp/tgdl-lsp-calls.tgdl", &calls);
    let diagnostics = lsp.receive_containing("publishDiagnostics");
    assert!(diagnostics.contains("\"diagnostics\":[]"), "{diagnostics}");
    lsp.send(r#"{"jsonrpc":"2.0","id":2,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///tmp/tgdl-lsp-calls.tgdl"}}}"#);
    let outline: serde_json::Value = serde_json::from_str(&lsp.receive_containing("\"id\":2")).unwrap();
    let symbols = outline["result"].as_array().expect("an outline");
    assert_eq!(symbols.len(), n + 2, "every function and the setup");
    // The last function's position, counted from a line index.
    assert_eq!(symbols[n]["range"]["start"]["line"], serde_json::json!(n + 1));
    lsp.send(r#"{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///tmp/tgdl-lsp-calls.tgdl"},"position":{"line":1,"character":10}}}"#);
    assert!(lsp.receive_containing("\"id\":3").contains("function f0"));
    lsp.send(r#"{"jsonrpc":"2.0","id":4,"method":"shutdown"}"#);
    lsp.receive_containing("\"id\":4");
    lsp.send(r#"{"jsonrpc":"2.0","method":"exit"}"#);
    assert!(lsp.finish().success());
}
