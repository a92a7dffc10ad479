//! The whole path from a clean checkout: `tgdlc build` makes a standalone binary with
//! cargo, and `tgdlc play` builds (cached) and plays. Slow the first time (the runtime
//! is compiled once into the shared cache), fast afterwards.

use std::path::{Path, PathBuf};
use std::process::Command;

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

fn stdout_of(cmd: &mut Command) -> (String, String, i32) {
    let out = cmd.output().expect("the command runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgdl-build-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn build_gives_a_binary_that_plays_the_same_game_for_the_same_seed() {
    let dir = temp_dir("c4");
    let bin = dir.join("c4");
    let (_, err, code) = stdout_of(tgdlc().args(["build", "examples/connect_four.tgdl", "-o"]).arg(&bin));
    assert_eq!(code, 0, "build failed:\n{err}");
    let play = |seed: &str| {
        stdout_of(Command::new(&bin).args(["play", "--seats", "random,random", "--seed", seed, "--verbose"]))
    };
    let (first, _, code) = play("3");
    assert_eq!(code, 0);
    let last = first.lines().last().expect("output");
    assert!(last.starts_with("result: "), "{first}");
    assert_eq!(play("3").0, first, "the same seed gives the same game");
    assert!(first.lines().filter(|l| l.starts_with("player ")).count() >= 7, "{first}");

    // Traces replay to the identical game.
    let trace = dir.join("game.json");
    let (out, _, code) = stdout_of(
        Command::new(&bin).args(["play", "--seats", "random,random", "--seed", "11", "--trace"]).arg(&trace),
    );
    assert_eq!(code, 0);
    let replayed = dir.join("again.json");
    let (again, _, code) =
        stdout_of(Command::new(&bin).args(["play", "--replay"]).arg(&trace).arg("--trace").arg(&replayed));
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), again.lines().last());
    assert_eq!(std::fs::read(&trace).expect("trace"), std::fs::read(&replayed).expect("replayed trace"));

    let (perft, _, _) = stdout_of(Command::new(&bin).args(["perft", "--depth", "4", "--json"]));
    assert_eq!(perft.trim(), r#"{"perft":[7,49,343,2401]}"#);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_builds_and_plays_tic_tac_toe() {
    let (out, err, code) = stdout_of(tgdlc().args([
        "play",
        "--engine",
        "native",
        "examples/tic_tac_toe.tgdl",
        "--seats",
        "random,random",
        "--seed",
        "7",
    ]));
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(["result: player 0 wins", "result: player 1 wins", "result: draw"].contains(&last), "{out}");
    let (again, _, _) = stdout_of(tgdlc().args([
        "play",
        "--engine",
        "native",
        "examples/tic_tac_toe.tgdl",
        "--seats",
        "random,random",
        "--seed",
        "7",
    ]));
    assert_eq!(again, out);
}

#[test]
fn a_human_can_play_at_the_terminal() {
    // The human (seat 0) always takes the first option; typing `q` would quit.
    let mut child = tgdlc()
        .args(["play", "examples/tic_tac_toe.tgdl", "--seats", "human,random", "--seed", "2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("tgdlc starts");
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().expect("piped");
        stdin.write_all(b"1\n1\n1\n1\n1\n").expect("the game reads its input");
    }
    let out = child.wait_with_output().expect("the game ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Board.Grid"), "the board is drawn:\n{text}");
    assert!(text.contains("1) place Cell(0, 0)"), "options are numbered with readable labels:\n{text}");
    assert!(text.lines().last().unwrap_or_default().starts_with("result: "), "{text}");
}

#[test]
fn a_new_project_checks_and_plays() {
    let dir = temp_dir("new");
    let project = dir.join("nim-game");
    let (_, err, code) = stdout_of(tgdlc().arg("new").arg(&project));
    assert_eq!(code, 0, "new failed:\n{err}");
    let main = project.join("main.tgdl");
    let (_, err, code) = stdout_of(tgdlc().arg("check").arg(&main));
    assert_eq!(code, 0, "the scaffold does not check:\n{err}");
    // The main file imports a module of its own (`can_take` decides the menu).
    let (out, err, code) =
        stdout_of(tgdlc().arg("play").arg(&main).args(["--seats", "random", "--seed", "4", "-v"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().last().is_some_and(|l| l.starts_with("result: player")), "{out}");
    assert!(out.contains(" left"), "every move logs what is left:\n{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_game_from_another_directory_is_not_rebuilt() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let play = |cwd: &Path, file: &Path| {
        stdout_of(tgdlc().current_dir(cwd).args(["play", "--engine", "native"]).arg(file).args([
            "--seats",
            "random,random",
            "--seed",
            "5",
        ]))
    };
    // Built (or found in the cache) once, as typed from the workspace root...
    let (first, err, code) = play(&root, Path::new("examples/tic_tac_toe.tgdl"));
    assert_eq!(code, 0, "{err}");
    // ...then reached as `./tic_tac_toe.tgdl`, as `../examples/...` and through a
    // symlinked directory: the same game, the cached binary, no cargo run.
    let examples = root.join("examples");
    let mut ways = vec![
        (examples.clone(), PathBuf::from("./tic_tac_toe.tgdl")),
        (root.join("tgdlc"), PathBuf::from("../examples/tic_tac_toe.tgdl")),
    ];
    let dir = temp_dir("symlinked");
    #[cfg(unix)]
    {
        let link = dir.join("games");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(examples.canonicalize().expect("examples exist"), &link)
            .expect("a symlink");
        ways.push((dir.clone(), PathBuf::from("games/tic_tac_toe.tgdl")));
    }
    for (cwd, file) in ways {
        let (out, err, code) = play(&cwd, &file);
        assert_eq!(code, 0, "{}: {err}", file.display());
        assert!(
            !err.contains("Compiling"),
            "`{}` from `{}` built the game again:\n{err}",
            file.display(),
            cwd.display()
        );
        assert_eq!(out, first, "the same seed plays the same game");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tgdl_runtime_path_may_name_the_runtime_or_the_checkout() {
    // What an installed tgdlc is told when its checkout moved: the runtime crate, or the
    // checkout holding it (relative paths too). Both are this workspace's runtime, so the
    // cached binary of the other tests is reused.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("the workspace");
    for runtime in [root.join("tgdl-runtime"), root.clone(), PathBuf::from("tgdl-runtime")] {
        let (out, err, code) = stdout_of(tgdlc().env("TGDL_RUNTIME_PATH", &runtime).args([
            "play",
            "--engine",
            "native",
            "examples/tic_tac_toe.tgdl",
            "--seats",
            "random,random",
            "--seed",
            "5",
        ]));
        assert_eq!(code, 0, "TGDL_RUNTIME_PATH={}: {err}", runtime.display());
        assert!(out.lines().last().is_some_and(|l| l.starts_with("result: ")), "{out}");
    }
}
