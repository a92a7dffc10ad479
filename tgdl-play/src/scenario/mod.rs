//! Scenarios: rules pinned as tests. A `.scenarios` file beside a game holds named
//! scenarios, each a start (players, seed, parameters), decisions (by label, or by a
//! seeded agent) and assertions about what the game offers, shows, logs and how it ends;
//! the game binary's `test` runs them in process (docs/testing.md).
//!
//! - [`parse`](mod@parse): the format, with located errors.
//! - [`run`](mod@run): running scenarios against any [`Game`](tgdl_runtime::Game), in parallel.
//! - [`report`](mod@report): the report, as `cargo test` writes one or as JSON.
//! - [`record`](mod@record): a played game written as a scenario (`play --record`).

pub mod parse;
pub mod record;
pub mod report;
pub mod run;

pub use parse::{ParseError, Place, Scenario, ScenarioFile, parse};
pub use report::{FileRun, Report};
pub use run::{Failure, ScenarioRun, run_scenario, run_texts};
