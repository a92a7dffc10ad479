//! Syntax errors: pest's failures and the pre-scan's findings as `E0001` diagnostics that
//! name what was expected in plain words (never a grammar rule name) and, where the fix
//! is obvious, say it.

use super::lexer::{LexError, LexErrorKind, Scan};
use super::{Rule, TgdlParser, syntax_error};
use crate::diagnostics::Diagnostic;
use crate::source::{FileId, Span};
use pest::Parser as _;
use pest::error::{ErrorVariant, InputLocation};

/// Whether `word` is a reserved word, as the grammar's `keyword` rule says.
fn is_keyword(word: &str) -> bool {
    TgdlParser::parse(Rule::keyword, word).is_ok_and(|pairs| pairs.as_str().len() == word.len())
}

pub(super) fn too_deep(span: Span, max: usize) -> Box<Diagnostic> {
    Box::new(syntax_error(span, "nested too deeply").label("nesting limit reached here").help(format!(
        "at most {max} levels of nesting are allowed; split the expression or block \
         with local variables or functions"
    )))
}

pub(super) fn too_long_chain(span: Span, max: usize) -> Box<Diagnostic> {
    Box::new(
        syntax_error(span, "too many `else if` branches in one chain")
            .label("the chain is too long from here")
            .help(format!("at most {max} `else if` branches follow one `if`; look the value up in a list or table instead")),
    )
}

/// An error found by the pre-scan.
pub(super) fn lexical(file: FileId, text: &str, err: &LexError) -> Box<Diagnostic> {
    let span = Span::new(file, err.span.start, err.span.end);
    Box::new(match err.kind {
        LexErrorKind::UnterminatedString => syntax_error(span, "unterminated string")
            .label("this string is never closed")
            .help("close it with `\"` on the same line; write `\\n` for a line break inside a string"),
        LexErrorKind::UnterminatedComment => syntax_error(span, "unterminated block comment")
            .label("this comment is never closed")
            .help("close it with `*/`"),
        LexErrorKind::UnknownEscape => {
            let escape = text.get(err.span.clone()).unwrap_or("\\");
            syntax_error(span, format!("unknown escape `{escape}` in a string"))
                .label("unknown escape")
                .help("the escapes are `\\\"`, `\\\\`, `\\n` and `\\t`; write `\\\\` for a backslash")
        }
        LexErrorKind::ControlCharacter => {
            let byte = text.as_bytes().get(err.span.start).copied().unwrap_or(0);
            syntax_error(span, format!("a string cannot hold the control character U+{byte:04X}"))
                .label("raw control character")
                .help("strings are shown on terminals, where control characters are commands; write `\\n` or `\\t` for a line break or a tab")
        }
        LexErrorKind::TooDeep => return too_deep(span, super::MAX_DEPTH),
    })
}

/// Turns pest's failure into a diagnostic at the offending token.
pub(super) fn from_pest(
    file: FileId,
    text: &str,
    scan: &Scan,
    err: pest::error::Error<Rule>,
) -> Box<Diagnostic> {
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((start, _)) => start,
    };
    // A string or comment pest could not read: the pre-scan knows why.
    if let Some(lex) = scan.error.as_ref().filter(|e| e.token_start <= pos) {
        return lexical(file, text, lex);
    }
    let found = Found::at(text, scan, pos);
    let span = Span::new(file, found.range.start, found.range.end);
    let positives = match err.variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        // pest's own call and stack limits.
        ErrorVariant::CustomError { .. } => return too_deep(span, super::MAX_DEPTH),
    };
    if let Some(op @ ("++" | "--")) = found.token {
        let fix = if op == "++" { "x += 1" } else { "x -= 1" };
        return Box::new(
            syntax_error(span, format!("TGDL has no `{op}` operator"))
                .label("not an operator")
                .help(format!("write `{fix}` instead")),
        );
    }
    let expected = expected_list(&positives);
    let message = match &expected {
        Some(list) => format!("expected {list}, found {}", found.describe()),
        None => format!("unexpected {}", found.describe()),
    };
    let diag = syntax_error(span, message).label(match &expected {
        Some(list) => format!("expected {list}"),
        None => "unexpected here".to_owned(),
    });
    Box::new(hints(diag, file, text, scan, &found, &positives))
}

/// Help lines (and labels) for the common mistakes: a missing `;`, an unclosed bracket at
/// the end of the file, a reserved word as a name, quotes, non-ASCII names, statements at
/// the top level.
fn hints(
    mut diag: Diagnostic,
    file: FileId,
    text: &str,
    scan: &Scan,
    found: &Found,
    positives: &[Rule],
) -> Diagnostic {
    let pos = found.range.start;
    let expects = |rule: Rule| positives.contains(&rule);
    let non_ascii_letter =
        found.token.is_some_and(|t| t.chars().next().is_some_and(|c| !c.is_ascii() && c.is_alphabetic()));
    if expects(Rule::semi) && !non_ascii_letter {
        if let Some(prev) = scan.token_before(pos) {
            let prev_text = text.get(prev.clone()).unwrap_or("");
            if prev_text != ";" && prev_text.chars().count() <= 30 {
                diag = diag
                    .secondary(Span::new(file, prev.start, prev.end), "`;` expected after this")
                    .help(format!("add `;` after `{prev_text}`"));
            }
        }
    }
    if found.token.is_none() {
        if let Some(&(open, bracket)) = scan.unclosed.last() {
            let (line, column) = line_col(text, open);
            if !found.range.contains(&open) {
                diag = diag.secondary(Span::new(file, open, open + 1), "unclosed");
            }
            diag = diag.help(format!("the `{bracket}` at line {line}, column {column} is never closed"));
        }
    }
    if let Some(word) = found.token.filter(|w| is_keyword(w)) {
        if expects(Rule::expr) || expects(Rule::primary) {
            diag = diag.help(format!(
                "`{word}` is a reserved word, not a name; a member called `{word}` is read as \
                 `this.{word}`"
            ));
        } else if expects(Rule::ident) {
            diag = diag.help(format!("`{word}` is a reserved word and cannot be used as a name"));
        }
    }
    if found.token == Some("'") {
        diag = diag.help("strings are written in double quotes: \"text\"");
    }
    if non_ascii_letter {
        diag = diag.help("names may only use ASCII letters, digits and `_`");
    }
    if (expects(Rule::item) || expects(Rule::file))
        && found.token.is_some_and(|t| t.starts_with(|c: char| c.is_ascii_alphabetic()))
    {
        diag = diag.help(
            "only definitions may stand at the top level (`class`, `function`, `setup`, ...); \
             statements go inside `setup { }` or a function, game state in a `global class`",
        );
    }
    diag
}

