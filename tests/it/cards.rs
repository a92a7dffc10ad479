//! The card games keep their cards: in seeded random games of `crazy_eights` and
//! `whist`, after every decision each of the 52 cards is in exactly one place (the draw
//! pile, the discard pile, a hand, the trick on the table), and each place's cards are in
//! the state that place implies (owned in a hand, `discarded` on the discard pile, neither
//! elsewhere). Also: the same seed deals the same hands, another seed other hands, and
//! the deck comes back whole when the discards are reshuffled into it.
//!
//! The checks read the generated worlds directly (`Engine::world`): the deck is a `Deck`
//! object whose `items` and `discard_stack` are stacks of cards, and a card is in a hand
//! when a player owns it and it is not discarded.

use tgdl_runtime::{Game, Rng, Status};
use tgdl_tests::{crazy_eights, whist};

/// What is wrong with where the cards are (empty when every card is in one place).
macro_rules! misplaced_cards {
    ($world:expr, $deck:expr, $table:expr, $players:expr) => {{
        let w = $world;
        let deck = &w.decks[$deck];
        let draw = &w.stacks_card[deck.items].items;
        let discards = &w.stacks_card[deck.discard_stack].items;
        let mut places = vec![0u32; w.cards.len()];
        let mut wrong = Vec::new();
        if w.cards.len() != 52 {
            wrong.push(format!("{} cards exist", w.cards.len()));
        }
        for &c in draw.iter() {
            places[c.index()] += 1;
            if w.cards[c].owner.is_some() || w.cards[c].discarded {
                wrong.push(format!("{c:?} in the draw pile is owned or discarded"));
            }
        }
        for &c in discards.iter() {
            places[c.index()] += 1;
            if w.cards[c].owner.is_some() || !w.cards[c].discarded {
                wrong.push(format!("{c:?} on the discard pile is owned or not discarded"));
            }
        }
        for &c in $table.iter() {
            places[c.index()] += 1;
            if w.cards[c].owner.is_some() || w.cards[c].discarded {
                wrong.push(format!("{c:?} on the table is owned or discarded"));
            }
        }
        for (id, card) in w.cards.iter() {
            if let (Some(owner), false) = (card.owner, card.discarded) {
                places[id.index()] += 1;
                if owner.0 >= $players {
                    wrong.push(format!("{id:?} is held by player {}", owner.0));
                }
            }
        }
        for (i, &n) in places.iter().enumerate() {
            if n != 1 {
                wrong.push(format!("card #{i} is in {n} places"));
            }
        }
        let mut faces: Vec<(u32, String)> =
            w.cards.iter().map(|(_, c)| (c.rank as u32, c.suit.to_string())).collect();
        faces.sort();
        faces.dedup();
        if faces.len() != 52 {
            wrong.push(format!("{} different cards", faces.len()));
        }
        wrong
    }};
}

/// Plays random games, calling `check` on the engine before every decision and at the
/// end; panics with the game, the decision and what `check` found.
fn play_checked<G: Game>(name: &str, players: u32, seeds: u64, mut check: impl FnMut(&G) -> Vec<String>) {
    for seed in 0..seeds {
        let mut game = G::start(players, seed).expect("the game starts");
        let mut rng = Rng::new(seed ^ 0xca4d);
        loop {
            let wrong = check(&game);
            assert!(
                wrong.is_empty(),
                "{name}, {players} players, seed {seed}, after {} decisions: {wrong:?}",
                game.decisions()
            );
            match game.status() {
                Status::Decide(_) => {
                    let n = game.options().len() as u64;
                    game.apply(rng.below(n) as usize).expect("a listed option applies");
                }
                Status::Over => break,
                Status::Failed => panic!("{name}, seed {seed}: {:?}", game.error()),
                Status::Chance => panic!("{name}, seed {seed}: a seeded game stopped for chance"),
            }
        }
    }
}

