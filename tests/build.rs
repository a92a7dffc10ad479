//! Generates the engine of every `examples/*.tgdl` into `OUT_DIR`, and a table of them,
//! so the tests compile and play every example. A game that does not check fails the
//! build with its diagnostics.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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
    std::fs::write(out.join("examples.rs"), examples + &programs + &data).expect("OUT_DIR is writable");
}

/// Generates every `.tgdl` file of `dir` into a module of `OUT_DIR` and returns the
/// modules and a table `NAME` of `Kind`s listing them.
fn generate(dir: &Path, out: &Path, kind: &str, table_name: &str, attributes: &str) -> String {
    println!("cargo::rerun-if-changed={}", dir.display());
    watch_modules(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tgdl"))
        .collect();
    files.sort();
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
            "{attributes}pub mod {stem} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{stem}.rs\"));\n}}"
        )
        .unwrap();
        let source = path.display().to_string().replace('\\', "/");
        writeln!(
            table,
            "    {kind} {{ name: \"{stem}\", path: \"{source}\", engine: {stem}::Game::info, playout: crate::playout::<{stem}::Game>, run: crate::run::<{stem}::Game>, cli: crate::cli::<{stem}::Game>, secrecy: crate::secrecy::check::<{stem}::World>, determinization: crate::secrecy::determinization::<{stem}::World> }},"
        )
        .unwrap();
    }
    table.push_str("];\n");
    modules + &table
}

/// Checks and generates one game: the same pipeline as `tgdlc emit`.
fn tgdlc_load(path: &Path) -> Result<String, String> {
    tgdlc::generate_file(path).map_err(|c| c.render(false))
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
