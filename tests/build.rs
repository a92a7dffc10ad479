//! Generates the engine of every `examples/*.tgdl` into `OUT_DIR`, and a table of them,
//! so the tests compile and play every example; the batch of generated and mutated
//! programs; and every program again with the plain generator (`CodegenOptions::none()`),
//! for the equivalence test to play beside the shipping generator's engine; and mutants
//! of examples, which their own scenarios must catch. A game that does not check fails
//! the build with its diagnostics.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The program generators of the compiler's property test.
#[path = "../tgdl-compiler/tests/support/programs.rs"]
mod programs;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    // Examples are held to clippy (it checks the generator's style); test programs
    // deliberately write expressions clippy would simplify (`t ^ t`), so not them.
    let examples = generate(&root.join("examples"), &out, "Example", "EXAMPLES", "");
    let programs =
        generate(&root.join("tests/programs"), &out, "Program", "PROGRAMS", "#[allow(clippy::all)]\n");
    // The large program of the compiler benchmarks: a whole game that must also run.
    let data = generate(&root.join("tests/data"), &out, "Program", "DATA", "");
    // Programs naming things as the generator names its own items (ARCHITECTURE.md,
    // "Names"), played like the test programs.
    let hygiene =
        generate(&root.join("tests/hygiene"), &out, "Program", "HYGIENE", "#[allow(clippy::all)]\n");
    std::fs::write(out.join("examples.rs"), examples + &programs + &data + &hygiene)
        .expect("OUT_DIR is writable");
    std::fs::write(out.join("batch.rs"), batch(&root, &out)).expect("OUT_DIR is writable");
    std::fs::write(out.join("equivalence.rs"), equivalence(&root, &out)).expect("OUT_DIR is writable");
    std::fs::write(out.join("mutants.rs"), mutants(&root, &out)).expect("OUT_DIR is writable");
}

/// Mutations of the examples that their own scenarios (`examples/NAME.scenarios`) must
/// catch, each a rule a designer could get wrong: the mutant's name, the example, the text
/// replaced (it must occur exactly once) and what replaces it. `tests/it/scenarios.rs`
/// says which scenario fails where.
const MUTANTS: &[(&str, &str, &str, &str)] = &[
    // A constant of a rule: castling checks the king's square only, not the squares it
    // passes through and lands on.
    (
        "chess_castles_through_attack",
        "chess",
        "for (number i = 0; i <= 2; i += 1)",
        "for (number i = 0; i <= 0; i += 1)",
    ),
    // A part of the win check dropped: the anti-diagonal no longer wins.
    (
        "tic_tac_toe_without_anti_diagonal",
        "tic_tac_toe",
        "return line(x: 0, y: 0, dx: 1, dy: 1) || line(x: 2, y: 0, dx: -1, dy: 1);",
        "return line(x: 0, y: 0, dx: 1, dy: 1);",
    ),
    // A filter's comparison flipped: a full column is still offered.
    ("connect_four_overfills", "connect_four", "return column.filled < 6;", "return column.filled <= 6;"),
    // A `require` removed: passing is allowed to a player who can place.
    ("reversi_passes_at_will", "reversi", "        require { return !can_place(p: player.active()); }\n", ""),
    // A trigger dropped: after an eight, nobody is asked for the suit.
    (
        "crazy_eights_never_calls",
        "crazy_eights",
        "    action call {\n        trigger PlayerChoiceEvent;\n",
        "    action call {\n",
    ),
    // A constant of a `require`: four draws a turn.
    ("crazy_eights_draws_four", "crazy_eights", "drawn < 3 &&", "drawn < 4 &&"),
];

