//! Building games (`tgdlc build`, `play`, `simulate`, ...): a generated engine becomes a
//! standalone, optimised game binary with cargo, or a Python wheel with maturin
//! ([`build_python`]). It takes the code the compiler generated (`tgdl_compiler`) and
//! knows nothing of TGDL itself.
//!
//! Layout of the cache directory ([`cache_dir`]):
//!
//! ```text
//! <cache>/
//!   target/                      one CARGO_TARGET_DIR shared by every game, so the
//!                                runtime and its dependencies compile once
//!   games/<name>-<hash>/         one cargo project per generated engine
//!     Cargo.toml                 depends on tgdl-runtime and tgdl-server (or, when the
//!                                server is not beside the runtime, tgdl-play) by path;
//!                                empty [workspace]
//!     Cargo.lock                 copied from the TGDL workspace when there is one
//!     src/main.rs                `mod game;` + `tgdl_server::main::<game::Game>()` (the
//!                                command line of tgdl-play plus `serve`)
//!     src/game.rs                the generated engine, as `tgdlc emit` prints it
//!     <name>                     the built binary (copied out of the shared target)
//!     tgdl-build.stamp           fingerprint of the sources of the crates it was built with
//! ```
//!
//! `<hash>` is FNV-1a 64 of the tgdlc version, the runtime's path and the project's
//! files, so a changed game or compiler gets a fresh project. (The compiler names a
//! game's files in its code relative to the main file's directory, so the same game typed
//! as another path is the same project.) A project whose binary
//! exists and whose stamp matches the runtime sources as they are now is not rebuilt;
//! when the runtime sources changed since (a TGDL checkout being worked on), cargo runs
//! again in the same project, incrementally.
//!
//! Environment: `TGDL_CACHE` (the cache directory), `TGDL_RUNTIME_PATH` (the
//! `tgdl-runtime` crate to build against, or a checkout holding it; by default the one
//! in the checkout whose sources (this crate's) the program was compiled from; the
//! `tgdl-play` and `tgdl-server` crates are its sibling directories),
//! `CARGO` (the cargo to run).

use std::ffi::OsString;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod python;
pub use python::{BuiltWheel, PythonBuildError, build_python, module_name};

/// The tgdlc version, part of every project hash.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where the runtime was when this crate (and so `tgdlc`) was built: its sibling in the
/// checkout.
const BAKED_RUNTIME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tgdl-runtime");

/// Name of the file recording the runtime fingerprint a project was built with.
const STAMP: &str = "tgdl-build.stamp";

/// How to build.
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// Show cargo's own progress and warnings (otherwise cargo runs with `--quiet` and its
    /// output is shown only when the build fails).
    pub verbose: bool,
    /// Print one line on standard error before running cargo (not when a cached binary is
    /// reused), so a long first build does not look like a hang.
    pub status: bool,
}

