//! One semantics, two engines: every program the interpreter runs (`tgdl-interp`) plays
//! the same games interpreted as compiled. Each program of the equivalence table (every
//! example and test program) is prepared for the interpreter; those it runs play the
//! equivalence test's seeds side by side with the shipping generator's engine, every seat
//! random, and at every decision both must show the same status, labels, prompt, log,
//! observations for every viewer, and end the same way. Those it does not run yet must be
//! refused with a located reason, never half-played; `RUNS` lists the programs that must
//! run, so that coverage only grows.

use crate::equivalence::{PAIRS, side_by_side_of};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use tgdl_runtime::Game;

/// The programs the interpreter must run (every other one may be refused, with a reason).
const RUNS: &[&str] = &[
    "tic_tac_toe",
    "connect_four",
    "breakthrough",
    "hex",
    "chess",
    "reversi",
    "tug_of_war",
    "cake_cutting",
    "harvest",
    "dice_race",
    "liars_dice",
    "pilgrims",
    "rock_paper_scissors",
];

/// The interpreter plays the process's installed program: one program at a time.
static INSTALLED: Mutex<()> = Mutex::new(());

/// Plays one game with the compiled engine `A` and the installed interpreted program.
pub fn play<A: Game>(players: u32, seed: u64) -> Result<u64, String> {
    match (A::start(players, seed), tgdl_interp::Interpreted::start(players, seed)) {
        (Ok(a), Ok(b)) => side_by_side_of(a, b, seed, false, |_, _, _| {}).map(|(_, decisions)| decisions),
        (a, b) => {
            let (a, b) = (a.err().map(|e| e.to_string()), b.err().map(|e| e.to_string()));
            if a == b { Ok(0) } else { Err(format!("start differs: {a:?} and {b:?}")) }
        }
    }
}

/// Prepares and installs the program at `path` (from the repository's root): `Err` with the
/// interpreter's reason when it does not run it.
fn install(path: &str) -> Result<MutexGuard<'static, ()>, String> {
    let guard = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    let compilation =
        tgdl_compiler::compile(tgdl_compiler::Input::File(&file), &tgdl_compiler::Options::default());
    let program = compilation.program.as_ref().unwrap_or_else(|| panic!("{}", compilation.render(false)));
    let prepared = tgdl_interp::prepare(program, &compilation.sources).map_err(|e| e.to_string())?;
    tgdl_interp::install(prepared);
    Ok(guard)
}

/// Plays `name` both ways over `seeds` seeds, cycling the player counts it allows.
fn check(name: &str, seeds: u64) -> Result<(), String> {
    let pair = PAIRS.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no program `{name}`"));
    let _installed = install(pair.path)?;
    let info = (pair.info)();
    let counts = info.max_players - info.min_players + 1;
    for seed in 0..seeds {
        let players = info.min_players + (seed % u64::from(counts)) as u32;
        (pair.interpreted)(players, seed).map_err(|e| {
            format!("{name}, {players} players, seed {seed}: compiled (first) and interpreted (second) differ, {e}")
        })?;
    }
    Ok(())
}

#[test]
fn the_interpreter_plays_what_the_compiled_engines_play() {
    let mut refused = Vec::new();
    let mut failures = Vec::new();
    let mut compared = 0;
    for pair in PAIRS.iter().filter(|p| !p.path.starts_with("tests/equivalence/")) {
        let seeds = if RUNS.contains(&pair.name) { 10 } else { 3 };
        match check(pair.name, seeds) {
            Ok(()) => compared += 1,
            Err(why) if why.contains("the interpreter does not run") && !RUNS.contains(&pair.name) => {
                refused.push(format!("{}: {why}", pair.name));
            }
            Err(why) => failures.push(why),
        }
    }
    eprintln!("compared {compared}; refused ({}):\n  {}", refused.len(), refused.join("\n  "));
    assert!(failures.is_empty(), "{} programs differ:\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn what_the_interpreter_does_not_run_is_refused_with_its_place() {
    let why = install("examples/kuhn_poker.tgdl").expect_err("decks are not interpreted yet");
    assert!(why.starts_with("kuhn_poker.tgdl:"), "{why}");
    assert!(why.contains("the interpreter does not run"), "{why}");
}
