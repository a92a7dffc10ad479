//! The JSON API on loopback, against engines generated from the examples: full games,
//! hidden information, bad input, history, the update stream.

mod common;

use common::{Client, TestServer};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use tgdl_runtime::game::{Game, Status};
use tgdl_tests::{crazy_eights, liars_dice, tic_tac_toe};

/// The option each seat takes in the scripted games: a fixed function of the position.
fn policy(decisions: u64, options: usize, salt: u64) -> usize {
    ((decisions * 7 + salt * 3 + 1) % options as u64) as usize
}

/// Plays a tic-tac-toe match by API with two tokens; returns the final state of seat 0
/// and the state each decision answered with.
fn play_tic_tac_toe(c: &Client, seed: u64) -> (String, Value, Vec<Value>) {
    let (id, tokens) = c.create(&json!({ "players": 2, "seats": ["human", "human"], "seed": seed }));
    let tokens: Vec<String> = tokens.into_iter().map(|t| t.expect("human seats have tokens")).collect();
    let mut answers = Vec::new();
    loop {
        let s = c.state(&id, None);
        if s["finished"] == true {
            return (id.clone(), c.state(&id, Some(&tokens[0])), answers);
        }
        let p = s["decides"].as_u64().expect("someone decides") as usize;
        let mine = c.state(&id, Some(&tokens[p]));
        let options = mine["options"].as_array().expect("options").len();
        assert!(options > 0, "the deciding seat gets its options");
        let other = c.state(&id, Some(&tokens[1 - p]));
        assert_eq!(other["options"], json!([]), "the other seat gets none");
        let n = mine["decisions"].as_u64().unwrap();
        let r = c.decide(&id, &tokens[p], policy(n, options, seed));
        assert_eq!(r.status, 200, "{}", r.body);
        let answer = r.json();
        assert_eq!(answer["decisions"], n + 1);
        answers.push(answer);
    }
}

/// The same game played on the engine directly.
fn expected_tic_tac_toe(seed: u64) -> (String, u64) {
    let mut game = tic_tac_toe::Game::start(2, seed).unwrap();
    while let Status::Decide(_) = game.status() {
        let n = game.decisions();
        let i = policy(n, game.options().len(), seed);
        game.apply(i).unwrap();
    }
    (game.outcome().expect("an outcome").describe(), game.decisions())
}

#[test]
fn two_tokens_play_a_full_tic_tac_toe() {
    let server = TestServer::in_memory::<tic_tac_toe::Game>();
    let c = server.client();
    for seed in [1, 2, 3] {
        let (_, last, answers) = play_tic_tac_toe(&c, seed);
        let (result, decisions) = expected_tic_tac_toe(seed);
        assert_eq!(last["result"], result.as_str(), "seed {seed}");
        assert_eq!(last["decisions"], decisions);
        assert_eq!(last["finished"], true);
        assert_eq!(last["decides"], Value::Null);
        assert_eq!(last["options"], json!([]));
        assert_eq!(answers.len() as u64, decisions);
        assert_eq!(last["history"].as_array().unwrap().len() as u64, decisions);
    }
    // The game's description for the lobby.
    let info = c.get("/api/game").json();
    assert_eq!(info["name"], "TicTacToe");
    assert_eq!(info["min_players"], 2);
    assert_eq!(info["why"], false, "a compiled engine does not answer why");
}

