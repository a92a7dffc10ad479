//! The HTTP side: routes, the JSON API (docs/server.md), the update stream, the checks
//! that refuse cross-site requests, and agents playing their seats.
//!
//! Game code (starting a match, applying a decision, replaying, agents) runs on blocking
//! threads, never on the async workers that answer requests, and never while holding a
//! lock that a request about another match needs. Each match has two locks: `state`,
//! held only to read or swap the match (never while game code runs), and `turn`, which
//! serialises the changes of that match.

use crate::matches::{Match, Refused, Seat, State, agent_choice, parse_seat, seat_name};
use crate::store::{Store, StoredMatch};
use crate::{Config, web};
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, RawQuery, Request, State as AxState};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tgdl_play::driver::{SeatKind, expand_seats};
use tgdl_runtime::game::Game;
use tgdl_runtime::hidden::Viewer;
use tgdl_runtime::params::{ParamKind, ParamSpec, Params};
use tokio::sync::{Mutex, RwLock, watch};

/// The largest request body accepted (a decision or a new match is a few dozen bytes).
pub const MAX_BODY: usize = 64 * 1024;

/// How long `GET /api/matches/{id}?after=N` waits for a change before answering anyway.
const LONG_POLL: Duration = Duration::from_secs(25);

/// The first wait after a decision of an agent could not be stored, and the longest:
/// the wait doubles at each failure in a row.
const STORE_RETRY_FIRST: Duration = Duration::from_millis(100);
const STORE_RETRY_MAX: Duration = Duration::from_secs(30);

/// One match and its update signal (the number of changes so far).
pub struct Entry<G> {
    /// The match: held only to read it or to swap in the next state.
    pub state: Mutex<Match<G>>,
    /// Held while a change of this match is computed and stored, so changes happen one at
    /// a time; requests that only read the match never wait for it.
    turn: Mutex<()>,
    updates: watch::Sender<u64>,
    /// Whether a task is playing the agent seats of this match.
    driving: AtomicBool,
    /// Set when the match is deleted (cleanup): its agents stop.
    removed: AtomicBool,
}

/// The client address of a request, put there by the connection that carried it.
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub IpAddr);

/// Everything the handlers share.
pub struct App<G> {
    store: Arc<Store>,
    matches: RwLock<HashMap<String, Arc<Entry<G>>>>,
    /// Stored matches that this game cannot rebuild (they stay in the database): why.
    unloadable: std::sync::Mutex<HashMap<String, String>>,
    config: Config,
    /// Serialises match creation, so the bound on matches holds.
    creating: Mutex<()>,
    /// Becomes true when the server shuts down: update streams end.
    shutdown: watch::Receiver<bool>,
    /// Update streams open, in all and per client address.
    streams: crate::limit::Counter,
}

/// A JSON error: `{"error": message}` (and the match's decision count, for a stale client).
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    decisions: Option<usize>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), decisions: None }
    }

    fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    fn not_found(id: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, format!("no match `{}`", truncate(id, 80)))
    }

    fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "error": self.message });
        if let Some(n) = self.decisions {
            body["decisions"] = n.into();
        }
        json_response(self.status, body.to_string())
    }
}

