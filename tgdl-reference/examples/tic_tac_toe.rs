//! A game binary like the ones `tgdlc build` makes, over the hand-written tic-tac-toe:
//! `cargo run --example tic_tac_toe -- play`.

fn main() -> std::process::ExitCode {
    tgdl_play::cli::main::<tgdl_reference::TicTacToe>()
}