#[test]
fn a_finished_match_can_be_stepped_through() {
    let server = TestServer::in_memory::<tic_tac_toe::Game>();
    let c = server.client();
    let (id, last, answers) = play_tic_tac_toe(&c, 5);
    let total = last["decisions"].as_u64().unwrap();
    // Step 0: the empty board, nothing decided.
    let r = c.get(&format!("/api/matches/{id}/history/0"));
    assert_eq!(r.status, 200, "{}", r.body);
    let s0 = r.json();
    assert_eq!(s0["decisions"], 0);
    assert_eq!(s0["history_step"], true);
    assert_eq!(s0["result"], Value::Null);
    assert_eq!(s0["history"], json!([]));
    // Every step shows the board each decision answered with (as spectators see it).
    for (k, answer) in answers.iter().enumerate() {
        let step = c.get(&format!("/api/matches/{id}/history/{}", k + 1)).json();
        assert_eq!(step["decisions"], (k + 1) as u64);
        assert_eq!(step["observation"]["view"], answer["observation"]["view"], "step {}", k + 1);
        assert_eq!(step["options"], json!([]), "no options in the history");
    }
    let end = c.get(&format!("/api/matches/{id}/history/{total}")).json();
    assert_eq!(end["result"], last["result"]);
    let r = c.get(&format!("/api/matches/{id}/history/{}", total + 1));
    assert_eq!(r.status, 404, "{}", r.body);
    let r = c.get(&format!("/api/matches/{id}/history/x"));
    assert_eq!(r.status, 400, "{}", r.body);
}

/// Every card name a text mentions, of `cards`.
fn mentioned<'a>(text: &str, cards: &'a BTreeSet<String>) -> Vec<&'a String> {
    cards.iter().filter(|c| text.contains(c.as_str())).collect()
}

