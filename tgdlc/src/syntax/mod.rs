//! Surface syntax: the pest grammar, the syntax tree and the parser that builds it.

pub mod ast;
mod parser;

pub use parser::parse;
/// The file as role-tagged tokens, for the formatter.
pub mod token {
    pub use super::parser::tokens::{ColonKind, Delim, SemiKind, Token, TokenKind, tokens};
}
