//! `cargo xtask <command>`: maintenance commands of the workspace (run from anywhere in
//! it). Each command lives in its own module; `main` only dispatches.

use std::process::ExitCode;

mod bench;
mod docs;
mod snapshots;
mod tidy;

/// The commands, with a one-line description each (shown by `cargo xtask help`).
const COMMANDS: &[(&str, &str)] = &[
    ("bench", "measure engines and compiler; print (or --write) docs/performance.md's table"),
    ("docs", "regenerate docs/diagnostics.md from the explanations in tgdl-compiler/src/codes.rs"),
    (
        "tidy",
        "check the repository's conventions (//! headers, no outside references, ARCHITECTURE.md's paths)",
    ),
    (
        "snapshots",
        "regenerate the snapshots of generated code and list the changed ones (--check: fail if stale)",
    ),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match args.split_first() {
        Some((c, rest)) => (c.as_str(), rest),
        None => ("help", &[][..]),
    };
    let _ = rest;
    match command {
        "help" | "--help" | "-h" => {
            println!("usage: cargo xtask <command>\n\ncommands:");
            for (name, about) in COMMANDS {
                println!("  {name:<12} {about}");
            }
            ExitCode::SUCCESS
        }
        "bench" => bench::run(rest),
        "docs" => docs::run(rest),
        "snapshots" => snapshots::run(rest),
        "tidy" => tidy::run(rest),
        other => {
            eprintln!("unknown command `{other}`; see `cargo xtask help`");
            ExitCode::from(2)
        }
    }
}

/// The workspace root (xtask's parent directory).
#[allow(dead_code)]
fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}
