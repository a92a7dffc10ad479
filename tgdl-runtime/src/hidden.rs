//! Hidden information (docs/hidden-information.md): who may see which object, a seat's observation, and
//! determinization (a world consistent with what a seat has seen, for search).
//!
//! Generated worlds report where every object that can be hidden is (a [`Census`]): in a
//! closed stack, in a player's hand, or somewhere public. Everything else here is
//! generic: which objects a viewer cannot see, the hand sections of an observation, and
//! the redistribution of hidden objects among hidden places.

use crate::rng::Rng;
use crate::value::Player;
use crate::view::{Look, Section, View};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// Who looks at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    /// The designer (`play --reveal`, full traces): everything.
    All,
    /// The player in this seat: public things, their hand, their secrets, lines told to them.
    Seat(u32),
    /// A spectator: public things only.
    Public,
}

impl Viewer {
    /// May this viewer see what `owner` keeps to themselves (a hand, a `secret` value)?
    pub fn sees_owned(self, owner: Option<Player>) -> bool {
        match self {
            Viewer::All => true,
            Viewer::Seat(p) => owner == Some(Player(p)),
            Viewer::Public => false,
        }
    }

    /// The seat, as the log's `tell` lines are addressed.
    pub fn seat(self) -> Option<u32> {
        match self {
            Viewer::Seat(p) => Some(p),
            _ => None,
        }
    }
}

impl fmt::Display for Viewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Viewer::All => write!(f, "everyone"),
            Viewer::Seat(p) => write!(f, "player {p}"),
            Viewer::Public => write!(f, "spectators"),
        }
    }
}

/// Where an object that can be hidden is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// In the hand of a player, face down: owned, not on a tile, not in a stack, not
    /// discarded. Only its owner sees it.
    Hand(Player),
    /// In the hand of a player, face up (revealed, or back from a tile, the discards or an
    /// open stack): everyone sees it there.
    Shown(Player),
    /// In the hand of a player, held facing out (an `outward` class, face down): every other
    /// player sees it, its holder does not, nor do spectators (a log line is read by all).
    Outward(Player),
    /// Inside a closed stack: the deck (its arena tag and index) and the position in it.
    Stack { tag: u32, deck: u32, position: u32 },
    /// On a tile, discarded, in an open stack, or without owner: everyone sees it.
    Public,
}

/// One object that can be hidden, and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located {
    /// The object's arena and index (as in `Pick::Object`).
    pub tag: u32,
    pub index: u32,
    /// The root class of its hierarchy: what others are told they hold ("5 Card").
    pub root: &'static str,
    pub owner: Option<Player>,
    pub place: Place,
}

impl Located {
    pub fn hidden_from(&self, viewer: Viewer) -> bool {
        match self.place {
            Place::Public | Place::Shown(_) => false,
            Place::Hand(p) => !viewer.sees_owned(Some(p)),
            Place::Outward(p) => matches!(viewer, Viewer::Public) || viewer == Viewer::Seat(p.0),
            Place::Stack { .. } => viewer != Viewer::All,
        }
    }
}

/// Every object that can be hidden (pieces, cards, what decks hold), with its place:
/// hidden (a hand, a closed stack), face up in a hand, or public.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    pub objects: Vec<Located>,
}

/// What one viewer may not see of a world: built once per observation.
#[derive(Clone, Debug)]
pub struct Seen {
    pub viewer: Viewer,
    /// Hidden objects (tag, index) → their root class.
    hidden: HashMap<(u32, u32), &'static str>,
}

impl Seen {
    pub fn new(viewer: Viewer, census: &Census) -> Seen {
        let hidden = census
            .objects
            .iter()
            .filter(|o| o.hidden_from(viewer))
            .map(|o| ((o.tag, o.index), o.root))
            .collect();
        Seen { viewer, hidden }
    }

    /// What spectators may see: what is public.
    pub fn public(census: &Census) -> Seen {
        Seen::new(Viewer::Public, census)
    }

    /// Everything visible (the designer's view).
    pub fn all() -> Seen {
        Seen { viewer: Viewer::All, hidden: HashMap::new() }
    }

