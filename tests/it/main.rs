//! The integration tests of `tgdl-tests`, as one binary: the generated engines (the
//! library's, and those `build.rs` writes for this binary) are compiled and linked once,
//! not once per test file. One module per subject; run one with a filter, e.g.
//! `cargo test -p tgdl-tests --test integration cards::`.
//!
//! Four test files stay binaries of their own (`tests/Cargo.toml` says why): `macros.rs`
//! (trybuild), `limits.rs` (the engines' budgets are settings of the process),
//! `replay_work.rs` (it counts allocations with a global allocator of its own) and
//! `agents/` (the agents and hidden-information checks, which CI also runs optimised).

mod batch;
mod book;
mod cards;
mod equivalence;
mod examples;
mod interpreted;
mod macro_game;
mod programs;
mod scenarios;
mod simulate;
mod views;
