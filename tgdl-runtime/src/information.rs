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
//! those after which the seat would have seen exactly what it saw. When a world strays
//! from what the seat saw, the sampler goes back to the latest chance event or decision
//! with alternatives left and tries the next (depth first, within a budget of steps, then
//! afresh). So the worlds an agent searches are a function of its seat's information
//! state and its own seed, and nothing else: a die rolled into another player's hand, a card picked by a
//! hidden roll in the middle of a move, a public reference to a hidden card all come out
//! of the sampler's own chance. When no consistent world is found within a budget, the
//! sampler says so; it never falls back on the real world.
//!
//! Replaying is the general way and its cost grows with the game's length; games where
//! redistributing the hidden objects among the hidden places provably gives the same
//! worlds take that fast path instead ([`crate::Game::pool_sample`]).

use crate::chance::{ChanceEvent, ChanceMode};
pub use crate::game::Record;
use crate::game::{ApplyError, Game, Start, Status};
pub use crate::hidden::SampleError;
use crate::hidden::Viewer;
use crate::rng::Rng;

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
    /// The parameters the game started with (public: every seat knows the variant).
    pub params: crate::params::Params,
    /// What the seat saw before any step.
    pub first: u64,
    pub events: Vec<Event>,
    /// The menu the seat decides from now, as it reads it.
    pub menu: u64,
    /// In a round of simultaneous choices under way, the others who have chosen in it
    /// (that they have is public; what they chose is not).
    pub chosen: Vec<u32>,
}

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

/// A seat's menu as it reads it, as a fingerprint (in a round, its own menu whoever the
/// round asks first).
fn menu_of<G: Game>(game: &G, seat: u32) -> u64 {
    labels_print(&game.labels_of(seat, Viewer::Seat(seat)))
}

/// Whether `game` stands at the start of a round that `seat` chooses in: where a seat's
/// information state ends while the round is under way (what the others chose in it is
/// not the seat's to know, nor whether they chose first).
fn at_round_start<G: Game>(game: &G, seat: u32) -> bool {
    game.round().is_some_and(|r| r.is_fresh() && r.waits_for(seat))
}

/// How option `option` reads to `seat`, as a fingerprint.
fn label_of<G: Game>(game: &G, seat: u32, option: usize) -> u64 {
    let labels = game.labels_for(Viewer::Seat(seat));
    labels.get(option).map_or(0, |l| fingerprint(l.as_bytes()))
}

/// Has each of `players` make a choice in the round under way, uniformly at random: what
/// they chose is hidden from whoever the world is drawn for.
pub fn choose_blindly<G: Game>(game: &mut G, players: &[u32], rng: &mut Rng) -> Result<(), ApplyError> {
    for &p in players {
        let n = game.options_of(p).len() as u64;
        if n == 0 {
            return Err(ApplyError::NotDeciding);
        }
        game.apply_for(p, rng.below(n) as usize)?;
    }
    Ok(())
}

/// A fresh game of `players` players with every chance event a decision of its own,
/// keeping its record or not.
fn explicit<G: Game>(players: u32, params: &crate::params::Params, record: bool) -> Result<G, SampleError> {
    G::start_with(&Start { players, seed: 0, chance: ChanceMode::Explicit, record, params: params.clone() })
        .map_err(|e| SampleError::Replay(e.to_string()))
}

