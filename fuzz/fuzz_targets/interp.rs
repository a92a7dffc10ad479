//! The interpreter on every program the checker accepts: preparing and playing it must not
//! panic, and the same seed must play the same game twice (a rule error is an outcome
//! like any other). The interpreter and the compiled engines are compared on generated and
//! mutated programs by the batch test in tests/ (`interpreted.rs`): each compiled engine is
//! a rustc build, too slow for a fuzzer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tgdl_runtime::{Game, Status};

/// Decisions played in each game: enough to reach the rules past setup.
const DECISIONS: usize = 60;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let input = tgdl_compiler::Input::Text { name: "fuzz.tgdl", text, base_dir: None };
    let compilation = tgdl_compiler::compile(input, &tgdl_compiler::Options::default());
    let Some(program) = compilation.program.as_ref() else { return };
    let prepared = tgdl_interp::prepare(program, &compilation.sources);
    // Small budgets: an endless loop is a rule error after a moment, not a timeout.
    let limits = tgdl_runtime::limits::Limits { loop_steps: 20_000, call_depth: 64, ..Default::default() };
    tgdl_runtime::limits::set(limits).expect("valid budgets");
    tgdl_interp::install(prepared);
    let players = tgdl_interp::Interpreted::info().min_players;
    for seed in 0..2 {
        assert_eq!(play(players, seed), play(players, seed), "seed {seed} played two different games");
    }
});

/// What a game showed, decision by decision: labels, the choice made, the log, the end.
fn play(players: u32, seed: u64) -> Vec<String> {
    let mut game = match tgdl_interp::Interpreted::start(players, seed) {
        Ok(game) => game,
        Err(e) => return vec![e.to_string()],
    };
    let mut seen = Vec::new();
    for decision in 0..DECISIONS {
        let Status::Decide(_) = game.status() else { break };
        let labels = game.labels();
        if labels.is_empty() {
            break;
        }
        let pick = (seed as usize + decision * 7) % labels.len();
        seen.push(labels.join("|"));
        seen.push(format!("{:?}", game.apply(pick)));
    }
    seen.push(format!("{:?}", game.status()));
    seen.extend(game.log().iter().cloned());
    seen
}