    /// The root class of an object this viewer may not see, `None` when it is visible.
    pub fn hides(&self, tag: u32, index: u32) -> Option<&'static str> {
        self.hidden.get(&(tag, index)).copied()
    }

    /// The text shown in place of a hidden object.
    pub fn hidden_label(root: &str) -> String {
        format!("a hidden {root}")
    }

    /// The text shown in place of a hidden object that bears marks everyone sees (its
    /// `public` attributes, what was disclosed of it): `a hidden Card (slot: 2, colour: red)`.
    pub fn hidden_form(root: &str, marks: &[(&str, String)]) -> String {
        if marks.is_empty() {
            return Seen::hidden_label(root);
        }
        let marks: Vec<String> = marks.iter().map(|(name, value)| format!("{name}: {value}")).collect();
        format!("a hidden {root} ({})", marks.join(", "))
    }

    /// The text shown in place of a `secret` value the viewer may not see.
    pub const SECRET: &'static str = "(secret)";
}

/// What one seat may see of a game: the view with hidden things left out, every hand
/// (or how many objects of which class it holds), and the lines of the log it may read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub viewer: Viewer,
    pub view: View,
    pub hands: Vec<Hand>,
    pub log: Vec<String>,
    /// A round of simultaneous choices under way: who chooses, and who has chosen (not
    /// what).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<crate::game::Round>,
}

/// The looks of a list's objects, in its order.
type Looks = Vec<Option<Look>>;

/// One player's hand as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand {
    pub player: u32,
    /// The objects, by label, when the viewer may see them (`None` otherwise).
    pub objects: Option<Vec<String>>,
    /// The objects of the hand that are face up, by label: every viewer sees them.
    #[serde(default)]
    pub face_up: Vec<String>,
    /// How many objects of each root class the hand holds, in class order.
    pub counts: Vec<(String, u32)>,
}

impl Hand {
    /// `player 1 holds 5 Card`, `player 0 holds 2 Card, 1 Token`, `player 2 holds nothing`.
    pub fn summary(&self) -> String {
        if self.counts.is_empty() {
            return format!("player {} holds nothing", self.player);
        }
        let parts: Vec<String> = self.counts.iter().map(|(class, n)| format!("{n} {class}")).collect();
        format!("player {} holds {}", self.player, parts.join(", "))
    }
}

