//! Playing TGDL games in a browser (docs/server.md): an HTTP server with an embedded web client,
//! matches stored in SQLite, seats behind secret tokens, agents playing server-side.
//!
//! Generic over any [`Game`]: a game binary calls [`main`], which runs `serve` and hands
//! every other command line to [`tgdl_play::cli::main`].
//!
//! - [`store`]: the SQLite file (every match and decision, committed before answering).
//! - [`matches`]: one match, its replay, and what each viewer may be told about it.
//! - [`api`]: the routes, the JSON API, the update stream, agents on blocking threads.
//! - [`limit`]: bounds on connections and streams, in all and per client address.
//! - `web`: the lobby and match pages, compiled into the binary.
//!
//! Connections are served here rather than by `axum::serve`, for what it does not bound:
//! how many connections are open (in all and per address), how long a client may take to
//! send a request's head, and how long a connection may stay silent.

pub mod api;
pub mod limit;
pub mod matches;
pub mod store;
mod web;

use clap::Parser;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::ffi::OsString;
use std::future::Future;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tgdl_runtime::game::Game;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// Default bound on the number of matches a server holds.
pub const DEFAULT_MAX_MATCHES: usize = 1000;

/// How long requests in flight may take to finish once the server is asked to stop.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// How a server behaves: bounds, timeouts, the cleanup policy, the names it answers to.
#[derive(Clone, Debug)]
pub struct Config {
    /// The most matches held (finished ones included).
    pub max_matches: usize,
    /// The address given to `--host`: requests may name it as their `Host`.
    pub host: String,
    /// Other names requests may give as their `Host` (`--allow-host`); `*` allows any.
    pub allowed_hosts: Vec<String>,
    /// Finished matches are deleted this long after they finished.
    pub keep_finished: Duration,
    /// Matches without a change (creation or decision) for this long are deleted.
    pub keep_idle: Duration,
    /// How often the cleanup runs (it also runs at start).
    pub sweep_every: Duration,
    /// Open connections, in all and per client address.
    pub max_connections: usize,
    pub max_connections_per_client: usize,
    /// Open update streams, in all and per client address.
    pub max_streams: usize,
    pub max_streams_per_client: usize,
    /// How long a client may take to send a request's head.
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body, once its head arrived.
    pub body_timeout: Duration,
    /// How long a connection may pass without a byte either way before it is closed.
    pub idle_timeout: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_matches: DEFAULT_MAX_MATCHES,
            host: "127.0.0.1".into(),
            allowed_hosts: Vec::new(),
            keep_finished: Duration::from_secs(24 * 3600),
            keep_idle: Duration::from_secs(7 * 24 * 3600),
            sweep_every: Duration::from_secs(10 * 60),
            max_connections: 512,
            max_connections_per_client: 64,
            max_streams: 256,
            max_streams_per_client: 16,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
        }
    }
}

impl Config {
    /// Whether a request naming `host` (a `Host` header: a name or address, maybe with a
    /// port) may be answered: loopback names and addresses, the address the server was
    /// told to listen on (any address when that is all of them: an address in `Host`
    /// cannot be a rebound DNS name), and the names allowed with `--allow-host`.
    pub fn allows_host(&self, host: &str) -> bool {
        let name = match host.strip_prefix('[') {
            Some(rest) => rest.split(']').next().unwrap_or(""),
            None => host.split(':').next().unwrap_or(""),
        }
        .to_ascii_lowercase();
        if name.is_empty() {
            return false;
        }
        if self.allowed_hosts.iter().any(|h| h == "*" || h.eq_ignore_ascii_case(&name)) {
            return true;
        }
        // Browsers resolve `localhost` and `*.localhost` to loopback themselves.
        if name == "localhost" || name.ends_with(".localhost") {
            return true;
        }
        let listen = self.host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = name.parse::<IpAddr>() {
            let listening = listen.parse::<IpAddr>().ok();
            return ip.is_loopback() || listening.is_some_and(|l| l.is_unspecified() || l == ip);
        }
        name.eq_ignore_ascii_case(listen)
    }
}