fn hand_of(state: &Value, seat: usize) -> Vec<String> {
    state["observation"]["hands"][seat]["objects"]
        .as_array()
        .map(|a| a.iter().map(|c| c.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn crazy_eights_seat_1_never_sees_seat_0s_hand() {
    let server = TestServer::in_memory::<crazy_eights::Game>();
    let c = server.client();
    let mut checked = 0;
    for seed in [11, 12] {
        let (id, tokens) =
            c.create(&json!({ "players": 3, "seats": ["human", "human", "mcts:30"], "seed": seed }));
        assert!(tokens[2].is_none(), "agents have no token");
        let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
        // Cards ever shown to spectators (played, on the discard pile): memory, not a leak.
        let mut public = String::new();
        for _ in 0..40 {
            let s0 = c.settled(&id, Some(&t0));
            let spectator = c.get(&format!("/api/matches/{id}")).body;
            public.push_str(&spectator);
            let hand: BTreeSet<String> = hand_of(&s0, 0).into_iter().collect();
            assert_eq!(
                s0["observation"]["hands"][1]["objects"],
                Value::Null,
                "seat 0 does not see seat 1's hand"
            );
            let s1 = c.state(&id, Some(&t1));
            let s1_text = s1.to_string();
            // What seat 1 sees now (view, hands, options) names no card of seat 0's hand.
            let now =
                json!([s1["observation"]["view"], s1["observation"]["hands"], s1["options"]]).to_string();
            assert_eq!(
                mentioned(&now, &hand),
                Vec::<&String>::new(),
                "seed {seed}: seat 1 sees seat 0's hand"
            );
            // Nothing seat 1 is sent names a card of it that was never public.
            let secret: BTreeSet<String> =
                hand.iter().filter(|h| !public.contains(h.as_str())).cloned().collect();
            assert_eq!(mentioned(&s1_text, &secret), Vec::<&String>::new());
            assert_eq!(mentioned(&spectator, &secret), Vec::<&String>::new(), "spectators see no hand");
            checked += secret.len();
            if s0["finished"] == true {
                break;
            }
            let p = s0["decides"].as_u64().unwrap() as usize;
            let token = if p == 0 { &t0 } else { &t1 };
            let mine = c.state(&id, Some(token));
            if p == 0 {
                // Seat 0 sees its own hand, and its options name its cards.
                assert!(!hand.is_empty());
            }
            let options = mine["options"].as_array().unwrap().len();
            let n = mine["decisions"].as_u64().unwrap();
            let r = c.decide(&id, token, policy(n, options, seed));
            assert_eq!(r.status, 200, "{}", r.body);
            if p == 1 {
                let answer = r.body;
                let secret: BTreeSet<String> =
                    hand.iter().filter(|h| !public.contains(h.as_str())).cloned().collect();
                assert_eq!(mentioned(&answer, &secret), Vec::<&String>::new());
            }
        }
        // The agent played: some decision in the history is player 2's.
        let s = c.state(&id, None);
        assert!(s["history"].as_array().unwrap().iter().any(|h| h["player"] == 2), "the agent seat played");
    }
    assert!(checked > 20, "the check searched for hidden cards ({checked})");
}

/// A seed the server draws gives away every hidden card: it is never answered, and the
/// states the players read do not carry it; a seed the creator chose is theirs already.
#[test]
fn a_drawn_seed_is_told_to_nobody() {
    let server = TestServer::in_memory::<crazy_eights::Game>();
    let c = server.client();
    let r = c.post("/api/matches", &json!({ "players": 2 }));
    assert_eq!(r.status, 201, "{}", r.body);
    let created = r.json();
    assert!(created["seed"].is_null(), "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();
    let state = c.get(&format!("/api/matches/{id}?token={token}")).body;
    assert!(!state.contains("seed"), "{state}");
    let chosen = c.post("/api/matches", &json!({ "players": 2, "seed": 7 })).json();
    assert_eq!(chosen["seed"], 7, "{chosen}");
}

#[test]
fn bad_requests_get_json_errors_and_change_nothing() {
    let server = TestServer::start::<tic_tac_toe::Game>(tgdl_server::store::Store::in_memory().unwrap(), 3);
    let c = server.client();
    let (id, tokens) = c.create(&json!({ "players": 2, "seats": ["human", "human"], "seed": 4 }));
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    assert_eq!(c.decide(&id, &t0, 0).status, 200);
    let before = c.state(&id, Some(&t1));
    assert_eq!(before["decisions"], 1);
    let decisions = format!("/api/matches/{id}/decisions");
    let unchanged = |what: &str| {
        let now = c.state(&id, Some(&t1));
        assert_eq!(now, before, "{what} changed the match");
    };

    // Malformed JSON: 400.
    let r = c.request("POST", &decisions, Some(b"{\"token\": "));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.error().contains("malformed JSON"), "{}", r.body);
    unchanged("malformed JSON");
    let r = c.request("POST", &decisions, Some(b"[1, 2]"));
    assert_eq!(r.status, 400, "{}", r.body);
    let r = c.post(&decisions, &json!({ "token": t1, "option": -1 }));
    assert_eq!(r.status, 400, "{}", r.body);
    let r = c.post(&decisions, &json!({ "token": t1 }));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.error().contains("option"));
    unchanged("a bad option");

    // Unknown match: 404.
    for r in [
        c.get("/api/matches/nope"),
        c.post("/api/matches/nope/decisions", &json!({ "token": t1, "option": 0 })),
        c.get("/api/matches/nope/history/0"),
        c.get("/api/matches/nope/events"),
    ] {
        assert_eq!(r.status, 404, "{}", r.body);
        assert!(r.error().contains("no match"), "{}", r.body);
    }
    let r = c.get("/api/nothing/here");
    assert_eq!(r.status, 404);
    assert!(!r.error().is_empty());

    // The wrong method, or a path that is not UTF-8 once decoded (found by the server's
    // fuzz target): still a JSON error.
    let r = c.post(&format!("/api/matches/{id}"), &json!({ "token": t1, "option": 0 }));
    assert_eq!(r.status, 405, "{}", r.body);
    assert!(r.error().contains("does not take POST"), "{}", r.body);
    let r = c.request("DELETE", "/api/matches", None);
    assert_eq!(r.status, 405, "{}", r.body);
    let r = c.get("/api/matches/%FF%FE");
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(!r.error().is_empty());
    unchanged("a wrong method");

    // Wrong or missing token: 403.
    let r = c.post(&decisions, &json!({ "token": "0123456789abcdef0123456789abcdef", "option": 0 }));
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.error().contains("token"));
    let r = c.post(&decisions, &json!({ "option": 0 }));
    assert_eq!(r.status, 403, "{}", r.body);
    let r = c.get(&format!("/api/matches/{id}?token=wrong"));
    assert_eq!(r.status, 403, "{}", r.body);
    let r = c.get(&format!("/api/matches/{id}/events?token=wrong"));
    assert_eq!(r.status, 403, "{}", r.body);
    let r = c.get(&format!("/api/matches/{id}/history/0?token=wrong"));
    assert_eq!(r.status, 403, "{}", r.body);
    unchanged("a wrong token");

    // Out of turn: player 1 decides now, not player 0.
    let r = c.decide(&id, &t0, 0);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.error().contains("not your decision"), "{}", r.body);
    unchanged("a decision out of turn");

    // A stale client: it saw 0 decisions, the match has 1.
    let r = c.post(&decisions, &json!({ "token": t1, "option": 0, "decisions": 0 }));
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["decisions"], 1, "the error says where the match is");
    assert!(r.error().contains("stale"));
    // An option that does not exist (any more).
    let r = c.decide(&id, &t1, 8);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.error().contains("stale option"), "{}", r.body);
    unchanged("a stale option");

    // An oversized body: 413.
    let big = format!("{{\"token\": \"{t1}\", \"option\": 0, \"pad\": \"{}\"}}", "x".repeat(70 * 1024));
    let r = c.request("POST", &decisions, Some(big.as_bytes()));
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(r.error().contains("larger than"), "{}", r.body);
    unchanged("an oversized body");

    // Bad matches: 400, and none is created.
    for body in [
        json!({ "players": 3 }),
        json!({ "players": 2, "seats": ["robot"] }),
        json!({ "players": 2, "seats": ["human", "human", "human"] }),
        json!({ "players": 2, "seats": ["mcts:99999999"] }),
        json!({ "players": "two" }),
    ] {
        let r = c.post("/api/matches", &body);
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(!r.error().is_empty());
    }
    let r = c.request("POST", "/api/matches", Some(b"nope"));
    assert_eq!(r.status, 400);

    // The bound on matches: this server holds 3.
    c.create(&json!({ "players": 2, "seats": ["human", "random"] }));
    c.create(&json!({ "players": 2, "seats": ["random"] }));
    let r = c.post("/api/matches", &json!({ "players": 2 }));
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.error().contains("maximum of 3 matches"), "{}", r.body);

    // The right decision still works.
    let r = c.decide(&id, &t1, 0);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["decisions"], 2);
}