impl Observation {
    /// Assembles an observation: `view` must already leave out what `viewer` may not see;
    /// the hands come from the census, labelled by `label` and drawn by `look` where
    /// visible.
    pub fn assemble(
        viewer: Viewer,
        players: u32,
        census: &Census,
        mut view: View,
        log: Vec<String>,
        label: impl Fn(u32, u32) -> String,
        look: impl Fn(u32, u32) -> Option<Look>,
    ) -> Observation {
        let mut hands: Vec<Hand> = (0..players)
            .map(|p| Hand {
                player: p,
                objects: viewer.sees_owned(Some(Player(p))).then(Vec::new),
                face_up: Vec::new(),
                counts: Vec::new(),
            })
            .collect();
        // Objects the viewer may not see are listed apart, sorted: their order among the
        // objects would tell what they are.
        let mut unseen: Vec<Vec<String>> = vec![Vec::new(); hands.len()];
        // The looks of each hand's listed objects and of its face-up ones, in their order.
        let mut looks: Vec<(Looks, Looks)> = vec![Default::default(); hands.len()];
        for o in &census.objects {
            let (Place::Hand(p) | Place::Shown(p) | Place::Outward(p)) = o.place else { continue };
            let Some(hand) = hands.get_mut(p.0 as usize) else { continue };
            let face_up = matches!(o.place, Place::Shown(_));
            let hidden = o.hidden_from(viewer);
            let text = label(o.tag, o.index);
            // A hand facing out, or a hidden object bearing public marks, is listed to
            // everyone who sees anything of it.
            let listed = hand.objects.is_some()
                || (matches!(o.place, Place::Outward(_)) && !hidden)
                || (hidden && text != Seen::hidden_label(o.root));
            if listed && hand.objects.is_none() {
                hand.objects = Some(Vec::new());
            }
            let seen_look = if hidden { None } else { look(o.tag, o.index) };
            if face_up {
                hand.face_up.push(text.clone());
                looks[p.0 as usize].1.push(seen_look.clone());
            }
            match (&mut hand.objects, hidden) {
                (Some(_), true) => unseen[p.0 as usize].push(text),
                (Some(objects), false) => {
                    objects.push(text);
                    looks[p.0 as usize].0.push(seen_look);
                }
                (None, _) => {}
            }
            match hand.counts.iter_mut().find(|(c, _)| c == o.root) {
                Some((_, n)) => *n += 1,
                None => hand.counts.push((o.root.to_string(), 1)),
            }
        }
        for (hand, mut unseen) in hands.iter_mut().zip(unseen) {
            if let Some(objects) = &mut hand.objects {
                unseen.sort();
                objects.extend(unseen);
            }
        }
        let any_hand = census
            .objects
            .iter()
            .any(|o| matches!(o.place, Place::Hand(_) | Place::Shown(_) | Place::Outward(_)));
        if any_hand {
            // Looks only where something has one; the hidden objects listed last have none.
            let some = |mut v: Looks, len: usize| {
                if v.iter().all(Option::is_none) {
                    return Vec::new();
                }
                v.resize(len, None);
                v
            };
            for (hand, (listed, face_up)) in hands.iter().zip(looks) {
                match &hand.objects {
                    Some(objects) if !objects.is_empty() => view.sections.push(Section::List {
                        title: format!("hand of player {}", hand.player),
                        items: objects.clone(),
                        looks: some(listed, objects.len()),
                    }),
                    // A hand the viewer may not see still shows its face-up objects.
                    None if !hand.face_up.is_empty() => view.sections.push(Section::List {
                        title: format!("face up in the hand of player {}", hand.player),
                        items: hand.face_up.clone(),
                        looks: some(face_up, hand.face_up.len()),
                    }),
                    _ => {}
                }
            }
            let others: Vec<(String, String)> = hands
                .iter()
                .filter(|h| h.objects.is_none())
                .map(|h| (format!("player {}", h.player), h.summary()))
                .collect();
            if !others.is_empty() {
                view.sections.push(Section::Attributes { title: "hands".to_string(), items: others });
            }
        }
        Observation { viewer, view, hands, log, round: None }
    }
}

/// The value of one `secret` attribute, where it is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Secret {
    /// `Class.attribute`.
    pub attribute: &'static str,
    /// The object holding it (tag, index); `None` for a global class.
    pub object: Option<(u32, u32)>,
    pub owner: Option<Player>,
    pub value: String,
}

impl Secret {
    /// Whether `viewer` may read this value.
    pub fn seen_by(&self, viewer: Viewer) -> bool {
        viewer.sees_owned(self.owner)
    }
}

/// What generated worlds tell about hidden information; the rest is generic. The
/// defaults describe a world with nothing to hide.
pub trait Resample {
    /// Where every object that can be hidden is.
    fn census(&self) -> Census {
        Census::default()
    }

    /// Puts object (`tag`, `index`) where `slot` was: its place and its owner.
    fn put(&mut self, _tag: u32, _index: u32, _slot: &Located) {}

    /// Puts each object where its slot was, as [`Resample::put`], and gives it what the
    /// slot's object bore that everyone sees: its `public` attributes and what was
    /// disclosed of it (they belong to the place, a hand's second card, not to what the
    /// card is).
    fn put_all(&mut self, tag: u32, moves: &[(u32, Located)]) {
        for (index, slot) in moves {
            self.put(tag, *index, slot);
        }
    }

    /// What everyone sees of an object even while it is hidden: its `public` attributes and
    /// the attributes disclosed of it, by name, as text.
    fn marks(&self, _tag: u32, _index: u32) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// Whether something was disclosed of the object in `slot`: what takes its place must
    /// agree with it.
    fn constrains(&self, _tag: u32, _slot: u32) -> bool {
        false
    }

    /// Whether object `candidate` agrees with what was disclosed of object `slot`, and so
    /// may take its place.
    fn fits(&self, _tag: u32, _candidate: u32, _slot: u32) -> bool {
        true
    }

    /// Every `secret` value of the world.
    fn secrets(&self) -> Vec<Secret> {
        Vec::new()
    }

