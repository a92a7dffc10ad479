//! An input's `in` list gives the same game as the equivalent filter: two versions of a
//! small board game, one that lets a stone step to any cell whose coordinates are next
//! to its own (a filter over every cell), one that takes them from its tile's
//! connections (`in this.tile.connections`), have the same perft counts; so do two
//! versions of a game whose list comes from a function (`List<tile>` for a `Cell`
//! input). All are embedded with `tgdl!`, so the macro's path parses `in` too.

use tgdl_play::perft;
use tgdl_runtime::Game as _;

mod filtered {
    tgdl_macros::tgdl! {
        game Steps players 2;

        tile Cell { number mark = -1; }

        board Board {
            group Grid {
                geometry square;
                grid {
                    Cell Cell Cell Cell;
                    Cell b    Cell Cell;
                    Cell Cell Cell Cell;
                }
            }
        }

        interactable Stone {
            action step {
                trigger PlayerChoiceEvent;
                input Cell to {
                    Cell from = this.tile as Cell;
                    bool column = to.x == from.x && (to.y - from.y) * (to.y - from.y) == 1;
                    bool row = to.y == from.y && (to.x - from.x) * (to.x - from.x) == 1;
                    if (!column && !row) { return false; }
                    return to.mark == -1;
                }
                effect {
                    (this.tile as Cell).mark = -1;
                    this.move_to(to);
                    to.mark = owner;
                    if (owner == 0 && to.y == 2 || owner == 1 && to.y == 0) { winner owner; }
                    turn.pass();
                }
            }
        }

        setup {
            for (number x = 0; x < 4; x += 2) {
                Stone a = new Stone();
                a.assign(0);
                a.move_to(Board.Grid[x][0]);
                (Board.Grid[x][0] as Cell).mark = 0;
                Stone b = new Stone();
                b.assign(1);
                b.move_to(Board.Grid[x + 1][2]);
                (Board.Grid[x + 1][2] as Cell).mark = 1;
            }
        }
    }
}

mod listed {
    tgdl_macros::tgdl! {
        game Steps players 2;

        tile Cell { number mark = -1; }

        board Board {
            group Grid {
                geometry square;
                grid {
                    Cell Cell Cell Cell;
                    Cell b    Cell Cell;
                    Cell Cell Cell Cell;
                }
            }
        }

        interactable Stone {
            action step {
                trigger PlayerChoiceEvent;
                input Cell to in this.tile.connections { return to.mark == -1; }
                effect {
                    (this.tile as Cell).mark = -1;
                    this.move_to(to);
                    to.mark = owner;
                    if (owner == 0 && to.y == 2 || owner == 1 && to.y == 0) { winner owner; }
                    turn.pass();
                }
            }
        }

        setup {
            for (number x = 0; x < 4; x += 2) {
                Stone a = new Stone();
                a.assign(0);
                a.move_to(Board.Grid[x][0]);
                (Board.Grid[x][0] as Cell).mark = 0;
                Stone b = new Stone();
                b.assign(1);
                b.move_to(Board.Grid[x + 1][2]);
                (Board.Grid[x + 1][2] as Cell).mark = 1;
            }
        }
    }
}

#[test]
fn an_in_list_and_the_equivalent_filter_give_the_same_perft_counts() {
    let by_filter = perft(&filtered::steps::Game::start(2, 0).unwrap(), 6);
    let by_list = perft(&listed::steps::Game::start(2, 0).unwrap(), 6);
    // Not a trivial game: several moves at the start, and the counts grow.
    assert!(by_filter[0] >= 4 && by_filter.windows(2).all(|w| w[1] > w[0]), "{by_filter:?}");
    assert_eq!(by_list, by_filter);
}

