//! Every `tgdl` code block of the book (`docs/`, the chapters listed in
//! `docs/SUMMARY.md`) is tested. A block's info string says what it is:
//!
//! ```text
//! ```tgdl                    a complete program: checks with no diagnostic, and generates
//! ```tgdl,statements         statements, checked inside the effect of the harness's action
//! ```tgdl,expression         one expression, checked as `if ((EXPR) == null) { }` there
//! ```tgdl,members            class members, checked inside the harness's `interactable Piece`
//! ```tgdl,definitions        top-level definitions, checked in the harness's top level
//! ```tgdl,module=lib/x.tgdl  a file that later blocks of the chapter import (not checked alone)
//! ```tgdl,harness            the harness itself (in reference/README.md): a complete program
//! ```tgdl,error=E0004        (with any of the kinds above) must fail with that code
//! ```tgdl,warning=W0002      (with any of the kinds above) must warn with that code
//! ```
//!
//! Fragments may warn (an unused variable); complete programs may not, unless they say
//! `warning=`. A complete program preceded by an HTML comment
//!
//! ```text
//! <!-- play: players=2 seed=1 choices=4,0,8 result: player 0 wins -->
//! ```
//!
//! is also compiled and played: the listed option indices first, then random choices
//! from `seed` (as `tests/it/programs.rs` plays its programs), and must end with that
//! result (`player N wins`, `draw`, `ranking ...`, `unfinished`, `error at LINE:COL: ...`).
//! The played games are built together in one cargo project under the test's temporary
//! directory.
//!
//! A `scenarios` block must read as a scenario file; `scenarios,example=NAME` must also
//! pass against the example `NAME`. Other blocks must name their language (`text`, `sh`,
//! `rust`, `toml`, `json`).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use tgdl_compiler::{CodegenOptions, Input, Options};
use tgdl_tests::without_file;

const DOCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs");
const LANGUAGES: &[&str] = &["tgdl", "scenarios", "text", "sh", "rust", "toml", "json", "python"];

/// The markers of the harness program where fragments go.
const STATEMENTS: &str = "// (statements go here)";
const MEMBERS: &str = "// (members go here)";
const DEFINITIONS: &str = "// (definitions go here)";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Program,
    Statements,
    Expression,
    Members,
    Definitions,
    Module,
    Harness,
}

#[derive(Debug)]
struct Block {
    chapter: String,
    line: usize,
    kind: Kind,
    module: Option<String>,
    error: Option<String>,
    warning: Option<String>,
    play: Option<Play>,
    text: String,
}

impl Block {
    fn at(&self) -> String {
        format!("docs/{}:{}", self.chapter, self.line)
    }
}

#[derive(Clone, Debug)]
struct Play {
    players: u32,
    seed: u64,
    choices: Vec<usize>,
    result: String,
}

/// The chapters listed in `SUMMARY.md`, as paths relative to `docs/`.
fn chapters() -> Vec<String> {
    let summary = std::fs::read_to_string(Path::new(DOCS).join("SUMMARY.md")).expect("docs/SUMMARY.md");
    let mut out = Vec::new();
    for line in summary.lines() {
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            let after = &rest[start + 2..];
            let end = after.find(')').expect("a closed link");
            let target = &after[..end];
            if !target.is_empty() && target.ends_with(".md") {
                out.push(target.to_string());
            }
            rest = &after[end..];
        }
    }
    out
}

/// Every `.md` file under `docs/`, except the build output.
fn markdown_files(dir: &Path, base: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("a readable directory").flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "book") {
                markdown_files(&path, base, out);
            }
        } else if path.extension().is_some_and(|e| e == "md") {
            let rel = path.strip_prefix(base).expect("under docs").to_string_lossy().replace('\\', "/");
            out.insert(rel);
        }
    }
}

fn parse_play(comment: &str, at: &str) -> Play {
    let (options, result) =
        comment.split_once("result:").unwrap_or_else(|| panic!("{at}: `play:` without `result:`"));
    let mut play = Play { players: 0, seed: 1, choices: Vec::new(), result: result.trim().to_string() };
    for part in options.split_whitespace() {
        let (k, v) = part.split_once('=').unwrap_or_else(|| panic!("{at}: bad play option `{part}`"));
        match k {
            "players" => play.players = v.parse().expect("a number of players"),
            "seed" => play.seed = v.parse().expect("a seed"),
            "choices" => play.choices = v.split(',').map(|c| c.parse().expect("an option index")).collect(),
            other => panic!("{at}: unknown play option `{other}`"),
        }
    }
    play
}

