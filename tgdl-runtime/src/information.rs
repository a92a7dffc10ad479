//! Information states, and worlds drawn from them: how a search agent may imagine what
//! its seat cannot see, using only what the seat has seen.
//!
//! A seat's **information state** is everything it has observed, in order, and its own
//! decisions: what it saw before the first decision, each decision it made (from a menu it
//! read), each decision of another player as it was shown to it, and each time chance
//! changed what it sees. [`InfoState::of`] reads it off a game that keeps its
//! [`Record`], by replaying the game with explicit chance and looking at it through the
//! seat's eyes after every step.
//!
//! A [`Sampler`] draws worlds consistent with an information state, from the information
//! state alone: it plays the game again from its start with explicit chance, drawing every
//! chance outcome by its probability and every other player's decision uniformly, among
//! those after which the seat would have seen exactly what it saw (a world whose
//! observations for the seat differ at any step is abandoned and another drawn). So the
//! worlds an agent searches are a function of its seat's information state and its own
//! seed, and nothing else: a die rolled into another player's hand, a card picked by a
//! hidden roll in the middle of a move, a public reference to a hidden card all come out
//! of the sampler's own chance. When no consistent world is found within a budget, the
//! sampler says so; it never falls back on the real world.
//!
//! Replaying is the general way and its cost grows with the game's length; games where
//! redistributing the hidden objects among the hidden places provably gives the same
//! worlds take that fast path instead ([`crate::Game::pool_sample`]).

use crate::chance::ChanceEvent;
use crate::game::{ApplyError, ChanceMode, Game, Start, Status};
use crate::hidden::Viewer;
use crate::rng::Rng;
use std::fmt;

/// What a game keeps of how it was played, for its players' information states: how it
/// started, every decision (the option chosen) and every chance outcome (as
/// [`crate::chance::Chance::record`] keeps them), in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub players: u32,
    pub decisions: Vec<u32>,
    pub chance: Vec<u64>,
}

/// One thing a seat observed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The seat chose `option` from a menu it read as `menu` (a fingerprint of the labels
    /// as it read them), and then saw `saw`.
    Own { option: u32, menu: u64, saw: u64 },
    /// Another player decided; the seat read the decision as `label` and then saw `saw`.
    Other { player: u32, label: u64, saw: u64 },
    /// Chance changed what the seat sees, to `saw`.
    Saw(u64),
}

/// Everything one seat has observed, in order, and its own decisions. Observations are
/// kept as fingerprints (a hash of the observation as the seat is given it: view, hands
/// and the log lines it may read).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InfoState {
    pub seat: u32,
    pub players: u32,
    /// What the seat saw before any step.
    pub first: u64,
    pub events: Vec<Event>,
    /// The menu the seat decides from now, as it reads it.
    pub menu: u64,
}

/// Why an information state could not be read, or no world drawn from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SampleError {
    /// The game keeps no record of how it was played (it was not started to be observed).
    NoRecord,
    /// The seat does not decide now.
    NotDeciding,
    /// Replaying the record did not lead back to the game as it is (an engine error).
    Replay(String),
    /// No world consistent with what the seat has seen was found.
    NoConsistentWorld { seat: u32, tries: u32 },
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::NoRecord => write!(f, "the game keeps no record of its play to sample from"),
            SampleError::NotDeciding => write!(f, "the seat does not decide now"),
            SampleError::Replay(why) => write!(f, "replaying the game's record failed: {why}"),
            SampleError::NoConsistentWorld { seat, tries } => write!(
                f,
                "no game consistent with what player {seat} has seen was found in {tries} tries: \
                 a search agent cannot imagine this position without looking at what it may not see"
            ),
        }
    }
}

impl std::error::Error for SampleError {}