/// A built game.
#[derive(Clone, Debug)]
pub struct Built {
    /// The binary, inside the project directory.
    pub binary: PathBuf,
    /// The cargo project it was built from.
    pub project: PathBuf,
    /// Whether an existing build was reused without running cargo.
    pub cached: bool,
}

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// No cache directory could be determined.
    NoCacheDir,
    /// The runtime crate is not where it should be.
    NoRuntime { path: PathBuf, from_env: bool },
    /// A file-system operation failed.
    Io { action: String, path: PathBuf, error: std::io::Error },
    /// cargo could not be started.
    CargoNotRun { cargo: OsString, error: std::io::Error },
    /// cargo failed on the generated project. `output` is cargo's output (empty when it
    /// went to the terminal); `generated_code` says the generated crate itself did not
    /// compile (a compiler bug) rather than, say, a dependency download.
    CargoFailed { project: PathBuf, output: String, generated_code: bool },
    /// cargo succeeded but the binary is not where it should be.
    NoBinary { path: PathBuf },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::NoCacheDir => write!(
                f,
                "cannot find a cache directory for built games: set TGDL_CACHE (or HOME) to a writable directory"
            ),
            BuildError::NoRuntime { path, from_env: true } => write!(
                f,
                "TGDL_RUNTIME_PATH is `{}`, which is neither the tgdl-runtime crate nor a TGDL checkout \
                 holding it\nhelp: set TGDL_RUNTIME_PATH to the `tgdl-runtime` directory of a TGDL checkout \
                 (or to the checkout itself)",
                path.display()
            ),
            BuildError::NoRuntime { path, from_env: false } => write!(
                f,
                "cannot find the tgdl-runtime crate at `{}`, where it was when tgdlc was built (has the \
                 checkout moved?)\nhelp: set TGDL_RUNTIME_PATH to the `tgdl-runtime` directory of a TGDL \
                 checkout, or reinstall tgdlc from where the checkout is now: `cargo install --path tgdlc`",
                path.display()
            ),
            BuildError::Io { action, path, error } => {
                write!(f, "cannot {action} `{}`: {error}", path.display())
            }
            BuildError::CargoNotRun { cargo, error } => write!(
                f,
                "cannot run `{}` to build the game: {error}; install Rust (https://rustup.rs) or set CARGO",
                cargo.to_string_lossy()
            ),
            BuildError::CargoFailed { project, output, generated_code } => {
                if *generated_code {
                    write!(
                        f,
                        "internal compiler error: the generated Rust does not compile; this is a bug in tgdlc, \
                         please report it with the .tgdl files"
                    )?;
                } else {
                    write!(f, "cargo failed to build the game")?;
                }
                write!(f, "\nnote: the generated project is `{}`", project.display())?;
                if output.trim().is_empty() {
                    write!(f, "\nnote: cargo's output is above")
                } else {
                    write!(f, "\nnote: cargo's output:\n{}", output.trim_end())
                }
            }
            BuildError::NoBinary { path } => {
                write!(f, "cargo reported success but the binary `{}` is missing", path.display())
            }
        }
    }
}

impl std::error::Error for BuildError {}

fn io(action: &str, path: &Path) -> impl FnOnce(std::io::Error) -> BuildError {
    let (action, path) = (action.to_string(), path.to_path_buf());
    move |error| BuildError::Io { action, path, error }
}

/// The cache directory: `$TGDL_CACHE`, else `$XDG_CACHE_HOME/tgdl`, else
/// `$HOME/.cache/tgdl` (on Windows `%LOCALAPPDATA%\tgdl`).
pub fn cache_dir() -> Result<PathBuf, BuildError> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("TGDL_CACHE") {
        return Ok(dir);
    }
    if let Some(dir) = var("XDG_CACHE_HOME").filter(|d| d.is_absolute()) {
        return Ok(dir.join("tgdl"));
    }
    if let Some(home) = var("HOME") {
        return Ok(home.join(".cache").join("tgdl"));
    }
    if let Some(dir) = var("LOCALAPPDATA") {
        return Ok(dir.join("tgdl"));
    }
    Err(BuildError::NoCacheDir)
}

/// The `tgdl-runtime` crate directory: `$TGDL_RUNTIME_PATH`, else the one in the checkout
/// this crate was compiled from (where it was when `tgdlc` was built: a `cargo install
/// --path tgdlc` keeps that path, so it must be told when the checkout moves). The variable may
/// also name a TGDL checkout, whose `tgdl-runtime` is then used. Absolute, and checked to
/// be the `tgdl-runtime` package, so a wrong path is one clear error rather than cargo's.
pub fn runtime_path() -> Result<PathBuf, BuildError> {
    let (path, from_env) = match std::env::var_os("TGDL_RUNTIME_PATH").filter(|v| !v.is_empty()) {
        Some(p) => (PathBuf::from(p), true),
        None => (PathBuf::from(BAKED_RUNTIME), false),
    };
    let crate_dir = [path.clone(), path.join("tgdl-runtime")].into_iter().find(|dir| is_runtime_crate(dir));
    let Some(dir) = crate_dir else { return Err(BuildError::NoRuntime { path, from_env }) };
    std::fs::canonicalize(&dir).map_err(|_| BuildError::NoRuntime { path, from_env })
}

/// Whether `dir` holds the `tgdl-runtime` package (its `Cargo.toml` names it).
fn is_runtime_crate(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("Cargo.toml")).is_ok_and(|toml| {
        toml.lines().any(|l| {
            l.split_once('=')
                .is_some_and(|(k, v)| k.trim() == "name" && v.trim().trim_matches('"') == "tgdl-runtime")
        })
    })
}