fn json_response(status: StatusCode, body: String) -> Response {
    let mut response = (status, body).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn state_response(state: &State) -> Result<Response, ApiError> {
    let body = serde_json::to_string(state).map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(json_response(StatusCode::OK, body))
}

fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

impl<G: Game> App<G> {
    /// Loads every stored match (replaying its decisions). A match this game cannot
    /// rebuild (the game changed since) is reported on standard error and left in the
    /// database, unserved; only a database of another game is refused.
    pub fn open(store: Store, config: Config, shutdown: watch::Receiver<bool>) -> Result<App<G>, String> {
        let name = G::info().name;
        let now = crate::store::now_ms();
        let swept = store.sweep(now - millis(config.keep_finished), now - millis(config.keep_idle));
        match swept {
            Ok(ids) if !ids.is_empty() => eprintln!("deleted {} finished or abandoned matches", ids.len()),
            Ok(_) => {}
            Err(e) => eprintln!("warning: old matches could not be cleaned up: {e}"),
        }
        let mut matches = HashMap::new();
        let mut unloadable = HashMap::new();
        for loaded in store.load_all().map_err(|e| e.to_string())? {
            let rebuilt = loaded.stored.and_then(|stored| {
                if stored.game != name {
                    return Err(format!(
                        "the database holds matches of the game `{}`, not `{name}`: give this game its own --db",
                        stored.game
                    ));
                }
                Match::<G>::replay(&stored)
            });
            match rebuilt {
                Ok(m) => {
                    if let Some(reason) = &m.stopped {
                        eprintln!("warning: match {}: {reason}", m.id);
                    }
                    if m.result().is_some() && !loaded.finished {
                        let _ = store.mark_finished(&m.id);
                    }
                    matches.insert(loaded.id, Arc::new(entry(m)));
                }
                Err(reason) if reason.starts_with("the database holds matches of the game") => {
                    return Err(reason);
                }
                Err(reason) => {
                    eprintln!(
                        "warning: match {} is kept in the database but not served: {reason}",
                        loaded.id
                    );
                    unloadable.insert(loaded.id, reason);
                }
            }
        }
        Ok(App {
            store: Arc::new(store),
            matches: RwLock::new(matches),
            unloadable: std::sync::Mutex::new(unloadable),
            streams: crate::limit::Counter::new(config.max_streams, config.max_streams_per_client),
            config,
            creating: Mutex::new(()),
            shutdown,
        })
    }

    /// The store (shared with the handlers).
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// How many matches the server holds.
    pub async fn match_count(&self) -> usize {
        self.matches.read().await.len()
    }

    async fn get(&self, id: &str) -> Result<Arc<Entry<G>>, ApiError> {
        if let Some(e) = self.matches.read().await.get(id) {
            return Ok(e.clone());
        }
        let unloadable = self.unloadable.lock().unwrap_or_else(|e| e.into_inner());
        match unloadable.get(id) {
            Some(reason) => Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!("match `{id}` is stored but this version of the game cannot rebuild it: {reason}"),
            )),
            None => Err(ApiError::not_found(id)),
        }
    }

    /// Forgets deleted matches: their agents stop, their pages get 404.
    async fn forget(&self, ids: &[String]) {
        let mut matches = self.matches.write().await;
        let mut unloadable = self.unloadable.lock().unwrap_or_else(|e| e.into_inner());
        for id in ids {
            if let Some(e) = matches.remove(id) {
                e.removed.store(true, Ordering::Release);
                e.updates.send_modify(|v| *v += 1);
            }
            unloadable.remove(id);
        }
    }

    /// Deletes what the cleanup policy lets go (docs/server.md, "Cleanup").
    pub async fn sweep(&self) -> Result<usize, String> {
        let store = self.store.clone();
        let now = crate::store::now_ms();
        let (finished, idle) = (now - millis(self.config.keep_finished), now - millis(self.config.keep_idle));
        let ids = blocking(move || store.sweep(finished, idle).map_err(|e| e.to_string())).await??;
        self.forget(&ids).await;
        Ok(ids.len())
    }
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 2)
}

/// Runs game or storage work on a blocking thread.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
    tokio::task::spawn_blocking(f).await.map_err(|e| format!("the work failed: {e}"))
}

fn entry<G>(m: Match<G>) -> Entry<G> {
    let (updates, _) = watch::channel(0);
    Entry {
        state: Mutex::new(m),
        turn: Mutex::new(()),
        updates,
        driving: AtomicBool::new(false),
        removed: AtomicBool::new(false),
    }
}

