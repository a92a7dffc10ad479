//! Generates the engine of every `examples/*.tgdl` into `OUT_DIR`, and a table of them,
//! so the tests compile and play every example. A game that does not check fails the
//! build with its diagnostics.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let examples = root.join("examples");
    println!("cargo::rerun-if-changed={}", examples.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&examples)
        .expect("examples/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tgdl"))
        .collect();
    files.sort();
    let mut table = String::from(
        "/// Every example: (file stem, player bounds, random-playout runner).\npub const EXAMPLES: &[Example] = &[\n",
    );
    let mut modules = String::new();
    for path in &files {
        println!("cargo::rerun-if-changed={}", path.display());
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name").to_string();
        let code = match tgdlc_load(path) {
            Ok(code) => code,
            Err(rendered) => panic!("example {} does not check:\n{rendered}", path.display()),
        };
        let file = out.join(format!("{stem}.rs"));
        std::fs::write(&file, code).expect("OUT_DIR is writable");
        writeln!(modules, "pub mod {stem} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{stem}.rs\"));\n}}")
            .unwrap();
        writeln!(table, "    Example {{ name: \"{stem}\", engine: {stem}::Game::info, playout: crate::playout::<{stem}::Game> }},").unwrap();
    }
    table.push_str("];\n");
    std::fs::write(out.join("examples.rs"), modules + &table).expect("OUT_DIR is writable");
}

/// Checks and generates one game: the same pipeline as `tgdlc emit`.
fn tgdlc_load(path: &Path) -> Result<String, String> {
    tgdlc::generate_file(path).map_err(|c| c.render(false))
}
