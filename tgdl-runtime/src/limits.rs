//! The engines' budgets (docs/reliability.md): how far a decision may go before it is a
//! located rule error instead of a hang, a stack overflow or an allocation failure.
//!
//! They are settings of the process, not of a game: the command line (`--max-call-depth`
//! and the other flags of `tgdl_play::cli::LimitArgs`), the server and embedders set them
//! once, before games start, with [`set`]. A game reads them when it starts (call depth,
//! loop steps, event runs) or when a value grows (strings, lists), so a change applies to
//! the games started after it. Raising a budget never changes a game that stayed within
//! the old one.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// Default loop iterations one decision may take.
pub const DEFAULT_LOOP_STEPS: u64 = 10_000_000;

/// Default depth of nested calls (functions that call, actions called like functions):
/// deep enough for any real rule, shallow enough that the engine's stack (2 MB on a
/// worker thread) never runs out first.
pub const DEFAULT_CALL_DEPTH: u32 = 1_000;

/// Default number of actions events may run in one decision: an event that throws itself
/// again would otherwise run forever, or grow the queue until memory runs out.
pub const DEFAULT_EVENT_RUNS: u64 = 1_000_000;

/// Default longest string a game may build (bytes): a rule that doubles a string in a
/// loop reaches it in a few dozen steps, long before memory runs out.
pub const DEFAULT_STRING_BYTES: u64 = 1 << 24;

/// Default most items a list may hold (appending lists doubles them as fast).
pub const DEFAULT_LIST_ITEMS: u64 = 1 << 24;

/// The deepest call budget [`set`] accepts: beyond it the located error would turn back
/// into a stack overflow. A level of TGDL call takes at most about 2 KB of stack (debug
/// builds; less optimised), so 3,000 levels fit the 8 MB of a process's main thread, and
/// the threads that run games elsewhere are given [`GAME_STACK_BYTES`].
pub const MAX_CALL_DEPTH: u32 = 3_000;

/// The stack of the threads that run games (`simulate`, `tournament`, the server): as
/// large as a main thread's, so the deepest budget fits in every one of them.
pub const GAME_STACK_BYTES: usize = 8 << 20;

/// Every budget, as [`set`] takes them and [`current`] gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub loop_steps: u64,
    pub call_depth: u32,
    pub event_runs: u64,
    pub string_bytes: u64,
    pub list_items: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            loop_steps: DEFAULT_LOOP_STEPS,
            call_depth: DEFAULT_CALL_DEPTH,
            event_runs: DEFAULT_EVENT_RUNS,
            string_bytes: DEFAULT_STRING_BYTES,
            list_items: DEFAULT_LIST_ITEMS,
        }
    }
}

/// Some budgets changed, the others left as they are: the command line's `--max-*` flags
/// and Python's `set_limits` keywords.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub loop_steps: Option<u64>,
    pub call_depth: Option<u32>,
    pub event_runs: Option<u64>,
    pub string_bytes: Option<u64>,
    pub list_items: Option<u64>,
}

impl Changes {
    /// The budgets in force with these changes made.
    pub fn applied_to_current(self) -> Limits {
        let now = current();
        Limits {
            loop_steps: self.loop_steps.unwrap_or(now.loop_steps),
            call_depth: self.call_depth.unwrap_or(now.call_depth),
            event_runs: self.event_runs.unwrap_or(now.event_runs),
            string_bytes: self.string_bytes.unwrap_or(now.string_bytes),
            list_items: self.list_items.unwrap_or(now.list_items),
        }
    }
}

static LOOP_STEPS: AtomicU64 = AtomicU64::new(DEFAULT_LOOP_STEPS);
static CALL_DEPTH: AtomicU32 = AtomicU32::new(DEFAULT_CALL_DEPTH);
static EVENT_RUNS: AtomicU64 = AtomicU64::new(DEFAULT_EVENT_RUNS);
static STRING_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_STRING_BYTES);
static LIST_ITEMS: AtomicU64 = AtomicU64::new(DEFAULT_LIST_ITEMS);

