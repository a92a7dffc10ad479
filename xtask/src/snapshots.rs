//! `cargo xtask snapshots [--check]`: regenerates the insta snapshots of generated code
//! (`tgdl-compiler/tests/snapshots/`, one per `examples/*.tgdl`) and lists the files that changed,
//! for review; with `--check`, fails when a snapshot is stale instead of writing it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The snapshot suites: (package, test target, directory of its `.snap` files).
const SUITES: &[(&str, &str, &str)] = &[("tgdl-compiler", "snapshots", "tgdl-compiler/tests/snapshots")];

pub fn run(args: &[String]) -> ExitCode {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => {
            eprintln!("usage: cargo xtask snapshots [--check]");
            return ExitCode::from(2);
        }
    };
    let root = crate::workspace_root();
    let before = read_snapshots(&root);
    for (package, test, _) in SUITES {
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string()))
            .current_dir(&root)
            .args(["test", "--quiet", "--package", package, "--test", test])
            // `always` writes every snapshot that differs and passes; `no` fails on it.
            .env("INSTA_UPDATE", if check { "no" } else { "always" })
            .env_remove("INSTA_FORCE_PASS")
            .status();
        match status {
            Ok(s) if s.success() => {}
            Ok(_) if check => {
                eprintln!(
                    "snapshots of `{package} --test {test}` are stale: run `cargo xtask snapshots` and review the diff"
                );
                return ExitCode::FAILURE;
            }
            Ok(_) => {
                eprintln!("`cargo test -p {package} --test {test}` failed (see above)");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("cannot run cargo: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if check {
        println!("snapshots are up to date");
        return ExitCode::SUCCESS;
    }
    let after = read_snapshots(&root);
    let changed: Vec<&PathBuf> =
        after.iter().filter(|(path, text)| before.get(*path) != Some(text)).map(|(p, _)| p).collect();
    if changed.is_empty() {
        println!("snapshots are up to date");
    } else {
        println!("changed snapshots (review them with `git diff` before committing):");
        for path in changed {
            println!("  {}", path.display());
        }
    }
    ExitCode::SUCCESS
}

/// Every `.snap` file of the suites, by path relative to the workspace root.
fn read_snapshots(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut snapshots = BTreeMap::new();
    for (_, _, dir) in SUITES {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.extension().is_some_and(|x| x == "snap") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                snapshots.insert(Path::new(dir).join(path.file_name().unwrap_or_default()), text);
            }
        }
    }
    snapshots
}
