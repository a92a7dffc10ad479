//! Agents: whoever chooses for a seat — a random player, a fixed script, or a person at a
//! terminal (or any line-based console: the human agent is generic over its I/O).

use crate::render;
use std::cell::RefCell;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::rc::Rc;
use tgdl_runtime::game::{Game, Status};
use tgdl_runtime::hidden::{DeterminizeError, Observation, Viewer};
use tgdl_runtime::information::{InfoState, Sampler};
use tgdl_runtime::rng::Rng;

/// A decision as the seat making it may see it: the options, the prompt and the seat's
/// observation — never the game itself, so no agent can read what its seat may not see
/// (docs/hidden-information.md). Search agents ask for [`Decision::determinize`]d games: samples consistent
/// with the observation.
pub struct Decision<'g, G> {
    game: &'g G,
    player: u32,
}

impl<'g, G: Game> Decision<'g, G> {
    /// The decision `game` waits for, if any.
    pub fn of(game: &'g G) -> Option<Decision<'g, G>> {
        match game.status() {
            Status::Decide(p) => Some(Decision { game, player: p.0 }),
            _ => None,
        }
    }

    /// The decision of `player`: at its turn, or in a round of simultaneous choices it has
    /// yet to choose in (whoever the round asks first).
    pub fn for_player(game: &'g G, player: u32) -> Option<Decision<'g, G>> {
        (!game.options_of(player).is_empty()).then_some(Decision { game, player })
    }

    /// The player who decides.
    pub fn player(&self) -> u32 {
        self.player
    }

    /// How many options there are.
    pub fn options(&self) -> usize {
        self.game.options_of(self.player).len()
    }

    /// The options as data, in a game where nothing can be hidden. In a game with hidden
    /// information options name objects by their identity, which can say what a hidden
    /// object is (a deck's cards are created in order): agents get none there, and tell
    /// options apart by their index and their labels.
    pub fn choices(&self) -> Option<&'g [tgdl_runtime::game::Choice<G::Move>]> {
        (!G::has_hidden_information()).then(|| self.game.options_of(self.player))
    }

    /// An option's label as the deciding seat may read it.
    pub fn label(&self, index: usize) -> String {
        self.labels().swap_remove(index)
    }

    /// Every option's label as the deciding seat may read it, in order (no two alike): an
    /// object hidden from the seat is named in its hidden form.
    pub fn labels(&self) -> Vec<String> {
        self.game.labels_of(self.player, Viewer::Seat(self.player))
    }

    pub fn prompt(&self) -> String {
        self.game.prompt()
    }

    /// What the deciding seat sees.
    pub fn observation(&self) -> Observation {
        self.game.observation(Viewer::Seat(self.player))
    }

    /// A game consistent with what the deciding seat has seen, drawn with `rng`
    /// ([`Game::determinize`]).
    pub fn determinize(&self, rng: &mut Rng) -> Result<G, DeterminizeError> {
        self.game.determinize(self.player, rng)
    }

    /// A source of games consistent with what the deciding seat has seen, for a search that
    /// draws many: see [`Worlds`].
    pub fn worlds(&self) -> Worlds<'_, 'g, G> {
        Worlds { decision: self, pool: None, next: 0 }
    }

    /// The whole game, for the designer's own seat (`play --reveal`): crate-private.
    pub(crate) fn revealed(&self) -> &G {
        self.game
    }
}

/// Worlds drawn from what one seat has seen, for a search: where redistributing the hidden
/// objects provably gives the worlds its information state allows ([`Game::pool_sample`]),
/// each is drawn afresh; otherwise a pool of [`PARTICLES`] worlds is drawn once from the
/// seat's information state ([`tgdl_runtime::information`]) and served in turn, each a
/// function of that information state and the search's generator. Worlds from the pool are
/// explicit games: their chance from the decision on is the search's to draw
/// ([`Game::sample_chance`]).
pub struct Worlds<'d, 'g, G> {
    decision: &'d Decision<'g, G>,
    pool: Option<Vec<G>>,
    next: usize,
}

/// Worlds drawn from an information state for one decision's search.
pub const PARTICLES: usize = 32;

impl<G: Game> Worlds<'_, '_, G> {
    /// The next world.
    pub fn next(&mut self, rng: &mut Rng) -> Result<G, DeterminizeError> {
        let (game, player) = (self.decision.game, self.decision.player);
        if !G::has_hidden_information() {
            return game.determinize(player, rng);
        }
        if self.pool.is_none()
            && let Some(world) = game.pool_sample(player, rng)
        {
            return Ok(world);
        }
        let next = self.next;
        self.next += 1;
        let pool = self.fill(rng)?;
        pool.get(next % pool.len().max(1)).cloned().ok_or(DeterminizeError::NotDeciding)
    }