/// `BIN serve [--host H] [--port P] [--db PATH] [--max-matches N] ...`.
#[derive(Parser, Debug, Clone)]
#[command(disable_help_subcommand = true)]
pub struct ServeArgs {
    /// The address to listen on (loopback by default: other machines cannot connect)
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port to listen on (0: any free port; the URL printed says which)
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The SQLite file holding the matches [default: `<game>.sqlite` in the current
    /// directory; `tgdlc serve FILE` puts it beside FILE]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// The most matches the server holds (finished ones included); when full, the match
    /// that finished first makes room, and with none finished creating more is refused
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_MATCHES)]
    pub max_matches: usize,
    /// Another name the server may be reached by (a `Host` it answers to, besides
    /// loopback and --host): the name of a reverse proxy, say; repeatable; `*` allows any
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Hours a finished match is kept before it is deleted
    #[arg(long, value_name = "HOURS", default_value_t = 24.0)]
    pub keep_finished_hours: f64,
    /// Days a match without a decision is kept before it is deleted
    #[arg(long, value_name = "DAYS", default_value_t = 7.0)]
    pub keep_idle_days: f64,
    /// The most connections open at once (an eighth of them from one address)
    #[arg(long, value_name = "N", default_value_t = 512)]
    pub max_connections: usize,
    /// The most update streams open at once (a sixteenth of them, and at least 16, from
    /// one address)
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_streams: usize,
    #[command(flatten)]
    pub limits: tgdl_play::cli::LimitArgs,
}

impl ServeArgs {
    /// The server's configuration.
    pub fn config(&self) -> Result<Config, String> {
        let duration = |value: f64, unit: f64, flag: &str| {
            Duration::try_from_secs_f64(value * unit)
                .map_err(|_| format!("--{flag} must be a number of at least 0, not {value}"))
        };
        if self.max_connections == 0 || self.max_streams == 0 {
            return Err("--max-connections and --max-streams must be at least 1".into());
        }
        Ok(Config {
            max_matches: self.max_matches,
            host: self.host.clone(),
            allowed_hosts: self.allow_host.clone(),
            keep_finished: duration(self.keep_finished_hours, 3600.0, "keep-finished-hours")?,
            keep_idle: duration(self.keep_idle_days, 86_400.0, "keep-idle-days")?,
            max_connections: self.max_connections,
            max_connections_per_client: (self.max_connections / 8).max(1),
            max_streams: self.max_streams,
            max_streams_per_client: (self.max_streams / 16).max(16).min(self.max_streams),
            ..Config::default()
        })
    }
}

/// The program of a game binary: `serve ...` runs the server, anything else is the
/// command line of `tgdl-play` (`play`, `simulate`, `perft`, `tournament`).
pub fn main<G: Game>() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "serve") {
        ExitCode::from(run_cli::<G>(args))
    } else if args.len() == 2 && (args[1] == "--help" || args[1] == "-h") {
        let (code, text) = help::<G>(args);
        print!("{text}");
        ExitCode::from(code)
    } else {
        tgdl_play::cli::main::<G>()
    }
}

/// `BIN --help`: the help of `tgdl-play`'s command line, and the `serve` command this
/// crate adds to it.
pub fn help<G: Game>(args: Vec<OsString>) -> (u8, String) {
    let bin = args
        .first()
        .and_then(|a| std::path::Path::new(a).file_stem())
        .map_or_else(|| G::info().name.to_string(), |s| s.to_string_lossy().into_owned());
    let mut out = Vec::new();
    let code = tgdl_play::cli::run_cli::<G>(args, std::io::empty(), &mut out, std::io::sink(), false);
    let mut text = String::from_utf8_lossy(&out).into_owned();
    text.push_str(&format!(
        "\nIn a browser:\n  serve       Play it in a browser: an HTTP server with durable matches (`{bin} serve --help`)\n"
    ));
    (code, text)
}

