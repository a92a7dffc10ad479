//! The sets of tiles each player owns (`tgdl_runtime::owners`), on
//! `tests/equivalence/owner_indexes.tgdl`: walking them gives the very game walking the
//! whole board gives (the plain engine), and the first menu lists the owned stones in
//! creation order, across both words of a set.

use super::{all, none, two_players};
use tgdl_runtime::Game as _;

#[test]
fn walking_the_owners_sets_offers_what_walking_every_tile_offers() {
    let mut ends = std::collections::BTreeSet::new();
    for seed in 0..100 {
        let (end, decisions) =
            two_players::<all::owner_indexes::Game, none::owner_indexes::Game>(seed, |_, _, _| {});
        assert_eq!(decisions, 60, "seed {seed}: the game lasts 60 moves");
        ends.insert(format!("{:?}", end.outcome()));
    }
    // Not a game that always ends one way.
    assert!(ends.len() >= 2, "{ends:?}");
}

#[test]
fn the_first_menu_lists_each_owned_stone_in_creation_order() {
    let game = all::owner_indexes::Game::start(2, 0).expect("two players");
    let labels = game.labels();
    // Player 0 owns column 9 (creation indices 9, 19, ..., 69: both words of the set)
    // and Cell(4, 3) (index 34); the first moves slide them in that order.
    assert_eq!(labels[0], "slide from=Cell(9, 0) to=Cell(8, 0)");
    assert_eq!(labels[1], "slide from=Cell(9, 1) to=Cell(8, 1)");
    assert_eq!(labels[2], "slide from=Cell(9, 2) to=Cell(8, 2)");
    assert_eq!(labels[3], "slide from=Cell(4, 3) to=Cell(3, 3)");
    assert_eq!(labels[4], "slide from=Cell(4, 3) to=Cell(5, 3)");
    assert_eq!(labels[5], "slide from=Cell(9, 3) to=Cell(8, 3)");
    assert!(labels.iter().any(|l| l == "slide from=Cell(9, 6) to=Cell(8, 6)"), "{labels:?}");
}
