//! Hidden information in every example (docs/hidden-information.md): over seeded random
//! games (200 an example in an optimised build), no observation, menu, decision as read,
//! or log line shows a seat what is hidden from it;
//! over 10,000 determinizations, the deciding seat cannot tell a determinized game from
//! the real one, the hidden objects really move, and determinized games play on to a
//! legal end. The test programs `hidden_menu`, `hidden_pass`, `hidden_table`,
//! `hidden_log` and `revealed` would leak through one kind of output each if its
//! protection were removed: each kind is searched by seeded play.

use std::collections::BTreeSet;
use tgdl_play::trace::{SeatTrace, Trace};
use tgdl_runtime::hidden::{Place, Resample, Seen, Viewer};
use tgdl_runtime::view::Section;
use tgdl_runtime::{Game, Pick, Player, Rules};
use tgdl_tests::{EXAMPLES, Example, crazy_eights};

/// Games per example and determinizations per decision point. The figures the issue
/// names (200 games, 20 × 500 = 10,000 samples) need an optimised build: the README's
/// longer checks run this file with `--release`; a debug build checks fewer.
// Optimised builds play more games; the leak search reads every string a seat receives at
// every decision, so 200 keep `hidden::` to minutes.
const GAMES: u64 = if cfg!(debug_assertions) { 5 } else { 200 };
const POINTS: u64 = if cfg!(debug_assertions) { 4 } else { 20 };

fn example(name: &str) -> &'static Example {
    EXAMPLES.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("no example `{name}`"))
}

/// Runs `check` on every example, on as many threads as the machine has: these checks
/// are the longest of the optimised run, and one example at a time would leave a core idle
/// once the other tests are done. A failure in any example fails the test.
fn each_example(examples: &'static [Example], check: impl Fn(&'static Example) + Sync) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(e) = examples.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                    check(e);
                }
            });
        }
    });
}

#[test]
fn no_observation_shows_what_is_hidden() {
    each_example(EXAMPLES, |e| {
        let players = (e.engine)().min_players;
        let seen = (e.secrecy)(players, 1, GAMES).unwrap_or_else(|err| panic!("{}: {err}", e.name));
        eprintln!("{}: {seen:?}", e.name);
        assert!(seen.points >= GAMES, "{}: {seen:?}", e.name);
    });
}

#[test]
fn card_games_hide_hands_and_decks() {
    for (name, players) in [("crazy_eights", 4), ("whist", 4), ("crazy_eights", 2)] {
        let seen = (example(name).secrecy)(players, 100, GAMES / 5).unwrap();
        // Something is hidden from nearly every viewer at every point, and the hidden
        // cards' labels were searched for and never found.
        // (Near the end of a game a seat may have seen every card that is left.)
        assert!(seen.hiding * 10 >= seen.points * (players as u64 + 1) * 9, "{name}: {seen:?}");
        assert!(seen.searched >= seen.points * 5, "{name}: {seen:?}");
    }
}

#[test]
fn determinized_games_look_the_same_and_play_on() {
    each_example(EXAMPLES, |e| {
        let players = (e.engine)().min_players;
        let s =
            (e.determinization)(players, 1, POINTS, 500).unwrap_or_else(|err| panic!("{}: {err}", e.name));
        eprintln!("{}: {s:?}", e.name);
        if e.name == "buckets" {
            // See `buckets_refuses`.
            return;
        }
        assert_eq!(s.refused, None, "{}: {s:?}", e.name);
        let per_point = if s.pooled { 500 } else { tgdl_tests::secrecy::REPLAYED_SAMPLES };
        assert_eq!(s.samples, s.points * per_point, "{}: {s:?}", e.name);
    });
}

#[test]
fn determinization_moves_the_cards() {
    for name in ["crazy_eights", "whist"] {
        let s = (example(name).determinization)(2, 3, POINTS, 500).unwrap();
        assert_eq!(s.hiding_points, s.points, "{name}: {s:?}");
        // Nearly every sample puts some hidden card elsewhere.
        assert!(s.moved * 100 >= s.samples * 99, "{name}: {s:?}");
    }
}

