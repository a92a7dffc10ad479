//! The trace reader and `play --replay`: any file given as a trace is refused with a
//! message or replayed as far as it agrees with the game, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;
use tgdl_play::driver::{PlayOptions, run_play};
use tgdl_reference::TicTacToe;

/// One file per fuzzing process, rewritten for every input.
fn trace_path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| std::env::temp_dir().join(format!("tgdl-fuzz-trace-{}.json", std::process::id())))
}

fuzz_target!(|data: &[u8]| {
    let path = trace_path();
    if std::fs::write(path, data).is_err() {
        return;
    }
    let opts = PlayOptions { replay: Some(path.clone()), max_decisions: 100, ..PlayOptions::default() };
    let _ = run_play::<TicTacToe, _, _>(&opts, std::io::empty(), std::io::sink());
});
