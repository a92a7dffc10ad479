//! Random playouts of the reference engines on one thread, for comparison with generated
//! engines: `cargo bench -p tgdl-reference --bench random_playouts`.

use std::time::Instant;
use tgdl_play::agent::{RandomAgent, seat_seeds};
use tgdl_play::simulate::{SimOptions, random_playout, simulate};
use tgdl_reference::{Breakthrough, ConnectFour, Reversi, TicTacToe};
use tgdl_runtime::Game;
use tgdl_runtime::rng::Rng;

/// Plays `games` random games on this thread; returns games per second and the mean length.
fn playouts<G: Game>(games: u64) -> (f64, f64) {
    let started = Instant::now();
    let mut decisions = 0;
    let mut agents = Vec::new();
    for i in 0..games {
        let seed = Rng::derive_seed(0, i);
        agents.clear();
        agents.extend(seat_seeds(seed.into()).take(2).map(RandomAgent::new));
        let mut game = G::start(2, seed).expect("two players");
        decisions += random_playout(&mut game, &mut agents, u64::MAX).0;
        std::hint::black_box(&game);
    }
    (games as f64 / started.elapsed().as_secs_f64(), decisions as f64 / games as f64)
}

fn report<G: Game>(games: u64) {
    playouts::<G>(games / 10);
    let (rate, length) = playouts::<G>(games);
    println!("{:<14} one thread: {rate:>12.0} games/s ({length:.1} decisions per game)", G::info().name);
    let opts = SimOptions { threads: 1, ..SimOptions::new(games, 2) };
    let r = simulate::<G>(&opts).expect("simulate");
    println!("{:<14} simulate, 1 thread: {:>12.0} games/s", G::info().name, r.games_per_sec());
    let opts = SimOptions { threads: 0, ..SimOptions::new(games * 4, 2) };
    let r = simulate::<G>(&opts).expect("simulate");
    println!("{:<14} simulate, {} threads: {:>9.0} games/s", G::info().name, r.threads, r.games_per_sec());
}

fn main() {
    // `cargo test --benches` runs this with `--bench`-less arguments: keep it short then.
    let quick = !std::env::args().any(|a| a == "--bench");
    let games = if quick { 1_000 } else { 1_000_000 };
    report::<TicTacToe>(games);
    report::<ConnectFour>(games);
    // Games of 60-odd decisions with a larger menu each: fewer of them.
    report::<Breakthrough>(games / 20);
    report::<Reversi>(games / 20);
}