    /// The pool of worlds drawn from the seat's information state, drawn the first time.
    fn fill(&mut self, rng: &mut Rng) -> Result<&[G], DeterminizeError> {
        if self.pool.is_none() {
            let info =
                InfoState::of(self.decision.game, self.decision.player).map_err(DeterminizeError::Sample)?;
            let sampler = Sampler::new(info);
            let pool = (0..PARTICLES).map(|_| sampler.sample(rng)).collect::<Result<Vec<G>, _>>();
            self.pool = Some(pool.map_err(DeterminizeError::Sample)?);
        }
        Ok(self.pool.as_deref().unwrap_or_default())
    }

    /// The next world, into `into` (reusing its allocations where the engine can).
    pub fn next_into(&mut self, rng: &mut Rng, into: &mut G) -> Result<(), DeterminizeError> {
        let game = self.decision.game;
        let player = self.decision.player;
        if !G::has_hidden_information() {
            return game.determinize_into(player, rng, into);
        }
        if self.pool.is_none()
            && let Some(world) = game.pool_sample(player, rng)
        {
            *into = world;
            return Ok(());
        }
        let next = self.next;
        let pool = self.fill(rng)?;
        if pool.is_empty() {
            return Err(DeterminizeError::NotDeciding);
        }
        into.clone_from(&pool[next % pool.len()]);
        self.next += 1;
        Ok(())
    }
}

/// Chooses for a seat: an index into the decision's options.
pub trait Agent<G: Game> {
    fn choose(&mut self, decision: &Decision<'_, G>) -> Result<usize, AgentError>;

    /// Chooses in the decision `game` waits for.
    fn choose_in(&mut self, game: &G) -> Result<usize, AgentError> {
        match Decision::of(game) {
            Some(d) => self.choose(&d),
            None => Err(AgentError::NoOptions),
        }
    }

    /// Chooses for `player`: at its decision, or in a round of simultaneous choices it has
    /// yet to choose in (whoever the round asks first).
    fn choose_for(&mut self, game: &G, player: u32) -> Result<usize, AgentError> {
        match Decision::for_player(game, player) {
            Some(d) => self.choose(&d),
            None => Err(AgentError::NoOptions),
        }
    }

    /// What kind of seat this is, as recorded in traces (`human`, `random`, ...).
    fn name(&self) -> &str {
        "agent"
    }

    /// Whether a person sits here: the driver then echoes every decision and shows the
    /// final position.
    fn is_human(&self) -> bool {
        false
    }
}

/// Why an agent could not choose.
#[derive(Debug)]
pub enum AgentError {
    /// The person asked to stop (`q`).
    Quit,
    /// The input ended before an answer (Ctrl-D at a terminal): the person left, which
    /// the driver treats as quitting.
    EndOfInput,
    /// Reading or writing the console failed.
    Io(io::Error),
    /// The decision has no options (the game is not waiting for one).
    NoOptions,
    /// A scripted agent ran out of moves, or its next move is not an option.
    Script(String),
    /// The agent cannot play this game fairly (a search agent facing a secret it cannot
    /// resample).
    Refused(String),
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::Quit => write!(f, "quit"),
            AgentError::EndOfInput => write!(f, "the input ended before an answer"),
            AgentError::Io(e) => write!(f, "console error: {e}"),
            AgentError::NoOptions => write!(f, "there is nothing to choose from"),
            AgentError::Script(m) | AgentError::Refused(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for AgentError {}

impl From<io::Error> for AgentError {
    fn from(e: io::Error) -> Self {
        AgentError::Io(e)
    }
}

/// The seed of the agent in seat `seat` of a game started with `game_seed`. Play and
/// simulation both use it, so `play --seed S --seats random` replays exactly the
/// simulated game whose seed is `S`. One-way: what an agent's choices show of its
/// generator does not lead back to the game's seed.
pub fn seat_seed(game_seed: u128, seat: u32) -> u64 {
    seat_seeds(game_seed).nth(seat as usize).unwrap_or_default()
}

/// The seeds [`seat_seed`] gives seats 0, 1, ... in turn (one generator block for eight
/// seats).
pub fn seat_seeds(game_seed: u128) -> impl Iterator<Item = u64> {
    let mut rng = tgdl_runtime::GameRng::for_seats(game_seed);
    std::iter::repeat_with(move || rng.next_u64())
}

/// Chooses uniformly among the options with its own generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: Rng::new(seed) }
    }