/// FNV-1a, 64 bits: a small, stable hash (the same on every platform and version).
#[derive(Clone, Copy, Debug)]
pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Writes a piece followed by a separator, so `("ab", "c")` and `("a", "bc")` differ.
    pub fn field(&mut self, bytes: &[u8]) {
        self.write(bytes);
        self.write(&[0xff]);
    }

    pub fn finish(self) -> u64 {
        self.0
    }
}

/// A cargo package name from a game name: lowercase ASCII letters, digits and `-`;
/// `game` when nothing is left.
pub fn crate_name(game: &str) -> String {
    let mut out = String::new();
    for c in game.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    match out.chars().next() {
        None => "game".to_string(),
        Some(c) if c.is_ascii_digit() => format!("game-{out}"),
        Some(_) => out,
    }
}

/// The files of the cargo project for a game.
struct Project {
    name: String,
    hash: u64,
    cargo_toml: String,
    main_rs: String,
    game_rs: String,
}

/// The `tgdl-server` crate beside a runtime directory, if it is there.
fn server_path(runtime: &Path) -> Option<PathBuf> {
    let server = runtime.parent()?.join("tgdl-server");
    server.join("Cargo.toml").is_file().then_some(server)
}

/// The `tgdl-play` crate beside a runtime directory: the command line of game binaries.
fn play_path(runtime: &Path) -> PathBuf {
    runtime.parent().unwrap_or(runtime).join("tgdl-play")
}

impl Project {
    fn new(name: &str, code: &str, runtime: &Path) -> Project {
        let name = crate_name(name);
        // The command line is tgdl-play's; through the server crate, when it is there, the
        // binary also has `serve` (docs/server.md).
        let (entry, front_end, front_end_path) = match server_path(runtime) {
            Some(server) => ("tgdl_server::main", "tgdl-server", server),
            None => ("tgdl_play::cli::main", "tgdl-play", play_path(runtime)),
        };
        let main_rs = format!(
            "// Generated by tgdlc {VERSION}: the game binary. Do not edit; tgdlc rewrites this project.\n\
             mod game;\n\n\
             fn main() -> std::process::ExitCode {{\n    \
                 {entry}::<game::Game>()\n\
             }}\n"
        );
        let mut hash = Fnv64::default();
        hash.field(VERSION.as_bytes());
        hash.field(runtime.to_string_lossy().as_bytes());
        hash.field(main_rs.as_bytes());
        hash.field(code.as_bytes());
        let hash = hash.finish();
        // The package (and so the binary in the shared target directory) carries the hash:
        // two projects never overwrite each other's binary there.
        let cargo_toml = format!(
            "# Generated by tgdlc {VERSION}. Do not edit; tgdlc rewrites this project.\n\
             [package]\n\
             name = \"{name}-{hash:016x}\"\n\
             version = \"0.1.0\"\n\
             edition = \"2024\"\n\
             publish = false\n\n\
             [dependencies]\n\
             tgdl-runtime = {{ path = {} }}\n\
             {front_end} = {{ path = {} }}\n\n\
             [profile.release]\n\
             opt-level = 3\n\
             codegen-units = 1\n\
             lto = \"thin\"\n\n\
             # A project of its own, even inside another workspace's directory.\n\
             [workspace]\n",
            toml_string(&runtime.to_string_lossy()),
            toml_string(&front_end_path.to_string_lossy())
        );
        Project { name, hash, cargo_toml, main_rs, game_rs: code.to_string() }
    }

    fn dir_name(&self) -> String {
        format!("{}-{:016x}", self.name, self.hash)
    }

    /// The project's directory in a cache, and the binary kept there.
    fn places(&self, cache: &Path) -> (PathBuf, PathBuf) {
        let dir = cache.join("games").join(self.dir_name());
        let binary = dir.join(format!("{}{}", self.name, std::env::consts::EXE_SUFFIX));
        (dir, binary)
    }

