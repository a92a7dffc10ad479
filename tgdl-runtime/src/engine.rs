//! The decision machinery shared by every generated engine.
//!
//! Generated code implements [`Rules`] on its world struct: how to set up, play one move
//! (effect and cascade), build the turn menu. [`Engine`] turns that into a [`Game`]:
//! it caches the options of the current decision, and resolves inputs met in the middle
//! of an effect by replay (ARCHITECTURE.md): it keeps the world from before the move, and when
//! an answer arrives, re-runs the move from there with the answers given so far, until
//! the next unanswered input or the end. The generator lives in the world, so replays
//! draw the same numbers and write the same log.

use crate::chance::{Chance, ChanceEvent, ChanceMode, Unordered};
use crate::error::{Flow, Loc, RuleError, Stop};
use crate::game::{
    ApplyError, Choice, Game, GameInfo, Outcome, Pick, Record, Round, Start, StartError, Status,
};
use crate::hidden::{self, Census, DeterminizeError, Observation, Resample, Seen, Viewer};
use crate::information::{InfoState, Sampler};
use crate::rng::{GameRng, Rng};
use crate::value::{Player, Str, str_of};
use crate::view::View;
use std::fmt::Debug;
use std::sync::Arc;

/// The part of a world every game has: players, turn, generator, log, outcome, and the
/// answers being replayed.
#[derive(Debug, PartialEq)]
pub struct Core {
    pub players: u32,
    pub active: Player,
    /// Index of the active `turn` definition, in declaration order.
    pub turn: usize,
    /// `turn.phase.active()`; `""` before any is set.
    pub phase: Str,
    /// Where the active player, phase or turn definition was last changed (`turn.pass`,
    /// `turn.phase.set`, `turns.use`): an empty menu after it is reported there. A
    /// pointer to the place, which generated code keeps in the binary: one store a move.
    pub turn_changed_at: Option<&'static Loc>,
    /// The game's chance (see [`GameRng`]).
    pub rng: GameRng,
    /// Seeded or explicit, and the record of what was drawn.
    pub chance: Chance,
    pub log: Vec<String>,
    /// The lines of `log` written by `tell(p, ..)`: (line index, the one player who sees
    /// it), in order. Every other line is public.
    pub told: Vec<(usize, Player)>,
    /// The public lines of `log` that named objects hidden from spectators when they were
    /// written: (line index, the line as the players read it, those objects in their
    /// hidden form), in order. The designer reads the line of `log`.
    pub public_forms: Vec<(usize, String)>,
    /// Attributes disclosed to everyone on objects that may be hidden
    /// (`card.disclose("colour")`): (arena tag, index, one bit per attribute), sorted.
    pub disclosed: Vec<(u32, u32, u64)>,
    pub outcome: Option<Outcome>,
    /// Loop iterations left in the current decision (from `step_limit`, counting down:
    /// one decrement and one test per iteration).
    pub steps_left: u64,
    pub step_limit: u64,
    /// Calls being run now (see [`Core::enter`]), against `depth_limit`.
    pub depth: u32,
    pub depth_limit: u32,
    /// Actions events may still run in the current decision (see [`Core::run_event`]).
    pub runs_left: u64,
    pub run_limit: u64,
    pub replay: Replay,
    /// Allocations of the previous game's outcome, reused by the next `winner`.
    pub spare: Spare,
    /// The game's parameter values, in declaration order, shared by every copy.
    pub params: Arc<[f64]>,
}

// By hand, for `clone_from`: a search copies one game into another many times, and the
// log's lines and the replay's vectors can keep their allocations.
impl Clone for Core {
    fn clone(&self) -> Core {
        Core {
            players: self.players,
            active: self.active,
            turn: self.turn,
            phase: self.phase.clone(),
            turn_changed_at: self.turn_changed_at,
            rng: self.rng.clone(),
            chance: self.chance.clone(),
            log: self.log.clone(),
            told: self.told.clone(),
            public_forms: self.public_forms.clone(),
            disclosed: self.disclosed.clone(),
            outcome: self.outcome.clone(),
            steps_left: self.steps_left,
            step_limit: self.step_limit,
            depth: self.depth,
            depth_limit: self.depth_limit,
            runs_left: self.runs_left,
            run_limit: self.run_limit,
            replay: self.replay.clone(),
            spare: self.spare.clone(),
            params: self.params.clone(),
        }
    }

    fn clone_from(&mut self, source: &Core) {
        self.players = source.players;
        self.active = source.active;
        self.turn = source.turn;
        self.phase.clone_from(&source.phase);
        self.turn_changed_at = source.turn_changed_at;
        self.rng.clone_from(&source.rng);
        self.chance.clone_from(&source.chance);
        self.log.clone_from(&source.log);
        self.told.clone_from(&source.told);
        self.public_forms.clone_from(&source.public_forms);
        self.disclosed.clone_from(&source.disclosed);
        self.outcome.clone_from(&source.outcome);
        self.steps_left = source.steps_left;
        self.step_limit = source.step_limit;
        self.depth = source.depth;
        self.depth_limit = source.depth_limit;
        self.runs_left = source.runs_left;
        self.run_limit = source.run_limit;
        self.replay.clone_from(&source.replay);
        if !Arc::ptr_eq(&self.params, &source.params) {
            self.params = source.params.clone();
        }
    }
}

/// Allocations kept from a finished game for the next one, so that playouts do not
/// allocate an outcome per game. Not part of the game's state: every spare equals every
/// other, and a clone has none.
#[derive(Debug, Default)]
pub struct Spare {
    places: Vec<Vec<u32>>,
}

impl Clone for Spare {
    fn clone(&self) -> Spare {
        Spare::default()
    }
}

impl PartialEq for Spare {
    fn eq(&self, _: &Spare) -> bool {
        true
    }
}

/// Answers to the inputs (and, in an explicit game, the chance events) of the move being
/// run, and the question or event it stopped at.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replay {
    answers: Vec<Answer>,
    cursor: usize,
    question: Option<Question>,
    chance: Option<ChanceEvent>,
    /// Set on the saved world of a determinized move (see [`Game::determinize`]): once the
    /// answer at this index is given, the generator restarts from this seed — the chance
    /// before the question is what the player saw; the chance after it is unknown.
    fresh: Option<(usize, u64)>,
}

impl Replay {
    /// Empty, keeping the answers' allocation.
    fn restart(&mut self) {
        self.answers.clear();
        self.cursor = 0;
        self.question = None;
        self.chance = None;
        self.fresh = None;
    }
}

/// What a run in replay is told at each question it meets, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// An answer to an input.
    Pick(Pick),
    /// The outcome of a chance event, by its index.
    Chance(u32),
    /// A value of `random()`: the bits of an `f64` in `[0, 1)`.
    Unit(u64),
}

/// An input waiting for an answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub player: Player,
    pub options: Vec<Pick>,
    pub prompt: String,
}

thread_local! {
    /// The phase of a new game, shared by the games of one thread: starting a game then
    /// allocates no string, and threads never touch each other's reference count.
    static NO_PHASE: Str = str_of("");
}

impl Core {
    pub fn new(players: u32, seed: u128) -> Core {
        let limits = crate::limits::current();
        Core {
            players,
            active: Player(0),
            turn: 0,
            phase: NO_PHASE.with(Str::clone),
            turn_changed_at: None,
            rng: GameRng::new(seed),
            chance: Chance::default(),
            log: Vec::new(),
            told: Vec::new(),
            public_forms: Vec::new(),
            disclosed: Vec::new(),
            outcome: None,
            steps_left: limits.loop_steps,
            step_limit: limits.loop_steps,
            depth: 0,
            depth_limit: limits.call_depth,
            runs_left: limits.event_runs,
            run_limit: limits.event_runs,
            replay: Replay::default(),
            spare: Spare::default(),
            params: Arc::from(Vec::new()),
        }
    }

    /// Discloses attributes (`bits`) of object (`tag`, `index`) to everyone.
    pub fn disclose(&mut self, tag: u32, index: u32, bits: u64) {
        match self.disclosed.binary_search_by_key(&(tag, index), |&(t, i, _)| (t, i)) {
            Ok(at) => self.disclosed[at].2 |= bits,
            Err(at) => self.disclosed.insert(at, (tag, index, bits)),
        }
    }

    /// The attributes of an object disclosed to everyone, one bit each.
    pub fn disclosed(&self, tag: u32, index: u32) -> u64 {
        match self.disclosed.binary_search_by_key(&(tag, index), |&(t, i, _)| (t, i)) {
            Ok(at) => self.disclosed[at].2,
            Err(_) => 0,
        }
    }

    /// Sets what is disclosed of an object: nothing once it goes face down into a closed
    /// stack; a slot's disclosures when a search redraws what stands there.
    pub fn set_disclosed(&mut self, tag: u32, index: u32, bits: u64) {
        match self.disclosed.binary_search_by_key(&(tag, index), |&(t, i, _)| (t, i)) {
            Ok(at) if bits == 0 => {
                self.disclosed.remove(at);
            }
            Ok(at) => self.disclosed[at].2 = bits,
            Err(at) if bits != 0 => self.disclosed.insert(at, (tag, index, bits)),
            Err(_) => {}
        }
    }