// The same pair where a filter opens with an ownership test (`to.mark == player.active()`),
// which walks an index of the cells each player owns when there is no `in` list.
mod spread_filtered {
    tgdl_macros::tgdl! {
        game Spread players 2;

        tile Cell { player mark; }

        board Board {
            group Grid {
                geometry square;
                grid {
                    Cell Cell Cell;
                    Cell Cell Cell;
                    Cell Cell Cell;
                }
            }
        }

        // Whether two tiles are orthogonal neighbours, by their coordinates.
        function beside {
            function input tile a;
            function input tile b;
            returns bool;
            effect {
                number dx = a.x - b.x;
                number dy = a.y - b.y;
                return dx * dx + dy * dy == 1;
            }
        }

        // The tiles next to `t`: the ends of its connections.
        function next_to {
            function input tile t;
            returns List<tile>;
            effect {
                List<tile> out = {};
                for (connection c in t.connections) { out.add(c.to); }
                return out;
            }
        }

        global class Rules {
            number moves = 0;

            // Claim an empty cell next to one of yours.
            action claim {
                trigger PlayerChoiceEvent;
                input Cell from { return from.mark == player.active(); }
                input Cell to {
                    if (!beside(a: from, b: to)) { return false; }
                    return to.mark == null;
                }
                effect {
                    to.mark = player.active();
                    done();
                }
            }

            // Hand one of your cells to the other player, when another of yours lies
            // next to it, to its right or below.
            action give {
                trigger PlayerChoiceEvent;
                input Cell from { return from.mark == player.active(); }
                input Cell to {
                    return to.mark == player.active() && to.x + to.y > from.x + from.y && beside(a: from, b: to);
                }
                effect {
                    from.mark = player.active() + 1;
                    done();
                }
            }

            function done {
                returns;
                effect {
                    moves += 1;
                    if (moves == 8) { winner 0; }
                    turn.pass();
                }
            }
        }

        setup {
            (Board.Grid[0][0] as Cell).mark = 0;
            (Board.Grid[1][0] as Cell).mark = 0;
            (Board.Grid[2][2] as Cell).mark = 1;
            (Board.Grid[2][1] as Cell).mark = 1;
        }
    }
}

mod spread_listed {
    tgdl_macros::tgdl! {
        game Spread players 2;

        tile Cell { player mark; }

        board Board {
            group Grid {
                geometry square;
                grid {
                    Cell Cell Cell;
                    Cell Cell Cell;
                    Cell Cell Cell;
                }
            }
        }

        // Whether two tiles are orthogonal neighbours, by their coordinates.
        function beside {
            function input tile a;
            function input tile b;
            returns bool;
            effect {
                number dx = a.x - b.x;
                number dy = a.y - b.y;
                return dx * dx + dy * dy == 1;
            }
        }

        // The tiles next to `t`: the ends of its connections.
        function next_to {
            function input tile t;
            returns List<tile>;
            effect {
                List<tile> out = {};
                for (connection c in t.connections) { out.add(c.to); }
                return out;
            }
        }

        global class Rules {
            number moves = 0;

            // Claim an empty cell next to one of yours.
            action claim {
                trigger PlayerChoiceEvent;
                input Cell from { return from.mark == player.active(); }
                input Cell to in next_to(t: from) { return to.mark == null; }
                effect {
                    to.mark = player.active();
                    done();
                }
            }

            // Hand one of your cells to the other player, when another of yours lies
            // next to it, to its right or below.
            action give {
                trigger PlayerChoiceEvent;
                input Cell from { return from.mark == player.active(); }
                input Cell to in next_to(t: from) {
                    return to.mark == player.active() && to.x + to.y > from.x + from.y;
                }
                effect {
                    from.mark = player.active() + 1;
                    done();
                }
            }

            function done {
                returns;
                effect {
                    moves += 1;
                    if (moves == 8) { winner 0; }
                    turn.pass();
                }
            }
        }

        setup {
            (Board.Grid[0][0] as Cell).mark = 0;
            (Board.Grid[1][0] as Cell).mark = 0;
            (Board.Grid[2][2] as Cell).mark = 1;
            (Board.Grid[2][1] as Cell).mark = 1;
        }
    }
}

#[test]
fn an_in_list_beside_an_ownership_filter_gives_the_same_perft_counts() {
    let by_filter = perft(&spread_filtered::spread::Game::start(2, 0).unwrap(), 6);
    let by_list = perft(&spread_listed::spread::Game::start(2, 0).unwrap(), 6);
    assert!(by_filter[0] >= 3 && by_filter.windows(2).all(|w| w[1] > w[0]), "{by_filter:?}");
    assert_eq!(by_list, by_filter);
}
