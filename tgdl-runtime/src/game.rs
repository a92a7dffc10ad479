//! The one interface every engine implements, generated or hand-written: who decides now,
//! between which options, apply a choice, the outcome. Agents, the terminal, simulation,
//! perft and traces are written once against it.

pub use crate::chance::ChanceMode;
use crate::error::RuleError;
use crate::hidden::{DeterminizeError, Observation, Viewer};
use crate::rng::Rng;
use crate::value::Player;
use crate::view::View;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// Static facts about a game, from its `game` directive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameInfo {
    pub name: &'static str,
    /// The main `.tgdl` file the engine was generated from.
    pub source: &'static str,
    pub min_players: u32,
    pub max_players: u32,
    /// The game's parameters (`param ...;`), in declaration order.
    pub params: &'static [crate::params::ParamSpec],
}

/// A round of a simultaneous turn being chosen: the players who choose together, in seat
/// order, and which of them have chosen. Public: everyone may know who has chosen, nobody
/// what.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Round {
    pub players: Vec<u32>,
    pub chosen: Vec<bool>,
}

impl Round {
    /// Whether `player` is in the round and has yet to choose.
    pub fn waits_for(&self, player: u32) -> bool {
        self.players.iter().zip(&self.chosen).any(|(&p, &c)| p == player && !c)
    }

    /// Whether nobody has chosen yet.
    pub fn is_fresh(&self) -> bool {
        !self.chosen.contains(&true)
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// `player` must choose one of [`Game::options`].
    Decide(Player),
    /// Chance decides: one of [`Game::options`] (each an outcome, see
    /// [`Game::chance_outcomes`]), or, when there are none, a value [`Game::sample_chance`]
    /// draws. Only a game started with [`ChanceMode::Explicit`] stops here; a seeded game
    /// draws chance from its generator as it plays.
    Chance,
    /// The game ended with `winner`; see [`Game::outcome`].
    Over,
    /// A rule error stopped the game; see [`Game::error`].
    Failed,
}

/// The final ranking: `places[0]` holds the players in first place (several when tied).
/// Every player appears exactly once. A game that ends with `payoffs` also says what each
/// player gets (chips, points), in seat order: the players' returns. A game that ends with
/// `winners` is a team result: `team` holds the players who won together (all of them:
/// the players won; none: the players lost), everyone else lost together.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Outcome {
    pub places: Vec<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payoffs: Option<Vec<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<Vec<u32>>,
}

// Payoffs are finite numbers (the engine refuses others), compared by their bits so that an
// outcome can be a key.
impl PartialEq for Outcome {
    fn eq(&self, other: &Outcome) -> bool {
        let bits =
            |p: &Option<Vec<f64>>| p.as_ref().map(|v| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
        self.places == other.places && bits(&self.payoffs) == bits(&other.payoffs) && self.team == other.team
    }
}

impl Eq for Outcome {}

impl std::hash::Hash for Outcome {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.places.hash(state);
        if let Some(p) = &self.payoffs {
            for x in p {
                x.to_bits().hash(state);
            }
        }
        self.team.hash(state);
    }
}

impl Outcome {
    /// Normalises a `winner` ranking: a player listed twice keeps their better place, empty
    /// places are dropped, players not listed share last place.
    pub fn from_ranking(ranking: &[Vec<Player>], players: u32) -> Outcome {
        let mut seen = vec![false; players as usize];
        let mut places = Vec::new();
        for place in ranking {
            let mut group: Vec<u32> = Vec::new();
            for p in place {
                if let Some(s) = seen.get_mut(p.0 as usize) {
                    if !*s {
                        *s = true;
                        group.push(p.0);
                    }
                }
            }
            if !group.is_empty() {
                group.sort_unstable();
                places.push(group);
            }
        }
        let rest: Vec<u32> = (0..players).filter(|&p| !seen[p as usize]).collect();
        if !rest.is_empty() {
            places.push(rest);
        }
        Outcome { places, ..Outcome::default() }
    }

    /// A team result (`winners`): the players of `team` won together, the others lost
    /// together. A player listed twice or out of range counts once or not at all.
    pub fn from_team(team: &[Player], players: u32) -> Outcome {
        let mut won: Vec<u32> = team.iter().map(|p| p.0).filter(|&p| p < players).collect();
        won.sort_unstable();
        won.dedup();
        let lost: Vec<u32> = (0..players).filter(|p| won.binary_search(p).is_err()).collect();
        let places = [won.clone(), lost].into_iter().filter(|place| !place.is_empty()).collect();
        Outcome { places, payoffs: None, team: Some(won) }
    }

