//! Source files and byte spans: every location the compiler reports points into a [`SourceMap`].

use std::path::{Path, PathBuf};

/// Index of a file in the [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range `start..end` in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span { file, start: start as u32, end: end as u32 }
    }

    /// The smallest span covering both `self` and `other` (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// One loaded source file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics (the path as the user gave it, or a label like `<tgdl!>`).
    pub name: String,
    /// The real path on disk, when there is one (imports resolve relative to it).
    pub path: Option<PathBuf>,
    pub text: String,
    line_starts: Vec<u32>,
    /// The text as diagnostics show it, when it differs: every control character but tab
    /// and line breaks replaced by `?`, byte for byte, so offsets stay valid and no raw
    /// escape sequence of a file reaches the terminal.
    display: Option<String>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, path: Option<PathBuf>, text: impl Into<String>) -> Self {
        let text = text.into();
        let line_starts = line_starts(&text);
        let display = text.contains(is_hidden_control).then(|| text.replace(is_hidden_control, "?"));
        SourceFile { name: name.into(), path, text, line_starts, display }
    }

    /// The text with control characters made visible (see `display`), for excerpts.
    pub(crate) fn display_text(&self) -> &str {
        self.display.as_deref().unwrap_or(&self.text)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self.text.get(start..end).map_or(end - start, |s| s.chars().count());
        (line as u32 + 1, col as u32 + 1)
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line as usize).saturating_sub(1);
        let start = self.line_starts.get(i).copied().unwrap_or(0) as usize;
        let end = self.line_starts.get(i + 1).map_or(self.text.len(), |&e| e as usize);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// The byte offset where each line starts (a line ends at `\n`, `\r\n` or a lone `\r`).
    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }
}

/// Where each line starts. A line ends at `\n`, `\r\n` or a lone `\r` (old Mac files),
/// as the grammar's comments and whitespace see it.
fn line_starts(text: &str) -> Vec<u32> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, &b) in bytes.iter().enumerate() {
        let ends_line = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        if ends_line {
            starts.push(i as u32 + 1);
        }
    }
    starts
}

/// A one-byte control character other than tab and the line breaks: what a terminal
/// could take as a command (ESC, BEL, backspace, DEL...).
fn is_hidden_control(c: char) -> bool {
    (c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{7f}'
}

/// `text` with every control character written as an escape (`\u{1b}`): for messages
/// and names that come from a user's files or command line and go to a terminal or into
/// generated comments.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(|c: char| c.is_control()) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// All files of one compilation.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (FileId(i as u32), f))
    }

    pub(crate) fn find_path(&self, path: &Path) -> Option<FileId> {
        self.files().find(|(_, f)| f.path.as_deref() == Some(path)).map(|(id, _)| id)
    }

    /// The source text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        let text = &self.get(span.file).text;
        text.get(span.range()).unwrap_or("")
    }

    /// `file:line:col` of the start of a span, as diagnostics and runtime errors print it.
    pub fn location(&self, span: Span) -> Location {
        let file = self.get(span.file);
        let (line, column) = file.line_col(span.start);
        Location { file: file.name.clone(), line, column }
    }
}

/// A human-readable position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based() {
        let f = SourceFile::new("a.tgdl", None, "ab\ncdè\nf");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(7), (2, 4)); // after the two-byte 'è'
        assert_eq!(f.line_col(8), (3, 1));
        assert_eq!(f.line_text(2), "cdè");
    }

    #[test]
    fn every_line_break_style_counts() {
        let f = SourceFile::new("a.tgdl", None, "a\rb\r\nc\nd");
        assert_eq!(f.line_starts(), &[0, 2, 5, 7]);
        assert_eq!(f.line_col(2), (2, 1));
        assert_eq!(f.line_text(2), "b");
        assert_eq!(f.line_col(7), (4, 1));
    }

    #[test]
    fn control_characters_are_shown_not_sent() {
        let f = SourceFile::new("a.tgdl", None, "say(\"\u{1b}[2J\u{7}\");\tok");
        assert_eq!(f.display_text(), "say(\"?[2J?\");\tok");
        assert_eq!(f.display_text().len(), f.text.len());
        assert_eq!(printable("a\nb\u{1b}"), "a\\nb\\u{1b}");
        assert_eq!(printable("plain"), "plain");
    }
}