/// The routes of the server.
pub fn router<G: Game>(app: Arc<App<G>>) -> Router {
    Router::new()
        .route("/", get(web::lobby))
        .route("/m/{id}", get(web::match_page))
        .route("/assets/{file}", get(web::asset))
        .route("/api/game", get(game_info::<G>))
        .route("/api/matches", post(create::<G>))
        .route("/api/matches/{id}", get(get_match::<G>))
        .route("/api/matches/{id}/decisions", post(decide::<G>))
        .route("/api/matches/{id}/events", get(events::<G>))
        .route("/api/matches/{id}/history/{n}", get(history::<G>))
        .route("/api/matches/{id}/why", get(why::<G>))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::map_response(json_client_errors))
        .layer(axum::middleware::from_fn_with_state(app.clone(), same_site::<G>))
        .with_state(app)
}

/// Refuses requests that another site could have made (docs/server.md, "Security"): a
/// `Host` this server does not go by (DNS rebinding), an `Origin` other than the server's
/// own, and a state-changing request whose body is not declared JSON (an HTML form, or
/// `fetch` with `text/plain`, which browsers send cross-site without asking). Refused
/// before anything runs, so nothing changes.
async fn same_site<G: Game>(AxState(app): AxState<Arc<App<G>>>, request: Request, next: Next) -> Response {
    match check_same_site(&app.config, request.method(), request.headers(), request.uri()) {
        Ok(()) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

fn check_same_site(
    config: &Config,
    method: &Method,
    headers: &HeaderMap,
    uri: &axum::http::Uri,
) -> Result<(), ApiError> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| uri.authority().map(|a| a.to_string()));
    let Some(host) = host else {
        return Err(ApiError::bad_request("the request has no Host header"));
    };
    if !config.allows_host(&host) {
        return Err(ApiError::forbidden(format!(
            "this server does not answer to the host `{}` (start it with --allow-host NAME to serve it under that name)",
            truncate(&host, 100)
        )));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let same =
            origin.to_str().ok().and_then(|o| o.split_once("://")).is_some_and(|(scheme, authority)| {
                (scheme == "http" || scheme == "https") && authority.eq_ignore_ascii_case(&host)
            });
        if !same {
            return Err(ApiError::forbidden(format!(
                "cross-site request refused: the page at `{}` is not this server's",
                truncate(&String::from_utf8_lossy(origin.as_bytes()), 100)
            )));
        }
    }
    // The methods that carry a body to act on (the others are answered 405, or read).
    let writes = matches!(*method, Method::POST | Method::PUT | Method::PATCH);
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .and_then(|t| t.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    if writes && !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a request that changes something must send its body as `Content-Type: application/json`",
        ));
    }
    Ok(())
}

async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("`{}` does not take {method}", truncate(uri.path(), 100)),
    )
    .into_response()
}

/// Every refused request is answered in JSON, `{"error": ...}`: the handlers' own errors
/// already are; this turns the rest (a path segment that is not UTF-8, which axum's
/// extractors refuse in plain text) into the same shape, keeping status and message.
async fn json_client_errors(response: Response) -> Response {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !response.status().is_client_error() || is_json {
        return response;
    }
    let status = response.status();
    let text = match axum::body::to_bytes(response.into_body(), MAX_BODY).await {
        Ok(bytes) if !bytes.is_empty() => String::from_utf8_lossy(&bytes).into_owned(),
        _ => status.canonical_reason().unwrap_or("bad request").to_string(),
    };
    ApiError::new(status, truncate(&text, 200)).into_response()
}

/// Starts the agents of every match where an agent is to move (after loading).
pub async fn resume_agents<G: Game>(app: &Arc<App<G>>) {
    let entries: Vec<Arc<Entry<G>>> = app.matches.read().await.values().cloned().collect();
    for e in entries {
        kick(app, &e);
    }
}

async fn not_found(uri: axum::http::Uri) -> Response {
    ApiError::new(StatusCode::NOT_FOUND, format!("nothing at `{}`", truncate(uri.path(), 100)))
        .into_response()
}

async fn game_info<G: Game>() -> Response {
    let info = G::info();
    let body = serde_json::json!({
        "name": info.name,
        "source": info.source,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "hidden_information": G::has_hidden_information(),
        "params": info.params.iter().map(param_json).collect::<Vec<_>>(),
        "seats": ["human", "random", "mcts", "mcts:N", "mcts:Ns"],
        "why": explains::<G>(),
    });
    json_response(StatusCode::OK, body.to_string())
}