    /// The value of parameter `i` (declaration order); a bool's is 0 or 1.
    #[inline]
    pub fn param(&self, i: usize) -> f64 {
        self.params.get(i).copied().unwrap_or(0.0)
    }

    #[inline]
    pub fn param_bool(&self, i: usize) -> bool {
        self.param(i) != 0.0
    }

    /// Makes this core the one `Core::new(players, seed)` would give, in place: a playout
    /// loop restarts one game many times, and the log's buffer, the replay's vectors and
    /// the outcome's places are kept for the next game instead of being freed.
    pub fn restart(&mut self, players: u32, seed: u128) {
        let limits = crate::limits::current();
        self.players = players;
        self.active = Player(0);
        self.turn = 0;
        if !self.phase.is_empty() {
            self.phase = NO_PHASE.with(Str::clone);
        }
        self.turn_changed_at = None;
        self.rng = GameRng::new(seed);
        self.chance.restart();
        self.log.clear();
        self.told.clear();
        self.public_forms.clear();
        self.disclosed.clear();
        if let Some(outcome) = self.outcome.take() {
            self.spare.places = outcome.places;
        }
        self.steps_left = limits.loop_steps;
        self.step_limit = limits.loop_steps;
        self.depth = 0;
        self.depth_limit = limits.call_depth;
        self.runs_left = limits.event_runs;
        self.run_limit = limits.event_runs;
        self.replay.restart();
        debug_assert_eq!(
            *self,
            Core { params: self.params.clone(), ..Core::new(players, seed) },
            "a restarted core differs from a new one (but for its parameters, which it keeps)"
        );
    }

    /// Asks `player` to choose one of `options`: the recorded answer when replaying,
    /// otherwise the run stops with [`Stop::signal`] and the engine puts the question.
    pub fn ask(&mut self, player: Player, options: Vec<Pick>, prompt: impl FnOnce() -> String) -> Flow<Pick> {
        match self.next_answer() {
            Some(Answer::Pick(pick)) => Ok(pick),
            Some(_) => Err(crate::error::wrong_answer()),
            None => {
                self.replay.question = Some(Question { player, options, prompt: prompt() });
                Err(Stop::signal())
            }
        }
    }

    /// The recorded answer to the next question of a replayed run, if there is one.
    fn next_answer(&mut self) -> Option<Answer> {
        let r = &mut self.replay;
        let answer = *r.answers.get(r.cursor)?;
        if let Some((at, seed)) = r.fresh
            && at == r.cursor
        {
            self.rng = GameRng::new(seed.into());
        }
        r.cursor += 1;
        Some(answer)
    }

    /// A chance event of an explicit game: its recorded outcome when replaying, otherwise
    /// the run stops and the engine puts the event to chance.
    fn ask_chance(&mut self, event: impl FnOnce() -> ChanceEvent) -> Flow<Answer> {
        match self.next_answer() {
            Some(answer @ (Answer::Chance(_) | Answer::Unit(_))) => Ok(answer),
            Some(Answer::Pick(_)) => Err(crate::error::wrong_answer()),
            None => {
                self.replay.chance = Some(event());
                Err(Stop::signal())
            }
        }
    }

    /// One of `n` equally likely outcomes (`0..n`), the event being `event`: drawn from the
    /// generator in a seeded game, asked of chance in an explicit one.
    fn draw(&mut self, n: u64, event: impl FnOnce() -> ChanceEvent) -> Flow<u64> {
        match self.chance.mode {
            ChanceMode::Seeded => {
                let outcome = self.rng.below(n);
                self.chance.note(outcome);
                Ok(outcome)
            }
            // A run replays a move from its start: the record notes each answer again.
            ChanceMode::Explicit => match self.ask_chance(event)? {
                Answer::Chance(i) if u64::from(i) < n => {
                    self.chance.note(u64::from(i));
                    Ok(u64::from(i))
                }
                _ => Err(crate::error::wrong_answer()),
            },
        }
    }

    /// Shuffles `items` as [`Rng::shuffle`] does (Fisher–Yates from the last position
    /// down), each step a chance event of its own in an explicit game.
    pub fn shuffle<T>(&mut self, items: &mut [T]) -> Flow<()> {
        if self.chance.mode == ChanceMode::Seeded && self.chance.record.is_none() {
            self.rng.shuffle(items);
            return Ok(());
        }
        for i in (1..items.len()).rev() {
            let positions = i as u64 + 1;
            let j = self.draw(positions, || ChanceEvent::Step(positions))?;
            items.swap(i, j as usize);
        }
        Ok(())
    }

    /// Shuffles a deck: in a seeded game its items are put in a random order at once; in
    /// both kinds they are marked unordered, so that each card taken off an end is a
    /// chance event of its own ([`Core::deal`]).
    pub fn shuffle_deck<T>(&mut self, items: &mut std::collections::VecDeque<T>, unordered: &mut Unordered) {
        if self.chance.mode == ChanceMode::Seeded {
            self.rng.shuffle(items.make_contiguous());
        }
        *unordered = Unordered { lo: 0, hi: items.len() as u32 };
    }

    /// Which of the unordered items of a deck (`items[lo..hi]`, object indices of the arena
    /// with `tag`) comes off the end at `at` (`lo` or `hi - 1`): its position. A seeded
    /// game has them in a random order already and takes the one at `at`.
    pub fn deal(&mut self, tag: u32, items: &[u32], unordered: Unordered, at: u32) -> Flow<u32> {
        let (lo, hi) = (unordered.lo as usize, unordered.hi as usize);
        match self.chance.mode {
            ChanceMode::Seeded => {
                self.chance.note(u64::from(items[at as usize]));
                self.chance.note_dealt(tag, items[at as usize]);
                Ok(at)
            }
            ChanceMode::Explicit => {
                let event = || ChanceEvent::Deal { tag, objects: items[lo..hi].to_vec() };
                match self.ask_chance(event)? {
                    Answer::Chance(i) if (i as usize) < hi - lo => {
                        self.chance.note(u64::from(items[lo + i as usize]));
                        self.chance.note_dealt(tag, items[lo + i as usize]);
                        Ok(unordered.lo + i)
                    }
                    _ => Err(crate::error::wrong_answer()),
                }
            }
        }
    }

    /// `tell(p, line)`: a log line only `p` sees.
    pub fn tell(&mut self, p: Player, line: String) {
        self.told.push((self.log.len(), p));
        self.log.push(line);
    }

    /// `log(line)` of a line that named objects that may be hidden: `public` is the line
    /// with those hidden from spectators now in their hidden form (`draws a hidden Card`),
    /// what every player reads.
    pub fn log_public(&mut self, line: String, public: String) {
        if public != line {
            self.public_forms.push((self.log.len(), public));
        }
        self.log.push(line);
    }

    /// The log as `viewer` sees it: every public line, as players read it, and the lines
    /// told to the viewer (the designer reads them all, as they were written).
    pub fn log_for(&self, viewer: Viewer) -> Vec<String> {
        if viewer == Viewer::All {
            return self.log.clone();
        }
        let mut told = self.told.iter().peekable();
        let mut public = self.public_forms.iter().peekable();
        let mut lines = Vec::with_capacity(self.log.len());
        for (i, line) in self.log.iter().enumerate() {
            let public = public.next_if(|(at, _)| *at == i);
            match told.next_if(|(at, _)| *at == i) {
                Some(&(_, p)) if viewer != Viewer::Seat(p.0) => {}
                _ => lines.push(public.map_or(line, |(_, form)| form).clone()),
            }
        }
        lines
    }

    /// Enters a call that may call again (a function that calls, an action called like a
    /// function): endless recursion becomes a located error at the call, before the stack
    /// runs out. Pair with [`Core::leave`]; a run that stops early resets the depth.
    #[inline]
    pub fn enter(&mut self, loc: Loc) -> Flow<()> {
        if self.depth >= self.depth_limit {
            return self.too_deep(loc);
        }
        self.depth += 1;
        Ok(())
    }

