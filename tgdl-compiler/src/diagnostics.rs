//! Diagnostics: one type for every error and warning the compiler reports, rendered
//! rustc-style for terminals (through `codespan-reporting`) or as JSON for editors.

use crate::source::printable;
use crate::source::{FileId, SourceMap, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// A secondary note attached to a place in the source ("first defined here").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code such as `E0001`, explained by `tgdlc explain`.
    pub code: Option<&'static str>,
    pub message: String,
    /// The offending source and what is wrong with it.
    pub primary: Label,
    pub secondary: Vec<Label>,
    /// `help:` lines: what to change.
    pub help: Vec<String>,
    /// `note:` lines: context.
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub(crate) fn error(span: Span, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, span, message)
    }

    pub(crate) fn warning(span: Span, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, span, message)
    }

    fn new(severity: Severity, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code: None,
            message: message.into(),
            primary: Label { span, message: String::new() },
            secondary: Vec::new(),
            help: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub(crate) fn code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }

    /// Text written under the caret of the primary span.
    pub(crate) fn label(mut self, message: impl Into<String>) -> Self {
        self.primary.message = message.into();
        self
    }

    pub(crate) fn secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label { span, message: message.into() });
        self
    }

    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        self.help.push(help.into());
        self
    }

    pub(crate) fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The rustc-style rendering: header, `--> file:line:col`, source excerpt with carets,
    /// then `help:` and `note:` lines.
    pub fn render(&self, sources: &SourceMap, color: bool) -> String {
        // ASCII frames, as rustc draws them.
        let config = term::Config { chars: term::Chars::ascii(), ..term::Config::default() };
        let diag = self.to_codespan();
        let files = Files::around(sources, self.labels());
        if color {
            let mut buf = term::termcolor::Buffer::ansi();
            // Rendering into memory fails only if a span points outside its file; fall back
            // to the plain one-line form rather than losing the message.
            if term::emit_to_write_style(&mut buf, &config, &files, &diag).is_ok() {
                return String::from_utf8_lossy(buf.as_slice()).into_owned();
            }
        } else if let Ok(text) = term::emit_into_string(&config, &files, &diag) {
            return text;
        }
        format!(
            "{}: {}: {}\n",
            printable(&sources.location(self.primary.span).to_string()),
            self.severity_word(),
            printable(&self.message)
        )
    }

    /// The primary label, then the secondary ones.
    fn labels(&self) -> impl Iterator<Item = &Label> {
        std::iter::once(&self.primary).chain(&self.secondary)
    }

    fn severity_word(&self) -> &'static str {
        match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }

    fn to_codespan(&self) -> cs::Diagnostic<FileId> {
        let mut d = match self.severity {
            Severity::Error => cs::Diagnostic::error(),
            Severity::Warning => cs::Diagnostic::warning(),
        }
        .with_message(printable(&self.message));
        if let Some(code) = self.code {
            d = d.with_code(code);
        }
        let mut labels = vec![
            cs::Label::primary(self.primary.span.file, self.primary.span.range())
                .with_message(printable(&self.primary.message)),
        ];
        labels.extend(
            self.secondary.iter().map(|l| {
                cs::Label::secondary(l.span.file, l.span.range()).with_message(printable(&l.message))
            }),
        );
        let notes = self
            .help
            .iter()
            .map(|h| format!("help: {}", printable(h)))
            .chain(self.notes.iter().map(|n| format!("note: {}", printable(n))))
            .collect();
        d.with_labels(labels).with_notes(notes)
    }

    /// The machine-readable form used by `--message-format json`.
    pub fn to_json(&self, sources: &SourceMap) -> serde_json::Value {
        let label = |l: &Label| {
            let loc = sources.location(l.span);
            let end = sources.location(Span { start: l.span.end, ..l.span });
            serde_json::json!({
                "file": loc.file,
                "line": loc.line,
                "column": loc.column,
                "end_line": end.line,
                "end_column": end.column,
                "byte_start": l.span.start,
                "byte_end": l.span.end,
                "text": sources.snippet(l.span),
                "label": l.message,
            })
        };
        serde_json::json!({
            "severity": self.severity_word(),
            "code": self.code,
            "message": self.message,
            "primary": label(&self.primary),
            "secondary": self.secondary.iter().map(label).collect::<Vec<_>>(),
            "help": self.help,
            "notes": self.notes,
        })
    }
}

/// Source lines longer than this are shown as a window around the labels on them: an
/// error on a 100 KB line prints a readable excerpt, not the whole line.
const MAX_SHOWN_LINE: usize = 160;

