//! The HTTP side: routes, the JSON API (docs/server.md), the update stream, and agents playing
//! their seats on blocking threads.

use crate::matches::{Match, Refused, Seat, State, agent_choice, parse_seat, seat_name};
use crate::store::Store;
use crate::web;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, RawQuery, State as AxState};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tgdl_play::driver::{SeatKind, expand_seats};
use tgdl_runtime::game::Game;
use tgdl_runtime::hidden::Viewer;
use tokio::sync::{Mutex, RwLock, watch};

/// The largest request body accepted (a decision or a new match is a few dozen bytes).
pub const MAX_BODY: usize = 64 * 1024;

/// How long `GET /api/matches/{id}?after=N` waits for a change before answering anyway.
const LONG_POLL: Duration = Duration::from_secs(25);

/// One match and its update signal (the number of changes so far).
pub struct Entry<G> {
    pub state: Mutex<Match<G>>,
    updates: watch::Sender<u64>,
    /// Whether a task is playing the agent seats of this match.
    driving: std::sync::atomic::AtomicBool,
}

/// Everything the handlers share.
pub struct App<G> {
    store: Arc<Store>,
    matches: RwLock<HashMap<String, Arc<Entry<G>>>>,
    max_matches: usize,
    /// Serialises match creation, so the bound on matches holds.
    creating: Mutex<()>,
    /// Becomes true when the server shuts down: update streams end.
    shutdown: watch::Receiver<bool>,
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
    /// Loads every stored match (replaying its decisions).
    pub fn open(store: Store, max_matches: usize, shutdown: watch::Receiver<bool>) -> Result<App<G>, String> {
        let name = G::info().name;
        let mut matches = HashMap::new();
        for stored in store.load_all().map_err(|e| e.to_string())? {
            if stored.game != name {
                return Err(format!(
                    "the database holds matches of the game `{}`, not `{name}`: give this game its own --db",
                    stored.game
                ));
            }
            let m = Match::<G>::replay(&stored).map_err(|e| format!("match {}: {e}", stored.id))?;
            if let Some(reason) = &m.stopped {
                eprintln!("warning: match {}: {reason}", m.id);
            }
            matches.insert(stored.id.clone(), Arc::new(entry(m)));
        }
        Ok(App {
            store: Arc::new(store),
            matches: RwLock::new(matches),
            max_matches,
            creating: Mutex::new(()),
            shutdown,
        })
    }

    /// How many matches the server holds.
    pub async fn match_count(&self) -> usize {
        self.matches.read().await.len()
    }

    async fn get(&self, id: &str) -> Result<Arc<Entry<G>>, ApiError> {
        self.matches.read().await.get(id).cloned().ok_or_else(|| ApiError::not_found(id))
    }
}

fn entry<G>(m: Match<G>) -> Entry<G> {
    let (updates, _) = watch::channel(0);
    Entry { state: Mutex::new(m), updates, driving: std::sync::atomic::AtomicBool::new(false) }
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
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::map_response(json_client_errors))
        .with_state(app)
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
        "seats": ["human", "random", "mcts", "mcts:N", "mcts:Ns"],
    });
    json_response(StatusCode::OK, body.to_string())
}

