//! Surface syntax: the pest grammar, the syntax tree and the parser that builds it.

pub mod ast;
mod parser;

pub use parser::parse;
