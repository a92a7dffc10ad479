//! The web client, compiled into the binary: plain HTML, CSS and JavaScript (no build
//! step). Pages draw what the API sends with DOM and SVG calls (`textContent`,
//! `createElementNS`), never by parsing game text as HTML.

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

const LOBBY: &str = include_str!("../web/index.html");
const MATCH: &str = include_str!("../web/match.html");
const CSS: &str = include_str!("../web/app.css");
const LOBBY_JS: &str = include_str!("../web/lobby.js");
const MATCH_JS: &str = include_str!("../web/match.js");
const BOARD_JS: &str = include_str!("../web/board.js");

/// Scripts only from this server, nothing inline; tokens in URLs never leave as a referrer.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn page(content_type: &'static str, body: &'static str) -> Response {
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

pub async fn lobby() -> Response {
    page("text/html; charset=utf-8", LOBBY)
}

pub async fn match_page(Path(_id): Path<String>) -> Response {
    page("text/html; charset=utf-8", MATCH)
}

pub async fn asset(Path(file): Path<String>) -> Response {
    match file.as_str() {
        "app.css" => page("text/css; charset=utf-8", CSS),
        "lobby.js" => page("text/javascript; charset=utf-8", LOBBY_JS),
        "match.js" => page("text/javascript; charset=utf-8", MATCH_JS),
        "board.js" => page("text/javascript; charset=utf-8", BOARD_JS),
        _ => {
            let body = serde_json::json!({ "error": "no such asset" }).to_string();
            let mut response = (StatusCode::NOT_FOUND, body).into_response();
            response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            response
        }
    }
}
