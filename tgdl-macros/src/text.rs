//! The TGDL text of an inline `tgdl!` input, rebuilt from its Rust tokens, with a map
//! from every byte range of the text back to the token that produced it.
//!
//! Rust's lexer has dropped the comments and, as far as the token stream goes, the line
//! breaks. When the compiler tells where each token is (Rust 1.88 and later), every token
//! is put back at its line and column, so the text lines up with the Rust file: a TGDL
//! diagnostic then names the Rust file, line and column, and so do the runtime errors of
//! the generated engine. Otherwise (older compilers, tokens from several macro expansions)
//! the tokens are laid out afresh, one statement per line, and the file is `<tgdl!>`.
//!
//! Either way a grid row inside the macro must end with `;` (a `.tgdl` file may end rows
//! with line breaks): [`TokenText::build`] reports a row that does not, rather than let
//! the rows run together on compilers where no line break reaches the macro.

use proc_macro2::{Delimiter, LineColumn, Span, TokenStream, TokenTree};
use std::ops::Range;

/// The name of the inline text in diagnostics when the tokens' file is unknown.
pub const UNKNOWN_FILE: &str = "<tgdl!>";

/// TGDL text rebuilt from tokens.
#[derive(Debug)]
pub struct TokenText {
    /// The file the tokens come from (for diagnostics), or [`UNKNOWN_FILE`].
    pub name: String,
    pub text: String,
    /// The byte range each token occupies in `text`, in order.
    pieces: Vec<(Range<usize>, Span)>,
    /// Macro-level problems found while rebuilding (grid rows without `;`).
    pub errors: Vec<MacroError>,
}

/// An error about the macro's input itself, spanning the tokens `start..=end`.
#[derive(Clone, Debug)]
pub struct MacroError {
    pub start: Span,
    pub end: Span,
    pub message: String,
}

/// One token of the input, with groups flattened into their delimiters.
#[derive(Clone, Debug)]
struct Tok {
    text: String,
    span: Span,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An identifier or a literal.
    Word,
    /// A punctuation character; `joint` when the next character follows it directly.
    Punct {
        joint: bool,
    },
    Open(Delimiter),
    Close(Delimiter),
}

impl Tok {
    fn is_punct(&self, c: char) -> bool {
        matches!(self.kind, Kind::Punct { .. }) && self.text.starts_with(c)
    }
}

impl TokenText {
    /// Rebuilds the text of `input`, placing tokens at their source positions when the
    /// compiler provides them.
    pub fn build(input: TokenStream) -> TokenText {
        Self::build_with(input, true)
    }

    /// Rebuilds the text of `input`; at the tokens' positions when `use_positions` and
    /// they are known and consistent, else laid out afresh.
    fn build_with(input: TokenStream, use_positions: bool) -> TokenText {
        let mut toks = Vec::new();
        flatten(input, &mut toks);
        let positions = if use_positions { source_positions(&toks) } else { None };
        let mut text = String::new();
        let mut pieces = Vec::with_capacity(toks.len());
        let name = match &positions {
            Some((file, starts)) => {
                place_at_positions(&toks, starts, &mut text, &mut pieces);
                file.clone()
            }
            None => {
                place_fresh(&toks, &mut text, &mut pieces);
                UNKNOWN_FILE.to_string()
            }
        };
        let errors = grid_rows(&toks, positions.as_ref().map(|(_, starts)| starts.as_slice()));
        TokenText { name, text, pieces, errors }
    }

    /// The first and last token covering a byte range of the text: the token the range
    /// starts in (or the next one, if it starts between tokens) and the last token it
    /// overlaps. A range past the end maps to the last token; an empty input to the call
    /// site.
    pub fn spans(&self, range: Range<usize>) -> (Span, Span) {
        if self.pieces.is_empty() {
            return (Span::call_site(), Span::call_site());
        }
        let first = self.pieces.partition_point(|(r, _)| r.end <= range.start).min(self.pieces.len() - 1);
        let last = if range.end > range.start {
            self.pieces.partition_point(|(r, _)| r.start < range.end).saturating_sub(1).max(first)
        } else {
            first
        };
        (self.pieces[first].1, self.pieces[last].1)
    }
}

