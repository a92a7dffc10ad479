//! A menu input whose filter opens by requiring the candidate to be in a list tries the
//! list's objects alone, in creation order, on `tests/equivalence/listed_members.tgdl`:
//! the same game as walking every candidate (the plain engine), with menus of many sizes
//! and the hands' filter offering something; and when computing the list fails
//! (`listed_members_error.tgdl`), the filter reports the error where it always did.

use super::{all, none, two_players};
use tgdl_runtime::Game as _;

#[test]
fn trying_the_lists_objects_offers_what_walking_every_candidate_offers() {
    let mut lengths = std::collections::BTreeSet::new();
    let mut claims = 0;
    for seed in 0..80 {
        let (end, _) =
            two_players::<all::listed_members::Game, none::listed_members::Game>(seed, |_, labels, _| {
                claims += labels.iter().filter(|l| l.starts_with("claim")).count();
                lengths.insert(labels.len());
            });
        assert!(end.outcome().is_some(), "seed {seed}: the game ends");
    }
    assert!(lengths.len() >= 5, "{lengths:?}");
    assert!(claims > 0, "the hands' filter offered something");
}

#[test]
fn a_list_that_cannot_be_computed_is_the_filters_error() {
    let game = all::listed_members_error::Game::start(2, 0).expect("two players");
    let error = game.error().expect("the menu stops on the filter's error").to_string();
    assert!(error.contains("index"), "{error}");
}
