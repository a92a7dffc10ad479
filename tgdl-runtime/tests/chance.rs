//! Chance met explicitly and drawn from a seed: a hand-written world that shuffles a deck,
//! deals two cards and rolls a die in its setup, then lets player 0 stop or draw again.
//! The explicit game lists every outcome; a seeded game records what it drew, and the
//! explicit game answered from that record is the same game.

use tgdl_runtime::engine::{Core, Rules};
use tgdl_runtime::error::{Flow, Loc};
use tgdl_runtime::game::{Choice, GameInfo, Pick};
use tgdl_runtime::hidden::{Resample, Seen};
use tgdl_runtime::value::Player;
use tgdl_runtime::view::{Section, View};
use tgdl_runtime::{Arena, Engine, Game, GameRng, Id, Rng, Stack, Start, Status};

const TURN: Loc = Loc::new("draw.tgdl", 1, 1);
const ROLL: Loc = Loc::new("draw.tgdl", 2, 1);
/// The arena tag of the cards.
const CARDS: u32 = 0;

#[derive(Clone, Debug, PartialEq)]
struct Card {
    value: u32,
}

#[derive(Clone, Debug, PartialEq)]
struct Draw {
    core: Core,
    cards: Arena<Card>,
    deck: Stack<Id<Card>>,
    hand: Vec<Id<Card>>,
    die: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Mv {
    Stop,
    Draw,
}

impl Resample for Draw {}

impl Rules for Draw {
    type Move = Mv;
    const SETUP_MAY_ASK: bool = false;

    fn info() -> GameInfo {
        GameInfo { name: "Draw", source: "draw.tgdl", min_players: 1, max_players: 1, params: &[] }
    }

    fn new(core: Core) -> Self {
        Draw { core, cards: Arena::new(), deck: Stack::default(), hand: Vec::new(), die: 0.0 }
    }

    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn setup(&mut self) -> Flow<()> {
        for value in 1..=4 {
            let card = self.cards.alloc(Card { value });
            self.deck.push(Some(card));
        }
        self.deck.shuffle_deck(&mut self.core);
        for _ in 0..2 {
            if let Some(card) = self.deck.deal(&mut self.core, CARDS)? {
                self.hand.push(card);
            }
        }
        self.die = self.core.roll(3.0, ROLL)?;
        Ok(())
    }

    fn play(&mut self, mv: Mv) -> Flow<()> {
        if mv == Mv::Draw
            && let Some(card) = self.deck.deal(&mut self.core, CARDS)?
        {
            self.hand.push(card);
        }
        let total: u32 = self.hand.iter().map(|&c| self.cards[c].value).sum();
        if total as f64 + self.die > 7.0 { self.core.win(&[vec![Player(0)]]) } else { self.core.win(&[]) }
    }

    fn may_ask(_: &Mv) -> bool {
        false
    }

    fn menu(&mut self, out: &mut Vec<Choice<Mv>>) -> Flow<()> {
        out.extend([Choice::Move(Mv::Stop), Choice::Move(Mv::Draw)]);
        Ok(())
    }

    fn turn_location(&self) -> Loc {
        TURN
    }

    fn move_label(&self, mv: &Mv, _seen: &Seen) -> String {
        format!("{mv:?}").to_lowercase()
    }

    fn pick_label(&self, pick: &Pick, _seen: &Seen) -> String {
        match *pick {
            Pick::Object(_, i) => format!("card {}", self.cards[Id::from_index(i as usize)].value),
            other => format!("{other:?}"),
        }
    }

