//! Playing one game while its rules are edited (`tgdlc play --watch`, docs/playing.md):
//! the play loop of [`driver`](crate::driver), fed by a channel of [`Event`]s instead of
//! standard input. A line typed at the terminal answers a person's decision as usual; a
//! reload starts the game again under the new rules, with the same start (players,
//! seed, parameters), and replays the decisions made so far by their labels, up to the
//! first one the new rules no longer allow.
//!
//! Whoever sends the events knows where rules come from (the compiler, files on disk);
//! this module knows only [`Game`]: a reload is a function that starts the new game.

use crate::agent::{AgentError, Console, ConsoleWriter};
use crate::driver::{
    GameResult, PlayError, PlayOptions, expand_seats, fresh_seed, seat_agents, terminal_viewer,
};
use crate::render;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{Receiver, TryRecvError};
use tgdl_runtime::error::RuleError;
use tgdl_runtime::game::{Game, Start, StartError, Status};

/// Starts a game under new rules, from the start the game being played had.
pub type Restart<G> = Box<dyn FnOnce(&Start) -> Result<G, StartError> + Send>;

/// What the watched game is told.
pub enum Event<G> {
    /// A line typed at the terminal, without its line ending.
    Line(String),
    /// The input ended (Ctrl-D): like the end of standard input in `play`.
    EndOfInput,
    /// The rules changed: this starts a game under them.
    Reload(Restart<G>),
}

/// Sends the lines of standard input as [`Event::Line`]s, then [`Event::EndOfInput`], from
/// a thread of its own (it stops when the receiver is gone).
pub fn send_stdin<G: 'static>(events: std::sync::mpsc::Sender<Event<G>>) {
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut line = String::new();
        loop {
            line.clear();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let text = line.trim_end_matches(['\r', '\n']).to_string();
                    if events.send(Event::Line(text)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = events.send(Event::EndOfInput);
    });
}

/// The input of the watched game's console: the events in the order they came, the
/// line being read, and whether the input ended. A reload waits its turn behind the lines
/// typed before it; reading when it is next fails with an error, so a person's prompt
/// gives way to the new rules at once.
struct Input<G> {
    events: Receiver<Event<G>>,
    queue: VecDeque<Event<G>>,
    line: VecDeque<u8>,
    ended: bool,
    /// Nobody reads lines (no person is seated): they are dropped as they come, so they
    /// hold no reload back.
    unread: bool,
}

impl<G> Input<G> {
    fn new(events: Receiver<Event<G>>) -> Input<G> {
        Input { events, queue: VecDeque::new(), line: VecDeque::new(), ended: false, unread: false }
    }

    /// Takes every event already sent, without waiting.
    fn poll(&mut self) {
        loop {
            match self.events.try_recv() {
                Ok(event) => self.queue.push_back(event),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.queue.push_back(Event::EndOfInput);
                    break;
                }
            }
        }
        if self.unread {
            self.queue.retain(|e| matches!(e, Event::Reload(_)));
        }
    }

    /// Whether a reload is the next thing the input holds.
    fn reload_next(&self) -> bool {
        self.line.is_empty() && matches!(self.queue.front(), Some(Event::Reload(_)))
    }

    /// The reload that is next, if one is: the last of several in a row (each is the whole
    /// rules).
    fn take_reload(&mut self) -> Option<Restart<G>> {
        let mut taken = None;
        while self.reload_next() {
            if let Some(Event::Reload(restart)) = self.queue.pop_front() {
                taken = Some(restart);
            }
        }
        taken
    }
}

impl<G> io::Read for Input<G> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<G> BufRead for Input<G> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.line.is_empty() && !self.ended {
            match self.queue.pop_front() {
                Some(Event::Line(text)) => {
                    self.line.extend(text.bytes());
                    self.line.push_back(b'\n');
                }
                Some(Event::EndOfInput) => self.ended = true,
                Some(reload @ Event::Reload(_)) => {
                    self.queue.push_front(reload);
                    return Err(io::Error::other("the rules were reloaded"));
                }
                None => match self.events.recv() {
                    Ok(event) => self.queue.push_back(event),
                    Err(_) => self.ended = true,
                },
            }
        }
        Ok(self.line.as_slices().0)
    }

    fn consume(&mut self, amount: usize) {
        self.line.drain(..amount.min(self.line.len()));
    }
}

