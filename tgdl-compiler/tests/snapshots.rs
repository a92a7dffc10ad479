//! Snapshots of the Rust generated for every example (reviewed by hand: accepting a
//! wrong snapshot is a bug). Regenerate with `cargo insta review` or
//! `INSTA_UPDATE=always cargo test -p tgdl-compiler --test snapshots`.

use std::path::Path;

#[test]
fn generated_code_of_every_example() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files: Vec<_> = std::fs::read_dir(&examples)
        .expect("examples/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tgdl"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    // Paths as a user would type them, so the snapshots do not depend on the checkout.
    std::env::set_current_dir(examples.join("..")).expect("the workspace root exists");
    for path in files {
        let name = path.file_stem().and_then(|s| s.to_str()).expect("UTF-8 name").to_string();
        let relative = Path::new("examples").join(path.file_name().expect("a file"));
        let code =
            tgdl_compiler::generate_file(&relative).unwrap_or_else(|c| panic!("{name} does not check:\n{c}"));
        insta::assert_snapshot!(name, code);
    }
}

#[test]
fn generation_is_deterministic() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/connect_four.tgdl");
    let a = tgdl_compiler::generate_file(&path).expect("checks");
    let b = tgdl_compiler::generate_file(&path).expect("checks");
    assert_eq!(a, b);
}
