//! The optimisations of the code generator change how fast an engine runs, never what it
//! does. `build.rs` generates every program twice — every example, test program
//! (`tests/programs/`, `tests/data/`, `tests/hygiene/`) and program of `tests/equivalence/`
//! (each written to exercise optimisations, and saying which) — with
//! `CodegenOptions::all()`, the generator as it ships, and `CodegenOptions::none()`, the
//! plain generator. Each pair plays the same games over many seeds, every seat random:
//! at every decision both engines must show the same status, options (in the same order),
//! labels, prompt and log, the same observation and hidden labels to every viewer, and
//! determinize alike; and they must end the same way. Failures name the program, the
//! seed and the decision.
//!
//! The submodules keep what the side-by-side tests of each optimisation asserted beyond
//! equivalence: that the optimisation is used, and what its lists and menus hold.

use tgdl_compiler::CodegenOptions;
use tgdl_play::RandomAgent;
use tgdl_play::agent::seat_seed;
use tgdl_play::compare::{self, Compare, same};
use tgdl_runtime::{Game, GameInfo};

mod class_instances;
mod input_domains;
mod kept_menus;
mod known_objects;
mod listed_members;
mod owner_indexes;

/// One program generated both ways.
pub struct Pair {
    pub name: &'static str,
    /// The `.tgdl` file, from the repository's root.
    pub path: &'static str,
    pub info: fn() -> GameInfo,
    /// Plays one game with both engines (see [`play_pair`]).
    pub play: fn(players: u32, seed: u64) -> Result<u64, String>,
    /// Plays one game with the shipping generator's engine and the interpreter (see
    /// `crate::interpreted`), the program installed.
    pub interpreted: fn(players: u32, seed: u64) -> Result<u64, String>,
}

use crate::interpreted;

include!(concat!(env!("OUT_DIR"), "/equivalence.rs"));

/// The most decisions a game of the test lasts (a random game that does not end by then
/// is compared that far).
const MAX_DECISIONS: u64 = 2_000;

/// How many seeds each program plays. Most games are small: 100 seeds. Fewer for those
/// whose decisions are slow to compare in a debug build (large boards and views, hidden
/// hands observed by every seat, long games, budgets run out), so that each test takes a
/// few seconds.
fn seeds(name: &str) -> u64 {
    match name {
        "chess" | "hex" | "large" => 2,
        "crazy_eights" | "budgets" => 3,
        "pilgrims" => 4,
        "dice_race" => 6,
        "breakthrough" | "reversi" | "skirmish" | "whist" | "buckets" | "tug_of_war" => 10,
        // Menus of up to 2,176 moves, runs of jumps searched recursively: 30-40 s each at
        // 100 seeds.
        "amazons" | "english_draughts" => 10,
        // Long engine-building games, and a move that loops by design: over a minute each
        // at 100 seeds in a debug build.
        "gem_merchants" | "guild_hall" | "slow_move" => 10,
        "rule_errors" | "courtiers" | "harvest" => 40,
        _ => 100,
    }
}

/// Plays program `name` both ways over its seeds, with a player count that cycles through
/// the ones the game allows; panics naming the program, seed and decision where the two
/// engines part.
fn check(name: &str) {
    let pair = PAIRS.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no pair `{name}`"));
    let info = (pair.info)();
    let counts = info.max_players - info.min_players + 1;
    let mut decisions = 0;
    for seed in 0..seeds(name) {
        let players = info.min_players + (seed % u64::from(counts)) as u32;
        match (pair.play)(players, seed) {
            Ok(n) => decisions += n,
            Err(e) => panic!(
                "{} ({}), {players} players, seed {seed}: the engines of CodegenOptions::all() (first) \
                 and ::none() (second) differ, {e}",
                pair.name, pair.path
            ),
        }
    }
    eprintln!("{name}: {} games, {decisions} decisions", seeds(name));
}

/// Plays one game of `players` from `seed` with `A` (the shipping generator's engine) and
/// `B` (the plain one), every seat a random agent choosing in `A`, the same index applied to
/// both; returns the number of decisions, or where and how the engines differ.
pub fn play_pair<A: Game, B: Game>(players: u32, seed: u64) -> Result<u64, String> {
    match (A::start(players, seed), B::start(players, seed)) {
        (Ok(a), Ok(b)) => side_by_side(a, b, seed, |_, _, _| {}).map(|(_, decisions)| decisions),
        (a, b) => same("start", &a.err().map(|e| e.to_string()), &b.err().map(|e| e.to_string())).map(|()| 0),
    }
}

/// Plays `a` and `b` (started alike) on as [`play_pair`] does, with `each` seeing `a`, its
/// labels and the label about to be picked, before every move; returns `a` at the end and
/// the number of decisions.
pub fn side_by_side<A: Game, B: Game>(
    a: A,
    b: B,
    seed: u64,
    each: impl FnMut(&A, &[String], &str),
) -> Result<(A, u64), String> {
    side_by_side_of(a, b, seed, true, each)
}