/// A decision made, as replayed after a reload: who made it and its label as the
/// designer reads it.
struct Made {
    player: u32,
    label: String,
}

/// Plays one game with human seats reading the lines of `events`, starting it again
/// under new rules at every reload; writes what `play` writes (and a line per reload)
/// to `output`. `opts.trace`, `replay`, `record` and `trace_for` are not used: a
/// watched game is a draft.
pub fn play_watched<G: Game, W: Write>(
    opts: &PlayOptions,
    events: Receiver<Event<G>>,
    output: W,
) -> Result<GameResult, PlayError> {
    let console = Console::shared(Input::new(events), output);
    let mut out = ConsoleWriter(console.clone());
    let players = opts.players.unwrap_or(G::info().min_players);
    let seed = match opts.seed {
        Some(s) => s,
        None => {
            let s = fresh_seed();
            if opts.reveal || !opts.seats.contains(&crate::driver::SeatKind::Human) {
                writeln!(out, "seed: {s}")?;
            }
            s
        }
    };
    let start = Start::observed::<G>(players, seed).with_params(opts.params.clone());
    let mut game = G::start_with(&start)?;
    let kinds = expand_seats(&opts.seats, players)?;
    let mut seats = seat_agents::<G, _, _>(&kinds, seed, &console, opts);
    let humans: Vec<u32> = (0..players).filter(|&p| seats[p as usize].is_human()).collect();
    console.borrow_mut().hot_seat = humans.len() >= 2 && !opts.reveal && G::has_hidden_information();
    console.borrow_mut().input.unread = humans.is_empty();
    let viewer = terminal_viewer(&humans, opts.reveal);
    let echo = opts.verbose || !humans.is_empty();
    if opts.verbose {
        for line in game.log_for(viewer) {
            writeln!(out, "  {line}")?;
        }
    }
    let mut made: Vec<Made> = Vec::new();

    let result = loop {
        let reload = {
            let mut console = console.borrow_mut();
            console.input.poll();
            console.input.take_reload()
        };
        if let Some(restart) = reload {
            if let Some(fresh) = restart_game(restart, &start, &mut made, &mut out)? {
                game = fresh;
                // Agents start afresh with the game: what a search kept belongs to the old rules.
                seats = seat_agents::<G, _, _>(&kinds, seed, &console, opts);
                console.borrow_mut().showing = None;
            }
            continue;
        }
        let player = match game.status() {
            Status::Over => match game.outcome() {
                Some(o) => break GameResult::Over(o.clone()),
                None => break GameResult::Error(internal::<G>("the game is over without an outcome")),
            },
            Status::Failed => match game.error() {
                Some(e) => break GameResult::Error(e.clone()),
                None => break GameResult::Error(internal::<G>("the game failed without an error")),
            },
            Status::Decide(p) => p.0,
            Status::Chance => break GameResult::Error(internal::<G>("a seeded game stopped for chance")),
        };
        let decisions = made.len() as u64;
        if decisions >= opts.max_decisions {
            break GameResult::Unfinished { decisions };
        }
        let Some(seat) = seats.get_mut(player as usize) else {
            break GameResult::Error(internal::<G>(&format!("player {player} has no seat")));
        };
        let index = match seat.choose_in(&game) {
            Ok(i) => i,
            // The prompt gave way to new rules: take them (on a line of their own, not
            // after the `> `), then ask again.
            Err(AgentError::Io(_)) if console.borrow().input.reload_next() => {
                writeln!(out)?;
                continue;
            }
            Err(AgentError::Quit | AgentError::EndOfInput) => break GameResult::Quit { player, decisions },
            Err(e) => break GameResult::Stopped { player, decisions, reason: e.to_string() },
        };
        let label = game.label(index);
        let shown = if echo { game.labels_for(viewer).swap_remove(index) } else { String::new() };
        let logged = if echo { game.log_for(viewer).len() } else { 0 };
        if let Err(e) = game.apply(index) {
            break GameResult::Stopped { player, decisions, reason: e.to_string() };
        }
        if echo {
            writeln!(out, "player {player}: {shown}")?;
            for line in game.log_for(viewer).get(logged..).unwrap_or_default() {
                writeln!(out, "  {line}")?;
            }
        }
        made.push(Made { player, label });
    };
    if !humans.is_empty() {
        write!(out, "\n{}", render::render_final(&game.observation(viewer), 5, &result.text()))?;
    }
    writeln!(out, "{}", result.line())?;
    out.flush()?;
    Ok(result)
}