    fn package(&self) -> String {
        self.dir_name()
    }
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Builds (or reuses) the binary of a generated engine. `name` names the game (the
/// `game` directive); `code` is the engine the compiler generated
/// (`tgdl_compiler::Compilation::generated`).
pub fn build(name: &str, code: &str, opts: &BuildOptions) -> Result<Built, BuildError> {
    let cache = cache_dir()?;
    let runtime = runtime_path()?;
    build_in(&cache, &runtime, name, code, opts)
}

/// The binary [`build`] would reuse for this engine without running cargo, if the cache
/// holds one: the same project (name and code) built against the runtime sources as they
/// are now. Builds nothing and writes nothing, so a front end can choose an engine
/// before committing to a build.
pub fn cached(name: &str, code: &str) -> Result<Option<PathBuf>, BuildError> {
    let cache = cache_dir()?;
    let runtime = runtime_path()?;
    Ok(cached_in(&cache, &runtime, name, code))
}

/// [`cached`] with the cache and runtime directories given.
pub fn cached_in(cache: &Path, runtime: &Path, name: &str, code: &str) -> Option<PathBuf> {
    let project = Project::new(name, code, runtime);
    let (dir, binary) = project.places(cache);
    let fresh = binary.is_file()
        && std::fs::read_to_string(dir.join(STAMP)).is_ok_and(|s| s == runtime_fingerprint(runtime));
    fresh.then_some(binary)
}

/// [`build`] with the cache and runtime directories given.
pub fn build_in(
    cache: &Path,
    runtime: &Path,
    name: &str,
    code: &str,
    opts: &BuildOptions,
) -> Result<Built, BuildError> {
    let project = Project::new(name, code, runtime);
    let (dir, binary) = project.places(cache);
    let stamp = runtime_fingerprint(runtime);
    let stamp_path = dir.join(STAMP);
    if binary.is_file() && std::fs::read_to_string(&stamp_path).is_ok_and(|s| s == stamp) {
        return Ok(Built { binary, project: dir, cached: true });
    }

    let src = dir.join("src");
    std::fs::create_dir_all(&src).map_err(io("create", &src))?;
    write_if_changed(&dir.join("Cargo.toml"), &project.cargo_toml)?;
    write_if_changed(&src.join("main.rs"), &project.main_rs)?;
    write_if_changed(&src.join("game.rs"), &project.game_rs)?;
    // The workspace's lock file pins the versions already resolved (and downloaded) for
    // the runtime, so the first build needs no registry update.
    let lock = runtime.join("..").join("Cargo.lock");
    if let Ok(text) = std::fs::read_to_string(lock) {
        write_if_changed(&dir.join("Cargo.lock"), &text)?;
    }

    let target = cache.join("target");
    if opts.status {
        let first = if target.join("release").is_dir() {
            ""
        } else {
            " (the first build also compiles the runtime: this takes a minute)"
        };
        eprintln!("   Compiling {}{first}", project.name);
    }
    let cargo = std::env::var_os("CARGO").filter(|c| !c.is_empty()).unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(&cargo);
    cmd.arg("build")
        .arg("--release")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .stdin(Stdio::null());
    let (status, output) = if opts.verbose {
        let status = cmd.status().map_err(|error| BuildError::CargoNotRun { cargo: cargo.clone(), error })?;
        (status, String::new())
    } else {
        cmd.arg("--quiet");
        let out = cmd.output().map_err(|error| BuildError::CargoNotRun { cargo: cargo.clone(), error })?;
        let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stdout));
        (out.status, text)
    };
    if !status.success() {
        // (In verbose mode cargo's output went to the terminal, where the user sees it.)
        let generated_code = output.contains(&format!("could not compile `{}`", project.package()));
        return Err(BuildError::CargoFailed { project: dir, output, generated_code });
    }

    let built = target.join("release").join(format!("{}{}", project.package(), std::env::consts::EXE_SUFFIX));
    if !built.is_file() {
        return Err(BuildError::NoBinary { path: built });
    }
    // Copy then rename, so a concurrent `tgdlc play` never runs a half-written binary.
    let partial = dir.join(format!("{}.partial-{}", project.name, std::process::id()));
    std::fs::copy(&built, &partial).map_err(io("copy the binary to", &partial))?;
    std::fs::rename(&partial, &binary).map_err(io("move the binary to", &binary))?;
    write_if_changed(&stamp_path, &stamp)?;
    Ok(Built { binary, project: dir, cached: false })
}

/// Writes a file unless it already has this content (keeping its modification time, so
/// cargo sees nothing new).
fn write_if_changed(path: &Path, text: &str) -> Result<(), BuildError> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    let partial = path.with_extension(format!("partial-{}", std::process::id()));
    let mut file = std::fs::File::create(&partial).map_err(io("write", &partial))?;
    file.write_all(text.as_bytes()).map_err(io("write", &partial))?;
    drop(file);
    std::fs::rename(&partial, path).map_err(io("write", path))
}