/// The fenced code blocks of one chapter.
/// A `scenarios` block (docs/testing.md) reads as a scenario file; one that names an
/// example (`scenarios,example=tic_tac_toe`) also passes against it.
fn scenarios(at: &str, attribute: Option<&str>, text: &str) {
    if let Err(e) = tgdl_play::scenario::parse(at, text) {
        panic!("{at}: the scenarios do not read:\n{e}");
    }
    let Some(attribute) = attribute else { return };
    let Some(name) = attribute.trim().strip_prefix("example=") else {
        panic!("{at}: unknown attribute `{attribute}` of a scenarios block (`example=NAME` runs it)");
    };
    let example = tgdl_tests::EXAMPLES
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("{at}: no example {name}"));
    let report = (example.scenarios)(&[(at.to_string(), text.to_string())]);
    assert!(report.ok(), "{at}: the scenarios fail against examples/{name}.tgdl:\n{}", report.render_text());
}

fn blocks(chapter: &str) -> Vec<Block> {
    let text = std::fs::read_to_string(Path::new(DOCS).join(chapter))
        .unwrap_or_else(|e| panic!("docs/{chapter}: {e}"));
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let Some(info) = trimmed.strip_prefix("```") else {
            i += 1;
            continue;
        };
        let at = format!("docs/{chapter}:{}", i + 1);
        let indent = line.len() - trimmed.len();
        let start = i;
        let mut body = Vec::new();
        i += 1;
        while i < lines.len() && lines[i].trim_start() != "```" {
            body.push(lines[i].get(indent..).unwrap_or(""));
            i += 1;
        }
        assert!(i < lines.len(), "{at}: the block is not closed");
        i += 1;
        let mut parts = info.trim().split(',');
        let language = parts.next().unwrap_or("").trim();
        assert!(
            LANGUAGES.contains(&language),
            "{at}: a block must name one of the languages {LANGUAGES:?}, not `{info}`"
        );
        if language == "scenarios" {
            scenarios(&at, parts.next(), &(body.join("\n") + "\n"));
            continue;
        }
        if language != "tgdl" {
            continue;
        }
        let mut block = Block {
            chapter: chapter.to_string(),
            line: start + 1,
            kind: Kind::Program,
            module: None,
            error: None,
            warning: None,
            play: None,
            text: body.join("\n") + "\n",
        };
        for attribute in parts.map(str::trim) {
            let (key, value) = attribute.split_once('=').unwrap_or((attribute, ""));
            match key {
                "statements" => block.kind = Kind::Statements,
                "expression" => block.kind = Kind::Expression,
                "members" => block.kind = Kind::Members,
                "definitions" => block.kind = Kind::Definitions,
                "harness" => block.kind = Kind::Harness,
                "module" => {
                    block.kind = Kind::Module;
                    block.module = Some(value.to_string());
                }
                "error" => block.error = Some(value.to_string()),
                "warning" => block.warning = Some(value.to_string()),
                other => panic!("{at}: unknown attribute `{other}` of a tgdl block"),
            }
        }
        // An HTML comment on the line before the fence (blank lines allowed between).
        let mut before = start;
        while before > 0 && lines[before - 1].trim().is_empty() {
            before -= 1;
        }
        if before > 0 {
            let previous = lines[before - 1].trim();
            if let Some(comment) = previous.strip_prefix("<!--").and_then(|c| c.strip_suffix("-->"))
                && let Some(play) = comment.trim().strip_prefix("play:")
            {
                assert_eq!(block.kind, Kind::Program, "{at}: only complete programs can be played");
                block.play = Some(parse_play(play, &at));
            }
        }
        out.push(block);
    }
    out
}

