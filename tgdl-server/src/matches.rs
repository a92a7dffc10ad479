//! One match: the game, its seats and tokens, and the decisions taken so far — and what a
//! viewer may be told about it.
//!
//! A match is rebuilt from what is stored by `G::start(players, seed)` and applying the
//! stored decisions in order (agents' decisions are stored like everyone's, so a replay
//! never runs an agent). Every answer to a viewer goes through `Game::observation` and
//! `Game::labels_for`, built from what that viewer may see.

use serde::Serialize;
use tgdl_play::agent::{Agent, AgentError, RandomAgent, seat_seed};
use tgdl_play::chances::{ChanceFollower, Drawn};
use tgdl_play::driver::{DEFAULT_MAX_DECISIONS, SeatKind};
use tgdl_play::mcts::{Budget, MctsAgent};
use tgdl_runtime::game::{Game, Start, Status};
use tgdl_runtime::hidden::{Observation, Viewer};
use tgdl_runtime::params::Params;
use tgdl_runtime::rng::Rng;

use crate::store::StoredMatch;

/// Decisions after which a match ends as unfinished (as `play --max-decisions`).
pub const MAX_DECISIONS: usize = DEFAULT_MAX_DECISIONS as usize;

/// The largest search budgets a seat may ask for: an agent thinks on the server's CPU.
pub const MAX_MCTS_ITERATIONS: u32 = 200_000;
pub const MAX_MCTS_SECONDS: f64 = 60.0;

/// Who sits in a seat of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub kind: SeatKind,
    /// As given back to clients and stored: `human`, `random`, `mcts:500`, `mcts:2s`.
    pub name: String,
    /// The join token of a human seat.
    pub token: Option<String>,
}

/// The canonical name of a seat kind.
pub fn seat_name(kind: SeatKind) -> String {
    match kind {
        SeatKind::Human => "human".to_string(),
        SeatKind::Random => "random".to_string(),
        SeatKind::Mcts(budget) => format!("mcts:{budget}"),
    }
}

/// Parses a seat and checks that the server accepts it (bounded search budgets).
pub fn parse_seat(text: &str) -> Result<SeatKind, String> {
    let kind: SeatKind = text.parse()?;
    match kind {
        SeatKind::Mcts(Budget::Iterations(n)) if n > MAX_MCTS_ITERATIONS => {
            Err(format!("`{text}`: this server allows at most {MAX_MCTS_ITERATIONS} iterations"))
        }
        SeatKind::Mcts(Budget::Time(d)) if d.as_secs_f64() > MAX_MCTS_SECONDS => {
            Err(format!("`{text}`: this server allows at most {MAX_MCTS_SECONDS} seconds a decision"))
        }
        _ => Ok(kind),
    }
}

/// One decision taken, with its label as each viewer may read it.
#[derive(Clone, Debug)]
pub struct Made {
    pub player: u32,
    pub option: usize,
    /// The label as the designer reads it (every object named).
    pub label: String,
    /// The label as each seat read it when the decision was taken, the deciding seat's
    /// included: an object hidden from a seat is named in its hidden form (a card passed
    /// face down, a card struck blind from another's hand).
    pub seen: Vec<String>,
    /// The label as spectators may read it.
    pub public: String,
}

impl Made {
    pub fn label_for(&self, viewer: Viewer) -> &str {
        match viewer {
            Viewer::All => &self.label,
            // The deciding seat too reads its decision as its menu read it: the
            // designer's label would name a card it chose blind.
            Viewer::Seat(p) => self.seen.get(p as usize).map_or(&self.public, |s| s.as_str()),
            Viewer::Public => &self.public,
        }
    }
}

/// Why a decision was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The match has ended (or was stopped): nobody decides.
    Over,
    /// Another seat decides now.
    NotYourTurn { decides: u32 },
    /// The client's decision count is not the match's.
    Stale { decisions: usize },
    /// No such option now.
    NoOption { option: usize, options: usize },
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Over => write!(f, "the match is over: nobody decides"),
            Refused::NotYourTurn { decides } => write!(f, "not your decision: player {decides} decides now"),
            Refused::Stale { decisions } => {
                write!(f, "stale decision: the match is at decision {decisions}; reload its state")
            }
            Refused::NoOption { option, options } => {
                write!(f, "option {option} does not exist now (there are {options}): stale option")
            }
        }
    }
}