    /// The ranking payoffs give: more is better, equal payoffs tie.
    pub fn from_payoffs(payoffs: Vec<f64>) -> Outcome {
        let mut order: Vec<u32> = (0..payoffs.len() as u32).collect();
        order.sort_by(|&a, &b| payoffs[b as usize].total_cmp(&payoffs[a as usize]).then(a.cmp(&b)));
        let mut places: Vec<Vec<u32>> = Vec::new();
        let mut last: Option<f64> = None;
        for p in order {
            let x = payoffs[p as usize];
            match places.last_mut() {
                Some(place) if last == Some(x) => place.push(p),
                _ => places.push(vec![p]),
            }
            last = Some(x);
        }
        Outcome { places, payoffs: Some(payoffs), team: None }
    }

    /// Each player's return: the payoffs when the game gives them; else, for a team result,
    /// 1 for the winners and 0 for the others; else from the ranking, 1 for first place, 0
    /// for last, evenly between, ½ each in a draw.
    pub fn returns(&self, players: u32) -> Vec<f64> {
        match &self.payoffs {
            Some(p) => p.clone(),
            None => (0..players).map(|p| self.rank_reward(p)).collect(),
        }
    }

    /// Player `p`'s return, as [`Outcome::returns`] gives it.
    #[inline]
    pub fn return_of(&self, p: u32) -> f64 {
        match &self.payoffs {
            Some(payoffs) => payoffs.get(p as usize).copied().unwrap_or(0.0),
            None => self.rank_reward(p),
        }
    }

    fn rank_reward(&self, p: u32) -> f64 {
        if let Some(team) = &self.team {
            return if team.contains(&p) { 1.0 } else { 0.0 };
        }
        let places = self.places.len();
        if places <= 1 {
            0.5
        } else {
            let place = self.place_of(p).min(places - 1);
            (places - 1 - place) as f64 / (places - 1) as f64
        }
    }

    /// `2, -2`: the payoffs in seat order.
    pub fn describe_payoffs(&self) -> Option<String> {
        let p = self.payoffs.as_ref()?;
        Some(p.iter().map(|x| crate::value::fmt_number(*x)).collect::<Vec<_>>().join(", "))
    }

    pub fn winner(p: Player, players: u32) -> Outcome {
        Outcome::from_ranking(&[vec![p]], players)
    }

    /// 0-based place of a player.
    pub fn place_of(&self, player: u32) -> usize {
        self.places.iter().position(|g| g.contains(&player)).unwrap_or(self.places.len())
    }

    /// All players share first place, and it is not a team result (where all the players
    /// winning, or all losing, is no draw).
    pub fn is_draw(&self) -> bool {
        self.places.len() <= 1 && self.team.is_none()
    }

    /// A team result that every player won together (`winners player.all();`).
    pub fn all_won(&self) -> bool {
        self.team.as_ref().is_some_and(|team| team.len() == self.places.iter().map(Vec::len).sum::<usize>())
    }

    /// A team result that every player lost together (`winners {};`).
    pub fn all_lost(&self) -> bool {
        self.team.as_ref().is_some_and(Vec::is_empty)
    }

    /// Whether `player` won: the single winner, or one of a team that won together.
    pub fn is_winner(&self, player: u32) -> bool {
        match &self.team {
            Some(team) => team.contains(&player),
            None => self.sole_winner() == Some(player),
        }
    }

    /// The single winner, if there is exactly one player in first place.
    pub fn sole_winner(&self) -> Option<u32> {
        if let Some(team) = &self.team {
            return match team[..] {
                [w] => Some(w),
                _ => None,
            };
        }
        match self.places.first() {
            Some(first) if first.len() == 1 && self.places.len() > 1 => Some(first[0]),
            _ => None,
        }
    }

    /// `player 0 wins`, `draw`, or the full ranking — the text of the `result:` line —
    /// followed by the payoffs when the game gives them (`player 0 wins; payoffs 2, -2`).
    pub fn describe(&self) -> String {
        match self.describe_payoffs() {
            Some(payoffs) => format!("{}; payoffs {payoffs}", self.describe_ranking()),
            None => self.describe_ranking(),
        }
    }