/// A fingerprint of the sources of the runtime, tgdl-play and the server (paths, sizes and
/// modification times of their `Cargo.toml`, `.rs` and web files, and of the workspace
/// lock file): when it changes, a cached binary is rebuilt.
fn runtime_fingerprint(runtime: &Path) -> String {
    let mut files = Vec::new();
    collect_sources(runtime, runtime, 0, &mut files);
    let play = play_path(runtime);
    collect_sources(&play, &play, 0, &mut files);
    if let Some(server) = server_path(runtime) {
        collect_sources(&server, &server, 0, &mut files);
    }
    files.push(runtime.join("..").join("Cargo.lock"));
    files.push(runtime.join("..").join("Cargo.toml"));
    files.sort();
    let mut hash = Fnv64::default();
    for f in &files {
        hash.field(f.to_string_lossy().as_bytes());
        if let Ok(meta) = std::fs::metadata(f) {
            hash.field(&meta.len().to_le_bytes());
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            hash.field(&modified.to_le_bytes());
        }
    }
    format!("tgdlc {VERSION}\nruntime {}\nsources {:016x}\n", runtime.display(), hash.finish())
}

fn collect_sources(root: &Path, dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > 8 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "node_modules" || (dir == root && name == "target") {
            continue;
        }
        match entry.file_type() {
            Ok(t) if t.is_dir() => collect_sources(root, &path, depth + 1, out),
            Ok(t) if t.is_file() && is_source(&name) => out.push(path),
            _ => {}
        }
    }
}

/// Files a game binary is built from: Rust sources, manifests, and the web client the
/// server embeds.
fn is_source(name: &str) -> bool {
    name == "Cargo.toml" || [".rs", ".html", ".js", ".css"].iter().any(|ext| name.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_reference_values() {
        let hash = |s: &str| {
            let mut h = Fnv64::default();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_eq!(hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn crate_names_are_valid() {
        assert_eq!(crate_name("TicTacToe"), "tictactoe");
        assert_eq!(crate_name("My Game!"), "my-game");
        assert_eq!(crate_name("4InARow"), "game-4inarow");
        assert_eq!(crate_name("__"), "game");
    }

    #[test]
    fn toml_strings_are_escaped() {
        assert_eq!(toml_string(r#"C:\a "b""#), r#""C:\\a \"b\"""#);
    }

    #[test]
    fn a_cached_binary_is_found_without_building() {
        let dir = std::env::temp_dir().join(format!("tgdl-build-cached-{}", std::process::id()));
        let (cache, runtime) = (dir.join("cache"), dir.join("tgdl-runtime"));
        std::fs::create_dir_all(&runtime).unwrap();
        std::fs::write(runtime.join("Cargo.toml"), "[package]\nname = \"tgdl-runtime\"\n").unwrap();
        assert_eq!(cached_in(&cache, &runtime, "G", "code"), None);
        let (project, binary) = Project::new("G", "code", &runtime).places(&cache);
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(&binary, "").unwrap();
        // A binary without the stamp of the runtime as it is now is not reused.
        assert_eq!(cached_in(&cache, &runtime, "G", "code"), None);
        std::fs::write(project.join(STAMP), runtime_fingerprint(&runtime)).unwrap();
        assert_eq!(cached_in(&cache, &runtime, "G", "code"), Some(binary));
        assert_eq!(cached_in(&cache, &runtime, "G", "other code"), None);
        assert!(!cache.join("target").exists(), "looking builds nothing");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn project_hash_depends_on_the_code() {
        let rt = Path::new("/rt");
        let a = Project::new("G", "code a", rt);
        let b = Project::new("G", "code b", rt);
        assert_ne!(a.dir_name(), b.dir_name());
        assert_eq!(a.dir_name(), Project::new("G", "code a", rt).dir_name());
        assert!(a.cargo_toml.contains("[workspace]"));
        assert!(a.cargo_toml.contains("path = \"/rt\""));
        // No server beside this runtime: the binary is tgdl-play's command line alone.
        assert!(a.cargo_toml.contains("tgdl-play = { path = \"/tgdl-play\" }"), "{}", a.cargo_toml);
        assert!(a.main_rs.contains("tgdl_play::cli::main::<game::Game>()"), "{}", a.main_rs);
    }
}
