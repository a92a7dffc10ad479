//! The batch compilation: every program the property-test generators of
//! `tgdl-compiler/tests/check_fuzz.rs` produce and `check` accepts, and accepted mutations of the
//! examples and test programs, compiled as modules of this crate with warnings denied
//! (`build.rs` writes them; a program whose Rust does not compile fails the build). Each
//! is then played: a rule error is a game's business, a Rust panic is a compiler bug.

/// One generated program.
pub struct Batch {
    pub name: &'static str,
    /// The file name it was checked under: located errors carry it.
    pub file: &'static str,
    /// Its TGDL text.
    pub source: &'static str,
    pub info: fn() -> tgdl_runtime::GameInfo,
    pub playout: fn(players: u32, seed: u64, max_decisions: u64) -> tgdl_tests::Ending,
    /// Plays one game with its engine and the interpreter side by side, the program
    /// installed (see `crate::interpreted`).
    pub interpreted: fn(players: u32, seed: u64, max_decisions: u64) -> Result<u64, String>,
}

/// The most decisions a game of the batch is played for.
pub const MAX_DECISIONS: u64 = 200;

include!(concat!(env!("OUT_DIR"), "/batch.rs"));

#[test]
fn the_batch_holds_programs_of_every_kind() {
    // (`random_` programs are only well formed: few of them check, perhaps none.)
    for kind in ["typed_", "mutated_"] {
        let n = BATCH.iter().filter(|b| b.name.starts_with(kind)).count();
        assert!(n >= 5, "only {n} `{kind}` programs check: the generators no longer reach code generation");
    }
}

#[test]
fn every_program_of_the_batch_plays_without_a_panic() {
    let mut failures = Vec::new();
    for b in BATCH {
        for seed in 0..3 {
            let players = 2 + seed as u32 % 2;
            if let Err(e) = std::panic::catch_unwind(|| (b.playout)(players, seed, MAX_DECISIONS)) {
                let message = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{} (seed {seed}): {message}", b.name));
            }
        }
    }
    assert!(failures.is_empty(), "generated engines panicked:\n{}", failures.join("\n"));
}