/// Adapter giving `codespan-reporting` read access to our [`SourceMap`]: file names and
/// text with control characters made visible, and long lines cut to the part around the
/// labels of the diagnostic being rendered (columns still count from the real line start).
struct Files<'a> {
    sources: &'a SourceMap,
    /// Byte ranges to keep in view, by file.
    focus: Vec<(FileId, std::ops::Range<usize>)>,
    names: HashMap<FileId, String>,
}

impl<'a> Files<'a> {
    fn around<'l>(sources: &'a SourceMap, labels: impl Iterator<Item = &'l Label>) -> Files<'a> {
        let focus: Vec<_> = labels.map(|l| (l.span.file, l.span.range())).collect();
        let names =
            focus.iter().map(|(id, _)| (*id, printable(&sources.get(*id).name).into_owned())).collect();
        Files { sources, focus, names }
    }

    /// The full byte range of a line, without its line break.
    fn whole_line(&self, id: FileId, line_index: usize) -> Option<std::ops::Range<usize>> {
        let file = self.sources.get(id);
        let starts = file.line_starts();
        let start = *starts.get(line_index)? as usize;
        let end = starts.get(line_index + 1).map_or(file.text.len(), |&e| e as usize);
        Some(start..end)
    }
}

/// The largest char boundary of `text` at or below `i`.
fn floor_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl<'a> codespan_reporting::files::Files<'a> for Files<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.names.get(&id).map_or(self.sources.get(id).name.as_str(), String::as_str))
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.sources.get(id).display_text())
    }

    fn line_index(
        &'a self,
        id: FileId,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let starts = self.sources.get(id).line_starts();
        Ok(match starts.binary_search(&(byte_index as u32)) {
            Ok(i) => i,
            Err(i) => i - 1,
        })
    }

    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        let line = self.whole_line(id, line_index).ok_or(codespan_reporting::files::Error::LineTooLarge {
            given: line_index,
            max: self.sources.get(id).line_starts().len() - 1,
        })?;
        if line.len() <= MAX_SHOWN_LINE {
            return Ok(line);
        }
        // Keep every label edge on this line in view, with some context either side.
        let text = self.sources.get(id).display_text();
        let edges = self
            .focus
            .iter()
            .filter(|(f, _)| *f == id)
            .flat_map(|(_, r)| [r.start, r.end])
            .filter(|&b| line.contains(&b) || b == line.end);
        let (lo, hi) = edges.fold((usize::MAX, 0), |(lo, hi), b| (lo.min(b), hi.max(b)));
        let (lo, hi) = if lo == usize::MAX { (line.start, line.start) } else { (lo, hi) };
        let context = MAX_SHOWN_LINE / 2;
        let start = floor_boundary(text, lo.saturating_sub(context).max(line.start));
        let end = floor_boundary(text, (hi + context).min(line.end));
        Ok(start..end.max(start))
    }

    fn column_number(
        &'a self,
        id: FileId,
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let line = self.whole_line(id, line_index).unwrap_or(0..0);
        let text = &self.sources.get(id).text;
        let end = floor_boundary(text, byte_index.clamp(line.start, line.end));
        Ok(text[line.start..end].chars().count() + 1)
    }
}

/// The most diagnostics rendered for people; the summary line still counts them all
/// (`--message-format json` lists every one). Past this the first errors are what
/// matters, and a file with thousands of errors on one line must not print gigabytes.
pub(crate) const MAX_RENDERED: usize = 50;

/// Drops repeats: the same message with the same code at the same place (a pass that
/// meets one construct twice reports it once).
pub(crate) fn dedup(diags: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    diags.retain(|d| seen.insert((d.code, d.message.clone(), d.primary.span)));
}

/// Renders a list of diagnostics (at most [`MAX_RENDERED`]), errors and warnings in
/// source order, with a summary line.
pub(crate) fn render_all(diags: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let mut out = String::new();
    for d in diags.iter().take(MAX_RENDERED) {
        out.push_str(&d.render(sources, color));
    }
    out.push_str(&summary(diags));
    out
}

/// The lines after the rendered diagnostics: how many were left out, and the count of
/// errors and warnings when there are errors.
pub(crate) fn summary(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    if diags.len() > MAX_RENDERED {
        out.push_str(&format!(
            "note: {} more diagnostic{} not shown (the first {MAX_RENDERED} are above)\n",
            diags.len() - MAX_RENDERED,
            if diags.len() - MAX_RENDERED == 1 { "" } else { "s" }
        ));
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    if errors > 0 {
        out.push_str(&format!(
            "error: could not compile the game due to {} previous error{}{}\n",
            errors,
            if errors == 1 { "" } else { "s" },
            if warnings > 0 {
                format!("; {warnings} warning{} emitted", if warnings == 1 { "" } else { "s" })
            } else {
                String::new()
            }
        ));
    }
    out
}