/// Whether this engine answers `why` (the interpreter does; compiled engines keep no rules
/// to point at): asked of a game started from setup.
fn explains<G: Game>() -> bool {
    G::start(G::info().min_players, 0).is_ok_and(|game| game.why(0, "").is_some())
}

/// A parameter as the lobby offers it: its name, kind, default and range.
fn param_json(spec: &ParamSpec) -> serde_json::Value {
    match spec.kind {
        ParamKind::Bool => {
            serde_json::json!({ "name": spec.name, "kind": "bool", "default": spec.default != 0.0 })
        }
        ParamKind::Choice { options } => serde_json::json!({
            "name": spec.name,
            "kind": "choice",
            "default": spec.text(spec.default),
            "options": options,
        }),
        ParamKind::Number { min, max } => serde_json::json!({
            "name": spec.name,
            "kind": "number",
            "default": spec.default,
            "min": min.is_finite().then_some(min),
            "max": max.is_finite().then_some(max),
        }),
    }
}

/// The body of a request, at most [`MAX_BODY`] bytes arriving within `timeout`, as JSON
/// of type `T`. The wait is bounded because a request whose body is being read counts as
/// being answered: no other timeout closes a connection whose client never sends it.
async fn read_json<T: serde::de::DeserializeOwned>(body: Body, timeout: Duration) -> Result<T, ApiError> {
    let Ok(read) = tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY)).await else {
        return Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!("the request body did not arrive within {} s", timeout.as_secs_f64()),
        ));
    };
    let bytes = match read {
        Ok(b) => b,
        Err(e) => {
            let too_large = std::error::Error::source(&e)
                .is_some_and(|s| s.to_string().contains("length limit"))
                || e.to_string().contains("length limit");
            return Err(if too_large {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the request body is larger than {MAX_BODY} bytes"),
                )
            } else {
                ApiError::bad_request(format!("cannot read the request body: {e}"))
            });
        }
    };
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad_request(format!("malformed JSON: {e}")))
}

