//! Hand-written engines implementing [`Game`](crate::Game) directly, in plain idiomatic
//! Rust: the yardstick generated engines are tested and benchmarked against.
//!
//! Both keep their options in fixed-size arrays, so a state is a few dozen bytes, cloning
//! it is a copy (until the game is over and an [`Outcome`](crate::Outcome) exists), and
//! a random playout allocates nothing but the final outcome.

pub mod connect_four;
pub mod tic_tac_toe;

pub use connect_four::ConnectFour;
pub use tic_tac_toe::TicTacToe;