#[test]
fn crazy_eights_keeps_every_card_in_one_place() {
    for players in 2..=6 {
        play_checked::<crazy_eights::Game>("crazy eights", players, 200, |game| {
            let w = game.world();
            let deck = w.eights.deck.expect("the deck is dealt in setup");
            let mut wrong =
                misplaced_cards!(w, deck, &[] as &[tgdl_runtime::Id<crazy_eights::Card>], players);
            let discards = &w.stacks_card[w.decks[deck].discard_stack].items;
            match discards.back() {
                None => wrong.push("the discard pile is empty".into()),
                Some(&top) => {
                    let top = &w.cards[top];
                    if !w.eights.calling && top.rank != 8.0 && w.eights.to_follow != top.suit {
                        wrong.push("the suit to follow is not the top card's".into());
                    }
                }
            }
            if w.stock.drawn > 3.0 {
                wrong.push(format!("{} cards drawn in one turn", w.stock.drawn));
            }
            wrong
        });
    }
}

#[test]
fn whist_keeps_every_card_in_one_place() {
    for players in 2..=4 {
        play_checked::<whist::Game>("whist", players, 334, |game| {
            let w = game.world();
            let deck = w.whist.deck.expect("the deck is dealt in setup");
            let trick = &w.lists_card[w.whist.trick.expect("a trick list")].items;
            let mut wrong = misplaced_cards!(w, deck, trick, players);
            let played = w.whist.played as usize;
            let d = &w.decks[deck];
            if w.stacks_card[d.discard_stack].items.len() != played * players as usize {
                wrong.push("the discard pile is not the tricks played".into());
            }
            if w.stacks_card[d.items].items.len() != 52 - 13 * players as usize {
                wrong.push("cards were drawn after the deal".into());
            }
            let taken: f64 = w.lists_number[w.whist.tricks.expect("trick counts")].items.iter().sum();
            if taken as usize != played {
                wrong.push(format!("{taken} tricks counted, {played} played"));
            }
            if trick.len() >= players as usize {
                wrong.push("a full trick was left on the table".into());
            }
            wrong
        });
    }
}

/// The hands dealt in setup: for each player, the cards they own, by face.
fn hands(game: &crazy_eights::Game) -> Vec<Vec<String>> {
    let w = game.world();
    (0..game.players())
        .map(|p| {
            let mut hand: Vec<String> = w
                .cards
                .iter()
                .filter(|(_, c)| c.owner.map(|o| o.0) == Some(p) && !c.discarded)
                .map(|(_, c)| format!("{} {}", c.rank, c.suit))
                .collect();
            hand.sort();
            hand
        })
        .collect()
}

#[test]
fn the_same_seed_deals_the_same_hands() {
    let deal = |seed| hands(&crazy_eights::Game::start(4, seed).expect("starts"));
    assert_eq!(deal(7), deal(7));
    assert_ne!(deal(7), deal(8), "another seed shuffles another deck");
    for hand in deal(7) {
        assert_eq!(hand.len(), 5);
    }
}

#[test]
fn reshuffling_brings_the_discards_back_into_the_deck() {
    // Two players draw often: in some of these games the deck runs out and is refilled
    // from the discards (all but the top card), and the card count still holds.
    let mut refills = 0;
    for seed in 0..200 {
        let mut game = crazy_eights::Game::start(2, seed).expect("starts");
        let mut rng = Rng::new(seed);
        while let Status::Decide(_) = game.status() {
            let w = game.world();
            let deck = &w.decks[w.eights.deck.expect("dealt")];
            let before = w.stacks_card[deck.items].items.len();
            let n = game.options().len() as u64;
            game.apply(rng.below(n) as usize).expect("applies");
            let w = game.world();
            let deck = &w.decks[w.eights.deck.expect("dealt")];
            if w.stacks_card[deck.items].items.len() > before {
                refills += 1;
                assert_eq!(w.stacks_card[deck.discard_stack].items.len(), 1, "only the top card stays out");
                for &c in w.stacks_card[deck.items].items.iter() {
                    assert!(!w.cards[c].discarded, "a reshuffled card is no longer discarded");
                }
            }
        }
    }
    assert!(refills > 0, "no game ran out of cards: the test proves nothing");
}