    /// A uniform index in `0..options`, or `None` when there are none.
    #[inline]
    pub fn pick(&mut self, options: usize) -> Option<usize> {
        (options > 0).then(|| self.rng.below(options as u64) as usize)
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    #[inline]
    fn choose(&mut self, decision: &Decision<'_, G>) -> Result<usize, AgentError> {
        self.pick(decision.options()).ok_or(AgentError::NoOptions)
    }

    fn name(&self) -> &str {
        "random"
    }
}

/// Plays a fixed list of option indices (0-based), then falls back to a random agent if it
/// has one, or fails.
#[derive(Clone, Debug)]
pub struct ScriptedAgent {
    script: Vec<usize>,
    next: usize,
    fallback: Option<RandomAgent>,
}

impl ScriptedAgent {
    pub fn new(script: Vec<usize>) -> ScriptedAgent {
        ScriptedAgent { script, next: 0, fallback: None }
    }

    /// After the script, choose at random with this generator seed.
    pub fn then_random(mut self, seed: u64) -> ScriptedAgent {
        self.fallback = Some(RandomAgent::new(seed));
        self
    }

    /// Script entries not played yet.
    pub fn remaining(&self) -> &[usize] {
        &self.script[self.next..]
    }
}

impl<G: Game> Agent<G> for ScriptedAgent {
    fn choose(&mut self, decision: &Decision<'_, G>) -> Result<usize, AgentError> {
        let options = decision.options();
        match self.script.get(self.next) {
            Some(&i) if i < options => {
                self.next += 1;
                Ok(i)
            }
            Some(&i) => Err(AgentError::Script(format!(
                "script entry {} is option {i}, but there are only {options} options",
                self.next + 1
            ))),
            None => match &mut self.fallback {
                Some(random) => random.pick(options).ok_or(AgentError::NoOptions),
                None => {
                    Err(AgentError::Script(format!("the script ended after {} moves", self.script.len())))
                }
            },
        }
    }

    fn name(&self) -> &str {
        "scripted"
    }
}

/// A line-based console: where human seats read answers and the driver writes events.
/// Several seats (and the driver) share one through [`Console::shared`].
#[derive(Debug)]
pub struct Console<R, W> {
    pub input: R,
    pub output: W,
    /// Several people share this console: the screen is cleared between their turns and
    /// the next one is asked to press Enter, so none sees another's hand.
    pub hot_seat: bool,
    /// The seat whose observation is on the screen.
    pub showing: Option<u32>,
}

/// A console shared by every human seat at one terminal.
pub type SharedConsole<R, W> = Rc<RefCell<Console<R, W>>>;

impl<R: BufRead, W: Write> Console<R, W> {
    pub fn shared(input: R, output: W) -> SharedConsole<R, W> {
        Rc::new(RefCell::new(Console { input, output, hot_seat: false, showing: None }))
    }
}

/// Writes to the output of a shared console (for the driver's event lines).
pub struct ConsoleWriter<R, W>(pub SharedConsole<R, W>);

impl<R, W: Write> Write for ConsoleWriter<R, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().output.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().output.flush()
    }
}

/// A person at a console. Each decision shows the view, the last lines of the log, the
/// prompt and the options numbered from 1, then reads a line: a number, an option's
/// label (or its start, or its end after a space: `Cell(5, 3)` for `place Cell(5, 3)`;
/// case and spaces do not matter), Enter when there is only one option, or `q` to
/// quit. Text that fits several options lists them and asks again, as does anything
/// else; the end of the input ([`AgentError::EndOfInput`]) is the person leaving.
///
/// A menu of more than [`SHORT_MENU`] options is laid out in columns; one still taller
/// than [`TALL_MENU`] lines is printed above the board, so the board stays next to the
/// prompt.
pub struct HumanAgent<R, W> {
    console: SharedConsole<R, W>,
    /// Log lines shown with the view.
    pub log_lines: usize,
    /// Write each line read after its prompt, as a terminal would show it (for input that
    /// is not a terminal: a pipe, a file, a test).
    pub echo_input: bool,
    /// Show the whole game, every hand and secret (`play --reveal`, for the designer).
    pub reveal: bool,
}

impl<R: BufRead, W: Write> HumanAgent<R, W> {
    /// A person reading `input` and writing `output`.
    pub fn new(input: R, output: W) -> HumanAgent<R, W> {
        HumanAgent::on(Console::shared(input, output))
    }