/// A match in memory.
#[derive(Clone, Debug)]
pub struct Match<G> {
    pub id: String,
    pub players: u32,
    pub seed: u128,
    /// The values of the game's parameters.
    pub params: Params,
    pub seats: Vec<Seat>,
    pub game: G,
    pub made: Vec<Made>,
    /// What chance did, outcome by outcome, and what follows the match to tell it
    /// (`None` once following failed: the history then says no more of chance).
    pub drawn: Vec<Drawn>,
    chance: Option<ChanceFollower<G>>,
    /// Why play stopped before the game ended (an agent refused, a stored decision no
    /// longer fits the game).
    pub stopped: Option<String>,
}

impl<G: Game> Match<G> {
    /// A new match with no decisions.
    pub fn start(
        id: String,
        players: u32,
        seed: u128,
        params: Params,
        seats: Vec<Seat>,
    ) -> Result<Match<G>, String> {
        let start = Start::observed::<G>(players, seed).with_params(params.clone());
        let game = G::start_with(&start).map_err(|e| e.to_string())?;
        if seats.len() != players as usize {
            return Err(format!("{} seats for {players} players", seats.len()));
        }
        let (chance, drawn) = match ChanceFollower::new(&start) {
            Ok((follower, drawn)) => (Some(follower), drawn),
            Err(_) => (None, Vec::new()),
        };
        Ok(Match { id, players, seed, params, seats, game, made: Vec::new(), drawn, chance, stopped: None })
    }

    /// Rebuilds a stored match by replaying its decisions. A decision that no longer fits
    /// (the game changed since) stops the match there, with the reason.
    pub fn replay(stored: &StoredMatch) -> Result<Match<G>, String> {
        let mut seats = Vec::new();
        for (i, name) in stored.seats.iter().enumerate() {
            let kind: SeatKind = name.parse()?;
            seats.push(Seat { kind, name: name.clone(), token: stored.tokens.get(i).cloned().flatten() });
        }
        let named: Vec<(String, String)> = stored.params.clone().into_iter().collect();
        let params =
            Params::from_named(G::info().params, &named).map_err(|e| format!("its parameters: {e}"))?;
        let mut m = Match::<G>::start(stored.id.clone(), stored.players, stored.seed, params, seats)?;
        for (n, &option) in stored.decisions.iter().enumerate() {
            // Rows stored before simultaneous turns name no player: the one whose turn it was.
            let player = match (stored.deciders.get(n).copied().flatten(), m.game.status()) {
                (Some(p), Status::Decide(_)) => p,
                (None, Status::Decide(p)) => p.0,
                _ => {
                    m.stopped = Some(format!("stored decision {} comes after the end of the game", n + 1));
                    break;
                }
            };
            if let Err(e) = m.apply(player, option) {
                m.stopped = Some(format!("stored decision {} no longer fits the game: {e}", n + 1));
                break;
            }
        }
        Ok(m)
    }

    /// What is stored of this match.
    pub fn stored(&self) -> StoredMatch {
        StoredMatch {
            id: self.id.clone(),
            game: G::info().name.to_string(),
            players: self.players,
            seed: self.seed,
            seats: self.seats.iter().map(|s| s.name.clone()).collect(),
            tokens: self.seats.iter().map(|s| s.token.clone()).collect(),
            decisions: self.made.iter().map(|m| m.option).collect(),
            deciders: self.made.iter().map(|m| Some(m.player)).collect(),
            // Every value, defaults included: the match keeps its variant if the game's
            // defaults change.
            params: self.params.named(G::info().params),
        }
    }

    pub fn decisions(&self) -> usize {
        self.made.len()
    }

    /// The player who decides now, if the match goes on.
    pub fn decides(&self) -> Option<u32> {
        if self.stopped.is_some() || self.made.len() >= MAX_DECISIONS {
            return None;
        }
        match self.game.status() {
            Status::Decide(p) => Some(p.0),
            _ => None,
        }
    }