#[test]
fn agents_play_their_seats_and_the_stream_reports_every_change() {
    let server = TestServer::in_memory::<tic_tac_toe::Game>();
    let c = server.client();
    // An all-agent match plays itself to the end.
    let (id, tokens) = c.create(&json!({ "players": 2, "seats": ["random", "mcts:50"], "seed": 9 }));
    assert_eq!(tokens, vec![None, None]);
    let end = c.settled(&id, None);
    assert_eq!(end["finished"], true);
    assert!(end["result"].is_string());

    // A human against an agent that moves first; the stream shows the agent's move.
    let (id, tokens) = c.create(&json!({ "players": 2, "seats": ["random", "human"], "seed": 3 }));
    let t1 = tokens[1].clone().unwrap();
    let mut events = c.events(&format!("/api/matches/{id}/events?token={t1}"));
    assert!(events.status.contains("200"), "{}", events.status);
    let mut state = events.next();
    while state["decisions"] == 0 {
        state = events.next();
    }
    assert_eq!(state["decisions"], 1, "the agent moved first");
    assert_eq!(state["you"], 1);
    assert_eq!(state["decides"], 1);
    let options = state["options"].as_array().unwrap().len();
    assert_eq!(options, 8);
    let r = c.decide(&id, &t1, 0);
    assert_eq!(r.status, 200, "{}", r.body);
    // The stream follows our decision and the agent's answer (changes that come close
    // together may be reported as one).
    let mut seen = Vec::new();
    while seen.last() != Some(&3) {
        let s = events.next();
        seen.push(s["decisions"].as_u64().unwrap());
    }
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
}

#[test]
fn the_binary_help_lists_serve() {
    let (code, text) = tgdl_server::help::<tic_tac_toe::Game>(vec!["ttt".into(), "--help".into()]);
    assert_eq!(code, 0);
    assert!(text.contains("simulate") && text.contains("tournament"), "{text}");
    assert!(
        text.contains("serve       Play it in a browser") && text.contains("`ttt serve --help`"),
        "{text}"
    );
}

