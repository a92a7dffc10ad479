//! Running scenarios against a game, in process: each starts the game as `play` would
//! (players, seed, parameters, a record kept when something can be hidden), takes its
//! decisions and checks its assertions in order, and stops at the first that fails, with
//! what the game showed instead. Scenarios run in parallel; a scenario's outcome depends
//! on its text alone.

use super::parse::{Count, Place, Scenario, ScenarioFile, Step, StepKind, parse};
use super::report::{FileRun, Report};
use crate::agent::{Agent, seat_seed};
use crate::driver::{DEFAULT_MAX_DECISIONS, SeatKind};
use crate::render;
use rayon::prelude::*;
use std::fmt::Write as _;
use tgdl_runtime::game::{Game, Start, Status};
use tgdl_runtime::hidden::Viewer;
use tgdl_runtime::params::Params;
use tgdl_runtime::view::Section;

/// Why a scenario failed: the step, what went wrong, and the decisions taken until then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub at: Place,
    /// What failed, then what the game showed (the menu, the log, the value found).
    pub message: String,
    /// Each decision taken, as `player P: LABEL`.
    pub decisions: Vec<String>,
}

/// How one scenario went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioRun {
    pub name: String,
    /// The `scenario` line.
    pub at: Place,
    pub failure: Option<Failure>,
}

/// Reads and runs scenario files, given as `(path, text)`, against `G`: every scenario of
/// every file on rayon's threads, reported in file order.
pub fn run_texts<G: Game>(files: &[(String, String)]) -> Report {
    let parsed: Vec<Result<ScenarioFile, _>> = files.iter().map(|(path, text)| parse(path, text)).collect();
    let jobs: Vec<(usize, &Scenario)> = parsed
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.as_ref().ok().map(|f| (i, f)))
        .flat_map(|(i, f)| f.scenarios.iter().map(move |s| (i, s)))
        .collect();
    let mut runs: Vec<(usize, ScenarioRun)> =
        jobs.into_par_iter().map(|(i, s)| (i, run_scenario::<G>(s))).collect();
    let files = parsed
        .into_iter()
        .enumerate()
        .map(|(i, file)| {
            let mine: Vec<ScenarioRun> = runs
                .iter_mut()
                .filter(|(f, _)| *f == i)
                .map(|(_, r)| std::mem::replace(r, empty_run()))
                .collect();
            match file {
                Ok(file) => FileRun { path: file.path, lines: file.lines, error: None, runs: mine },
                Err(e) => FileRun { path: e.path.clone(), lines: Vec::new(), error: Some(e), runs: mine },
            }
        })
        .collect();
    Report { files }
}

fn empty_run() -> ScenarioRun {
    ScenarioRun { name: String::new(), at: Place::default(), failure: None }
}

/// Runs one scenario against `G`.
pub fn run_scenario<G: Game>(scenario: &Scenario) -> ScenarioRun {
    let failure = Runner::<G>::start(scenario).and_then(|mut runner| {
        for step in &scenario.steps {
            runner.step(step)?;
        }
        Ok(())
    });
    ScenarioRun { name: scenario.name.clone(), at: scenario.at, failure: failure.err() }
}

/// A scenario's game under way, with the agents its steps have called on.
struct Runner<G: Game> {
    game: G,
    seed: u128,
    /// Each agent a step used, by its kind and seat: an agent keeps its generator from
    /// one step to the next, as it would in one game of `play`.
    agents: Vec<(SeatKind, u32, Box<dyn Agent<G>>)>,
    decisions: Vec<String>,
}

impl<G: Game> Runner<G> {
    fn start(scenario: &Scenario) -> Result<Runner<G>, Failure> {
        let info = G::info();
        let fail = |at: Place, message: String| Failure { at, message, decisions: Vec::new() };
        let pairs: Vec<&str> = scenario.params.iter().map(|(p, _)| p.as_str()).collect();
        let params = Params::parse(info.params, &pairs).map_err(|e| {
            // The first line naming the parameter refused, else the first `param` line.
            let at = e
                .param
                .and_then(|i| {
                    let name = info.params[i].name;
                    scenario.params.iter().find(|(p, _)| p.split('=').next() == Some(name))
                })
                .or(scenario.params.first())
                .map_or(scenario.at, |(_, at)| *at);
            fail(at, format!("the game refuses this parameter: {e}"))
        })?;
        let players = scenario.players.map_or(info.min_players, |(p, _)| p);
        let start = Start::observed::<G>(players, scenario.seed).with_params(params);
        let game = G::start_with(&start).map_err(|e| {
            let at = scenario.players.map_or(scenario.at, |(_, at)| at);
            fail(at, format!("the game does not start: {e}"))
        })?;
        Ok(Runner { game, seed: scenario.seed, agents: Vec::new(), decisions: Vec::new() })
    }