    #[inline]
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self, loc: Loc) -> Flow<()> {
        crate::error::fail(
            loc,
            format!(
                "calls nested more than {} deep: does this rule call itself without end?",
                self.depth_limit
            ),
        )
    }

    /// Counts one action run by an event; a cascade that never ends (an event thrown
    /// again by what it runs) becomes a located error at that action.
    #[inline]
    pub fn run_event(&mut self, loc: Loc) -> Flow<()> {
        if self.runs_left == 0 {
            return crate::error::fail(
                loc,
                format!(
                    "events ran more than {} actions in one decision: does an event cause itself again?",
                    self.run_limit
                ),
            );
        }
        self.runs_left -= 1;
        Ok(())
    }

    /// Counts one loop iteration; a loop that never ends becomes a located error.
    #[inline]
    pub fn tick(&mut self, loc: impl Into<Loc>) -> Flow<()> {
        if self.steps_left == 0 {
            return self.endless(loc.into());
        }
        self.steps_left -= 1;
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn endless(&self, loc: Loc) -> Flow<()> {
        crate::error::fail(
            loc,
            format!("this loop ran more than {} iterations in one decision", self.step_limit),
        )
    }

    /// `roll(n)`: a whole number in `1..=n`.
    #[inline]
    pub fn roll(&mut self, n: f64, loc: Loc) -> Flow<f64> {
        let n = crate::value::count(n, 1.0, loc)?;
        if self.chance.mode == ChanceMode::Seeded && self.chance.record.is_none() {
            return Ok((self.rng.below(n) + 1) as f64);
        }
        Ok((self.draw(n, || ChanceEvent::Roll(n))? + 1) as f64)
    }

    /// `random()`: a number in `[0, 1)`.
    #[inline]
    pub fn random(&mut self) -> Flow<f64> {
        match self.chance.mode {
            ChanceMode::Seeded => {
                let x = self.rng.unit();
                self.chance.note(x.to_bits());
                Ok(x)
            }
            ChanceMode::Explicit => match self.ask_chance(|| ChanceEvent::Unit)? {
                Answer::Unit(bits) if (0.0..1.0).contains(&f64::from_bits(bits)) => {
                    self.chance.note(bits);
                    Ok(f64::from_bits(bits))
                }
                _ => Err(crate::error::wrong_answer()),
            },
        }
    }

    /// `winner ...;`: records the ranking and stops the game.
    pub fn win<T>(&mut self, ranking: &[Vec<Player>]) -> Flow<T> {
        match ranking {
            [first] if first.len() == 1 => self.win_player(first[0]),
            _ => {
                self.outcome = Some(Outcome::from_ranking(ranking, self.players));
                Err(Stop::signal())
            }
        }
    }

    /// `payoffs p;` (the ranking is the payoffs' order) or `winner r payoffs p;`: records
    /// the outcome and stops the game. The payoffs are one number for each player; a null
    /// one arrives as NaN (numbers are otherwise always finite).
    pub fn end_with_payoffs<T>(
        &mut self,
        ranking: Option<&[Vec<Player>]>,
        payoffs: Vec<f64>,
        loc: impl Into<Loc>,
    ) -> Flow<T> {
        self.check_payoffs(&payoffs, loc.into())?;
        let outcome = match ranking {
            Some(r) => Outcome { payoffs: Some(payoffs), ..Outcome::from_ranking(r, self.players) },
            None => Outcome::from_payoffs(payoffs),
        };
        self.outcome = Some(outcome);
        Err(Stop::signal())
    }

    /// `winners team;` or `winners team payoffs p;`: a team result (the players of `team`
    /// won together, the others lost together), with each player's payoff when given.
    pub fn win_team<T>(
        &mut self,
        team: &[Player],
        payoffs: Option<Vec<f64>>,
        loc: impl Into<Loc>,
    ) -> Flow<T> {
        if let Some(p) = &payoffs {
            self.check_payoffs(p, loc.into())?;
        }
        self.outcome = Some(Outcome { payoffs, ..Outcome::from_team(team, self.players) });
        Err(Stop::signal())
    }

    /// Payoffs are one finite number for each player.
    fn check_payoffs(&self, payoffs: &[f64], loc: Loc) -> Flow<()> {
        if payoffs.len() != self.players as usize {
            let n = payoffs.len();
            return Err(Stop::error(RuleError::new(
                loc,
                format!(
                    "`payoffs` gives {n} number{} for {} players",
                    if n == 1 { "" } else { "s" },
                    self.players
                ),
            )));
        }
        match payoffs.iter().position(|x| !x.is_finite()) {
            Some(p) => Err(Stop::error(RuleError::new(loc, format!("player {p}'s payoff is null")))),
            None => Ok(()),
        }
    }

    /// `winner p;`, the usual end: `p` first, everyone else second, built directly with
    /// the fewest allocations.
    pub fn win_player<T>(&mut self, p: Player) -> Flow<T> {
        let outcome = if p.0 < self.players {
            // The places of the last game's outcome, refilled: no allocation in playouts.
            let mut places = std::mem::take(&mut self.spare.places);
            let count = if self.players > 1 { 2 } else { 1 };
            places.truncate(count);
            places.resize_with(count, Vec::new);
            places[0].clear();
            places[0].push(p.0);
            if count == 2 {
                places[1].clear();
                places[1].extend((0..self.players).filter(|&q| q != p.0));
            }
            Outcome { places, ..Outcome::default() }
        } else {
            Outcome::from_ranking(&[vec![p]], self.players)
        };
        debug_assert_eq!(outcome, Outcome::from_ranking(&[vec![p]], self.players));
        self.outcome = Some(outcome);
        Err(Stop::signal())
    }

    /// A number as a player (player arithmetic wraps). Called on every `turn.pass()`:
    /// inlined into generated code, which is another crate.
    #[inline]
    pub fn wrap_player(&self, r: f64) -> Player {
        Player::wrap(r, self.players)
    }

    pub fn all_players(&self) -> Vec<Player> {
        (0..self.players).map(Player).collect()
    }
}

/// What a generated world provides. Implemented by generated code only; use [`Engine`].
pub trait Rules: Resample + Clone + Debug + Send + Sync + 'static {
    type Move: Copy + Eq + std::hash::Hash + Debug + Send + Sync + 'static;

    /// Whether `setup` may ask an input (decided by the compiler).
    const SETUP_MAY_ASK: bool;

    /// Whether the world keeps its menu up to date between moves ([`Rules::update_menu`]).
    const KEEPS_MENU: bool = false;

    /// Whether anything can ever be hidden from a player (decks, hands, `secret`
    /// attributes, `tell`): decided by the compiler.
    const HIDDEN: bool = false;

    /// Whether redistributing hidden objects among hidden places gives the worlds a replay
    /// of a player's information state would, as far as the rules go: objects that can be
    /// hidden keep the values they were created with, nothing public refers to one, no
    /// `secret` lives apart from them and nothing is told to one player alone. Decided by
    /// the compiler; the engine adds what only play shows ([`crate::information`]).
    const POOL_RESAMPLING: bool = false;

    /// Whether a turn is simultaneous (`simultaneous { ... }`): decided by the compiler.
    const SIMULTANEOUS: bool = false;

    /// [`Rules::HIDDEN`], asked of the type: a world that is one type for every game (the
    /// interpreter's) answers for the game it plays.
    fn hidden() -> bool {
        Self::HIDDEN
    }

    /// [`Rules::POOL_RESAMPLING`], asked of the type (see [`Rules::hidden`]).
    fn pool_resampling() -> bool {
        Self::POOL_RESAMPLING
    }

    /// [`Rules::SIMULTANEOUS`], asked of the type (see [`Rules::hidden`]).
    fn simultaneous() -> bool {
        Self::SIMULTANEOUS
    }

    /// [`Rules::SETUP_MAY_ASK`], asked of the type (see [`Rules::hidden`]).
    fn setup_may_ask() -> bool {
        Self::SETUP_MAY_ASK
    }

    /// The players who choose together now, when the active turn is simultaneous.
    fn round_players(&mut self) -> Flow<Option<Vec<Player>>> {
        Ok(None)
    }

    /// Why the move labelled `label` is, or is not, offered to `seat` in `game` (see
    /// [`Game::why`]); `None`: this world cannot tell.
    fn why(_game: &Engine<Self>, _seat: u32, _label: &str) -> Option<Vec<String>>
    where
        Self: Sized,
    {
        None
    }

    /// The `resolve` block of the turn `turn` (its index), once a round's choices took effect.
    fn resolve_round(&mut self, _turn: usize) -> Flow<()> {
        Ok(())
    }

    fn info() -> GameInfo;

    /// An empty world around `core`.
    fn new(core: Core) -> Self;

    /// Makes this world the empty one `new(Core::new(players, seed))` would give, reusing
    /// its allocations (a playout loop restarts one game many times).
    fn restart(&mut self, players: u32, seed: u128) {
        let mut core = std::mem::replace(self.core_mut(), Core::new(players, seed));
        core.restart(players, seed);
        *self = Self::new(core);
    }

    /// Makes this world a copy of `other`, reusing its allocations where it can.
    fn copy_from(&mut self, other: &Self) {
        self.clone_from(other);
    }
    fn core(&self) -> &Core;
    fn core_mut(&mut self) -> &mut Core;

    /// Creates global classes and boards, runs `setup` and the cascade it starts.
    fn setup(&mut self) -> Flow<()>;

    /// Runs one move of the turn menu: its effect and the cascade it starts.
    fn play(&mut self, mv: Self::Move) -> Flow<()>;

    /// Whether playing `mv` may ask an input (decided by the compiler); such moves are
    /// run from a saved copy of the world so they can be replayed.
    fn may_ask(mv: &Self::Move) -> bool;

    /// Appends the active player's menu to `out`. Speculative: the world is left as it was.
    fn menu(&mut self, out: &mut Vec<Choice<Self::Move>>) -> Flow<()>;

    /// Makes `out` the active player's menu, when it holds the menu this world last built
    /// (with [`Rules::menu`] or this method) and the world has changed since only by a run of
    /// [`Rules::play`]. Worlds whose menus the compiler keeps up to date (`tgdl_runtime::kept`)
    /// change only the options the move touched; the others build it again.
    fn update_menu(&mut self, out: &mut Vec<Choice<Self::Move>>) -> Flow<()> {
        debug_assert!(!Self::KEEPS_MENU, "a world that keeps its menu implements update_menu");
        out.clear();
        self.menu(out)
    }

    /// Where the active turn is defined: the location of an "empty menu" error.
    fn turn_location(&self) -> Loc;

    /// A move's label as `seen` may read it: objects hidden from it in their hidden form
    /// (`a hidden Card`). [`Seen::all`] gives the designer's label.
    fn move_label(&self, mv: &Self::Move, seen: &Seen) -> String;
    /// An answer's label as `seen` may read it.
    fn pick_label(&self, pick: &Pick, seen: &Seen) -> String;

    /// The things a move names, in order, as `seen` may read them (each as its label
    /// writes it: hidden ones in their hidden form): the object it belongs to, then its
    /// inputs. A table lights them as a person points at them; it needs them when a
    /// game writes its own labels (`e2-e4`), which name them in no form it can read, and
    /// only then are they given (empty otherwise: the label names them).
    fn move_things(&self, _mv: &Self::Move, _seen: &Seen) -> Vec<String> {
        Vec::new()
    }

    /// The object a move belongs to (its `this`), as `(tag, index)`: where it stands tells
    /// apart two moves that would read the same.
    fn move_subject(&self, _mv: &Self::Move) -> Option<(u32, u32)> {
        None
    }

    /// Where an object stands, as a player reads it off the board (its tile's label), when
    /// it stands on a tile (then everyone sees it there).
    fn object_place(&self, _tag: u32, _index: u32) -> Option<String> {
        None
    }

    /// How the table draws an object (its class's `glyph`, `colour` and `shape`), when the game
    /// says; asked only of objects the viewer may see.
    fn object_look(&self, _tag: u32, _index: u32) -> Option<crate::view::Look> {
        None
    }

    /// The board and global classes as `seen` may see them (hands are added by the engine).
    fn observe(&self, seen: &Seen) -> View;
}

