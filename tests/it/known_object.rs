//! A menu input whose filter opens by requiring one object (`return to == Rules.target
//! && ...;`) tries that object alone: two versions of one game, the second with the
//! equality behind another test (so that it walks every candidate), are played side by
//! side over many seeds and must offer the same options in the same order at every
//! decision. When computing the object fails, the menu walks every candidate and the
//! filter reports the error where it always did.

use tgdl_runtime::Game as _;
use tgdl_tests::play_side_by_side;

mod known {
    tgdl_macros::tgdl! {
        game Marks players 2;

        tile Cell { player mark; }

        board Board {
            group Grid {
                geometry square;
                grid {
                    Cell Cell Cell Cell;
                    Cell Cell Cell Cell;
                    Cell Cell Cell Cell;
                }
            }
        }

        interactable Token {
            // Where the token allows the next mark: moves at every mark.
            number at = 0;
        }

        global class Rules {
            Token token;
            List<Cell> order = {};
            number marks = 0;

            // Mark the cell the token points at, or any empty cell beside it in its row.
            action mark {
                trigger PlayerChoiceEvent;
                input Cell to { return to == order[token.at] && to.mark == null; }
                effect { done(c: to); }
            }

            action near {
                trigger PlayerChoiceEvent;
                input Cell to {
                    if (to != order[token.at]) { return false; }
                    return to.mark != null;
                }
                input Cell next {
                    return next.mark == null && next.y == to.y && next != to;
                }
                effect { done(c: next); }
            }

            function done {
                function input Cell c;
                returns;
                effect {
                    c.mark = player.active();
                    marks += 1;
                    token.at = (token.at * 5 + 3) % 12;
                    if (marks == 8) { winner {player.all()}; }
                    turn.pass();
                }
            }
        }

        turn Alternate {
            default { return turn.active() + 1; }
        }

        setup {
            Rules.token = new Token();
            for (tile t in Board.Grid.tiles) { Rules.order.add(t as Cell); }
        }
    }
}

mod plain {
    tgdl_macros::tgdl! {
        game Marks players 2;

        tile Cell { player mark; }

        board Board {
            group Grid {
                geometry square;
                grid {
                    Cell Cell Cell Cell;
                    Cell Cell Cell Cell;
                    Cell Cell Cell Cell;
                }
            }
        }

        interactable Token {
            number at = 0;
        }

        global class Rules {
            Token token;
            List<Cell> order = {};
            number marks = 0;

            action mark {
                trigger PlayerChoiceEvent;
                input Cell to { return to.x >= 0 && to == order[token.at] && to.mark == null; }
                effect { done(c: to); }
            }

            action near {
                trigger PlayerChoiceEvent;
                input Cell to {
                    if (to.x < 0 || to != order[token.at]) { return false; }
                    return to.mark != null;
                }
                input Cell next {
                    return next.mark == null && next.y == to.y && next != to;
                }
                effect { done(c: next); }
            }

            function done {
                function input Cell c;
                returns;
                effect {
                    c.mark = player.active();
                    marks += 1;
                    token.at = (token.at * 5 + 3) % 12;
                    if (marks == 8) { winner {player.all()}; }
                    turn.pass();
                }
            }
        }

        turn Alternate {
            default { return turn.active() + 1; }
        }

        setup {
            Rules.token = new Token();
            for (tile t in Board.Grid.tiles) { Rules.order.add(t as Cell); }
        }
    }
}

// The object cannot be computed (an index past the list's end): the error of the filter.
mod failing {
    tgdl_macros::tgdl! {
        game Failing players 2;

        tile Cell { player mark; }

        board Board {
            group Grid {
                geometry square;
                grid { Cell Cell; }
            }
        }

        global class Rules {
            List<Cell> order = {};

            action mark {
                trigger PlayerChoiceEvent;
                input Cell to { return to == order[5]; }
                effect { winner player.active(); }
            }
        }

        turn Alternate {
            default { return turn.active() + 1; }
        }

        setup { }
    }
}

#[test]
fn trying_the_known_object_offers_what_walking_every_candidate_offers() {
    let mut lengths = std::collections::BTreeSet::new();
    for seed in 0..60 {
        play_side_by_side::<known::marks::Game, plain::marks::Game>(seed, |_, labels, _| {
            lengths.insert(labels.len());
        });
    }
    // Menus of one option (the cell itself) and of several (its empty neighbours).
    assert!(lengths.len() >= 3, "{lengths:?}");
}

#[test]
fn a_known_object_that_cannot_be_computed_is_the_filters_error() {
    let game = failing::failing::Game::start(2, 0).expect("two players");
    let error = game.error().expect("the menu stops on the filter's error").to_string();
    assert!(error.contains("index"), "{error}");
}
