//! UI tests of the `tgdl!` macro, through trybuild: games that compile and run
//! (`ui/pass/*.rs`), and games with errors (`ui/fail/*.rs`) whose expected compiler
//! output (`ui/fail/*.stderr`) was reviewed: each error's caret is under the token the
//! error is about.
//!
//! The expected output is rustc's, so it depends on the toolchain: it was written with
//! rustc 1.95, whose proc-macro spans give the line and column of every token (the TGDL
//! text of an inline game then lines up with the Rust file). After a toolchain change,
//! regenerate with `TRYBUILD=overwrite cargo test -p tgdl-tests --test macros` and review
//! the diff.

#[test]
fn ui() {
    // trybuild compiles the cases in a crate of its own under `target/`: `file = "..."`
    // paths must still start from this crate's directory.
    // SAFETY: this binary's only test sets the variable before anything else runs.
    unsafe { std::env::set_var("TGDL_MANIFEST_DIR", env!("CARGO_MANIFEST_DIR")) };
    let cases = trybuild::TestCases::new();
    cases.pass("ui/pass/*.rs");
    cases.compile_fail("ui/fail/*.rs");
}
