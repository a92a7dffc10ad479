//! The canonical layout of a token stream.
//!
//! Structure decides the line breaks between members and statements: a block opens a new
//! indentation level of four spaces, a `;` or a `}` ends the line. A block written on one
//! line with at most one statement and no comment stays on one line (`{ return x; }`),
//! because the examples use that form for short bodies. Inside a statement the author's
//! line breaks are kept and re-indented (a continuation line is indented one level past
//! the line of its innermost open bracket, or past the statement); long lines are not
//! broken. Spacing between tokens depends only on their roles. Comments stay between the
//! same two tokens: a comment that ended a line still ends it (as far from the code as it
//! was, so aligned comments stay aligned), a comment on its own line stays on its own line.

use super::gaps::{self, Gap};
use super::grid;
use super::out::{INDENT, Out};
use crate::syntax::token::{Delim, SemiKind, Token, TokenKind as K};

/// Lays out `tokens` of `text` (which parsed).
pub(super) fn layout(text: &str, tokens: &[Token]) -> String {
    let mut at = 0;
    let mut gaps = Vec::with_capacity(tokens.len() + 1);
    for span in tokens.iter().map(|t| t.span.clone()).chain(std::iter::once(text.len()..text.len())) {
        gaps.push(gaps::gap(text, at..span.start));
        at = span.end;
    }
    let inline = inline_blocks(text, tokens, &gaps);
    let mut p =
        Printer { text, tokens, gaps, inline, out: Out::default(), blocks: Vec::new(), brackets: Vec::new() };
    p.run();
    let mut out = p.out.text;
    out.truncate(out.trim_end().len());
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// For each token that opens a block, whether the block stays on one line: it is empty,
/// or it was written on one line without comments and holds one statement or member
/// (whose own blocks stay on the line too: `{ effect { return "K"; } }`).
fn inline_blocks(text: &str, tokens: &[Token], gaps: &[Gap]) -> Vec<bool> {
    let mut inline = vec![false; tokens.len()];
    let mut open = Vec::new();
    for (c, t) in tokens.iter().enumerate() {
        match t.kind {
            K::Open(Delim::Block) => open.push(c),
            K::Close(Delim::Block) => {
                let Some(o) = open.pop() else { continue };
                let no_comment = gaps[o + 1..=c].iter().all(|g| g.comments.is_empty());
                let one_line = !text[tokens[o].span.end..t.span.start].contains('\n');
                inline[o] = no_comment && (o + 1 == c || (one_line && single(text, tokens, o, c, &inline)));
            }
            _ => {}
        }
    }
    inline
}

/// Whether the block `tokens[o..=c]` holds at most one statement or member, and every
/// block inside stays on one line.
fn single(text: &str, tokens: &[Token], o: usize, c: usize, inline: &[bool]) -> bool {
    let mut depth = 0;
    let mut ends = 0;
    for j in o + 1..c {
        match tokens[j].kind {
            K::Open(Delim::Grid) => return false,
            K::Open(Delim::Block) if !inline[j] => return false,
            K::Open(Delim::Block) => depth += 1,
            K::Close(Delim::Block) => {
                depth -= 1;
                // `} else` continues the statement.
                let next = &tokens[j + 1];
                let continues = next.kind == K::Word && &text[next.span.clone()] == "else"
                    || matches!(next.kind, K::Semi(_));
                if depth == 0 && !continues {
                    ends += 1;
                }
            }
            K::Semi(SemiKind::End | SemiKind::Stray) if depth == 0 => ends += 1,
            _ => {}
        }
    }
    ends <= 1
}

/// How two consecutive tokens are separated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sep {
    /// A new line at the block's indentation (blank lines kept, up to one).
    Line,
    /// `} else`: on the same line, or on the next one, as written.
    Else,
    /// Inside a statement: a space or nothing, or a continuation line where the author
    /// broke the line.
    Flow { space: bool },
}

/// Whether a space separates two tokens on one line.
fn space(p: K, t: K) -> bool {
    use Delim::*;
    let glued_before = matches!(
        t,
        K::Comma
            | K::Semi(_)
            | K::Dot
            | K::DotDot
            | K::Colon(crate::syntax::token::ColonKind::Arg)
            | K::Open(Call | Index | Angle)
            | K::Close(List | Call | Paren | Index | Angle)
    );
    let glued_after =
        matches!(p, K::Dot | K::DotDot | K::Prefix | K::Open(List | Call | Paren | Index | Angle));
    !glued_before && !glued_after
}

struct Printer<'a> {
    text: &'a str,
    tokens: &'a [Token],
    /// `gaps[i]` is the text before token `i`; the last one follows the last token.
    gaps: Vec<Gap>,
    inline: Vec<bool>,
    out: Out,
    /// Open blocks: whether each stays on one line.
    blocks: Vec<bool>,
    /// Open brackets inside a statement: the indentation of the line that opened each.
    brackets: Vec<usize>,
}

