//! `cargo xtask tidy`: the conventions of the repository that no compiler checks.
//!
//! - Every Rust source file opens with a `//!` comment saying what it owns.
//! - Source files speak for themselves: no references to issue numbers or to sections of
//!   documents outside the repository (the section sign); the reasons belong in the comment itself, and
//!   the language is documented in `docs/`.
//! - Every path `ARCHITECTURE.md` names exists, so the map stays true to the territory.

use std::path::Path;
use std::process::{Command, ExitCode};

/// The section sign, spelled so that this file passes its own check.
const SECTION_SIGN: char = '\u{a7}';

/// Extensions of the files held to the "no outside references" rule.
const SOURCE_EXTENSIONS: &[&str] = &["rs", "pest", "py", "js", "mjs", "sh", "toml", "css", "html"];

pub fn run(args: &[String]) -> ExitCode {
    if !args.is_empty() {
        eprintln!("usage: cargo xtask tidy");
        return ExitCode::from(2);
    }
    let root = crate::workspace_root();
    let files = match tracked_files(&root) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut problems = Vec::new();
    for file in &files {
        let Some(ext) = Path::new(file).extension().and_then(|e| e.to_str()) else { continue };
        if !SOURCE_EXTENSIONS.contains(&ext) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root.join(file)) else { continue };
        if ext == "rs" && !text.starts_with("//!") {
            problems.push(format!("{file}:1: a Rust file opens with a `//!` comment saying what it owns"));
        }
        problems.extend(outside_references(file, &text));
    }
    problems.extend(architecture_paths(&root, &files));
    if problems.is_empty() {
        println!("tidy: {} files checked", files.len());
        return ExitCode::SUCCESS;
    }
    for p in &problems {
        eprintln!("{p}");
    }
    eprintln!("tidy: {} problem(s)", problems.len());
    ExitCode::FAILURE
}

/// The files git tracks (and those added but not yet committed), relative to `root`.
fn tracked_files(root: &Path) -> Result<Vec<String>, String> {
    let out = Command::new("git")
        .current_dir(root)
        .args(["ls-files", "--cached", "--others", "--exclude-standard"])
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!("git ls-files failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|f| root.join(f).is_file())
        .map(str::to_string)
        .collect())
}

/// Lines of `text` that point outside the repository: an issue number or a section sign.
fn outside_references(file: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.contains(SECTION_SIGN) {
            found.push(format!(
                "{file}:{}: a section sign points outside the repository: {}",
                i + 1,
                line.trim()
            ));
        }
        if let Some(issue) = issue_number(line) {
            found.push(format!("{file}:{}: `{issue}`: say why in the comment itself", i + 1));
        }
    }
    found
}

/// An issue's number in a line (the word, an optional `s` or `#`, then digits), if any.
fn issue_number(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("issue") {
        let before_ok = rest[..at].chars().next_back().is_none_or(|c| !c.is_ascii_alphanumeric());
        let after = &rest[at + "issue".len()..];
        let after = after.strip_prefix('s').unwrap_or(after);
        let digits = after.trim_start_matches([' ', '#']);
        if before_ok && digits.starts_with(|c: char| c.is_ascii_digit()) && digits.len() < after.len() {
            let n: String = digits.chars().take_while(char::is_ascii_digit).collect();
            return Some(format!("issue {n}"));
        }
        rest = &rest[at + "issue".len()..];
    }
    None
}

/// Paths named in `ARCHITECTURE.md` (in backticks) that do not exist. A name with a `/`
/// is a path from the repository's root or from a crate's (a directory ends in `/`); a
/// bare file name (`engine.rs`) must be the name of some tracked file.
fn architecture_paths(root: &Path, files: &[String]) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(root.join("ARCHITECTURE.md")) else {
        return vec!["ARCHITECTURE.md: missing".to_string()];
    };
    let mut missing = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for name in line.split('`').skip(1).step_by(2) {
            if !looks_like_path(name) {
                continue;
            }
            let exists = if name.contains('/') {
                // From the root, or inside a crate whose section names it relatively.
                let trimmed = name.trim_end_matches('/');
                root.join(trimmed).exists()
                    || files
                        .iter()
                        .any(|f| f.starts_with(&format!("{trimmed}/")) || f.contains(&format!("/{trimmed}")))
            } else {
                files.iter().any(|f| f == name || f.ends_with(&format!("/{name}")))
            };
            if !exists {
                missing.push(format!("ARCHITECTURE.md:{}: `{name}` names no file of the repository", i + 1));
            }
        }
    }
    missing
}

/// Whether a backticked word names a file or directory rather than code: no spaces, no
/// Rust paths or calls, and either a `/` or a file extension the repository uses.
fn looks_like_path(name: &str) -> bool {
    const EXTENSIONS: &[&str] =
        &[".rs", ".md", ".toml", ".pest", ".py", ".sh", ".mjs", ".js", ".tgdl", ".json"];
    if name.is_empty()
        || name.contains([' ', ':', '(', '<', '*', '$', '{', '=', '"'])
        || name.starts_with('-')
    {
        return false;
    }
    if name.starts_with('.') && !name.starts_with("./") && !name.starts_with(".ci") {
        return false;
    }
    name.contains('/') || EXTENSIONS.iter().any(|e| name.ends_with(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_numbers_are_found() {
        // Spelled in pieces so that this file passes its own check.
        let word = "iss".to_string() + "ue";
        assert_eq!(issue_number(&format!("// I{} 20's cases", &word[1..])), Some(format!("{word} 20")));
        assert_eq!(issue_number(&format!("({word} #16)")), Some(format!("{word} 16")));
        assert_eq!(issue_number(&format!("{word}s 3 and 4")), Some(format!("{word} 3")));
        assert_eq!(issue_number("no issue here"), None);
        assert_eq!(issue_number("tissue 3"), None);
    }

    #[test]
    fn paths_are_told_from_code() {
        assert!(looks_like_path("tgdl-runtime/src/engine.rs"));
        assert!(looks_like_path("engine.rs"));
        assert!(looks_like_path("tgdlc/"));
        assert!(!looks_like_path("sema::check"));
        assert!(!looks_like_path("rt::Id<T>"));
        assert!(!looks_like_path("a / b"));
        assert!(!looks_like_path("Option<T>"));
    }
}
