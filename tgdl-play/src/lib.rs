//! The front ends written once over the [`Game`](tgdl_runtime::Game) interface of
//! `tgdl-runtime`, for every engine alike, generated or hand-written.
//!
//! - [`agent`]: who chooses for a seat (random, scripted, a person at a console).
//! - [`mcts`]: the search agent (information-set Monte Carlo tree search).
//! - [`render`]: a [`View`](tgdl_runtime::view::View) as text for the terminal, and
//!   decision labels as a viewer may read them.
//! - [`driver`]: playing one game, with its event lines, `result:` line and trace.
//! - [`trace`]: the JSON trace format.
//! - [`chances`]: what chance did in a played game, as each viewer may read it.
//! - [`compare`]: two engines of one game played side by side, and where they differ.
//! - [`simulate`](mod@simulate): random playouts in parallel and their statistics.
//! - [`perft`](mod@perft): counting decision sequences.
//! - [`exact`](mod@exact): every history to its end, with its probability.
//! - [`tournament`](mod@tournament): agents against each other in every seating rotation.
//! - [`scenario`]: rules pinned as tests: `.scenarios` files, run in process.
//! - [`watch`]: playing one game while its rules are edited, starting it again under
//!   each new version with the decisions made so far.
//! - [`cli`]: the command line of a game binary (`play`, `simulate`, `perft`,
//!   `tournament`, `test`) and its `--max-*` budget flags.

pub mod agent;
pub mod chances;
pub mod cli;
pub mod compare;
pub mod driver;
pub mod exact;
pub mod mcts;
pub mod payoffs;
pub mod perft;
pub mod render;
pub mod scenario;
pub mod simulate;
pub mod tournament;
pub mod trace;
pub mod watch;

pub use agent::{Agent, AgentError, HumanAgent, RandomAgent, ScriptedAgent};
pub use driver::{GameResult, PlayOptions, run_play};
pub use perft::perft;
pub use simulate::{Report, SimOptions, simulate};
pub use trace::Trace;
