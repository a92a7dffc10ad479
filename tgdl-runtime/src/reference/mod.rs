//! Hand-written engines implementing [`Game`](crate::Game) directly, in plain idiomatic
//! Rust: the yardstick generated engines are tested and benchmarked against.
//!
//! All keep their options in fixed-size arrays, so a state is a few hundred bytes at most,
//! cloning it is a copy (until the game is over and an [`Outcome`](crate::Outcome)
//! exists), and a random playout allocates nothing but the final outcome.
//!
//! Breakthrough and Reversi play the very games of `examples/breakthrough.tgdl` and
//! `examples/reversi.tgdl`: the same options, in the same order, with the same labels.

pub mod breakthrough;
pub mod connect_four;
pub mod reversi;
pub mod tic_tac_toe;

pub use breakthrough::Breakthrough;
pub use connect_four::ConnectFour;
pub use reversi::Reversi;
pub use tic_tac_toe::TicTacToe;