    fn describe_ranking(&self) -> String {
        if let Some(team) = &self.team {
            return describe_team(team, self.places.iter().map(Vec::len).sum());
        }
        if self.is_draw() {
            return "draw".to_string();
        }
        if let Some(w) = self.sole_winner() {
            if self.places.len() == 2 {
                return format!("player {w} wins");
            }
        }
        let places: Vec<String> = self
            .places
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let who: Vec<String> = g.iter().map(|p| p.to_string()).collect();
                let noun = if g.len() == 1 { "player" } else { "players" };
                format!("{}. {noun} {}", i + 1, who.join(", "))
            })
            .collect();
        format!("ranking {}", places.join("; "))
    }
}

/// `the players win`, `the players lose`, `players 0, 2 win`: a team result's text.
fn describe_team(team: &[u32], players: usize) -> String {
    match team {
        [] if players == 1 => "player 0 loses".to_string(),
        [] => "the players lose".to_string(),
        [w] => format!("player {w} wins"),
        _ if team.len() == players => "the players win".to_string(),
        _ => {
            let who: Vec<String> = team.iter().map(u32::to_string).collect();
            format!("players {} win", who.join(", "))
        }
    }
}

/// An answer to an input: a value of the input's domain, or "done" to end a list input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pick {
    /// An object: its arena (a per-game type tag) and index in creation order.
    Object(u32, u32),
    Player(u32),
    Bool(bool),
    /// A number from an input's `in` list, as the bits of its `f64` (see
    /// [`Pick::of_number`]: equal numbers give equal picks).
    Number(u64),
    /// No value (an `optional` input left empty).
    Null,
    /// End of a list input.
    Done,
}

/// What a game keeps of how it was played, for its players' information states: how it
/// started, every decision (the option chosen) and every chance outcome (as
/// [`crate::chance::Chance::record`] keeps them), in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub players: u32,
    /// The parameters it started with.
    pub params: crate::params::Params,
    pub decisions: Vec<u32>,
    pub chance: Vec<u64>,
}

/// How to start a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Start {
    pub players: u32,
    /// The seed of the game's chance: 128 bits (a seed drawn for a game played for real
    /// has them all; a smaller number is a seed too).
    pub seed: u128,
    pub chance: ChanceMode,
    /// Whether the game keeps a record of how it is played — every decision and every
    /// chance outcome — from which its players' information states are read
    /// ([`crate::information`]): a game played for real, with search agents at the table.
    pub record: bool,
    /// The values of the game's parameters (default: their defaults).
    pub params: crate::params::Params,
}

impl Start {
    /// A seeded game of `players` players.
    pub fn seeded(players: u32, seed: u128) -> Start {
        Start { players, seed, chance: ChanceMode::Seeded, record: false, params: Default::default() }
    }

    /// A game whose chance events are decisions of their own.
    pub fn explicit(players: u32) -> Start {
        Start { players, seed: 0, chance: ChanceMode::Explicit, record: false, params: Default::default() }
    }

    /// A game played for real, with agents or people at the table: seeded, and keeping its
    /// record when anything in it can be hidden, so that search agents imagine only what
    /// their seat has seen ([`crate::information`]).
    pub fn observed<G: Game>(players: u32, seed: u128) -> Start {
        Start { record: G::has_hidden_information(), ..Start::seeded(players, seed) }
    }

    /// The same start, keeping a record of the play.
    pub fn recording(self) -> Start {
        Start { record: true, ..self }
    }

    /// The same start with these parameter values.
    pub fn with_params(self, params: crate::params::Params) -> Start {
        Start { params, ..self }
    }
}

/// One option of a decision: a move of the turn menu, an answer to an input, or (at
/// [`Status::Chance`]) an outcome of the chance event, by its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Choice<M> {
    Move(M),
    Pick(Pick),
    Chance(u32),
}

/// Why [`Game::apply`] refused a choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApplyError {
    /// The game is over or failed: nobody decides.
    NotDeciding,
    /// The index is not one of the current options.
    OutOfRange { index: usize, options: usize },
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::NotDeciding => write!(f, "the game is not waiting for a decision"),
            ApplyError::OutOfRange { index, options } => {
                write!(f, "option {index} does not exist (there are {options})")
            }
        }
    }
}

