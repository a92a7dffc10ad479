//! A pre-scan of the text, independent of the grammar: token boundaries for error
//! messages ("found `x`", the token before), unclosed brackets, bracket nesting beyond the
//! limit (checked before pest recurses), and the lexical errors pest only reports as
//! "unexpected" (unterminated strings and comments, unknown escapes).

use std::ops::Range;

/// What the pre-scan found. Scanning stops at the first lexical error.
pub(super) struct Scan {
    /// Byte ranges of tokens, in order (comments and whitespace excluded).
    pub tokens: Vec<Range<usize>>,
    /// Opening brackets not closed when the scan ended (innermost last).
    pub unclosed: Vec<(usize, char)>,
    pub error: Option<LexError>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LexErrorKind {
    UnterminatedString,
    UnterminatedComment,
    /// An escape other than `\" \\ \n \t` in a string.
    UnknownEscape,
    /// Brackets nested deeper than the limit.
    TooDeep,
    /// A raw control character (ESC, BEL...) inside a string: it would reach terminals.
    ControlCharacter,
}

#[derive(Clone, Debug)]
pub(super) struct LexError {
    pub kind: LexErrorKind,
    /// Start of the token at fault (a string's opening quote): pest fails there, not later.
    pub token_start: usize,
    /// What to underline.
    pub span: Range<usize>,
}

/// Two-character operators, kept whole so that messages say "found `++`".
const PAIRS: [&str; 13] = ["++", "--", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", ".."];

/// The generic collection types, after which `<` opens a nesting level.
const GENERICS: [&str; 3] = ["List", "Table", "Stack"];

pub(super) fn scan(text: &str, max_depth: usize) -> Scan {
    let bytes = text.as_bytes();
    let mut scan = Scan { tokens: Vec::new(), unclosed: Vec::new(), error: None };
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let b = bytes[i];
        // The grammar's whitespace, exactly: other characters are tokens it rejects.
        if matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
            continue;
        }
        if text[i..].starts_with('\u{FEFF}') {
            i += '\u{FEFF}'.len_utf8();
            continue;
        }
        if text[i..].starts_with("//") {
            // A line comment ends at any line break, a lone `\r` included.
            i = text[i..].find(['\n', '\r']).map_or(bytes.len(), |n| i + n);
            continue;
        }
        if text[i..].starts_with("/*") {
            match text[i + 2..].find("*/") {
                Some(n) => i += n + 4,
                None => return scan.fail(LexErrorKind::UnterminatedComment, start, start..start + 2),
            }
            continue;
        }
        if b == b'"' {
            i += 1;
            loop {
                match bytes.get(i) {
                    None | Some(b'\n' | b'\r') => {
                        return scan.fail(LexErrorKind::UnterminatedString, start, start..i);
                    }
                    Some(b'"') => break,
                    Some(&c) if c != b'\t' && (c.is_ascii_control()) => {
                        return scan.fail(LexErrorKind::ControlCharacter, start, i..i + 1);
                    }
                    Some(b'\\') => match bytes.get(i + 1) {
                        Some(b'"' | b'\\' | b'n' | b't') => i += 2,
                        Some(b'\n' | b'\r') | None => i += 1, // reported as unterminated
                        Some(_) => {
                            let len = text[i + 1..].chars().next().map_or(0, char::len_utf8);
                            return scan.fail(LexErrorKind::UnknownEscape, start, i..i + 1 + len);
                        }
                    },
                    Some(_) => i += 1,
                }
            }
            i += 1;
        } else if b.is_ascii_alphabetic() || b == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else if b.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
        } else if PAIRS.iter().any(|p| text[i..].starts_with(p)) {
            i += 2;
        } else if b == b'<' && scan.tokens.last().is_some_and(|t| GENERICS.contains(&&text[t.clone()])) {
            // `List<`: type nesting recurses like brackets do.
            i += 1;
            scan.unclosed.push((start, '<'));
            if scan.unclosed.len() > max_depth {
                return scan.fail(LexErrorKind::TooDeep, start, start..i);
            }
        } else if b == b'>' && scan.unclosed.last().is_some_and(|&(_, o)| o == '<') {
            i += 1;
            scan.unclosed.pop();
        } else {
            let c = text[i..].chars().next().unwrap_or('\0');
            i += c.len_utf8().max(1);
            match c {
                '(' | '[' | '{' => {
                    scan.unclosed.push((start, c));
                    if scan.unclosed.len() > max_depth {
                        return scan.fail(LexErrorKind::TooDeep, start, start..i);
                    }
                }
                ')' | ']' | '}' => {
                    let opener = match c {
                        ')' => '(',
                        ']' => '[',
                        _ => '{',
                    };
                    // A generic `<` left open (a syntax error pest reports) ends here too.
                    while scan.unclosed.last().is_some_and(|&(_, o)| o == '<') {
                        scan.unclosed.pop();
                    }
                    if scan.unclosed.last().is_some_and(|&(_, o)| o == opener) {
                        scan.unclosed.pop();
                    }
                }
                _ => {}
            }
        }
        scan.tokens.push(start..i);
    }
    scan
}

impl Scan {
    fn fail(mut self, kind: LexErrorKind, token_start: usize, span: Range<usize>) -> Scan {
        self.tokens.push(span.clone());
        self.error = Some(LexError { kind, token_start, span });
        self
    }

    /// The token that starts at (or contains) `pos`.
    pub(super) fn token_at(&self, pos: usize) -> Option<Range<usize>> {
        let i = self.tokens.partition_point(|t| t.end <= pos);
        self.tokens.get(i).filter(|t| t.start <= pos).map(|t| pos..t.end)
    }

    /// The last token that ends at or before `pos`.
    pub(super) fn token_before(&self, pos: usize) -> Option<Range<usize>> {
        let i = self.tokens.partition_point(|t| t.end <= pos);
        i.checked_sub(1).map(|i| self.tokens[i].clone())
    }
}