/// A match is created with values for the game's parameters (liar's dice's `dice`): the
/// game information lists them, the match plays and reports the variant, and a value the
/// parameter does not take is a JSON error that creates nothing.
#[test]
fn a_match_plays_the_variant_it_was_created_with() {
    let server = TestServer::in_memory::<liars_dice::Game>();
    let c = server.client();
    let info = c.get("/api/game").json();
    assert_eq!(
        info["params"],
        json!([{"name": "dice", "kind": "number", "default": 1.0, "min": 1.0, "max": 5.0}])
    );
    let r = c.post(
        "/api/matches",
        &json!({ "players": 2, "seats": ["human", "human"], "seed": 3, "params": {"dice": 9} }),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["error"], "`dice` takes a number in 1..5, not `9`");
    let r =
        c.post("/api/matches", &json!({ "players": 2, "seats": ["human", "human"], "params": {"deck": 2} }));
    assert_eq!(r.status, 400, "{}", r.body);

    let (id, tokens) =
        c.create(&json!({ "players": 2, "seats": ["human", "human"], "seed": 3, "params": {"dice": 2} }));
    let state = c.state(&id, tokens[0].as_deref());
    assert_eq!(state["params"], json!({"dice": "2"}));
    // Two dice each: the opening bids go up to four dice (6 faces × 4 quantities).
    assert_eq!(state["options"].as_array().unwrap().len(), 24, "{state}");
    let (id, tokens) = c.create(&json!({ "players": 2, "seats": ["human", "human"], "seed": 3 }));
    let state = c.state(&id, tokens[0].as_deref());
    assert_eq!(state["params"], json!({"dice": "1"}));
    assert_eq!(state["options"].as_array().unwrap().len(), 12, "{state}");
}

/// What chance did is in the history: each seat reads the cards dealt into its own hand,
/// the others' as hidden cards, and a step of the history lists only what came before it.
#[test]
fn chance_outcomes_are_in_the_history_as_each_viewer_may_read_them() {
    let server = TestServer::in_memory::<crazy_eights::Game>();
    let c = server.client();
    let (id, tokens) = c.create(&json!({ "players": 2, "seats": ["human", "human"], "seed": 5 }));
    let read = |token: Option<&str>| -> Vec<String> {
        let s = c.state(&id, token);
        s["chance"].as_array().unwrap().iter().map(|d| d["label"].as_str().unwrap().to_string()).collect()
    };
    let s0 = c.state(&id, tokens[0].as_deref());
    let hand: Vec<String> = hand_of(&s0, 0);
    let (seat0, seat1, spectator) = (read(tokens[0].as_deref()), read(tokens[1].as_deref()), read(None));
    assert!(s0["chance"].as_array().unwrap().iter().all(|d| d["after"] == 0), "the deal is in the setup");
    // Seat 0 reads its own cards dealt; nobody else does.
    for card in &hand {
        let dealt = format!("deals {card}");
        assert!(seat0.contains(&dealt), "seat 0 reads {dealt}: {seat0:?}");
        assert!(
            !seat1.iter().chain(&spectator).any(|l| l.contains(card.as_str())),
            "{card} named to another"
        );
    }
    assert!(seat1.iter().filter(|l| *l == "deals a hidden Card").count() >= hand.len(), "{seat1:?}");
    assert_eq!(seat0.len(), seat1.len(), "every viewer reads every outcome, named or not");
    // Play on: a step of the history lists the outcomes up to it.
    for _ in 0..6 {
        let s = c.state(&id, None);
        let p = s["decides"].as_u64().unwrap() as usize;
        let r = c.decide(&id, tokens[p].as_deref().unwrap(), 0);
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let now = c.state(&id, None);
    let total = now["decisions"].as_u64().unwrap();
    for n in 0..=total {
        let step = c.get(&format!("/api/matches/{id}/history/{n}")).json();
        let chance = step["chance"].as_array().cloned().unwrap_or_default();
        assert!(chance.iter().all(|d| d["after"].as_u64().unwrap() <= n), "step {n}: {chance:?}");
        let all = now["chance"].as_array().unwrap();
        assert_eq!(chance.len(), all.iter().filter(|d| d["after"].as_u64().unwrap() <= n).count());
    }
}
