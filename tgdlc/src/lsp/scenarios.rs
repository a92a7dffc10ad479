//! Running a game's scenarios from the editor: a code lens at the top of a game that has
//! a `.scenarios` file of the same name beside it, and the command it runs,
//! `tgdl.runScenarios`. The scenarios run on the interpreter, in this process, against
//! the game as the editor holds it (unsaved edits included), so the answer comes without
//! a rustc build; each failure, and each line of the file that cannot be read, becomes a
//! diagnostic at its step in the `.scenarios` file, and the command answers with the
//! report of `tgdlc test --json`.

use super::Document;
use lsp_types::{CodeLens, Command, Diagnostic, DiagnosticSeverity, Position, Range, Uri};
use std::path::{Path, PathBuf};
use tgdl_play::scenario::{self, Place, Report};

/// The command the code lens runs; its one argument is the game's (or the scenario
/// file's) URI.
pub const RUN: &str = "tgdl.runScenarios";

/// The scenario file beside a game: `NAME.scenarios` for `NAME.tgdl`, when it exists.
pub fn beside(game: &Path) -> Option<PathBuf> {
    let scenarios = game.with_extension("scenarios");
    (game.extension().is_some_and(|x| x == "tgdl") && scenarios.is_file()).then_some(scenarios)
}

/// The game a file names: itself for a `.tgdl` file, `NAME.tgdl` for `NAME.scenarios`.
pub fn game_of(path: &Path) -> PathBuf {
    if path.extension().is_some_and(|x| x == "scenarios") {
        path.with_extension("tgdl")
    } else {
        path.to_path_buf()
    }
}

/// The lens over a game's first line, when it has scenarios: `▶ Run N scenarios`.
pub fn lenses(doc: &Document) -> Vec<CodeLens> {
    let Some(scenarios) = super::uri_path(&doc.uri).as_deref().and_then(beside) else { return Vec::new() };
    let text = std::fs::read_to_string(&scenarios).unwrap_or_default();
    let count = match scenario::parse(&scenarios.display().to_string(), &text) {
        Ok(file) => file.scenarios.len(),
        Err(_) => 0,
    };
    let title = match count {
        0 => "▶ Run scenarios".to_string(),
        1 => "▶ Run 1 scenario".to_string(),
        n => format!("▶ Run {n} scenarios"),
    };
    let uri = serde_json::Value::String(doc.uri.as_str().to_string());
    vec![CodeLens {
        range: Range::new(Position::new(0, 0), Position::new(0, 0)),
        command: Some(Command { title, command: RUN.into(), arguments: Some(vec![uri]) }),
        data: None,
    }]
}

/// What a run gives back: the report, and the diagnostics of the scenario file.
pub struct Ran {
    pub scenarios: PathBuf,
    pub report: Report,
    pub diagnostics: Vec<Diagnostic>,
}

/// Runs the scenarios of the game at `game` (its text `text`, as the editor holds it)
/// on the interpreter. An error is a message for the person: no scenario file, a game
/// that does not check.
pub fn run(game: &Path, text: &str) -> Result<Ran, String> {
    let scenarios = beside(game).ok_or_else(|| {
        format!("no scenarios: {} has no .scenarios file of the same name beside it", game.display())
    })?;
    let name = game.display().to_string();
    let input = tgdl_compiler::Input::Text { name: &name, text, base_dir: game.parent() };
    let compilation = tgdl_compiler::compile(input, &tgdl_compiler::Options::default());
    let program = match &compilation.program {
        Some(program) if !compilation.has_errors() => program,
        _ => return Err(format!("{} does not check: its diagnostics say why", game.display())),
    };
    let written = std::fs::read_to_string(&scenarios)
        .map_err(|e| format!("cannot read {}: {e}", scenarios.display()))?;
    tgdl_interp::install(tgdl_interp::prepare(program, &compilation.sources));
    let path = scenarios.display().to_string();
    let report = scenario::run_texts::<tgdl_interp::Interpreted>(&[(path, written.clone())]);
    let diagnostics = diagnostics(&report, &written);
    Ok(Ran { scenarios, report, diagnostics })
}

/// A diagnostic for each failed scenario (at the step that failed: the assertion, the
/// expected values, what the game showed and the decisions taken) and for each file that
/// could not be read.
fn diagnostics(report: &Report, text: &str) -> Vec<Diagnostic> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for file in &report.files {
        if let Some(e) = &file.error {
            out.push(diagnostic(&lines, e.at, e.message.clone()));
        }
        for run in &file.runs {
            let Some(f) = &run.failure else { continue };
            let mut message = format!("scenario \"{}\" fails: {}", run.name, f.message.trim_end());
            if !f.decisions.is_empty() {
                message.push_str(&format!("\nthe decisions taken ({}):", f.decisions.len()));
                for (i, d) in f.decisions.iter().enumerate() {
                    message.push_str(&format!("\n  {}. {d}", i + 1));
                }
            }
            out.push(diagnostic(&lines, f.at, message));
        }
    }
    out
}

/// An error from `at` to the end of its line (columns counted in UTF-16, as the protocol
/// counts them).
fn diagnostic(lines: &[&str], at: Place, message: String) -> Diagnostic {
    let line = lines.get(at.line.saturating_sub(1)).copied().unwrap_or("");
    let utf16 = |chars: usize| line.chars().take(chars).map(char::len_utf16).sum::<usize>() as u32;
    let row = at.line.saturating_sub(1) as u32;
    let start = utf16(at.column.saturating_sub(1));
    let end = utf16(line.trim_end().chars().count()).max(start + 1);
    Diagnostic {
        range: Range::new(Position::new(row, start), Position::new(row, end)),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("tgdlc test".into()),
        message,
        ..Diagnostic::default()
    }
}

/// The file a URI argument names, as a game: `game_of` its path.
pub fn game_of_uri(uri: &Uri) -> Option<PathBuf> {
    super::uri_path(uri).map(|p| game_of(&p))
}
