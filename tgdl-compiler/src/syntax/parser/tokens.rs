//! The file as a flat list of tokens, each with the role the grammar gave it (a `{` that
//! opens a block or a list literal, a `-` that negates or subtracts, a `;` that ends a
//! statement or sits in a `for` header). The formatter lays these out; comments and
//! whitespace are the text between tokens.

use super::{Pair, Rule, TgdlParser};
use crate::diagnostics::Diagnostic;
use crate::source::FileId;
use pest::Parser as _;
use std::ops::Range;

/// One token: its role and its byte range in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub span: Range<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// A keyword, name, number or string.
    Word,
    Open(Delim),
    Close(Delim),
    Comma,
    Semi(SemiKind),
    Colon(ColonKind),
    Dot,
    /// `..` in `players 2..6`.
    DotDot,
    /// A binary or assignment operator, `=` included.
    Infix,
    /// A unary `-` or `!` (and the sign of a `prio`).
    Prefix,
    /// A name or `b` in a `grid { }`.
    GridCell,
    /// The end of a grid row: a newline or `;`.
    GridEnd,
}

/// What a bracket delimits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Delim {
    /// A class, function, action, attribute, group or input body, or a statement block.
    Block,
    /// The body of `grid { }`.
    Grid,
    /// A list or table literal `{a, b}`.
    List,
    /// The initialisers of `new T() { a = 1 }`.
    Inits,
    /// A call's or `new T()`'s argument list.
    Call,
    /// A parenthesised expression or an `if`/`while`/`for` header.
    Paren,
    Index,
    /// `<` and `>` of `List<T>`.
    Angle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SemiKind {
    /// Ends a directive, member or statement (or is an empty statement).
    End,
    /// Separates the parts of a `for (init; cond; step)` header.
    ForHeader,
    /// A `;` after a construct that ends in a block.
    Stray,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ColonKind {
    /// `class Knight : Piece`.
    Base,
    /// `name: value` in a call.
    Arg,
}

/// The tokens of a file, or its syntax error (the same diagnostic [`super::parse`] gives).
#[allow(clippy::result_large_err)]
pub(crate) fn tokens(file: FileId, text: &str) -> Result<Vec<Token>, Diagnostic> {
    // The full parse enforces what the grammar alone does not (directive order, nesting).
    super::parse(file, text)?;
    let mut pairs = TgdlParser::parse(Rule::file, text).map_err(|_| {
        Diagnostic::error(crate::source::Span::new(file, 0, 0), "internal error: reparse failed")
    })?;
    // pest ends `=` and `.` (rules with a lookahead) after the whitespace that follows;
    // the pre-scan's tokens give the real end, as in `Builder::span`.
    let scanned = super::lexer::scan(text, super::MAX_DEPTH).tokens;
    let end_of = |start: usize, end: usize| {
        let last = scanned.partition_point(|t| t.end <= end);
        match last.checked_sub(1).map(|i| scanned[i].end) {
            Some(token_end) if token_end > start => token_end,
            _ => end,
        }
    };
    let mut out = Vec::new();
    // Depth-first with an explicit stack: nesting is bounded, but pest trees are deep.
    let mut stack: Vec<(Pair<'_>, Rule)> = pairs.next().map(|root| (root, Rule::file)).into_iter().collect();
    while let Some((pair, parent)) = stack.pop() {
        let rule = pair.as_rule();
        let span = pair.as_span();
        let mut inner = pair.clone().into_inner().peekable();
        if rule == Rule::string || inner.peek().is_none() {
            if span.start() < span.end() {
                out.push(Token {
                    kind: kind(rule, parent),
                    span: span.start()..end_of(span.start(), span.end()),
                });
            }
            continue;
        }
        let children: Vec<_> = inner.collect();
        stack.extend(children.into_iter().rev().map(|c| (c, rule)));
    }
    Ok(out)
}

/// The role of a leaf `rule` found directly inside `parent`.
fn kind(rule: Rule, parent: Rule) -> TokenKind {
    use TokenKind as K;
    let delim = || match parent {
        Rule::grid => Delim::Grid,
        Rule::brace_lit | Rule::param_choices => Delim::List,
        Rule::new_inits => Delim::Inits,
        Rule::call | Rule::new_expr | Rule::track_mod => Delim::Call,
        Rule::index => Delim::Index,
        Rule::generic_type => Delim::Angle,
        Rule::paren | Rule::if_stmt | Rule::while_stmt | Rule::for_stmt | Rule::for_in_stmt => Delim::Paren,
        _ => Delim::Block,
    };
    match rule {
        Rule::lbrace | Rule::lparen | Rule::lbracket | Rule::langle => K::Open(delim()),
        Rule::rbrace | Rule::rparen | Rule::rbracket | Rule::rangle => K::Close(delim()),
        Rule::comma => K::Comma,
        Rule::semi if parent == Rule::for_stmt => K::Semi(SemiKind::ForHeader),
        Rule::semi => K::Semi(SemiKind::End),
        Rule::stray_semi => K::Semi(SemiKind::Stray),
        Rule::colon if parent == Rule::arg => K::Colon(ColonKind::Arg),
        Rule::colon => K::Colon(ColonKind::Base),
        Rule::dot => K::Dot,
        Rule::dotdot => K::DotDot,
        Rule::eq | Rule::infix_op => K::Infix,
        Rule::prefix_op | Rule::minus => K::Prefix,
        Rule::grid_end => K::GridEnd,
        Rule::ident if parent == Rule::grid_body => K::GridCell,
        _ => K::Word,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tokens and the gaps between them (whitespace and comments) rebuild the text.
    #[test]
    fn tokens_cover_every_significant_character() {
        let text = "game G players 2..3; // c\nboard B { group G { grid {\n A b ; C\n } } }\n\
                    function f { returns number; effect { for (;;) { return -f(x: {1, 2}[0]); } } }\nsetup { }";
        let toks = tokens(FileId(0), text).unwrap();
        let mut at = 0;
        for t in &toks {
            let gap = &text[at..t.span.start];
            let stripped: String = gap.split("// c").collect();
            assert!(stripped.trim().is_empty(), "gap {gap:?}");
            at = t.span.end;
        }
        let kinds: Vec<_> = toks.iter().map(|t| (&text[t.span.clone()], t.kind)).collect();
        assert!(kinds.contains(&("..", TokenKind::DotDot)));
        assert!(kinds.contains(&("b", TokenKind::GridCell)));
        assert!(kinds.contains(&(";", TokenKind::GridEnd)));
        assert!(kinds.contains(&(";", TokenKind::Semi(SemiKind::ForHeader))));
        assert!(kinds.contains(&("-", TokenKind::Prefix)));
        assert!(kinds.contains(&(":", TokenKind::Colon(ColonKind::Arg))));
        assert!(kinds.contains(&("{", TokenKind::Open(Delim::List))));
        assert!(kinds.contains(&("[", TokenKind::Open(Delim::Index))));
    }
}