/// A parameter of the query string (percent-decoded); the first occurrence.
fn query_param(raw: Option<&str>, key: &str) -> Option<String> {
    raw?.split('&').filter_map(|pair| pair.split_once('=').or(Some((pair, "")))).find_map(|(k, v)| {
        (percent_decode(k).as_deref() == Some(key)).then(|| percent_decode(v).unwrap_or_default())
    })
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes.get(i + 1..i + 3)?;
                let hex = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// The viewer a request's token stands for: its seat, or the public without a token.
fn viewer_of<G: Game>(m: &Match<G>, token: Option<&str>) -> Result<Viewer, ApiError> {
    match token {
        None | Some("") => Ok(Viewer::Public),
        Some(t) => {
            m.seat_of(t).map(Viewer::Seat).ok_or_else(|| ApiError::forbidden("wrong token for this match"))
        }
    }
}

#[derive(Deserialize)]
struct CreateRequest {
    players: Option<u32>,
    #[serde(default)]
    seats: Vec<String>,
    seed: Option<u128>,
    /// Values of the game's parameters by name: numbers, `true`/`false`, or their text.
    #[serde(default)]
    params: std::collections::BTreeMap<String, serde_json::Value>,
}

async fn create<G: Game>(AxState(app): AxState<Arc<App<G>>>, body: Body) -> Result<Response, ApiError> {
    let request: CreateRequest = read_json(body, app.config.body_timeout).await?;
    let info = G::info();
    let players = request.players.unwrap_or(info.min_players);
    if players < info.min_players || players > info.max_players {
        let range = if info.min_players == info.max_players {
            format!("{}", info.min_players)
        } else {
            format!("{} to {}", info.min_players, info.max_players)
        };
        return Err(ApiError::bad_request(format!("this game is for {range} players, not {players}")));
    }
    let named: Vec<(String, String)> = request
        .params
        .iter()
        .map(|(name, value)| {
            let text = match value {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (name.clone(), text)
        })
        .collect();
    let params = Params::from_named(info.params, &named).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let kinds: Vec<SeatKind> = request
        .seats
        .iter()
        .map(|s| parse_seat(s))
        .collect::<Result<_, _>>()
        .map_err(ApiError::bad_request)?;
    let kinds = if kinds.is_empty() { vec![SeatKind::Human] } else { kinds };
    let kinds = expand_seats(&kinds, players).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let seed = match request.seed {
        Some(s) => s,
        // 128 bits: a seed gives away every hidden draw, so it must not be guessable.
        None => crate::random_u128().map_err(ApiError::internal)?,
    };
    let mut seats = Vec::new();
    for kind in kinds {
        let token = match kind {
            SeatKind::Human => Some(crate::random_hex(16).map_err(ApiError::internal)?),
            _ => None,
        };
        seats.push(Seat { kind, name: seat_name(kind), token });
    }
    let id = crate::random_hex(8).map_err(ApiError::internal)?;
    let stored = StoredMatch {
        id: id.clone(),
        game: info.name.to_string(),
        players,
        seed,
        seats: seats.iter().map(|s| s.name.clone()).collect(),
        tokens: seats.iter().map(|s| s.token.clone()).collect(),
        decisions: Vec::new(),
        deciders: Vec::new(),
        params: params.named(info.params),
    };
    // What is stored must be what was accepted: the match is built from the stored form
    // as the next start will read it, and compared with what was asked.
    let accepted: Vec<SeatKind> = seats.iter().map(|s| s.kind).collect();
    let m = blocking(move || -> Result<Match<G>, String> {
        let back = stored.round_trip()?;
        let m = Match::<G>::replay(&back)?;
        if let Some((i, seat)) = m.seats.iter().enumerate().find(|(i, s)| s.kind != accepted[*i]) {
            return Err(format!("seat {i}: `{}` would not be read back as it was given", seat.name));
        }
        Ok(m)
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::bad_request)?;

    let _creating = app.creating.lock().await;
    if app.match_count().await >= app.config.max_matches {
        // Room is made by deleting the match that finished first, if any.
        let store = app.store.clone();
        let evicted = blocking(move || store.evict_oldest_finished()).await.map_err(ApiError::internal)?;
        match evicted {
            Ok(Some(old)) => app.forget(&[old]).await,
            Ok(None) => {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "this server holds its maximum of {} matches (--max-matches), none of them finished",
                        app.config.max_matches
                    ),
                ));
            }
            Err(e) => return Err(ApiError::internal(format!("the match could not be stored: {e}"))),
        }
    }
    let stored = m.stored();
    let store = app.store.clone();
    blocking(move || store.insert_match(&stored))
        .await
        .map_err(ApiError::internal)?
        .map_err(|e| ApiError::internal(format!("the match could not be stored: {e}")))?;
    let body = serde_json::json!({
        "id": id,
        "players": players,
        "params": m.params.named(info.params),
        // The seed is answered only to a creator who chose it: one the server drew stays
        // with the server, since it would show the players every hidden hand.
        "seed": request.seed,
        "seats": m.seats.iter().enumerate().map(|(i, s)| {
            let mut seat = serde_json::json!({ "seat": i, "kind": s.name });
            if let Some(t) = &s.token {
                seat["token"] = t.clone().into();
            }
            seat
        }).collect::<Vec<_>>(),
    });
    let e = Arc::new(entry(m));
    app.matches.write().await.insert(id, e.clone());
    kick(&app, &e);
    Ok(json_response(StatusCode::CREATED, body.to_string()))
}

