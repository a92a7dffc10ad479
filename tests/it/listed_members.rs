//! A menu input whose filter opens by requiring the candidate to be in a list
//! (`return open.contains(to) && ...;`, `if (!hand.contains(t) || ...) { return false; }`)
//! tries the list's objects alone, in creation order: two versions of one game, the second
//! with the membership behind another test (so that it walks every candidate), are played
//! side by side over many seeds and must offer the same options in the same order at every
//! decision. The lists hold objects out of creation order, repeats, nulls, objects of
//! another class (walls in a list of tiles) and discarded tokens; they change as the game
//! goes. When computing the list fails, the menu walks every candidate and the filter
//! reports the error where it always did.

use tgdl_runtime::Game as _;
use tgdl_tests::play_side_by_side;

mod listed {
    tgdl_macros::tgdl! {
        game Members players 2;

        tile Cell { player mark; }
        tile Wall { }

        board Board {
            group Grid {
                geometry square;
                grid {
                    Cell Cell Wall Cell;
                    Cell Wall Cell Cell;
                    Cell Cell Cell Wall;
                }
            }
        }

        interactable Token { number worth = 0; }

        global class Rules {
            List<tile> open = {};
            List<Token> pool = {};
            List<List<Token>> hands = {};
            number marks = 0;
            Stack<Token> trash = {};

            action mark {
                trigger PlayerChoiceEvent;
                input Cell to { return open.contains(to) && to.mark == null; }
                input Token with { return pool.contains(with) && with.worth % 2 == marks % 2; }
                effect { done(c: to, t: with); }
            }

            action claim {
                trigger PlayerChoiceEvent;
                input Token t {
                    if (!hands[player.active()].contains(t) || t.worth > 4) { return false; }
                    return true;
                }
                effect {
                    t.discard(trash);
                    next();
                }
            }

            function done {
                function input Cell c;
                function input Token t;
                returns;
                effect {
                    c.mark = player.active();
                    open.remove(c);
                    Token n = new Token() { worth = marks % 5 };
                    pool.add(n);
                    pool.add(t);
                    hands[player.active()].add(t);
                    pool.remove(pool[0]);
                    if (marks % 3 == 0) { t.discard(trash); }
                    next();
                }
            }

            // Always possible: the game cannot get stuck.
            action rest {
                trigger PlayerChoiceEvent;
                effect { next(); }
            }

            function next {
                returns;
                effect {
                    marks += 1;
                    if (marks >= 16) { winner {player.all()}; }
                    turn.pass();
                }
            }
        }

        turn Alternate {
            default { return turn.active() + 1; }
        }

        setup {
            Rules.hands.add({});
            Rules.hands.add({});
            for (tile t in Board.Grid.tiles) { Rules.open.add(t); }
            // Not creation order, with repeats.
            Rules.open.add(Board.Grid.at(1, 0));
            Rules.open.add(Board.Grid.at(0, 0));
            for (number i = 0; i < 6; i += 1) { Rules.pool.add(new Token() { worth = (i * 7) % 5 }); }
            Rules.pool.add(Rules.pool[2]);
            Rules.pool.add(Rules.pool[0]);
        }
    }
}

mod plain {
    tgdl_macros::tgdl! {
        game Members players 2;

        tile Cell { player mark; }
        tile Wall { }

        board Board {
            group Grid {
                geometry square;
                grid {
                    Cell Cell Wall Cell;
                    Cell Wall Cell Cell;
                    Cell Cell Cell Wall;
                }
            }
        }

        interactable Token { number worth = 0; }

        global class Rules {
            List<tile> open = {};
            List<Token> pool = {};
            List<List<Token>> hands = {};
            number marks = 0;
            Stack<Token> trash = {};

            action mark {
                trigger PlayerChoiceEvent;
                input Cell to { return to.x >= 0 && open.contains(to) && to.mark == null; }
                input Token with { return with.worth >= 0 && pool.contains(with) && with.worth % 2 == marks % 2; }
                effect { done(c: to, t: with); }
            }

            action claim {
                trigger PlayerChoiceEvent;
                input Token t {
                    if (t.worth < 0 || !hands[player.active()].contains(t) || t.worth > 4) { return false; }
                    return true;
                }
                effect {
                    t.discard(trash);
                    next();
                }
            }

            function done {
                function input Cell c;
                function input Token t;
                returns;
                effect {
                    c.mark = player.active();
                    open.remove(c);
                    Token n = new Token() { worth = marks % 5 };
                    pool.add(n);
                    pool.add(t);
                    hands[player.active()].add(t);
                    pool.remove(pool[0]);
                    if (marks % 3 == 0) { t.discard(trash); }
                    next();
                }
            }

            // Always possible: the game cannot get stuck.
            action rest {
                trigger PlayerChoiceEvent;
                effect { next(); }
            }

            function next {
                returns;
                effect {
                    marks += 1;
                    if (marks >= 16) { winner {player.all()}; }
                    turn.pass();
                }
            }
        }

        turn Alternate {
            default { return turn.active() + 1; }
        }

        setup {
            Rules.hands.add({});
            Rules.hands.add({});
            for (tile t in Board.Grid.tiles) { Rules.open.add(t); }
            // Not creation order, with repeats.
            Rules.open.add(Board.Grid.at(1, 0));
            Rules.open.add(Board.Grid.at(0, 0));
            for (number i = 0; i < 6; i += 1) { Rules.pool.add(new Token() { worth = (i * 7) % 5 }); }
            Rules.pool.add(Rules.pool[2]);
            Rules.pool.add(Rules.pool[0]);
        }
    }
}

// The list cannot be computed (an index past the end of a list of lists).
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
            List<List<Cell>> rows = {};

            action mark {
                trigger PlayerChoiceEvent;
                input Cell to { return rows[5].contains(to); }
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
fn trying_the_lists_objects_offers_what_walking_every_candidate_offers() {
    let mut lengths = std::collections::BTreeSet::new();
    let mut claims = 0;
    for seed in 0..80 {
        let (end, _) =
            play_side_by_side::<listed::members::Game, plain::members::Game>(seed, |_, labels, _| {
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
    let game = failing::failing::Game::start(2, 0).expect("two players");
    let error = game.error().expect("the menu stops on the filter's error").to_string();
    assert!(error.contains("index"), "{error}");
}
