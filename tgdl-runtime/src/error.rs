//! Rule errors located in the `.tgdl` source, and the control flow of generated code.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A place in the game's source, compiled into generated code as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Loc {
    pub file: &'static str,
    pub line: u32,
    pub column: u32,
}

impl Loc {
    pub const fn new(file: &'static str, line: u32, column: u32) -> Loc {
        Loc { file, line, column }
    }
}

/// Generated code passes the places of its checks as `&'static Loc` (`loc_ref::<12, 5>()`):
/// one pointer, where a `Loc` by value is four stores that the optimiser hoists out of the
/// cold error path onto the hot one when several checks share that path.
impl From<&Loc> for Loc {
    fn from(loc: &Loc) -> Loc {
        *loc
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A rule of the game failed at run time: null access, bad index, division by zero, a loop
/// over its step budget, an empty menu. The game stops; the error says where.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RuleError {
    pub message: String,
    /// `file:line:column` of the rule that failed.
    pub location: String,
}

impl RuleError {
    pub fn new(loc: Loc, message: impl Into<String>) -> RuleError {
        RuleError { message: message.into(), location: loc.to_string() }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rule error at {}: {}", self.location, self.message)
    }
}

impl std::error::Error for RuleError {}

/// Why generated code stopped running before the end of a block: a rule error, or
/// nothing — the game ended (`winner` set the outcome) or an input waits for an answer
/// (the core holds the question or chance event). The core says which of the two, so
/// ending a game or asking allocates nothing.
///
/// One pointer, so that `Flow<()>` is a single word and `Flow<f64>` two, returned in
/// registers on the hot path; a rule error is rare and may allocate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop(Option<Box<RuleError>>);

impl Stop {
    #[cold]
    pub fn error(e: RuleError) -> Stop {
        Stop(Some(Box::new(e)))
    }

    /// The game ended or an input waits: what the core recorded says which.
    #[inline]
    pub fn signal() -> Stop {
        Stop(None)
    }

    /// The rule error that stopped the run, if it was one.
    pub fn rule_error(&self) -> Option<&RuleError> {
        self.0.as_deref()
    }

    pub fn into_rule_error(self) -> Option<RuleError> {
        self.0.map(|e| *e)
    }
}

/// The result type of every generated function.
pub type Flow<T> = Result<T, Stop>;

/// A located rule error as a `Stop`.
#[cold]
#[inline(never)]
pub fn fail<T>(loc: Loc, message: impl Into<String>) -> Flow<T> {
    Err(Stop::error(RuleError::new(loc, message)))
}

/// Unwraps a value that the rules need to be non-null.
#[inline(always)]
pub fn some<T>(value: Option<T>, loc: impl Into<Loc>) -> Flow<T> {
    match value {
        Some(v) => Ok(v),
        None => null_used(loc.into()),
    }
}

#[cold]
#[inline(never)]
fn null_used<T>(loc: Loc) -> Flow<T> {
    fail(loc, "null value used where a value is needed")
}

/// An attribute of one class read on an object of another. The compiler's types make
/// this impossible; reaching it is an internal error, reported rather than panicking.
#[cold]
pub fn wrong_class() -> Stop {
    Stop::error(RuleError {
        message: "internal error: an object of the wrong class reached a typed attribute access".into(),
        location: String::from("<engine>"),
    })
}

/// An answer of the wrong kind for the input it answers (a corrupted trace or state).
#[cold]
pub fn wrong_answer() -> Stop {
    Stop::error(RuleError {
        message: "an answer of the wrong kind was given to an input".into(),
        location: String::from("<engine>"),
    })
}

/// A function that should return a value ended without one (the checker rejects such
/// programs; kept as a located error for safety).
#[cold]
pub fn missing_return(loc: Loc) -> Stop {
    Stop::error(RuleError::new(loc, "the function ended without returning a value"))
}

/// The rule error of a growth refused by `List::push` or `Stack::push`, which have no
/// place in the source to name: the engine reports it at the game's file.
pub fn refused_growth_error(len: usize, limit: usize, file: &str) -> RuleError {
    RuleError {
        message: format!(
            "a list or stack would hold {len} items, over the limit of {limit} (--max-list-items)"
        ),
        location: file.to_string(),
    }
}
