//! Random playouts per second of the generated tic-tac-toe, connect-four, Breakthrough and
//! Reversi engines beside the hand-written reference engines (`tgdl_runtime::reference`): same random agent, same
//! seeds, so both engines of a game play the very same games.
//!
//! `cargo bench -p tgdl-tests --bench playouts` measures with criterion (a batch of
//! [`BATCH`] games per iteration; the throughput is in games).
//!
//! With the environment variable `TGDL_PLAYOUTS=<game>/<engine>:<games>` (e.g.
//! `connect_four/generated:10000`) it instead plays that many games — the batch over and
//! over — prints the time of the fastest batch, and exits. That is a fixed workload for
//! `valgrind --tool=callgrind` (whose instruction counts are stable where timings are
//! not) and the measurement of `cargo xtask bench`: a batch takes milliseconds, so the
//! fastest of many is one that other programs on the machine did not interrupt.

use criterion::{BenchmarkId, Criterion, Throughput};
use tgdl_runtime::reference::{Breakthrough, ConnectFour, Reversi, TicTacToe};

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
];

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
    let Some(e) = ENGINES.iter().find(|e| format!("{}/{}", e.game, e.engine) == name) else {
        let known: Vec<String> = ENGINES.iter().map(|e| format!("{}/{}", e.game, e.engine)).collect();
        panic!("TGDL_PLAYOUTS: unknown engine `{name}`; one of {}", known.join(", "));
    };
    let (mut decisions, mut best, mut left) = (0, f64::INFINITY, games);
    let started = std::time::Instant::now();
    while left > 0 {
        let batch = left.min(BATCH);
        let batch_started = std::time::Instant::now();
        decisions += (e.run)(batch);
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
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
