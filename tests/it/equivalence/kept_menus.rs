//! Menus kept up to date between moves (`tgdl_runtime::kept`), on
//! `tests/equivalence/kept_menus.tgdl`: the menu is kept, the game it gives is the game of
//! the menu built in full after every move (the plain engine), and copies of a game keep
//! their own menus.
//!
//! (The engine also checks every kept menu against a full build in unoptimised builds, so
//! every test that plays a game whose menu is kept checks it too.)

use super::{all, none, two_players};
use tgdl_runtime::{Game as _, Rules as _};

#[test]
fn the_menu_kept_between_moves_is_the_menu_built_again() {
    // Every filter reads only its tile: the menu is kept; the plain generator builds it
    // again.
    const { assert!(all::kept_menus::World::KEEPS_MENU && !none::kept_menus::World::KEEPS_MENU) };
    let (mut actions, mut games) = (std::collections::BTreeSet::new(), 0);
    let (mut grew, mut shrank) = (0, 0);
    for seed in 0..120 {
        let mut last = None;
        let (game, decisions) =
            two_players::<all::kept_menus::Game, none::kept_menus::Game>(seed, |_, labels, _| {
                match last {
                    Some(n) if labels.len() > n => grew += 1,
                    Some(n) if labels.len() < n => shrank += 1,
                    _ => {}
                }
                last = Some(labels.len());
                for l in labels {
                    actions.insert(l.split(' ').next().unwrap_or_default().to_string());
                }
            });
        assert_eq!(decisions, 30, "seed {seed}: every game runs to its thirtieth move");
        assert!(game.outcome().is_some(), "seed {seed}");
        games += 1;
    }
    assert_eq!(games, 120);
    // All three actions are offered; moves add options and take them away.
    assert_eq!(actions.into_iter().collect::<Vec<_>>(), ["claim", "draw", "dry"]);
    assert!(grew > 500 && shrank > 500, "grew {grew} times, shrank {shrank} times");
}

#[test]
fn a_copied_game_keeps_its_own_menu() {
    // Searches copy a game and play on from the copy: the copy's kept menu must follow
    // the copy, and the original's must not move.
    let mut game = all::kept_menus::Game::start(2, 7).expect("two players");
    for _ in 0..5 {
        game.apply(0).expect("an option");
    }
    let before = game.labels();
    let mut copy = game.clone();
    let mut reference = none::kept_menus::Game::start(2, 7).expect("two players");
    for _ in 0..5 {
        reference.apply(0).expect("an option");
    }
    for k in [3, 1, 0, 2] {
        let pick = k % copy.labels().len();
        copy.apply(pick).expect("an option");
        reference.apply(pick).expect("an option");
        assert_eq!(copy.labels(), reference.labels());
    }
    assert_eq!(game.labels(), before);
    game.apply(1).expect("an option");
    assert_ne!(game.labels(), before);
}

#[test]
fn a_game_copied_into_another_plays_on_as_the_original() {
    // `clone_from` copies into the allocations of a game that is elsewhere (perft and
    // searches reuse one game per level): the copy must equal the original and play on
    // exactly as it does, kept menu included.
    let mut original = all::kept_menus::Game::start(2, 11).expect("two players");
    let mut other = all::kept_menus::Game::start(2, 12).expect("two players");
    for k in 0..9 {
        original.apply(k % original.options().len()).expect("an option");
        other.apply((k * 7) % other.options().len()).expect("an option");
    }
    other.clone_from(&original);
    assert_eq!(other, original);
    while matches!(original.status(), tgdl_runtime::Status::Decide(_)) {
        let pick = original.decisions() as usize % original.options().len();
        original.apply(pick).expect("an option");
        other.apply(pick).expect("an option");
        assert_eq!(other.labels(), original.labels());
    }
    assert_eq!(other.outcome(), original.outcome());
}