    /// The objects (arena tag, index) that public attributes point at now, where the rules
    /// may store a reference taken from anywhere: redistributing hidden objects is exact
    /// only while each of them is visible.
    fn referenced(&self) -> Vec<(u32, u32)> {
        Vec::new()
    }
}

/// A `secret` value hidden from `viewer` that no redistribution of hidden objects can
/// resample: one of a global class, or of an object the viewer sees (its value does not
/// move with a hidden object). Its name.
pub fn unsampleable(secrets: &[Secret], census: &Census, viewer: Viewer) -> Option<&'static str> {
    let moves_with_hidden =
        |o: (u32, u32)| census.objects.iter().any(|l| (l.tag, l.index) == o && l.hidden_from(viewer));
    secrets
        .iter()
        .find(|s| !s.seen_by(viewer) && !s.object.is_some_and(moves_with_hidden))
        .map(|s| s.attribute)
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

/// Why a world could not be determinized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeterminizeError {
    /// No world was drawn from the seat's information state.
    Sample(SampleError),
    /// Determinization is for one seat.
    NotASeat(Viewer),
    /// The game has ended or failed.
    NotDeciding,
}

impl fmt::Display for DeterminizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeterminizeError::Sample(e) => write!(f, "{e}"),
            DeterminizeError::NotASeat(v) => write!(f, "determinization is for one seat, not for {v}"),
            DeterminizeError::NotDeciding => write!(f, "the game is not waiting for a decision"),
        }
    }
}

impl std::error::Error for DeterminizeError {}

/// Redistributes the objects hidden from `player` among the places hidden from them,
/// keeping how many objects of each root class each place holds: the fast path of
/// [`crate::information`]. Canonical: the hidden objects are taken in creation order and
/// the hidden places in the order of the places themselves (hands by player, then decks and
/// positions), so the result depends on which objects and places are hidden and on `rng`,
/// never on where each hidden object really is. `None` when a `secret` hidden from the
/// player does not travel with a hidden object (redistribution cannot resample it).
pub fn redistribute<W: Resample>(world: &mut W, player: u32, rng: &mut Rng) -> Option<()> {
    let viewer = Viewer::Seat(player);
    let census = world.census();
    if unsampleable(&world.secrets(), &census, viewer).is_some() {
        return None;
    }
    let mut groups: BTreeMap<u32, (Vec<u32>, Vec<Located>)> = BTreeMap::new();
    for o in census.objects.iter().filter(|o| o.hidden_from(viewer)) {
        let (objects, slots) = groups.entry(o.tag).or_default();
        objects.push(o.index);
        slots.push(*o);
    }
    for (&tag, (objects, slots)) in groups.iter_mut() {
        objects.sort_unstable();
        slots.sort_by_key(|slot| place_order(slot.place));
        let assigned = assign(&*world, tag, objects, slots, rng)?;
        let moves: Vec<(u32, Located)> =
            slots.iter().zip(assigned).map(|(slot, index)| (index, *slot)).collect();
        world.put_all(tag, &moves);
    }
    Some(())
}

/// How many proposals [`assign`] draws before it gives up.
const ASSIGN_TRIES: u32 = 1000;