/// Starts the game under new rules and replays the decisions `made` by their labels,
/// keeping those that still apply; the new game, or `None` (the old one goes on) when
/// the new rules cannot start it.
fn restart_game<G: Game>(
    restart: Restart<G>,
    start: &Start,
    made: &mut Vec<Made>,
    out: &mut dyn Write,
) -> io::Result<Option<G>> {
    let kept_rules = "the game goes on under the rules as they were";
    let mut game = match restart(start) {
        Ok(game) => game,
        Err(e) => {
            writeln!(out, "rules reloaded, but they cannot start this game: {e}; {kept_rules}")?;
            return Ok(None);
        }
    };
    if let (Status::Failed, Some(e)) = (game.status(), game.error()) {
        writeln!(
            out,
            "rules reloaded, but they fail at the start: error at {}: {}; {kept_rules}",
            e.location, e.message
        )?;
        return Ok(None);
    }
    let mut kept = 0;
    for (i, decision) in made.iter().enumerate() {
        match replay_one(&game, decision) {
            Ok(next) => {
                game = next;
                kept += 1;
            }
            Err(why) => {
                let from = if i == 0 { "the start".to_string() } else { format!("decision {i}") };
                writeln!(
                    out,
                    "decision {}, `{}`, {why} under the new rules: the game continues from {from}",
                    i + 1,
                    decision.label
                )?;
                break;
            }
        }
    }
    if kept == made.len() {
        let s = if kept == 1 { "" } else { "s" };
        writeln!(out, "rules reloaded: {kept} decision{s} replayed")?;
    }
    made.truncate(kept);
    Ok(Some(game))
}

/// The game after one replayed decision, or why it could not be made.
fn replay_one<G: Game>(game: &G, decision: &Made) -> Result<G, String> {
    let not_legal = || "is no longer legal".to_string();
    if game.status() != Status::Decide(tgdl_runtime::value::Player(decision.player)) {
        return Err(not_legal());
    }
    let index = game.labels().iter().position(|l| *l == decision.label).ok_or_else(not_legal)?;
    let mut next = game.clone();
    next.apply(index).map_err(|e| format!("cannot be made ({e})"))?;
    match (next.status(), next.error()) {
        (Status::Failed, Some(e)) => Err(format!("fails (error at {}: {})", e.location, e.message)),
        _ => Ok(next),
    }
}

fn internal<G: Game>(message: &str) -> RuleError {
    RuleError { message: format!("internal error: {message}"), location: G::info().source.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn input_reads_lines_and_reloads_in_the_order_they_came() {
        let (send, events) = channel::<Event<u8>>();
        let mut input = Input::new(events);
        send.send(Event::Line("1".into())).unwrap();
        send.send(Event::Reload(Box::new(|_| Ok(6)))).unwrap();
        send.send(Event::Reload(Box::new(|_| Ok(7)))).unwrap();
        send.send(Event::Line("a b".into())).unwrap();
        input.poll();
        // The line typed first comes first...
        assert!(input.take_reload().is_none());
        let mut line = String::new();
        input.read_line(&mut line).unwrap();
        assert_eq!(line, "1\n");
        // ...then reading gives way to the reloads, the last of them taken.
        assert!(input.read_line(&mut String::new()).is_err());
        let restart = input.take_reload().expect("a reload");
        assert_eq!(restart(&Start::seeded(2, 0)).ok(), Some(7));
        line.clear();
        input.read_line(&mut line).unwrap();
        assert_eq!(line, "a b\n");
        send.send(Event::EndOfInput).unwrap();
        line.clear();
        assert_eq!(input.read_line(&mut line).unwrap(), 0);
    }
}
