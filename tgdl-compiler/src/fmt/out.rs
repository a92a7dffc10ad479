//! The text the formatter writes: indentation, line ends, blank lines and comments that
//! end a line. The layout of tokens (`layout.rs`) and of grids (`grid.rs`) both write
//! through it.

use super::gaps::Comment;

/// The spaces of one indentation level.
pub(super) const INDENT: usize = 4;

#[derive(Default)]
pub(super) struct Out {
    pub(super) text: String,
    /// Indentation level: the blocks open and laid out over several lines.
    pub(super) level: usize,
    /// The indentation of the line being written.
    pub(super) line_indent: usize,
}

impl Out {
    pub(super) fn push(&mut self, c: char) {
        self.text.push(c);
    }

    pub(super) fn push_str(&mut self, s: &str) {
        self.text.push_str(s);
    }

    /// A comment that followed code on its line: as far from the code as it was (at
    /// least one space).
    pub(super) fn trailing(&mut self, c: &Comment) {
        self.trim_line_end();
        let pad = if self.line_is_blank() { 0 } else { c.spaces_before.max(1) };
        self.text.extend(std::iter::repeat_n(' ', pad));
        self.text.push_str(&c.text);
    }

    /// Ends the line (with one blank line when `blank`) and indents the next one.
    pub(super) fn newline(&mut self, blank: bool, indent: usize) {
        self.trim_line_end();
        if !self.text.is_empty() {
            self.text.push('\n');
            if blank {
                self.text.push('\n');
            }
        }
        self.text.extend(std::iter::repeat_n(' ', indent));
        self.line_indent = indent;
    }

    fn trim_line_end(&mut self) {
        let trimmed = self.text.trim_end_matches(' ').len();
        self.text.truncate(trimmed);
    }

    pub(super) fn line_is_blank(&self) -> bool {
        let line_start = self.text.rfind('\n').map_or(0, |n| n + 1);
        self.text[line_start..].trim().is_empty()
    }

    /// No blank line at the start of a block or of the file.
    pub(super) fn blank_allowed(&self) -> bool {
        let code = self.text.trim_end();
        !code.is_empty() && !code.ends_with('{')
    }
}