    fn fail(&self, at: Place, message: String) -> Failure {
        Failure { at, message, decisions: self.decisions.clone() }
    }

    fn step(&mut self, step: &Step) -> Result<(), Failure> {
        let at = step.at;
        match &step.kind {
            StepKind::Play(label) => {
                let player = self.deciding(at, &format!("play {label:?}"))?;
                let labels = self.game.labels();
                let Some(index) = labels.iter().position(|l| l == label) else {
                    let mut message = format!("{label:?} is not on the menu of player {player}\n");
                    message.push_str(&near_matches(label, &labels));
                    message.push_str(&menu(player, &labels));
                    return Err(self.fail(at, message));
                };
                self.apply(at, player, index)
            }
            StepKind::Agent { kind, count } => self.agents_play(at, *kind, *count),
            StepKind::Offered { text, contains, negated } => {
                let what = if *contains { "an option containing" } else { "the option" };
                let player = self.deciding(at, &format!("be offered {what} {text:?}"))?;
                let labels = self.game.labels();
                let found: Vec<&String> = labels
                    .iter()
                    .filter(|l| if *contains { l.contains(text.as_str()) } else { *l == text })
                    .collect();
                match (found.is_empty(), negated) {
                    (false, false) | (true, true) => Ok(()),
                    (true, false) => {
                        let mut message = format!("player {player} is not offered {what} {text:?}\n");
                        if !contains {
                            message.push_str(&near_matches(text, &labels));
                        }
                        message.push_str(&menu(player, &labels));
                        Err(self.fail(at, message))
                    }
                    (false, true) => {
                        let mut message = format!("player {player} is offered {what} {text:?}\n");
                        if *contains {
                            message.push_str("the options containing it:\n");
                            for l in &found {
                                let _ = writeln!(message, "  {l}");
                            }
                        }
                        message.push_str(&menu(player, &labels));
                        Err(self.fail(at, message))
                    }
                }
            }
            StepKind::Active(p) => {
                let player = self.deciding(at, &format!("see player {p} decide"))?;
                if player == *p {
                    Ok(())
                } else {
                    Err(self.fail(at, format!("player {player} decides, not player {p}\n")))
                }
            }
            StepKind::View { section, item, value } => {
                let found = view_value(&self.game, section, item).map_err(|m| self.fail(at, m))?;
                if found == *value {
                    Ok(())
                } else {
                    Err(self.fail(at, format!("{section} {item} is {found:?}, not {value:?}\n")))
                }
            }
            StepKind::Log { text, negated } => {
                let log = self.game.log_for(Viewer::All);
                let found: Vec<&String> = log.iter().filter(|l| l.contains(text.as_str())).collect();
                match (found.is_empty(), negated) {
                    (false, false) | (true, true) => Ok(()),
                    (true, false) => {
                        Err(self
                            .fail(at, format!("no line of the log contains {text:?}\n{}", log_tail(&log))))
                    }
                    (false, true) => {
                        let mut message = format!("the log contains {text:?}:\n");
                        for l in found {
                            let _ = writeln!(message, "  {l}");
                        }
                        Err(self.fail(at, message))
                    }
                }
            }
            StepKind::Sees { seat, text, negated } => {
                let players = self.game.players();
                if *seat >= players {
                    return Err(
                        self.fail(at, format!("there is no seat {seat}: the game has {players} players\n"))
                    );
                }
                let seen = seen_by(&self.game, *seat);
                match (seen.contains(text.as_str()), negated) {
                    (true, false) | (false, true) => Ok(()),
                    (false, false) => Err(self.fail(
                        at,
                        format!("seat {seat} does not see {text:?}; what it sees:\n{}", indent(&seen)),
                    )),
                    (true, true) => {
                        let mut message =
                            format!("seat {seat} sees {text:?}, on these lines of what it sees:\n");
                        for l in seen.lines().filter(|l| l.contains(text.as_str())) {
                            let _ = writeln!(message, "  {l}");
                        }
                        Err(self.fail(at, message))
                    }
                }
            }
            StepKind::Over(over) => match (self.game.status(), over) {
                (Status::Over | Status::Failed, true) => Ok(()),
                (Status::Decide(_) | Status::Chance, false) => Ok(()),
                (_, true) => Err(self.fail(at, format!("the game is not over: {}\n", self.standing()))),
                (_, false) => Err(self.fail(at, format!("{}\n", self.standing()))),
            },
            StepKind::Result(expected) => match self.result_text() {
                Some(found) if found == *expected => Ok(()),
                Some(found) => Err(self.fail(at, format!("the result is {found:?}, not {expected:?}\n"))),
                None => Err(self.fail(at, format!("the game is not over: {}\n", self.standing()))),
            },
        }
    }