async fn get_match<G: Game>(
    AxState(app): AxState<Arc<App<G>>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let e = app.get(&id).await?;
    let token = query_param(query.as_deref(), "token");
    let after = match query_param(query.as_deref(), "after") {
        Some(a) => {
            Some(a.parse::<usize>().map_err(|_| ApiError::bad_request("`after` must be a decision count"))?)
        }
        None => None,
    };
    let mut updates = e.updates.subscribe();
    {
        let m = e.state.lock().await;
        let viewer = viewer_of(&m, token.as_deref())?;
        if after.is_none_or(|n| n != m.decisions() || m.result().is_some()) {
            return state_response(&m.state(viewer));
        }
    }
    // Long poll: answer at the next change (or after a while unchanged, or at shutdown).
    let mut shutdown = app.shutdown.clone();
    tokio::select! {
        _ = tokio::time::timeout(LONG_POLL, updates.changed()) => {},
        _ = shutdown.wait_for(|stop| *stop) => {},
    }
    let m = e.state.lock().await;
    let viewer = viewer_of(&m, token.as_deref())?;
    state_response(&m.state(viewer))
}

async fn history<G: Game>(
    AxState(app): AxState<Arc<App<G>>>,
    Path((id, n)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let e = app.get(&id).await?;
    let n: usize = n.parse().map_err(|_| ApiError::bad_request("the step must be a decision count"))?;
    let token = query_param(query.as_deref(), "token");
    let m = e.state.lock().await.clone();
    let viewer = viewer_of(&m, token.as_deref())?;
    if n > m.decisions() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("the match has {} decisions, not {n}", m.decisions()),
        ));
    }
    let state = blocking(move || m.state_at(n, viewer))
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| ApiError::internal("the match cannot be replayed"))?;
    state_response(&state)
}

/// `why`: which rule keeps the move labelled `label` off the seat's menu (or lets it on),
/// as that seat sees the game (`Game::why`: the interpreter can tell, a compiled engine
/// cannot).
async fn why<G: Game>(
    AxState(app): AxState<Arc<App<G>>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let e = app.get(&id).await?;
    let token = query_param(query.as_deref(), "token");
    let Some(label) = query_param(query.as_deref(), "label").filter(|l| !l.is_empty()) else {
        return Err(ApiError::bad_request("missing `label`: the move to ask about"));
    };
    let m = e.state.lock().await.clone();
    let Viewer::Seat(seat) = viewer_of(&m, token.as_deref())? else {
        return Err(ApiError::forbidden("`why` answers a seat: give its token"));
    };
    let lines = blocking(move || m.game.why(seat, &label)).await.map_err(ApiError::internal)?;
    match lines {
        Some(lines) => Ok(json_response(StatusCode::OK, serde_json::json!({ "lines": lines }).to_string())),
        None => Err(ApiError::new(
            StatusCode::NOT_IMPLEMENTED,
            "`why` needs the interpreter: serve the game with --engine interpreted",
        )),
    }
}

#[derive(Deserialize)]
struct DecisionRequest {
    token: Option<String>,
    option: Option<u64>,
    decisions: Option<u64>,
}