/// Flattens a token stream. Doc comments (`///`, `//!`) reach a macro as `#[doc = ".."]`
/// attributes: TGDL has no attributes, so they are dropped like other comments. Groups
/// without delimiters (from `macro_rules!` fragments) contribute their tokens.
fn flatten(stream: TokenStream, out: &mut Vec<Tok>) {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        if let Some(len) = doc_attribute(&trees[i..]) {
            i += len;
            continue;
        }
        match &trees[i] {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => flatten(g.stream(), out),
            TokenTree::Group(g) => {
                let (open, close) = delimiters(g.delimiter());
                out.push(Tok {
                    text: open.to_string(),
                    span: g.span_open(),
                    kind: Kind::Open(g.delimiter()),
                });
                flatten(g.stream(), out);
                out.push(Tok {
                    text: close.to_string(),
                    span: g.span_close(),
                    kind: Kind::Close(g.delimiter()),
                });
            }
            TokenTree::Ident(ident) => {
                out.push(Tok { text: ident.to_string(), span: ident.span(), kind: Kind::Word })
            }
            TokenTree::Literal(lit) => {
                out.push(Tok { text: lit.to_string(), span: lit.span(), kind: Kind::Word })
            }
            TokenTree::Punct(p) => out.push(Tok {
                text: p.as_char().to_string(),
                span: p.span(),
                kind: Kind::Punct { joint: p.spacing() == proc_macro2::Spacing::Joint },
            }),
        }
        i += 1;
    }
}