    /// Whether `seat` may choose now: at its decision, or in a round of simultaneous
    /// choices it has yet to choose in.
    pub fn can_choose(&self, seat: u32) -> bool {
        self.decides().is_some() && !self.game.options_of(seat).is_empty()
    }

    /// How many decisions the match had when the round under way began (the count now
    /// when there is none): a page that saw any count since then saw the round as it is,
    /// since the choices made in it are hidden.
    fn round_began(&self) -> usize {
        let chosen = self.game.round().map_or(0, |r| r.chosen.iter().filter(|c| **c).count());
        self.made.len().saturating_sub(chosen)
    }

    /// The agent seat that decides now (the first of them in a round), with what it needs
    /// to choose.
    pub fn agent_to_move(&self) -> Option<(u32, SeatKind)> {
        self.decides()?;
        (0..self.players).find_map(|p| {
            let seat = self.seats.get(p as usize)?;
            (seat.kind != SeatKind::Human && self.can_choose(p)).then_some((p, seat.kind))
        })
    }

    /// How the match ended, as the terminal's `result:` line says it; `None` while it goes on.
    pub fn result(&self) -> Option<String> {
        result_of(&self.game, self.made.len(), self.stopped.as_deref())
    }

    /// Checks that `seat` may choose `option` now; `expected` is the client's count of
    /// decisions, if it sent one.
    pub fn check(&self, seat: u32, option: usize, expected: Option<u64>) -> Result<(), Refused> {
        let Some(decides) = self.decides() else { return Err(Refused::Over) };
        let seen = self.round_began() as u64..=self.made.len() as u64;
        if expected.is_some_and(|n| !seen.contains(&n)) {
            return Err(Refused::Stale { decisions: self.made.len() });
        }
        if !self.can_choose(seat) {
            return Err(Refused::NotYourTurn { decides });
        }
        let options = self.game.options_of(seat).len();
        if option >= options {
            return Err(Refused::NoOption { option, options });
        }
        Ok(())
    }

    /// Applies `option` for `player` (who must be able to choose now) and records the
    /// decision.
    pub fn apply(&mut self, player: u32, option: usize) -> Result<(), String> {
        let options = self.game.options_of(player).len();
        if option >= options {
            return Err(format!("option {option} does not exist (there are {options})"));
        }
        let label = self.game.labels_of(player, Viewer::All).swap_remove(option);
        // Each seat and spectators read the decision as the menu stood, objects hidden from
        // them in their hidden form (a choice in a round, as a secret).
        let seen = (0..self.players)
            .map(|q| self.game.labels_of(player, Viewer::Seat(q)).swap_remove(option))
            .collect();
        let public = self.game.labels_of(player, Viewer::Public).swap_remove(option);
        self.game.apply_for(player, option).map_err(|e| e.to_string())?;
        self.made.push(Made { player, option, label, seen, public });
        if let Some(follower) = &mut self.chance {
            match follower.decided(option) {
                Ok(drawn) => self.drawn.extend(drawn),
                Err(_) => self.chance = None,
            }
        }
        Ok(())
    }

    /// The seat a token is for (every seat's token is compared, in constant time each).
    pub fn seat_of(&self, token: &str) -> Option<u32> {
        let mut found = None;
        for (i, seat) in self.seats.iter().enumerate() {
            if let Some(t) = &seat.token {
                if constant_time_eq(t.as_bytes(), token.as_bytes()) {
                    found = Some(i as u32);
                }
            }
        }
        found
    }

    /// The state as `viewer` may see it, now (with the options when that seat decides).
    pub fn state(&self, viewer: Viewer) -> State {
        let mut state = state_of(self, &self.game, self.made.len(), viewer, self.result());
        if let Viewer::Seat(p) = viewer {
            if self.can_choose(p) && self.seats.get(p as usize).is_some_and(|s| s.kind == SeatKind::Human) {
                state.prompt = Some(self.game.prompt());
                let mut things = self.game.things_of(p, viewer).into_iter();
                state.options = self
                    .game
                    .labels_of(p, viewer)
                    .into_iter()
                    .map(|label| OptionView { label, things: things.next().unwrap_or_default() })
                    .collect();
            }
        }
        state
    }