/// The module `tests/it/scenarios.rs` includes: each of [`MUTANTS`] generated (warnings
/// denied, as every generated module here), and a table `MUTANTS` of them.
fn mutants(root: &Path, out: &Path) -> String {
    let dir = out.join("mutants");
    std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
    let mut modules = String::new();
    let mut table = String::from("/// Every mutant of an example.\npub const MUTANTS: &[Mutant] = &[\n");
    for &(name, example, from, to) in MUTANTS {
        let path = root.join("examples").join(format!("{example}.tgdl"));
        let text = std::fs::read_to_string(&path).expect("a readable example");
        let found = text.matches(from).count();
        assert_eq!(found, 1, "mutant {name}: {from:?} occurs {found} times in {}, not once", path.display());
        let mutated = text.replacen(from, to, 1);
        // Checked where the example lies, so that its imports resolve.
        let compilation = tgdl_compiler::compile(
            tgdl_compiler::Input::Text {
                name: &format!("{example}.tgdl"),
                text: &mutated,
                base_dir: path.parent(),
            },
            &tgdl_compiler::Options {
                generate: Some(tgdl_compiler::CodegenOptions::all()),
                ..Default::default()
            },
        );
        let code = compilation
            .generated
            .clone()
            .unwrap_or_else(|| panic!("mutant {name} does not check:\n{}", compilation.render(false)));
        std::fs::write(dir.join(format!("{name}.rs")), code).expect("OUT_DIR is writable");
        writeln!(
            modules,
            "#[allow(clippy::all)]\n#[deny(warnings)]\npub mod {name} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/mutants/{name}.rs\"));\n}}"
        )
        .unwrap();
        writeln!(
            table,
            "    Mutant {{ name: \"{name}\", example: \"{example}\", scenarios: tgdl_play::scenario::run_texts::<{name}::Game> }},"
        )
        .unwrap();
    }
    table.push_str("];\n");
    modules + &table
}

/// The programs generated both ways for `tests/it/equivalence/`: the directory, and whether
/// the library already holds the shipping generator's engine of each (as
/// `tgdl_tests::NAME`).
const BOTH_WAYS: &[(&str, bool)] = &[
    ("tests/equivalence", false),
    ("examples", true),
    ("tests/programs", true),
    ("tests/data", true),
    ("tests/hygiene", true),
];

/// The module `tests/it/equivalence/` includes: the shipping generator's engines of
/// `tests/equivalence/*.tgdl` (module `all`; the examples' and test programs' are the
/// library's), the plain generator's engine of every program of [`BOTH_WAYS`] (module
/// `none`), a table `PAIRS` of them, and one test per pair (module `both_ways`).
fn equivalence(root: &Path, out: &Path) -> String {
    let equivalence = root.join("tests/equivalence");
    println!("cargo::rerun-if-changed={}", equivalence.display());
    std::fs::create_dir_all(out.join("all")).expect("OUT_DIR is writable");
    std::fs::create_dir_all(out.join("none")).expect("OUT_DIR is writable");
    let (mut all, mut none, mut table, mut tests) =
        (String::new(), String::new(), String::new(), String::new());
    for &(sub, in_library) in BOTH_WAYS {
        // Warnings are denied, as in every generated module of this crate; clippy holds the
        // style of the shipping generator (the library's engines of the examples), not of
        // the plain one (whose code is played, never shipped). Written as the side-by-side
        // tests of each optimisation wrote them, some programs of `tests/equivalence/` have
        // actions whose effect does not read an input: the generator names such a
        // parameter without `_`, an unused-variable warning, allowed for them alone.
        let attributes = if sub == "tests/equivalence" {
            "#[allow(clippy::all, unused_variables)]\n    "
        } else {
            "#[allow(clippy::all)]\n    "
        };
        for path in tgdl_files(&root.join(sub)) {
            let stem = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name").to_string();
            let generate = |options: tgdl_compiler::CodegenOptions, module: &mut String, dir: &str| {
                let code = generate_with(&path, options)
                    .unwrap_or_else(|rendered| panic!("{} does not check:\n{rendered}", path.display()));
                std::fs::write(out.join(dir).join(format!("{stem}.rs")), code).expect("OUT_DIR is writable");
                writeln!(
                    module,
                    "    #[deny(warnings)]\n    {attributes}pub mod {stem} {{\n        include!(concat!(env!(\"OUT_DIR\"), \"/{dir}/{stem}.rs\"));\n    }}"
                )
                .unwrap();
            };
            let optimised = if in_library {
                format!("tgdl_tests::{stem}")
            } else {
                println!("cargo::rerun-if-changed={}", path.display());
                generate(tgdl_compiler::CodegenOptions::all(), &mut all, "all");
                format!("all::{stem}")
            };
            generate(tgdl_compiler::CodegenOptions::none(), &mut none, "none");
            let source = path.strip_prefix(root).unwrap_or(&path).display().to_string().replace('\\', "/");
            writeln!(
                table,
                "    Pair {{ name: \"{stem}\", path: \"{source}\", info: none::{stem}::Game::info, play: play_pair::<{optimised}::Game, none::{stem}::Game>, interpreted: interpreted::play::<{optimised}::Game> }},"
            )
            .unwrap();
            writeln!(tests, "    #[test]\n    fn {stem}() {{\n        super::check(\"{stem}\");\n    }}")
                .unwrap();
        }
    }
    format!(
        "/// The shipping generator's engines of `tests/equivalence/*.tgdl`.\npub mod all {{\n{all}}}\n\n\
         /// The plain generator's engine of every program (`CodegenOptions::none()`).\npub mod none {{\n{none}}}\n\n\
         /// Every program, generated both ways.\npub const PAIRS: &[Pair] = &[\n{table}];\n\n\
         /// Each program's two engines play the same games.\nmod both_ways {{\n{tests}}}\n"
    )
}