/// Applies the chance outcome a record names, at an explicit game's chance event.
pub fn apply_recorded<G: Game>(game: &mut G, recorded: u64) -> Result<(), SampleError> {
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
    /// the seat's decision (or its choice in a round under way).
    pub fn of<G: Game>(game: &G, seat: u32) -> Result<InfoState, SampleError> {
        let in_round = game.round().is_some_and(|r| r.waits_for(seat));
        if game.status() != Status::Decide(crate::value::Player(seat)) && !in_round {
            return Err(SampleError::NotDeciding);
        }
        let record = game.record().ok_or(SampleError::NoRecord)?;
        let mut replay: G = explicit(record.players, &record.params, false)?;
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
        // A round's choices are recorded when it closes: the replay stands at its start.
        let there = if in_round {
            at_round_start(&replay, seat)
                && replay.round().map(|r| r.players) == game.round().map(|r| r.players)
        } else {
            replay.status() == game.status()
        };
        if !there || chance.next().is_some() {
            return Err(SampleError::Replay("the replayed game is not where the real one is".into()));
        }
        let menu = menu_of(&replay, seat);
        if menu != menu_of(game, seat) {
            return Err(SampleError::Replay("the replayed menu differs from the real one".into()));
        }
        let chosen = game
            .round()
            .map(|r| r.players.iter().zip(&r.chosen).filter(|(_, c)| **c).map(|(&p, _)| p).collect())
            .unwrap_or_default();
        Ok(InfoState { seat, players: record.players, params: record.params, first, events, menu, chosen })
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
pub const DEFAULT_TRIES: u32 = 50;

/// Outcomes an attempt may try, in all, before it gives up and a new one starts.
const STEPS_PER_TRY: u32 = 2_000;

/// Draws tried at a chance event whose outcomes cannot be listed (`random()`).
const UNIT_DRAWS: usize = 16;

/// Steps that change nothing the seat sees, in a row, before an attempt is abandoned: a
/// game that loops on chance could repeat them without end.
const UNSEEN_STEPS: u32 = 100_000;

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
            let game: G = explicit(self.info.players, &self.info.params, record)?;
            if seen_by(&game, self.info.seat) != self.info.first {
                continue;
            }
            if let Some(world) = self.search(game, rng) {
                return Ok(world);
            }
        }
        Err(SampleError::NoConsistentWorld { seat: self.info.seat, tries: self.tries })
    }

    /// One attempt: plays `game` along the information state, depth first. At each chance
    /// event and each decision of another player the alternatives are put in a random
    /// order (chance by its probability); the first after which the seat sees what it saw
    /// is followed, and when the play strays further on, the search goes back to the
    /// latest point with alternatives left. `None` when the attempt's steps run out.
    fn search<G: Game>(&self, game: G, rng: &mut Rng) -> Option<G> {
        let mut steps = STEPS_PER_TRY;
        let mut forks: Vec<Fork<G>> = Vec::new();
        let mut at = Some(Place { game, next: 0, now: self.info.first, unseen: 0 });
        loop {
            if let Some(place) = at.take() {
                match self.advance(place, rng) {
                    Advance::Arrived(world) => return Some(world),
                    Advance::Fork(fork) => forks.push(fork),
                    Advance::Strayed => {}
                }
            }
            // The next alternative of the latest fork that has one left.
            let fork = forks.last_mut()?;
            let Some(choice) = fork.left.pop() else {
                forks.pop();
                continue;
            };
            steps = steps.checked_sub(1)?;
            let (next, now, unseen, expects) = (fork.at.next, fork.at.now, fork.at.unseen, fork.expects);
            // The last alternative takes the fork's game itself.
            let mut after = if fork.left.is_empty() {
                forks.pop().expect("the fork just read").at.game
            } else {
                fork.at.game.clone()
            };
            let applied = match choice {
                Alternative::Option(i) => after.apply(i),
                Alternative::Unit(bits) => after.answer_unit(bits),
            };
            if applied.is_err() {
                continue;
            }
            let saw = seen_by(&after, self.info.seat);
            at = match expects {
                // Chance: nothing the seat sees changed, or the next thing it saw.
                Expects::Chance(_) if saw == now => {
                    (unseen < UNSEEN_STEPS).then_some(Place { game: after, next, now, unseen: unseen + 1 })
                }
                Expects::Chance(Some(expected)) if saw == expected => {
                    Some(Place { game: after, next: next + 1, now: saw, unseen: 0 })
                }
                Expects::Decision(expected) if saw == expected => {
                    Some(Place { game: after, next: next + 1, now: saw, unseen: 0 })
                }
                _ => None,
            };
        }
    }

    /// Plays `place` on through the seat's own decisions, which the information state
    /// names, to the next fork, the end, or a step that strays.
    fn advance<G: Game>(&self, mut place: Place<G>, rng: &mut Rng) -> Advance<G> {
        let seat = self.info.seat;
        let events = &self.info.events;
        loop {
            let game = &mut place.game;
            if place.next == events.len() && at_round_start(game, seat) {
                if menu_of(game, seat) != self.info.menu {
                    return Advance::Strayed;
                }
                // Those who chose already chose something: anything, as far as the seat knows.
                return match choose_blindly(game, &self.info.chosen, rng) {
                    Ok(()) => Advance::Arrived(place.game),
                    Err(_) => Advance::Strayed,
                };
            }
            match game.status() {
                Status::Chance => {
                    let expected = match events.get(place.next) {
                        Some(Event::Saw(saw)) => Some(*saw),
                        _ => None,
                    };
                    let left = chance_order(game, rng);
                    return Advance::Fork(Fork { at: place, left, expects: Expects::Chance(expected) });
                }
                Status::Decide(p) if p.0 == seat => {
                    if place.next == events.len() {
                        return if menu_of(game, seat) == self.info.menu {
                            Advance::Arrived(place.game)
                        } else {
                            Advance::Strayed
                        };
                    }
                    let Some(&Event::Own { option, menu, saw }) = events.get(place.next) else {
                        return Advance::Strayed;
                    };
                    if menu_of(game, seat) != menu
                        || game.apply(option as usize).is_err()
                        || seen_by(game, seat) != saw
                    {
                        return Advance::Strayed;
                    }
                    place.now = saw;
                    place.next += 1;
                    place.unseen = 0;
                }
                Status::Decide(p) => {
                    let Some(&Event::Other { player, label, saw }) = events.get(place.next) else {
                        return Advance::Strayed;
                    };
                    if player != p.0 {
                        return Advance::Strayed;
                    }
                    // The options the seat would have read as it did, in a random order.
                    let labels = game.labels_for(Viewer::Seat(seat));
                    let mut left: Vec<Alternative> = (0..labels.len())
                        .filter(|&i| fingerprint(labels[i].as_bytes()) == label)
                        .map(Alternative::Option)
                        .collect();
                    rng.shuffle(&mut left);
                    // Popped from the end.
                    left.reverse();
                    return Advance::Fork(Fork { at: place, left, expects: Expects::Decision(saw) });
                }
                Status::Over | Status::Failed => return Advance::Strayed,
            }
        }
    }
}

