//! A class's own instances (`tgdl_runtime::instances`), on
//! `tests/equivalence/class_instances.tgdl`: the lists the world keeps of the objects of a
//! class that shares its arena hold exactly the arena's objects of that class, in creation
//! order, at every decision of games played beside the plain engine (which walks the whole
//! arena and tests each object's kind); every kind of input is answered; the lists grow
//! during play; and the first menu walks them in creation order, without discarded
//! objects. The language has no copy of an object, and the only objects a rollback drops
//! (the marks of a speculative menu) are collections, never class objects, so the lists
//! only grow.

use super::{all, none, two_players};
use tgdl_runtime::Game as _;

/// The shipping engine's lists hold exactly the arena's objects of their class, in
/// creation order.
fn lists_are_exact(world: &all::class_instances::World) {
    use all::class_instances::{CardKind, TileKind};
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
            two_players::<all::class_instances::Game, none::class_instances::Game>(seed, |a, _, picked| {
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
    let game = all::class_instances::Game::start(2, 0).expect("two players");
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
