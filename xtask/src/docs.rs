//! `cargo xtask docs`: regenerates `docs/diagnostics.md` from the explanations in
//! `tgdl-compiler/src/codes.rs`.
//!
//! The generator is `tgdl_compiler::codes::markdown`, and the test
//! `diagnostics_doc_is_current` (in `tgdl-compiler/tests/check_ui.rs`) fails when the file differs from it; with
//! `TGDL_UPDATE_DOCS=1` that test writes the file instead. This command runs it so, which
//! keeps xtask free of a dependency on the compiler.

use std::process::{Command, ExitCode};

pub fn run(args: &[String]) -> ExitCode {
    if let Some(extra) = args.first() {
        eprintln!("`cargo xtask docs` takes no arguments (got `{extra}`)");
        return ExitCode::from(2);
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["test", "-q", "-p", "tgdl-compiler", "--test", "check_ui", "diagnostics_doc_is_current"])
        .env("TGDL_UPDATE_DOCS", "1")
        .current_dir(crate::workspace_root())
        .status();
    match status {
        Ok(s) if s.success() => {
            println!("wrote docs/diagnostics.md");
            ExitCode::SUCCESS
        }
        Ok(_) => {
            eprintln!("error: generating docs/diagnostics.md failed (see the test output above)");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: cannot run cargo: {e}");
            ExitCode::FAILURE
        }
    }
}
