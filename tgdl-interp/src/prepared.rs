//! A program made ready for the interpreter: what it supports, and the facts about the
//! program every run needs.

use std::fmt;
use tgdl_compiler::hir::Program;
use tgdl_compiler::source::SourceMap;

/// A checked program ready to be interpreted.
#[derive(Debug)]
pub struct Prepared {
    pub(crate) program: Program,
}

/// A part of a program the interpreter does not run yet: front ends fall back to the
/// compiled engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub what: String,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: the interpreter does not run {} yet", self.file, self.line, self.column, self.what)
    }
}

impl std::error::Error for Unsupported {}

impl Prepared {
    pub(crate) fn new(program: &Program, _sources: &SourceMap) -> Result<Prepared, Unsupported> {
        Err(Unsupported {
            file: program.files.first().cloned().unwrap_or_default(),
            line: 1,
            column: 1,
            what: String::from("any game"),
        })
    }
}
