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

#[test]
fn long_chains_of_calls_and_classes_are_checked_on_a_bounded_stack() {
    // 12,000 functions each calling the next.
    let n = 12_000;
    let mut s = String::from("game G players 2;\n");
    for i in 0..n {
        s.push_str(&format!("function f{i} {{ returns number; effect {{ return f{}(); }} }}\n", i + 1));
    }
    s.push_str(&format!(
        "function f{n} {{ returns number; effect {{ return 1; }} }}\nsetup {{ log(\"\" + f0()); }}\n"
    ));
    let c = tgdl_compiler::check_source("calls.tgdl", &s);
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
