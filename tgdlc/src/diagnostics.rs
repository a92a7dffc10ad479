//! Diagnostics: one type for every error and warning the compiler reports, rendered
//! rustc-style for terminals (through `codespan-reporting`) or as JSON for editors.

use crate::source::{FileId, SourceMap, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;

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
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, span, message)
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Self {
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

    pub fn code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }

    /// Text written under the caret of the primary span.
    pub fn label(mut self, message: impl Into<String>) -> Self {
        self.primary.message = message.into();
        self
    }

    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label { span, message: message.into() });
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help.push(help.into());
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
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
        if color {
            let mut buf = term::termcolor::Buffer::ansi();
            // Rendering into memory fails only if a span points outside its file; fall back
            // to the plain one-line form rather than losing the message.
            if term::emit_to_write_style(&mut buf, &config, &Files(sources), &diag).is_ok() {
                return String::from_utf8_lossy(buf.as_slice()).into_owned();
            }
        } else if let Ok(text) = term::emit_into_string(&config, &Files(sources), &diag) {
            return text;
        }
        format!("{}: {}: {}\n", sources.location(self.primary.span), self.severity_word(), self.message)
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
        .with_message(&self.message);
        if let Some(code) = self.code {
            d = d.with_code(code);
        }
        let mut labels = vec![
            cs::Label::primary(self.primary.span.file, self.primary.span.range())
                .with_message(&self.primary.message),
        ];
        labels.extend(
            self.secondary
                .iter()
                .map(|l| cs::Label::secondary(l.span.file, l.span.range()).with_message(&l.message)),
        );
        let notes = self
            .help
            .iter()
            .map(|h| format!("help: {h}"))
            .chain(self.notes.iter().map(|n| format!("note: {n}")))
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

/// Adapter giving `codespan-reporting` read access to our [`SourceMap`].
struct Files<'a>(&'a SourceMap);

impl<'a> codespan_reporting::files::Files<'a> for Files<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.0.get(id).name)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.0.get(id).text)
    }

    fn line_index(
        &'a self,
        id: FileId,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let starts = self.0.get(id).line_starts();
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
        let file = self.0.get(id);
        let starts = file.line_starts();
        let start = *starts.get(line_index).ok_or(codespan_reporting::files::Error::LineTooLarge {
            given: line_index,
            max: starts.len() - 1,
        })? as usize;
        let end = starts.get(line_index + 1).map_or(file.text.len(), |&e| e as usize);
        Ok(start..end)
    }
}

/// Renders a list of diagnostics, errors and warnings in source order, with a summary line.
pub fn render_all(diags: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&d.render(sources, color));
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