/// The program a block is checked as.
fn program(block: &Block, harness: &str) -> String {
    let fragment = block.text.trim_end();
    let place = |marker: &str, text: &str| {
        let line = harness.lines().find(|l| l.trim() == marker).expect("the harness has its markers");
        let indent = &line[..line.len() - line.trim_start().len()];
        let indented: Vec<String> =
            text.lines().map(|l| if l.is_empty() { String::new() } else { format!("{indent}{l}") }).collect();
        harness.replacen(line, &indented.join("\n"), 1)
    };
    match block.kind {
        Kind::Program | Kind::Harness | Kind::Module => block.text.clone(),
        Kind::Statements => place(STATEMENTS, &format!("{{\n{fragment}\n}}")),
        Kind::Expression => place(STATEMENTS, &format!("if (({fragment}) == null) {{ }}")),
        Kind::Members => place(MEMBERS, fragment),
        Kind::Definitions => place(DEFINITIONS, fragment),
    }
}

/// Where a chapter's blocks are written (imports resolve there).
fn scratch(chapter: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("book").join(chapter.replace(['/', '.'], "_"))
}

/// Checks one block; on success returns the generated Rust of a complete program.
fn check(block: &Block, harness: &str, index: usize) -> Result<String, String> {
    let text = program(block, harness);
    let path = scratch(&block.chapter).join(format!("block_{index}.tgdl"));
    std::fs::write(&path, &text).expect("a writable scratch directory");
    let options = Options { generate: Some(CodegenOptions::default()), ..Options::default() };
    let mut compilation = tgdl_compiler::compile(Input::File(&path), &options);
    let rendered = || format!("{}\n--- the program checked ---\n{text}", compilation.render(false));
    let has = |code: &str| compilation.diagnostics.iter().any(|d| d.code == Some(code));
    if let Some(code) = &block.error {
        if !compilation.has_errors() {
            return Err(format!("expected error {code}, but the block checks\n{}", rendered()));
        }
        if !has(code) {
            return Err(format!("expected error {code}\n{}", rendered()));
        }
        return Ok(String::new());
    }
    if compilation.has_errors() {
        return Err(format!("the block does not check\n{}", rendered()));
    }
    if let Some(code) = &block.warning {
        if !has(code) {
            return Err(format!("expected warning {code}\n{}", rendered()));
        }
    } else if matches!(block.kind, Kind::Program | Kind::Harness) && !compilation.diagnostics.is_empty() {
        return Err(format!("a complete program must check without warnings\n{}", rendered()));
    }
    Ok(compilation.generated.take().expect("the engine of a checked program"))
}

