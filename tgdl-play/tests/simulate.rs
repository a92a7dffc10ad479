//! Parallel random playouts: results independent of the thread count, statistics that add
//! up, rule errors grouped with a replayable first game.

use serde_json::Value;
use tgdl_play::driver::{PlayConfig, play_game};
use tgdl_play::simulate::{SimError, SimOptions, simulate, wilson};
use tgdl_play::{Agent, GameResult, RandomAgent};
use tgdl_reference::{ConnectFour, TicTacToe};
use tgdl_reference::{DuelGame, WalkGame};
use tgdl_runtime::game::Game;

fn without_timing(mut json: Value) -> Value {
    let obj = json.as_object_mut().expect("an object");
    assert!(obj.remove("seconds").is_some());
    assert!(obj.remove("games_per_sec").is_some());
    json
}

fn json_on<G: Game>(opts: &SimOptions, threads: usize) -> Value {
    let opts = SimOptions { threads, ..opts.clone() };
    without_timing(simulate::<G>(&opts).unwrap().to_json())
}

fn same_on_any_thread_count<G: Game>(opts: &SimOptions) -> Value {
    let one = json_on::<G>(opts, 1);
    assert_eq!(one, json_on::<G>(opts, 2));
    assert_eq!(one, json_on::<G>(opts, 3));
    one
}

#[test]
fn identical_for_any_thread_count() {
    let ttt = same_on_any_thread_count::<TicTacToe>(&SimOptions { seed: 9, ..SimOptions::new(500, 2) });
    assert_eq!(ttt["games"], 500);
    same_on_any_thread_count::<ConnectFour>(&SimOptions::new(200, 2));
    same_on_any_thread_count::<DuelGame>(&SimOptions { seed: 4, ..SimOptions::new(200, 2) });
    let walk =
        same_on_any_thread_count::<WalkGame>(&SimOptions { max_decisions: 12, ..SimOptions::new(300, 3) });
    assert!(walk["unfinished"].as_u64().unwrap() > 0, "{walk}");
    assert!(!walk["errors"].as_array().unwrap().is_empty(), "{walk}");
}

#[test]
fn seeds_change_results() {
    let a = json_on::<ConnectFour>(&SimOptions { seed: 1, ..SimOptions::new(200, 2) }, 0);
    let b = json_on::<ConnectFour>(&SimOptions { seed: 2, ..SimOptions::new(200, 2) }, 0);
    assert_ne!(a, b);
}

#[test]
fn statistics_add_up() {
    let report = simulate::<TicTacToe>(&SimOptions { seed: 3, ..SimOptions::new(2000, 2) }).unwrap();
    assert_eq!(report.games, 2000);
    assert_eq!(report.wins.iter().sum::<u64>() + report.draws, 2000);
    assert_eq!(report.over, 2000);
    assert_eq!(report.unfinished, 0);
    assert!(report.errors.is_empty());
    // Random tic-tac-toe: the first player wins about 58% of games, the second about 29%.
    let rate0 = report.wins[0] as f64 / 2000.0;
    let rate1 = report.wins[1] as f64 / 2000.0;
    assert!((0.52..0.64).contains(&rate0), "{rate0}");
    assert!((0.24..0.34).contains(&rate1), "{rate1}");
    // Places: every game puts each seat in some place.
    for seat in 0..2 {
        assert_eq!(report.places[seat].iter().sum::<u64>(), 2000);
    }
    assert_eq!(report.places[0][0], report.wins[0] + report.draws);
    assert!(report.min_length() >= 5 && report.max_length() <= 9);
    let mean = report.mean_length();
    assert!((report.min_length() as f64..=report.max_length() as f64).contains(&mean));
    let json = report.to_json();
    for key in [
        "games",
        "wins",
        "draws",
        "unfinished",
        "mean_length",
        "errors",
        "games_per_sec",
        "places",
        "min_length",
        "max_length",
        "seconds",
    ] {
        assert!(json.get(key).is_some(), "missing {key}: {json}");
    }
    let text = report.render_text();
    assert!(text.starts_with("Tic-tac-toe: 2000 games, 2 players, seed 3"), "{text}");
    assert!(text.contains("rule errors none"), "{text}");
    assert!(text.contains("games/s"), "{text}");
    assert!(text.contains(" | #"), "{text}");
}

#[test]
fn errors_are_grouped_with_a_replayable_first_game() {
    let opts = SimOptions { seed: 5, max_decisions: 40, ..SimOptions::new(400, 2) };
    let report = simulate::<WalkGame>(&opts).unwrap();
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    let e = &report.errors[0];
    assert_eq!((e.location.as_str(), e.message.as_str()), ("walk.tgdl:9:13", "fell off the board"));
    assert_eq!(report.wins.iter().sum::<u64>() + report.draws + report.unfinished + e.count, report.games);
    let text = report.render_text();
    assert!(text.contains(&format!("walk.tgdl:9:13: fell off the board (first in game {}", e.first_game)));

    // `play --seed <first_seed> --seats random` replays that game.
    let config = PlayConfig {
        players: 2,
        seed: e.first_seed.into(),
        max_decisions: 40,
        verbose: false,
        reveal: false,
        trace_for: None,
        params: Default::default(),
    };
    let mut seats: Vec<Box<dyn Agent<WalkGame>>> = (0..2)
        .map(|p| {
            Box::new(RandomAgent::new(tgdl_play::agent::seat_seed(e.first_seed.into(), p)))
                as Box<dyn Agent<_>>
        })
        .collect();
    let played = play_game(&mut seats, &config, None, &mut Vec::new()).unwrap();
    assert!(matches!(&played.result, GameResult::Error(err) if err.message == "fell off the board"));

    // No earlier game hit it: the same report over the first `first_game` games has none.
    let before = simulate::<WalkGame>(&SimOptions { games: e.first_game, ..opts }).unwrap();
    assert!(before.errors.is_empty());
}

#[test]
fn bad_player_count_is_a_start_error() {
    let err = simulate::<TicTacToe>(&SimOptions::new(10, 3)).unwrap_err();
    assert!(matches!(err, SimError::Start(_)));
    assert_eq!(err.to_string(), "this game is for 2 players, not 3");
}

#[test]
fn zero_games() {
    let report = simulate::<TicTacToe>(&SimOptions::new(0, 2)).unwrap();
    assert_eq!(report.games, 0);
    assert_eq!(report.mean_length(), 0.0);
    assert!(report.render_text().contains("0 games"));
}

#[test]
fn wilson_intervals() {
    let (lo, hi) = wilson(50, 100);
    assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4, "{lo} {hi}");
    let (lo, hi) = wilson(0, 10);
    assert_eq!(lo, 0.0);
    assert!((hi - 0.2775).abs() < 1e-4, "{hi}");
    let (lo, hi) = wilson(10, 10);
    assert!((lo - 0.7225).abs() < 1e-4 && hi == 1.0, "{lo} {hi}");
    assert_eq!(wilson(0, 0), (0.0, 1.0));
}