    /// The player who decides now; a failure saying why nobody does, when nobody does
    /// (the game over, or stopped by a rule error).
    fn deciding(&self, at: Place, to: &str) -> Result<u32, Failure> {
        match self.game.status() {
            Status::Decide(p) => Ok(p.0),
            _ => Err(self.fail(at, format!("nobody decides, so nobody can {to}: {}\n", self.standing()))),
        }
    }

    /// Where the game stands, in words.
    fn standing(&self) -> String {
        match self.game.status() {
            Status::Decide(p) => format!("player {} decides", p.0),
            Status::Chance => "chance decides".to_string(),
            Status::Over | Status::Failed => match self.result_text() {
                Some(text) if self.game.status() == Status::Over => format!("the game is over ({text})"),
                Some(text) => format!("the game stopped: {text}"),
                None => "the game ended with no result".to_string(),
            },
        }
    }

    /// The text after `result: ` of `play`, once the game has ended.
    fn result_text(&self) -> Option<String> {
        match self.game.status() {
            Status::Over => self.game.outcome().map(|o| o.describe()),
            Status::Failed => self.game.error().map(|e| format!("error at {}: {}", e.location, e.message)),
            Status::Decide(_) | Status::Chance => None,
        }
    }

    fn apply(&mut self, at: Place, player: u32, index: usize) -> Result<(), Failure> {
        let label = self.game.label(index);
        if let Err(e) = self.game.apply(index) {
            return Err(self.fail(at, format!("the game refused {label:?}: {e}\n")));
        }
        self.decisions.push(format!("player {player}: {label}"));
        Ok(())
    }

    /// Decisions by the agent `kind` of whichever seat decides.
    fn agents_play(&mut self, at: Place, kind: SeatKind, count: Count) -> Result<(), Failure> {
        let wanted = match count {
            Count::Decisions(n) => n,
            Count::UntilOver => u64::MAX,
        };
        let mut made = 0;
        while made < wanted {
            let player = match self.game.status() {
                Status::Decide(p) => p.0,
                Status::Over if count == Count::UntilOver => return Ok(()),
                _ if count == Count::UntilOver => {
                    return Err(self.fail(at, format!("the game did not end: {}\n", self.standing())));
                }
                _ => {
                    return Err(self.fail(
                        at,
                        format!("{made} of the {wanted} decisions were taken, then {}\n", self.standing()),
                    ));
                }
            };
            if self.decisions.len() as u64 >= DEFAULT_MAX_DECISIONS {
                return Err(self.fail(
                    at,
                    format!("the game is still not over after {DEFAULT_MAX_DECISIONS} decisions (as `play` would stop)\n"),
                ));
            }
            let agent = self.agent(kind, player);
            let index = match self.agents[agent].2.choose_in(&self.game) {
                Ok(i) => i,
                Err(e) => {
                    return Err(
                        self.fail(at, format!("the {kind} agent of player {player} could not choose: {e}\n"))
                    );
                }
            };
            self.apply(at, player, index)?;
            made += 1;
        }
        Ok(())
    }

    /// The agent `kind` of seat `player`, seeded as `play --seats` seeds it: its index in
    /// `agents`.
    fn agent(&mut self, kind: SeatKind, player: u32) -> usize {
        match self.agents.iter().position(|(k, p, _)| *k == kind && *p == player) {
            Some(i) => i,
            None => {
                let seed = seat_seed(self.seed, player);
                let agent =
                    kind.agent::<G>(seed).unwrap_or_else(|| Box::new(crate::agent::RandomAgent::new(seed)));
                self.agents.push((kind, player, agent));
                self.agents.len() - 1
            }
        }
    }
}