impl Printer<'_> {
    fn run(&mut self) {
        let n = self.tokens.len();
        let mut i = 0;
        while i < n {
            if i == 0 {
                self.leading(&self.gaps[0].clone());
            } else {
                let sep = self.sep(i);
                self.separate(i, sep);
            }
            let t = &self.tokens[i];
            self.out.push_str(&self.text[t.span.clone()]);
            match t.kind {
                K::Open(Delim::Block) => {
                    self.blocks.push(self.inline[i]);
                    if !self.inline[i] {
                        self.out.level += 1;
                    }
                }
                K::Open(Delim::Grid) => i = self.grid(i),
                K::Open(_) => self.brackets.push(self.out.line_indent),
                K::Close(Delim::Block | Delim::Grid) => {}
                K::Close(_) => {
                    self.brackets.pop();
                }
                _ => {}
            }
            i += 1;
        }
        let last = self.gaps[n].clone();
        let mut broke = false;
        for c in &last.comments {
            if c.newlines_before == 0 && !broke && !self.out.line_is_blank() {
                self.out.trailing(c);
            } else {
                self.out.newline(c.newlines_before >= 2, self.out.level * INDENT);
                self.out.push_str(&c.text);
            }
            broke = c.is_line;
        }
    }

    /// Comments before the first token, each on its own line.
    fn leading(&mut self, gap: &Gap) {
        for c in &gap.comments {
            self.out.newline(c.newlines_before >= 2, 0);
            self.out.push_str(&c.text);
        }
        if !gap.comments.is_empty() {
            self.out.newline(gap.newlines_after >= 2, 0);
        }
    }

    fn sep(&self, i: usize) -> Sep {
        let (p, t) = (self.tokens[i - 1].kind, self.tokens[i].kind);
        let top_inline = self.blocks.last().copied().unwrap_or(false);
        match (p, t) {
            (_, K::Close(Delim::Block)) | (K::Open(Delim::Block), _) => {
                if top_inline {
                    Sep::Flow { space: true }
                } else {
                    Sep::Line
                }
            }
            // `};`: an empty statement or a stray `;` stays on the line of the `}`.
            (K::Close(Delim::Block | Delim::Grid), K::Semi(_)) => Sep::Flow { space: false },
            (K::Close(Delim::Block | Delim::Grid), K::Word)
                if &self.text[self.tokens[i].span.clone()] == "else" =>
            {
                Sep::Else
            }
            (K::Close(Delim::Block | Delim::Grid) | K::Semi(SemiKind::End | SemiKind::Stray), _)
                if !top_inline =>
            {
                Sep::Line
            }
            _ => Sep::Flow { space: space(p, t) },
        }
    }

    /// Writes the comments before token `i`, then what separates it from the previous one.
    fn separate(&mut self, i: usize, sep: Sep) {
        let gap = self.gaps[i].clone();
        let comment_indent = match sep {
            Sep::Line | Sep::Else => self.out.level * INDENT,
            Sep::Flow { .. } => self.continuation(i),
        };
        let mut must_break = false;
        for c in &gap.comments {
            if c.newlines_before == 0 && !must_break {
                self.out.trailing(c);
            } else {
                let blank =
                    c.newlines_before >= 2 && sep != (Sep::Flow { space: false }) && self.out.blank_allowed();
                self.out.newline(blank, comment_indent);
                self.out.push_str(&c.text);
            }
            must_break = c.is_line;
        }
        if self.tokens[i].kind == K::Close(Delim::Block) && self.blocks.pop() == Some(false) {
            self.out.level -= 1;
        }
        let wrote_comment = !gap.comments.is_empty();
        match sep {
            Sep::Line => {
                let blank = gap.newlines_after >= 2
                    && self.tokens[i].kind != K::Close(Delim::Block)
                    && self.out.blank_allowed();
                self.out.newline(blank, self.out.level * INDENT);
            }
            Sep::Else => {
                if must_break || gap.has_newline() {
                    self.out.newline(false, self.out.level * INDENT);
                } else {
                    self.out.push(' ');
                }
            }
            Sep::Flow { space } => {
                if must_break || gap.newlines_after > 0 {
                    let indent = self.continuation(i);
                    self.out.newline(false, indent);
                } else if (space || wrote_comment) && !self.out.line_is_blank() {
                    self.out.push(' ');
                }
            }
        }
    }

    /// The indentation of a continuation line starting with token `i`: one level past
    /// the line that opened the innermost open bracket (or past the statement); a line
    /// starting with closing brackets goes back to the line that opened them.
    fn continuation(&self, i: usize) -> usize {
        let closers = self.tokens[i..]
            .iter()
            .take_while(|t| matches!(t.kind, K::Close(d) if d != Delim::Block && d != Delim::Grid))
            .count()
            .min(self.brackets.len());
        if closers > 0 {
            return self.brackets[self.brackets.len() - closers];
        }
        self.brackets.last().copied().unwrap_or(self.out.level * INDENT) + INDENT
    }

    /// Lays out a grid whose `{` is token `open` (already written); returns the index of
    /// its `}`, written too.
    fn grid(&mut self, open: usize) -> usize {
        let close = (open + 1..self.tokens.len())
            .find(|&j| self.tokens[j].kind == K::Close(Delim::Grid))
            .unwrap_or(self.tokens.len() - 1);
        let cells = self.tokens[open + 1..close].iter().map(|t| (t.kind, &self.text[t.span.clone()]));
        let grid = grid::rows(cells, &self.gaps[open + 1..=close]);
        grid::write(&mut self.out, &grid);
        close
    }
}