/// The `.tgdl` files of `dir`, sorted.
fn tgdl_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tgdl"))
        .collect();
    files.sort();
    files
}

/// How many programs of each kind the batch compiles (see [`batch`]).
const TYPED_PROGRAMS: u64 = 30;
const RANDOM_PROGRAMS: u64 = 150;
const MUTATED_PROGRAMS: usize = 12;

/// The batch of `tests/it/batch.rs`: programs from the property-test generators of
/// `tgdl-compiler/tests/check_fuzz.rs` (well-typed and merely well-formed random programs) and
/// mutated examples and test programs, every one `check` accepts, generated into a module
/// that the test crate compiles with warnings denied, and a table of them to play, each
/// with its text, for `tests/it/interpreted.rs` to play interpreted beside its engine.
fn batch(root: &Path, out: &Path) -> String {
    println!("cargo::rerun-if-changed={}", root.join("tgdl-compiler/tests/support/programs.rs").display());
    let dir = out.join("batch");
    std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
    // Each program's name, engine, text and the file name it was checked under (which
    // located errors carry, so the interpreter is given the same one).
    let mut accepted: Vec<(String, String, String, String)> = Vec::new();
    let mut keep = |name: String, path: &str, text: &str| {
        let Ok(code) = tgdl_compiler::generate_source(path, text) else { return false };
        accepted.push((name, code, text.to_string(), path.to_string()));
        true
    };
    let mut typed = programs::TypedGen { rng: programs::Rng(11), vars: Vec::new(), fresh: 0 };
    for seed in 0..TYPED_PROGRAMS {
        keep(format!("typed_{seed}"), "typed.tgdl", &typed.program());
    }
    let mut random = programs::Gen { rng: programs::Rng(12) };
    for seed in 0..RANDOM_PROGRAMS {
        keep(format!("random_{seed}"), "random.tgdl", &random.program());
    }
    // Mutations of the valid programs, checked where they lie (their imports resolve). Not
    // of the games whose menus run to thousands of moves or whose searches recurse
    // (Amazons, draughts): a mutant of theirs plays for minutes on the interpreter in a
    // debug build, and the batch is sized for the others.
    let mut sources = Vec::new();
    for sub in ["examples", "tests/programs"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(sub))
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "tgdl"))
            .filter(|p| !p.ends_with("amazons.tgdl") && !p.ends_with("english_draughts.tgdl"))
            .collect();
        files.sort();
        sources.extend(files);
    }
    let mut rng = programs::Rng(13);
    let mut mutated = 0;
    for attempt in 0..2000 {
        if mutated == MUTATED_PROGRAMS {
            break;
        }
        let path = &sources[rng.below(sources.len())];
        let mut tokens = programs::tokenize(&std::fs::read_to_string(path).expect("a readable program"));
        programs::mutate(&mut tokens, &mut rng);
        let text = tokens.concat();
        let original = std::fs::read_to_string(path).expect("a readable program");
        if text != original && keep(format!("mutated_{attempt}"), &path.display().to_string(), &text) {
            mutated += 1;
        }
    }
    let mut modules = String::new();
    let mut table = String::from("/// Every program of the batch.\npub const BATCH: &[Batch] = &[\n");
    for (name, code, text, file) in &accepted {
        std::fs::write(dir.join(format!("{name}.rs")), code).expect("OUT_DIR is writable");
        std::fs::write(dir.join(format!("{name}.tgdl")), text).expect("OUT_DIR is writable");
        writeln!(
            modules,
            "#[allow(clippy::all)]\n#[deny(warnings)]\npub mod {name} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/batch/{name}.rs\"));\n}}"
        )
        .unwrap();
        writeln!(
            table,
            "    Batch {{ name: \"{name}\", file: {file:?}, source: include_str!(concat!(env!(\"OUT_DIR\"), \"/batch/{name}.tgdl\")), info: <{name}::Game as tgdl_runtime::Game>::info, playout: tgdl_tests::playout::<{name}::Game>, interpreted: crate::interpreted::play_upto::<{name}::Game> }},"
        )
        .unwrap();
    }
    table.push_str("];\n");
    modules + &table
}