/// A value of the designer's view: an attribute of an attribute section, or a cell of a
/// grid named `x,y` (column, row).
fn view_value<G: Game>(game: &G, section: &str, item: &str) -> Result<String, String> {
    let view = game.view();
    let title = |s: &Section| match s {
        Section::Grid { title, .. }
        | Section::Graph { title, .. }
        | Section::Attributes { title, .. }
        | Section::List { title, .. } => title.clone(),
    };
    let Some(found) = view.sections.iter().find(|s| title(s) == section) else {
        let titles: Vec<String> = view.sections.iter().map(|s| format!("{:?}", title(s))).collect();
        return Err(format!("the view has no section {section:?}; it has {}\n", titles.join(", ")));
    };
    match found {
        Section::Attributes { items, .. } => match items.iter().find(|(name, _)| name == item) {
            Some((_, value)) => Ok(value.clone()),
            None => {
                let mut message = format!("{section} has no attribute {item:?}; it shows:\n");
                for (name, value) in items {
                    let _ = writeln!(message, "  {name}: {value}");
                }
                Err(message)
            }
        },
        Section::Grid { cells, .. } => {
            let cell = item
                .split_once(',')
                .and_then(|(x, y)| Some((x.trim().parse::<usize>().ok()?, y.trim().parse::<usize>().ok()?)));
            let Some((x, y)) = cell else {
                return Err(format!(
                    "{section} is a grid: name a cell as \"x,y\" (column, row), not {item:?}\n"
                ));
            };
            match cells.get(y).and_then(|row| row.get(x)) {
                Some(Some(value)) => Ok(value.clone()),
                Some(None) => Err(format!("{section} has no tile at {x},{y} (a blank of the grid)\n")),
                None => Err(format!("{section} has no cell {x},{y}\n")),
            }
        }
        Section::Graph { .. } | Section::List { .. } => Err(format!(
            "{section} is not a section of attributes or a grid; assert what a seat sees of it with `seat P sees`\n"
        )),
    }
}

/// Everything seat `seat` is shown: its observation as the terminal draws it (the whole
/// log), the hands it may read, and its menu when it decides.
pub fn seen_by<G: Game>(game: &G, seat: u32) -> String {
    let observation = game.observation(Viewer::Seat(seat));
    let mut text = render::render_observation(&observation, usize::MAX);
    for hand in &observation.hands {
        if let Some(objects) = &hand.objects {
            let _ = writeln!(text, "player {} holds: {}", hand.player, objects.join(", "));
        }
        if !hand.face_up.is_empty() {
            let _ = writeln!(text, "player {} shows: {}", hand.player, hand.face_up.join(", "));
        }
        let _ = writeln!(text, "{}", hand.summary());
    }
    let labels = game.labels_of(seat, Viewer::Seat(seat));
    if !labels.is_empty() {
        let _ = writeln!(text, "player {seat}, {}:", game.prompt());
        for l in labels {
            let _ = writeln!(text, "  {l}");
        }
    }
    text
}

/// The menu as a failure shows it: at most [`MENU_LINES`] options, numbered as `play`
/// numbers them.
fn menu(player: u32, labels: &[String]) -> String {
    let mut out = format!("the menu of player {player} ({} options):\n", labels.len());
    for (i, l) in labels.iter().enumerate().take(MENU_LINES) {
        let _ = writeln!(out, "  {}) {l}", i + 1);
    }
    if labels.len() > MENU_LINES {
        let _ = writeln!(out, "  ... and {} more", labels.len() - MENU_LINES);
    }
    out
}

const MENU_LINES: usize = 60;

/// The labels closest to `wanted` (by edit distance, at most three, the closest first),
/// as a line; nothing when none is close.
fn near_matches(wanted: &str, labels: &[String]) -> String {
    let wanted_len = wanted.chars().count();
    let mut near: Vec<(usize, &String)> = labels
        .iter()
        .map(|l| (distance(wanted, l), l))
        .filter(|(d, l)| {
            *d <= (wanted_len.max(l.chars().count()) / 3).max(2)
                || l.contains(wanted)
                || wanted.contains(l.as_str())
        })
        .collect();
    near.sort_by_key(|(d, _)| *d);
    if near.is_empty() {
        return String::new();
    }
    let names: Vec<String> = near.iter().take(3).map(|(_, l)| format!("{l:?}")).collect();
    format!("near matches: {}\n", names.join(", "))
}

/// The edit distance of two texts, in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb)).min(row[j] + 1).min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The last lines of the log, for a failure.
fn log_tail(log: &[String]) -> String {
    if log.is_empty() {
        return "the log is empty\n".to_string();
    }
    let shown = &log[log.len().saturating_sub(LOG_LINES)..];
    let mut out = format!("the last {} of its {} lines:\n", shown.len(), log.len());
    for l in shown {
        let _ = writeln!(out, "  {l}");
    }
    out
}

const LOG_LINES: usize = 12;

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::{distance, near_matches};

    #[test]
    fn near_matches_are_the_closest_labels() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        let labels: Vec<String> = ["place Cell(0, 0)", "place Cell(1, 0)", "pass"].map(String::from).to_vec();
        assert_eq!(
            near_matches("place Cell(0, 1)", &labels),
            "near matches: \"place Cell(0, 0)\", \"place Cell(1, 0)\"\n"
        );
        assert_eq!(near_matches("resign", &labels), "");
    }
}
