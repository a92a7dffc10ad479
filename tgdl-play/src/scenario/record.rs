//! `play --record OUT.scenarios`: a played game written as a scenario — its players, seed
//! and parameters, one `play` line per decision and how it ended — for the designer to
//! add assertions to.

use super::parse::quote;
use crate::trace::{Trace, TraceResult};
use std::fmt::Write as _;

/// The scenario of a played game, from its trace (the designer's labels, which a scenario's
/// `play` takes).
pub fn scenario_of(trace: &Trace) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {} ({}), recorded by `play --record`.", trace.game, trace.source);
    let _ = writeln!(
        out,
        "# Add assertions between the steps: `offered \"...\"`, `active P`, `log contains \"...\"`, ..."
    );
    let _ = writeln!(out, "scenario {}", quote(&format!("recorded game, seed {}", trace.seed)));
    let _ = writeln!(out, "players {}", trace.players);
    let _ = writeln!(out, "seed {}", trace.seed);
    for (name, value) in &trace.params {
        let _ = writeln!(out, "param {name} = {}", param_value(value));
    }
    for d in &trace.decisions {
        let _ = writeln!(out, "play {}", quote(&d.label));
    }
    match &trace.result {
        Some(result @ (TraceResult::Over { .. } | TraceResult::Error { .. })) => {
            let _ = writeln!(out, "result {}", quote(result.text()));
        }
        // Unfinished, or a seat left: the game was still going.
        Some(TraceResult::Unfinished { .. } | TraceResult::Abandoned { .. }) | None => {
            let _ = writeln!(out, "not over");
        }
    }
    out
}

/// A parameter's value as a word when it reads as one, else quoted.
fn param_value(value: &str) -> String {
    let plain = !value.is_empty()
        && value.chars().all(|c| !c.is_whitespace() && !matches!(c, '"' | '#' | '=' | '\\'));
    if plain { value.to_string() } else { quote(value) }
}

/// Writes the scenario of a played game to `path`.
pub fn save(trace: &Trace, path: &std::path::Path) -> Result<(), String> {
    std::fs::write(path, scenario_of(trace))
        .map_err(|e| format!("cannot write the scenario `{}`: {e}", path.display()))
}