/// The body of a request, at most [`MAX_BODY`] bytes, as JSON of type `T`.
async fn read_json<T: serde::de::DeserializeOwned>(body: Body) -> Result<T, ApiError> {
    let bytes = match axum::body::to_bytes(body, MAX_BODY).await {
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
    seed: Option<u64>,
}

async fn create<G: Game>(AxState(app): AxState<Arc<App<G>>>, body: Body) -> Result<Response, ApiError> {
    let request: CreateRequest = read_json(body).await?;
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
        None => crate::random_u64().map_err(ApiError::internal)? % 1_000_000_000,
    };
    let mut seats = Vec::new();
    for kind in kinds {
        let token = match kind {
            SeatKind::Human => Some(crate::random_hex(16).map_err(ApiError::internal)?),
            _ => None,
        };
        seats.push(Seat { kind, name: seat_name(kind), token });
    }

    let _creating = app.creating.lock().await;
    let count = app.match_count().await;
    if count >= app.max_matches {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("this server holds its maximum of {} matches (--max-matches)", app.max_matches),
        ));
    }
    let id = crate::random_hex(8).map_err(ApiError::internal)?;
    let m = Match::<G>::start(id.clone(), players, seed, seats).map_err(ApiError::bad_request)?;
    let stored = m.stored();
    let store = app.store.clone();
    tokio::task::spawn_blocking(move || store.insert_match(&stored))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let body = serde_json::json!({
        "id": id,
        "players": players,
        "seed": seed,
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
    // Long poll: answer at the next change (or after a while, unchanged).
    let _ = tokio::time::timeout(LONG_POLL, updates.changed()).await;
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
    // Replaying may take a while on a long match: not on the async threads.
    let state = tokio::task::spawn_blocking(move || m.state_at(n, viewer))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .ok_or_else(|| ApiError::internal("the match cannot be replayed"))?;
    state_response(&state)
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
    let request: DecisionRequest = read_json(body).await?;
    let e = app.get(&id).await?;
    let mut m = e.state.lock().await;
    let Some(token) = request.token.as_deref().filter(|t| !t.is_empty()) else {
        return Err(ApiError::forbidden("a decision needs the seat's token"));
    };
    let Some(seat) = m.seat_of(token) else { return Err(ApiError::forbidden("wrong token for this match")) };
    let Some(option) = request.option else { return Err(ApiError::bad_request("missing `option`")) };
    let option = usize::try_from(option).unwrap_or(usize::MAX);
    if let Err(refused) = m.check(seat, option, request.decisions) {
        let mut error = ApiError::new(StatusCode::CONFLICT, refused.to_string());
        if matches!(refused, Refused::Stale { .. } | Refused::NoOption { .. } | Refused::NotYourTurn { .. }) {
            error.decisions = Some(m.decisions());
        }
        return Err(error);
    }
    let mut next = m.clone();
    next.apply(seat, option).map_err(|e| ApiError::new(StatusCode::CONFLICT, e))?;
    persist(&app, &id, m.decisions(), option).await?;
    *m = next;
    e.updates.send_modify(|v| *v += 1);
    let state = m.state(Viewer::Seat(seat));
    drop(m);
    kick(&app, &e);
    state_response(&state)
}

/// Stores decision `n` of match `id`: committed when this returns.
async fn persist<G: Game>(app: &Arc<App<G>>, id: &str, n: usize, option: usize) -> Result<(), ApiError> {
    let store = app.store.clone();
    let id = id.to_string();
    tokio::task::spawn_blocking(move || store.insert_decision(&id, n, option))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .map_err(|e| ApiError::internal(format!("the decision could not be stored: {e}")))
}

/// Starts a task playing the agent seats of a match, unless one runs or no agent is to move.
fn kick<G: Game>(app: &Arc<App<G>>, e: &Arc<Entry<G>>) {
    use std::sync::atomic::Ordering;
    if e.driving.swap(true, Ordering::AcqRel) {
        return;
    }
    let (app, e) = (app.clone(), e.clone());
    tokio::spawn(async move {
        drive(&app, &e).await;
        e.driving.store(false, Ordering::Release);
        // A human decision may have come in while the flag was being cleared.
        let again = e.state.lock().await.agent_to_move().is_some();
        if again {
            kick(&app, &e);
        }
    });
}

/// Plays agent decisions while an agent is to move.
async fn drive<G: Game>(app: &Arc<App<G>>, e: &Arc<Entry<G>>) {
    loop {
        if *app.shutdown.borrow() {
            return;
        }
        let (game, seat, kind, seed, n) = {
            let m = e.state.lock().await;
            let Some((seat, kind)) = m.agent_to_move() else { return };
            (m.game.clone(), seat, kind, m.seed, m.decisions())
        };
        let choice = tokio::task::spawn_blocking(move || agent_choice(&game, kind, seed, seat, n)).await;
        let mut m = e.state.lock().await;
        if m.decisions() != n {
            continue;
        }
        let option = match choice {
            Ok(Ok(option)) => option,
            Ok(Err(error)) => {
                m.stopped = Some(format!("player {seat} ({}): {error}", seat_name(kind)));
                e.updates.send_modify(|v| *v += 1);
                return;
            }
            Err(join) => {
                m.stopped = Some(format!("player {seat}: the agent failed: {join}"));
                e.updates.send_modify(|v| *v += 1);
                return;
            }
        };
        let mut next = m.clone();
        if let Err(error) = next.apply(seat, option) {
            m.stopped = Some(format!("player {seat}: {error}"));
            e.updates.send_modify(|v| *v += 1);
            return;
        }
        if let Err(error) = persist(app, &m.id, n, option).await {
            // Not stored: not taken. The match stays where it is (and resumes at restart).
            eprintln!("error: match {}: {}", m.id, error.message);
            return;
        }
        *m = next;
        e.updates.send_modify(|v| *v += 1);
    }
}

async fn events<G: Game>(
    AxState(app): AxState<Arc<App<G>>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let e = app.get(&id).await?;
    let token = query_param(query.as_deref(), "token");
    let viewer = viewer_of(&*e.state.lock().await, token.as_deref())?;
    let updates = e.updates.subscribe();
    let shutdown = app.shutdown.clone();
    struct Stream<G> {
        e: Arc<Entry<G>>,
        updates: watch::Receiver<u64>,
        shutdown: watch::Receiver<bool>,
        first: bool,
    }
    let start = Stream { e, updates, shutdown, first: true };
    let stream = futures_util::stream::unfold(start, move |mut s| async move {
        if !s.first {
            if *s.shutdown.borrow() {
                return None;
            }
            tokio::select! {
                changed = s.updates.changed() => changed.ok()?,
                _ = s.shutdown.changed() => return None,
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