/// `serve` with its arguments (program name first, then `serve`): the exit code.
pub fn run_cli<G: Game>(mut args: Vec<OsString>) -> u8 {
    let info = G::info();
    // `BIN serve --port 1`: clap sees `BIN-serve --port 1`.
    if args.len() >= 2 {
        args.remove(1);
    }
    let bin = args
        .first()
        .and_then(|a| std::path::Path::new(a).file_stem())
        .map_or_else(|| info.name.to_string(), |s| s.to_string_lossy().into_owned());
    let command = <ServeArgs as clap::CommandFactory>::command()
        .bin_name(format!("{bin} serve"))
        .about(format!("{}: play it in a browser (an HTTP server with durable matches)", info.name));
    let matches = match command.try_get_matches_from(args) {
        Ok(m) => m,
        // Run by `tgdlc serve FILE ...`: usage lines name what the person typed.
        Err(e) => return tgdl_play::cli::print_usage_error(&e),
    };
    let serve = match <ServeArgs as clap::FromArgMatches>::from_arg_matches(&matches) {
        Ok(s) => s,
        Err(e) => {
            let _ = e.print();
            return 2;
        }
    };
    if let Err(message) = serve.limits.apply() {
        eprintln!("error: {message}");
        return 2;
    }
    let config = match serve.config() {
        Ok(c) => c,
        Err(message) => {
            eprintln!("error: {message}");
            return 2;
        }
    };
    // Moves run on the runtime's threads: give them the stack the deepest call budget needs.
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(tgdl_runtime::limits::GAME_STACK_BYTES)
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the server's runtime: {e}");
            return 1;
        }
    };
    let code = runtime.block_on(async {
        match serve_forever::<G>(&serve, config).await {
            Ok(()) => 0,
            Err(message) => {
                eprintln!("error: {message}");
                1
            }
        }
    });
    // The database is closed by then; agents still thinking are abandoned: what they had
    // not stored is played again after the next start.
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    code
}

/// The database file used when `--db` is not given.
pub fn default_db<G: Game>() -> PathBuf {
    let name: String = G::info()
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect();
    PathBuf::from(format!("{}.sqlite", if name.is_empty() { "game" } else { &name }))
}

