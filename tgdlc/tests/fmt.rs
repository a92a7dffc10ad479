//! `tgdlc fmt`: idempotent, meaning-preserving over every example and test program, and
//! the layout of tricky inputs (snapshots in `tests/snapshots/fmt__*.snap`).

use std::path::{Path, PathBuf};
use std::process::Command;
use tgdlc::source::{FileId, SourceMap};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.tgdl` of the examples and the end-to-end test programs.
fn corpus() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "tgdl") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for dir in ["examples", "tests/programs", "tests/data"] {
        walk(&root().join(dir), &mut files);
    }
    files.sort();
    assert!(files.len() > 30, "the corpus is found");
    files
}

fn format(text: &str) -> String {
    tgdlc::fmt::format_source(FileId(0), text).unwrap_or_else(|d| panic!("does not format: {}", d.message))
}

/// The typed program (spans aside) and the generated Rust (source locations aside) of a
/// main file given as text, its imports read beside `path`; `None` if it does not check.
fn compiled(path: &Path, text: &str) -> Option<(String, String)> {
    let mut sources = SourceMap::new();
    let loaded = tgdlc::load::load_source(&mut sources, "main.tgdl", text, path.parent());
    if loaded.has_errors() {
        return None;
    }
    let (program, diagnostics) = tgdlc::sema::check(&sources, &loaded.modules);
    let program = program.filter(|_| !diagnostics.iter().any(|d| d.is_error()))?;
    let rust = tgdlc::codegen::generate(&program, &sources);
    Some((strip_spans(&format!("{program:?}")), strip_locations(&rust)))
}

fn strip_spans(debug: &str) -> String {
    let mut out = String::new();
    let mut rest = debug;
    while let Some(start) = rest.find("Span { file: FileId(") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find(" }").map_or(rest.len(), |e| start + e + 2);
        rest = &rest[end..];
    }
    out + rest
}

/// `loc(12, 5)` → `loc(_)`: generated code names `.tgdl` lines and columns in errors.
fn strip_locations(rust: &str) -> String {
    let mut out = String::new();
    let mut rest = rust;
    while let Some(start) = rest.find("loc(") {
        out.push_str(&rest[..start + 4]);
        rest = &rest[start + 4..];
        let digits = rest.find(|c: char| !(c.is_ascii_digit() || c == ',' || c == ' ')).unwrap_or(0);
        if digits > 0 {
            out.push('_');
            rest = &rest[digits..];
        }
    }
    out + rest
}

#[test]
fn formatting_is_idempotent_and_keeps_the_program() {
    let mut compared = 0;
    for path in corpus() {
        let text = std::fs::read_to_string(&path).unwrap();
        let once = format(&text);
        assert_eq!(format(&once), once, "{} is not formatted the same twice", path.display());
        let before = tgdlc::syntax::parse(FileId(0), &text).unwrap();
        let after = tgdlc::syntax::parse(FileId(0), &once).unwrap();
        assert_eq!(
            tgdlc::fmt::without_spans(&before),
            tgdlc::fmt::without_spans(&after),
            "{}",
            path.display()
        );
        if let Some(original) = compiled(&path, &text) {
            let formatted =
                compiled(&path, &once).unwrap_or_else(|| panic!("{} no longer checks", path.display()));
            assert!(original.0 == formatted.0, "{}: the typed program changed", path.display());
            assert!(original.1 == formatted.1, "{}: the generated engine changed", path.display());
            compared += 1;
        }
    }
    assert!(compared >= 30, "only {compared} programs compiled");
}

#[test]
fn the_location_stripping_sees_locations() {
    assert_eq!(strip_locations("a(loc(12, 5)) loc(x)"), "a(loc(_)) loc(x)");
}

#[test]
fn grids_align_in_columns() {
    insta::assert_snapshot!(format(
        "board B { group G { geometry hex;\n  grid {  // the island\n b Water Water\n\
         Water    Mountain b ; Hill Hill Hill Hill\n\n   // the south shore\n  b b /* sea */\n Water\n}\n\
         } group E { grid { } } }\n"
    ));
}

#[test]
fn comments_stay_where_they_were() {
    insta::assert_snapshot!(format(
        "// head\n\n\n// more\ngame G players 2; // trailing\nglobal class R { // after brace\n\
         number n = /* inline */ 1;        // aligned\n  number m = 22;  // keeps its column\n\n\n\
         function f { returns number; effect { return n + // why\n m; } // after block\n\
         // before close\n}\n}\nsetup { }\n// tail\n"
    ));
}

#[test]
fn long_expressions_keep_their_breaks() {
    insta::assert_snapshot!(format(
        "function f { returns bool; effect {\nreturn a(x: 1,\ny: 2) + b\n|| c && d\n   || e;\n\
         List<number> l = {\n1,\n2,\n{3,\n4}\n};\nif (a\n&& b) { x = new T() { a = 1,\nb = 2 }; }\n} }\n"
    ));
}

#[test]
fn else_if_chains_and_one_line_blocks() {
    insta::assert_snapshot!(format(
        "setup {\nif (n < 0) { return \"negative\"; }\nelse if (n == 0) { return \"none\"; }\n\
         else { x = 1; y = 2; }\nif (a) { b(); } else if (c) {\nd();\n} else { e(); }\n\
         if (a) b(); else c();\nfor (;;) { break; }\nwhile (true) { if (x) { continue; } };\n}\n\
         tile Wall { }\ninteractable K : P { override function l { effect { return \"K\"; } } }\n"
    ));
}

fn tgdlc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tgdlc")).args(args).output().expect("tgdlc runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgdlc-fmt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_command_checks_writes_and_refuses_syntax_errors() {
    let dir = scratch("cli");
    let messy = dir.join("messy.tgdl");
    let tidy = dir.join("tidy.tgdl");
    let broken = dir.join("broken.tgdl");
    std::fs::write(&messy, "game G players 2;\nsetup{x=1;}\n").unwrap();
    std::fs::write(&tidy, "game G players 2;\nsetup { x = 1; }\n").unwrap();
    std::fs::write(&broken, "game G players 2;\nsetup { x = ; }\n").unwrap();
    let (m, t, b) = (messy.to_str().unwrap(), tidy.to_str().unwrap(), broken.to_str().unwrap());

    let out = tgdlc(&["fmt", "--check", m, t]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), m, "only the file that would change is listed");
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        "game G players 2;\nsetup{x=1;}\n",
        "--check writes nothing"
    );

    let out = tgdlc(&["fmt", m, t]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), "game G players 2;\nsetup { x = 1; }\n");
    assert_eq!(tgdlc(&["fmt", "--check", m]).status.code(), Some(0));
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(leftovers, 3, "no temporary file is left behind");

    let out = tgdlc(&["fmt", b]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error[E0001]") && stderr.contains("broken.tgdl:2:"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), "game G players 2;\nsetup { x = ; }\n");
    let _ = std::fs::remove_dir_all(&dir);
}
