//! Menus kept up to date between moves (`tgdl_runtime::kept`): when every menu action picks
//! one board tile with a filter reading only that tile, the world keeps the last menu and
//! tests again only the tiles a move wrote. Two versions of one game, the second with each
//! filter behind a test of a global (so that its menu is built in full after every move),
//! are played side by side over many seeds and must offer the same options in the same order
//! at every decision. The game has three kept actions (their options follow one another in
//! the menu), two tile classes in one arena, filters with variables, branches, strings,
//! coordinates and nulls, and moves that write several tiles, write a tile without changing
//! what its filter says, and write a tile twice.
//!
//! (The engine also checks every kept menu against a full build in unoptimised builds, so
//! every test that plays a game whose menu is kept checks it too.)

use tgdl_runtime::{Game as _, Rules as _};
use tgdl_tests::play_side_by_side;

mod kept {
    tgdl_macros::tgdl! {
        game Plots players 2;

        // A well above each column: it takes three buckets.
        tile Well { number buckets = 0; }

        tile Plot {
            string state = "wild";
            number water = 0;
            player owner;
        }

        board Field {
            group Wells {
                geometry square;
                grid { Well Well Well Well Well; }
            }
            group Plots {
                geometry square;
                grid {
                    Plot Plot Plot Plot Plot;
                    Plot Plot Plot Plot Plot;
                    Plot Plot Plot Plot Plot;
                    Plot Plot Plot Plot Plot;
                }
            }
        }

        global class Rules {
            number moves = 0;

            // Draw water from a well that is not dry: the plots below it get wetter.
            action draw {
                trigger PlayerChoiceEvent;
                input Well well { return well.buckets < 3; }
                effect {
                    well.buckets += 1;
                    for (number y = 0; y < 4; y += 1) {
                        Plot p = Field.Plots[well.x][y];
                        p.water += 1;
                        // A write that changes nothing the filters say, and one undone.
                        p.water -= 1;
                        p.water += 1;
                    }
                    next();
                }
            }

            // Claim an open plot, or a wet wild one, that nobody owns (not the corner).
            action claim {
                trigger PlayerChoiceEvent;
                input Plot plot {
                    string s = plot.state;
                    if (plot.owner != null) { return false; }
                    if (plot.x == 0 && plot.y == 0) { return false; }
                    return s == "open" || plot.water >= 2;
                }
                effect {
                    plot.owner = player.active();
                    plot.state = "claimed";
                    // The plots beside it open up.
                    Plot left = Field.Plots.at(plot.x - 1, plot.y);
                    if (left != null && left.state == "wild") { left.state = "open"; }
                    Plot right = Field.Plots.at(plot.x + 1, plot.y);
                    if (right != null && right.state == "wild") { right.state = "open"; }
                    next();
                }
            }

            // Dry out a plot that holds exactly one bucket's water.
            action dry {
                trigger PlayerChoiceEvent;
                input Plot plot { return plot.water == 1; }
                effect {
                    plot.water = 0;
                    next();
                }
            }

            function next {
                returns;
                effect {
                    moves += 1;
                    if (moves == 30) { winner {player.all()}; }
                    turn.pass();
                }
            }
        }

        turn Alternate {
            default { return turn.active() + 1; }
        }

        setup {
            Field.Plots[2][2].state = "open";
        }
    }
}

mod plain {
    tgdl_macros::tgdl! {
        game Plots players 2;

        tile Well { number buckets = 0; }

        tile Plot {
            string state = "wild";
            number water = 0;
            player owner;
        }

        board Field {
            group Wells {
                geometry square;
                grid { Well Well Well Well Well; }
            }
            group Plots {
                geometry square;
                grid {
                    Plot Plot Plot Plot Plot;
                    Plot Plot Plot Plot Plot;
                    Plot Plot Plot Plot Plot;
                    Plot Plot Plot Plot Plot;
                }
            }
        }

        global class Rules {
            number moves = 0;
            bool open = true;

            action draw {
                trigger PlayerChoiceEvent;
                input Well well { return open && well.buckets < 3; }
                effect {
                    well.buckets += 1;
                    for (number y = 0; y < 4; y += 1) {
                        Plot p = Field.Plots[well.x][y];
                        p.water += 1;
                        p.water -= 1;
                        p.water += 1;
                    }
                    next();
                }
            }

            action claim {
                trigger PlayerChoiceEvent;
                input Plot plot {
                    string s = plot.state;
                    if (!open || plot.owner != null) { return false; }
                    if (plot.x == 0 && plot.y == 0) { return false; }
                    return s == "open" || plot.water >= 2;
                }
                effect {
                    plot.owner = player.active();
                    plot.state = "claimed";
                    Plot left = Field.Plots.at(plot.x - 1, plot.y);
                    if (left != null && left.state == "wild") { left.state = "open"; }
                    Plot right = Field.Plots.at(plot.x + 1, plot.y);
                    if (right != null && right.state == "wild") { right.state = "open"; }
                    next();
                }
            }

            action dry {
                trigger PlayerChoiceEvent;
                input Plot plot { return open && plot.water == 1; }
                effect {
                    plot.water = 0;
                    next();
                }
            }

            function next {
                returns;
                effect {
                    moves += 1;
                    if (moves == 30) { winner {player.all()}; }
                    turn.pass();
                }
            }
        }

        turn Alternate {
            default { return turn.active() + 1; }
        }

        setup {
            Field.Plots[2][2].state = "open";
        }
    }
}

#[test]
fn the_menu_kept_between_moves_is_the_menu_built_again() {
    // Every filter reads only its tile: the menu is kept; in the other version filters read
    // a global, and the menu is built again.
    const { assert!(kept::plots::World::KEEPS_MENU && !plain::plots::World::KEEPS_MENU) };
    let (mut actions, mut games) = (std::collections::BTreeSet::new(), 0);
    let (mut grew, mut shrank) = (0, 0);
    for seed in 0..120 {
        let mut last = None;
        let (game, decisions) =
            play_side_by_side::<kept::plots::Game, plain::plots::Game>(seed, |_, labels, _| {
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
    let mut game = kept::plots::Game::start(2, 7).expect("two players");
    for _ in 0..5 {
        game.apply(0).expect("an option");
    }
    let before = game.labels();
    let mut copy = game.clone();
    let mut reference = plain::plots::Game::start(2, 7).expect("two players");
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
    let mut original = kept::plots::Game::start(2, 11).expect("two players");
    let mut other = kept::plots::Game::start(2, 12).expect("two players");
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
