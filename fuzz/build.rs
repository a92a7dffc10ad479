//! Generates the engine of every example into `OUT_DIR`, with a table of them, for the
//! `differential` target to play beside the interpreter. An example that does not check
//! fails the build with its diagnostics.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let examples = root.join("examples");
    println!("cargo::rerun-if-changed={}", examples.display());
    println!("cargo::rerun-if-changed={}", examples.join("lib").display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&examples)
        .expect("examples/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tgdl"))
        .collect();
    files.sort();
    let mut modules = String::new();
    let mut table =
        String::from("/// Every example: its name, its file, and both engines played side by side.\n");
    table.push_str("pub const EXAMPLES: &[Example] = &[\n");
    for path in &files {
        println!("cargo::rerun-if-changed={}", path.display());
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name");
        let code = tgdl_compiler::generate_file(path)
            .unwrap_or_else(|c| panic!("{} does not check:\n{}", path.display(), c.render(false)));
        std::fs::write(out.join(format!("{stem}.rs")), code).expect("OUT_DIR is writable");
        writeln!(modules, "pub mod {stem} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{stem}.rs\"));\n}}")
            .unwrap();
        let file = path.canonicalize().expect("an example's path").display().to_string();
        writeln!(
            table,
            "    Example {{ name: {stem:?}, path: {file:?}, info: {stem}::Game::info, compare: crate::compare::<{stem}::Game> }},"
        )
        .unwrap();
    }
    table.push_str("];\n");
    std::fs::write(out.join("examples.rs"), modules + &table).expect("OUT_DIR is writable");
}