/// The token at the error position, as the message shows it.
struct Found<'t> {
    /// `None` at the end of the file.
    token: Option<&'t str>,
    /// What to underline: the token, or the last character at the end of the file.
    range: std::ops::Range<usize>,
}

impl<'t> Found<'t> {
    fn at(text: &'t str, scan: &Scan, pos: usize) -> Found<'t> {
        if let Some(range) = scan.token_at(pos) {
            return Found { token: text.get(range.clone()), range };
        }
        match text.get(pos..).and_then(|rest| rest.chars().next()) {
            // Not a token the pre-scan saw (it stopped early): one character.
            Some(c) if !matches!(c, ' ' | '\t' | '\r' | '\n' | '\u{FEFF}') => {
                Found { token: text.get(pos..pos + c.len_utf8()), range: pos..pos + c.len_utf8() }
            }
            _ => {
                let end = text.len();
                let last = text.chars().next_back().map_or(0, char::len_utf8);
                Found { token: None, range: end - last..end }
            }
        }
    }

    fn describe(&self) -> String {
        let Some(token) = self.token else { return "end of file".to_owned() };
        let first = token.chars().next().unwrap_or(' ');
        if is_keyword(token) {
            format!("keyword `{token}`")
        } else if first == '"' {
            "a string".to_owned()
        } else if first.is_control() || (!first.is_ascii() && !first.is_alphanumeric()) {
            format!("character U+{:04X}", first as u32)
        } else if token.chars().count() > 30 {
            format!("`{}...`", token.chars().take(30).collect::<String>())
        } else {
            format!("`{token}`")
        }
    }
}

/// "`;`", "`;` or `}`", "a name, `(` or `{`": what the failed rules stood for. Operators
/// and other continuations are named only when nothing more specific was expected.
fn expected_list(positives: &[Rule]) -> Option<String> {
    let mut major: Vec<String> = Vec::new();
    let mut minor: Vec<String> = Vec::new();
    for &rule in positives {
        let Some((name, is_major)) = expectation(rule) else { continue };
        let list = if is_major { &mut major } else { &mut minor };
        if !list.contains(&name) {
            list.push(name);
        }
    }
    let mut names = if major.is_empty() { minor } else { major };
    // "a statement or `}`": descriptions before tokens, otherwise in pest's order.
    names.sort_by_key(|n| n.starts_with('`'));
    match names.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        [init @ .., last] => Some(format!("{} or {last}", init.join(", "))),
    }
}

/// Plain words for a rule, and whether it is a major expectation.
fn expectation(rule: Rule) -> Option<(String, bool)> {
    use Rule::*;
    let (name, major) = match rule {
        semi => ("`;`", true),
        comma => ("`,`", true),
        colon => ("`:`", true),
        lbrace => ("`{`", true),
        rbrace => ("`}`", true),
        lparen => ("`(`", true),
        rparen => ("`)`", true),
        lbracket => ("`[`", true),
        rbracket => ("`]`", true),
        langle => ("`<`", true),
        rangle => ("`>`", true),
        eq => ("`=`", true),
        dot => ("`.`", false),
        dotdot => ("`..`", false),
        minus => ("`-`", false),
        ident => ("a name", true),
        word => ("a member name", true),
        number => ("a number", true),
        string => ("a string", true),
        expr | primary | postfix_expr | input_target | for_init => ("an expression", true),
        type_expr | generic_type | path => ("a type", true),
        stmt | block => ("a statement", true),
        item | file => ("a definition (`class`, `function`, `setup`, ...)", true),
        member => ("a member (an attribute, `function`, `action`, ...)", true),
        fn_part => ("`input`, `returns`, `effect`, `require`, `trigger` or `prio`", true),
        attr_part => ("`returns` or `value`", true),
        group_part => ("`geometry`, `orientation`, `grid` or `default`", true),
        class_kw => ("a definition keyword (`class`, `interactable`, ...)", true),
        filter | filter_list => ("`filter`", true),
        input_mode => ("`player`, `auto` or `function`", false),
        prefix_op | infix_op | type_op | postfix | call | field_access | index => ("an operator", false),
        kw_as | kw_is | kw_else | kw_game | kw_import | visibility => ("more", false),
        EOI => ("end of file", false),
        // The other keyword rules are `kw_` and the keyword itself.
        _ => return format!("{rule:?}").strip_prefix("kw_").map(|k| (format!("`{k}`"), true)),
    };
    Some((name.to_owned(), major))
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let before = text.get(..pos).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
}
