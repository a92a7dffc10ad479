//! The checker's UI suite: every `tests/check_ui/*.tgdl` is a program with one kind of
//! mistake (its first line says which), and its rendered diagnostics are a reviewed insta
//! snapshot in `tests/check_ui/snapshots`. A wrong snapshot is a bug: the caret must sit
//! under the offending tokens and the message must tell a newcomer what to change.
//!
//! Also here: every diagnostic code is exercised by some case, every example and spec
//! fragment checks, and `docs/diagnostics.md` is the text of `codes.rs`. (That `tgdlc
//! check` prints exactly these texts is tested with the command line, in `tgdlc`.)
//!
//! Regenerate snapshots with `INSTA_UPDATE=always cargo test -p tgdl-compiler --test check_ui`,
//! then read every changed `.snap` before committing it. Files in subdirectories of
//! `check_ui` are imported by the cases, not cases themselves.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const CASES: &str = "tests/check_ui";

/// Every case, as `(name, path relative to the crate)`, sorted by name. Paths are relative
/// so the rendered file names do not depend on the checkout.
fn cases() -> Vec<(String, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(CASES);
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .expect("tests/check_ui exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "tgdl"))
        .map(|p| {
            let name = p.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 name").to_string();
            let relative = Path::new(CASES).join(p.file_name().expect("a file name"));
            (name, relative)
        })
        .collect();
    out.sort();
    out
}

/// Cargo runs integration tests in the crate's directory; make sure, since the rendered
/// paths are relative to it.
fn in_crate_dir() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).expect("the crate directory exists");
}

/// The case's first line without `//`: what it is about (the snapshot's description).
fn description(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a readable case");
    text.lines().next().and_then(|l| l.strip_prefix("//")).map(|l| l.trim().to_string()).unwrap_or_default()
}

#[test]
fn every_case_renders_its_snapshot() {
    in_crate_dir();
    let cases = cases();
    assert!(
        cases.len() >= 40,
        "the suite has one case per kind of diagnostic, at least 40; found {}",
        cases.len()
    );
    for (name, path) in cases {
        let description = description(&path);
        assert!(!description.is_empty(), "{name}: start the case with a `// what it shows` line");
        let compilation = tgdl_compiler::check_file(&path);
        assert!(!compilation.diagnostics.is_empty(), "{name}: the case reports nothing");
        let rendered = compilation.render(false);
        insta::with_settings!({
            snapshot_path => "check_ui/snapshots",
            prepend_module_to_snapshot => false,
            description => description,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, rendered);
        });
    }
}

#[test]
fn every_code_has_a_case() {
    in_crate_dir();
    let mut seen = BTreeSet::new();
    for (_, path) in cases() {
        for d in tgdl_compiler::check_file(&path).diagnostics {
            seen.extend(d.code);
        }
    }
    let missing: Vec<&str> =
        tgdl_compiler::codes::ALL.iter().map(|c| c.code).filter(|c| !seen.contains(c)).collect();
    assert!(missing.is_empty(), "codes without a UI case: {missing:?}");
    let unknown: Vec<&&str> = seen.iter().filter(|c| tgdl_compiler::codes::find(c).is_none()).collect();
    assert!(unknown.is_empty(), "codes reported but not explained in codes.rs: {unknown:?}");
}

#[test]
fn every_explanation_shows_a_wrong_example_and_the_fix() {
    for c in tgdl_compiler::codes::ALL {
        assert!(c.explanation.contains("Example:"), "{}: no example", c.code);
        assert!(c.explanation.contains("Fix:"), "{}: no fix", c.code);
        assert!(!c.title.ends_with('.'), "{}: a title is not a sentence", c.code);
    }
    let codes: Vec<&str> = tgdl_compiler::codes::ALL.iter().map(|c| c.code).collect();
    let unique: BTreeSet<&str> = codes.iter().copied().collect();
    assert_eq!(unique.len(), codes.len(), "every code appears once");
}

/// The examples and the spec's fragments are valid programs (warnings allowed).
#[test]
fn every_example_and_fragment_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [root.join("../examples"), root.join("tests/fragments")] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "tgdl"))
            .collect();
        assert!(!found.is_empty(), "{} has no programs", dir.display());
        found.sort();
        files.extend(found);
    }
    let failures: Vec<String> = files
        .iter()
        .map(|path| (path, tgdl_compiler::check_file(path)))
        .filter(|(_, c)| c.has_errors())
        .map(|(path, c)| format!("{}:\n{}", path.display(), c.render(false)))
        .collect();
    assert!(failures.is_empty(), "{} programs do not check:\n{}", failures.len(), failures.join("\n"));
}

/// `docs/diagnostics.md` is generated from `codes.rs`; `cargo xtask docs` rewrites it
/// (by running this test with `TGDL_UPDATE_DOCS=1`).
#[test]
fn diagnostics_doc_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md");
    let expected = tgdl_compiler::codes::markdown();
    if std::env::var_os("TGDL_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &expected).expect("docs/ is writable");
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/diagnostics.md is out of date with tgdl-compiler/src/codes.rs: run `cargo xtask docs`"
    );
}

/// `tgdlc check GAME --param NAME=VALUE`: a value the parameter does not take is E0027 at
/// its declaration, saying what it takes; a number out of its range, a text not listed.
#[test]
fn parameter_values_are_checked_against_their_declarations() {
    in_crate_dir();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/goofspiel.tgdl");
    let check = |pair: &str| {
        let mut compilation = tgdl_compiler::check_file(&path);
        compilation.check_param_values(&[pair.to_string()]).expect("a NAME=VALUE pair");
        compilation
            .diagnostics
            .into_iter()
            .map(|d| (d.code, d.message, d.primary.message))
            .collect::<Vec<_>>()
    };
    assert_eq!(check("points_order=descending"), vec![]);
    assert_eq!(check("num_cards=5"), vec![]);
    assert_eq!(
        check("points_order=shuffled"),
        vec![(
            Some("E0027"),
            "`points_order=shuffled` does not fit the parameter `points_order`".to_string(),
            "`points_order` takes one of random, descending, ascending".to_string()
        )]
    );
    assert_eq!(check("num_cards=20")[0].2, "`num_cards` takes a number in 1..13");
}