    /// The state after the first `n` decisions, as `viewer` may see it (no options): a
    /// step of the match's history.
    pub fn state_at(&self, n: usize, viewer: Viewer) -> Option<State> {
        if n > self.made.len() {
            return None;
        }
        if n == self.made.len() {
            let mut s = state_of(self, &self.game, n, viewer, self.result());
            s.history_step = true;
            return Some(s);
        }
        let mut game =
            G::start_with(&Start::seeded(self.players, self.seed).with_params(self.params.clone())).ok()?;
        for made in &self.made[..n] {
            // In a round, whoever submitted first is stored first.
            game.apply_for(made.player, made.option).ok()?;
        }
        let result = result_of(&game, n, None);
        let mut s = state_of(self, &game, n, viewer, result);
        s.history_step = true;
        Some(s)
    }
}

fn result_of<G: Game>(game: &G, decisions: usize, stopped: Option<&str>) -> Option<String> {
    match game.status() {
        Status::Over => Some(game.outcome().map_or_else(|| "over".to_string(), |o| o.describe())),
        Status::Failed => Some(
            game.error()
                .map_or_else(|| "error".to_string(), |e| format!("error at {}: {}", e.location, e.message)),
        ),
        Status::Decide(_) | Status::Chance => match stopped {
            Some(reason) => Some(format!("stopped after {decisions} decisions: {reason}")),
            None if decisions >= MAX_DECISIONS => Some(format!("unfinished after {decisions} decisions")),
            None => None,
        },
    }
}

fn state_of<G: Game>(m: &Match<G>, game: &G, n: usize, viewer: Viewer, result: Option<String>) -> State {
    let observation = game.observation(viewer);
    let decides = match (&result, game.status()) {
        (None, Status::Decide(p)) => Some(p.0),
        _ => None,
    };
    State {
        id: m.id.clone(),
        game: G::info().name.to_string(),
        players: m.players,
        params: m.params.named(G::info().params),
        seats: m
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatView { seat: i as u32, kind: s.name.clone() })
            .collect(),
        you: viewer.seat(),
        decides,
        prompt: None,
        log: observation.log.clone(),
        history: m.made[..n]
            .iter()
            .map(|d| HistoryEntry { player: d.player, label: d.label_for(viewer).to_string() })
            .collect(),
        chance: m
            .drawn
            .iter()
            .take_while(|d| d.after <= n)
            .map(|d| ChanceEntry { after: d.after, label: d.label_for(viewer).to_string() })
            .collect(),
        observation,
        options: Vec::new(),
        finished: result.is_some(),
        result,
        decisions: n,
        history_step: false,
    }
}

/// What a viewer is sent: `GET /api/matches/{id}`.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    pub id: String,
    pub game: String,
    pub players: u32,
    /// The values of the game's parameters, by name (none when it declares none).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub params: std::collections::BTreeMap<String, String>,
    pub seats: Vec<SeatView>,
    /// The viewer's seat (`null` for a spectator).
    pub you: Option<u32>,
    /// The player who decides now (`null` when the match is over).
    pub decides: Option<u32>,
    /// What is being decided, for the seat that decides.
    pub prompt: Option<String>,
    /// What the viewer may see: the view, the hands, the log lines.
    pub observation: Observation,
    /// The options of the viewer's decision (empty unless the viewer decides now).
    pub options: Vec<OptionView>,
    /// The log lines the viewer may read.
    pub log: Vec<String>,
    /// Every decision so far: who took it and its label as the viewer may read it.
    pub history: Vec<HistoryEntry>,
    /// What chance did (dice rolled, cards dealt), as the viewer may read it: a card dealt
    /// where the viewer cannot see it is `deals a hidden Card`. Absent in a game without
    /// chance.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chance: Vec<ChanceEntry>,
    /// `null` while the match goes on; `player 0 wins`, `draw`, a ranking, ...
    pub result: Option<String>,
    pub finished: bool,
    /// Decisions taken so far (or up to this step of the history).
    pub decisions: usize,
    /// Whether this is a step of the history rather than the live match.
    pub history_step: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    pub seat: u32,
    pub kind: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct OptionView {
    pub label: String,
    /// What the option names, in order (the things a person points at to choose it), as
    /// the seat reads them: for a move the game writes in its own words (`e2-e4`); left
    /// out when its label names them itself (`step from=Square(0, 6) to=Square(0, 5)`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub things: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct HistoryEntry {
    pub player: u32,
    pub label: String,
}

