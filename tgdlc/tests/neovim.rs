//! A real editor: headless Neovim loads `editors/neovim/tgdl.lua` (the configuration users
//! copy), opens the tic-tac-toe example and a copy of it with an error, with `tgdlc lsp`
//! attached, and reports the diagnostics and hovers it received (`tests/neovim/session.lua`).
//!
//! Needs `nvim` (Debian's `neovim` package; 0.7 or later). Without it the test prints why
//! and passes, unless `TGDL_REQUIRE_NVIM` is set (`.ci/run` sets it), when it fails.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one Neovim session may take, all waits included.
const SESSION: Duration = Duration::from_secs(120);
/// How long Neovim waits for one answer of the server.
const ANSWER_MS: u64 = 30_000;

fn nvim_available() -> bool {
    Command::new("nvim")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The 0-based line and column of `needle` on the first line containing `line_has`.
fn at(text: &str, line_has: &str, needle: &str) -> Value {
    let (line, content) = text.lines().enumerate().find(|(_, l)| l.contains(line_has)).expect("line exists");
    let col = content.find(needle).expect("needle on the line");
    json!({ "line": line, "character": col + 1 })
}

fn line_of(text: &str, line_has: &str) -> u64 {
    text.lines().position(|l| l.contains(line_has)).expect("line exists") as u64
}

/// Runs `session.lua` in a headless Neovim over `files` and gives its report.
fn session(dir: &Path, files: Value) -> Value {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = std::fs::canonicalize(manifest.join("../editors/neovim/tgdl.lua")).unwrap();
    let script = manifest.join("tests/neovim/session.lua");
    let out = dir.join("report.json");
    let spec = json!({
        "config": config,
        "tgdlc": env!("CARGO_BIN_EXE_tgdlc"),
        "out": out,
        "timeout_ms": ANSWER_MS,
        "files": files,
    });
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let log = |name: &str| std::fs::File::create(dir.join(name)).unwrap();
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("TGDL_NVIM_SPEC", spec.to_string())
        // Neovim's state, cache (lsp.log) and configuration stay in the temporary directory.
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .stdin(Stdio::null())
        .stdout(log("nvim.stdout"))
        .stderr(log("nvim.stderr"))
        .spawn()
        .expect("nvim starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > SESSION {
            child.kill().ok();
            child.wait().ok();
            let stderr = std::fs::read_to_string(dir.join("nvim.stderr")).unwrap_or_default();
            panic!("Neovim did not finish within {SESSION:?}; its stderr:\n{stderr}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let report = std::fs::read_to_string(&out).unwrap_or_else(|e| {
        let stderr = std::fs::read_to_string(dir.join("nvim.stderr")).unwrap_or_default();
        panic!("no report from Neovim ({status}, {e}); its stderr:\n{stderr}")
    });
    let report: Value = serde_json::from_str(&report).unwrap();
    assert!(status.success(), "Neovim exited with {status}: {report}");
    assert!(report.get("error").is_none(), "the session failed: {report}");
    report
}

#[test]
fn neovim_shows_the_diagnostics_and_hovers_of_tgdlc_lsp() {
    if !nvim_available() {
        if std::env::var_os("TGDL_REQUIRE_NVIM").is_some() {
            panic!("TGDL_REQUIRE_NVIM is set but `nvim` is not installed (apt-get install neovim)");
        }
        println!(
            "skipped: `nvim` is not installed (apt-get install neovim; set TGDL_REQUIRE_NVIM to fail instead)"
        );
        return;
    }
    let example =
        std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/tic_tac_toe.tgdl"))
            .unwrap();
    let text = std::fs::read_to_string(&example).unwrap();
    let dir: PathBuf = std::env::temp_dir().join(format!("tgdl-neovim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The same game with a misspelt function and a string added to a number.
    let broken = text.replacen("if (threeInARow()) {", "if (threeInRow()) {", 1).replacen(
        "moves += 1;",
        "moves += \"one\";",
        1,
    );
    let broken_path = dir.join("tic_tac_toe.tgdl");
    std::fs::write(&broken_path, &broken).unwrap();

    let report = session(
        &dir,
        json!([
            {
                "path": example,
                "hovers": [at(&text, "if (mark == null)", "mark"), at(&text, "moves += 1;", "moves")],
            },
            {
                "path": broken_path,
                "hovers": [at(&broken, "if (threeInRow())", "threeInRow")],
            },
        ]),
    );
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 2, "{report}");

    // The example: the file type is set, the server attached, and it has no diagnostics.
    let valid = &files[0];
    assert_eq!(valid["filetype"], "tgdl", "{report}");
    assert_eq!(valid["clients"], json!(["tgdlc"]), "{report}");
    assert_eq!(valid["published"], json!(true), "no publishDiagnostics received: {report}");
    assert_eq!(valid["diagnostics"], json!([]), "{report}");
    // Hover: the attribute's type and its comment; the other attribute's declaration.
    let hovers = valid["hovers"].as_array().unwrap();
    let mark = hovers[0].as_str().expect("a hover on `mark`");
    assert!(mark.contains("player Cell.mark"), "{mark}");
    assert!(mark.contains("who marked this cell; null while it is empty"), "{mark}");
    let moves = hovers[1].as_str().expect("a hover on `moves`");
    assert!(moves.contains("number Rules.moves"), "{moves}");

    // The broken copy: both errors, with their codes and lines, shown by vim.diagnostic.
    let broken_report = &files[1];
    assert_eq!(broken_report["published"], json!(true), "{report}");
    let mut diagnostics: Vec<(String, String, u64)> = broken_report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert_eq!(d["severity"], json!(1), "an error: {d}");
            (
                d["code"].as_str().unwrap_or_default().to_owned(),
                d["message"].as_str().unwrap_or_default().to_owned(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    diagnostics.sort_by_key(|d| d.2);
    assert_eq!(diagnostics.len(), 2, "{report}");
    let (code, message, line) = &diagnostics[0];
    assert_eq!(*line, line_of(&broken, "moves += \"one\";"), "{report}");
    assert_eq!(code, "E0006", "{report}");
    assert!(message.contains("string"), "{message}");
    let (code, message, line) = &diagnostics[1];
    assert_eq!(*line, line_of(&broken, "if (threeInRow())"), "{report}");
    assert_eq!(code, "E0004", "{report}");
    assert!(message.contains("threeInRow") && message.contains("help: "), "{message}");
    assert!(message.contains("threeInARow"), "the suggestion: {message}");
    let shown: Vec<(String, u64)> = broken_report["shown"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap_or_default().to_owned(), d["line"].as_u64().unwrap()))
        .collect();
    for (code, _, line) in &diagnostics {
        assert!(shown.contains(&(code.clone(), *line)), "vim.diagnostic shows {shown:?}");
    }
    // Hover on the misspelt name: the explanation of the error's code.
    let explained = broken_report["hovers"][0].as_str().expect("a hover on the error");
    assert!(explained.contains(&format!("**{}**", diagnostics[1].0)), "{explained}");

    std::fs::remove_dir_all(&dir).ok();
}