impl std::error::Error for ApplyError {}

/// Why a game could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The player count is outside the bounds of the `game` directive.
    Players { given: u32, min: u32, max: u32 },
    /// A parameter value does not fit its declaration.
    Param(crate::params::ParamError),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Players { given, min, max } if min == max => {
                write!(f, "this game is for {min} players, not {given}")
            }
            StartError::Players { given, min, max } => {
                write!(f, "this game is for {min} to {max} players, not {given}")
            }
            StartError::Param(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StartError {}

/// A game engine. States are plain values: clone one to search, undo or branch, at any
/// decision point — also in the middle of an effect.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move of the turn menu, as data.
    type Move: Copy + Eq + std::hash::Hash + Debug + Send + Sync + 'static;

    fn info() -> GameInfo;

    /// A new game; `setup` has run and the first decision is ready.
    fn start(players: u32, seed: u64) -> Result<Self, StartError>;

    /// A new game as `start` says. Engines without chance play the same game in both
    /// modes; the default starts a seeded one, from the seed's low 64 bits.
    fn start_with(start: &Start) -> Result<Self, StartError> {
        Self::start(start.players, start.seed as u64)
    }

    /// Turns this value into the game `start(players, seed)` would give. Engines may
    /// reuse their allocations (a playout loop restarts one game many times).
    fn restart(&mut self, players: u32, seed: u64) -> Result<(), StartError> {
        *self = Self::start(players, seed)?;
        Ok(())
    }

    fn players(&self) -> u32;

    fn status(&self) -> Status;

    /// The options of the current decision, in the engine's fixed order (empty when the
    /// game is over or failed).
    fn options(&self) -> &[Choice<Self::Move>];

    /// Chooses `options()[index]` for the player who decides now (or the outcome of the
    /// chance event waiting, at [`Status::Chance`]).
    fn apply(&mut self, index: usize) -> Result<(), ApplyError>;

    /// Whether the game has simultaneous turns: rounds where players choose together
    /// ([`Game::round`]).
    fn has_simultaneous_turns() -> bool {
        false
    }

    /// The round of simultaneous choices under way, if any (`turn T { simultaneous { ... } }`).
    /// A round is also put as decisions one after another, in seat order
    /// ([`Status::Decide`] names the first player yet to choose), so that code that knows
    /// nothing of rounds plays them; what a player chose is hidden from the others until
    /// the round closes.
    fn round(&self) -> Option<Round> {
        None
    }

    /// The options of `player` now: at its decision, or in a round it has yet to choose in
    /// (empty otherwise).
    fn options_of(&self, player: u32) -> &[Choice<Self::Move>] {
        match self.status() {
            Status::Decide(p) if p.0 == player => self.options(),
            _ => &[],
        }
    }

    /// The labels of [`Game::options_of`]`(player)` as `viewer` may read them: another seat
    /// reads a choice of a round as a secret.
    fn labels_of(&self, player: u32, viewer: Viewer) -> Vec<String> {
        match self.status() {
            Status::Decide(p) if p.0 == player => self.labels_for(viewer),
            _ => Vec::new(),
        }
    }

    /// What each of [`Game::labels_of`]`(player, viewer)` names, in order, as `viewer` may
    /// read it: a move's object and inputs, as their labels write them (a table lights
    /// them as a person points), for moves a game writes in its own words (`e2-e4`).
    /// Empty for the others, whose labels name their things (`step from=Square(0, 6)
    /// to=Square(0, 5)`).
    fn things_of(&self, _player: u32, _viewer: Viewer) -> Vec<Vec<String>> {
        Vec::new()
    }

    /// Chooses `options_of(player)[index]` for `player`: in a round, any player yet to
    /// choose, in any order (the round closes when the last has chosen).
    fn apply_for(&mut self, player: u32, index: usize) -> Result<(), ApplyError> {
        match self.status() {
            Status::Decide(p) if p.0 == player => self.apply(index),
            _ => Err(ApplyError::NotDeciding),
        }
    }

    /// At [`Status::Chance`]: the event, which says what each option is.
    fn chance_event(&self) -> Option<crate::chance::ChanceEvent> {
        None
    }

    /// At [`Status::Chance`] for `random()` (no options): gives it the value whose bits are
    /// `bits`, a number in `[0, 1)`.
    fn answer_unit(&mut self, _bits: u64) -> Result<(), ApplyError> {
        Err(ApplyError::NotDeciding)
    }

    /// How the game was played since it started, when it keeps a record
    /// ([`Start::record`]): what players' information states are read from.
    fn record(&self) -> Option<Record> {
        None
    }

    /// A game consistent with what `player` has seen, drawn with `rng` by redistributing
    /// the objects hidden from them among the places hidden from them, when that provably
    /// gives the worlds a replay of their information state would
    /// ([`crate::information`]): `None` when it does not apply here.
    fn pool_sample(&self, _player: u32, _rng: &mut Rng) -> Option<Self> {
        None
    }

    /// At [`Status::Chance`]: each option with its probability (they sum to 1). Empty for
    /// an event whose outcomes cannot be listed (`random()`): see [`Game::sample_chance`].
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        if self.status() != Status::Chance {
            return Vec::new();
        }
        let n = self.options().len();
        (0..n).map(|i| (i, 1.0 / n as f64)).collect()
    }

    /// At [`Status::Chance`]: draws the outcome with `rng`, by its probability, and applies it.
    fn sample_chance(&mut self, rng: &mut Rng) -> Result<(), ApplyError> {
        if self.status() != Status::Chance || self.options().is_empty() {
            return Err(ApplyError::NotDeciding);
        }
        let n = self.options().len() as u64;
        self.apply(rng.below(n) as usize)
    }

    /// A readable label of an option (`place (1, 2)`, `7 of hearts`). Two options never
    /// share a label: where they would read the same, the labels say what tells them
    /// apart (`R at Square(0, 4): move Square(0, 3)`).
    fn label(&self, index: usize) -> String;

    /// The labels of every option, in order: `label(i)` for each, computed together.
    fn labels(&self) -> Vec<String> {
        (0..self.options().len()).map(|i| self.label(i)).collect()
    }

    /// The labels of every option as `viewer` may read them: an object hidden from the
    /// viewer is named in its hidden form (`steal a hidden Card`), never by its label. What
    /// a seat is shown of a menu, its own or another's decision. Only the seat that decides
    /// (and [`Viewer::All`]) reads twins numbered apart; to another seat, options among
    /// objects hidden from it read alike, since their order would tell it what they are.
    fn labels_for(&self, _viewer: Viewer) -> Vec<String> {
        self.labels()
    }

    /// What is being decided (`choose a move`, `place: choose c`).
    fn prompt(&self) -> String;

    fn outcome(&self) -> Option<&Outcome>;

    fn error(&self) -> Option<&RuleError>;

    /// Lines written by `log(...)`, oldest first.
    fn log(&self) -> &[String] {
        &[]
    }

    /// Everything, for the designer (`play --reveal`): every hand, every secret.
    fn view(&self) -> View;

    /// What `viewer` may see (docs/hidden-information.md): what players and agents are given. A game with
    /// nothing hidden shows its whole view and log.
    fn observation(&self, viewer: Viewer) -> Observation {
        Observation {
            viewer,
            view: self.view(),
            hands: Vec::new(),
            log: self.log().to_vec(),
            round: self.round(),
        }
    }

    /// Whether anything in this game can be hidden from a player: with nothing hidden,
    /// people sharing a terminal need not take turns at a cleared screen.
    fn has_hidden_information() -> bool {
        false
    }

    /// How `viewer` reads outcome `outcome` of a chance event met earlier in this game, as
    /// the game stands now: a dealt object as the viewer sees it now (named only when the
    /// viewer sees it), a roll's face only when nothing in this game can be hidden (where
    /// something can, a face may have gone into a hand). The designer reads every outcome.
    fn chance_label_for(&self, event: &crate::chance::ChanceEvent, outcome: u32, viewer: Viewer) -> String {
        crate::chance::plain_label(event, outcome, viewer == Viewer::All || !Self::has_hidden_information())
    }

    /// The lines of the log `viewer` may read: the public ones, and those `tell`s
    /// addressed to them.
    fn log_for(&self, _viewer: Viewer) -> Vec<String> {
        self.log().to_vec()
    }

    /// Why the move labelled `label` is, or is not, offered to `seat` now, a line each, as
    /// that seat may read it: the rule that removed it, with its place and the values it
    /// read (`tgdlc why`, `why` at the terminal's prompt). `None` where the engine cannot
    /// tell: compiled engines keep no rules to point at; the interpreter does.
    fn why(&self, _seat: u32, _label: &str) -> Option<Vec<String>> {
        None
    }

    /// The labels of the objects and the `secret` values `viewer` may not see: what no
    /// output meant for that viewer may contain (tests search outputs for them).
    fn hidden_from(&self, _viewer: Viewer) -> Vec<String> {
        Vec::new()
    }

    /// A game consistent with what `player` has seen: the objects hidden from them
    /// redistributed among the places hidden from them, future chance re-seeded from
    /// `rng`. For search under hidden information.
    fn determinize(&self, _player: u32, _rng: &mut Rng) -> Result<Self, DeterminizeError> {
        Ok(self.clone())
    }

    /// [`determinize`](Game::determinize) into `into` (a game of the same kind), reusing
    /// its allocations where the engine can: a search samples many times.
    fn determinize_into(&self, player: u32, rng: &mut Rng, into: &mut Self) -> Result<(), DeterminizeError> {
        *into = self.determinize(player, rng)?;
        Ok(())
    }

    /// Decisions taken so far.
    fn decisions(&self) -> u64;
}

