//! What each seat has observed of a game played with explicit chance, in order, with its
//! own decisions: the seat's information state with perfect recall, which OpenSpiel's
//! information-state strings and tensors are made of.
//!
//! The events are those of `tgdl_runtime::information`: what the seat saw at the start,
//! each chance outcome that changed what it sees, each of its own decisions (the option and
//! the menu it read) and each decision of another player as it read it, each with what it
//! saw after. Everything is read through the seat's own eyes (`Game::observation` and
//! `Game::labels_of` with the seat's viewer), never from the world.
//!
//! A round of simultaneous choices is noted when it closes, as the runtime's records do:
//! each choice of the round, in seat order, then what each seat saw after the round. While
//! a round is under way, a seat's information state ends at the round's start, so a seat
//! deciding in it has the same information state whoever chose before it, and whatever
//! they chose (`tgdl_runtime::information`).

use std::fmt::Write as _;
use std::sync::Arc;

use tgdl_runtime::hidden::Viewer;
use tgdl_runtime::{Game, Status};

/// FNV-1a, 128 bits: a digest of what a seat read or saw. 128 bits, so that two different
/// observations met in one game tree have the same digest with negligible probability.
pub fn digest(bytes: &[u8]) -> u128 {
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for &b in bytes {
        h ^= u128::from(b);
        h = h.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
    }
    h
}

/// What seat `seat` may see of `game`, as JSON.
pub fn observation_json<G: Game>(game: &G, seat: u32) -> String {
    serde_json::to_string(&game.observation(Viewer::Seat(seat))).unwrap_or_default()
}

/// The digest of a menu as a seat reads it.
fn menu_digest(labels: &[String]) -> u128 {
    digest(labels.join("\u{1f}").as_bytes())
}

/// The kind of a [`Sight`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// What the seat saw when the game started (before any step).
    Start,
    /// A chance outcome changed what the seat sees.
    Chance,
    /// The seat decided.
    Own,
    /// Another player decided.
    Other,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Start => "start",
            Kind::Chance => "chance",
            Kind::Own => "own",
            Kind::Other => "other",
        }
    }
}

/// One thing a seat observed.
#[derive(Debug)]
pub struct Sight {
    pub kind: Kind,
    /// Who decided (`Own`, `Other`).
    pub player: u32,
    /// The option the seat chose (`Own`).
    pub option: u32,
    /// The menu the seat chose from, as it read it (`Own`).
    pub menu: u128,
    /// How the seat read the decision (`Own`, `Other`).
    pub label: String,
    /// What the seat saw after the event: the observation's JSON, and its digest.
    pub observation: Arc<str>,
    pub saw: u128,
}

/// A seat's sights, newest first, shared between the copies of a state (copying a state
/// copies a pointer per seat).
#[derive(Debug)]
struct Link {
    sight: Sight,
    prev: Option<Arc<Link>>,
}

#[derive(Clone, Debug)]
struct Trail {
    last: Arc<Link>,
    len: usize,
}

/// How each seat read a decision about to be applied: the label of the option, and the
/// digest of the menu for the seat that decides.
#[derive(Clone, Debug)]
pub struct Reading {
    player: u32,
    option: u32,
    labels: Vec<(String, u128)>,
    /// A choice in a round of simultaneous choices: noted when the round closes.
    in_round: bool,
}

/// Every seat's sights since the start of a game with explicit chance.
#[derive(Clone, Debug)]
pub struct Sights {
    seats: Vec<Trail>,
    /// The choices made in the round under way, in the order they were made.
    round: Vec<Reading>,
}

impl Sights {
    /// What each seat sees of a game that just started.
    pub fn new<G: Game>(game: &G) -> Sights {
        let seats = (0..game.players())
            .map(|seat| {
                let observation = observation_json(game, seat);
                let sight = Sight {
                    kind: Kind::Start,
                    player: seat,
                    option: 0,
                    menu: 0,
                    label: String::new(),
                    saw: digest(observation.as_bytes()),
                    observation: observation.into(),
                };
                Trail { last: Arc::new(Link { sight, prev: None }), len: 1 }
            })
            .collect();
        Sights { seats, round: Vec::new() }
    }

    /// How each seat reads option `option` of `player`'s menu in `game`, about to be
    /// applied: `None` at a chance event (no seat reads chance's outcome as such, only what
    /// it then sees) or when `player` has no menu.
    pub fn read<G: Game>(game: &G, player: u32, option: usize) -> Option<Reading> {
        if game.status() == Status::Chance || game.options_of(player).is_empty() {
            return None;
        }
        let labels = (0..game.players())
            .map(|seat| {
                let labels = game.labels_of(player, Viewer::Seat(seat));
                let label = labels.get(option).cloned().unwrap_or_default();
                let menu = if seat == player { menu_digest(&labels) } else { 0 };
                (label, menu)
            })
            .collect();
        let in_round = game.round().is_some_and(|r| r.waits_for(player));
        Some(Reading { player, option: option as u32, labels, in_round })
    }

