//! The two engines of `tgdlc play` and the others (docs/playing.md, "Two engines"): the
//! interpreter plays the very game the native binary plays, `auto` picks the cached
//! binary or else the interpreter (saying which on standard error), the batch commands
//! run native, and `play --watch` starts the game again under edited rules with its
//! decisions replayed. Background builds are off (`TGDL_NO_BACKGROUND_BUILD`) except
//! where a test looks at one.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `tgdlc` run from the workspace root, with the native builds of the other tests' cache
/// (CI sets it) and no background build.
fn tgdlc() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tgdlc"));
    cmd.current_dir(root()).env("NO_COLOR", "1").env("TGDL_NO_BACKGROUND_BUILD", "1");
    if std::env::var_os("TGDL_CACHE").is_none() {
        cmd.env("TGDL_CACHE", root().join("target/tgdl-cache"));
    }
    cmd
}

fn run(cmd: &mut Command, input: &str) -> Output {
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("tgdlc runs");
    child.stdin.take().expect("piped").write_all(input.as_bytes()).expect("the game reads its input");
    child.wait_with_output().expect("tgdlc ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[track_caller]
fn assert_ok(out: &Output) {
    assert_eq!(out.status.code(), Some(0), "stdout:\n{}\nstderr:\n{}", text(&out.stdout), text(&out.stderr));
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgdlc-engines-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

const TIC_TAC_TOE: &str = "examples/tic_tac_toe.tgdl";

fn play(engine: &str, seats: &str, input: &str) -> Output {
    run(tgdlc().args(["play", TIC_TAC_TOE, "--engine", engine, "--seats", seats, "--seed", "5"]), input)
}

#[test]
fn the_interpreter_plays_the_game_the_native_engine_plays() {
    // Agents, and a person answering by number and by label.
    for (seats, input) in [("random,random", ""), ("human,random", "1\nCell(2, 2)\n1\n1\n1\n")] {
        let interpreted = play("interpreted", seats, input);
        assert_ok(&interpreted);
        let native = play("native", seats, input);
        assert_ok(&native);
        let out = text(&interpreted.stdout);
        assert!(out.lines().last().is_some_and(|l| l.starts_with("result: ")), "{out}");
        assert_eq!(out, text(&native.stdout), "{seats}: the same game, byte for byte");
        assert!(text(&interpreted.stderr).is_empty(), "nothing but the game: {}", text(&interpreted.stderr));
    }
}

#[test]
fn auto_plays_interpreted_when_nothing_is_cached() {
    let cache = scratch("empty-cache");
    let out = run(
        tgdlc().env("TGDL_CACHE", &cache).args([
            "play",
            TIC_TAC_TOE,
            "--seats",
            "random,random",
            "--seed",
            "5",
        ]),
        "",
    );
    assert_ok(&out);
    assert_eq!(
        text(&out.stderr),
        "tgdlc: playing with the interpreter (no native build: TGDL_NO_BACKGROUND_BUILD is set)\n"
    );
    assert!(text(&out.stdout).lines().last().is_some_and(|l| l.starts_with("result: ")));
    assert!(!cache.join("games").exists() && !cache.join("target").exists(), "nothing is built");
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn auto_runs_the_cached_binary_once_it_is_built() {
    let native = play("native", "random,random", "");
    assert_ok(&native);
    let auto = run(tgdlc().args(["play", TIC_TAC_TOE, "--seats", "random,random", "--seed", "5"]), "");
    assert_ok(&auto);
    assert_eq!(text(&auto.stderr), "tgdlc: playing with the native engine (cached)\n");
    assert_eq!(text(&auto.stdout), text(&native.stdout));
}

#[test]
#[ignore = "waits for a native build in the background: a minute or more"]
fn a_background_build_fills_the_cache_for_next_time() {
    // A game of its own, named for this run (its code is its cache key): the first play
    // finds nothing cached.
    let dir = scratch("background");
    let name = format!("Background{}", std::process::id());
    let rules = std::fs::read_to_string(root().join(TIC_TAC_TOE)).expect("the example");
    let game = dir.join("ttt.tgdl");
    std::fs::write(&game, rules.replace("game TicTacToe", &format!("game {name}"))).expect("a copy");
    let auto = || {
        run(
            tgdlc()
                .env_remove("TGDL_NO_BACKGROUND_BUILD")
                .arg("play")
                .arg(&game)
                .args(["--seats", "random", "--seed", "5"]),
            "",
        )
    };
    let first = auto();
    assert_ok(&first);
    assert_eq!(
        text(&first.stderr),
        "tgdlc: playing with the interpreter (native engine building in the background)\n"
    );
    let started = Instant::now();
    loop {
        std::thread::sleep(Duration::from_secs(5));
        let again = auto();
        assert_ok(&again);
        if text(&again.stderr) == "tgdlc: playing with the native engine (cached)\n" {
            assert_eq!(text(&again.stdout), text(&first.stdout));
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(1800), "no native engine after 30 minutes");
    }
    // The cache keeps no project of a game named for one run.
    let cache =
        std::env::var_os("TGDL_CACHE").map_or_else(|| root().join("target/tgdl-cache"), PathBuf::from);
    let prefix = name.to_lowercase();
    for entry in std::fs::read_dir(cache.join("games")).expect("the cache's games").flatten() {
        if entry.file_name().to_string_lossy().starts_with(&format!("{prefix}-")) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn batch_commands_run_native_under_auto() {
    let out = run(tgdlc().args(["simulate", TIC_TAC_TOE, "-n", "20", "--seed", "1", "--json"]), "");
    assert_ok(&out);
    assert!(
        text(&out.stderr).starts_with(
            "tgdlc: simulate runs the native engine (built once, cached); --engine interpreted starts at once\n"
        ),
        "{}",
        text(&out.stderr)
    );
    let interpreted = run(
        tgdlc().args([
            "simulate",
            TIC_TAC_TOE,
            "-n",
            "20",
            "--seed",
            "1",
            "--json",
            "--threads",
            "1",
            "--engine=interpreted",
        ]),
        "",
    );
    assert_ok(&interpreted);
    let native = run(
        tgdlc().args([
            "simulate",
            "--engine",
            "native",
            TIC_TAC_TOE,
            "-n",
            "20",
            "--seed",
            "1",
            "--json",
            "--threads",
            "1",
        ]),
        "",
    );
    assert_ok(&native);
    // The report without its timing: the same games were played.
    let games = |out: &Output| {
        let mut report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
        report.as_object_mut().expect("an object").retain(|k, _| k != "seconds" && k != "games_per_sec");
        report
    };
    assert_eq!(games(&interpreted), games(&native));
}

#[test]
fn watch_is_not_taken_with_the_native_engine() {
    let out = run(tgdlc().args(["play", TIC_TAC_TOE, "--watch", "--engine", "native"]), "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--watch plays with the interpreter"), "{}", text(&out.stderr));
}

/// A running `tgdlc`, its output read as it comes.
struct Session {
    child: Child,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

impl Session {
    fn start(cmd: &mut Command) -> Session {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tgdlc runs");
        let collect = |mut stream: Box<dyn Read + Send>| {
            let text = Arc::new(Mutex::new(String::new()));
            let into = text.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = stream.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    into.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            });
            text
        };
        let stdout = collect(Box::new(child.stdout.take().expect("piped")));
        let stderr = collect(Box::new(child.stderr.take().expect("piped")));
        Session { child, stdout, stderr }
    }

    fn type_line(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().expect("piped");
        writeln!(stdin, "{line}").expect("the game reads its input");
        stdin.flush().expect("flushed");
    }

    /// Waits until `stream` holds `needle` `count` times; what it holds then.
    #[track_caller]
    fn wait_for(&self, stream: &Arc<Mutex<String>>, needle: &str, count: usize) -> String {
        let started = Instant::now();
        loop {
            let now = stream.lock().unwrap().clone();
            if now.matches(needle).count() >= count {
                return now;
            }
            if started.elapsed() > Duration::from_secs(60) {
                panic!(
                    "no {needle:?} (x{count}) after 60 s\n--- stdout\n{}\n--- stderr\n{}",
                    self.stdout.lock().unwrap(),
                    self.stderr.lock().unwrap()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn watch_replays_the_moves_under_edited_rules_and_outlives_a_broken_edit() {
    let dir = scratch("watch");
    let game = dir.join("ttt.tgdl");
    let rules = std::fs::read_to_string(root().join(TIC_TAC_TOE)).expect("the example");
    std::fs::write(&game, &rules).expect("a copy");
    let mut session = Session::start(tgdlc().current_dir(&dir).args([
        "play",
        "ttt.tgdl",
        "--watch",
        "--seats",
        "human,human",
        "--seed",
        "3",
    ]));
    let prompt = "> ";
    session.wait_for(&session.stdout, prompt, 1);
    session.type_line("1");
    session.type_line("Cell(1, 1)");
    let before = session.wait_for(&session.stdout, prompt, 3);
    assert!(before.contains("player 0: place Cell(0, 0)\n"), "{before}");
    assert!(before.contains("player 1: place Cell(1, 1)\n"), "{before}");
    assert!(!before.contains('_'), "{before}");

    // Empty cells now read `_`: the board is drawn again with both marks kept.
    std::fs::write(&game, rules.replace(r#"return ".";"#, r#"return "_";"#)).expect("an edit");
    let reloaded = "rules reloaded: 2 decisions replayed\n";
    session.wait_for(&session.stdout, reloaded, 1);
    let out = session.wait_for(&session.stdout, prompt, 4);
    let after = out.split_once(reloaded).map(|(_, after)| after).unwrap_or_default();
    assert!(after.contains('_') && after.contains('X') && after.contains('O'), "{after}");
    assert!(!after.contains(" . "), "the old label is gone:\n{after}");

    // An edit with an error: its diagnostic, and the game goes on under the rules it had.
    std::fs::write(&game, rules.replace(r#"return ".";"#, r#"return "_""#)).expect("a broken edit");
    let err = session.wait_for(&session.stderr, "the game goes on under the rules as they were", 1);
    assert!(err.contains("error[E"), "a diagnostic:\n{err}");
    assert!(err.contains("ttt.tgdl:"), "located:\n{err}");
    session.type_line("1");
    let out = session.wait_for(&session.stdout, prompt, 5);
    assert!(out.contains("player 0: place Cell(1, 0)\n"), "{out}");
    session.type_line("q");
    let out = session.wait_for(&session.stdout, "result: ", 1);
    assert!(out.ends_with("result: player 1 quit after 3 decisions\n"), "{out}");
    let status = session.child.wait().expect("tgdlc ends");
    assert_eq!(status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}
