//! The `tgdlc` command line (docs/cli.md): exit codes, diagnostics on stderr and as JSON,
//! import resolution, `check` printing the checker's UI suite as the library renders it,
//! `fmt`, `explain` and `new`. Fast: no game is built with cargo here.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The test data directory, where the commands run (so file names print relative).
fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("cli")
}

/// Runs `tgdlc ARGS` in `dir`, with no colours and a cache no test shares.
fn tgdlc_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgdlc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("TGDL_CACHE", scratch_path("cache"))
        .env("TGDL_NO_BACKGROUND_BUILD", "1")
        .output()
        .expect("run tgdlc")
}

fn tgdlc(args: &[&str]) -> Output {
    tgdlc_in(&data(), args)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[track_caller]
fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "exit status\n--- stdout\n{}\n--- stderr\n{}",
        stdout(out),
        stderr(out)
    );
}

/// A path under the system's temporary directory, unique to this process and `name`.
fn scratch_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tgdlc-cli-test-{}-{name}", std::process::id()))
}

/// A fresh, empty directory at [`scratch_path`]; each test uses its own names and removes
/// its directory when it passes.
fn scratch(name: &str) -> PathBuf {
    let dir = scratch_path(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// The JSON diagnostics printed by `check --message-format json`.
#[track_caller]
fn json_diagnostics(out: &Output) -> Vec<serde_json::Value> {
    stdout(out)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect()
}

// ---------------------------------------------------------------------------------------
// check

#[test]
fn check_accepts_a_valid_game() {
    let out = tgdlc(&["check", "valid.tgdl"]);
    assert_exit(&out, 0);
    assert!(!stderr(&out).contains("error"), "{}", stderr(&out));
}

#[test]
fn check_renders_a_syntax_error_like_rustc() {
    let out = tgdlc(&["check", "syntax_error.tgdl"]);
    assert_exit(&out, 1);
    let err = stderr(&out);
    assert!(err.contains("E0001"), "{err}");
    assert!(err.contains("syntax_error.tgdl:2:22"), "{err}");
    assert!(err.contains("setup { number x = 1 }"), "{err}");
    assert!(err.contains('^'), "{err}");
    assert!(!err.contains('\u{1b}'), "colours with NO_COLOR set: {err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn check_json_prints_one_object_per_diagnostic() {
    let out = tgdlc(&["check", "syntax_error.tgdl", "--message-format", "json"]);
    assert_exit(&out, 1);
    let diags = json_diagnostics(&out);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["severity"], "error");
    assert_eq!(d["code"], "E0001");
    assert_eq!(d["primary"]["file"], "syntax_error.tgdl");
    assert_eq!(d["primary"]["line"], 2);
    assert_eq!(d["primary"]["column"], 22);

    let out = tgdlc(&["check", "valid.tgdl", "--message-format", "json"]);
    assert_exit(&out, 0);
    assert!(json_diagnostics(&out).iter().all(|d| d["severity"] != "error"));
}

#[test]
fn check_reports_a_missing_file() {
    let out = tgdlc(&["check", "no_such_game.tgdl"]);
    assert_exit(&out, 1);
    let err = stderr(&out);
    assert!(err.contains("cannot read `no_such_game.tgdl`"), "{err}");
    assert!(err.contains("no such file"), "{err}");

    let out = tgdlc(&["check", "no_such_game.tgdl", "--message-format", "json"]);
    assert_exit(&out, 1);
    assert_eq!(json_diagnostics(&out)[0]["primary"]["file"], "no_such_game.tgdl");
}

#[test]
fn check_reports_unreadable_files_without_panicking() {
    let dir = scratch("unreadable");
    std::fs::write(dir.join("latin1.tgdl"), b"game G players 2; // caf\xe9\nsetup { }\n").unwrap();
    std::fs::write(dir.join("binary.tgdl"), [0u8, 159, 146, 150, 0, 1, 2, 255, 0]).unwrap();
    std::fs::write(dir.join("nul.tgdl"), "game G players 2;\0\0 setup { }\u{7f}").unwrap();
    std::fs::write(dir.join("imports_dir.tgdl"), "game G players 2;\nimport \"sub\";\nsetup { }\n").unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("empty.tgdl"), "").unwrap();

    for (file, needle) in [
        ("latin1.tgdl", "not UTF-8"),
        ("binary.tgdl", "not UTF-8"),
        ("nul.tgdl", "E0001"),
        ("imports_dir.tgdl", "it is a directory"),
        ("empty.tgdl", "game"),
        ("sub", "it is a directory"),
    ] {
        let out = tgdlc_in(&dir, &["check", file]);
        assert_exit(&out, 1);
        assert!(stderr(&out).contains(needle), "{file}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{file}: {}", stderr(&out));
    }
    let out = tgdlc_in(&dir, &["check", "imports_dir.tgdl", "--message-format", "json"]);
    let d = &json_diagnostics(&out)[0];
    assert_eq!(d["code"], "E0002");
    assert_eq!(d["primary"]["line"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------
// imports

#[test]
fn imports_resolve_relative_to_the_importing_file_and_diamonds_load_once() {
    let out = tgdlc(&["check", "imports/main.tgdl"]);
    assert_exit(&out, 0);
    assert!(!stderr(&out).contains("E0003"), "{}", stderr(&out));

    // From another directory, with `..` in the path: names stay as the user wrote them.
    let out = tgdlc_in(&data().join("cycle"), &["check", "../imports/main.tgdl"]);
    assert_exit(&out, 0);
}

#[test]
fn an_import_cycle_names_both_files_and_import_sites() {
    let out = tgdlc(&["check", "cycle/main.tgdl"]);
    assert_exit(&out, 1);
    let err = stderr(&out);
    assert!(err.contains("E0002"), "{err}");
    assert!(err.contains("import cycle: cycle/x.tgdl -> cycle/y.tgdl -> cycle/x.tgdl"), "{err}");
    // Both import sites are shown: y's import of x (closing the cycle), x's import of y.
    assert!(err.contains("cycle/y.tgdl:1:8"), "{err}");
    assert!(err.contains("cycle/x.tgdl:2:8"), "{err}");

    let out = tgdlc(&["check", "cycle/main.tgdl", "--message-format", "json"]);
    let diags = json_diagnostics(&out);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["primary"]["file"], "cycle/y.tgdl");
    assert_eq!(diags[0]["secondary"][0]["file"], "cycle/x.tgdl");
}

#[test]
fn a_file_importing_itself_is_a_cycle() {
    let dir = scratch("self_import");
    std::fs::write(dir.join("main.tgdl"), "game G players 2;\nimport \"main.tgdl\";\nsetup { }\n").unwrap();
    let out = tgdlc_in(&dir, &["check", "main.tgdl"]);
    assert_exit(&out, 1);
    assert!(stderr(&out).contains("import cycle: main.tgdl -> main.tgdl"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_import_is_reported_at_its_path() {
    let out = tgdlc(&["check", "missing_import.tgdl", "--message-format", "json"]);
    assert_exit(&out, 1);
    let diags = json_diagnostics(&out);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["code"], "E0002");
    assert_eq!(d["primary"]["file"], "missing_import.tgdl");
    assert_eq!(d["primary"]["line"], 3);
    assert_eq!(d["primary"]["column"], 8);
    assert_eq!(d["primary"]["text"], "\"no/such/file.tgdl\"");
    assert!(d["message"].as_str().unwrap().contains("no/such/file.tgdl"), "{d}");

    let out = tgdlc(&["check", "missing_import.tgdl"]);
    assert!(stderr(&out).contains("missing_import.tgdl:3:8"), "{}", stderr(&out));
}

#[test]
fn namespaces_are_inherited_and_a_file_lives_in_one() {
    let out = tgdlc(&["check", "namespaces/main.tgdl"]);
    assert_exit(&out, 0);

    let out = tgdlc(&["check", "namespaces/conflict.tgdl"]);
    assert_exit(&out, 1);
    let err = stderr(&out);
    assert!(err.contains("E0002"), "{err}");
    assert!(err.contains("namespaces/conflict.tgdl:5:8"), "{err}");
    assert!(err.contains("namespaces/cards.tgdl:1:1"), "{err}");
}

// ---------------------------------------------------------------------------------------
// emit, build, play: the paths that need no cargo

#[test]
fn emit_prints_nothing_for_an_invalid_game() {
    let out = tgdlc(&["emit", "syntax_error.tgdl"]);
    assert_exit(&out, 1);
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).contains("E0001"));
}

#[test]
fn emit_prints_the_generated_engine() {
    let out = tgdlc(&["emit", "valid.tgdl"]);
    assert_exit(&out, 0);
    assert!(stdout(&out).contains("pub type Game"), "{}", stdout(&out));

    let dir = scratch("emit");
    let target = dir.join("game.rs");
    let out = tgdlc(&["emit", "valid.tgdl", "-o", target.to_str().unwrap()]);
    assert_exit(&out, 0);
    assert!(stdout(&out).is_empty());
    assert!(std::fs::read_to_string(&target).unwrap().contains("pub type Game"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_simulate_perft_and_build_stop_at_an_invalid_game() {
    for args in [
        &["play", "syntax_error.tgdl", "--seed", "1"][..],
        &["simulate", "syntax_error.tgdl", "-n", "10"],
        &["perft", "syntax_error.tgdl", "--depth", "2"],
        &["build", "syntax_error.tgdl"],
    ] {
        let out = tgdlc(args);
        let cmd = args[0];
        assert_exit(&out, 1);
        assert!(stderr(&out).contains("E0001"), "{cmd}: {}", stderr(&out));
    }
}

#[test]
fn build_without_the_runtime_says_how_to_set_tgdl_runtime_path() {
    let dir = scratch("no-runtime");
    let out = Command::new(env!("CARGO_BIN_EXE_tgdlc"))
        .args(["build", "valid.tgdl"])
        .current_dir(data())
        .env("TGDL_CACHE", dir.join("cache"))
        .env("TGDL_RUNTIME_PATH", &dir)
        .output()
        .unwrap();
    assert_exit(&out, 1);
    let err = stderr(&out);
    assert!(err.contains(&format!("error: TGDL_RUNTIME_PATH is `{}`", dir.display())), "{err}");
    assert!(err.contains("help: set TGDL_RUNTIME_PATH to the `tgdl-runtime` directory"), "{err}");
    assert_eq!(err.lines().count(), 2, "one error and its help, no cargo output:\n{err}");
    assert!(!dir.join("cache").exists(), "nothing is written before the runtime is found");

    // A crate that is not the runtime (here the command line's own) is refused the same way,
    // before cargo would fail on it.
    let out = Command::new(env!("CARGO_BIN_EXE_tgdlc"))
        .args(["play", "--engine", "native", "valid.tgdl"])
        .current_dir(data())
        .env("TGDL_CACHE", dir.join("cache"))
        .env("TGDL_RUNTIME_PATH", env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_exit(&out, 1);
    assert!(
        stderr(&out).contains("which is neither the tgdl-runtime crate nor a TGDL checkout"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("cache").exists(), "nothing is written before the runtime is found");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------
// check of the checker's UI suite, fmt

/// The cases of the checker's UI suite (`tgdl-compiler/tests/check_ui`), sorted.
fn ui_cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tgdl-compiler/tests/check_ui");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the checker's UI suite exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "tgdl"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 40, "the UI suite is found");
    cases
}

#[test]
fn check_prints_the_ui_suites_text_and_fails() {
    for path in ui_cases() {
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 name").to_string();
        let compilation = tgdl_compiler::check_file(&path);
        let out = Command::new(env!("CARGO_BIN_EXE_tgdlc"))
            .arg("check")
            .arg(&path)
            .env("NO_COLOR", "1")
            .output()
            .expect("run tgdlc");
        let expected_exit = if compilation.has_errors() { 1 } else { 0 };
        assert_eq!(out.status.code(), Some(expected_exit), "{name}: exit status");
        let err = stderr(&out);
        let rendered = compilation.render(false);
        if compilation.has_errors() {
            assert_eq!(err, rendered, "{name}: the output of `tgdlc check`");
        } else {
            // A valid game (with warnings) ends with the one-line summary.
            let rest = err.strip_prefix(rendered.as_str());
            assert!(
                rest.is_some_and(|r| r.starts_with("    Checked `") && r.lines().count() == 1),
                "{name}: the output of `tgdlc check`: {err}"
            );
        }
        assert!(out.stdout.is_empty(), "{name}: `check` prints diagnostics on standard error only");
    }
}

#[test]
fn fmt_checks_writes_and_refuses_syntax_errors() {
    let dir = scratch("fmt");
    let messy = dir.join("messy.tgdl");
    let tidy = dir.join("tidy.tgdl");
    let broken = dir.join("broken.tgdl");
    std::fs::write(&messy, "game G players 2;\nsetup{x=1;}\n").unwrap();
    std::fs::write(&tidy, "game G players 2;\nsetup { x = 1; }\n").unwrap();
    std::fs::write(&broken, "game G players 2;\nsetup { x = ; }\n").unwrap();
    let (m, t, b) = (messy.to_str().unwrap(), tidy.to_str().unwrap(), broken.to_str().unwrap());

    let out = tgdlc(&["fmt", "--check", m, t]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out).trim(), m, "only the file that would change is listed");
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        "game G players 2;\nsetup{x=1;}\n",
        "--check writes nothing"
    );

    let out = tgdlc(&["fmt", m, t]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), "game G players 2;\nsetup { x = 1; }\n");
    assert_eq!(tgdlc(&["fmt", "--check", m]).status.code(), Some(0));
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(leftovers, 3, "no temporary file is left behind");

    let out = tgdlc(&["fmt", b]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("error[E0001]") && err.contains("broken.tgdl:2:"), "{err}");
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), "game G players 2;\nsetup { x = ; }\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fmt` reads and writes files the safe way: through a symbolic link it formats the file
/// the link points at and leaves the link a link; a FIFO or a device is refused at once
/// (never waited on, never read without end); a file's `\r\n` or `\r` line endings and its
/// byte-order mark are kept, and a comment on its own line stays there.
#[cfg(unix)]
#[test]
fn fmt_follows_links_refuses_fifos_and_keeps_line_endings() {
    let dir = scratch("fmt-files");
    let target = dir.join("game.tgdl");
    let link = dir.join("link.tgdl");
    std::fs::write(&target, "game G players 2;\nsetup{x=1;}\n").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = tgdlc(&["fmt", link.to_str().unwrap()]);
    assert_exit(&out, 0);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "game G players 2;\nsetup { x = 1; }\n");

    let fifo = dir.join("pipe.tgdl");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    for special in [fifo.to_str().unwrap(), "/dev/zero"] {
        let out = tgdlc(&["fmt", special]);
        assert_exit(&out, 1);
        assert!(stderr(&out).contains("not a regular file"), "{special}: {}", stderr(&out));
    }

    let crlf = dir.join("crlf.tgdl");
    std::fs::write(&crlf, "\u{feff}game G players 2;\r\n// rules\r\nsetup{x=1;}\r\n").unwrap();
    assert_exit(&tgdlc(&["fmt", crlf.to_str().unwrap()]), 0);
    assert_eq!(
        std::fs::read_to_string(&crlf).unwrap(),
        "\u{feff}game G players 2;\r\n// rules\r\nsetup { x = 1; }\r\n"
    );
    assert_exit(&tgdlc(&["fmt", "--check", crlf.to_str().unwrap()]), 0);

    let cr = dir.join("cr.tgdl");
    std::fs::write(&cr, "game G players 2;\r// rules\rsetup{x=1;}\r").unwrap();
    assert_exit(&tgdlc(&["fmt", cr.to_str().unwrap()]), 0);
    assert_eq!(std::fs::read_to_string(&cr).unwrap(), "game G players 2;\r// rules\rsetup { x = 1; }\r");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `emit -o` writes as `fmt` does: through a link, the file it points at (the link stays a
/// link), by a temporary file renamed over it (nothing else is left in the directory), and
/// never into what is not a regular file.
#[test]
fn emit_writes_through_links_and_only_regular_files() {
    let dir = scratch("emit-files");
    let game = dir.join("game.tgdl");
    std::fs::write(&game, "game G players 2;\nsetup { }\n").unwrap();
    let target = dir.join("engine.rs");
    let link = dir.join("link.rs");
    std::fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    assert_exit(&tgdlc(&["emit", game.to_str().unwrap(), "-o", link.to_str().unwrap()]), 0);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert!(std::fs::read_to_string(&target).unwrap().contains("pub struct World"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["engine.rs", "game.tgdl", "link.rs"], "no temporary file is left");
    let out = tgdlc(&["emit", game.to_str().unwrap(), "-o", dir.to_str().unwrap()]);
    assert_exit(&out, 1);
    assert!(stderr(&out).contains("not a regular file"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------
// explain, new, usage

#[test]
fn explain_prints_a_code_and_lists_them_all() {
    let out = tgdlc(&["explain", "E0001"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(text.starts_with("E0001: syntax error"), "{text}");
    assert!(text.contains("The text is not valid TGDL"), "{text}");

    // Case-insensitive.
    assert_exit(&tgdlc(&["explain", "e0002"]), 0);

    let out = tgdlc(&["explain", "E9999"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("explain --list"), "{}", stderr(&out));

    let out = tgdlc(&["explain", "--list"]);
    assert_exit(&out, 0);
    let list = stdout(&out);
    for code in tgdl_compiler::codes::ALL {
        assert!(list.contains(code.code) && list.contains(code.title), "{list}");
    }
}

#[test]
fn new_scaffolds_a_valid_project_and_refuses_to_overwrite() {
    let dir = scratch("new");
    let out = tgdlc_in(&dir, &["new", "my-game"]);
    assert_exit(&out, 0);
    for file in ["main.tgdl", "rules.tgdl", "README.md"] {
        assert!(dir.join("my-game").join(file).is_file(), "{file} missing");
    }
    let main = std::fs::read_to_string(dir.join("my-game/main.tgdl")).unwrap();
    assert!(main.contains("game MyGame players 2;"), "{main}");
    assert!(main.contains("import \"rules.tgdl\";"), "{main}");
    // Written as the examples are: already in `tgdlc fmt`'s layout, opening braces at the
    // end of the line, each file opening with a comment that says what it is.
    let out = tgdlc_in(&dir, &["fmt", "--check", "my-game/main.tgdl", "my-game/rules.tgdl"]);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out), "", "the scaffold is not in fmt's layout");
    for file in ["main.tgdl", "rules.tgdl"] {
        let text = std::fs::read_to_string(dir.join("my-game").join(file)).unwrap();
        assert!(text.starts_with("// "), "{file}: {text}");
        assert!(!text.lines().any(|l| l.trim() == "{"), "{file}: a brace on a line of its own:\n{text}");
    }

    let out = tgdlc_in(&dir, &["check", "my-game/main.tgdl"]);
    assert_exit(&out, 0);
    assert_eq!(stderr(&out), "    Checked `my-game/main.tgdl`: the game `MyGame` is valid (2 files)\n");
    // A project directory stands for its main file, with every command.
    let out = tgdlc_in(&dir, &["check", "my-game"]);
    assert_exit(&out, 0);
    assert_eq!(stderr(&out), "    Checked `my-game/main.tgdl`: the game `MyGame` is valid (2 files)\n");

    std::fs::write(dir.join("my-game/main.tgdl"), "// edited").unwrap();
    let out = tgdlc_in(&dir, &["new", "my-game"]);
    assert_exit(&out, 1);
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(dir.join("my-game/main.tgdl")).unwrap(), "// edited");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_errors_exit_2() {
    assert_exit(&tgdlc(&[]), 2);
    assert_exit(&tgdlc(&["frobnicate"]), 2);
    assert_exit(&tgdlc(&["check"]), 2);
    assert_exit(&tgdlc(&["check", "valid.tgdl", "--message-format", "xml"]), 2);
    assert_exit(&tgdlc(&["explain"]), 2);
    assert_exit(&tgdlc(&["play"]), 2);
    assert_exit(&tgdlc(&["--version"]), 0);
    assert_exit(&tgdlc(&["play", "--help"]), 0);
}
