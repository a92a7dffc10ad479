//! The `tgdlc` binary: see [`tgdlc::cli`].

fn main() -> std::process::ExitCode {
    tgdlc::cli::main()
}
