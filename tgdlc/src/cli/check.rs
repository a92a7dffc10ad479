//! `tgdlc check` (diagnostics only) and `tgdlc emit` (the generated Rust).

use super::{MessageFormat, Session, fail};
use std::io::Write;
use std::path::Path;

/// Reports a game's diagnostics: rendered on standard error, or one JSON object per line
/// on standard output. Exit 0 when the game is valid (warnings allowed); a valid game
/// gets a one-line summary on standard error (people only: not with JSON).
pub(super) fn check(session: &Session, file: &Path, params: &[String]) -> u8 {
    let mut compilation = session.compile(file, false);
    if let Err(message) = compilation.check_param_values(params) {
        return fail(message);
    }
    if let Err(code) = session.report(&compilation) {
        return code;
    }
    if compilation.has_errors() {
        return 1;
    }
    if session.message_format == MessageFormat::Human {
        let warnings = compilation.diagnostics.len();
        let files = compilation.sources.files().count();
        let name = compilation.program.as_ref().map_or("?", |p| p.name.as_str());
        eprintln!(
            "    Checked `{}`: the game `{name}` is valid ({files} file{}{})",
            tgdl_compiler::source::printable(&file.display().to_string()),
            if files == 1 { "" } else { "s" },
            match warnings {
                0 => String::new(),
                1 => ", 1 warning".to_string(),
                n => format!(", {n} warnings"),
            }
        );
    }
    0
}

/// Prints the generated engine (diagnostics, warnings included, go to standard error).
pub(super) fn emit(session: &Session, file: &Path, output: Option<&Path>) -> u8 {
    let mut compilation = match session.compile_valid(file, true) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let Some(code) = compilation.generated.take() else { return 1 };
    if let Some(path) = output {
        if let Err(code) = super::refuse_overwriting_sources(path, &compilation) {
            return code;
        }
    }
    match output {
        Some(path) => match tgdl_compiler::write_output_text(path, &code) {
            Ok(()) => 0,
            Err(e) => fail(format!("cannot write `{}`: {e}", path.display())),
        },
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(code.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => 0,
                // A closed pipe (`tgdlc emit g.tgdl | head`) is not worth a message.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
                Err(e) => fail(format!("cannot write the generated code: {e}")),
            }
        }
    }
}