/// Sets the budgets of the games started from now on. Every budget must be at least 1,
/// and the call depth at most [`MAX_CALL_DEPTH`].
pub fn set(limits: Limits) -> Result<(), String> {
    limits.validate()?;
    LOOP_STEPS.store(limits.loop_steps, Relaxed);
    CALL_DEPTH.store(limits.call_depth, Relaxed);
    EVENT_RUNS.store(limits.event_runs, Relaxed);
    STRING_BYTES.store(limits.string_bytes, Relaxed);
    LIST_ITEMS.store(limits.list_items, Relaxed);
    Ok(())
}

/// The budgets in force.
pub fn current() -> Limits {
    Limits {
        loop_steps: LOOP_STEPS.load(Relaxed),
        call_depth: CALL_DEPTH.load(Relaxed),
        event_runs: EVENT_RUNS.load(Relaxed),
        string_bytes: string_bytes() as u64,
        list_items: list_items() as u64,
    }
}

impl Limits {
    pub fn validate(&self) -> Result<(), String> {
        let at_least_one = [
            ("loop steps", self.loop_steps),
            ("call depth", u64::from(self.call_depth)),
            ("event runs", self.event_runs),
            ("string bytes", self.string_bytes),
            ("list items", self.list_items),
        ];
        if let Some((name, _)) = at_least_one.iter().find(|(_, v)| *v == 0) {
            return Err(format!("the budget of {name} must be at least 1"));
        }
        if self.call_depth > MAX_CALL_DEPTH {
            return Err(format!(
                "the call depth can be raised to {MAX_CALL_DEPTH} at most (the engine's stack would run out first), not {}",
                self.call_depth
            ));
        }
        Ok(())
    }
}

/// The longest string a game may build now.
#[inline]
pub(crate) fn string_bytes() -> usize {
    usize::try_from(STRING_BYTES.load(Relaxed)).unwrap_or(usize::MAX)
}

/// The most items a list may hold now.
#[inline]
pub(crate) fn list_items() -> usize {
    usize::try_from(LIST_ITEMS.load(Relaxed)).unwrap_or(usize::MAX)
}

/// Checks that a list or stack may hold `len` items: every way one grows (`push`,
/// `push_front`, `append`) goes through this. `Err` carries the budget it would cross.
#[inline]
pub(crate) fn check_list_items(len: usize) -> Result<(), usize> {
    let limit = list_items();
    if len > limit { Err(limit) } else { Ok(()) }
}

std::thread_local! {
    /// A growth refused where the caller has no way to report an error (`push`, called by
    /// generated code as a statement): the items it would have made, and the budget. The
    /// engine turns it into the decision's rule error when the run ends.
    static REFUSED_GROWTH: std::cell::Cell<Option<(usize, usize)>> = const { std::cell::Cell::new(None) };
}

/// Refused growths not yet taken, on every thread: while there are none (nearly always),
/// taking one reads this counter and not the thread-local, which costs more on every move.
/// A thread reads its own writes, so it never misses its own refusal.
static REFUSALS_PENDING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Records a refused growth (the first one of a run is kept: it is where the run went wrong).
#[cold]
#[inline(never)]
pub(crate) fn refuse_growth(len: usize, limit: usize) {
    REFUSED_GROWTH.with(|r| {
        if r.get().is_none() {
            r.set(Some((len, limit)));
            REFUSALS_PENDING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    });
}

/// Takes the growth refused on this thread since the last call: `(items, budget)`.
#[inline]
pub fn take_refused_growth() -> Option<(usize, usize)> {
    if REFUSALS_PENDING.load(std::sync::atomic::Ordering::Relaxed) == 0 {
        return None;
    }
    take_pending()
}

#[cold]
#[inline(never)]
fn take_pending() -> Option<(usize, usize)> {
    let taken = REFUSED_GROWTH.with(|r| r.take());
    if taken.is_some() {
        REFUSALS_PENDING.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_zero_budgets_and_a_depth_the_stack_cannot_take() {
        let zero = Limits { event_runs: 0, ..Limits::default() };
        assert_eq!(zero.validate().unwrap_err(), "the budget of event runs must be at least 1");
        let deep = Limits { call_depth: MAX_CALL_DEPTH + 1, ..Limits::default() };
        assert!(deep.validate().unwrap_err().contains("3000 at most"));
        assert!(Limits::default().validate().is_ok());
    }
}
