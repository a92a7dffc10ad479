//! An input's `in` list gives the same game as the equivalent filter: the games of
//! `tests/equivalence/steps_by_filter.tgdl` (a stone steps to any cell whose coordinates
//! are next to its own, a filter over every cell) and `steps_in_list.tgdl` (the cells
//! its tile's connections lead to, `in this.tile.connections`) have the same perft
//! counts; so do `spread_by_filter.tgdl` and `spread_in_list.tgdl` (a list from a
//! function, `List<tile>` for a `Cell` input, beside an ownership filter). The games with
//! lists are also embedded with `tgdl!`, so the macro's path parses `in` too.

use super::all;
use tgdl_play::perft;
use tgdl_runtime::Game as _;

mod embedded {
    tgdl_macros::tgdl!(file = "equivalence/steps_in_list.tgdl");
    tgdl_macros::tgdl!(file = "equivalence/spread_in_list.tgdl");
}

#[test]
fn an_in_list_and_the_equivalent_filter_give_the_same_perft_counts() {
    let by_filter = perft(&all::steps_by_filter::Game::start(2, 0).unwrap(), 6);
    let by_list = perft(&all::steps_in_list::Game::start(2, 0).unwrap(), 6);
    // Not a trivial game: several moves at the start, and the counts grow.
    assert!(by_filter[0] >= 4 && by_filter.windows(2).all(|w| w[1] > w[0]), "{by_filter:?}");
    assert_eq!(by_list, by_filter);
    assert_eq!(perft(&embedded::steps::Game::start(2, 0).unwrap(), 6), by_filter);
}

#[test]
fn an_in_list_beside_an_ownership_filter_gives_the_same_perft_counts() {
    let by_filter = perft(&all::spread_by_filter::Game::start(2, 0).unwrap(), 6);
    let by_list = perft(&all::spread_in_list::Game::start(2, 0).unwrap(), 6);
    assert!(by_filter[0] >= 3 && by_filter.windows(2).all(|w| w[1] > w[0]), "{by_filter:?}");
    assert_eq!(by_list, by_filter);
    assert_eq!(perft(&embedded::spread::Game::start(2, 0).unwrap(), 6), by_filter);
}