/// The outcomes of the chance event `game` waits at, in the order a search tries them
/// (the last first): drawn by their probability without replacement, or, where they
/// cannot be listed, a few draws from the distribution.
fn chance_order<G: Game>(game: &G, rng: &mut Rng) -> Vec<Alternative> {
    if matches!(game.chance_event(), Some(ChanceEvent::Unit)) {
        return (0..UNIT_DRAWS).map(|_| Alternative::Unit(rng.unit().to_bits())).collect();
    }
    // Every outcome is equally likely in TGDL; weighted draws keep working if that changes.
    let mut outcomes = game.chance_outcomes();
    let mut order = Vec::with_capacity(outcomes.len());
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
        order.push(Alternative::Option(outcomes.swap_remove(k).0));
    }
    order.reverse();
    order
}

/// A game on its way along an information state: `next` is the event to meet, `now` what
/// the seat sees, `unseen` the steps in a row that changed nothing it sees.
struct Place<G> {
    game: G,
    next: usize,
    now: u64,
    unseen: u32,
}

/// A point with alternatives: chance, or another player's decision.
struct Fork<G> {
    at: Place<G>,
    /// Still to try, the last first.
    left: Vec<Alternative>,
    expects: Expects,
}

/// What the seat must see after a fork's alternative.
#[derive(Clone, Copy)]
enum Expects {
    /// After chance: what it saw before, or the next thing it saw, if that is a sight.
    Chance(Option<u64>),
    /// After another player's decision: what it saw then.
    Decision(u64),
}

enum Alternative {
    Option(usize),
    Unit(u64),
}

enum Advance<G> {
    Arrived(G),
    Fork(Fork<G>),
    Strayed,
}