/// `buckets` rolls each piece's number when the piece is made, and lays the pieces out in
/// a shuffled order only afterwards: everyone then sees twelve numbers and an order that
/// twelve rolls and a shuffle drew before anything could be seen. A world consistent with
/// that is one draw in hundreds of millions, so the sampler finds none and says so (a
/// search agent refuses to play rather than look at the real game): the case
/// docs/agents.md gives of a game a search agent cannot sample.
#[test]
fn buckets_refuses() {
    let s = (example("buckets").determinization)(2, 1, 5, 10).unwrap();
    assert!(!s.pooled, "{s:?}");
    let why = s.refused.expect("no consistent world");
    assert!(why.contains("no game consistent with what player"), "{why}");
}

/// Replays a full trace of `crazy_eights` in process: the game before each decision.
fn replay_crazy_eights(trace: &Trace) -> Vec<(u32, crazy_eights::Game)> {
    let mut game =
        crazy_eights::Game::start_with(&tgdl_runtime::Start::seeded(trace.players, trace.seed)).unwrap();
    let mut before = Vec::new();
    for d in &trace.decisions {
        before.push((d.player, game.clone()));
        assert_eq!(game.label(d.index), d.label);
        game.apply(d.index).unwrap();
    }
    before.push((u32::MAX, game));
    before
}

fn temp_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tgdl-hidden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn hot_seat_crazy_eights_never_shows_one_hand_to_another() {
    let e = example("crazy_eights");
    let path = temp_file("hot_seat.json");
    let p = path.to_str().unwrap();
    let input = "1\n".repeat(2_000);
    let (code, out) = (e.cli)(
        &["play", "--seats", "human,human", "--seed", "11", "--max-decisions", "60", "--trace", p],
        &input,
    );
    assert_eq!(code, 0, "{out}");
    let trace = Trace::load(&path).unwrap();
    let states = replay_crazy_eights(&trace);
    // Each person's screen: from the press-Enter line to their prompt.
    let prompts: Vec<usize> = out
        .match_indices("player ")
        .filter(|(i, _)| out[*i..].starts_with("player 0, ") || out[*i..].starts_with("player 1, "))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(prompts.len(), trace.decisions.len(), "one prompt per decision");
    assert!(out.contains("\u{1b}[2J"), "the screen is cleared between seats");
    assert!(out.contains("player 1: press Enter"), "{out}");
    let mut start = 0;
    let mut searched = 0;
    for (k, &end) in prompts.iter().enumerate() {
        let screen = &out[start..end];
        let (player, game) = &states[k];
        let shown_from = screen.rfind("press Enter").unwrap_or(0);
        let screen = &screen[shown_from..];
        for hidden in game.hidden_from(Viewer::Seat(*player)) {
            searched += 1;
            assert!(
                !screen.contains(&hidden),
                "decision {k}: player {player} is shown {hidden:?}:\n{screen}"
            );
        }
        let own = game.observation(Viewer::Seat(*player)).hands[*player as usize].objects.clone().unwrap();
        for card in own {
            assert!(screen.contains(&card), "decision {k}: player {player} does not see their {card:?}");
        }
        assert!(screen.contains(&format!("player {} holds ", 1 - player)), "{screen}");
        start = end;
    }
    assert!(searched > 500, "{searched}");
}

#[test]
fn reveal_shows_the_designer_every_hand() {
    let e = example("crazy_eights");
    let (code, out) = (e.cli)(
        &["play", "--seats", "human,human", "--seed", "11", "--max-decisions", "3", "--reveal"],
        &"1\n".repeat(20),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("hand of player 0") && out.contains("hand of player 1"), "{out}");
    assert!(!out.contains("press Enter"), "{out}");
}

