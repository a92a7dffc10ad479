//! What the view shows, by seeded play: the objects of plain classes players own, listed
//! under their owner for every viewer and in the terminal (`owned_objects.tgdl`); not the
//! attributes a game marks `internal` (`internal_attributes.tgdl`); each player's share of
//! a `per player` list in a section of their own; the looks games give their pieces.

use tgdl_runtime::hidden::Viewer;
use tgdl_runtime::view::Section;
use tgdl_runtime::{Game, Status};
use tgdl_tests::{PROGRAMS, owned_objects};

/// The list section titled `title` of what `viewer` sees, if there is one.
fn listed(game: &owned_objects::Game, viewer: Viewer, title: &str) -> Option<Vec<String>> {
    game.observation(viewer).view.sections.into_iter().find_map(|s| match s {
        Section::List { title: t, items, .. } if t == title => Some(items),
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
        Section::List { title, items, .. } if title == "player 0 has" => Some(items.clone()),
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

/// The chess example names its squares as players do (`name`) and says how its pieces look
/// (`glyph`, `colour`): menus read `e2`, the grid carries each cell's name and look, and
/// its texts stay the letters the terminal prints.
#[test]
fn chess_squares_are_named_and_drawn_by_their_looks() {
    use tgdl_runtime::view::Look;
    let game = tgdl_tests::chess::Game::start(2, 0).expect("the game starts");
    assert!(game.labels().contains(&String::from("e2-e4")), "{:?}", game.labels());
    let view = game.observation(Viewer::Seat(1)).view;
    let Some(Section::Grid { cells, looks, names, .. }) = view.sections.first() else {
        panic!("a grid first: {view:?}")
    };
    assert_eq!(names[6][4].as_deref(), Some("e2"));
    assert_eq!(names[0][0].as_deref(), Some("a8"));
    assert_eq!(cells[7][4].as_deref(), Some("K"));
    let king = Look { glyph: Some("♚".into()), colour: Some("white".into()), shape: None };
    assert_eq!(looks[7][4], Some(king));
    assert_eq!(
        looks[1][0],
        Some(Look { glyph: Some("♟".into()), colour: Some("black".into()), shape: None })
    );
    assert_eq!(looks[4][4], None, "an empty square has no look");
    // The rules' bookkeeping is `internal`: not on the table.
    assert!(
        !view.sections.iter().any(|s| matches!(s, Section::Attributes { title, .. } if title == "Rules"))
    );
}

/// The attributes of one section titled `title`, if the view has one.
fn attributes(view: &tgdl_runtime::view::View, title: &str) -> Option<Vec<(String, String)>> {
    view.sections.iter().find_map(|s| match s {
        Section::Attributes { title: t, items } if t == title => Some(items.clone()),
        _ => None,
    })
}

/// Reversi counts its discs `per player`: over a seeded game, each player's section holds
/// their item of the list, the discs on the board of their colour, and the list is not
/// shown with its class.
#[test]
fn per_player_lists_are_shown_as_each_players_share() {
    use tgdl_tests::reversi::Game;
    let mut game = Game::start(2, 7).expect("the game starts");
    let mut rng = tgdl_runtime::rng::Rng::new(7);
    let mut seen = 0;
    while matches!(game.status(), Status::Decide(_)) {
        let view = game.observation(Viewer::Public).view;
        assert_eq!(attributes(&view, "Rules"), None, "the list left its class: {view:?}");
        let Some(Section::Grid { cells, .. }) = view.sections.first() else {
            panic!("a grid first: {view:?}")
        };
        for (p, disc) in [(0, "B"), (1, "W")] {
            let on_board = cells.iter().flatten().filter(|c| c.as_deref() == Some(disc)).count();
            let share = attributes(&view, &format!("player {p}"));
            assert_eq!(share, Some(vec![(String::from("discs"), on_board.to_string())]), "{view:?}");
        }
        seen += 1;
        let n = game.labels().len();
        game.apply(rng.below(n as u64) as usize).expect("a move applies");
    }
    assert!(seen > 30, "a whole game: {seen} views");
}

/// Harvest's points are a score track: the view names the track (spaces 0 to 60) and each
/// player's share holds their place on it; over seeded games with two to four farmers the
/// places never go back, and the players furthest along are the ones in first place.
#[test]
fn harvest_points_are_places_on_a_score_track() {
    use tgdl_runtime::view::Track;
    use tgdl_tests::harvest::Game;
    let place = |view: &tgdl_runtime::view::View, p: u32| -> f64 {
        let share = attributes(view, &format!("player {p}")).expect("a share per player");
        let (_, points) = share.into_iter().find(|(name, _)| name == "points").expect("points in the share");
        points.parse().expect("a number")
    };
    for (players, seed) in [(2, 3), (3, 4), (4, 5)] {
        let mut game = Game::start(players, seed).expect("the game starts");
        let mut rng = tgdl_runtime::rng::Rng::new(seed);
        let mut places = vec![0.0; players as usize];
        loop {
            let view = game.observation(Viewer::Public).view;
            assert_eq!(view.tracks, vec![Track { name: String::from("points"), last: 60 }]);
            for p in 0..players {
                let now = place(&view, p);
                assert!(
                    now >= places[p as usize],
                    "player {p} went back from {} to {now}",
                    places[p as usize]
                );
                places[p as usize] = now;
            }
            if !matches!(game.status(), Status::Decide(_)) {
                break;
            }
            let n = game.labels().len();
            game.apply(rng.below(n as u64) as usize).expect("a move applies");
        }
        assert!(matches!(game.status(), Status::Over), "the game ends by its rules");
        let best = places.iter().copied().fold(0.0, f64::max);
        let first: Vec<u32> = (0..players).filter(|&p| places[p as usize] == best).collect();
        assert_eq!(game.outcome().expect("an outcome").places[0], first, "{players} players: {places:?}");
    }
}

/// Skirmish says its pieces' shape: player 0's are blue squares, player 1's orange
/// hexagons, each bearing its letter.
#[test]
fn skirmish_pieces_have_a_shape() {
    use tgdl_runtime::view::Look;
    let game = tgdl_tests::skirmish::Game::start(2, 0).expect("the game starts");
    let view = game.observation(Viewer::Seat(0)).view;
    let Some(Section::Grid { looks, .. }) = view.sections.first() else { panic!("a grid first: {view:?}") };
    let look = |glyph: &str, colour: &str, shape: &str| {
        Some(Look { glyph: Some(glyph.into()), colour: Some(colour.into()), shape: Some(shape.into()) })
    };
    assert_eq!(looks[4][2], look("K", "blue", "square"));
    assert_eq!(looks[0][2], look("K", "orange", "hexagon"));
    assert_eq!(looks[2][2], None, "an empty square has no look");
}

/// A card's look is worked out only for those who see the card: over seeded games of
/// crazy eights, each seat's hand carries a look per card, and no glyph of a card in
/// another player's hand is anywhere in what a seat (or a spectator) is shown.
#[test]
fn card_looks_show_only_to_the_seats_that_see_the_cards() {
    use tgdl_tests::crazy_eights::Game;
    for seed in 0..4u64 {
        let mut game = Game::start(3, seed).expect("the game starts");
        let mut rng = tgdl_runtime::rng::Rng::new(seed);
        let mut checked = 0;
        while matches!(game.status(), Status::Decide(_)) && checked < 60 {
            // Every hand with its looks, as the designer sees them.
            let all = game.observation(Viewer::All).view;
            let mut glyphs: Vec<(u32, String)> = Vec::new();
            for section in &all.sections {
                if let Section::List { title, items, looks } = section
                    && let Some(p) = title.strip_prefix("hand of player ")
                {
                    assert_eq!(looks.len(), items.len(), "a look for each card: {title}");
                    for look in looks {
                        let glyph = look.as_ref().and_then(|l| l.glyph.clone()).expect("a card's glyph");
                        glyphs.push((p.parse().expect("a seat"), glyph));
                    }
                }
            }
            assert!(!glyphs.is_empty());
            for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Seat(2), Viewer::Public] {
                let shown = serde_json::to_string(&game.observation(viewer)).expect("an observation as JSON");
                for (owner, glyph) in &glyphs {
                    let own = viewer == Viewer::Seat(*owner);
                    assert_eq!(
                        shown.contains(&format!("\"{glyph}\"")),
                        own,
                        "{viewer} and {glyph} of player {owner}"
                    );
                }
            }
            checked += 1;
            let n = game.options().len();
            game.apply(rng.below(n as u64) as usize).expect("a legal option applies");
        }
    }
}