#[derive(Clone, Debug, PartialEq)]
enum Origin<M> {
    Setup,
    Move(M),
    /// The moves chosen in a round of a simultaneous turn (in seat order), then the turn's
    /// `resolve`.
    Round {
        turn: usize,
        moves: Box<[(Player, M)]>,
    },
}

/// A round of a simultaneous turn being chosen: its players (in seat order), each one's
/// menu, and what each has chosen so far, which nobody else is told until the round closes.
#[derive(Clone, Debug, PartialEq)]
struct RoundState<M> {
    turn: usize,
    players: Vec<u32>,
    menus: Vec<Vec<Choice<M>>>,
    chosen: Vec<Option<u32>>,
}

impl<M> RoundState<M> {
    /// The first player yet to choose, by position.
    fn next(&self) -> Option<usize> {
        self.chosen.iter().position(Option::is_none)
    }

    fn public(&self) -> Round {
        Round { players: self.players.clone(), chosen: self.chosen.iter().map(Option::is_some).collect() }
    }
}

/// How another seat (or a spectator) reads a choice made in a round.
pub const SECRET_CHOICE: &str = "a secret choice";

/// The world saved before a run, to replay the run from, without its log: the lines
/// written before the run are the live world's too, so a replay cuts the live log back to
/// `marks` instead of copying every line of the game at each decision (which made long
/// games whose moves ask inputs as they take effect quadratic).
#[derive(Clone, Debug, PartialEq)]
struct Base<R> {
    world: R,
    marks: LogMarks,
}

/// The lengths of a core's log and of what is known of its lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LogMarks {
    lines: usize,
    told: usize,
    public_forms: usize,
}

/// A core's log and what is known of its lines, moved out of it.
struct LogParts {
    lines: Vec<String>,
    told: Vec<(usize, Player)>,
    public_forms: Vec<(usize, String)>,
}

impl LogParts {
    fn take(core: &mut Core) -> LogParts {
        LogParts {
            lines: std::mem::take(&mut core.log),
            told: std::mem::take(&mut core.told),
            public_forms: std::mem::take(&mut core.public_forms),
        }
    }

    fn put(self, core: &mut Core) {
        core.log = self.lines;
        core.told = self.told;
        core.public_forms = self.public_forms;
    }

    fn marks(&self) -> LogMarks {
        LogMarks { lines: self.lines.len(), told: self.told.len(), public_forms: self.public_forms.len() }
    }

    /// Back to what it was at `marks`: a run only appends to the log.
    fn cut(&mut self, marks: LogMarks) {
        self.lines.truncate(marks.lines);
        self.told.truncate(marks.told);
        self.public_forms.truncate(marks.public_forms);
    }
}

/// A run stopped at an input or a chance event: the world before it started and the
/// answers so far.
#[derive(Clone, Debug, PartialEq)]
struct Pending<R: Rules> {
    origin: Origin<R::Move>,
    base: Base<R>,
    answers: Vec<Answer>,
    prompt: String,
    /// The chance event waiting, at [`Status::Chance`].
    chance: Option<ChanceEvent>,
}

/// What a game played for real keeps for its players' information states
/// ([`crate::information`]): the options chosen, and for each object that can be hidden
/// the seats that have seen it (a bit each).
#[derive(Clone, Debug, Default, PartialEq)]
struct Observed {
    decisions: Vec<u32>,
    seen: std::collections::HashMap<(u32, u32), u64>,
}

/// A [`Game`] over a generated world.
#[derive(Debug, PartialEq)]
pub struct Engine<R: Rules> {
    world: R,
    pending: Option<Box<Pending<R>>>,
    options: Vec<Choice<R::Move>>,
    status: Status,
    error: Option<RuleError>,
    decisions: u64,
    /// Kept when the game was started to be observed ([`Start::record`]).
    observed: Option<Box<Observed>>,
    /// A round of a simultaneous turn being chosen.
    round: Option<Box<RoundState<R::Move>>>,
    /// The world of the last saved base, reused by the next ([`SpareWorld`]).
    spare_world: SpareWorld<R>,
}

/// A world whose allocations the next move that may ask an input copies the world into,
/// instead of cloning it (a move of English draughts' jumps, every jump): the saved base of
/// the last such move, once that move finished. A cache, not part of the game: it compares
/// equal whatever it holds, and a copy of the engine starts without one.
struct SpareWorld<R>(Option<R>);

impl<R> Default for SpareWorld<R> {
    fn default() -> Self {
        SpareWorld(None)
    }
}

impl<R> Clone for SpareWorld<R> {
    fn clone(&self) -> Self {
        SpareWorld(None)
    }
}

impl<R> PartialEq for SpareWorld<R> {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl<R> std::fmt::Debug for SpareWorld<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SpareWorld")
    }
}

impl<R: Rules> Clone for Engine<R> {
    fn clone(&self) -> Self {
        Engine {
            world: self.world.clone(),
            pending: self.pending.clone(),
            options: self.options.clone(),
            status: self.status,
            error: self.error.clone(),
            decisions: self.decisions,
            observed: self.observed.clone(),
            round: self.round.clone(),
            spare_world: SpareWorld::default(),
        }
    }

    /// A copy into this engine's allocations (the world's arenas, the options): perft and
    /// searches copy games at every node.
    fn clone_from(&mut self, source: &Self) {
        self.world.copy_from(&source.world);
        self.pending.clone_from(&source.pending);
        self.options.clone_from(&source.options);
        self.status = source.status;
        self.error.clone_from(&source.error);
        self.decisions = source.decisions;
        self.observed.clone_from(&source.observed);
        self.round.clone_from(&source.round);
    }
}

/// A run's result, or the list growth it was refused (a `push` past the list budget, which
/// has no error path of its own): that is why the run went wrong, whatever it did after.
#[inline]
fn with_refused_growth<R: Rules>(result: Flow<()>) -> Flow<()> {
    match crate::limits::take_refused_growth() {
        None => result,
        Some((len, limit)) => refused::<R>(len, limit),
    }
}

/// The located error of a refused growth: out of the way of every move that has none.
#[cold]
#[inline(never)]
fn refused<R: Rules>(len: usize, limit: usize) -> Flow<()> {
    Err(Stop::error(crate::error::refused_growth_error(len, limit, R::info().source)))
}

/// The player count is within the game directive's bounds.
fn check_players<R: Rules>(players: u32) -> Result<(), StartError> {
    let info = R::info();
    if players < info.min_players || players > info.max_players {
        return Err(StartError::Players { given: players, min: info.min_players, max: info.max_players });
    }
    Ok(())
}