/// A chance outcome: after how many decisions (0: during the setup), and its label.
#[derive(Clone, Debug, Serialize)]
pub struct ChanceEntry {
    pub after: usize,
    pub label: String,
}

/// An agent's choice for `seat` at decision number `n` of a match: seeded from the
/// match's seed, the seat and `n`, so the same match plays the same way.
pub fn agent_choice<G: Game>(
    game: &G,
    kind: SeatKind,
    seed: u128,
    seat: u32,
    n: usize,
) -> Result<usize, AgentError> {
    let seed = Rng::derive_seed(seat_seed(seed, seat), n as u64);
    match kind {
        SeatKind::Human => Err(AgentError::NoOptions),
        SeatKind::Random => RandomAgent::new(seed).choose_for(game, seat),
        SeatKind::Mcts(budget) => MctsAgent::new(budget, seed).choose_for(game, seat),
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_round_trip_and_are_bounded() {
        for s in ["human", "random", "mcts:500", "mcts:2s", "mcts:0.5s"] {
            assert_eq!(seat_name(parse_seat(s).unwrap()), s);
        }
        assert_eq!(seat_name(parse_seat("mcts").unwrap()), "mcts:1000");
        assert!(parse_seat("mcts:1000000").is_err());
        assert!(parse_seat("mcts:100s").is_err());
        assert!(parse_seat("robot").is_err());
    }

    /// `tests/programs/hidden_menu.tgdl`: player 0 strikes one of player 1's cards blind,
    /// back into the deck. Its history reads the decision as its menu did, never by the
    /// card's name; player 1 reads its own card named; spectators a hidden card.
    #[test]
    fn a_history_names_only_what_each_seat_saw() {
        use tgdl_runtime::hidden::Resample;
        use tgdl_runtime::{Pick, Rules};
        type Menu = tgdl_tests::hidden_menu::Game;
        let human = || Seat { kind: SeatKind::Human, name: "human".into(), token: None };
        let mut m =
            Match::<Menu>::start("m".into(), 2, 7_340_029_117, Params::defaults(), vec![human(), human()])
                .unwrap();
        let menu = m.game.labels_for(Viewer::Seat(0));
        let strike = menu.iter().position(|l| l.starts_with("strike a hidden Card")).expect("a blind strike");
        let named = m.game.label(strike);
        assert!(named.starts_with("strike Card(rank: "), "{named}");
        let card = named.trim_start_matches("strike ").to_string();
        m.apply(0, strike).unwrap();
        // The card went back into the deck: no player sees it.
        let census = m.game.world().census();
        let all = tgdl_runtime::hidden::Seen::all();
        assert!(census.objects.iter().any(|o| {
            matches!(o.place, tgdl_runtime::hidden::Place::Stack { .. })
                && m.game.world().pick_label(&Pick::Object(o.tag, o.index), &all) == card
        }));
        let read = |viewer| m.state(viewer).history[0].label.clone();
        assert_eq!(read(Viewer::Seat(0)), menu[strike]);
        assert_eq!(read(Viewer::Seat(1)), named);
        assert_eq!(read(Viewer::Public), "strike a hidden Card");
        let state = serde_json::to_string(&m.state(Viewer::Seat(0))).unwrap();
        assert!(!state.contains(&card), "player 0 is shown {card}: {state}");
        assert!(!state.contains("7340029117"), "{state}");
    }

    #[test]
    fn tokens_compare_exactly() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