/// [`side_by_side`], comparing the moves' `Debug` text only when `same_moves` (two
/// generated engines name their moves alike; the interpreter's are data).
pub fn side_by_side_of<A: Game, B: Game>(
    a: A,
    b: B,
    seed: u64,
    same_moves: bool,
    each: impl FnMut(&A, &[String], &str),
) -> Result<(A, u64), String> {
    side_by_side_upto(a, b, seed, same_moves, MAX_DECISIONS, each)
}

/// [`side_by_side_of`], stopping after `max_decisions` decisions: every seat a random
/// agent choosing in `a` (`tgdl_play::compare` does the comparing).
pub fn side_by_side_upto<A: Game, B: Game>(
    a: A,
    b: B,
    seed: u64,
    same_moves: bool,
    max_decisions: u64,
    mut each: impl FnMut(&A, &[String], &str),
) -> Result<(A, u64), String> {
    let mut agents: Vec<RandomAgent> =
        (0..a.players()).map(|p| RandomAgent::new(seat_seed(seed.into(), p))).collect();
    let how = Compare { same_moves, max_decisions };
    compare::side_by_side(a, b, seed, how, |a, player, labels| {
        let pick = agents[player as usize].pick(labels.len()).expect("a decision has options");
        each(a, labels, &labels[pick]);
        pick
    })
}

/// Two players from `seed`, the shipping generator's engine `A` beside the plain one `B`
/// (see [`side_by_side`]); panics where they differ. For the tests of one optimisation.
pub fn two_players<A: Game, B: Game>(seed: u64, each: impl FnMut(&A, &[String], &str)) -> (A, u64) {
    let (a, b) = (A::start(2, seed).expect("two players"), B::start(2, seed).expect("two players"));
    side_by_side(a, b, seed, each).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

#[test]
fn every_program_is_played_both_ways() {
    // The examples and test programs of the library, and the programs of this test.
    let library = tgdl_tests::EXAMPLES.iter().chain(tgdl_tests::PROGRAMS).chain(tgdl_tests::DATA);
    for program in library.chain(tgdl_tests::HYGIENE) {
        assert!(PAIRS.iter().any(|p| p.name == program.name), "{} is not played both ways", program.name);
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("equivalence");
    let own = std::fs::read_dir(&dir).expect("tests/equivalence").count();
    assert!(own >= 11 && PAIRS.iter().filter(|p| p.path.starts_with("tests/equivalence/")).count() == own);
}

/// The switch of one optimisation in a `CodegenOptions`.
type Switch = fn(&mut CodegenOptions) -> &mut bool;

/// The optimisations, by the names the programs of `tests/equivalence/` give them.
const OPTIONS: [(&str, Switch); 9] = [
    ("whole_numbers", |o| &mut o.whole_numbers),
    ("flat_hierarchies", |o| &mut o.flat_hierarchies),
    ("input_domains", |o| &mut o.input_domains),
    ("known_objects", |o| &mut o.known_objects),
    ("listed_members", |o| &mut o.listed_members),
    ("owner_indexes", |o| &mut o.owner_indexes),
    ("class_instances", |o| &mut o.class_instances),
    ("kept_menus", |o| &mut o.kept_menus),
    ("coded_strings", |o| &mut o.coded_strings),
];

/// The engine of the program at `path` (from the repository's root), generated with
/// `options`.
fn generated(path: &str, options: CodegenOptions) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    let input = tgdl_compiler::Input::File(&path);
    let compilation = tgdl_compiler::compile(
        input,
        &tgdl_compiler::Options { generate: Some(options), ..Default::default() },
    );
    compilation.generated.clone().unwrap_or_else(|| panic!("{}", compilation.render(false)))
}

/// Whether turning optimisation `name` off changes the engine of the program at `path`: the
/// optimisation is used there, and the two engines of the program differ by it.
fn uses(path: &str, name: &str) -> bool {
    let (_, field) =
        OPTIONS.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no optimisation `{name}`"));
    let mut without = CodegenOptions::all();
    *field(&mut without) = false;
    generated(path, CodegenOptions::all()) != generated(path, without)
}

#[test]
fn each_program_of_tests_equivalence_uses_the_optimisations_it_says_it_exercises() {
    // `OPTIONS` names every optimisation: a new one must be added there (and exercised).
    let debug = format!("{:?}", CodegenOptions::all());
    assert_eq!(debug.matches(": true").count(), OPTIONS.len(), "{debug}");
    for (name, _) in OPTIONS {
        assert!(debug.contains(&format!("{name}: true")), "{name}: {debug}");
    }
    let mut exercised = std::collections::BTreeSet::new();
    for pair in PAIRS.iter().filter(|p| p.path.starts_with("tests/equivalence/")) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(pair.path);
        let source = std::fs::read_to_string(path).expect("a readable program");
        let names = source.lines().filter_map(|l| l.trim().strip_prefix("// exercises:"));
        for name in names.flat_map(|l| l.split(',').map(str::trim)) {
            assert!(
                uses(pair.path, name),
                "{}: says it exercises `{name}`, whose code it does not use",
                pair.path
            );
            exercised.insert(name.to_string());
        }
    }
    // Every optimisation is exercised by a program written for it.
    for (name, _) in OPTIONS {
        assert!(exercised.contains(name), "no program of tests/equivalence/ exercises `{name}`");
    }
}