impl<R: Rules> Engine<R> {
    /// Runs `setup` on a fresh world and puts the first decision.
    fn run_setup(&mut self) {
        if R::setup_may_ask() || self.explicit() {
            let base = Some(self.save_base());
            let result = self.run(&Origin::Setup);
            self.settle(result, Origin::Setup, base, Vec::new());
        } else {
            // No copy to replay from: not even an empty one is moved about (a playout's
            // every game starts here).
            let result = self.run(&Origin::Setup);
            self.options.clear();
            self.pending = None;
            match result {
                Ok(()) => self.build_menu(),
                Err(stop) => self.stopped(stop, Origin::Setup, None, Vec::new()),
            }
        }
    }

    /// The world: the game's state as the rules see it.
    pub fn world(&self) -> &R {
        &self.world
    }

    /// Whether chance events are decisions of their own in this game.
    fn explicit(&self) -> bool {
        self.world.core().chance.mode == ChanceMode::Explicit
    }

    /// Runs (or re-runs) a move or the setup from the current world. Inlined into every
    /// caller: a plain move's run is a few stores and the move itself.
    #[inline(always)]
    fn run(&mut self, origin: &Origin<R::Move>) -> Flow<()> {
        let core = self.world.core_mut();
        core.steps_left = core.step_limit;
        core.depth = 0;
        core.runs_left = core.run_limit;
        crate::limits::take_refused_growth();
        let result = match origin {
            Origin::Setup => self.world.setup(),
            Origin::Move(mv) => self.world.play(*mv),
            Origin::Round { turn, moves } => self.run_round(*turn, moves),
        };
        with_refused_growth::<R>(result)
    }

    /// The moves of a round, in seat order, each with its player active; then, with the
    /// active player as before the round, the turn's `resolve`. Out of line: the run of a
    /// plain move, every playout's path, stays small enough to inline.
    #[cold]
    #[inline(never)]
    fn run_round(&mut self, turn: usize, moves: &[(Player, R::Move)]) -> Flow<()> {
        let active = self.world.core().active;
        for &(player, mv) in moves {
            self.world.core_mut().active = player;
            if let Err(stop) = self.world.play(mv) {
                return Err(self.asked_in_round(stop));
            }
        }
        self.world.core_mut().active = active;
        self.world.resolve_round(turn)
    }

    /// A move of a round that asks an input before `resolve` would have its player answer
    /// knowing what the others chose: a rule error at the turn. Other stops pass.
    #[cold]
    fn asked_in_round(&mut self, stop: Stop) -> Stop {
        let Some(question) = self.world.core_mut().replay.question.take() else { return stop };
        Stop::error(RuleError::new(
            self.world.turn_location(),
            format!(
                "a move chosen in a simultaneous round asks an input as it takes effect ({}): its \
                 player would answer knowing what the others chose; ask it with the menu (an \
                 input of an object, before the effect) or in the turn's `resolve`",
                question.prompt
            ),
        ))
    }

    /// When the active turn is simultaneous, puts a round: each of its players' menu, the
    /// first of them to choose. Whether it did (or failed the game trying).
    #[cold]
    fn start_round(&mut self) -> bool {
        crate::limits::take_refused_growth();
        let chosen = self.world.round_players();
        let chosen = match crate::limits::take_refused_growth() {
            Some((len, limit)) => refused::<R>(len, limit).map(|()| None),
            None => chosen,
        };
        let players = match chosen {
            Ok(None) => return false,
            Ok(Some(players)) => players,
            Err(stop) => {
                self.no_menu(Err(stop));
                return true;
            }
        };
        let count = self.world.core().players;
        let mut players: Vec<u32> = players.iter().map(|p| p.0).filter(|&p| p < count).collect();
        players.sort_unstable();
        players.dedup();
        if players.is_empty() {
            self.fail(RuleError::new(
                self.world.turn_location(),
                "the `simultaneous` block of the active turn named no player: nobody can choose",
            ));
            return true;
        }
        let active = self.world.core().active;
        let mut menus = Vec::with_capacity(players.len());
        for &p in &players {
            self.world.core_mut().active = Player(p);
            let mut menu = Vec::new();
            crate::limits::take_refused_growth();
            let result = with_refused_growth::<R>(self.world.menu(&mut menu));
            if result.is_err() || menu.is_empty() {
                // Reported as this player's empty menu.
                self.no_menu(result);
                return true;
            }
            menus.push(menu);
        }
        self.world.core_mut().active = active;
        self.options.clone_from(&menus[0]);
        self.status = Status::Decide(Player(players[0]));
        let chosen = vec![None; players.len()];
        self.round = Some(Box::new(RoundState { turn: self.world.core().turn, players, menus, chosen }));
        true
    }

    /// `player` chooses option `index` of their menu in the round under way; the round
    /// closes when everyone has chosen.
    fn choose_in_round(&mut self, player: u32, index: usize) -> Result<(), ApplyError> {
        let Some(round) = self.round.as_mut() else { return Err(ApplyError::NotDeciding) };
        let Some(k) = round.players.iter().position(|&p| p == player).filter(|&k| round.chosen[k].is_none())
        else {
            return Err(ApplyError::NotDeciding);
        };
        let options = round.menus[k].len();
        if index >= options {
            return Err(ApplyError::OutOfRange { index, options });
        }
        round.chosen[k] = Some(index as u32);
        self.decisions += 1;
        match round.next() {
            Some(next) => {
                self.options.clone_from(&round.menus[next]);
                self.status = Status::Decide(Player(round.players[next]));
            }
            None => self.close_round(),
        }
        Ok(())
    }

    /// Every player of the round has chosen: the choices take effect together.
    fn close_round(&mut self) {
        let Some(round) = self.round.take() else { return };
        let mut moves = Vec::with_capacity(round.players.len());
        for (k, &p) in round.players.iter().enumerate() {
            let chosen = round.chosen[k].unwrap_or(0);
            if let Some(observed) = &mut self.observed {
                observed.decisions.push(chosen);
            }
            match round.menus[k].get(chosen as usize) {
                Some(Choice::Move(mv)) => moves.push((Player(p), *mv)),
                _ => {
                    self.fail(RuleError::new(
                        self.world.turn_location(),
                        "internal error: a round's menu held no move",
                    ));
                    return;
                }
            }
        }
        let origin = Origin::Round { turn: round.turn, moves: moves.into_boxed_slice() };
        let base = Some(self.save_base());
        let result = self.run(&origin);
        self.settle(result, origin, base, Vec::new());
    }

    /// The round under way as it was when it began: nobody has chosen (a world drawn for
    /// a seat, which must not carry what the others chose).
    fn forget_round_choices(&mut self) {
        if let Some(round) = self.round.as_mut() {
            round.chosen.fill(None);
            self.options.clone_from(&round.menus[0]);
            self.status = Status::Decide(Player(round.players[0]));
        }
    }

    /// The players of the round under way who have chosen, but `player`.
    fn chosen_by_others(&self, player: u32) -> Vec<u32> {
        let Some(round) = &self.round else { return Vec::new() };
        round
            .players
            .iter()
            .zip(&round.chosen)
            .filter(|(p, c)| c.is_some() && **p != player)
            .map(|(p, _)| *p)
            .collect()
    }

    /// The labels of a round player's menu as `viewer` reads them: another seat and
    /// spectators read every option as a secret.
    fn round_labels(&self, k: usize, viewer: Viewer) -> Option<Vec<String>> {
        let round = self.round.as_ref()?;
        let menu = round.menus.get(k)?;
        let own = match viewer {
            Viewer::All => true,
            Viewer::Seat(s) => s == round.players[k],
            Viewer::Public => false,
        };
        if !own {
            return Some(vec![SECRET_CHOICE.to_string(); menu.len()]);
        }
        let seen = self.seen_by(viewer);
        let mut labels: Vec<String> = menu.iter().map(|c| self.base_label(c, &seen)).collect();
        distinguish(&mut labels, |i, label| self.qualified(&menu[i], label, &seen), true);
        Some(labels)
    }

    /// Puts the next decision after a run: the turn menu when it finished, else what
    /// stopped it.
    fn settle(
        &mut self,
        result: Flow<()>,
        origin: Origin<R::Move>,
        base: Option<Base<R>>,
        answers: Vec<Answer>,
    ) {
        self.options.clear();
        self.pending = None;
        match result {
            Ok(()) => {
                if let Some(base) = base {
                    self.spare_world.0 = Some(base.world);
                }
                self.build_menu()
            }
            Err(stop) => self.stopped(stop, origin, base, answers),
        }
    }

