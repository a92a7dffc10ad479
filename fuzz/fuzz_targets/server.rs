//! The server's API (docs/server.md) under arbitrary requests: every answer is a defined status
//! with a JSON body (`{"error": ...}` for 4xx), never a panic or a 500, and a refused
//! decision changes nothing.
//!
//! An input is a sequence of requests separated by NUL bytes. The first byte of each picks
//! its shape — create a match, read it, decide, read its history, or a raw method and path —
//! and the rest is its body, token, path or index. Requests about "the match" name the last
//! match created in this input (so decisions really apply), and a byte chooses between its
//! seats' real tokens and the fuzzer's text. "Changes nothing" is checked where only
//! requests move the match (no agent seats).
#![no_main]

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::sync::OnceLock;
use tgdl_reference::TicTacToe;
use tgdl_server::{Config, Server};
use tgdl_server::store::Store;
use tower::ServiceExt;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime"))
}

/// One answer: status and body as JSON (the oracle insists it is JSON).
async fn send(router: &axum::Router, method: Method, uri: &str, body: Vec<u8>) -> Option<(StatusCode, Value)> {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .body(Body::from(body))
        .ok()?; // A URI the HTTP layer itself rejects never reaches the server.
    let response = router.clone().oneshot(request).await.expect("routers are infallible");
    let status = response.status();
    assert!(
        !status.is_server_error() || status == StatusCode::SERVICE_UNAVAILABLE,
        "{uri}: status {status}"
    );
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24).await.expect("a body");
    if status.is_client_error() {
        let v: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("{uri}: a {status} answer is JSON: {}", String::from_utf8_lossy(&bytes)));
        assert!(v["error"].is_string(), "{uri}: a {status} answer says what is wrong: {v}");
        return Some((status, v));
    }
    // Pages and the event stream are not JSON; the API's answers are.
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Some((status, v))
}

/// Percent-encodes arbitrary text for a query or a path segment.
fn escape(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

struct Match {
    id: String,
    tokens: Vec<String>,
    /// Agents move on their own between two requests: the count of decisions of such a
    /// match can change without any request.
    has_agents: bool,
}

async fn decisions_of(router: &axum::Router, m: &Match) -> Value {
    let uri = format!("/api/matches/{}?token={}", m.id, m.tokens[0]);
    let (status, v) = send(router, Method::GET, &uri, Vec::new()).await.expect("a valid URI");
    assert_eq!(status, StatusCode::OK, "{v}");
    v["decisions"].clone()
}

fuzz_target!(|data: &[u8]| {
    runtime().block_on(async {
        let config = Config { max_matches: 4, ..Config::default() };
        let server = Server::<TicTacToe>::new(Store::in_memory().expect("a database"), config).expect("a server");
        let router = server.router();
        let mut current: Option<Match> = None;
        for request in data.split(|&b| b == 0).take(12) {
            let Some((&shape, rest)) = request.split_first() else { continue };
            let id = current.as_ref().map_or_else(|| "m".to_string(), |m| m.id.clone());
            let token = |pick: u8| match &current {
                Some(m) if pick % 3 != 2 => m.tokens[pick as usize % 3 % m.tokens.len()].clone(),
                _ => escape(rest),
            };
            match shape % 7 {
                0 => {
                    let answer = send(&router, Method::POST, "/api/matches", rest.to_vec()).await;
                    if let Some((StatusCode::CREATED, v)) = answer {
                        let seats = v["seats"].as_array().cloned().unwrap_or_default();
                        let tokens: Vec<String> =
                            seats.iter().filter_map(|s| s["token"].as_str().map(String::from)).collect();
                        if let (Some(id), false) = (v["id"].as_str(), tokens.is_empty()) {
                            let has_agents = tokens.len() < seats.len();
                            current = Some(Match { id: id.to_string(), tokens, has_agents });
                        }
                    }
                }
                1 => {
                    let uri = format!("/api/matches/{id}?token={}", token(shape / 7));
                    send(&router, Method::GET, &uri, Vec::new()).await;
                }
                2 | 3 => {
                    // A decision: the fuzzer's body, or a well-formed one with its option.
                    let body = if shape % 7 == 2 {
                        rest.to_vec()
                    } else {
                        let option = rest.first().map_or(0, |&b| i64::from(b) - 8);
                        serde_json::json!({ "token": token(shape / 7), "option": option }).to_string().into_bytes()
                    };
                    let before = match &current {
                        Some(m) if !m.has_agents => Some(decisions_of(&router, m).await),
                        _ => None,
                    };
                    let uri = format!("/api/matches/{id}/decisions");
                    let answer = send(&router, Method::POST, &uri, body).await;
                    if let (Some(m), Some(before), Some((status, _))) = (&current, before, answer)
                        && status.is_client_error()
                    {
                        assert_eq!(decisions_of(&router, m).await, before, "a refused decision changes nothing");
                    }
                }
                4 => {
                    let n = rest.first().copied().unwrap_or(0);
                    let uri = format!("/api/matches/{id}/history/{n}?token={}", token(shape / 7));
                    send(&router, Method::GET, &uri, Vec::new()).await;
                }
                5 => {
                    let path = String::from_utf8_lossy(rest);
                    if !path.contains("/events") {
                        // The event stream never ends by itself.
                        send(&router, Method::GET, &format!("/{path}"), Vec::new()).await;
                    }
                }
                _ => {
                    let uri = format!("/api/matches/{}", escape(rest));
                    send(&router, Method::POST, &uri, rest.to_vec()).await;
                }
            }
        }
    });
});
