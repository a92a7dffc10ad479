//! The integration tests of `tgdl-tests`, as one binary: the generated engines (the
//! library's, and those `build.rs` writes for this binary) are compiled and linked once,
//! not once per test file. One module per subject; run one with a filter, e.g.
//! `cargo test -p tgdl-tests --test integration hidden::`.
//!
//! Three test files stay binaries of their own (`tests/Cargo.toml` says why): `macros.rs`
//! (trybuild), `limits.rs` (the engines' budgets are settings of the process) and
//! `replay_work.rs` (it counts allocations with a global allocator of its own).

mod agents;
mod batch;
mod book;
mod cards;
mod equivalence;
mod examples;
mod hidden;
mod macro_game;
mod programs;
mod scenarios;
mod simulate;
mod views;
