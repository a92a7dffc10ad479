//! What the view shows, by seeded play: the objects of plain classes players own, listed
//! under their owner for every viewer and in the terminal (`owned_objects.tgdl`); not the
//! attributes a game marks `internal` (`internal_attributes.tgdl`).

use tgdl_runtime::hidden::Viewer;
use tgdl_runtime::view::Section;
use tgdl_runtime::{Game, Status};
use tgdl_tests::{PROGRAMS, owned_objects};

/// The list section titled `title` of what `viewer` sees, if there is one.
fn listed(game: &owned_objects::Game, viewer: Viewer, title: &str) -> Option<Vec<String>> {
    game.observation(viewer).view.sections.into_iter().find_map(|s| match s {
        Section::List { title: t, items } if t == title => Some(items),
        _ => None,
    })
}

#[test]
fn owned_objects_are_listed_under_their_owner_for_every_viewer() {
    let mut game = owned_objects::Game::start(2, 1).expect("the game starts");
    for _ in 0..4 {
        game.apply(0).expect("the first option applies");
    }
    assert_eq!(game.status(), Status::Over);
    for viewer in [Viewer::All, Viewer::Seat(0), Viewer::Seat(1), Viewer::Public] {
        assert_eq!(
            listed(&game, viewer, "player 0 has").as_deref(),
            Some(&["Card(points: 1)", "Card(points: 3)", "Tableau(prestige: 0)"].map(String::from)[..]),
            "{viewer}"
        );
        assert_eq!(
            listed(&game, viewer, "player 1 has").as_deref(),
            Some(&["Card(points: 2)", "Card(points: 4)", "Tableau(prestige: 0)"].map(String::from)[..]),
            "{viewer}"
        );
    }
}

#[test]
fn the_terminal_shows_what_each_player_owns() {
    let program =
        PROGRAMS.iter().find(|p| p.name == "owned_objects").expect("tests/programs/owned_objects.tgdl");
    let (code, out) = (program.cli)(&["play", "--seats", "human", "--seed", "1"], "1\n1\n1\n1\n");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("player 0 has:\n  Card(points: 1), Card(points: 3), Tableau(prestige: 0)\n"),
        "{out}"
    );
    assert!(
        out.contains("player 1 has:\n  Card(points: 2), Card(points: 4), Tableau(prestige: 0)\n"),
        "{out}"
    );
}

#[test]
fn internal_attributes_are_left_out_of_the_view() {
    use tgdl_tests::internal_attributes;
    let mut game = internal_attributes::Game::start(2, 1).expect("the game starts");
    game.apply(0).expect("`pass` applies");
    let view = game.observation(Viewer::Seat(1)).view;
    let rules = view.sections.iter().find_map(|s| match s {
        Section::Attributes { title, items } if title == "Rules" => Some(items.clone()),
        _ => None,
    });
    assert_eq!(rules, Some(vec![("round".to_string(), "2".to_string())]), "{view:?}");
    let owned = view.sections.iter().find_map(|s| match s {
        Section::List { title, items } if title == "player 0 has" => Some(items.clone()),
        _ => None,
    });
    assert_eq!(owned, Some(vec!["Token(value: 1)".to_string()]), "{view:?}");
    // The rules still read it: the log prints it.
    assert_eq!(game.log(), ["round 2 of 3"]);

    let program = PROGRAMS.iter().find(|p| p.name == "internal_attributes").expect("the program");
    let (code, out) = (program.cli)(&["play", "--seats", "human", "--seed", "1"], "1\n1\n1\n");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Rules:\n  round: 2\n"), "{out}");
    assert!(!out.contains("last_round") && !out.contains("touched"), "{out}");
}