#[test]
fn a_trace_for_one_seat_holds_what_it_saw() {
    let e = example("crazy_eights");
    let (full, mine) = (temp_file("full.json"), temp_file("mine.json"));
    let common = ["play", "--seats", "random,random", "--seed", "23"];
    let (code, out) = (e.cli)(&[&common[..], &["--trace", full.to_str().unwrap()]].concat(), "");
    assert_eq!(code, 0, "{out}");
    let (code, out) =
        (e.cli)(&[&common[..], &["--trace", mine.to_str().unwrap(), "--trace-for", "1"]].concat(), "");
    assert_eq!(code, 0, "{out}");
    let trace = Trace::load(&full).unwrap();
    let seat: SeatTrace = serde_json::from_str(&std::fs::read_to_string(&mine).unwrap()).unwrap();
    assert_eq!(seat.seat, 1);
    assert_eq!(seat.decisions.len(), trace.decisions.len());
    assert_eq!(seat.observations.len(), trace.decisions.len() + 1);
    // Replaying the full game shows player 1 exactly what their trace holds.
    let states = replay_crazy_eights(&trace);
    for (k, (_, game)) in states.iter().enumerate() {
        assert_eq!(game.observation(Viewer::Seat(1)), seat.observations[k], "after decision {k}");
    }
    // The other seat's decisions carry no index; theirs do.
    for (d, full) in seat.decisions.iter().zip(&trace.decisions) {
        assert_eq!(d.index.is_some(), d.player == 1);
        if d.player == 1 {
            assert_eq!(d.label, full.label);
        }
    }
    // Nothing player 1 could not see at the end is in the file.
    let text = std::fs::read_to_string(&mine).unwrap();
    let (_, last) = states.last().unwrap();
    for hidden in last.hidden_from(Viewer::Seat(1)) {
        let in_observations = serde_json::to_string(&seat.observations.last().unwrap().view).unwrap();
        assert!(!in_observations.contains(&hidden), "{hidden}");
    }
    assert!(text.contains("\"seat\": 1"));
    assert!(!text.contains("\"seed\""), "a seat's trace holds no seed");
}

#[test]
fn secret_values_reach_their_owner_alone() {
    let program = tgdl_tests::PROGRAMS.iter().find(|p| p.name == "secrets").unwrap();
    let seen = (program.secrecy)(2, 1, 50).unwrap();
    assert!(seen.hiding > 0, "{seen:?}");
    // Values travel with the hidden chips they belong to: determinization can sample them.
    let s = (program.determinization)(2, 1, 4, 500).unwrap();
    assert!(s.samples > 0, "{s:?}");

    use tgdl_tests::secrets::Game as Secrets;
    let mut game = Secrets::start(2, 3).unwrap();
    game.apply(0).unwrap(); // player 0 draws the chip worth 15 (`tests/programs/secrets.tgdl`)
    let text = |v| serde_json::to_string(&game.observation(v)).unwrap();
    assert!(text(Viewer::Seat(0)).contains("Chip.value of chip 5"), "{}", text(Viewer::Seat(0)));
    assert!(text(Viewer::Seat(0)).contains("you draw a chip worth 15"));
    for other in [Viewer::Seat(1), Viewer::Public] {
        assert!(!text(other).contains("Chip.value"), "{}", text(other));
        assert!(!text(other).contains("worth 15"), "{}", text(other));
        assert!(text(other).contains("player 0 holds 1 Chip"), "{}", text(other));
    }
    // Once on the open stack, a chip is public; its value stays its owner's.
    while game.status() != tgdl_runtime::Status::Over {
        game.apply(0).unwrap();
    }
    let public = serde_json::to_string(&game.observation(Viewer::Public)).unwrap();
    assert!(public.contains("table") && !public.contains("Chip.value"), "{public}");
    assert_eq!(game.outcome().unwrap().describe(), "player 0 wins");
}

/// The information-state test over every example and test program: the same information
/// state for the deciding seat, other hidden content, the same choice of a seeded MCTS
/// agent (`secrecy::information`).
#[test]
fn the_same_information_state_gives_the_same_choice() {
    let (points, iterations) = if cfg!(debug_assertions) { (4, 24) } else { (12, 64) };
    let check = |e: &'static Example| {
        let players = (e.engine)().min_players;
        let s =
            (e.information)(players, 1, points, iterations).unwrap_or_else(|err| panic!("{}: {err}", e.name));
        eprintln!("{}: {s:?}", e.name);
        // The card games hide hands and decks at every point: the second world differs.
        if ["crazy_eights", "whist", "courtiers"].contains(&e.name) {
            assert!(s.differing > 0 && s.points > 0, "{}: {s:?}", e.name);
        }
    };
    each_example(EXAMPLES, check);
    each_example(tgdl_tests::PROGRAMS, check);
}

fn program(name: &str) -> &'static Example {
    tgdl_tests::PROGRAMS.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no test program `{name}`"))
}

/// A seed of ten digits: the leak search looks for its text in everything a seat is given
/// (a seed gives away every hidden draw).
const LONG_SEED: u64 = 7_340_029_117;