/// Binds, prints `listening on http://ADDR`, and serves until Ctrl-C, SIGTERM or SIGHUP.
async fn serve_forever<G: Game>(args: &ServeArgs, config: Config) -> Result<(), String> {
    let db = args.db.clone().unwrap_or_else(default_db::<G>);
    let stop = shutdown_signal();
    let opened = db.clone();
    let store = tokio::task::spawn_blocking(move || store::Store::open(&opened))
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    let listener = TcpListener::bind((args.host.as_str(), args.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", args.host, args.port))?;
    // Loading replays every match: game code, on a blocking thread.
    let server = tokio::task::spawn_blocking(move || Server::<G>::new(store, config))
        .await
        .map_err(|e| e.to_string())??;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let mut out = std::io::stdout();
    let _ = writeln!(out, "listening on {}", url_of(addr));
    let _ = writeln!(out, "matches are stored in {}", db.display());
    let _ = out.flush();
    server.run(listener, stop).await.map_err(|e| format!("server error: {e}"))
}

fn url_of(addr: SocketAddr) -> String {
    format!("http://{addr}")
}

/// Resolves at Ctrl-C or (on Unix) SIGTERM or SIGHUP (a closed terminal, what process
/// managers send). The handlers are installed when this is called (not when first
/// polled), so a signal right after `listening on` is not missed.
fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let signals: Vec<_> = [SignalKind::interrupt(), SignalKind::terminate(), SignalKind::hangup()]
            .into_iter()
            .filter_map(|kind| signal(kind).ok())
            .collect();
        async move {
            if signals.is_empty() {
                return std::future::pending::<()>().await;
            }
            let waits = signals.into_iter().map(|mut s| Box::pin(async move { s.recv().await }));
            futures_util::future::select_all(waits).await;
        }
    }
    #[cfg(not(unix))]
    async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// A server for one game: its matches (loaded from the store) and routes.
pub struct Server<G> {
    app: Arc<api::App<G>>,
    shutdown: watch::Sender<bool>,
}

impl<G: Game> Server<G> {
    /// Loads every match of the store (replaying their decisions), after deleting those
    /// the cleanup policy lets go.
    pub fn new(store: store::Store, config: Config) -> Result<Server<G>, String> {
        let (shutdown, receiver) = watch::channel(false);
        let app = Arc::new(api::App::open(store, config, receiver)?);
        Ok(Server { app, shutdown })
    }

    /// The routes, to serve or to call in tests.
    pub fn router(&self) -> axum::Router {
        api::router(self.app.clone())
    }

    /// The store the server writes.
    pub fn store(&self) -> Arc<store::Store> {
        self.app.store().clone()
    }

    /// Serves on `listener` until `stop` resolves; then stops accepting, lets requests in
    /// flight finish (for at most a few seconds), ends the update streams and long polls,
    /// and closes the database once the writes in flight are done.
    pub async fn run(
        self,
        listener: TcpListener,
        stop: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let config = self.app.config().clone();
        api::resume_agents(&self.app).await;
        let router = self.router();
        let stopping = self.shutdown.clone();
        tokio::spawn(async move {
            stop.await;
            let _ = stopping.send(true);
        });
        let sweeper = self.app.clone();
        let mut stopped = self.shutdown.subscribe();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(sweeper.config().sweep_every) => {}
                    _ = stopped.wait_for(|s| *s) => return,
                }
                if let Err(e) = sweeper.sweep().await {
                    eprintln!("warning: old matches could not be cleaned up: {e}");
                }
            }
        });

        let connections = limit::Counter::new(config.max_connections, config.max_connections_per_client);
        let mut tasks = tokio::task::JoinSet::new();
        let mut stopped = self.shutdown.subscribe();
        let mut accept_failing = false;
        loop {
            let accepted = tokio::select! {
                a = listener.accept() => a,
                _ = stopped.wait_for(|s| *s) => break,
            };
            while tasks.try_join_next().is_some() {}
            let (stream, peer) = match accepted {
                Ok(a) => {
                    accept_failing = false;
                    a
                }
                Err(e) => {
                    // Out of file descriptors, say: wait rather than spin, and say it once.
                    if !accept_failing {
                        eprintln!("error: cannot accept connections: {e}");
                        accept_failing = true;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            match connections.admit(Some(peer.ip())) {
                Ok(permit) => {
                    let connection =
                        serve_connection(stream, peer, router.clone(), &config, self.shutdown.subscribe());
                    tasks.spawn(async move {
                        connection.await;
                        drop(permit);
                    });
                }
                Err(refused) => {
                    tasks.spawn(refuse_connection(stream, refused));
                }
            }
        }
        // The port is free from here on.
        drop(listener);
        let _ =
            tokio::time::timeout(SHUTDOWN_GRACE, async { while tasks.join_next().await.is_some() {} }).await;
        tasks.abort_all();
        let store = self.app.store().clone();
        match tokio::task::spawn_blocking(move || store.close()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(std::io::Error::other(e.to_string())),
            Err(e) => Err(std::io::Error::other(e.to_string())),
        }
    }
}

/// Serves one connection (HTTP/1.1, keep-alive) until it closes, stays silent past the
/// idle timeout, or the server stops (then the request in flight is finished first).
fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: axum::Router,
    config: &Config,
    mut stopped: watch::Receiver<bool>,
) -> impl Future<Output = ()> + Send + 'static {
    let (header_timeout, idle_timeout) = (config.header_timeout, config.idle_timeout);
    async move {
        let _ = stream.set_nodelay(true);
        let start = Instant::now();
        let last = Arc::new(AtomicU64::new(0));
        // Requests being answered: a connection waiting for its answer (a slow move, a
        // long poll) is not idle.
        let busy = Arc::new(AtomicUsize::new(0));
        let io = TokioIo::new(Watched { inner: stream, start, last: last.clone() });
        let answering = busy.clone();
        let service =
            hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(api::ClientAddr(peer.ip()));
                let mut router = router.clone();
                let busy = Busy::new(&answering);
                async move {
                    let _busy = busy;
                    std::future::poll_fn(|cx| {
                        tower_service::Service::<axum::extract::Request>::poll_ready(&mut router, cx)
                    })
                    .await?;
                    tower_service::Service::call(&mut router, request.map(axum::body::Body::new)).await
                }
            });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.timer(TokioTimer::new()).header_read_timeout(header_timeout).keep_alive(true);
        let connection = builder.serve_connection(io, service);
        tokio::pin!(connection);
        let mut stopping = false;
        loop {
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = stopped.wait_for(|s| *s), if !stopping => {
                    stopping = true;
                    connection.as_mut().graceful_shutdown();
                }
                // Dropping the connection closes the socket.
                _ = silent_for(&last, &busy, start, idle_timeout) => return,
            }
        }
    }
}

