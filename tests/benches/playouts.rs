//! Random playouts per second of the generated tic-tac-toe, connect-four, Breakthrough and
//! Reversi engines beside the hand-written reference engines (`tgdl_runtime::reference`): same random agent, same
//! seeds, so both engines of a game play the very same games.
//!
//! `cargo bench -p tgdl-tests --bench playouts` measures with criterion (a batch of
//! [`BATCH`] games per iteration; the throughput is in games).
//!
//! `TGDL_PERFT=<game>/<engine>:<depth>` (Breakthrough, Reversi, chess) times one perft walk
//! from the start on one thread instead, for the perft table of `cargo xtask bench`.
//!
//! With the environment variable `TGDL_PLAYOUTS=<game>/<engine>:<games>` (e.g.
//! `connect_four/generated:10000`; any example's generated engine is `<example>/generated`,
//! `english_draughts/generated`) it instead plays that many games — the batch over and
//! over — prints the time of the fastest batch, and exits. That is a fixed workload for
//! `valgrind --tool=callgrind` (whose instruction counts are stable where timings are
//! not) and the measurement of `cargo xtask bench`: a batch takes milliseconds, so the
//! fastest of many is one that other programs on the machine did not interrupt.

use criterion::{BenchmarkId, Criterion, Throughput};
use tgdl_play::perft;
use tgdl_reference::{Breakthrough, ConnectFour, Reversi, TicTacToe};
use tgdl_runtime::{Game, Status};

/// Games per measured iteration: game `i` has seed `Rng::derive_seed(0, i)`.
const BATCH: u64 = 1000;

/// One engine of the benchmark: `game/engine`, and its batch of playouts.
struct Engine {
    game: &'static str,
    engine: &'static str,
    run: fn(u64) -> u64,
}

const ENGINES: &[Engine] = &[
    Engine {
        game: "tic_tac_toe",
        engine: "generated",
        run: tgdl_tests::benchmark_playouts::<tgdl_tests::tic_tac_toe::Game>,
    },
    Engine { game: "tic_tac_toe", engine: "hand_written", run: tgdl_tests::benchmark_playouts::<TicTacToe> },
    Engine {
        game: "connect_four",
        engine: "generated",
        run: tgdl_tests::benchmark_playouts::<tgdl_tests::connect_four::Game>,
    },
    Engine {
        game: "connect_four",
        engine: "hand_written",
        run: tgdl_tests::benchmark_playouts::<ConnectFour>,
    },
    Engine {
        game: "breakthrough",
        engine: "generated",
        run: tgdl_tests::benchmark_playouts::<tgdl_tests::breakthrough::Game>,
    },
    Engine {
        game: "breakthrough",
        engine: "hand_written",
        run: tgdl_tests::benchmark_playouts::<Breakthrough>,
    },
    Engine {
        game: "reversi",
        engine: "generated",
        run: tgdl_tests::benchmark_playouts::<tgdl_tests::reversi::Game>,
    },
    Engine { game: "reversi", engine: "hand_written", run: tgdl_tests::benchmark_playouts::<Reversi> },
    // No hand-written chess: its generated engine is measured alone (fixed workload only).
    Engine {
        game: "chess",
        engine: "generated",
        run: tgdl_tests::benchmark_playouts::<tgdl_tests::chess::Game>,
    },
];

/// One engine's perft from the start (two players, seed 0), on one thread: `game/engine`
/// and the walk, giving the sequences of the last length.
struct PerftEngine {
    name: &'static str,
    leaves: fn(u32) -> u64,
}

const PERFTS: &[PerftEngine] = &[
    PerftEngine {
        name: "breakthrough/generated",
        leaves: leaves_from_start::<tgdl_tests::breakthrough::Game>,
    },
    PerftEngine { name: "breakthrough/hand_written", leaves: leaves_from_start::<Breakthrough> },
    PerftEngine { name: "reversi/generated", leaves: leaves_from_start::<tgdl_tests::reversi::Game> },
    PerftEngine { name: "reversi/hand_written", leaves: leaves_from_start::<Reversi> },
    PerftEngine { name: "chess/generated", leaves: leaves_from_start::<tgdl_tests::chess::Game> },
];

fn leaves_from_start<G: Game>(depth: u32) -> u64 {
    leaves(&G::start(2, 0).expect("two players"), depth)
}