/// Which object goes to each slot: a permutation of `objects`, uniform among those that
/// give every slot whose object had something disclosed an object agreeing with it. The
/// constrained slots are filled first, each with an object drawn among those left that
/// fit; such a proposal is accepted with probability ∏ (fitting left) / ∏ (fitting in
/// all), which makes every consistent assignment equally likely. `None` after
/// [`ASSIGN_TRIES`] rejected proposals.
fn assign<W: Resample>(
    world: &W,
    tag: u32,
    objects: &[u32],
    slots: &[Located],
    rng: &mut Rng,
) -> Option<Vec<u32>> {
    let constrained: Vec<usize> =
        (0..slots.len()).filter(|&i| world.constrains(tag, slots[i].index)).collect();
    if constrained.is_empty() {
        let mut shuffled = objects.to_vec();
        rng.shuffle(&mut shuffled);
        return Some(shuffled);
    }
    let fitting: Vec<Vec<usize>> = constrained
        .iter()
        .map(|&s| (0..objects.len()).filter(|&o| world.fits(tag, objects[o], slots[s].index)).collect())
        .collect();
    for _ in 0..ASSIGN_TRIES {
        let mut taken = vec![false; objects.len()];
        let mut chosen: Vec<Option<u32>> = vec![None; slots.len()];
        let mut accept = 1.0f64;
        let mut failed = false;
        for (k, &s) in constrained.iter().enumerate() {
            let left: Vec<usize> = fitting[k].iter().copied().filter(|&o| !taken[o]).collect();
            if left.is_empty() {
                failed = true;
                break;
            }
            accept *= left.len() as f64 / fitting[k].len() as f64;
            let o = left[rng.below(left.len() as u64) as usize];
            taken[o] = true;
            chosen[s] = Some(objects[o]);
        }
        if failed || rng.unit() >= accept {
            continue;
        }
        let mut rest: Vec<u32> = (0..objects.len()).filter(|&o| !taken[o]).map(|o| objects[o]).collect();
        rng.shuffle(&mut rest);
        let mut rest = rest.into_iter();
        return chosen.into_iter().map(|c| c.or_else(|| rest.next())).collect();
    }
    None
}

/// Where a place comes in the canonical order of places: hands by player, then decks by
/// arena and index, positions from the bottom.
fn place_order(place: Place) -> (u8, u32, u32, u32) {
    match place {
        Place::Hand(p) | Place::Outward(p) => (0, p.0, 0, 0),
        Place::Stack { tag, deck, position } => (1, tag, deck, position),
        // Never hidden: never a slot of redistribution.
        Place::Shown(_) | Place::Public => (2, 0, 0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four cards, (colour, rank): red 1, red 2, blue 1, blue 2. Slot 0 was disclosed red,
    /// slot 1 disclosed rank 1; slots 2 and 3 nothing.
    struct Clued;

    const CARDS: [(char, u8); 4] = [('r', 1), ('r', 2), ('b', 1), ('b', 2)];

    impl Resample for Clued {
        fn constrains(&self, _tag: u32, slot: u32) -> bool {
            slot < 2
        }

        fn fits(&self, _tag: u32, candidate: u32, slot: u32) -> bool {
            let c = CARDS[candidate as usize];
            match slot {
                0 => c.0 == 'r',
                1 => c.1 == 1,
                _ => true,
            }
        }
    }

    fn slots() -> Vec<Located> {
        (0..4)
            .map(|index| Located {
                tag: 0,
                index,
                root: "Card",
                owner: Some(Player(0)),
                place: Place::Hand(Player(0)),
            })
            .collect()
    }

    /// The three pairs that agree with both clues (red 1 + blue 1, red 2 + red 1, red 2 +
    /// blue 1) come out equally often: drawing each slot's card in turn would give the
    /// first one half of the draws.
    #[test]
    fn assignments_that_agree_with_the_clues_are_equally_likely() {
        let mut rng = Rng::new(7);
        let mut counts: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        let draws = 30_000;
        for _ in 0..draws {
            let a =
                assign(&Clued, 0, &[0, 1, 2, 3], &slots(), &mut rng).expect("consistent assignments exist");
            assert!(Clued.fits(0, a[0], 0) && Clued.fits(0, a[1], 1), "{a:?}");
            let mut sorted = a.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3]);
            *counts.entry((a[0], a[1])).or_default() += 1;
        }
        assert_eq!(counts.keys().copied().collect::<Vec<_>>(), [(0, 2), (1, 0), (1, 2)]);
        for (&pair, &n) in &counts {
            let share = n as f64 / draws as f64;
            assert!((share - 1.0 / 3.0).abs() < 0.02, "{pair:?}: {share}");
        }
    }

    /// No card agrees with a clue: no assignment.
    #[test]
    fn no_assignment_when_no_card_agrees() {
        struct Impossible;
        impl Resample for Impossible {
            fn constrains(&self, _tag: u32, slot: u32) -> bool {
                slot == 0
            }
            fn fits(&self, _tag: u32, _candidate: u32, _slot: u32) -> bool {
                false
            }
        }
        assert_eq!(assign(&Impossible, 0, &[0, 1, 2, 3], &slots(), &mut Rng::new(1)), None);
    }
}
