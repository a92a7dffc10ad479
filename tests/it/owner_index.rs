//! The sets of tiles each player owns (`tgdl_runtime::owners`), which a menu input whose
//! filter opens with `from.stone == player.active()` walks instead of the whole board,
//! give the very game the whole board gives: two versions of one game, the second with
//! the ownership test behind another test (so that it walks every tile), are played side
//! by side over many seeds, and must offer the same options, in the same order, at every
//! decision and end the same way. The board has 70 tiles (two words of a set); stones
//! start from an initialiser, change in `setup`, in effects and through a function input.

use tgdl_runtime::Game as _;
use tgdl_tests::play_side_by_side;

mod indexed {
    tgdl_macros::tgdl! {
        game Claims players 2;

        // `stone` starts as player 1 everywhere (an initialiser), then setup clears most.
        tile Cell { player stone = 1; }

        board Board {
            group Grid {
                geometry square;
                grid {
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                }
            }
        }

        // Writes through a function input.
        function take {
            function input Cell c;
            function input player p;
            returns;
            effect { c.stone = p; }
        }

        global class Rules {
            number moves = 0;

            // Slide one of your stones to an empty cell beside it in its row.
            action slide {
                trigger PlayerChoiceEvent;
                input Cell from { return from.stone == player.active(); }
                input Cell to {
                    if (to.y != from.y) { return false; }
                    return to.stone == null && (to.x == from.x + 1 || to.x == from.x - 1);
                }
                effect {
                    to.stone = from.stone;
                    from.stone = null;
                    done();
                }
            }

            // Take the other player's stone above or below one of yours.
            action flip {
                trigger PlayerChoiceEvent;
                input Cell from { return from.stone == player.active(); }
                input Cell to {
                    if (to.x != from.x) { return false; }
                    return to.stone != null && to.stone != player.active() && (to.y == from.y + 1 || to.y == from.y - 1);
                }
                effect {
                    take(c: to, p: player.active());
                    done();
                }
            }

            action wait {
                trigger PlayerChoiceEvent;
                effect { done(); }
            }

            function done {
                returns;
                effect {
                    moves += 1;
                    if (moves == 60) {
                        number mine = 0;
                        number theirs = 0;
                        for (tile t in Board.Grid.tiles) {
                            Cell c = t as Cell;
                            if (c.stone == 0 && c.x >= 3 && c.x <= 6) { mine += 1; }
                            if (c.stone == 1 && c.x >= 3 && c.x <= 6) { theirs += 1; }
                        }
                        if (mine > theirs) { winner 0; }
                        if (theirs > mine) { winner 1; }
                        winner {player.all()};
                    }
                    turn.pass();
                }
            }
        }

        turn Alternate {
            default { return turn.active() + 1; }
        }

        setup {
            for (tile t in Board.Grid.tiles) {
                Cell c = t as Cell;
                if (c.x >= 2) { c.stone = null; }
                if (c.x == 9 || (c.x == 4 && c.y == 3)) { c.stone = 0; }
            }
        }
    }
}

mod plain {
    tgdl_macros::tgdl! {
        game Claims players 2;

        // `stone` starts as player 1 everywhere (an initialiser), then setup clears most.
        tile Cell { player stone = 1; }

        board Board {
            group Grid {
                geometry square;
                grid {
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                    Cell Cell Cell Cell Cell Cell Cell Cell Cell Cell;
                }
            }
        }

        // Writes through a function input.
        function take {
            function input Cell c;
            function input player p;
            returns;
            effect { c.stone = p; }
        }

        global class Rules {
            number moves = 0;

            // Slide one of your stones to an empty cell beside it in its row.
            action slide {
                trigger PlayerChoiceEvent;
                input Cell from { return from.stone != null && from.stone == player.active(); }
                input Cell to {
                    if (to.y != from.y) { return false; }
                    return to.stone == null && (to.x == from.x + 1 || to.x == from.x - 1);
                }
                effect {
                    to.stone = from.stone;
                    from.stone = null;
                    done();
                }
            }

            // Take the other player's stone above or below one of yours.
            action flip {
                trigger PlayerChoiceEvent;
                input Cell from { return from.stone != null && from.stone == player.active(); }
                input Cell to {
                    if (to.x != from.x) { return false; }
                    return to.stone != null && to.stone != player.active() && (to.y == from.y + 1 || to.y == from.y - 1);
                }
                effect {
                    take(c: to, p: player.active());
                    done();
                }
            }

            action wait {
                trigger PlayerChoiceEvent;
                effect { done(); }
            }

            function done {
                returns;
                effect {
                    moves += 1;
                    if (moves == 60) {
                        number mine = 0;
                        number theirs = 0;
                        for (tile t in Board.Grid.tiles) {
                            Cell c = t as Cell;
                            if (c.stone == 0 && c.x >= 3 && c.x <= 6) { mine += 1; }
                            if (c.stone == 1 && c.x >= 3 && c.x <= 6) { theirs += 1; }
                        }
                        if (mine > theirs) { winner 0; }
                        if (theirs > mine) { winner 1; }
                        winner {player.all()};
                    }
                    turn.pass();
                }
            }
        }

        turn Alternate {
            default { return turn.active() + 1; }
        }

        setup {
            for (tile t in Board.Grid.tiles) {
                Cell c = t as Cell;
                if (c.x >= 2) { c.stone = null; }
                if (c.x == 9 || (c.x == 4 && c.y == 3)) { c.stone = 0; }
            }
        }
    }
}

#[test]
fn walking_the_owners_sets_offers_what_walking_every_tile_offers() {
    let mut ends = std::collections::BTreeSet::new();
    for seed in 0..100 {
        let (end, decisions) =
            play_side_by_side::<indexed::claims::Game, plain::claims::Game>(seed, |_, _, _| {});
        assert_eq!(decisions, 60, "seed {seed}: the game lasts 60 moves");
        ends.insert(format!("{:?}", end.outcome()));
    }
    // Not a game that always ends one way.
    assert!(ends.len() >= 2, "{ends:?}");
}

#[test]
fn the_first_menu_lists_each_owned_stone_in_creation_order() {
    let game = indexed::claims::Game::start(2, 0).expect("two players");
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