/// The full label of every object `place` holds now, in creation order.
fn labels_at<R: tgdl_runtime::Rules>(game: &tgdl_runtime::Engine<R>, place: Place) -> Vec<String> {
    let world = game.world();
    world
        .census()
        .objects
        .iter()
        .filter(|o| o.place == place)
        .map(|o| world.pick_label(&Pick::Object(o.tag, o.index), &Seen::all()))
        .collect()
}

/// The leak search over the programs written to leak through one kind of output each if
/// its protection were removed: menus (`hidden_menu`), decisions as others read them
/// (`hidden_pass`), table keys (`hidden_table`), log lines (`hidden_log`), and a card
/// revealed in a hand (`revealed`). Nothing hidden from a seat or spectators reaches them,
/// nor the seed.
#[test]
fn no_output_of_any_kind_shows_what_is_hidden() {
    for name in ["hidden_menu", "hidden_pass", "hidden_table", "hidden_log", "revealed"] {
        let p = program(name);
        let players = (p.engine)().min_players;
        let seen =
            (p.secrecy)(players, LONG_SEED, GAMES.max(20)).unwrap_or_else(|err| panic!("{name}: {err}"));
        eprintln!("{name}: {seen:?}");
        assert!(seen.hiding > 0 && seen.searched >= seen.points, "{name}: {seen:?}");
    }
}

/// `hidden_menu`: the player who decides reads its own cards by name and the other's as
/// `a hidden Card`, numbered; the other player reads the same menu with its own cards
/// named and the decider's hidden, spectators with every card hidden.
#[test]
fn a_menu_names_only_what_its_reader_sees() {
    use tgdl_tests::hidden_menu::Game as Menu;
    let game = Menu::start(2, LONG_SEED).unwrap();
    let (mine, theirs) = (labels_at(&game, Place::Hand(Player(0))), labels_at(&game, Place::Hand(Player(1))));
    assert_eq!((mine.len(), theirs.len()), (3, 3));
    let own = game.labels_for(Viewer::Seat(0));
    for card in &mine {
        assert!(own.contains(&format!("play {card}")), "{own:?}");
    }
    for k in 1..=3 {
        assert!(own.contains(&format!("strike a hidden Card ({k})")), "{own:?}");
    }
    let other = game.labels_for(Viewer::Seat(1));
    for card in &theirs {
        assert!(other.contains(&format!("strike {card}")), "{other:?}");
    }
    assert_eq!(other.iter().filter(|l| *l == "play a hidden Card").count(), 3, "{other:?}");
    let public = game.labels_for(Viewer::Public);
    assert!(public.iter().all(|l| l == "play a hidden Card" || l == "strike a hidden Card"), "{public:?}");
    for (labels, hidden) in [(&own, &theirs), (&other, &mine), (&public, &mine), (&public, &theirs)] {
        for card in hidden {
            assert!(!labels.iter().any(|l| l.contains(card.as_str())), "{card} in {labels:?}");
        }
    }
}

/// `hidden_pass`, played by the command line with a trace written for each seat: each
/// holds every decision as that seat read it (a card passed by another reads
/// `pass a hidden Card`, its own passes name the card) and nothing else hidden from it,
/// and no seed.
#[test]
fn each_seat_reads_the_decisions_as_it_could_see_them() {
    use tgdl_tests::hidden_pass::World;
    let p = program("hidden_pass");
    let seed = LONG_SEED.to_string();
    let common = ["play", "--seats", "random,random,random", "--seed", seed.as_str()];
    let full = temp_file("pass_full.json");
    let (code, out) = (p.cli)(&[&common[..], &["--trace", full.to_str().unwrap()]].concat(), "");
    assert_eq!(code, 0, "{out}");
    let trace = Trace::load(&full).unwrap();
    let mut passes = 0;
    for seat in 0..3u32 {
        let path = temp_file(&format!("pass_{seat}.json"));
        let args = ["--trace", path.to_str().unwrap(), "--trace-for", &seat.to_string()].map(String::from);
        let args: Vec<&str> = common.iter().copied().chain(args.iter().map(String::as_str)).collect();
        let (code, out) = (p.cli)(&args, "");
        assert_eq!(code, 0, "{out}");
        assert!(!out.contains(&seed), "{out}");
        let text = std::fs::read_to_string(&path).unwrap();
        let mine: SeatTrace = serde_json::from_str(&text).unwrap();
        let searched = tgdl_tests::secrecy::seat_trace::<World>(&trace, &mine, &text).unwrap();
        assert!(searched > 0);
        for d in mine.decisions.iter().filter(|d| d.label.starts_with("pass ")) {
            if d.player == seat {
                assert!(d.label.starts_with("pass Card(rank: "), "{d:?}");
                passes += 1;
            } else {
                assert_eq!(d.label, "pass a hidden Card", "{d:?}");
            }
        }
    }
    assert!(passes > 0, "the seeded game passes a card: {:?}", trace.decisions);
}