/// The number of trees of a doc attribute (`# [doc ...]` or `# ! [doc ...]`) at the start
/// of `trees`, if there is one.
fn doc_attribute(trees: &[TokenTree]) -> Option<usize> {
    let TokenTree::Punct(hash) = trees.first()? else { return None };
    if hash.as_char() != '#' {
        return None;
    }
    let bang = matches!(trees.get(1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
    let at = if bang { 2 } else { 1 };
    let TokenTree::Group(group) = trees.get(at)? else { return None };
    let is_doc = group.delimiter() == Delimiter::Bracket
        && matches!(group.stream().into_iter().next(), Some(TokenTree::Ident(i)) if i == "doc");
    is_doc.then_some(at + 1)
}

fn delimiters(delimiter: Delimiter) -> (char, char) {
    match delimiter {
        Delimiter::Parenthesis => ('(', ')'),
        Delimiter::Brace => ('{', '}'),
        Delimiter::Bracket => ('[', ']'),
        Delimiter::None => (' ', ' '),
    }
}

/// The file and the start of every token, when they are usable: every token has a known
/// line, all come from one file, and they follow each other without overlapping.
fn source_positions(toks: &[Tok]) -> Option<(String, Vec<LineColumn>)> {
    let first = toks.first()?;
    let file = first.span.file();
    let mut starts = Vec::with_capacity(toks.len());
    let mut previous: Option<(LineColumn, LineColumn)> = None;
    for tok in toks {
        let (start, end) = (tok.span.start(), tok.span.end());
        if start.line == 0 || end < start || tok.span.file() != file {
            return None;
        }
        if let Some((previous_start, previous_end)) = previous {
            if start <= previous_start || start < previous_end {
                return None;
            }
        }
        previous = Some((start, end));
        starts.push(start);
    }
    (!file.is_empty()).then_some((file, starts))
}

/// Places every token at its line and column (columns count characters, as the compiler
/// and the TGDL diagnostics do), so lines of the text are lines of the Rust file.
fn place_at_positions(
    toks: &[Tok],
    starts: &[LineColumn],
    text: &mut String,
    pieces: &mut Vec<(Range<usize>, Span)>,
) {
    let (mut line, mut column) = (1, 0);
    for (tok, start) in toks.iter().zip(starts) {
        if start.line > line {
            text.extend(std::iter::repeat_n('\n', start.line - line));
            line = start.line;
            column = 0;
        }
        if start.column > column {
            text.extend(std::iter::repeat_n(' ', start.column - column));
            column = start.column;
        } else if start.column < column {
            // A token longer than its span (never seen): keep tokens apart.
            text.push(' ');
            column += 1;
        }
        let at = text.len();
        text.push_str(&tok.text);
        pieces.push((at..text.len(), tok.span));
        for c in tok.text.chars() {
            if c == '\n' {
                line += 1;
                column = 0;
            } else {
                column += 1;
            }
        }
    }
}

/// Lays tokens out afresh: a block's statements one per line, indented; tokens separated
/// by a space except where punctuation reads better tight (`f(x)`, `a.b`, `x;`, `-1`,
/// `{1, 2}`).
fn place_fresh(toks: &[Tok], text: &mut String, pieces: &mut Vec<(Range<usize>, Span)>) {
    let blocks = block_braces(toks);
    // For every open group: whether it is a block (statements on lines of their own).
    let mut stack: Vec<bool> = Vec::new();
    let mut indent = 0usize;
    let mut line_start = true;
    for (i, tok) in toks.iter().enumerate() {
        let in_block = stack.last().is_none_or(|&block| block);
        let closes = matches!(tok.kind, Kind::Close(_));
        let closes_block = closes && stack.last() == Some(&true);
        if closes_block {
            indent = indent.saturating_sub(1);
            if !line_start {
                text.push('\n');
                line_start = true;
            }
        }
        if line_start {
            text.extend(std::iter::repeat_n("    ", indent));
        } else if i > 0 {
            let before = &toks[i - 1];
            let after_literal_brace = before.kind == Kind::Open(Delimiter::Brace) && !blocks[i - 1];
            let before_literal_brace = tok.kind == Kind::Close(Delimiter::Brace) && !closes_block;
            let after_unary = i > 1 && before.is_punct('-') && operand_expected(&toks[i - 2]);
            if spaced(before, tok) && !after_literal_brace && !before_literal_brace && !after_unary {
                text.push(' ');
            }
        }
        let at = text.len();
        text.push_str(&tok.text);
        pieces.push((at..text.len(), tok.span));
        line_start = false;
        match tok.kind {
            Kind::Open(_) => {
                stack.push(blocks[i]);
                if blocks[i] {
                    indent += 1;
                    text.push('\n');
                    line_start = true;
                }
            }
            Kind::Close(_) => {
                stack.pop();
                if closes_block {
                    text.push('\n');
                    line_start = true;
                }
            }
            _ if tok.is_punct(';') && in_block => {
                text.push('\n');
                line_start = true;
            }
            _ => {}
        }
    }
}

/// Whether an operand is expected after `tok` (so a `-` there is a sign, not a minus).
fn operand_expected(tok: &Tok) -> bool {
    match tok.kind {
        Kind::Punct { .. } | Kind::Open(_) => true,
        Kind::Word => matches!(tok.text.as_str(), "return" | "value" | "prio" | "winner"),
        Kind::Close(_) => false,
    }
}

/// For every token, whether it opens a block: a brace group holding a `;` or a block of
/// its own (not a brace literal like `{1, 2}` or `{player.all()}`).
fn block_braces(toks: &[Tok]) -> Vec<bool> {
    let mut blocks = vec![false; toks.len()];
    let mut open: Vec<usize> = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        match tok.kind {
            Kind::Open(_) => open.push(i),
            Kind::Close(_) => {
                if let Some(start) = open.pop() {
                    if blocks[start] {
                        if let Some(&parent) = open.last() {
                            blocks[parent] |= toks[parent].kind == Kind::Open(Delimiter::Brace);
                        }
                    }
                }
            }
            _ if tok.is_punct(';') => {
                if let Some(&parent) = open.last() {
                    blocks[parent] |= toks[parent].kind == Kind::Open(Delimiter::Brace);
                }
            }
            _ => {}
        }
    }
    blocks
}

/// Whether a space goes between two adjacent tokens in the fresh layout.
fn spaced(before: &Tok, after: &Tok) -> bool {
    if matches!(before.kind, Kind::Punct { joint: true }) {
        return false;
    }
    let tight_after = before.is_punct('.')
        || before.is_punct('!')
        || matches!(before.kind, Kind::Open(Delimiter::Parenthesis | Delimiter::Bracket));
    // A call or an index: `f(`, `xs[`, `f(a)[`, but `if (`.
    let callee = match before.kind {
        Kind::Word => !matches!(before.text.as_str(), "if" | "while" | "for" | "return" | "winner" | "throw"),
        Kind::Close(Delimiter::Parenthesis | Delimiter::Bracket) => true,
        _ => false,
    };
    let tight_before = after.is_punct(';')
        || after.is_punct(',')
        || after.is_punct('.')
        || after.is_punct(':')
        || matches!(after.kind, Kind::Close(Delimiter::Parenthesis | Delimiter::Bracket))
        || (callee && matches!(after.kind, Kind::Open(Delimiter::Parenthesis | Delimiter::Bracket)));
    !(tight_after || tight_before)
}

/// Every grid row must end with `;`: checks each `grid { ... }`. With positions, a row is
/// what stands on one line; without, only the last row can be checked.
fn grid_rows(toks: &[Tok], starts: Option<&[LineColumn]>) -> Vec<MacroError> {
    let mut errors = Vec::new();
    for (i, pair) in toks.windows(2).enumerate() {
        let is_grid = pair[0].kind == Kind::Word
            && pair[0].text == "grid"
            && pair[1].kind == Kind::Open(Delimiter::Brace);
        if !is_grid {
            continue;
        }
        let body_start = i + 2;
        let mut depth = 0usize;
        let mut body_end = toks.len();
        for (j, tok) in toks.iter().enumerate().skip(body_start) {
            match tok.kind {
                Kind::Open(_) => depth += 1,
                Kind::Close(_) if depth == 0 => {
                    body_end = j;
                    break;
                }
                Kind::Close(_) => depth -= 1,
                _ => {}
            }
        }
        let body = &toks[body_start..body_end];
        let mut unended: Vec<usize> = Vec::new();
        if let Some(starts) = starts {
            for k in body_start..body_end.saturating_sub(1) {
                let next_line = starts[k + 1].line;
                if next_line > toks[k].span.end().line && !toks[k].is_punct(';') {
                    unended.push(k);
                }
            }
        }
        if body.last().is_some_and(|t| !t.is_punct(';')) {
            unended.push(body_end - 1);
        }
        // One error per grid, at its first row without `;`: a grid pasted from a `.tgdl`
        // file lacks them on every row, and an error per row would bury the one fix.
        let Some(&first) = unended.first() else { continue };
        // The row is the run of tokens since the last `;` (or the opening brace).
        let row_start =
            (body_start..first).rev().find(|&r| toks[r].is_punct(';')).map_or(body_start, |r| r + 1);
        let rows = if unended.len() == 1 {
            "grid row without `;`".to_string()
        } else {
            format!("grid rows without `;` (this row and {} more in this grid)", unended.len() - 1)
        };
        errors.push(MacroError {
            start: toks[row_start].span,
            end: toks[first].span,
            message: format!(
                "{rows}\n  = help: inside `tgdl!`, end every grid row with `;`: the macro receives Rust \
                 tokens, which do not carry the line breaks that end rows in a `.tgdl` file"
            ),
        });
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(source: &str) -> TokenText {
        TokenText::build_with(source.parse().unwrap(), false)
    }

    fn positioned(source: &str) -> TokenText {
        TokenText::build_with(source.parse().unwrap(), true)
    }

    #[test]
    fn tokens_round_trip_in_the_fresh_layout() {
        let t = fresh(
            r#"game Uno players 2..6; global class S { number n = 1.5; string s = "a \"q\" \\ b\n"; }
               setup { if (a && !b || c != d) { n += 2; x.y(k: 1)[0] = -3; } winner {player.all()}; }"#,
        );
        assert_eq!(t.name, UNKNOWN_FILE);
        assert_eq!(
            t.text,
            "game Uno players 2..6;\nglobal class S {\n    number n = 1.5;\n    string s = \"a \\\"q\\\" \\\\ b\\n\";\n}\n\
             setup {\n    if (a && !b || c != d) {\n        n += 2;\n        x.y(k: 1)[0] = -3;\n    }\n    \
             winner {player.all()};\n}\n"
        );
        assert!(t.errors.is_empty());
    }

    #[test]
    fn tokens_keep_their_lines_and_columns_when_known() {
        // Outside a proc macro, proc-macro2 knows the positions of parsed text.
        let source = "game Nim players 2;\n  // a comment\n  setup {   x += 1; }";
        let t = positioned(source);
        assert_eq!(t.text, "game Nim players 2;\n\n  setup {   x += 1; }");
    }

    #[test]
    fn doc_comments_are_dropped() {
        let t = fresh("/// about\ngame G players 2; //! inner\n setup { }");
        assert_eq!(t.text, "game G players 2;\nsetup {}");
    }

    #[test]
    fn ranges_map_to_their_tokens() {
        let source = "game Nim players 2;\nsetup { lef -= 1; }";
        for t in [positioned(source), fresh(source)] {
            let at = t.text.find("lef").unwrap();
            let (start, end) = t.spans(at..at + 3);
            assert_eq!(start.start(), LineColumn { line: 2, column: 8 });
            assert_eq!(end.start(), start.start());
            // A range over several tokens ends at the last one it overlaps.
            let (start, end) = t.spans(at..t.text.find("1;").unwrap() + 1);
            assert_eq!((start.start().column, end.start().column), (8, 15));
            // Between tokens: the next token; past the end: the last one.
            let (start, _) = t.spans(at - 1..at - 1);
            assert_eq!(start.start().column, 8);
            let (start, _) = t.spans(t.text.len()..t.text.len());
            assert_eq!(start.start(), LineColumn { line: 2, column: 18 });
        }
    }

    #[test]
    fn empty_input_maps_to_the_call_site() {
        let t = fresh("");
        assert_eq!(t.text, "");
        let (start, _) = t.spans(0..0);
        assert_eq!(format!("{start:?}"), format!("{:?}", Span::call_site()));
    }

    #[test]
    fn grid_rows_must_end_with_semicolons() {
        let ok = "board B { group G { geometry square; grid {\n A A;\n b A;\n } } }";
        assert!(positioned(ok).errors.is_empty());
        assert!(fresh(ok).errors.is_empty());
        assert!(positioned("grid { A A; }").errors.is_empty());

        let newline_rows = "grid {\n A A\n b A;\n}";
        let errors = positioned(newline_rows).errors;
        assert_eq!(errors.len(), 1);
        assert_eq!((errors[0].start.start().line, errors[0].start.start().column), (2, 1));
        assert_eq!(errors[0].end.start().column, 3);
        assert!(errors[0].message.starts_with("grid row without `;`"));
        // Without positions only the last row can be seen.
        assert!(fresh(newline_rows).errors.is_empty());
        let errors = fresh("grid { A A; b A }").errors;
        assert_eq!(errors.len(), 1);
        assert_eq!((errors[0].start.start().column, errors[0].end.start().column), (12, 14));
        // A grid pasted from a `.tgdl` file, no row ended: one error, at the first row.
        let pasted = "grid {\n A A A\n b A A\n A A b\n A b A\n}";
        let errors = positioned(pasted).errors;
        assert_eq!(errors.len(), 1, "{:?}", errors.iter().map(|e| &e.message).collect::<Vec<_>>());
        assert_eq!((errors[0].start.start().line, errors[0].end.start().column), (2, 5));
        assert!(errors[0].message.starts_with("grid rows without `;` (this row and 3 more in this grid)"));
        // Two grids: one error each.
        assert_eq!(positioned("grid {\n A A\n A A\n}\ngrid {\n B B\n B B\n}").errors.len(), 2);
        // `grid` as a plain name is not a grid.
        assert!(fresh("number grid = 2;").errors.is_empty());
    }
}