    /// A run stopped before its end: the game is over, failed, or waits for an input.
    /// Rare (once per game, or once per input), so kept out of the path of a plain move.
    #[cold]
    #[inline(never)]
    fn stopped(&mut self, stop: Stop, origin: Origin<R::Move>, base: Option<Base<R>>, answers: Vec<Answer>) {
        let waits = {
            let replay = &self.world.core().replay;
            replay.question.is_some() || replay.chance.is_some()
        };
        match stop.into_rule_error() {
            Some(e) => self.fail(e),
            None if !waits && self.world.core().outcome.is_some() => self.status = Status::Over,
            None => {
                let replay = &mut self.world.core_mut().replay;
                let question = replay.question.take();
                let chance = replay.chance.take();
                match (base, question, chance) {
                    (Some(base), None, Some(event)) => {
                        let outcomes = event.outcomes() as u32;
                        self.options.extend((0..outcomes).map(Choice::Chance));
                        self.status = Status::Chance;
                        let prompt = chance_prompt(&event);
                        self.pending =
                            Some(Box::new(Pending { origin, base, answers, prompt, chance: Some(event) }));
                    }
                    (Some(base), Some(q), None) if !q.options.is_empty() => {
                        self.options.extend(q.options.iter().map(|&p| Choice::Pick(p)));
                        self.status = Status::Decide(q.player);
                        self.pending =
                            Some(Box::new(Pending { origin, base, answers, prompt: q.prompt, chance: None }));
                    }
                    (_, q, _) => self.fail(RuleError {
                        message: match q {
                            Some(q) => format!("internal error: an input with no options ({})", q.prompt),
                            None => "internal error: a run stopped for an input it did not record".into(),
                        },
                        location: R::info().source.to_string(),
                    }),
                }
            }
        }
    }

    /// Builds the active player's menu into `self.options` (empty before the call).
    #[inline]
    fn build_menu(&mut self) {
        if R::simultaneous() && self.start_round() {
            return;
        }
        crate::limits::take_refused_growth();
        let result = self.world.menu(&mut self.options);
        self.menu_built(with_refused_growth::<R>(result));
    }

    /// Brings `self.options`, the menu before a move that asked nothing, up to date after it.
    #[inline]
    fn update_menu(&mut self) {
        if R::simultaneous() {
            self.options.clear();
            return self.build_menu();
        }
        // No refusal is pending: the run before this took any.
        let result = with_refused_growth::<R>(self.world.update_menu(&mut self.options));
        // Tests run unoptimised builds: there, every kept menu is checked against a full build.
        #[cfg(debug_assertions)]
        if R::KEEPS_MENU && result.is_ok() {
            let mut full = Vec::new();
            if self.world.clone().menu(&mut full).is_ok() {
                assert_eq!(self.options, full, "a kept menu differs from the menu built again");
            }
        }
        self.menu_built(result);
    }

    fn menu_built(&mut self, result: Flow<()>) {
        match result {
            Ok(()) if !self.options.is_empty() => self.status = Status::Decide(self.world.core().active),
            result => self.no_menu(result),
        }
    }

    /// Building the menu failed, or found no option: a rule error.
    #[cold]
    #[inline(never)]
    fn no_menu(&mut self, result: Flow<()>) {
        match result.map_err(Stop::into_rule_error) {
            Err(Some(e)) => self.fail(e),
            Err(None) => self.fail(RuleError::new(
                self.world.turn_location(),
                "internal error: building the menu tried to end the game or ask an input",
            )),
            Ok(()) => {
                let core = self.world.core();
                let phase =
                    if core.phase.is_empty() { String::new() } else { format!(" in phase '{}'", core.phase) };
                // Point at the rule that made this player active (or set the phase): the
                // last `turn.pass`, `turn.phase.set` or `turns.use`, else the turn itself.
                let (at, why) = match core.turn_changed_at {
                    Some(at) => (*at, ", after the turn changed here"),
                    None => (self.world.turn_location(), ""),
                };
                let msg = format!("no legal action for player {}{phase}{why}", core.active.0);
                self.fail(RuleError::new(at, msg));
            }
        }
    }

    /// What `viewer` sees, with the census it was built from.
    fn observe_with(&self, viewer: Viewer, census: &Census) -> Observation {
        let w = &self.world;
        let seen = if viewer == Viewer::All { Seen::all() } else { Seen::new(viewer, census) };
        let mut view = w.observe(&seen);
        let secrets: Vec<(String, String)> = w
            .secrets()
            .into_iter()
            .filter(|s| s.seen_by(viewer))
            .map(|s| match s.object {
                Some((tag, index)) => (
                    format!("{} of {}", s.attribute, w.pick_label(&Pick::Object(tag, index), &seen)),
                    s.value,
                ),
                None => (s.attribute.to_string(), s.value),
            })
            .collect();
        if !secrets.is_empty() {
            view.sections.push(crate::view::Section::Attributes { title: "secrets".into(), items: secrets });
        }
        let core = w.core();
        Observation::assemble(
            viewer,
            core.players,
            census,
            view,
            core.log_for(viewer),
            |tag, index| w.pick_label(&Pick::Object(tag, index), &seen),
            |tag, index| w.object_look(tag, index),
        )
    }

    /// The world as it is now, to run a move (or setup) from again: see [`Base`].
    fn save_base(&mut self) -> Base<R> {
        let log = LogParts::take(self.world.core_mut());
        let marks = log.marks();
        let world = match self.spare_world.0.take() {
            Some(mut spare) => {
                spare.copy_from(&self.world);
                spare
            }
            None => self.world.clone(),
        };
        log.put(self.world.core_mut());
        Base { world, marks }
    }

    /// Re-runs a stopped move (or setup) from `base` with `answers`, and puts what follows.
    fn resume(&mut self, origin: Origin<R::Move>, base: Base<R>, answers: Vec<Answer>) {
        // The live log begins with the lines `base` left out; what the run wrote after them
        // is written again.
        let mut log = LogParts::take(self.world.core_mut());
        log.cut(base.marks);
        self.world.copy_from(&base.world);
        log.put(self.world.core_mut());
        let replay = &mut self.world.core_mut().replay;
        replay.answers.clone_from(&answers);
        replay.cursor = 0;
        let result = self.run(&origin);
        // Forget the answers but keep the question the run may have stopped at:
        // `settle` puts it (a move can ask several inputs).
        let replay = &mut self.world.core_mut().replay;
        replay.answers.clear();
        replay.cursor = 0;
        // Only the saved world remembers where chance becomes fresh.
        replay.fresh = None;
        self.settle(result, origin, Some(base), answers);
    }

    /// An option's label as `seen` may read it.
    fn base_label(&self, choice: &Choice<R::Move>, seen: &Seen) -> String {
        match choice {
            Choice::Move(mv) => self.world.move_label(mv, seen),
            Choice::Pick(p) => self.world.pick_label(p, seen),
            Choice::Chance(i) => match self.pending.as_ref().and_then(|p| p.chance.as_ref()) {
                Some(ChanceEvent::Roll(_)) => format!("rolls {}", u64::from(*i) + 1),
                Some(ChanceEvent::Deal { tag, objects }) => match objects.get(*i as usize) {
                    Some(&o) => self.world.pick_label(&Pick::Object(*tag, o), seen),
                    None => String::new(),
                },
                _ => format!("position {i}"),
            },
        }
    }

    /// What `viewer` may see of the world's objects: everything for the designer.
    fn seen_by(&self, viewer: Viewer) -> Seen {
        if viewer == Viewer::All || !R::hidden() {
            Seen::all()
        } else {
            Seen::new(viewer, &self.world.census())
        }
    }

    /// `label` with where its object stands: `R at Square(0, 4): move Square(0, 3)` for a
    /// move of the piece, `R at Square(0, 4)` for the piece as an answer. Only objects on
    /// tiles have a place, and everyone sees those: nothing hidden is named.
    fn qualified(&self, choice: &Choice<R::Move>, label: &str, seen: &Seen) -> Option<String> {
        let w = &self.world;
        match *choice {
            Choice::Move(mv) => {
                let (tag, index) = w.move_subject(&mv)?;
                let place = w.object_place(tag, index)?;
                let subject = w.pick_label(&Pick::Object(tag, index), seen);
                Some(match label.strip_prefix(subject.as_str()).filter(|rest| rest.starts_with(':')) {
                    Some(rest) => format!("{subject} at {place}{rest}"),
                    None => format!("{label} (at {place})"),
                })
            }
            Choice::Pick(Pick::Object(tag, index)) => {
                Some(format!("{label} at {}", w.object_place(tag, index)?))
            }
            Choice::Pick(_) | Choice::Chance(_) => None,
        }
    }

    fn fail(&mut self, e: RuleError) {
        self.round = None;
        self.options.clear();
        self.error = Some(e);
        self.status = Status::Failed;
    }

    /// Answers the input or chance event the pending run stopped at, and runs on.
    fn answer(&mut self, answer: Answer) -> Result<(), ApplyError> {
        let Some(pending) = self.pending.take() else {
            return Err(ApplyError::NotDeciding);
        };
        let Pending { origin, base, mut answers, .. } = *pending;
        answers.push(answer);
        self.resume(origin, base, answers);
        Ok(())
    }