/// Builds the played blocks into one cargo project and runs it; returns each game's
/// result line, in order.
fn play_all(games: &[(String, Play)]) -> Vec<String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("book-games");
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let runtime = root.join("tgdl-runtime").canonicalize().expect("the runtime crate");
    let play = root.join("tgdl-play").canonicalize().expect("the tgdl-play crate");
    let manifest = format!(
        "[package]\nname = \"tgdl-book-games\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\ntgdl-runtime = {{ path = {:?} }}\ntgdl-play = {{ path = {:?} }}\n\n[workspace]\n",
        runtime.to_string_lossy(),
        play.to_string_lossy()
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    if let Ok(lock) = std::fs::read_to_string(root.join("Cargo.lock"))
        && !dir.join("Cargo.lock").exists()
    {
        write_if_changed(&dir.join("Cargo.lock"), &lock);
    }
    let mut main = String::from(
        "use tgdl_play::{Agent, RandomAgent};\nuse tgdl_runtime::{Game, Status};\n\n\
         fn run<G: Game>(players: u32, seed: u64, choices: &[usize]) -> String {\n\
         \x20   let players = if players == 0 { G::info().min_players } else { players };\n\
         \x20   let mut game = match G::start(players, seed) {\n\
         \x20       Ok(g) => g,\n\
         \x20       Err(e) => return format!(\"cannot start: {e}\"),\n\
         \x20   };\n\
         \x20   let mut agent = RandomAgent::new(seed ^ 0x5eed);\n\
         \x20   let mut choices = choices.iter();\n\
         \x20   for _ in 0..10_000 {\n\
         \x20       match game.status() {\n\
         \x20           Status::Over => return game.outcome().map(|o| o.describe()).unwrap_or_default(),\n\
         \x20           Status::Chance => return \"a seeded game stopped for chance\".to_string(),\n\
         \x20           Status::Failed => {\n\
         \x20               return game.error().map(|e| format!(\"error at {}: {}\", e.location, e.message)).unwrap_or_default();\n\
         \x20           }\n\
         \x20           Status::Decide(_) => {\n\
         \x20               let index = match choices.next() {\n\
         \x20                   Some(&i) => i,\n\
         \x20                   None => agent.choose_in(&game).unwrap_or(0),\n\
         \x20               };\n\
         \x20               if let Err(e) = game.apply(index) {\n\
         \x20                   return format!(\"bad choice {index}: {e}\");\n\
         \x20               }\n\
         \x20           }\n\
         \x20       }\n\
         \x20   }\n\
         \x20   \"unfinished\".to_string()\n\
         }\n\n",
    );
    let mut calls = String::new();
    for (i, (code, play)) in games.iter().enumerate() {
        write_if_changed(&src.join(format!("game_{i}.rs")), code);
        writeln!(
            main,
            "#[allow(warnings, clippy::all)]\nmod game_{i} {{\n    include!(\"game_{i}.rs\");\n}}"
        )
        .unwrap();
        writeln!(
            calls,
            "    println!(\"{{}}\", run::<game_{i}::Game>({}, {}, &{:?}));",
            play.players, play.seed, play.choices
        )
        .unwrap();
    }
    main.push_str("\nfn main() {\n");
    main.push_str(&calls);
    main.push_str("}\n");
    write_if_changed(&src.join("main.rs"), &main);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["run", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "the played blocks do not build or run:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap().lines().map(str::to_string).collect()
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::write(path, text).expect("a writable directory");
}

#[test]
fn every_chapter_is_in_the_summary() {
    let listed: BTreeSet<String> = chapters().into_iter().collect();
    let mut files = BTreeSet::new();
    markdown_files(Path::new(DOCS), Path::new(DOCS), &mut files);
    files.remove("SUMMARY.md");
    let missing: Vec<&String> = files.difference(&listed).collect();
    assert!(missing.is_empty(), "chapters not listed in docs/SUMMARY.md: {missing:?}");
    let dangling: Vec<&String> = listed.difference(&files).collect();
    assert!(dangling.is_empty(), "docs/SUMMARY.md lists missing files: {dangling:?}");
}

#[test]
fn every_tgdl_block_of_the_book_is_right() {
    let all: Vec<Block> = chapters().iter().flat_map(|c| blocks(c)).collect();
    let harnesses: Vec<&Block> = all.iter().filter(|b| b.kind == Kind::Harness).collect();
    assert_eq!(harnesses.len(), 1, "the book has exactly one ```tgdl,harness block");
    let harness = harnesses[0].text.clone();
    for marker in [STATEMENTS, MEMBERS, DEFINITIONS] {
        assert!(harness.lines().any(|l| l.trim() == marker), "the harness lacks the line `{marker}`");
    }
    // Modules first, so that the blocks importing them find them.
    for chapter in chapters() {
        let dir = scratch(&chapter);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
    }
    for block in all.iter().filter(|b| b.kind == Kind::Module) {
        let path = scratch(&block.chapter).join(block.module.as_deref().unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &block.text).unwrap();
        let imported = all.iter().any(|b| {
            b.chapter == block.chapter
                && b.kind != Kind::Module
                && b.text.contains(&format!("\"{}\"", block.module.as_deref().unwrap()))
        });
        assert!(imported, "{}: no block of the chapter imports this module", block.at());
    }
    let mut failures = Vec::new();
    let mut games = Vec::new();
    let mut played = Vec::new();
    let mut checked = 0;
    for (index, block) in all.iter().enumerate() {
        if block.kind == Kind::Module {
            continue;
        }
        checked += 1;
        match check(block, &harness, index) {
            Ok(code) => {
                if let Some(play) = &block.play {
                    assert!(block.error.is_none(), "{}: a block with an error cannot be played", block.at());
                    games.push((code, play.clone()));
                    played.push(block);
                }
            }
            Err(message) => failures.push(format!("{}: {message}", block.at())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} blocks are wrong:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(checked >= 50, "only {checked} tgdl blocks in the book");
    assert!(!games.is_empty(), "no block of the book is played");
    let results = play_all(&games);
    assert_eq!(results.len(), games.len(), "one result per played block: {results:?}");
    for ((block, (_, play)), result) in played.iter().zip(&games).zip(&results) {
        if without_file(result) != play.result {
            failures.push(format!(
                "{}: expected `{}`, the game ended with `{result}`",
                block.at(),
                play.result
            ));
        }
    }
    assert!(failures.is_empty(), "played blocks ended differently:\n{}", failures.join("\n"));
}
