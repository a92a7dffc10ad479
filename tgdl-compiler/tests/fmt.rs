//! The formatter (`tgdlc fmt`): idempotent, meaning-preserving over every example and
//! test program, and the layout of tricky inputs (snapshots in
//! `tests/snapshots/fmt__*.snap`). The command itself is tested with the command line, in
//! `tgdlc`.

use std::path::{Path, PathBuf};
use tgdl_compiler::source::FileId;
use tgdl_compiler::{CodegenOptions, Input, Options};

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
    tgdl_compiler::format_source(FileId(0), text).unwrap_or_else(|d| panic!("does not format: {}", d.message))
}

/// The typed program (spans aside) and the generated Rust (source locations aside) of a
/// main file given as text, its imports read beside `path`; `None` if it does not check.
fn compiled(path: &Path, text: &str) -> Option<(String, String)> {
    let input = Input::Text { name: "main.tgdl", text, base_dir: path.parent() };
    let options = Options { generate: Some(CodegenOptions::default()), ..Options::default() };
    let compilation = tgdl_compiler::compile(input, &options);
    let (program, rust) = (compilation.program?, compilation.generated?);
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
        let before = tgdl_compiler::parse(FileId(0), &text).unwrap();
        let after = tgdl_compiler::parse(FileId(0), &once).unwrap();
        assert_eq!(
            strip_spans(&format!("{before:?}")),
            strip_spans(&format!("{after:?}")),
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

/// A block comment between two cells of a row stays between them (it used to move to the
/// row's end); a comment after the row's last cell stays after it.
#[test]
fn a_comment_inside_a_grid_row_stays_in_place() {
    let formatted = format(
        "board B { group G { geometry square;\n grid {\n a /* gate */ b c /* end */\n dd  e f\n } } }\n",
    );
    // The comment is part of its cell's column.
    assert!(
        formatted.contains("            a  /* gate */ b c /* end */\n            dd e            f\n"),
        "{formatted}"
    );
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

#[test]
fn attribute_modifiers_stay() {
    let text = "global class R {\n    internal number last_turns = -1;\n    secret internal number n = 0;\n    internal attribute next {\n        returns number;\n        value last_turns + 1;\n    }\n}\n";
    assert_eq!(format(text), text);
}
