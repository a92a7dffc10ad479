//! The engines of every example, generated at build time (see `build.rs`), and helpers
//! to play them in tests.

use tgdl_runtime::{Agent, Game, GameInfo, RandomAgent, Status};

/// One example game.
pub struct Example {
    pub name: &'static str,
    pub engine: fn() -> GameInfo,
    /// Plays one seeded random game; returns how it ended.
    pub playout: fn(players: u32, seed: u64, max_decisions: u64) -> Ending,
}

/// How a playout ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Places, as the outcome gives them.
    Over {
        places: Vec<Vec<u32>>,
        decisions: u64,
    },
    Error(String),
    Unfinished,
}

/// A random playout of `G`: every seat random, seeded.
pub fn playout<G: Game>(players: u32, seed: u64, max_decisions: u64) -> Ending {
    let mut game = match G::start(players, seed) {
        Ok(g) => g,
        Err(e) => return Ending::Error(e.to_string()),
    };
    let mut agent = RandomAgent::new(seed ^ 0x5eed);
    for _ in 0..max_decisions {
        match game.status() {
            Status::Over => {
                let places = game.outcome().map(|o| o.places.clone()).unwrap_or_default();
                return Ending::Over { places, decisions: game.decisions() };
            }
            Status::Failed => return Ending::Error(game.error().map(|e| e.to_string()).unwrap_or_default()),
            Status::Decide(_) => {
                let choice = match agent.choose(&game) {
                    Ok(c) => c,
                    Err(e) => return Ending::Error(format!("{e:?}")),
                };
                if let Err(e) = game.apply(choice) {
                    return Ending::Error(e.to_string());
                }
            }
        }
    }
    Ending::Unfinished
}

include!(concat!(env!("OUT_DIR"), "/examples.rs"));
