//! Tournaments (docs/agents.md): agents play every seating rotation of a game; the report counts
//! wins and draws per agent and per seat, with 95 % intervals.
//!
//! With agents `A,B,C` for a three-player game, rotation `r` seats agent `(p + r) % 3` in
//! seat `p`; game `i` plays rotation `i % 3` with seed `Rng::derive_seed(seed, i)`, and each
//! seat's agent draws from `seat_seed(game seed, seat)`. Games are split over threads by
//! index and merged in index order, so the report (timing aside) does not depend on the
//! number of threads.

use crate::agent::{Agent, RandomAgent, seat_seed};
use crate::driver::SeatKind;
use crate::payoffs::PayoffSums;
use crate::simulate::wilson;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write;
use std::time::Instant;
use tgdl_runtime::game::{Game, Start, Status};
use tgdl_runtime::params::Params;
use tgdl_runtime::rng::Rng;

/// The settings of a tournament.
#[derive(Clone, Debug)]
pub struct TournamentOptions {
    /// One agent per seat of the game (the player count is their number).
    pub agents: Vec<SeatKind>,
    pub games: u64,
    pub seed: u64,
    /// Worker threads; 0: one per core.
    pub threads: usize,
    pub max_decisions: u64,
    /// Show a progress bar (only drawn when standard error is a terminal).
    pub progress: bool,
    /// The values of the game's parameters.
    pub params: Params,
}

/// How one agent did, over every seat it took.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AgentStats {
    /// `mcts:200`, `random`, ...
    pub agent: String,
    pub games: u64,
    /// Games it won alone, or with its team (`winners`).
    pub wins: u64,
    /// Games every player tied.
    pub draws: u64,
    /// Its wins by the seat it played.
    pub wins_by_seat: Vec<u64>,
    pub games_by_seat: Vec<u64>,
    pub wins_ci95: (f64, f64),
    /// Its mean payoff over the games that ended with payoffs (none: the game gives none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_payoff: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_payoff_ci95: Option<(f64, f64)>,
}

/// The report of a tournament.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentReport {
    pub games: u64,
    pub players: u32,
    pub seed: u64,
    pub agents: Vec<AgentStats>,
    /// Wins by seat (alone or with a team), whoever sat there.
    pub wins_by_seat: Vec<u64>,
    pub draws: u64,
    /// Games that ended with a team result (`winners`); of them, those all the players won
    /// together and those they all lost. Absent from the JSON for other games.
    #[serde(skip_serializing_if = "is_zero")]
    pub team_games: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub team_wins: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub team_losses: u64,
    pub unfinished: u64,
    pub errors: u64,
    /// A seat refused to play (a search agent facing a secret it cannot resample): why.
    pub refused: Option<String>,
    pub mean_length: f64,
    pub seconds: f64,
    pub decisions_per_sec: f64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What one game gave.
#[derive(Clone, Debug, Default)]
struct GameTally {
    /// The seats that won: the sole winner, or a team that won together.
    winners: Vec<u32>,
    draw: bool,
    /// A team result; of them, one every player won or one every player lost.
    team: bool,
    all_won: bool,
    all_lost: bool,
    unfinished: bool,
    error: bool,
    refused: Option<String>,
    decisions: u64,
    payoffs: Option<Vec<f64>>,
}

fn play_one<G: Game>(opts: &TournamentOptions, index: u64) -> GameTally {
    let players = opts.agents.len() as u32;
    let seed = Rng::derive_seed(opts.seed, index);
    let rotation = (index % players as u64) as usize;
    let mut tally = GameTally::default();
    let start = Start::observed::<G>(players, seed.into()).with_params(opts.params.clone());
    let Ok(mut game) = G::start_with(&start) else {
        tally.error = true;
        return tally;
    };
    let mut seats: Vec<Box<dyn Agent<G>>> = (0..players as usize)
        .map(|p| {
            let kind = opts.agents[(p + rotation) % players as usize];
            // Tournaments refuse people before they start.
            kind.agent::<G>(seat_seed(seed.into(), p as u32)).unwrap_or_else(|| Box::new(RandomAgent::new(0)))
        })
        .collect();
    loop {
        match game.status() {
            Status::Over => {
                if let Some(o) = game.outcome() {
                    tally.winners = match &o.team {
                        Some(team) => team.clone(),
                        None => o.sole_winner().into_iter().collect(),
                    };
                    tally.draw = o.is_draw();
                    tally.team = o.team.is_some();
                    tally.all_won = o.all_won();
                    tally.all_lost = o.all_lost();
                    tally.payoffs.clone_from(&o.payoffs);
                }
                break;
            }
            // A seeded game draws its chance as it plays: stopping for it is an engine error.
            Status::Failed | Status::Chance => {
                tally.error = true;
                break;
            }
            Status::Decide(p) => {
                if tally.decisions >= opts.max_decisions {
                    tally.unfinished = true;
                    break;
                }
                match seats[p.0 as usize].choose_in(&game) {
                    Ok(i) if game.apply(i).is_ok() => tally.decisions += 1,
                    Ok(_) => {
                        tally.error = true;
                        break;
                    }
                    Err(e) => {
                        tally.refused = Some(e.to_string());
                        break;
                    }
                }
            }
        }
    }
    tally
}

/// Why a tournament could not be played.
pub fn check_options(opts: &TournamentOptions, min: u32, max: u32) -> Result<(), String> {
    let players = opts.agents.len() as u32;
    if opts.agents.contains(&SeatKind::Human) {
        return Err("a tournament is played by agents: use random or mcts seats".into());
    }
    if players < min || players > max {
        return Err(format!("{players} seats given: this game is for {min} to {max} players"));
    }
    if opts.games == 0 {
        return Err("a tournament needs at least one game (-n)".into());
    }
    Ok(())
}