    /// In a game played for real, marks every object that can be hidden as seen by each
    /// seat that sees it now.
    fn note_seen(&mut self) {
        if !R::hidden() {
            return;
        }
        let Some(observed) = &mut self.observed else { return };
        // A card that went into a closed deck, or was dealt off a shuffled one, is
        // forgotten: where it went is what the deck hides, and redistribution may then
        // draw it anywhere hidden.
        for key in std::mem::take(&mut self.world.core_mut().chance.dealt) {
            observed.seen.remove(&key);
        }
        let census = self.world.census();
        for o in &census.objects {
            let mask = observed.seen.entry((o.tag, o.index)).or_default();
            for seat in 0..self.world.core().players.min(64) {
                if !o.hidden_from(Viewer::Seat(seat)) {
                    *mask |= 1 << seat;
                } else if matches!(o.place, crate::hidden::Place::Stack { .. }) {
                    *mask &= !(1 << seat);
                }
            }
        }
    }

    /// Whether redistributing the objects hidden from `player` gives the worlds a replay of
    /// their information state would: the compiler found that hidden objects carry only
    /// what they were created with and nothing public points at one (`Rules::POOL_RESAMPLING`),
    /// and here the player has not seen any of the objects now hidden from them since they
    /// last went into a closed deck (a card seen in a hand that is hidden again is not like
    /// the others; one seen go into a deck is forgotten), and no chance was drawn in the
    /// move being made, and every object a public attribute may point at is visible.
    fn pool_applies(&self, player: u32) -> bool {
        let Some(observed) = &self.observed else { return false };
        let census = self.world.census();
        let viewer = Viewer::Seat(player);
        let unseen = census.objects.iter().filter(|o| o.hidden_from(viewer)).all(|o| {
            observed.seen.get(&(o.tag, o.index)).is_none_or(|mask| player >= 64 || mask & (1 << player) == 0)
        });
        let hidden_referenced = self.world.referenced().into_iter().any(|(tag, index)| {
            census.objects.iter().any(|o| o.tag == tag && o.index == index && o.hidden_from(viewer))
        });
        let drawn_in_move = self.pending.as_ref().is_some_and(|p| {
            p.base.world.core().chance.record.as_ref().map(Vec::len)
                != self.world.core().chance.record.as_ref().map(Vec::len)
        });
        unseen && !hidden_referenced && !drawn_in_move
    }

    /// The same game with the objects hidden from `player` redistributed among the places
    /// hidden from them, still observed (its record and marks kept): a second world with
    /// the same information state for `player`, where [`Game::pool_sample`] applies (for
    /// tests of search agents' fairness).
    pub fn redistributed(&self, player: u32, rng: &mut Rng) -> Option<Self> {
        self.redistribute_for(player, rng, true)
    }

    /// [`Game::pool_sample`], keeping what the game observed or not (a search's samples do
    /// not: their play is not anyone's information).
    fn redistribute_for(&self, player: u32, rng: &mut Rng, keep_observed: bool) -> Option<Self> {
        if !matches!(self.status, Status::Decide(_)) || self.explicit() {
            return None;
        }
        if R::hidden() && (!R::pool_resampling() || !self.pool_applies(player)) {
            return None;
        }
        let mut game = self.clone();
        if !keep_observed {
            game.observed = None;
            game.world.core_mut().chance.record = None;
        }
        let fresh = rng.next_u64();
        if !R::hidden() {
            // Nothing hidden: the same state with unknown chance ahead. In the middle of a
            // move, the dice it rolled before asking stay as they fell (everyone saw
            // them): the move is replayed with its generator, fresh from the answer on.
            match &mut game.pending {
                None => game.world.core_mut().rng = GameRng::new(fresh.into()),
                Some(pending) => {
                    pending.base.world.core_mut().replay.fresh = Some((pending.answers.len(), fresh))
                }
            }
            // Everything else is in plain view; what the others chose in a round is not.
            game.forget_round_choices();
            crate::information::choose_blindly(&mut game, &self.chosen_by_others(player), rng).ok()?;
            return Some(game);
        }
        match game.pending.take() {
            None => {
                hidden::redistribute(&mut game.world, player, rng)?;
                game.world.core_mut().rng = GameRng::new(fresh.into());
                game.options.clear();
                game.round = None;
                game.build_menu();
                crate::information::choose_blindly(&mut game, &self.chosen_by_others(player), rng).ok()?;
            }
            // Chance drawn earlier in this move is ruled out (`pool_applies`): the move
            // replays from a redistributed world with the same answers.
            Some(pending) => {
                let Pending { origin, mut base, answers, .. } = *pending;
                hidden::redistribute(&mut base.world, player, rng)?;
                base.world.core_mut().rng = GameRng::new(fresh.into());
                game.resume(origin, base, answers);
            }
        }
        Some(game)
    }

    /// The chance event the game waits for, at [`Status::Chance`].
    pub fn chance_event(&self) -> Option<&ChanceEvent> {
        self.pending.as_ref()?.chance.as_ref()
    }

    /// What this game drew so far, when it records.
    pub fn chance_record(&self) -> Option<&[u64]> {
        self.world.core().chance.record.as_deref()
    }
}

/// How an explicit game's chance event is put (the prompt at [`Status::Chance`]).
fn chance_prompt(event: &ChanceEvent) -> String {
    match event {
        ChanceEvent::Roll(n) => format!("chance: roll({n})"),
        ChanceEvent::Step(n) => format!("chance: shuffle, one of {n}"),
        ChanceEvent::Deal { objects, .. } => format!("chance: the next of {} shuffled", objects.len()),
        ChanceEvent::Unit => "chance: random()".to_string(),
    }
}

impl<R: Rules> Game for Engine<R> {
    type Move = R::Move;

    fn info() -> GameInfo {
        R::info()
    }

    fn start(players: u32, seed: u64) -> Result<Self, StartError> {
        Self::start_with(&Start::seeded(players, seed.into()))
    }

    fn start_with(start: &Start) -> Result<Self, StartError> {
        check_players::<R>(start.players)?;
        let mut core = Core::new(start.players, start.seed);
        core.params = start.params.resolve(R::info().params).map_err(StartError::Param)?;
        core.chance = Chance::new(start.chance);
        if start.record {
            core.chance.record = Some(Vec::new());
        }
        let mut engine = Engine {
            world: R::new(core),
            pending: None,
            // Room for most menus, so playouts rarely grow it.
            options: Vec::with_capacity(16),
            status: Status::Over,
            error: None,
            decisions: 0,
            observed: start.record.then(Box::default),
            round: None,
            spare_world: SpareWorld::default(),
        };
        engine.run_setup();
        engine.note_seen();
        Ok(engine)
    }

    fn restart(&mut self, players: u32, seed: u64) -> Result<(), StartError> {
        check_players::<R>(players)?;
        self.world.restart(players, seed.into());
        self.pending = None;
        self.round = None;
        self.status = Status::Over;
        self.error = None;
        self.decisions = 0;
        self.observed = None;
        self.run_setup();
        Ok(())
    }

    fn players(&self) -> u32 {
        self.world.core().players
    }

    fn status(&self) -> Status {
        self.status
    }

    fn options(&self) -> &[Choice<R::Move>] {
        &self.options
    }

    fn apply(&mut self, index: usize) -> Result<(), ApplyError> {
        if !matches!(self.status, Status::Decide(_) | Status::Chance) {
            return Err(ApplyError::NotDeciding);
        }
        if R::simultaneous() && self.round.is_some() {
            let Status::Decide(p) = self.status else { return Err(ApplyError::NotDeciding) };
            self.choose_in_round(p.0, index)?;
            self.note_seen();
            return Ok(());
        }
        let Some(&choice) = self.options.get(index) else {
            return Err(ApplyError::OutOfRange { index, options: self.options.len() });
        };
        // Chance's outcomes are not decisions of the players.
        if self.status != Status::Chance {
            self.decisions += 1;
            if let Some(observed) = &mut self.observed {
                observed.decisions.push(index as u32);
            }
        }
        match choice {
            // The hot path of every playout: a move that cannot ask an input needs no copy
            // of the world and no replay state (no input is pending while moves are offered).
            Choice::Move(mv) if !R::may_ask(&mv) && !self.explicit() => {
                debug_assert!(self.pending.is_none());
                let result = self.run(&Origin::Move(mv));
                match result {
                    Ok(()) => self.update_menu(),
                    Err(stop) => {
                        self.options.clear();
                        self.stopped(stop, Origin::Move(mv), None, Vec::new())
                    }
                }
            }
            Choice::Move(mv) => {
                let base = Some(self.save_base());
                let result = self.run(&Origin::Move(mv));
                self.settle(result, Origin::Move(mv), base, Vec::new());
            }
            Choice::Pick(pick) => self.answer(Answer::Pick(pick))?,
            Choice::Chance(i) => self.answer(Answer::Chance(i))?,
        }
        self.note_seen();
        Ok(())
    }

    fn label(&self, index: usize) -> String {
        let Some(choice) = self.options.get(index) else { return String::new() };
        let all = Seen::all();
        let label = self.base_label(choice, &all);
        // Most labels are unique: the others are read only to check.
        if self.options.iter().enumerate().all(|(j, c)| j == index || self.base_label(c, &all) != label) {
            return label;
        }
        self.labels().swap_remove(index)
    }

    fn labels(&self) -> Vec<String> {
        self.labels_for(Viewer::All)
    }

