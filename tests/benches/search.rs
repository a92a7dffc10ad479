//! MCTS iterations per second on connect four, hex and crazy eights (one thread), beside the random
//! playouts of the same engines: the yardstick is that one iteration (a
//! determinization, a descent, an expansion and a playout) costs at most twice a playout.
//!
//! `cargo bench -p tgdl-tests --bench search` measures with criterion. With
//! `TGDL_SEARCH=<game>/<what>:<count>` (`connect_four/mcts:100000`,
//! `hex/playouts:20000`) it runs that fixed workload in batches, prints the time of the
//! fastest batch, and exits: what `cargo xtask bench` reads, and what callgrind counts.

use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tgdl_play::agent::Decision;
use tgdl_play::mcts::{Budget, MctsAgent};
use tgdl_runtime::{Game, Start};

/// Iterations of one search (a batch), and games of one batch of playouts.
const SEARCH: u32 = 2_000;
const PLAYOUTS: u64 = 200;

/// One search of `iterations` from the start position with a fresh agent (seeded by
/// `seed`); returns the option chosen. The game is observed, as one played for real: in a
/// game with hidden information the search draws its worlds from what the seat has seen.
fn search<G: Game>(iterations: u32, seed: u64) -> usize {
    let game = G::start_with(&Start::observed::<G>(2, 0)).expect("a two-player game");
    let decision = Decision::of(&game).expect("the first player decides");
    let mut agent = MctsAgent::<G>::new(Budget::Iterations(iterations), seed);
    agent.search(&decision).expect("a search").0
}

struct Subject {
    game: &'static str,
    search: fn(u32, u64) -> usize,
    playouts: fn(u64) -> u64,
}

const SUBJECTS: &[Subject] = &[
    Subject {
        game: "connect_four",
        search: search::<tgdl_tests::connect_four::Game>,
        playouts: tgdl_tests::benchmark_playouts::<tgdl_tests::connect_four::Game>,
    },
    Subject {
        game: "hex",
        search: search::<tgdl_tests::hex::Game>,
        playouts: tgdl_tests::benchmark_playouts::<tgdl_tests::hex::Game>,
    },
    Subject {
        game: "crazy_eights",
        search: search::<tgdl_tests::crazy_eights::Game>,
        playouts: tgdl_tests::benchmark_playouts::<tgdl_tests::crazy_eights::Game>,
    },
];

fn bench(c: &mut Criterion) {
    for s in SUBJECTS {
        let mut group = c.benchmark_group(format!("search/{}", s.game));
        group.throughput(Throughput::Elements(SEARCH as u64));
        group.bench_function(BenchmarkId::from_parameter("mcts"), |b| b.iter(|| (s.search)(SEARCH, 1)));
        group.throughput(Throughput::Elements(PLAYOUTS));
        group.bench_function(BenchmarkId::from_parameter("playouts"), |b| b.iter(|| (s.playouts)(PLAYOUTS)));
        group.finish();
    }
}

/// `TGDL_SEARCH=<game>/<mcts|playouts>:<count>`: `count` iterations (in searches of
/// [`SEARCH`]) or games (in batches of [`PLAYOUTS`]); prints
/// `<game>/<what>: <count> <unit>, best batch <seconds> s per <batch> <unit>`.
fn fixed_workload(spec: &str) {
    let (name, count) = spec.split_once(':').unwrap_or((spec, "10000"));
    let count: u64 = count.parse().unwrap_or_else(|_| panic!("TGDL_SEARCH: `{count}` is not a number"));
    let (game, what) = name.split_once('/').unwrap_or((name, "mcts"));
    let Some(s) = SUBJECTS.iter().find(|s| s.game == game) else {
        let known: Vec<&str> = SUBJECTS.iter().map(|s| s.game).collect();
        panic!("TGDL_SEARCH: unknown game `{game}`; one of {}", known.join(", "));
    };
    let (batch, unit) = match what {
        "mcts" => (SEARCH as u64, "iterations"),
        "playouts" => (PLAYOUTS, "games"),
        other => panic!("TGDL_SEARCH: `{other}` is neither mcts nor playouts"),
    };
    let (mut best, mut left, mut round) = (f64::INFINITY, count, 0u64);
    while left > 0 {
        let started = std::time::Instant::now();
        match what {
            "mcts" => black_box((s.search)(SEARCH, round)),
            _ => black_box((s.playouts)(PLAYOUTS) as usize),
        };
        best = best.min(started.elapsed().as_secs_f64());
        left = left.saturating_sub(batch);
        round += 1;
    }
    println!("{name}: {count} {unit}, best batch {best:.9} s per {batch} {unit}");
}

fn main() {
    if let Ok(spec) = std::env::var("TGDL_SEARCH") {
        fixed_workload(&spec);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
