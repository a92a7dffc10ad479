//! What chance did in a played game, outcome by outcome, as each viewer may read it: the
//! chance steps of traces and of the server's history.
//!
//! The game being played is mirrored by a seeded copy that keeps its record
//! ([`Start::recording`]: the game itself, and the agents reading it, stay as they are),
//! and that copy is followed by a twin started with explicit chance, which takes the
//! record's decisions and, at each chance event, the outcome the record names. The outcomes met between two decisions are labelled once the
//! twin stands at the next decision (or the end), as each viewer sees the game then: a
//! dealt card is named only to a viewer who sees it there (in its own hand, face up), and
//! the face of a roll only when nothing in the game can be hidden. Nobody reads of an
//! outcome more than the table shows them.

use tgdl_runtime::chance::ChanceEvent;
use tgdl_runtime::game::{Game, Start, Status};
use tgdl_runtime::hidden::Viewer;
use tgdl_runtime::information::apply_recorded;

/// One chance outcome of a played game, as each viewer reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    /// How many decisions were taken before it (0: during the setup).
    pub after: usize,
    /// As the designer reads it (`rolls 4`, `deals 7 of hearts`).
    pub label: String,
    /// As each seat reads it.
    pub seen: Vec<String>,
    /// As spectators read it.
    pub public: String,
}

impl Drawn {
    pub fn label_for(&self, viewer: Viewer) -> &str {
        match viewer {
            Viewer::All => &self.label,
            Viewer::Seat(p) => self.seen.get(p as usize).map_or(&self.public, |s| s.as_str()),
            Viewer::Public => &self.public,
        }
    }
}

/// Follows a game being played (see the module's documentation).
#[derive(Clone, Debug)]
pub struct ChanceFollower<G> {
    /// The game again, seeded alike, keeping its record.
    copy: G,
    /// The copy again, with explicit chance.
    twin: G,
    players: u32,
    /// How many of the record's decisions and chance outcomes the twin has taken.
    decisions: usize,
    outcomes: usize,
}

impl<G: Game> ChanceFollower<G> {
    /// Follows the game `start` starts (a seeded one), and returns with what chance did
    /// during its setup.
    pub fn new(start: &Start) -> Result<(Self, Vec<Drawn>), String> {
        let copy = G::start_with(&start.clone().recording()).map_err(|e| e.to_string())?;
        let twin = G::start_with(&Start::explicit(start.players).with_params(start.params.clone()))
            .map_err(|e| e.to_string())?;
        let mut follower = ChanceFollower { copy, twin, players: start.players, decisions: 0, outcomes: 0 };
        let drawn = follower.follow()?;
        Ok((follower, drawn))
    }

    /// Takes the option the game's last decision chose, and returns what chance did next.
    pub fn decided(&mut self, option: usize) -> Result<Vec<Drawn>, String> {
        self.copy.apply(option).map_err(|e| e.to_string())?;
        self.follow()
    }

    /// Brings the twin to where the copy stands, returning the chance outcomes met.
    fn follow(&mut self) -> Result<Vec<Drawn>, String> {
        let record = self.copy.record().ok_or("the game keeps no record of its chance")?;
        let mut drawn = Vec::new();
        let mut met: Vec<(ChanceEvent, u32)> = Vec::new();
        loop {
            match self.twin.status() {
                Status::Chance => {
                    let Some(&recorded) = record.chance.get(self.outcomes) else { break };
                    let event = self.twin.chance_event().ok_or("a chance event without its description")?;
                    // `random()` draws a number, not a listed outcome: it is labelled as drawn.
                    met.push((event.clone(), event.outcome_of(recorded).unwrap_or(0)));
                    apply_recorded(&mut self.twin, recorded).map_err(|e| e.to_string())?;
                    self.outcomes += 1;
                }
                Status::Decide(_) => {
                    self.label(&mut met, &mut drawn);
                    let Some(&option) = record.decisions.get(self.decisions) else { break };
                    self.twin.apply(option as usize).map_err(|e| e.to_string())?;
                    self.decisions += 1;
                }
                Status::Over | Status::Failed => break,
            }
        }
        self.label(&mut met, &mut drawn);
        Ok(drawn)
    }

    /// Labels the outcomes met since the last decision, as the twin stands now.
    fn label(&self, met: &mut Vec<(ChanceEvent, u32)>, drawn: &mut Vec<Drawn>) {
        for (event, outcome) in met.drain(..) {
            let read = |viewer| self.twin.chance_label_for(&event, outcome, viewer);
            drawn.push(Drawn {
                after: self.decisions,
                label: read(Viewer::All),
                seen: (0..self.players).map(|p| read(Viewer::Seat(p))).collect(),
                public: read(Viewer::Public),
            });
        }
    }
}
