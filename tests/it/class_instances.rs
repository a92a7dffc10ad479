//! A class's own instances (`tgdl_runtime::instances`): an input whose candidates are the
//! objects of a class that shares its arena with other classes (`input Joker j` where
//! `Card` has other subclasses, `input Goal to` among other tiles) walks a list the world
//! keeps of that class's objects, subclasses' included, instead of the whole arena with a
//! test of each object's kind. Two versions of one game, the second with inputs of the
//! base class and the subclass test in the filter (so that it walks the whole arena), are
//! played side by side over many seeds, and must offer the same options, in the same
//! order, at every decision and end the same way: menu inputs, a known object (`k == top`,
//! whose fallback walk is the list), a list input, an input asked of another player, an
//! `auto` input and an `input` statement. Objects of every class are created in `setup`
//! and during play, jokers and wild cards are discarded (they stay in the list, and the
//! `discarded` test still skips them), and goals come both from a board grid and from a
//! graph group's `default`. The language has no copy of an object, and the only objects
//! a rollback drops (the marks of a speculative menu) are collections, never class
//! objects, so the lists only grow.

use tgdl_runtime::Game as _;
use tgdl_tests::play_side_by_side;

mod listed {
    tgdl_macros::tgdl! {
        game Jokers players 2;

        // Four classes in one arena: `Joker` and `Wild` are walked from their own lists
        // in the first version; `Card` (the root) and `Coin` share the arena.
        interactable Card { number value = 0; }
        interactable Joker : Card { number power = 1; }
        interactable Wild : Joker { }
        interactable Coin : Card { }

        // Goals are tiles among spots: built with the board's grid, and made by a graph
        // group's `default` (so their handles are not known when the game is compiled).
        tile Spot { }
        tile Goal { number worth = 1; }

        board Field {
            group Row {
                geometry square;
                grid { Spot Goal Spot Goal Spot; }
            }
            group Extra {
                geometry graph;
                default {
                    Goal far = new Goal() { worth = 2 };
                    Goal near = new Goal() { worth = 3 };
                    this.add(far);
                    this.add(near);
                }
            }
        }

        global class Rules {
            number moves = 0;
            number made = 0;
            number score0 = 0;
            number score1 = 0;
            Stack<Card> pile = {};
            // The last joker played (a known object: the `echo` menu tries it alone).
            Joker top;

            // Play a joker: scores its power, and sometimes makes new cards.
            action play {
                trigger PlayerChoiceEvent;
                input Joker j { return (j.value + moves) % 3 != 0; }
                effect {
                    Joker played = j;
                    gain(n: played.power);
                    top = played;
                    if (played.value % 2 == 0) { played.discard(pile); }
                    make();
                    next();
                }
            }

            // Raise a goal.
            action aim {
                trigger PlayerChoiceEvent;
                input Goal to { return (to.worth + moves) % 3 == 1; }
                effect {
                    Goal goal = to;
                    goal.worth += 1;
                    gain(n: 1);
                    next();
                }
            }

            // Play the last joker again, when it is not discarded.
            action echo {
                trigger PlayerChoiceEvent;
                input Joker k { return k == top; }
                effect {
                    Joker again = k;
                    gain(n: again.power * 2);
                    again.discard(pile);
                    top = null;
                    next();
                }
            }

            // Choose some wild cards (a list, asked one by one), then one joker of the
            // opponent's choosing (an asked input), and power the first strong one up (auto).
            action gather {
                trigger PlayerChoiceEvent;
                input List<Wild> ws { filter w { return w.value < 6; } }
                player (player.active() + 1) input Joker given { return given.value != 4; }
                auto input Joker strong { return strong.power >= 3; }
                effect {
                    number n = ws.length();
                    for (Wild x in ws) {
                        Wild wild = x;
                        wild.value += 1;
                    }
                    Joker g = given;
                    Joker s = strong;
                    s.power += n + 1;
                    g.value += 2;
                    top = g;
                    make();
                    next();
                }
            }

            // Discard a joker of your choice (an `input` statement in the effect).
            action fold {
                trigger PlayerChoiceEvent;
                require { return moves % 4 == 3; }
                effect {
                    optional input Joker f { return f.power <= 2; }
                    if (f != null) {
                        Joker folded = f;
                        folded.discard(pile);
                    }
                    top = null;
                    new Coin() { value = moves };
                    next();
                }
            }

            action pass {
                trigger PlayerChoiceEvent;
                effect {
                    made += 1;
                    if (made % 3 == 0) { new Joker() { value = made, power = 2 }; }
                    next();
                }
            }

            function gain {
                function input number n;
                returns;
                effect {
                    if (player.active() == 0) { score0 += n; } else { score1 += n; }
                }
            }

            // New cards of every class, between jokers: the lists grow during play.
            function make {
                returns;
                effect {
                    made += 1;
                    new Card() { value = made };
                    if (made % 2 == 0) { new Joker() { value = made, power = made % 4 }; }
                    new Coin() { value = made + 1 };
                    if (made % 3 == 0) { new Wild() { value = made % 7, power = 3 }; }
                }
            }

            function next {
                returns;
                effect {
                    moves += 1;
                    if (moves == 40) {
                        if (score0 > score1) { winner 0; }
                        if (score1 > score0) { winner 1; }
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
            for (number i = 0; i < 5; i += 1) {
                new Card() { value = i };
                Joker j = new Joker() { value = i, power = i % 3 + 1 };
                new Coin() { value = i };
                if (i % 2 == 1) { new Wild() { value = i, power = 2 }; }
                if (i == 4) { j.discard(Rules.pile); }
            }
        }
    }
}

mod plain {
    tgdl_macros::tgdl! {
        game Jokers players 2;

        // Four classes in one arena: `Joker` and `Wild` are walked from their own lists
        // in the first version; `Card` (the root) and `Coin` share the arena.
        interactable Card { number value = 0; }
        interactable Joker : Card { number power = 1; }
        interactable Wild : Joker { }
        interactable Coin : Card { }

        // Goals are tiles among spots: built with the board's grid, and made by a graph
        // group's `default` (so their handles are not known when the game is compiled).
        tile Spot { }
        tile Goal { number worth = 1; }

        board Field {
            group Row {
                geometry square;
                grid { Spot Goal Spot Goal Spot; }
            }
            group Extra {
                geometry graph;
                default {
                    Goal far = new Goal() { worth = 2 };
                    Goal near = new Goal() { worth = 3 };
                    this.add(far);
                    this.add(near);
                }
            }
        }

        global class Rules {
            number moves = 0;
            number made = 0;
            number score0 = 0;
            number score1 = 0;
            Stack<Card> pile = {};
            // The last joker played (a known object: the `echo` menu tries it alone).
            Joker top;

            // Play a joker: scores its power, and sometimes makes new cards.
            action play {
                trigger PlayerChoiceEvent;
                input Card j { return j is Joker && (j.value + moves) % 3 != 0; }
                effect {
                    Joker played = j as Joker;
                    gain(n: played.power);
                    top = played;
                    if (played.value % 2 == 0) { played.discard(pile); }
                    make();
                    next();
                }
            }

            // Raise a goal.
            action aim {
                trigger PlayerChoiceEvent;
                input tile to { return to is Goal && ((to as Goal).worth + moves) % 3 == 1; }
                effect {
                    Goal goal = to as Goal;
                    goal.worth += 1;
                    gain(n: 1);
                    next();
                }
            }

            // Play the last joker again, when it is not discarded.
            action echo {
                trigger PlayerChoiceEvent;
                input Card k { return k is Joker && k == top; }
                effect {
                    Joker again = k as Joker;
                    gain(n: again.power * 2);
                    again.discard(pile);
                    top = null;
                    next();
                }
            }

            // Choose some wild cards (a list, asked one by one), then one joker of the
            // opponent's choosing (an asked input), and power the first strong one up (auto).
            action gather {
                trigger PlayerChoiceEvent;
                input List<Card> ws { filter w { return w is Wild && w.value < 6; } }
                player (player.active() + 1) input Card given { return given is Joker && given.value != 4; }
                auto input Card strong { return strong is Joker && (strong as Joker).power >= 3; }
                effect {
                    number n = ws.length();
                    for (Card x in ws) {
                        Wild wild = x as Wild;
                        wild.value += 1;
                    }
                    Joker g = given as Joker;
                    Joker s = strong as Joker;
                    s.power += n + 1;
                    g.value += 2;
                    top = g;
                    make();
                    next();
                }
            }

            // Discard a joker of your choice (an `input` statement in the effect).
            action fold {
                trigger PlayerChoiceEvent;
                require { return moves % 4 == 3; }
                effect {
                    optional input Card f { return f is Joker && (f as Joker).power <= 2; }
                    if (f != null) {
                        Joker folded = f as Joker;
                        folded.discard(pile);
                    }
                    top = null;
                    new Coin() { value = moves };
                    next();
                }
            }

            action pass {
                trigger PlayerChoiceEvent;
                effect {
                    made += 1;
                    if (made % 3 == 0) { new Joker() { value = made, power = 2 }; }
                    next();
                }
            }

            function gain {
                function input number n;
                returns;
                effect {
                    if (player.active() == 0) { score0 += n; } else { score1 += n; }
                }
            }

            // New cards of every class, between jokers: the lists grow during play.
            function make {
                returns;
                effect {
                    made += 1;
                    new Card() { value = made };
                    if (made % 2 == 0) { new Joker() { value = made, power = made % 4 }; }
                    new Coin() { value = made + 1 };
                    if (made % 3 == 0) { new Wild() { value = made % 7, power = 3 }; }
                }
            }

            function next {
                returns;
                effect {
                    moves += 1;
                    if (moves == 40) {
                        if (score0 > score1) { winner 0; }
                        if (score1 > score0) { winner 1; }
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
            for (number i = 0; i < 5; i += 1) {
                new Card() { value = i };
                Joker j = new Joker() { value = i, power = i % 3 + 1 };
                new Coin() { value = i };
                if (i % 2 == 1) { new Wild() { value = i, power = 2 }; }
                if (i == 4) { j.discard(Rules.pile); }
            }
        }
    }
}

/// The listed version's lists hold exactly the arena's objects of their class, in
/// creation order.
fn lists_are_exact(world: &listed::jokers::World) {
    use listed::jokers::{CardKind, TileKind};
    let jokers: Vec<usize> = world
        .cards
        .iter()
        .filter(|(_, c)| matches!(c.kind, CardKind::Joker | CardKind::Wild))
        .map(|(id, _)| id.index())
        .collect();
    let wilds: Vec<usize> = world
        .cards
        .iter()
        .filter(|(_, c)| matches!(c.kind, CardKind::Wild))
        .map(|(id, _)| id.index())
        .collect();
    let goals: Vec<usize> = world
        .tiles
        .iter()
        .filter(|(_, t)| matches!(t.kind, TileKind::Goal))
        .map(|(id, _)| id.index())
        .collect();
    assert_eq!(world.instances_joker.ids().map(|id| id.index()).collect::<Vec<_>>(), jokers);
    assert_eq!(world.instances_wild.ids().map(|id| id.index()).collect::<Vec<_>>(), wilds);
    assert_eq!(world.instances_goal.ids().map(|id| id.index()).collect::<Vec<_>>(), goals);
}

#[test]
fn walking_a_class_s_own_instances_offers_what_walking_its_arena_offers() {
    let mut ends = std::collections::BTreeSet::new();
    let mut actions = std::collections::BTreeMap::<String, usize>::new();
    let mut grown = 0;
    for seed in 0..150 {
        let mut jokers_at_start = None;
        let (end, _) =
            play_side_by_side::<listed::jokers::Game, plain::jokers::Game>(seed, |a, _, picked| {
                jokers_at_start.get_or_insert(a.world().instances_joker.len());
                lists_are_exact(a.world());
                *actions.entry(picked.split(' ').next().unwrap_or("").to_string()).or_default() += 1;
            });
        lists_are_exact(end.world());
        grown += usize::from(jokers_at_start.is_some_and(|n| end.world().instances_joker.len() > n));
        ends.insert(format!("{:?}", end.outcome()));
    }
    // Not a game that always ends one way; every kind of input was answered; the lists
    // grew during play.
    assert!(ends.len() >= 2, "{ends:?}");
    for action in ["play", "echo", "aim", "gather", "fold", "pass"] {
        assert!(actions.get(action).copied().unwrap_or(0) >= 10, "{action}: {actions:?}");
    }
    // Asked inputs: wild cards chosen one by one ("done" ends the list), jokers given by
    // the other player and folded, "none" for the optional one.
    for answer in ["Wild(value:", "Joker(value:", "done", "none"] {
        assert!(actions.contains_key(answer), "{answer}: {actions:?}");
    }
    assert!(grown >= 100, "jokers were made during play in {grown} games");
}

#[test]
fn the_first_menu_lists_jokers_and_wild_cards_in_creation_order_without_discarded_ones() {
    let game = listed::jokers::Game::start(2, 0).expect("two players");
    let plays: Vec<String> = game.labels().into_iter().filter(|l| l.starts_with("play ")).collect();
    // Setup made Joker(0..5) with Wild(1) and Wild(3) after Joker(1) and Joker(3); the
    // filter keeps values not multiple of 3, and Joker(4) is discarded.
    assert_eq!(
        plays,
        ["play Joker(value: 1, power: 2)", "play Wild(value: 1, power: 2)", "play Joker(value: 2, power: 3)"]
    );
    assert_eq!(game.world().instances_joker.len(), 7);
    assert_eq!(game.world().instances_wild.len(), 2);
    // Goals: two from the grid, then two from the graph group's `default`.
    assert_eq!(game.world().instances_goal.len(), 4);
}