/// `hidden_table`: the table of drawn cards reads, to each seat, its own cards and the
/// played ones by name and every other key as `a hidden Card`; to spectators, every card
/// in a hand as hidden.
#[test]
fn a_table_keyed_by_cards_hides_the_keys_hidden_from_its_reader() {
    use tgdl_play::{Agent, RandomAgent};
    use tgdl_tests::hidden_table::Game as Ledger;
    let mut game = Ledger::start(2, LONG_SEED).unwrap();
    let mut agent = RandomAgent::new(LONG_SEED);
    let table = |game: &Ledger, viewer| {
        let view = game.observation(viewer).view;
        view.sections
            .iter()
            .find_map(|s| match s {
                Section::Attributes { title, items } if title == "Ledger" => {
                    items.iter().find(|(name, _)| name == "drawn").map(|(_, text)| text.clone())
                }
                _ => None,
            })
            .expect("the view shows the table")
    };
    let mut points = 0;
    while game.status() != tgdl_runtime::Status::Over {
        let hands = [labels_at(&game, Place::Hand(Player(0))), labels_at(&game, Place::Hand(Player(1)))];
        for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Public] {
            let text = table(&game, viewer);
            let mut hidden = 0;
            for (p, hand) in hands.iter().enumerate() {
                let own = viewer == Viewer::Seat(p as u32);
                for card in hand {
                    if own {
                        assert!(text.contains(&format!("{card}: ")), "{viewer}: {card} in {text}");
                    } else {
                        assert!(!text.contains(card.as_str()), "{viewer}: {card} in {text}");
                        hidden += 1;
                    }
                }
            }
            assert_eq!(text.matches("a hidden Card: ").count(), hidden, "{viewer}: {text}");
        }
        points += 1;
        let i = agent.choose_in(&game).unwrap();
        game.apply(i).unwrap();
    }
    assert!(points >= 6, "{points}");
}

/// `hidden_log`: the designer's log names every card drawn; every player reads the public
/// line with the card in its hidden form, its drawer is told which it is, and the cards
/// played face up are named to everyone.
#[test]
fn a_public_log_line_names_a_hidden_card_in_its_hidden_form() {
    use tgdl_play::{Agent, RandomAgent};
    use tgdl_tests::hidden_log::Game as HiddenLog;
    let mut game = HiddenLog::start(2, LONG_SEED).unwrap();
    let mut agent = RandomAgent::new(LONG_SEED);
    while game.status() != tgdl_runtime::Status::Over {
        let i = agent.choose_in(&game).unwrap();
        game.apply(i).unwrap();
    }
    let designer = game.log().to_vec();
    let drawn: Vec<&String> = designer.iter().filter(|l| l.contains(" draws Card(rank: ")).collect();
    let played: Vec<&String> = designer.iter().filter(|l| l.contains(" plays Card(rank: ")).collect();
    assert_eq!((drawn.len(), played.len()), (6, 6), "{designer:?}");
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Public] {
        let log = game.log_for(viewer);
        assert_eq!(
            log.iter().filter(|l| l.ends_with(" draws a hidden Card")).count(),
            6,
            "{viewer}: {log:?}"
        );
        assert!(!log.iter().any(|l| l.contains(" draws Card(")), "{viewer}: {log:?}");
        for line in &played {
            assert!(log.contains(line), "{viewer}: {line}");
        }
        let told = log.iter().filter(|l| l.starts_with("you draw Card(rank: ")).count();
        assert_eq!(told, if viewer == Viewer::Public { 0 } else { 3 }, "{viewer}: {log:?}");
    }
}

