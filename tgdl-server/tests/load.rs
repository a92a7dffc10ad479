//! Load (a benchmark, not a timed test; ignored by default): 200 matches of connect four
//! played at once through the API on loopback, each by its own client thread choosing at
//! random for both human seats, every decision stored in an SQLite file. Prints the
//! decisions per second and the latency percentiles of the decision requests:
//!
//!     cargo test --release -p tgdl-server --test load -- --ignored --nocapture
//!
//! It asserts only what is not timing: no request failed and every match ended.

mod common;

use common::TestServer;
use serde_json::json;
use std::time::{Duration, Instant};
use tgdl_runtime::rng::Rng;
use tgdl_server::store::Store;
use tgdl_tests::connect_four;

const MATCHES: usize = 200;

#[test]
#[ignore = "a benchmark: cargo test --release -p tgdl-server --test load -- --ignored --nocapture"]
fn two_hundred_matches_at_once() {
    let dir = std::env::temp_dir().join(format!("tgdl-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&dir.join("load.sqlite")).unwrap();
    let server = TestServer::start::<connect_four::Game>(store, MATCHES * 2);
    let client = server.client();
    let started = Instant::now();
    let threads: Vec<_> = (0..MATCHES as u64)
        .map(|m| {
            std::thread::spawn(move || {
                let (id, tokens) =
                    client.create(&json!({"players": 2, "seats": ["human", "human"], "seed": m}));
                let mut rng = Rng::new(m);
                let mut latencies = Vec::new();
                let mut errors = 0;
                loop {
                    let state = client.state(&id, tokens[0].as_deref());
                    if state["finished"] == true {
                        break;
                    }
                    let seat = state["decides"].as_u64().expect("someone decides") as usize;
                    let mine = client.state(&id, tokens[seat].as_deref());
                    let n = mine["options"].as_array().map_or(0, Vec::len) as u64;
                    let option = rng.below(n.max(1));
                    let body =
                        json!({"token": tokens[seat], "option": option, "decisions": mine["decisions"]});
                    let asked = Instant::now();
                    let reply = client.post(&format!("/api/matches/{id}/decisions"), &body);
                    latencies.push(asked.elapsed());
                    if reply.status != 200 {
                        errors += 1;
                        break;
                    }
                }
                (latencies, errors)
            })
        })
        .collect();
    let mut latencies: Vec<Duration> = Vec::new();
    let mut errors = 0;
    for t in threads {
        let (l, e) = t.join().expect("a client thread");
        latencies.extend(l);
        errors += e;
    }
    let seconds = started.elapsed().as_secs_f64();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    println!(
        "{MATCHES} matches, {} decisions in {seconds:.2} s: {:.0} decisions/s; decision latency p50 {:.2} ms, p99 {:.2} ms; {errors} errors",
        latencies.len(),
        latencies.len() as f64 / seconds,
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(errors, 0);
    assert!(latencies.len() >= MATCHES * 7, "every match played to its end");
}