/// FNV-1a, 64 bits: a fingerprint of what a seat sees.
fn fingerprint(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// What `seat` sees of `game` now, as a fingerprint.
pub fn seen_by<G: Game>(game: &G, seat: u32) -> u64 {
    let observation = game.observation(Viewer::Seat(seat));
    fingerprint(serde_json::to_string(&observation).unwrap_or_default().as_bytes())
}

/// The fingerprint of labels as a seat reads them.
fn labels_print(labels: &[String]) -> u64 {
    fingerprint(labels.join("\u{1f}").as_bytes())
}

/// A seat's menu as it reads it, as a fingerprint.
fn menu_of<G: Game>(game: &G, seat: u32) -> u64 {
    labels_print(&game.labels_for(Viewer::Seat(seat)))
}

/// How option `option` reads to `seat`, as a fingerprint.
fn label_of<G: Game>(game: &G, seat: u32, option: usize) -> u64 {
    let labels = game.labels_for(Viewer::Seat(seat));
    labels.get(option).map_or(0, |l| fingerprint(l.as_bytes()))
}

/// A fresh game of `players` players with every chance event a decision of its own,
/// keeping its record or not.
fn explicit<G: Game>(players: u32, record: bool) -> Result<G, SampleError> {
    G::start_with(&Start { players, seed: 0, chance: ChanceMode::Explicit, record })
        .map_err(|e| SampleError::Replay(e.to_string()))
}

/// Applies the chance outcome a record names, at an explicit game's chance event.
fn apply_recorded<G: Game>(game: &mut G, recorded: u64) -> Result<(), SampleError> {
    let Some(event) = game.chance_event() else {
        return Err(SampleError::Replay("a chance event without its description".into()));
    };
    let applied = match event {
        ChanceEvent::Unit => game.answer_unit(recorded),
        event => match event.outcome_of(recorded) {
            Some(i) => game.apply(i as usize),
            None => return Err(SampleError::Replay(format!("outcome {recorded} is not one of {event:?}"))),
        },
    };
    applied.map_err(|e: ApplyError| SampleError::Replay(e.to_string()))
}

impl InfoState {
    /// The information state of `seat` in `game`, which must keep its record and wait for
    /// the seat's decision.
    pub fn of<G: Game>(game: &G, seat: u32) -> Result<InfoState, SampleError> {
        if game.status() != Status::Decide(crate::value::Player(seat)) {
            return Err(SampleError::NotDeciding);
        }
        let record = game.record().ok_or(SampleError::NoRecord)?;
        let mut replay: G = explicit(record.players, false)?;
        let first = seen_by(&replay, seat);
        let mut now = first;
        let mut events = Vec::new();
        let (mut decisions, mut chance) = (record.decisions.iter(), record.chance.iter());
        loop {
            match replay.status() {
                Status::Chance => {
                    let recorded = *chance
                        .next()
                        .ok_or_else(|| SampleError::Replay("the record's chance ran out".into()))?;
                    apply_recorded(&mut replay, recorded)?;
                    let saw = seen_by(&replay, seat);
                    if saw != now {
                        events.push(Event::Saw(saw));
                        now = saw;
                    }
                }
                Status::Decide(p) => {
                    let Some(&option) = decisions.next() else { break };
                    let event = if p.0 == seat {
                        let menu = menu_of(&replay, seat);
                        replay.apply(option as usize).map_err(|e| SampleError::Replay(e.to_string()))?;
                        now = seen_by(&replay, seat);
                        Event::Own { option, menu, saw: now }
                    } else {
                        let label = label_of(&replay, seat, option as usize);
                        replay.apply(option as usize).map_err(|e| SampleError::Replay(e.to_string()))?;
                        now = seen_by(&replay, seat);
                        Event::Other { player: p.0, label, saw: now }
                    };
                    events.push(event);
                }
                Status::Over | Status::Failed => {
                    return Err(SampleError::Replay("the replayed game ended before the real one".into()));
                }
            }
        }
        if replay.status() != game.status() || chance.next().is_some() {
            return Err(SampleError::Replay("the replayed game is not where the real one is".into()));
        }
        let menu = menu_of(&replay, seat);
        if menu != menu_of(game, seat) {
            return Err(SampleError::Replay("the replayed menu differs from the real one".into()));
        }
        Ok(InfoState { seat, players: record.players, first, events, menu })
    }
}

/// Worlds drawn from one information state (see the module's documentation).
#[derive(Clone, Debug)]
pub struct Sampler {
    info: InfoState,
    /// Whole new attempts before giving up.
    tries: u32,
}

/// Attempts [`Sampler::sample`] makes by default before it says no world was found.
pub const DEFAULT_TRIES: u32 = 200;

impl Sampler {
    pub fn new(info: InfoState) -> Sampler {
        Sampler { info, tries: DEFAULT_TRIES }
    }

    /// The same sampler, giving up after `tries` attempts.
    pub fn with_tries(self, tries: u32) -> Sampler {
        Sampler { tries, ..self }
    }

    pub fn info(&self) -> &InfoState {
        &self.info
    }

    /// A world consistent with the information state, drawn with `rng`: an explicit game
    /// at the seat's decision. Its chance from here on is the caller's to draw
    /// ([`Game::sample_chance`]).
    pub fn sample<G: Game>(&self, rng: &mut Rng) -> Result<G, SampleError> {
        self.sample_with(rng, false)
    }

    /// [`Sampler::sample`], the world keeping its record ([`Start::record`]) when `record`:
    /// a second game with the same information state that agents can play in (for tests of
    /// their fairness).
    pub fn sample_with<G: Game>(&self, rng: &mut Rng, record: bool) -> Result<G, SampleError> {
        for _ in 0..self.tries {
            let mut game: G = explicit(self.info.players, record)?;
            if seen_by(&game, self.info.seat) != self.info.first {
                continue;
            }
            if self.follow(&mut game, rng) {
                return Ok(game);
            }
        }
        Err(SampleError::NoConsistentWorld { seat: self.info.seat, tries: self.tries })
    }

    /// Plays `game` along the information state; false when it strays from it.
    fn follow<G: Game>(&self, game: &mut G, rng: &mut Rng) -> bool {
        let seat = self.info.seat;
        let events = &self.info.events;
        let mut next = 0;
        // What the seat sees now, as far as the information state goes.
        let mut now = self.info.first;
        // Steps that change nothing the seat sees can repeat without end in a game that
        // loops on chance: bound them.
        let mut unseen_steps = 0u32;
        loop {
            match game.status() {
                Status::Chance => {
                    let expected = match events.get(next) {
                        Some(Event::Saw(saw)) => Some(*saw),
                        _ => None,
                    };
                    match self.draw_chance(game, rng, now, expected) {
                        Some(Draw::Unseen) => {
                            unseen_steps += 1;
                            if unseen_steps > 100_000 {
                                return false;
                            }
                        }
                        Some(Draw::Seen(saw)) => {
                            now = saw;
                            next += 1;
                            unseen_steps = 0;
                        }
                        None => return false,
                    }
                }
                Status::Decide(p) if p.0 == seat => {
                    if next == events.len() {
                        return menu_of(game, seat) == self.info.menu;
                    }
                    let Some(&Event::Own { option, menu, saw }) = events.get(next) else { return false };
                    if menu_of(game, seat) != menu || game.apply(option as usize).is_err() {
                        return false;
                    }
                    if seen_by(game, seat) != saw {
                        return false;
                    }
                    now = saw;
                    next += 1;
                }
                Status::Decide(p) => {
                    let Some(&Event::Other { player, label, saw }) = events.get(next) else { return false };
                    if player != p.0 {
                        return false;
                    }
                    // The options the seat would have read as it did, in a random order: the
                    // first after which it sees what it saw.
                    let labels = game.labels_for(Viewer::Seat(seat));
                    let mut candidates: Vec<usize> =
                        (0..labels.len()).filter(|&i| fingerprint(labels[i].as_bytes()) == label).collect();
                    rng.shuffle(&mut candidates);
                    let Some(after) = candidates.into_iter().find_map(|i| {
                        let mut after = game.clone();
                        (after.apply(i).is_ok() && seen_by(&after, seat) == saw).then_some(after)
                    }) else {
                        return false;
                    };
                    *game = after;
                    now = saw;
                    next += 1;
                }
                Status::Over | Status::Failed => return false,
            }
        }
    }

    /// Draws the outcome of the chance event `game` waits at, by its probability, among
    /// those after which the seat sees what it saw: `now` (nothing it can see changed), or
    /// `expected` (the next thing it saw). `None` when no outcome fits.
    fn draw_chance<G: Game>(
        &self,
        game: &mut G,
        rng: &mut Rng,
        now: u64,
        expected: Option<u64>,
    ) -> Option<Draw> {
        let seat = self.info.seat;
        let judge = |after: &G| {
            let saw = seen_by(after, seat);
            if saw == now {
                Some(Draw::Unseen)
            } else if Some(saw) == expected {
                Some(Draw::Seen(saw))
            } else {
                None
            }
        };
        if matches!(game.chance_event(), Some(ChanceEvent::Unit)) {
            // Outcomes that cannot be listed: a few draws from the distribution.
            for _ in 0..64 {
                let mut after = game.clone();
                after.answer_unit(rng.unit().to_bits()).ok()?;
                if let Some(d) = judge(&after) {
                    *game = after;
                    return Some(d);
                }
            }
            return None;
        }
        // Every outcome is equally likely in TGDL; weighted draws without replacement
        // keep working if that changes.
        let mut outcomes = game.chance_outcomes();
        while !outcomes.is_empty() {
            let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
            let mut pick = rng.unit() * total;
            let mut k = outcomes.len() - 1;
            for (j, (_, p)) in outcomes.iter().enumerate() {
                if pick < *p {
                    k = j;
                    break;
                }
                pick -= p;
            }
            let (i, _) = outcomes.swap_remove(k);
            let mut after = game.clone();
            if after.apply(i).is_ok()
                && let Some(d) = judge(&after)
            {
                *game = after;
                return Some(d);
            }
        }
        None
    }
}

/// What a chance outcome drawn by the sampler did to what the seat sees.
enum Draw {
    Unseen,
    Seen(u64),
}