/// `revealed`: the card player 0 shows stays in its hand, face up: every seat and
/// spectators see it there by name (the hand, the view, the log) while the hand's other
/// cards stay hidden; worlds drawn for player 1 — by redistribution and by replaying its
/// information state — keep it where it is, as it is, and move the hidden cards around it.
#[test]
fn a_revealed_card_stays_in_its_hand_face_up_for_everyone() {
    use tgdl_runtime::information::{InfoState, Sampler};
    use tgdl_runtime::{Rng, Start};
    use tgdl_tests::revealed::Game as Revealed;
    let mut game = Revealed::start_with(&Start::observed::<Revealed>(2, 7)).unwrap();
    game.apply(0).unwrap();
    let census = game.world().census();
    let shown: Vec<_> =
        census.objects.iter().filter(|o| matches!(o.place, Place::Shown(_))).copied().collect();
    let [card] = shown.as_slice() else { panic!("one card face up: {census:?}") };
    assert_eq!(card.place, Place::Shown(Player(0)));
    let label = game.world().pick_label(&Pick::Object(card.tag, card.index), &Seen::all());
    let hidden = labels_at(&game, Place::Hand(Player(0)));
    assert_eq!(hidden.len(), 2, "two cards face down beside it");
    assert!(game.log().contains(&format!("player 0 shows {label}")), "{:?}", game.log());
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Public] {
        let obs = game.observation(viewer);
        let hand = &obs.hands[0];
        assert_eq!(hand.face_up, vec![label.clone()], "{viewer}");
        assert_eq!(hand.counts, vec![("Card".to_string(), 3)], "{viewer}");
        assert!(obs.log.contains(&format!("player 0 shows {label}")), "{viewer}: {:?}", obs.log);
        let text = serde_json::to_string(&obs.view).unwrap();
        if viewer == Viewer::Seat(0) {
            let objects = hand.objects.as_ref().expect("the holder sees its hand");
            assert!(objects.contains(&label) && hidden.iter().all(|c| objects.contains(c)), "{objects:?}");
        } else {
            assert_eq!(hand.objects, None);
            let listed = obs.view.sections.iter().any(|s| {
                matches!(s, Section::List { title, items, .. }
                    if title == "face up in the hand of player 0" && *items == vec![label.clone()])
            });
            assert!(listed, "{viewer}: {text}");
            for c in &hidden {
                assert!(!text.contains(c.as_str()), "{viewer} is shown {c}: {text}");
            }
        }
    }
    // Player 1 decides now: the worlds drawn for it keep the card, and deal the five cards
    // it cannot see (player 0's two, the deck's three) around it.
    let unseen: BTreeSet<(u32, u32)> =
        census.objects.iter().filter(|o| o.hidden_from(Viewer::Seat(1))).map(|o| (o.tag, o.index)).collect();
    assert_eq!(unseen.len(), 5);
    let keeps = |sample: &Revealed| {
        let after = sample.world().census();
        let at = after.objects.iter().find(|o| (o.tag, o.index) == (card.tag, card.index)).unwrap();
        assert_eq!(at.place, Place::Shown(Player(0)));
        assert_eq!(sample.world().pick_label(&Pick::Object(card.tag, card.index), &Seen::all()), label);
        assert_eq!(sample.observation(Viewer::Seat(1)), game.observation(Viewer::Seat(1)));
        after
            .objects
            .iter()
            .filter(|o| o.place == Place::Hand(Player(0)))
            .map(|o| (o.tag, o.index))
            .collect::<Vec<_>>()
    };
    let mut rng = Rng::new(11);
    let mut reached = BTreeSet::new();
    for _ in 0..200 {
        let sample = game.pool_sample(1, &mut rng).expect("redistribution applies");
        reached.extend(keeps(&sample));
    }
    assert_eq!(reached, unseen, "player 0's face-down cards are drawn from every card player 1 cannot see");
    let sampler = Sampler::new(InfoState::of(&game, 1).unwrap());
    let mut replayed = BTreeSet::new();
    for _ in 0..20 {
        let sample: Revealed = sampler.sample(&mut rng).unwrap();
        replayed.extend(keeps(&sample));
    }
    assert!(replayed.len() > 2 && replayed.is_subset(&unseen), "{replayed:?}");
}

