//! `tgdlc play --watch`: the game played by the interpreter while its files are edited.
//! A thread polls the files (the main file and every file it imports) and, when one
//! changes, checks the game again: an edit with errors has its diagnostics printed and
//! the game goes on under the rules it had; an edit that checks is installed and sent to
//! the play loop (`tgdl_play::watch`), which starts the game again and replays the
//! decisions made so far.

use super::{Engine, Session};
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::time::{Duration, SystemTime};
use tgdl_compiler::source::SourceMap;
use tgdl_interp::Interpreted;
use tgdl_play::watch::Event;
use tgdl_runtime::game::{Game, Start};

/// How often the files are looked at.
const POLL: Duration = Duration::from_millis(200);

/// `tgdlc play --watch FILE ARGS...`: the exit code.
pub(super) fn play(session: &Session, file: &Path, args: &[OsString], engine: Engine) -> u8 {
    if engine == Engine::Native {
        eprintln!("error: --watch plays with the interpreter; it cannot be given with --engine native");
        return 2;
    }
    let compilation = session.compile(file, false);
    if let Err(code) = session.report(&compilation) {
        return code;
    }
    let Some(program) = compilation.program.as_ref().filter(|_| !compilation.has_errors()) else { return 1 };
    tgdl_interp::install(tgdl_interp::prepare(program, &compilation.sources));
    tgdl_play::cli::set_game_file(file);
    let (send, events) = std::sync::mpsc::channel();
    let watcher = Watcher {
        session: Session { options: session.options.clone(), message_format: session.message_format },
        main: file.to_path_buf(),
        stamps: stamps(&watched(file, &compilation.sources)),
        events: send.clone(),
    };
    std::thread::spawn(move || watcher.run());
    tgdl_play::watch::send_stdin(send);
    let mut argv = vec![OsString::from("tgdlc"), OsString::from("play")];
    argv.extend(args.iter().cloned());
    tgdl_play::cli::watch::<Interpreted>(argv, events, std::io::stdin().is_terminal())
}

/// A file as last seen: its path, size and modification time (`None`: unreadable).
type Stamp = (PathBuf, Option<(u64, SystemTime)>);

/// Polls a game's files and sends a reload for every edit that checks.
struct Watcher {
    session: Session,
    main: PathBuf,
    stamps: Vec<Stamp>,
    events: Sender<Event<Interpreted>>,
}

impl Watcher {
    /// Runs until the game is gone (the channel closed).
    fn run(mut self) {
        loop {
            std::thread::sleep(POLL);
            let files: Vec<PathBuf> = self.stamps.iter().map(|(path, _)| path.clone()).collect();
            // Taken before reading the files: an edit made while they are checked is seen
            // at the next look.
            let now = stamps(&files);
            if now == self.stamps {
                continue;
            }
            let sent = self.reload();
            // The files the game reads now: those the edit imports are watched from now
            // on, those it no longer imports are not.
            self.stamps = sent
                .files
                .iter()
                .map(|f| now.iter().find(|(p, _)| p == f).cloned().unwrap_or_else(|| (f.clone(), stamp(f))))
                .collect();
            if sent.closed {
                return;
            }
        }
    }

    /// Checks the game as it is now and sends it to the play loop when it checks.
    fn reload(&self) -> Reloaded {
        let compilation = self.session.compile(&self.main, false);
        let files = watched(&self.main, &compilation.sources);
        let as_they_were = "the game goes on under the rules as they were";
        if self.session.report(&compilation).is_err() {
            return Reloaded { files, closed: false };
        }
        let program = match &compilation.program {
            Some(p) if !compilation.has_errors() => p,
            _ => {
                eprintln!("tgdlc: the edit has errors: {as_they_were}");
                return Reloaded { files, closed: false };
            }
        };
        let prepared = tgdl_interp::prepare(program, &compilation.sources);
        let restart = Box::new(move |start: &Start| {
            tgdl_interp::install(prepared);
            Interpreted::start_with(start)
        });
        let closed = self.events.send(Event::Reload(restart)).is_err();
        Reloaded { files, closed }
    }
}

/// What a reload found: the game's files as it reads them now, and whether the game is
/// gone.
struct Reloaded {
    files: Vec<PathBuf>,
    closed: bool,
}

/// The files to watch: the main file (even when it could not be read) and every file
/// the compilation read.
fn watched(main: &Path, sources: &SourceMap) -> Vec<PathBuf> {
    let main = std::fs::canonicalize(main).unwrap_or_else(|_| main.to_path_buf());
    let mut files = vec![main];
    for (_, source) in sources.files() {
        if let Some(path) = &source.path {
            let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
            if !files.contains(&path) {
                files.push(path);
            }
        }
    }
    files
}

fn stamps(files: &[PathBuf]) -> Vec<Stamp> {
    files.iter().map(|f| (f.clone(), stamp(f))).collect()
}

fn stamp(file: &Path) -> Option<(u64, SystemTime)> {
    let meta = std::fs::metadata(file).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_changes_the_stamp() {
        let dir = std::env::temp_dir().join(format!("tgdlc-watch-stamp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("g.tgdl");
        std::fs::write(&file, "a").unwrap();
        let before = stamps(std::slice::from_ref(&file));
        std::fs::write(&file, "ab").unwrap();
        assert_ne!(stamps(std::slice::from_ref(&file)), before);
        std::fs::remove_file(&file).unwrap();
        assert_eq!(stamps(std::slice::from_ref(&file)), vec![(file.clone(), None)]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