/// Resolves once nothing has been read or written for `limit` while no request was
/// being answered.
async fn silent_for(last: &AtomicU64, busy: &AtomicUsize, start: Instant, limit: Duration) {
    loop {
        let quiet = start.elapsed().saturating_sub(Duration::from_millis(last.load(Ordering::Relaxed)));
        if quiet >= limit && busy.load(Ordering::Acquire) == 0 {
            return;
        }
        tokio::time::sleep(limit.saturating_sub(quiet).max(Duration::from_millis(100))).await;
    }
}

/// Counts a request being answered, while it lives.
struct Busy(Arc<AtomicUsize>);

impl Busy {
    fn new(count: &Arc<AtomicUsize>) -> Busy {
        count.fetch_add(1, Ordering::AcqRel);
        Busy(count.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Answers a connection over the bounds with a JSON 503, and closes it.
async fn refuse_connection(mut stream: TcpStream, refused: limit::Refused) {
    let why = match refused {
        limit::Refused::Client => "too many connections from this address",
        limit::Refused::Server => "too many connections to this server",
    };
    let body = serde_json::json!({ "error": format!("{why}: try again later") }).to_string();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        let _ = stream.write_all(response.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// A socket that notes when a byte last went either way (milliseconds after `start`).
struct Watched {
    inner: TcpStream,
    start: Instant,
    last: Arc<AtomicU64>,
}

impl Watched {
    fn touch(&self) {
        self.last.store(self.start.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(poll, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
        }
        poll
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, data);
        if matches!(poll, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        poll
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// `n` random bytes from the operating system, as lowercase hex.
pub(crate) fn random_hex(n: usize) -> Result<String, String> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random numbers from the system: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A random `u128` from the operating system.
pub(crate) fn random_u128() -> Result<u128, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random numbers from the system: {e}"))?;
    Ok(u128::from_le_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_answered_to() {
        let local = Config::default();
        for host in ["127.0.0.1:8080", "localhost", "LOCALHOST:1", "[::1]:80", "127.0.0.2", "game.localhost"]
        {
            assert!(local.allows_host(host), "{host}");
        }
        for host in ["evil.example:8080", "10.0.0.1", "", "[::2]", "localhost.evil.example"] {
            assert!(!local.allows_host(host), "{host}");
        }
        let open = Config {
            host: "0.0.0.0".into(),
            allowed_hosts: vec!["games.example".into()],
            ..Config::default()
        };
        assert!(open.allows_host("192.0.2.7:8080"), "an address cannot be a rebound name");
        assert!(open.allows_host("Games.Example"));
        assert!(!open.allows_host("evil.example"));
        let named = Config { host: "box.lan".into(), ..Config::default() };
        assert!(named.allows_host("box.lan:8080"));
        assert!(!named.allows_host("192.0.2.7"));
        let any = Config { allowed_hosts: vec!["*".into()], ..Config::default() };
        assert!(any.allows_host("anything.example"));
    }
}