    /// Notes what each seat sees of `game` after a step: a decision read as `reading`, or
    /// a chance outcome (`None`), which a seat notes only when it changed what it sees. A
    /// choice in a round waits for the round to close; then the round's choices are
    /// noted together.
    pub fn note<G: Game>(&mut self, game: &G, reading: Option<Reading>) {
        let Some(reading) = reading else {
            self.note_each(game, None);
            return;
        };
        if !reading.in_round {
            self.note_each(game, Some(&reading));
            return;
        }
        self.round.push(reading);
        // Under way while some of its players have chosen and others not; a round that
        // closed is gone, or the next round has opened with nobody chosen.
        if game.round().is_some_and(|r| !r.is_fresh()) {
            return;
        }
        let mut round = std::mem::take(&mut self.round);
        // In seat order (the order the choices take effect), whatever order they came in.
        round.sort_by_key(|r| r.player);
        let last = round.pop();
        for r in &round {
            self.note_unseen(r);
        }
        self.note_each(game, last.as_ref());
    }

    /// Notes a decision of a round that closed, before the last: what the seats saw is
    /// noted with the last.
    fn note_unseen(&mut self, r: &Reading) {
        for (seat, trail) in self.seats.iter_mut().enumerate() {
            let (label, menu) = r.labels[seat].clone();
            let own = r.player == seat as u32;
            let sight = Sight {
                kind: if own { Kind::Own } else { Kind::Other },
                player: r.player,
                option: if own { r.option } else { 0 },
                menu,
                label,
                observation: trail.last.sight.observation.clone(),
                saw: trail.last.sight.saw,
            };
            trail.last = Arc::new(Link { sight, prev: Some(trail.last.clone()) });
            trail.len += 1;
        }
    }

    fn note_each<G: Game>(&mut self, game: &G, reading: Option<&Reading>) {
        for (seat, trail) in self.seats.iter_mut().enumerate() {
            let seat = seat as u32;
            let observation = observation_json(game, seat);
            let saw = digest(observation.as_bytes());
            let sight = match reading {
                None if saw == trail.last.sight.saw => continue,
                None => Sight {
                    kind: Kind::Chance,
                    player: 0,
                    option: 0,
                    menu: 0,
                    label: String::new(),
                    observation: observation.into(),
                    saw,
                },
                Some(r) => {
                    let (label, menu) = r.labels[seat as usize].clone();
                    let own = r.player == seat;
                    Sight {
                        kind: if own { Kind::Own } else { Kind::Other },
                        player: r.player,
                        option: if own { r.option } else { 0 },
                        menu,
                        label,
                        // Unchanged: shared with the sight before.
                        observation: if saw == trail.last.sight.saw {
                            trail.last.sight.observation.clone()
                        } else {
                            observation.into()
                        },
                        saw,
                    }
                }
            };
            trail.last = Arc::new(Link { sight, prev: Some(trail.last.clone()) });
            trail.len += 1;
        }
    }

    /// Seat `seat`'s sights, oldest first.
    pub fn of(&self, seat: u32) -> Vec<&Sight> {
        let Some(trail) = self.seats.get(seat as usize) else { return Vec::new() };
        let mut out = Vec::with_capacity(trail.len);
        let mut link = Some(&trail.last);
        while let Some(l) = link {
            out.push(&l.sight);
            link = l.prev.as_ref();
        }
        out.reverse();
        out
    }

    /// How many sights seat `seat` has.
    pub fn len(&self, seat: u32) -> usize {
        self.seats.get(seat as usize).map_or(0, |t| t.len)
    }

    /// Seat `seat`'s information state in `game` as text: one line per sight (digests of
    /// what it saw, the labels of decisions as it read them), its own choice in the round
    /// under way, the menu it decides from now (in a round, its own menu, whoever the round
    /// asks first), and what it saw last in full. Two histories give the same text exactly
    /// when the seat observed the same things in the same order and made the same
    /// decisions.
    pub fn information_state<G: Game>(&self, game: &G, seat: u32) -> String {
        let sights = self.of(seat);
        let mut out = format!("seat {seat}\n");
        for s in &sights {
            let _ = match s.kind {
                Kind::Start => writeln!(out, "start: saw {:032x}", s.saw),
                Kind::Chance => writeln!(out, "chance: saw {:032x}", s.saw),
                Kind::Own => writeln!(
                    out,
                    "player {} (this seat) chose {} {:?} from {:032x}: saw {:032x}",
                    s.player, s.option, s.label, s.menu, s.saw
                ),
                Kind::Other => writeln!(out, "player {} chose {:?}: saw {:032x}", s.player, s.label, s.saw),
            };
        }
        // Its own choice in the round under way: only its own (the others' are noted when
        // the round closes).
        for r in self.round.iter().filter(|r| r.player == seat) {
            let (label, menu) = &r.labels[seat as usize];
            let _ = writeln!(
                out,
                "player {seat} (this seat) chose {} {label:?} from {menu:032x} in the round under way",
                r.option
            );
        }
        if game.status() != Status::Chance && !game.options_of(seat).is_empty() {
            let menu = menu_digest(&game.labels_of(seat, Viewer::Seat(seat)));
            let _ = writeln!(out, "deciding from {menu:032x}");
        }
        if let Some(last) = sights.last() {
            out.push_str("sees ");
            out.push_str(&last.observation);
        }
        out
    }
}
