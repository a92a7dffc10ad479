//! A game binary like the ones `tgdlc build` makes, over the hand-written connect four:
//! `cargo run --example connect_four -- simulate -n 100000`.

fn main() -> std::process::ExitCode {
    tgdl_play::cli::main::<tgdl_reference::ConnectFour>()
}