impl Pick {
    /// The object an answer names, as a handle into the arena with `tag`.
    pub fn object<T>(self, tag: u32) -> crate::error::Flow<crate::arena::Id<T>> {
        match self {
            Pick::Object(t, i) if t == tag => Ok(crate::arena::Id::from_index(i as usize)),
            _ => Err(crate::error::wrong_answer()),
        }
    }

    /// The player an answer names.
    pub fn player(self) -> crate::error::Flow<Player> {
        match self {
            Pick::Player(p) => Ok(Player(p)),
            _ => Err(crate::error::wrong_answer()),
        }
    }

    /// The answer naming a number; `-0` is named as `0`, which it equals.
    pub fn of_number(x: f64) -> Pick {
        Pick::Number((x + 0.0).to_bits())
    }

    /// The number an answer names.
    pub fn number(self) -> crate::error::Flow<f64> {
        match self {
            Pick::Number(bits) => Ok(f64::from_bits(bits)),
            _ => Err(crate::error::wrong_answer()),
        }
    }

    /// The bool an answer names.
    pub fn boolean(self) -> crate::error::Flow<bool> {
        match self {
            Pick::Bool(b) => Ok(b),
            _ => Err(crate::error::wrong_answer()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Outcome, Pick};
    use crate::value::Player;

    #[test]
    fn a_team_result_is_no_draw() {
        let all = Outcome::from_team(&[Player(1), Player(0), Player(2)], 3);
        assert_eq!(all.describe(), "the players win");
        assert!(!all.is_draw() && all.is_winner(2) && all.all_won() && !all.all_lost());
        assert_eq!(all.returns(3), vec![1.0, 1.0, 1.0]);
        let none = Outcome::from_team(&[], 3);
        assert_eq!(none.describe(), "the players lose");
        assert!(none.all_lost() && !none.all_won());
        assert_eq!(none.returns(3), vec![0.0, 0.0, 0.0]);
        assert_eq!(none.places, vec![vec![0, 1, 2]]);
        let some = Outcome::from_team(&[Player(2), Player(0), Player(2), Player(9)], 3);
        assert_eq!(some.describe(), "players 0, 2 win");
        assert_eq!(some.places, vec![vec![0, 2], vec![1]]);
        assert_eq!(some.returns(3), vec![1.0, 0.0, 1.0]);
        assert_eq!(Outcome::from_team(&[Player(1)], 3).sole_winner(), Some(1));
        // A draw and all the players winning are different results.
        assert_ne!(all, Outcome::from_ranking(&[vec![Player(0), Player(1), Player(2)]], 3));
        assert!(Outcome::from_ranking(&[vec![Player(0), Player(1), Player(2)]], 3).is_draw());
        assert_eq!(Outcome::from_team(&[], 1).describe(), "player 0 loses");
    }

    #[test]
    fn numbers_are_picked_by_value() {
        assert_eq!(Pick::of_number(2.5).number(), Ok(2.5));
        assert_eq!(Pick::of_number(-0.0), Pick::of_number(0.0));
        assert_ne!(Pick::of_number(1.0), Pick::of_number(2.0));
        assert!(Pick::Bool(true).number().is_err());
        assert!(Pick::of_number(1.0).boolean().is_err());
    }
}