    /// A seat at a console shared with other seats.
    pub fn on(console: SharedConsole<R, W>) -> HumanAgent<R, W> {
        HumanAgent { console, log_lines: 5, echo_input: false, reveal: false }
    }

    pub fn console(&self) -> &SharedConsole<R, W> {
        &self.console
    }
}

/// Menus of more options than this are laid out in columns.
pub const SHORT_MENU: usize = 12;
/// Menus taller than this many lines (in columns) are printed above the board.
pub const TALL_MENU: usize = 12;
/// The width menus are laid out in: a terminal's.
const WIDTH: usize = 80;
/// Candidates listed when typed text fits several options.
const CANDIDATES: usize = 12;

/// What a line typed at the console means.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    Pick(usize),
    Quit,
    /// Ask again, after this message.
    Again(String),
}

/// A label as typed text is compared with it: lower case, runs of spaces as one, and no
/// spaces next to punctuation (`Cell(5,3)` is `Cell(5, 3)`).
fn normalize(text: &str) -> String {
    let mut out = String::new();
    for word in text.split_whitespace() {
        let opens = out.ends_with(['(', '[', ',', '=']);
        let closes = word.starts_with([')', ']', ',', ':', ';', '=']);
        if !out.is_empty() && !opens && !closes {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// What a line typed at the console means, given the options' labels.
fn parse_answer(line: &str, labels: &[String]) -> Answer {
    let text = line.trim();
    let n = labels.len();
    let again = || {
        let enter = if n == 1 { " (Enter picks the only option)" } else { "" };
        Answer::Again(format!("please type a number from 1 to {n}, or q to quit{enter}"))
    };
    if text.is_empty() {
        return if n == 1 { Answer::Pick(0) } else { again() };
    }
    if text.eq_ignore_ascii_case("q") || text.eq_ignore_ascii_case("quit") {
        return Answer::Quit;
    }
    if let Ok(k) = text.parse::<usize>() {
        return if (1..=n).contains(&k) { Answer::Pick(k - 1) } else { again() };
    }
    let typed = normalize(text);
    let norms: Vec<String> = labels.iter().map(|l| normalize(l)).collect();
    let exact: Vec<usize> = (0..n).filter(|&i| norms[i] == typed).collect();
    // The start of a label, or its end after a space or a colon.
    let fits = |l: &String| {
        l.starts_with(&typed) || l.strip_suffix(typed.as_str()).is_some_and(|head| head.ends_with([' ', ':']))
    };
    let found = if exact.is_empty() { (0..n).filter(|&i| fits(&norms[i])).collect() } else { exact };
    match found.as_slice() {
        [] => again(),
        [one] => Answer::Pick(*one),
        several => {
            let mut message = format!("`{text}` fits {} options:", several.len());
            for &i in several.iter().take(CANDIDATES) {
                message.push_str(&format!("\n  {}) {}", i + 1, labels[i]));
            }
            if several.len() > CANDIDATES {
                message.push_str(&format!("\n  ... and {} more", several.len() - CANDIDATES));
            }
            message.push_str("\ntype the number of the one you mean");
            Answer::Again(message)
        }
    }
}

/// The options numbered from 1, one a line, or in columns (numbered down each column)
/// when there are more than [`SHORT_MENU`] and they fit side by side.
fn menu_lines(labels: &[String]) -> Vec<String> {
    let n = labels.len();
    let digits = n.to_string().len();
    let entries: Vec<String> = if n <= SHORT_MENU {
        labels.iter().enumerate().map(|(i, l)| format!("{}) {l}", i + 1)).collect()
    } else {
        labels.iter().enumerate().map(|(i, l)| format!("{:>digits$}) {l}", i + 1)).collect()
    };
    let width = entries.iter().map(|e| e.chars().count()).max().unwrap_or(0) + 3;
    let columns = if n <= SHORT_MENU { 1 } else { ((WIDTH - 2) / width).max(1) };
    let rows = n.div_ceil(columns);
    (0..rows)
        .map(|r| {
            let mut line = String::from(" ");
            for c in 0..columns {
                if let Some(e) = entries.get(c * rows + r) {
                    line.push(' ');
                    line.push_str(e);
                    line.push_str(&" ".repeat(width - 1 - e.chars().count()));
                }
            }
            line.trim_end().to_string()
        })
        .collect()
}

/// Reads one line; `false` at the end of the input.
fn read_line<R: BufRead, W: Write>(
    input: &mut R,
    output: &mut W,
    line: &mut String,
    echo: bool,
) -> io::Result<bool> {
    line.clear();
    if input.read_line(line)? == 0 {
        writeln!(output)?;
        return Ok(false);
    }
    if echo {
        writeln!(output, "{}", line.trim_end_matches(['\r', '\n']))?;
    }
    Ok(true)
}

impl<G: Game, R: BufRead, W: Write> Agent<G> for HumanAgent<R, W> {
    fn choose(&mut self, decision: &Decision<'_, G>) -> Result<usize, AgentError> {
        let n = decision.options();
        if n == 0 {
            return Err(AgentError::NoOptions);
        }
        let player = decision.player();
        let mut console = self.console.borrow_mut();
        let Console { input, output, hot_seat, showing } = &mut *console;
        let mut line = String::new();
        if *hot_seat && *showing != Some(player) {
            // Clear the screen (ANSI), then wait for the next person to sit down.
            write!(output, "\x1b[2J\x1b[H\nplayer {player}: press Enter")?;
            output.flush()?;
            if !read_line(input, output, &mut line, self.echo_input)? {
                return Err(AgentError::EndOfInput);
            }
        }
        *showing = Some(player);
        let screen = if self.reveal {
            render::render_game(decision.revealed(), self.log_lines)
        } else {
            render::render_observation(&decision.observation(), self.log_lines)
        };
        let labels = if self.reveal { decision.revealed().labels() } else { decision.labels() };
        let menu = menu_lines(&labels);
        let prompt = decision.prompt();
        if menu.len() > TALL_MENU {
            // The menu first, then the board: the board stays next to the prompt.
            writeln!(output, "\nplayer {player}, {prompt} ({n} options):")?;
            for l in &menu {
                writeln!(output, "{l}")?;
            }
            write!(output, "\n{screen}")?;
            writeln!(
                output,
                "player {player}, {prompt}: type 1 to {n} (listed above the board), a label, or q"
            )?;
        } else {
            write!(output, "\n{screen}")?;
            writeln!(output, "player {player}, {prompt}:")?;
            for l in &menu {
                writeln!(output, "{l}")?;
            }
        }
        loop {
            write!(output, "> ")?;
            output.flush()?;
            if !read_line(input, output, &mut line, self.echo_input)? {
                return Err(AgentError::EndOfInput);
            }
            // `why LABEL`: which rule keeps a move off the menu (or lets it on).
            if let Some(asked) = line.trim().strip_prefix("why ") {
                let answer = decision.revealed().why(player, asked.trim()).unwrap_or_else(|| {
                    vec![String::from("`why` needs the interpreter: play with --engine interpreted")]
                });
                for l in answer {
                    writeln!(output, "{l}")?;
                }
                continue;
            }
            match parse_answer(&line, &labels) {
                Answer::Pick(i) => return Ok(i),
                Answer::Quit => return Err(AgentError::Quit),
                Answer::Again(message) => writeln!(output, "{message}")?,
            }
        }
    }

    fn name(&self) -> &str {
        "human"
    }

    fn is_human(&self) -> bool {
        true
    }
}

/// Standard input without read-ahead: several human seats can read it in turn, each
/// getting exactly the lines it asked for, even when the input is a pipe.
#[derive(Debug, Default)]
pub struct StdinLines {
    byte: [u8; 1],
    filled: bool,
}

impl io::Read for StdinLines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.filled && !buf.is_empty() {
            self.filled = false;
            buf[0] = self.byte[0];
            return Ok(1);
        }
        io::stdin().read(buf)
    }
}

impl BufRead for StdinLines {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if !self.filled {
            let n = io::Read::read(&mut io::stdin(), &mut self.byte)?;
            if n == 0 {
                return Ok(&[]);
            }
            self.filled = true;
        }
        Ok(&self.byte)
    }

    fn consume(&mut self, amount: usize) {
        if amount > 0 {
            self.filled = false;
        }
    }
}
