//! An interpreter of checked TGDL programs: it plays any game the moment the checker
//! accepts it, with no rustc build, through the engine interface compiled
//! games implement (`tgdl_runtime::Engine` over a world), so every front end (the
//! terminal, agents, search, traces, `simulate`, `perft`, the server) runs on it
//! unchanged.
//!
//! A program is [`prepare`]d once (its layout: which arena each class lives in, where
//! each attribute is stored, the source places of its checks) and [`install`]ed as the
//! game [`Interpreted`] plays: `Game::start` and `Game::info` are functions of the type,
//! not of a value, so the program they start is the process's installed one. A game
//! keeps the program it was started with; installing another (a reload after an edit)
//! changes only the games started after it.
//!
//! The semantics are the code generator's (docs/language.md), and the differential
//! tests (`tests/it/interpreted.rs`) hold the two to byte-identical traces.

mod eval;
mod machine;
mod moves;
mod prepared;
mod value;
mod view;
mod why;

pub use machine::{Machine, Move};
pub use prepared::Prepared;
pub use why::{Why, why};

use std::sync::{Arc, RwLock};
use tgdl_compiler::hir::Program;
use tgdl_compiler::source::SourceMap;

/// A game played by the interpreter: the runtime's engine over an interpreted world.
pub type Interpreted = tgdl_runtime::Engine<Machine>;

/// Prepares a checked program for the interpreter.
pub fn prepare(program: &Program, sources: &SourceMap) -> Arc<Prepared> {
    Arc::new(Prepared::new(program, sources))
}

static INSTALLED: RwLock<Option<&'static Prepared>> = RwLock::new(None);

/// Makes `prepared` the game [`Interpreted`] starts from now on. The program stays in
/// memory for the rest of the process (worlds refer to it without counting: a reload
/// after an edit keeps a few kilobytes), so that reading it costs nothing in play.
pub fn install(prepared: Arc<Prepared>) {
    let kept: &'static Arc<Prepared> = Box::leak(Box::new(prepared));
    *INSTALLED.write().unwrap_or_else(|e| e.into_inner()) = Some(&**kept);
}

/// The installed program.
///
/// # Panics
/// When no program was installed: starting an interpreted game before installing one is
/// a mistake of the front end, not of the game.
pub(crate) fn installed() -> &'static Prepared {
    INSTALLED
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .expect("tgdl_interp::install is called before an interpreted game starts")
}
