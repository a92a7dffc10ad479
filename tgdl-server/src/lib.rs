//! Playing TGDL games in a browser (docs/server.md): an HTTP server with an embedded web client,
//! matches stored in SQLite, seats behind secret tokens, agents playing server-side.
//!
//! Generic over any [`Game`]: a game binary calls [`main`], which runs `serve` and hands
//! every other command line to [`tgdl_play::cli::main`].
//!
//! - [`store`]: the SQLite file (every match and decision, committed before answering).
//! - [`matches`]: one match, its replay, and what each viewer may be told about it.
//! - [`api`]: the routes, the JSON API, the update stream, agents on blocking threads.
//! - `web`: the lobby and match pages, compiled into the binary.

pub mod api;
pub mod matches;
pub mod store;
mod web;

use clap::Parser;
use std::ffi::OsString;
use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use tgdl_runtime::game::Game;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// Default bound on the number of matches a server holds.
pub const DEFAULT_MAX_MATCHES: usize = 1000;

/// `BIN serve [--host H] [--port P] [--db PATH] [--max-matches N]`.
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
    /// The most matches the server holds (finished ones included); creating more is refused
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_MATCHES)]
    pub max_matches: usize,
    #[command(flatten)]
    pub limits: tgdl_play::cli::LimitArgs,
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
        match serve_forever::<G>(&serve).await {
            Ok(()) => 0,
            Err(message) => {
                eprintln!("error: {message}");
                1
            }
        }
    });
    // Agents still thinking are abandoned: what they had not stored is replayed from the
    // database next time.
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

/// Binds, prints `listening on http://ADDR`, and serves until Ctrl-C or SIGTERM.
async fn serve_forever<G: Game>(args: &ServeArgs) -> Result<(), String> {
    let db = args.db.clone().unwrap_or_else(default_db::<G>);
    let store = store::Store::open(&db).map_err(|e| e.to_string())?;
    let listener = TcpListener::bind((args.host.as_str(), args.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", args.host, args.port))?;
    let server = Server::<G>::new(store, args.max_matches)?;
    let stop = shutdown_signal();
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

/// Resolves at Ctrl-C or (on Unix) SIGTERM. The handlers are installed when this is
/// called (not when first polled), so a signal right after `listening on` is not missed.
fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt()).ok();
        let terminate = signal(SignalKind::terminate()).ok();
        async move {
            let wait = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                _ = wait(interrupt) => {},
                _ = wait(terminate) => {},
            }
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
    /// Loads every match of the store (replaying their decisions).
    pub fn new(store: store::Store, max_matches: usize) -> Result<Server<G>, String> {
        let (shutdown, receiver) = watch::channel(false);
        let app = Arc::new(api::App::open(store, max_matches, receiver)?);
        Ok(Server { app, shutdown })
    }

    /// The routes, to serve or to call in tests.
    pub fn router(&self) -> axum::Router {
        api::router(self.app.clone())
    }

    /// Serves on `listener` until `stop` resolves; then lets requests in flight finish
    /// and ends the update streams.
    pub async fn run(
        self,
        listener: TcpListener,
        stop: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        api::resume_agents(&self.app).await;
        let router = self.router();
        let shutdown = self.shutdown.clone();
        axum::serve(listener, router)
            .with_graceful_shutdown(async move {
                stop.await;
                let _ = shutdown.send(true);
            })
            .await
    }
}

/// `n` random bytes from the operating system, as lowercase hex.
pub(crate) fn random_hex(n: usize) -> Result<String, String> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random numbers from the system: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A random `u64` from the operating system.
pub(crate) fn random_u64() -> Result<u64, String> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random numbers from the system: {e}"))?;
    Ok(u64::from_le_bytes(bytes))
}
