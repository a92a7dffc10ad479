//! Surface syntax: the pest grammar, the syntax tree and the parser that builds it.

pub mod ast;
mod parser;

pub use parser::parse;

/// The reserved words: never names (the grammar's `keyword` rule).
pub const RESERVED_WORDS: &[&str] = &[
    "game",
    "import",
    "as",
    "class",
    "local",
    "group",
    "global",
    "attribute",
    "function",
    "action",
    "input",
    "optional",
    "auto",
    "player",
    "filter",
    "effect",
    "require",
    "trigger",
    "prio",
    "event",
    "interactable",
    "stack",
    "board",
    "tile",
    "connection",
    "turn",
    "default",
    "setup",
    "override",
    "returns",
    "winner",
    "payoffs",
    "throw",
    "new",
    "is",
    "return",
    "if",
    "else",
    "while",
    "for",
    "break",
    "continue",
    "this",
    "base",
    "true",
    "false",
    "null",
    "number",
    "string",
    "bool",
    "List",
    "Table",
    "Stack",
];

/// Words with a meaning only where the grammar expects them, and names everywhere else:
/// `players` in `game X players 2;`, `in` in `for (T x in xs)`, `open`, `outward`,
/// `secret`, `internal`, `public` and `per` before a declaration, `winners` opening a statement, and the tags of
/// attribute and group blocks.
pub const CONTEXTUAL_WORDS: &[&str] = &[
    "players",
    "in",
    "open",
    "outward",
    "secret",
    "internal",
    "public",
    "per",
    "track",
    "geometry",
    "orientation",
    "grid",
    "value",
    "param",
    "simultaneous",
    "resolve",
    "winners",
];
/// The file as role-tagged tokens, for the formatter.
pub(crate) mod token {
    pub(crate) use super::parser::tokens::{ColonKind, Delim, SemiKind, Token, TokenKind, tokens};
}

#[cfg(test)]
mod tests {
    use super::{CONTEXTUAL_WORDS, RESERVED_WORDS};
    use crate::source::FileId;

    /// The quoted words of `text`.
    fn quoted(text: &str) -> Vec<&str> {
        text.split('"').skip(1).step_by(2).filter(|w| w.chars().all(|c| c.is_ascii_alphabetic())).collect()
    }

    #[test]
    fn the_word_lists_are_the_grammars() {
        let grammar = include_str!("grammar.pest");
        let rule = grammar.split("keyword = @{").nth(1).and_then(|r| r.split("~ !ident_char").next());
        let mut reserved = quoted(rule.expect("the keyword rule"));
        let mut listed = RESERVED_WORDS.to_vec();
        reserved.sort_unstable();
        listed.sort_unstable();
        assert_eq!(listed, reserved);

        // Every `kw_x` rule's word is reserved or contextual.
        let mut kw: Vec<&str> = grammar
            .lines()
            .filter(|l| l.starts_with("kw_"))
            .flat_map(quoted)
            .filter(|w| !RESERVED_WORDS.contains(w))
            .collect();
        let mut contextual = CONTEXTUAL_WORDS.to_vec();
        kw.sort_unstable();
        contextual.sort_unstable();
        assert_eq!(contextual, kw);
    }

    #[test]
    fn reserved_words_are_not_names_and_contextual_ones_are() {
        for w in RESERVED_WORDS {
            let src = format!("game G players 2; setup {{ number {w} = 1; }}");
            assert!(super::parse(FileId(0), &src).is_err(), "`{w}` is reserved");
        }
        for w in CONTEXTUAL_WORDS {
            let src = format!("game G players 2; setup {{ number {w} = 1; }}");
            assert!(super::parse(FileId(0), &src).is_ok(), "`{w}` is a name outside its context");
        }
    }
}