/// Hanabi's clues are all a seat learns of its own cards, held facing out. Without clues,
/// a seeded search made to play (no clue may be given, no card discarded with eight
/// tokens) succeeds as often as a card drawn blind from its hand would: its successes
/// match the share of playable cards in its hand, seed by seed, within three standard
/// deviations — a search reading its own cards would play a playable one whenever it
/// holds one. After a clue pointing at its 1s, it plays, and its plays succeed.
#[test]
fn hanabi_search_plays_blind_without_clues_and_follows_them() {
    use tgdl_play::Agent;
    use tgdl_play::mcts::{Budget, MctsAgent};
    use tgdl_runtime::Start;
    use tgdl_runtime::params::Params;
    use tgdl_tests::hanabi::Game as Hanabi;
    let (seeds, iterations) = if cfg!(debug_assertions) { (16, 1000) } else { (200, 2000) };
    let start = |seed: u64, clues: bool| {
        let pairs = [format!("clues={clues}"), "strict=false".to_string()];
        let params = Params::parse(Hanabi::info().params, &pairs).unwrap();
        Hanabi::start_with(&Start::observed::<Hanabi>(2, seed.into()).with_params(params)).unwrap()
    };
    let option = |game: &Hanabi, label: &str| game.labels().iter().position(|l| l == label);
    // Player 1's decision, by a seeded search: whether it played, and whether that worked.
    let decide = |game: &mut Hanabi, seed: u64| -> Option<bool> {
        let mut mcts = MctsAgent::<Hanabi>::new(Budget::Iterations(iterations), seed);
        let choice = mcts.choose_in(game).unwrap();
        let played = game.labels()[choice].starts_with("play ");
        let lines = game.log().len();
        game.apply(choice).unwrap();
        let new = game.log()[lines..].join("\n");
        played.then(|| !new.contains("misplays"))
    };
    // What share of player 1's hand may be played now, read off the designer's view.
    let playable_share = |game: &Hanabi| -> f64 {
        let all = game.observation(Viewer::All);
        let fireworks: Vec<u32> = all
            .view
            .sections
            .iter()
            .find_map(|s| match s {
                Section::Attributes { items, .. } => {
                    items.iter().find(|(k, _)| k == "fireworks").map(|(_, v)| v)
                }
                _ => None,
            })
            .expect("the fireworks are shown")
            .trim_matches(|c| c == '[' || c == ']')
            .split(", ")
            .map(|n| n.parse().unwrap())
            .collect();
        let colours = ["red", "yellow", "green", "blue", "white"];
        let hand = all.hands[1].objects.clone().expect("the designer sees every hand");
        let playable = hand
            .iter()
            .filter(|card| {
                let (colour, rank) = card.split_once(": ").unwrap().1.split_once(' ').unwrap();
                let f = colours.iter().position(|c| *c == colour).unwrap();
                fireworks[f] + 1 == rank.parse::<u32>().unwrap()
            })
            .count();
        playable as f64 / hand.len() as f64
    };
    let (mut successes, mut expected, mut variance) = (0u32, 0.0, 0.0);
    for seed in 1..=seeds {
        let mut game = start(seed, false);
        game.apply(option(&game, "play 0").unwrap()).unwrap();
        let share = playable_share(&game);
        let worked = decide(&mut game, seed).expect("with no clue and eight tokens, player 1 must play");
        successes += worked as u32;
        expected += share;
        variance += share * (1.0 - share);
    }
    let margin = 3.0 * f64::sqrt(variance) + 1.0;
    eprintln!(
        "without clues: {successes} of {seeds} plays worked; blind play expects {expected:.1} ± {margin:.1}"
    );
    assert!((successes as f64 - expected).abs() <= margin, "{successes} vs {expected:.1} ± {margin:.1}");
    let (mut clued, mut plays, mut worked) = (0, 0, 0);
    for seed in 1..=seeds {
        let mut game = start(seed, true);
        let Some(clue) = option(&game, "clue_rank to=player 1 rank=1") else { continue };
        game.apply(clue).unwrap();
        clued += 1;
        if let Some(ok) = decide(&mut game, seed) {
            plays += 1;
            worked += ok as u32;
        }
    }
    eprintln!("after a clue to its 1s: {plays} plays in {clued} games, {worked} worked");
    assert!(plays * 10 >= clued * 7, "{plays} plays in {clued} clued games");
    assert!(worked * 10 >= plays * 9, "{worked} of {plays} plays worked");
}