/// Plays the tournament.
pub fn tournament<G: Game>(opts: &TournamentOptions) -> Result<TournamentReport, String> {
    let info = G::info();
    check_options(opts, info.min_players, info.max_players)?;
    let players = opts.agents.len() as u32;
    let started = Instant::now();
    let bar = crate::simulate::progress_bar(opts.progress, opts.games);
    let run = || {
        (0..opts.games)
            .into_par_iter()
            .map(|i| {
                let tally = play_one::<G>(opts, i);
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
                tally
            })
            .collect::<Vec<_>>()
    };
    let threads = crate::simulate::worker_threads(opts.threads, opts.games);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(tgdl_runtime::limits::GAME_STACK_BYTES)
        .build()
        .map_err(|e| e.to_string())?;
    let tallies = pool.install(run);
    let seconds = started.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    // Agents are counted by their place in the list (the same kind twice counts twice).
    let mut agents: Vec<AgentStats> = opts
        .agents
        .iter()
        .map(|a| AgentStats {
            agent: a.to_string(),
            wins_by_seat: vec![0; players as usize],
            games_by_seat: vec![0; players as usize],
            ..AgentStats::default()
        })
        .collect();
    let mut report = TournamentReport {
        games: opts.games,
        players,
        seed: opts.seed,
        agents: Vec::new(),
        wins_by_seat: vec![0; players as usize],
        draws: 0,
        team_games: 0,
        team_wins: 0,
        team_losses: 0,
        unfinished: 0,
        errors: 0,
        refused: None,
        mean_length: 0.0,
        seconds,
        decisions_per_sec: 0.0,
    };
    let mut decisions = 0;
    let mut payoffs = vec![PayoffSums::default(); players as usize];
    for (i, t) in tallies.iter().enumerate() {
        let rotation = i % players as usize;
        decisions += t.decisions;
        for seat in 0..players as usize {
            let a = &mut agents[(seat + rotation) % players as usize];
            a.games += 1;
            a.games_by_seat[seat] += 1;
            if t.draw {
                a.draws += 1;
            }
            if let Some(p) = &t.payoffs {
                payoffs[(seat + rotation) % players as usize].add(&p[seat..=seat]);
            }
        }
        for &w in &t.winners {
            report.wins_by_seat[w as usize] += 1;
            let a = &mut agents[(w as usize + rotation) % players as usize];
            a.wins += 1;
            a.wins_by_seat[w as usize] += 1;
        }
        report.draws += t.draw as u64;
        report.team_games += t.team as u64;
        report.team_wins += t.all_won as u64;
        report.team_losses += t.all_lost as u64;
        report.unfinished += t.unfinished as u64;
        report.errors += t.error as u64;
        if report.refused.is_none() {
            report.refused.clone_from(&t.refused);
        }
    }
    for (a, sums) in agents.iter_mut().zip(&payoffs) {
        a.wins_ci95 = wilson(a.wins, a.games);
        if let Some(m) = sums.means().first() {
            a.mean_payoff = Some(m.mean);
            a.mean_payoff_ci95 = Some(m.ci95);
        }
    }
    report.agents = agents;
    report.mean_length = decisions as f64 / opts.games as f64;
    report.decisions_per_sec = if seconds > 0.0 { decisions as f64 / seconds } else { 0.0 };
    Ok(report)
}

impl TournamentReport {
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn render_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} games, {} players, every seating rotation (seed {})",
            self.games, self.players, self.seed
        );
        for a in &self.agents {
            let (lo, hi) = a.wins_ci95;
            let by_seat: Vec<String> =
                a.wins_by_seat.iter().zip(&a.games_by_seat).map(|(w, g)| format!("{w}/{g}")).collect();
            let _ = writeln!(
                out,
                "  {:<12} wins {:>6} of {:>6} ({:.1} %, 95 % {:.1}-{:.1} %), draws {}, by seat {}",
                a.agent,
                a.wins,
                a.games,
                100.0 * a.wins as f64 / a.games.max(1) as f64,
                100.0 * lo,
                100.0 * hi,
                a.draws,
                by_seat.join(" ")
            );
            if let (Some(mean), Some(ci95)) = (a.mean_payoff, a.mean_payoff_ci95) {
                let m = crate::payoffs::Mean { mean, ci95 };
                let _ = writeln!(out, "  {:<12} mean payoff {}", "", crate::payoffs::describe(&m));
            }
        }
        let seats: Vec<String> = self.wins_by_seat.iter().map(|w| w.to_string()).collect();
        let _ = writeln!(out, "  wins by seat: {}; draws {}", seats.join(" "), self.draws);
        if self.team_games > 0 {
            let (lo, hi) = wilson(self.team_wins, self.games);
            let _ = writeln!(
                out,
                "  the players won together {} of {} ({:.1} %, 95 % {:.1}-{:.1} %), lost together {}",
                self.team_wins,
                self.games,
                100.0 * self.team_wins as f64 / self.games.max(1) as f64,
                100.0 * lo,
                100.0 * hi,
                self.team_losses
            );
        }
        let _ = writeln!(
            out,
            "  mean length {:.1} decisions; {:.0} decisions/s; unfinished {}; errors {}",
            self.mean_length, self.decisions_per_sec, self.unfinished, self.errors
        );
        if let Some(r) = &self.refused {
            let _ = writeln!(out, "  refused: {r}");
        }
        out
    }
}
