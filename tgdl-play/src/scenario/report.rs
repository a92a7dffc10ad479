//! What a run of scenarios says: `cargo test`'s shape as text (`test NAME ... ok`, the
//! failures with their place, source line, what the game showed and the decisions taken,
//! `test result: ...`), or one JSON object whose shape is stable.

use super::parse::{ParseError, Place};
use super::run::ScenarioRun;
use serde_json::json;
use std::fmt::Write as _;

/// The scenarios of one file, run (none when the file could not be read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRun {
    pub path: String,
    /// The file's lines, for quoting the steps that failed.
    pub lines: Vec<String>,
    /// Why the file could not be read.
    pub error: Option<ParseError>,
    pub runs: Vec<ScenarioRun>,
}

/// Every file run, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub files: Vec<FileRun>,
}

impl Report {
    pub fn passed(&self) -> usize {
        self.runs().filter(|r| r.failure.is_none()).count()
    }

    pub fn failed(&self) -> usize {
        self.runs().filter(|r| r.failure.is_some()).count()
    }

    /// The files that could not be read.
    pub fn errors(&self) -> impl Iterator<Item = &ParseError> {
        self.files.iter().filter_map(|f| f.error.as_ref())
    }

    /// Every scenario passed and every file was read.
    pub fn ok(&self) -> bool {
        self.failed() == 0 && self.errors().next().is_none()
    }

    fn runs(&self) -> impl Iterator<Item = &ScenarioRun> {
        self.files.iter().flat_map(|f| &f.runs)
    }

    /// The report as `cargo test` writes one.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        for file in &self.files {
            match &file.error {
                Some(e) => {
                    let _ = writeln!(out, "\n{e}");
                }
                None => {
                    let n = file.runs.len();
                    let _ = writeln!(out, "\nrunning {n} scenario{} ({})", plural(n), file.path);
                    for run in &file.runs {
                        let verdict = if run.failure.is_some() { "FAILED" } else { "ok" };
                        let _ = writeln!(out, "test {} ... {verdict}", run.name);
                    }
                }
            }
        }
        let failed: Vec<(&FileRun, &ScenarioRun)> = self
            .files
            .iter()
            .flat_map(|f| f.runs.iter().map(move |r| (f, r)))
            .filter(|(_, r)| r.failure.is_some())
            .collect();
        if !failed.is_empty() {
            out.push_str("\nfailures:\n");
            for (file, run) in &failed {
                let _ = write!(out, "\n---- {} ----\n{}", run.name, failure_text(file, run));
            }
            out.push_str("\nfailures:\n");
            for (file, run) in &failed {
                let _ = writeln!(out, "    {} ({}:{})", run.name, file.path, run.at.line);
            }
        }
        let errors = self.errors().count();
        let verdict = if self.ok() { "ok" } else { "FAILED" };
        let _ = write!(out, "\ntest result: {verdict}. {} passed; {} failed", self.passed(), self.failed());
        if errors > 0 {
            let _ = write!(out, "; {errors} file{} not read", plural(errors));
        }
        out.push('\n');
        out
    }

    /// `{"passed": N, "failed": M, "scenarios": [...], "errors": [...]}`: each scenario
    /// with its file, name, line, `passed` and `failure` (`null`, or its file, line,
    /// column, source line, message and decisions); each file not read with its file, line,
    /// column, source line and message.
    pub fn to_json(&self) -> serde_json::Value {
        let scenarios: Vec<serde_json::Value> = self
            .files
            .iter()
            .flat_map(|file| {
                file.runs.iter().map(move |run| {
                    let failure = run.failure.as_ref().map(|f| {
                        json!({
                            "file": file.path,
                            "line": f.at.line,
                            "column": f.at.column,
                            "source": source_line(file, f.at),
                            "message": f.message.trim_end(),
                            "decisions": f.decisions,
                        })
                    });
                    json!({
                        "file": file.path,
                        "name": run.name,
                        "line": run.at.line,
                        "passed": run.failure.is_none(),
                        "failure": failure,
                    })
                })
            })
            .collect();
        let errors: Vec<serde_json::Value> = self
            .errors()
            .map(|e| {
                json!({
                    "file": e.path,
                    "line": e.at.line,
                    "column": e.at.column,
                    "source": e.source,
                    "message": e.message,
                })
            })
            .collect();
        json!({
            "passed": self.passed(),
            "failed": self.failed(),
            "scenarios": scenarios,
            "errors": errors,
        })
    }
}

/// One failure: where, the step as written, what the game showed, the decisions taken.
pub fn failure_text(file: &FileRun, run: &ScenarioRun) -> String {
    let Some(f) = &run.failure else { return String::new() };
    let source = source_line(file, f.at);
    let (headline, rest) = f.message.split_once('\n').unwrap_or((&f.message, ""));
    let mut out = located(&file.path, f.at, headline, &source, statement_width(&source, f.at.column));
    out.push_str(rest);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    if f.decisions.is_empty() {
        out.push_str("no decisions were taken\n");
    } else {
        let _ = writeln!(out, "the decisions taken ({}):", f.decisions.len());
        for (i, d) in f.decisions.iter().enumerate() {
            let _ = writeln!(out, "  {}. {d}", i + 1);
        }
    }
    out
}

fn source_line(file: &FileRun, at: Place) -> String {
    file.lines.get(at.line.wrapping_sub(1)).cloned().unwrap_or_default()
}

/// `path:line:column: message`, then the source line with a caret under `width`
/// characters from the column.
pub fn located(path: &str, at: Place, message: &str, source: &str, width: usize) -> String {
    let number = at.line.to_string();
    let gutter = " ".repeat(number.len());
    let pad = " ".repeat(at.column.saturating_sub(1));
    format!(
        "{path}:{}:{}: {message}\n{gutter} |\n{number} | {source}\n{gutter} | {pad}{}\n",
        at.line,
        at.column,
        "^".repeat(width.max(1))
    )
}

/// How many characters the statement starting at `column` spans: up to its comment, or
/// the end of the line, without trailing blanks.
fn statement_width(line: &str, column: usize) -> usize {
    let mut quoted = false;
    let mut escaped = false;
    let mut end = 0;
    for (i, c) in line.chars().enumerate() {
        if quoted {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, '"') => quoted = false,
                _ => escaped = false,
            }
        } else if c == '"' {
            quoted = true;
        } else if c == '#' {
            break;
        }
        if !c.is_whitespace() {
            end = i + 1;
        }
    }
    end.saturating_sub(column.saturating_sub(1)).max(1)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caret_spans_the_statement_without_its_comment() {
        assert_eq!(statement_width("  offered \"a # b\"   # comment", 3), 15);
        assert_eq!(statement_width("over", 1), 4);
        assert_eq!(
            located("f.scenarios", Place { line: 12, column: 3 }, "bad", "  over", 4),
            "f.scenarios:12:3: bad\n   |\n12 |   over\n   |   ^^^^\n"
        );
    }
}
