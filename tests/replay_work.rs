//! A decision costs the same work however long the game has run: a game whose every
//! move may ask an input as it takes effect and logs a line (`tests/programs/
//! input_log.tgdl`) allocates no more at its 6,000th decision than at its 600th. (Each
//! such move runs from a saved copy of the world, which once held every log line: a copy
//! per decision made the game quadratic.) Work is counted as allocations, by this
//! binary's global allocator, a setting of the process: hence a binary of its own.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use tgdl_runtime::params::Params;
use tgdl_runtime::{Game, Start, Status};

/// The system allocator, counting allocations.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call goes to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

type InputLog = tgdl_tests::input_log::Game;

/// Allocations made by the next `decisions` decisions of `game` (always the first option).
fn allocations(game: &mut InputLog, decisions: u64) -> u64 {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..decisions {
        assert!(matches!(game.status(), Status::Decide(_)), "the game ended early: {:?}", game.status());
        game.apply(0).expect("the first option applies");
    }
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[test]
fn a_long_game_with_inputs_and_a_log_costs_each_decision_the_same() {
    let params = Params::parse(InputLog::info().params, &["moves=10000"]).expect("moves is a parameter");
    let mut game = InputLog::start_with(&Start::seeded(2, 7).with_params(params)).expect("the game starts");
    // Every other move asks `keep`: 3 decisions per 2 moves.
    let early = allocations(&mut game, 300);
    allocations(&mut game, 5_400);
    let late = allocations(&mut game, 300);
    assert_eq!(game.log().len(), 6_000, "6,000 decisions are 4,000 moves and 2,000 answers, a line each");
    // The log's vector grows by doubling: a few allocations more, never one per line.
    assert!(late <= early + early / 10, "300 decisions allocated {early} times early, {late} times late");
}