async fn decide<G: Game>(
    AxState(app): AxState<Arc<App<G>>>,
    Path(id): Path<String>,
    body: Body,
) -> Result<Response, ApiError> {
    let request: DecisionRequest = read_json(body, app.config.body_timeout).await?;
    let e = app.get(&id).await?;
    let Some(token) = request.token.as_deref().filter(|t| !t.is_empty()) else {
        return Err(ApiError::forbidden("a decision needs the seat's token"));
    };
    let Some(option) = request.option else { return Err(ApiError::bad_request("missing `option`")) };
    let option = usize::try_from(option).unwrap_or(usize::MAX);
    let refuse = |m: &Match<G>| -> Result<u32, ApiError> {
        let Some(seat) = m.seat_of(token) else {
            return Err(ApiError::forbidden("wrong token for this match"));
        };
        if let Err(refused) = m.check(seat, option, request.decisions) {
            let mut error = ApiError::new(StatusCode::CONFLICT, refused.to_string());
            if matches!(
                refused,
                Refused::Stale { .. } | Refused::NoOption { .. } | Refused::NotYourTurn { .. }
            ) {
                error.decisions = Some(m.decisions());
            }
            return Err(error);
        }
        Ok(seat)
    };
    // Refused at once when it cannot be taken (an agent may be thinking: no waiting for it).
    refuse(&*e.state.lock().await)?;
    let turn = e.turn.lock().await;
    let snapshot = e.state.lock().await.clone();
    let seat = refuse(&snapshot)?;
    let n = snapshot.decisions();
    let (next, state) = blocking(move || -> Result<(Match<G>, State), String> {
        let mut next = snapshot;
        next.apply(seat, option)?;
        let state = next.state(Viewer::Seat(seat));
        Ok((next, state))
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(|e| ApiError::new(StatusCode::CONFLICT, e))?;
    let finished = next.result().is_some();
    persist(&app, &id, n, seat, option, finished).await.map_err(ApiError::internal)?;
    *e.state.lock().await = next;
    e.updates.send_modify(|v| *v += 1);
    drop(turn);
    kick(&app, &e);
    state_response(&state)
}

/// Stores decision `n` of match `id`, taken by `seat` (and whether it finished the match):
/// committed when this returns.
async fn persist<G: Game>(
    app: &Arc<App<G>>,
    id: &str,
    n: usize,
    seat: u32,
    option: usize,
    finished: bool,
) -> Result<(), String> {
    let store = app.store.clone();
    let id = id.to_string();
    blocking(move || store.insert_decision(&id, n, seat, option, finished))
        .await?
        .map_err(|e| format!("the decision could not be stored: {e}"))
}

/// Starts a task playing the agent seats of a match, unless one runs or no agent is to move.
fn kick<G: Game>(app: &Arc<App<G>>, e: &Arc<Entry<G>>) {
    if e.driving.swap(true, Ordering::AcqRel) {
        return;
    }
    let (app, e) = (app.clone(), e.clone());
    tokio::spawn(async move {
        drive(&app, &e).await;
        e.driving.store(false, Ordering::Release);
        // A human decision may have come in while the flag was being cleared; a match
        // being shut down or deleted is left alone.
        let again = !*app.shutdown.borrow()
            && !e.removed.load(Ordering::Acquire)
            && e.state.lock().await.agent_to_move().is_some();
        if again {
            kick(&app, &e);
        }
    });
}

/// What an agent decided, applied to a copy of the match: stored, then swapped in.
struct Decided<G> {
    n: usize,
    seat: u32,
    option: usize,
    next: Match<G>,
}

/// Plays agent decisions while an agent is to move. A decision is taken (in memory) only
/// once stored; when storing fails (a full disk), the same decision is tried again after
/// a wait that doubles up to [`STORE_RETRY_MAX`], and the failure is reported once.
async fn drive<G: Game>(app: &Arc<App<G>>, e: &Arc<Entry<G>>) {
    let mut pending: Option<Decided<G>> = None;
    let mut failing: Option<Duration> = None;
    loop {
        if *app.shutdown.borrow() || e.removed.load(Ordering::Acquire) {
            return;
        }
        let decided = match pending.take() {
            Some(d) => d,
            None => {
                let snapshot = e.state.lock().await.clone();
                let Some((seat, kind)) = snapshot.agent_to_move() else { return };
                let (seed, n) = (snapshot.seed, snapshot.decisions());
                // The agent thinks, then its choice is applied, on a blocking thread.
                let decided = blocking(move || {
                    let option = agent_choice(&snapshot.game, kind, seed, seat, n)
                        .map_err(|error| format!("player {seat} ({}): {error}", seat_name(kind)))?;
                    let mut next = snapshot;
                    next.apply(seat, option).map_err(|error| format!("player {seat}: {error}"))?;
                    Ok::<_, String>(Decided { n, seat, option, next })
                })
                .await
                .unwrap_or_else(|join| Err(format!("player {seat}: the agent failed: {join}")));
                match decided {
                    Ok(d) => d,
                    Err(reason) => {
                        let _turn = e.turn.lock().await;
                        let mut m = e.state.lock().await;
                        if m.decisions() == n {
                            m.stopped = Some(reason);
                            let (store, id) = (app.store.clone(), m.id.clone());
                            drop(m);
                            let _ = blocking(move || store.mark_finished(&id)).await;
                            e.updates.send_modify(|v| *v += 1);
                            return;
                        }
                        continue;
                    }
                }
            }
        };
        let turn = e.turn.lock().await;
        let (n, id) = {
            let m = e.state.lock().await;
            (m.decisions(), m.id.clone())
        };
        if n != decided.n || e.removed.load(Ordering::Acquire) {
            // Someone else changed the match meanwhile: think again from where it is.
            continue;
        }
        let finished = decided.next.result().is_some();
        match persist(app, &id, decided.n, decided.seat, decided.option, finished).await {
            Ok(()) => {
                if failing.take().is_some() {
                    eprintln!("match {id}: the agents' decisions are stored again");
                }
                *e.state.lock().await = decided.next;
                e.updates.send_modify(|v| *v += 1);
            }
            Err(error) => {
                // Not stored: not taken. Tried again after a wait; reported once a streak.
                drop(turn);
                let wait = match failing {
                    None => {
                        eprintln!(
                            "error: match {id}: player {}'s decision: {error}; trying again, waiting up to {} s between tries",
                            decided.seat,
                            STORE_RETRY_MAX.as_secs()
                        );
                        STORE_RETRY_FIRST
                    }
                    Some(last) => (last * 2).min(STORE_RETRY_MAX),
                };
                failing = Some(wait);
                pending = Some(decided);
                let mut shutdown = app.shutdown.clone();
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {},
                    _ = shutdown.wait_for(|stop| *stop) => return,
                }
            }
        }
    }
}

async fn events<G: Game>(
    AxState(app): AxState<Arc<App<G>>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    client: Option<axum::Extension<ClientAddr>>,
) -> Result<Response, ApiError> {
    let e = app.get(&id).await?;
    let token = query_param(query.as_deref(), "token");
    let viewer = viewer_of(&*e.state.lock().await, token.as_deref())?;
    let permit = app.streams.admit(client.map(|c| c.0.0)).map_err(|refused| {
        let (status, what) = match refused {
            crate::limit::Refused::Client => (StatusCode::TOO_MANY_REQUESTS, "from this address"),
            crate::limit::Refused::Server => (StatusCode::SERVICE_UNAVAILABLE, "on this server"),
        };
        ApiError::new(
            status,
            format!("too many update streams are open {what}: close one, or poll with ?after=N"),
        )
    })?;
    let updates = e.updates.subscribe();
    let shutdown = app.shutdown.clone();
    struct Stream<G> {
        e: Arc<Entry<G>>,
        updates: watch::Receiver<u64>,
        shutdown: watch::Receiver<bool>,
        first: bool,
        /// Held while the stream is open: counts it against the bounds.
        _permit: crate::limit::Permit,
    }
    let start = Stream { e, updates, shutdown, first: true, _permit: permit };
    let stream = futures_util::stream::unfold(start, move |mut s| async move {
        if !s.first {
            if *s.shutdown.borrow() || s.e.removed.load(Ordering::Acquire) {
                return None;
            }
            tokio::select! {
                changed = s.updates.changed() => changed.ok()?,
                _ = s.shutdown.changed() => return None,
            }
            if s.e.removed.load(Ordering::Acquire) {
                return None;
            }
        }
        s.first = false;
        let state = s.e.state.lock().await.state(viewer);
        let data = serde_json::to_string(&state).unwrap_or_else(|_| "{}".to_string());
        Some((Ok::<Event, Infallible>(Event::default().event("state").data(data)), s))
    });
    let mut response = Sse::new(stream).keep_alive(KeepAlive::default()).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_parameters_are_decoded() {
        assert_eq!(query_param(Some("token=ab%20c&after=3"), "token").as_deref(), Some("ab c"));
        assert_eq!(query_param(Some("token=ab&after=3"), "after").as_deref(), Some("3"));
        assert_eq!(query_param(Some("token"), "token").as_deref(), Some(""));
        assert_eq!(query_param(Some("x=1"), "token"), None);
        assert_eq!(query_param(None, "token"), None);
        assert_eq!(query_param(Some("token=%zz"), "token").as_deref(), Some(""));
    }
}