/// Generates every `.tgdl` file of `dir` into a module of `OUT_DIR` and returns the
/// modules and a table `NAME` of `Kind`s listing them.
fn generate(dir: &Path, out: &Path, kind: &str, table_name: &str, attributes: &str) -> String {
    println!("cargo::rerun-if-changed={}", dir.display());
    watch_modules(dir);
    let files = tgdl_files(dir);
    let mut table =
        format!("/// Every file of `{}`.\npub const {table_name}: &[{kind}] = &[\n", dir.display());
    let mut modules = String::new();
    for path in &files {
        println!("cargo::rerun-if-changed={}", path.display());
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name").to_string();
        let code = match tgdlc_load(path) {
            Ok(code) => code,
            Err(rendered) => panic!("{} does not check:\n{rendered}", path.display()),
        };
        std::fs::write(out.join(format!("{stem}.rs")), code).expect("OUT_DIR is writable");
        writeln!(
            modules,
            "{attributes}#[deny(warnings)]\npub mod {stem} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{stem}.rs\"));\n}}"
        )
        .unwrap();
        let source = path.display().to_string().replace('\\', "/");
        writeln!(
            table,
            "    {kind} {{ name: \"{stem}\", path: \"{source}\", engine: {stem}::Game::info, playout: crate::playout::<{stem}::Game>, benchmark: crate::benchmark_playouts::<{stem}::Game>, run: crate::run::<{stem}::Game>, cli: crate::cli::<{stem}::Game>, scenarios: tgdl_play::scenario::run_texts::<{stem}::Game>, secrecy: crate::secrecy::check::<{stem}::World>, determinization: crate::secrecy::determinization::<{stem}::World>, information: crate::secrecy::information::<{stem}::World> }},"
        )
        .unwrap();
    }
    table.push_str("];\n");
    modules + &table
}

/// Checks and generates one game: the same pipeline as `tgdlc emit`.
fn tgdlc_load(path: &Path) -> Result<String, String> {
    tgdl_compiler::generate_file(path).map_err(|c| c.render(false))
}

/// Checks and generates one game with the optimisations `options` allow (`tgdlc_load` is
/// this with `CodegenOptions::all()`).
fn generate_with(path: &Path, options: tgdl_compiler::CodegenOptions) -> Result<String, String> {
    let compilation = tgdl_compiler::compile(
        tgdl_compiler::Input::File(path),
        &tgdl_compiler::Options { generate: Some(options), ..Default::default() },
    );
    compilation.generated.clone().ok_or_else(|| compilation.render(false))
}

/// Rebuild when a module the games import changes: the `.tgdl` files of the
/// subdirectories (`examples/lib/`, `tests/programs/modules/`).
fn watch_modules(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.is_dir() {
            println!("cargo::rerun-if-changed={}", path.display());
            for file in
                std::fs::read_dir(&path).into_iter().flatten().filter_map(|e| e.ok().map(|e| e.path()))
            {
                if file.extension().is_some_and(|x| x == "tgdl") {
                    println!("cargo::rerun-if-changed={}", file.display());
                }
            }
        }
    }
}