    fn labels_for(&self, viewer: Viewer) -> Vec<String> {
        if let (Some(round), Status::Decide(p)) = (&self.round, self.status) {
            let k = round.players.iter().position(|&q| q == p.0).unwrap_or(0);
            return self.round_labels(k, viewer).unwrap_or_default();
        }
        let seen = self.seen_by(viewer);
        let mut labels: Vec<String> = self.options.iter().map(|c| self.base_label(c, &seen)).collect();
        // Twins are numbered only for whoever picks among them: another seat reading the
        // menu would learn from the numbers the order of objects hidden from it.
        let deciding = match (viewer, self.status) {
            (Viewer::All, _) => true,
            (Viewer::Seat(s), Status::Decide(p)) => s == p.0,
            _ => false,
        };
        distinguish(&mut labels, |i, label| self.qualified(&self.options[i], label, &seen), deciding);
        labels
    }

    fn prompt(&self) -> String {
        match (&self.pending, self.status) {
            (Some(p), _) => p.prompt.clone(),
            (None, Status::Decide(_)) => "choose a move".to_string(),
            _ => String::new(),
        }
    }

    fn outcome(&self) -> Option<&Outcome> {
        if self.status == Status::Over { self.world.core().outcome.as_ref() } else { None }
    }

    fn error(&self) -> Option<&RuleError> {
        self.error.as_ref()
    }

    fn log(&self) -> &[String] {
        &self.world.core().log
    }

    fn view(&self) -> View {
        self.observation(Viewer::All).view
    }

    fn observation(&self, viewer: Viewer) -> Observation {
        let mut observation = self.observe_with(viewer, &self.world.census());
        observation.round = self.round.as_ref().map(|r| r.public());
        observation
    }

    /// Objects and secrets that can be hidden, or choices made in a round that the others
    /// are not told of until it closes.
    fn has_hidden_information() -> bool {
        R::hidden() || R::simultaneous()
    }

    fn has_simultaneous_turns() -> bool {
        R::simultaneous()
    }

    fn round(&self) -> Option<Round> {
        self.round.as_ref().map(|r| r.public())
    }

    fn options_of(&self, player: u32) -> &[Choice<R::Move>] {
        if let Some(round) = &self.round {
            return match round.players.iter().position(|&p| p == player) {
                Some(k) if round.chosen[k].is_none() => &round.menus[k],
                _ => &[],
            };
        }
        match self.status {
            Status::Decide(p) if p.0 == player => &self.options,
            _ => &[],
        }
    }

    fn things_of(&self, player: u32, viewer: Viewer) -> Vec<Vec<String>> {
        // A round's menus are read off their labels.
        if self.round.is_some() || self.status != Status::Decide(Player(player)) {
            return Vec::new();
        }
        let seen = self.seen_by(viewer);
        self.options
            .iter()
            .map(|choice| match choice {
                Choice::Move(mv) => self.world.move_things(mv, &seen),
                Choice::Pick(_) | Choice::Chance(_) => Vec::new(),
            })
            .collect()
    }

    fn labels_of(&self, player: u32, viewer: Viewer) -> Vec<String> {
        if let Some(round) = &self.round {
            return match round.players.iter().position(|&p| p == player) {
                Some(k) if round.chosen[k].is_none() => self.round_labels(k, viewer).unwrap_or_default(),
                _ => Vec::new(),
            };
        }
        match self.status {
            Status::Decide(p) if p.0 == player => self.labels_for(viewer),
            _ => Vec::new(),
        }
    }

    fn apply_for(&mut self, player: u32, index: usize) -> Result<(), ApplyError> {
        if self.round.is_some() {
            self.choose_in_round(player, index)?;
            self.note_seen();
            return Ok(());
        }
        match self.status {
            Status::Decide(p) if p.0 == player => self.apply(index),
            _ => Err(ApplyError::NotDeciding),
        }
    }

    fn log_for(&self, viewer: Viewer) -> Vec<String> {
        self.world.core().log_for(viewer)
    }

    fn why(&self, seat: u32, label: &str) -> Option<Vec<String>> {
        R::why(self, seat, label)
    }

    fn hidden_from(&self, viewer: Viewer) -> Vec<String> {
        let census = self.world.census();
        let mut out: Vec<String> = census
            .objects
            .iter()
            .filter(|o| o.hidden_from(viewer))
            .map(|o| self.world.pick_label(&Pick::Object(o.tag, o.index), &Seen::all()))
            .collect();
        out.extend(self.world.secrets().into_iter().filter(|s| !s.seen_by(viewer)).map(|s| s.value));
        out
    }

    /// Without hidden information, the same game with unknown chance ahead; with it, the
    /// fast path of [`Game::pool_sample`] where it applies, and otherwise a world drawn from
    /// the player's information state ([`crate::information`]).
    fn determinize(&self, player: u32, rng: &mut Rng) -> Result<Self, DeterminizeError> {
        let in_round = self.round.as_ref().is_some_and(|r| r.public().waits_for(player));
        if self.status != Status::Decide(Player(player)) && !in_round {
            return Err(DeterminizeError::NotDeciding);
        }
        if let Some(game) = self.pool_sample(player, rng) {
            return Ok(game);
        }
        let info = InfoState::of(self, player).map_err(DeterminizeError::Sample)?;
        Sampler::new(info).sample(rng).map_err(DeterminizeError::Sample)
    }

    fn determinize_into(&self, player: u32, rng: &mut Rng, into: &mut Self) -> Result<(), DeterminizeError> {
        if R::hidden()
            || R::simultaneous()
            || self.pending.is_some()
            || !matches!(self.status, Status::Decide(_))
        {
            *into = self.determinize(player, rng)?;
            return Ok(());
        }
        // Nothing hidden and no move half done: a copy with unknown chance ahead.
        into.world.copy_from(&self.world);
        into.world.core_mut().rng = GameRng::new(rng.next_u64().into());
        into.pending = None;
        into.options.clone_from(&self.options);
        into.status = self.status;
        into.error.clone_from(&self.error);
        into.decisions = self.decisions;
        into.observed = None;
        Ok(())
    }

    fn pool_sample(&self, player: u32, rng: &mut Rng) -> Option<Self> {
        self.redistribute_for(player, rng, false)
    }

    fn chance_event(&self) -> Option<ChanceEvent> {
        Engine::chance_event(self).cloned()
    }

    fn answer_unit(&mut self, bits: u64) -> Result<(), ApplyError> {
        if !matches!(Engine::chance_event(self), Some(ChanceEvent::Unit)) {
            return Err(ApplyError::NotDeciding);
        }
        self.answer(Answer::Unit(bits))?;
        self.note_seen();
        Ok(())
    }

    fn chance_label_for(&self, event: &ChanceEvent, outcome: u32, viewer: Viewer) -> String {
        match event {
            ChanceEvent::Deal { tag, objects } => match objects.get(outcome as usize) {
                Some(&o) => {
                    format!("deals {}", self.world.pick_label(&Pick::Object(*tag, o), &self.seen_by(viewer)))
                }
                None => String::new(),
            },
            event => crate::chance::plain_label(event, outcome, viewer == Viewer::All || !R::hidden()),
        }
    }

    fn record(&self) -> Option<Record> {
        let observed = self.observed.as_ref()?;
        Some(Record {
            players: self.world.core().players,
            params: crate::params::Params::of_values(&self.world.core().params),
            decisions: observed.decisions.clone(),
            chance: self.world.core().chance.record.clone()?,
        })
    }

    fn sample_chance(&mut self, rng: &mut Rng) -> Result<(), ApplyError> {
        match Engine::chance_event(self) {
            Some(ChanceEvent::Unit) => self.answer_unit(rng.unit().to_bits()),
            Some(event) => {
                let n = event.outcomes();
                self.apply(rng.below(n) as usize)
            }
            None => Err(ApplyError::NotDeciding),
        }
    }

    fn decisions(&self) -> u64 {
        self.decisions
    }
}

/// Makes equal labels distinct: each label shared by several options becomes
/// `qualify(i, label)` (where its object stands) when that tells them apart, and those still
/// equal are numbered in order, `7 of hearts (1)`, `7 of hearts (2)`, when `number` is set.
pub fn distinguish(labels: &mut [String], qualify: impl Fn(usize, &str) -> Option<String>, number: bool) {
    use std::collections::HashMap;
    fn shared(labels: &[String]) -> Vec<usize> {
        let mut count: HashMap<&str, usize> = HashMap::new();
        for l in labels {
            *count.entry(l.as_str()).or_default() += 1;
        }
        (0..labels.len()).filter(|&i| count[labels[i].as_str()] > 1).collect()
    }
    let twins = shared(labels);
    if twins.is_empty() {
        return;
    }
    for i in twins {
        if let Some(q) = qualify(i, &labels[i]) {
            labels[i] = q;
        }
    }
    if !number {
        return;
    }
    let twins = shared(labels);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for i in twins {
        let k = seen.entry(labels[i].clone()).or_default();
        *k += 1;
        labels[i] = format!("{} ({k})", labels[i]);
    }
}
