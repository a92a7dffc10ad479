//! Hand-written engines: the yardstick generated engines are tested and benchmarked
//! against, and small worlds for the tests of the machinery generated engines run on.
//!
//! Tic-tac-toe, connect four, Breakthrough and Reversi implement
//! [`Game`](tgdl_runtime::Game) directly, in plain idiomatic Rust. All keep their options
//! in fixed-size arrays, so a state is a few hundred bytes at most, cloning it is a copy
//! (until the game is over and an [`Outcome`](tgdl_runtime::Outcome) exists), and a
//! random playout allocates nothing but the final outcome. Breakthrough and Reversi play
//! the very games of `examples/breakthrough.tgdl` and `examples/reversi.tgdl`: the same
//! options, in the same order, with the same labels.
//!
//! [`duel`] and [`walk`] are [`Rules`](tgdl_runtime::Rules) worlds written by hand and run
//! through [`Engine`](tgdl_runtime::Engine), as generated engines are: inputs in the middle
//! of a move, an input in `setup`, rule errors and endless games.

pub mod breakthrough;
pub mod connect_four;
pub mod duel;
pub mod reversi;
pub mod tic_tac_toe;
pub mod walk;

pub use breakthrough::Breakthrough;
pub use connect_four::ConnectFour;
pub use duel::{Duel, DuelGame};
pub use reversi::Reversi;
pub use tic_tac_toe::TicTacToe;
pub use walk::{Walk, WalkGame};