/// The decision sequences of length `depth` from `game`, on this thread:
/// `tgdl_play::perft` is parallel from depth 4, so deeper walks are split here first.
fn leaves<G: Game>(game: &G, depth: u32) -> u64 {
    if depth <= 3 {
        return perft(game, depth).last().copied().unwrap_or(0);
    }
    (0..game.options().len())
        .map(|i| {
            let mut next = game.clone();
            match (next.apply(i), next.status()) {
                (Ok(()), Status::Decide(_)) => leaves(&next, depth - 1),
                _ => 0,
            }
        })
        .sum()
}

/// `TGDL_PERFT=<game>/<engine>:<depth>`: one perft walk from the start on this thread;
/// prints `<game>/<engine>: depth <d>, <n> leaves in <seconds> s`.
fn fixed_perft(spec: &str) {
    let (name, depth) = spec.split_once(':').unwrap_or((spec, "4"));
    let depth: u32 = depth.parse().unwrap_or_else(|_| panic!("TGDL_PERFT: `{depth}` is not a depth"));
    let Some(e) = PERFTS.iter().find(|e| e.name == name) else {
        let known: Vec<&str> = PERFTS.iter().map(|e| e.name).collect();
        panic!("TGDL_PERFT: unknown engine `{name}`; one of {}", known.join(", "));
    };
    let started = std::time::Instant::now();
    let n = (e.leaves)(depth);
    println!("{name}: depth {depth}, {n} leaves in {:.9} s", started.elapsed().as_secs_f64());
}

fn bench(c: &mut Criterion) {
    for game in ["tic_tac_toe", "connect_four", "breakthrough", "reversi"] {
        let mut group = c.benchmark_group(format!("playouts/{game}"));
        group.throughput(Throughput::Elements(BATCH));
        if matches!(game, "breakthrough" | "reversi") {
            // A batch of these longer games takes a good part of a second: fewer samples.
            group.sample_size(10);
        }
        for e in ENGINES.iter().filter(|e| e.game == game) {
            group.bench_function(BenchmarkId::from_parameter(e.engine), |b| b.iter(|| (e.run)(BATCH)));
        }
        group.finish();
    }
}

/// `TGDL_PLAYOUTS=<game>/<engine>:<games>`: plays `games` games in batches of the same
/// [`BATCH`] games (the last one shorter), and prints
/// `<game>/<engine>: <games> games, <decisions> decisions, best batch <seconds> s`
/// (the fastest full batch; with no full batch, the time of all games).
fn fixed_workload(spec: &str) {
    let (name, games) = spec.split_once(':').unwrap_or((spec, "10000"));
    let games: u64 = games.parse().unwrap_or_else(|_| panic!("TGDL_PLAYOUTS: `{games}` is not a number"));
    let run =
        ENGINES.iter().find(|e| format!("{}/{}", e.game, e.engine) == name).map(|e| e.run).or_else(|| {
            let example = name.strip_suffix("/generated")?;
            tgdl_tests::EXAMPLES.iter().find(|e| e.name == example).map(|e| e.benchmark)
        });
    let Some(run) = run else {
        let known: Vec<String> = ENGINES.iter().map(|e| format!("{}/{}", e.game, e.engine)).collect();
        panic!(
            "TGDL_PLAYOUTS: unknown engine `{name}`; one of {}, or any example's `<name>/generated`",
            known.join(", ")
        );
    };
    let (mut decisions, mut best, mut left) = (0, f64::INFINITY, games);
    let started = std::time::Instant::now();
    while left > 0 {
        let batch = left.min(BATCH);
        let batch_started = std::time::Instant::now();
        decisions += run(batch);
        if batch == BATCH {
            best = best.min(batch_started.elapsed().as_secs_f64());
        }
        left -= batch;
    }
    if best.is_infinite() {
        best = started.elapsed().as_secs_f64();
    }
    println!("{name}: {games} games, {decisions} decisions, best batch {best:.9} s");
}

fn main() {
    if let Ok(spec) = std::env::var("TGDL_PLAYOUTS") {
        fixed_workload(&spec);
        return;
    }
    if let Ok(spec) = std::env::var("TGDL_PERFT") {
        fixed_perft(&spec);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
