//! `tgdlc why FILE LABEL` (docs/testing.md, "Why not?"): why a move is, or is not,
//! offered at a decision of the game, on the interpreter. The game starts from a seed (or
//! a trace, whose decisions are made again) and the question is asked at the decision it
//! reaches, as the seat deciding there sees the game.

use super::{Session, engine, fail};
use std::path::Path;
use tgdl_interp::Interpreted;
use tgdl_play::trace::Trace;
use tgdl_runtime::game::Start;
use tgdl_runtime::params::Params;
use tgdl_runtime::{Game, Status};

/// Where the question is asked: the game's start, and the decisions made before it.
pub(super) struct Question<'a> {
    pub file: &'a Path,
    pub label: &'a str,
    pub players: Option<u32>,
    pub seed: u128,
    pub params: &'a [String],
    pub replay: Option<&'a Path>,
    pub json: bool,
}

pub(super) fn why(session: &Session, q: &Question) -> u8 {
    let prepared = match engine::prepared(session, q.file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    tgdl_interp::install(prepared);
    let info = Interpreted::info();
    let trace = match q.replay.map(Trace::load).transpose() {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let pairs: Vec<String> = match &trace {
        Some(t) => t.params.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        None => q.params.to_vec(),
    };
    let params = match Params::parse(info.params, &pairs) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let (players, seed) = match &trace {
        Some(t) => (t.players, t.seed),
        None => (q.players.unwrap_or(info.min_players), q.seed),
    };
    let mut game = match Interpreted::start_with(&Start::seeded(players, seed).with_params(params)) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    for (n, d) in trace.iter().flat_map(|t| t.decisions.iter()).enumerate() {
        let labels = game.labels();
        if labels.get(d.index) != Some(&d.label) {
            return fail(format!(
                "the trace does not replay on these rules: decision {n} was `{}`, which is not option {} now",
                d.label,
                d.index + 1
            ));
        }
        if let Err(e) = game.apply(d.index) {
            return fail(format!("decision {n} (`{}`): {e}", d.label));
        }
    }
    let Status::Decide(seat) = game.status() else {
        return fail("the game is not waiting for a decision here");
    };
    let answer = tgdl_interp::why(&game, seat.0, q.label);
    if q.json {
        let json = serde_json::json!({ "offered": answer.offered, "seat": seat.0, "lines": answer.lines });
        println!("{json}");
    } else {
        for line in &answer.lines {
            println!("{line}");
        }
    }
    0
}
