//! A menu input whose filter opens by requiring one object tries that object alone, on
//! `tests/equivalence/known_objects.tgdl`: the same game as walking every candidate (the
//! plain engine), with menus of one option and of several; and when computing the object
//! fails (`known_object_error.tgdl`), the filter reports the error where it always did.

use super::{all, none, two_players};
use tgdl_runtime::Game as _;

#[test]
fn trying_the_known_object_offers_what_walking_every_candidate_offers() {
    let mut lengths = std::collections::BTreeSet::new();
    for seed in 0..60 {
        two_players::<all::known_objects::Game, none::known_objects::Game>(seed, |_, labels, _| {
            lengths.insert(labels.len());
        });
    }
    // Menus of one option (the cell itself) and of several (its empty neighbours).
    assert!(lengths.len() >= 3, "{lengths:?}");
}

#[test]
fn a_known_object_that_cannot_be_computed_is_the_filters_error() {
    let game = all::known_object_error::Game::start(2, 0).expect("two players");
    let error = game.error().expect("the menu stops on the filter's error").to_string();
    assert!(error.contains("index"), "{error}");
}
