//! Two engines of one game played side by side, and the first thing they show
//! differently. This is how the engines are held to one semantics: the code generator's
//! optimisations against the plain generator, and the interpreter against the compiled
//! engines (the integration tests and the `differential` fuzz target). At every decision
//! both must show the same status, labels, prompt, log, decisions so far, outcome and
//! error, and to every seat, a spectator and the designer the same observation and hidden
//! labels; at some decisions both must determinize alike; and a move applied to both must
//! have the same result.

use tgdl_runtime::hidden::Viewer;
use tgdl_runtime::{Game, Rng, Status};

/// How two engines are compared.
#[derive(Clone, Copy, Debug)]
pub struct Compare {
    /// Compare the moves' `Debug` text too: two generated engines name their moves alike;
    /// the interpreter's moves are data.
    pub same_moves: bool,
    /// Stop after this many decisions (a random game need not end).
    pub max_decisions: u64,
}

/// Plays `a` and `b` (started alike) side by side: at each decision `choose` sees `a`,
/// the deciding player and the labels, and picks the option applied to both. Every
/// seventh decision of a game with hidden information, both are determinized for the
/// deciding player from the same sample (drawn from `seed` and the decision) and compared
/// too. Returns `a` at the end and the number of decisions made, or where and how the
/// engines differ.
pub fn side_by_side<A: Game, B: Game>(
    mut a: A,
    mut b: B,
    seed: u64,
    how: Compare,
    mut choose: impl FnMut(&A, u32, &[String]) -> usize,
) -> Result<(A, u64), String> {
    same("hidden information", &A::has_hidden_information(), &B::has_hidden_information())?;
    let mut decision = 0;
    loop {
        decision_point(&a, &b, how.same_moves).map_err(|e| format!("before decision {decision}: {e}"))?;
        let Status::Decide(p) = a.status() else { break };
        if decision % 7 == 3 && A::has_hidden_information() {
            let sample = seed ^ decision;
            let (da, db) =
                (a.determinize(p.0, &mut Rng::new(sample)), b.determinize(p.0, &mut Rng::new(sample)));
            match (da, db) {
                (Ok(da), Ok(db)) => decision_point(&da, &db, how.same_moves),
                (da, db) => {
                    same("determinize", &da.err().map(|e| e.to_string()), &db.err().map(|e| e.to_string()))
                }
            }
            .map_err(|e| format!("a game determinized for player {} at decision {decision}: {e}", p.0))?;
        }
        if decision == how.max_decisions {
            break;
        }
        let labels = a.labels();
        let pick = choose(&a, p.0, &labels);
        let (applied_a, applied_b) = (a.apply(pick), b.apply(pick));
        let label = labels.get(pick).map_or("(no such option)", String::as_str);
        same("the result of apply", &applied_a, &applied_b)
            .map_err(|e| format!("decision {decision} ({label}): {e}"))?;
        decision += 1;
    }
    Ok((a, decision))
}

/// Everything two games show at a decision point, compared: status, options, labels,
/// the things the options name, prompt, log, decisions so far, outcome, error, and for every seat, for a spectator and
/// for the designer the observation (the view and the log that viewer is shown; the
/// designer's view is [`Game::view`]) and the labels hidden from them.
pub fn decision_point<A: Game, B: Game>(a: &A, b: &B, same_moves: bool) -> Result<(), String> {
    same("status", &a.status(), &b.status())?;
    same("players", &a.players(), &b.players())?;
    same_items("labels", &a.labels(), &b.labels())?;
    // The moves are of two types (one per engine), alike in name and shape.
    if same_moves {
        same_items("options", &debug(a.options()), &debug(b.options()))?;
    }
    if let Status::Decide(p) = a.status() {
        for viewer in [Viewer::Seat(p.0), Viewer::All] {
            same(
                &format!("things named for {viewer:?}"),
                &a.things_of(p.0, viewer),
                &b.things_of(p.0, viewer),
            )?;
        }
    }
    same("prompt", &a.prompt(), &b.prompt())?;
    same("log", &a.log(), &b.log())?;
    same("decisions", &a.decisions(), &b.decisions())?;
    same("outcome", &a.outcome(), &b.outcome())?;
    same("error", &a.error(), &b.error())?;
    for viewer in (0..a.players()).map(Viewer::Seat).chain([Viewer::Public, Viewer::All]) {
        same(&format!("observation for {viewer:?}"), &a.observation(viewer), &b.observation(viewer))?;
        if viewer != Viewer::All {
            same(&format!("hidden from {viewer:?}"), &a.hidden_from(viewer), &b.hidden_from(viewer))?;
        }
    }
    Ok(())
}

/// `Ok` when `a == b`; else what differs, both ways.
pub fn same<T: PartialEq + std::fmt::Debug + ?Sized>(what: &str, a: &T, b: &T) -> Result<(), String> {
    if a == b { Ok(()) } else { Err(format!("{what} differ:\n  first:  {a:?}\n  second: {b:?}")) }
}

/// `Ok` when the lists are equal; else the first item where they differ, both ways.
fn same_items(what: &str, a: &[String], b: &[String]) -> Result<(), String> {
    let Some(at) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) else { return Ok(()) };
    Err(format!(
        "{what} differ from item {at} on (of {} and {}):\n  first:  {:?}\n  second: {:?}",
        a.len(),
        b.len(),
        &a[at.min(a.len())..],
        &b[at.min(b.len())..]
    ))
}

/// The `Debug` text of each item.
fn debug<T: std::fmt::Debug>(items: &[T]) -> Vec<String> {
    items.iter().map(|item| format!("{item:?}")).collect()
}