    fn observe(&self, _seen: &Seen) -> View {
        let hand: Vec<String> = self.hand.iter().map(|&c| self.cards[c].value.to_string()).collect();
        View {
            title: "Draw".to_string(),
            active: Some(0),
            phase: String::new(),
            sections: vec![Section::Attributes {
                title: String::new(),
                items: vec![("hand".to_string(), hand.join(" ")), ("die".to_string(), self.die.to_string())],
            }],
            tracks: Vec::new(),
        }
    }
}

type DrawGame = Engine<Draw>;

/// Counts the explicit game's paths to its first decision, and checks that every chance
/// event is uniform over what is left.
#[test]
fn an_explicit_deal_lists_one_event_per_card() {
    let game = DrawGame::start_with(&Start::explicit(1)).unwrap();
    assert_eq!(game.status(), Status::Chance);
    assert_eq!(game.options().len(), 4, "the first card off a shuffled deck of four");
    let outcomes = game.chance_outcomes();
    assert_eq!(outcomes.iter().map(|(_, p)| p).sum::<f64>(), 1.0);
    assert_eq!(game.labels(), ["card 1", "card 2", "card 3", "card 4"]);
    let mut second = game.clone();
    second.apply(2).unwrap();
    assert_eq!(second.status(), Status::Chance);
    assert_eq!(second.labels(), ["card 1", "card 2", "card 4"], "the third card is dealt");
    second.apply(0).unwrap();
    assert_eq!(second.labels(), ["rolls 1", "rolls 2", "rolls 3"]);
    second.apply(1).unwrap();
    assert_eq!(second.status(), Status::Decide(Player(0)));
    assert_eq!(second.world().hand.len(), 2);
    assert_eq!(second.world().die, 2.0);

    // Every path through setup: 4 × 3 cards, then 3 faces.
    fn paths(game: &DrawGame) -> u64 {
        match game.status() {
            Status::Chance => (0..game.options().len())
                .map(|i| {
                    let mut next = game.clone();
                    next.apply(i).unwrap();
                    paths(&next)
                })
                .sum(),
            _ => 1,
        }
    }
    assert_eq!(paths(&game), 36);
}

/// A seeded game's record, answered outcome by outcome to the explicit game, gives the same
/// hand and die, and the seeded game plays as it always has (the same cards for a seed as a
/// game that does not record).
#[test]
fn a_recorded_seeded_game_replays_explicitly() {
    for seed in 0..50 {
        let plain = DrawGame::start(1, seed).unwrap();
        let recorded = DrawGame::start_with(&Start::seeded(1, seed.into()).recording()).unwrap();
        assert_eq!(plain.world().hand, recorded.world().hand);
        assert_eq!(plain.world().die, recorded.world().die);
        let record = recorded.chance_record().unwrap().to_vec();
        assert_eq!(record.len(), 3, "two cards and a face");

        let mut explicit = DrawGame::start_with(&Start::explicit(1)).unwrap();
        let mut next = record.iter();
        while explicit.status() == Status::Chance {
            let event = explicit.chance_event().unwrap().clone();
            let outcome = event.outcome_of(*next.next().unwrap()).expect("the recorded outcome is listed");
            explicit.apply(outcome as usize).unwrap();
        }
        let (e, r) = (explicit.world(), recorded.world());
        let values = |w: &Draw| w.hand.iter().map(|&c| w.cards[c].value).collect::<Vec<_>>();
        assert_eq!(values(e), values(r), "seed {seed}");
        assert_eq!(e.die, r.die);
        assert_eq!(explicit.status(), Status::Decide(Player(0)));
    }
}

/// The seeded deck deals as the generator shuffled it: the same cards as a plain shuffle
/// of the same seed followed by pops from the top.
#[test]
fn seeded_decks_deal_as_they_always_have() {
    for seed in 0..20 {
        let game = DrawGame::start(1, seed).unwrap();
        let mut rng = GameRng::new(seed.into());
        let mut order: Vec<u32> = (1..=4).collect();
        rng.shuffle(&mut order);
        let dealt: Vec<u32> = game.world().hand.iter().map(|&c| game.world().cards[c].value).collect();
        assert_eq!(dealt, [order[3], order[2]]);
        assert_eq!(game.world().die, (rng.below(3) + 1) as f64);
    }
}

/// Sampling chance at every event gives each hand of two with the same frequency.
#[test]
fn sampled_chance_is_uniform() {
    let mut rng = Rng::new(9);
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..12_000 {
        let mut game = DrawGame::start_with(&Start::explicit(1)).unwrap();
        while game.status() == Status::Chance {
            game.sample_chance(&mut rng).unwrap();
        }
        let w = game.world();
        *counts.entry((w.cards[w.hand[0]].value, w.cards[w.hand[1]].value)).or_insert(0) += 1;
    }
    assert_eq!(counts.len(), 12);
    // 1,000 expected each; five standard deviations is about 150.
    assert!(counts.values().all(|&c| (850..=1150).contains(&c)), "{counts:?}");
}
