//! The text between two tokens: whitespace and comments only (the grammar skips nothing
//! else). The formatter keeps the comments and how many newlines surround them.

/// One comment between two tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Comment {
    /// The comment as written (`// ...` without trailing blanks, or `/* ... */`).
    pub text: String,
    /// Newlines between the previous token (or comment) and this comment.
    pub newlines_before: usize,
    /// Blanks between it and the code before it on its line: a trailing comment keeps
    /// its distance (and so an aligned column of comments stays aligned).
    pub spaces_before: usize,
    /// A `//` comment: the line must end after it.
    pub is_line: bool,
}

/// A gap: its comments in order, and the newlines after the last of them (after the
/// previous token when there is no comment).
#[derive(Clone, Debug, Default)]
pub(super) struct Gap {
    pub comments: Vec<Comment>,
    pub newlines_after: usize,
}

impl Gap {
    /// Whether the gap holds a line break anywhere.
    pub(super) fn has_newline(&self) -> bool {
        self.newlines_after > 0
            || self.comments.iter().any(|c| c.newlines_before > 0 || c.text.contains('\n'))
    }
}

/// Splits `text[range]` into comments and newline counts.
pub(super) fn gap(text: &str, range: std::ops::Range<usize>) -> Gap {
    let mut out = Gap::default();
    let mut newlines = 0;
    let mut i = range.start;
    while i < range.end {
        let rest = &text[i..range.end];
        if rest.starts_with("//") || rest.starts_with("/*") {
            let is_line = rest.starts_with("//");
            let len = if is_line {
                rest.find('\n').unwrap_or(rest.len())
            } else {
                rest.find("*/").map_or(rest.len(), |e| e + 2)
            };
            let spaces_before =
                text[range.start..i].chars().rev().take_while(|c| *c == ' ' || *c == '\t').count();
            let raw = &rest[..len];
            let body = if is_line { raw.trim_end() } else { raw };
            out.comments.push(Comment {
                text: body.replace('\r', ""),
                newlines_before: newlines,
                spaces_before,
                is_line,
            });
            newlines = 0;
            i += len;
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        if c == '\n' {
            newlines += 1;
        }
        i += c.len_utf8();
    }
    out.newlines_after = newlines;
    out
}

/// Every comment of a file, in order (the formatter must keep them all).
pub(super) fn all_comments(text: &str, tokens: &[crate::syntax::token::Token]) -> Vec<String> {
    let mut at = 0;
    let mut out = Vec::new();
    for span in tokens.iter().map(|t| t.span.clone()).chain(std::iter::once(text.len()..text.len())) {
        out.extend(gap(text, at..span.start).comments.into_iter().map(|c| c.text));
        at = span.end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_newlines() {
        let text = "x; // a  \n\n  /* b\n c */ y";
        let g = gap(text, 2..text.len() - 1);
        assert_eq!(g.comments.len(), 2);
        assert_eq!(g.comments[0].text, "// a");
        assert_eq!((g.comments[0].newlines_before, g.comments[0].spaces_before), (0, 1));
        assert_eq!(g.comments[1].newlines_before, 2);
        assert_eq!(g.newlines_after, 0);
    }
}
