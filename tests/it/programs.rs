//! Language tests: every `tests/programs/*.tgdl` is compiled (by `build.rs`), played as
//! its comments say, and its log and result compared with the expectations written in
//! the same comments:
//!
//! ```text
//! // run: players=3 seed=7 choices=0,2,1     (starts a scenario; all keys optional)
//! // expect-log: a line the game logs          (in order; all lines, when any is given)
//! // expect-decision: player 0: place Cell(1, 1)   (in order, from the first decision)
//! // expect: player 0 wins                     (or draw, ranking ..., unfinished,
//! //                                            error at LINE:COL: message)
//! ```
//!
//! Lines before the first `run:` form a scenario of their own (default players, seed 1).

use tgdl_tests::{HYGIENE, PROGRAMS, Script, without_file};

#[derive(Default, Debug)]
struct Scenario {
    script: Script,
    log: Option<Vec<String>>,
    decisions: Vec<String>,
    result: Option<String>,
}

fn scenarios(source: &str) -> Vec<Scenario> {
    let mut out = vec![Scenario { script: Script { seed: 1, ..Script::default() }, ..Scenario::default() }];
    for line in source.lines() {
        let Some(directive) = line.trim().strip_prefix("//") else { continue };
        let directive = directive.trim();
        let Some((key, value)) = directive.split_once(':') else { continue };
        let value = value.trim().to_string();
        match key.trim() {
            "run" => {
                if out.len() == 1 && out[0].result.is_none() && out[0].log.is_none() {
                    out.clear();
                }
                let mut script = Script { seed: 1, ..Script::default() };
                for part in value.split_whitespace() {
                    let (k, v) = part.split_once('=').unwrap_or_else(|| panic!("bad run option `{part}`"));
                    match k {
                        "players" => script.players = Some(v.parse().expect("a number of players")),
                        "seed" => script.seed = v.parse().expect("a seed"),
                        "choices" => {
                            script.choices =
                                v.split(',').map(|c| c.parse().expect("an option index")).collect()
                        }
                        "max" => script.max_decisions = v.parse().expect("a decision budget"),
                        other => panic!("unknown run option `{other}`"),
                    }
                }
                out.push(Scenario { script, ..Scenario::default() });
            }
            "expect-log" => out.last_mut().expect("a scenario").log.get_or_insert_with(Vec::new).push(value),
            "expect-decision" => out.last_mut().expect("a scenario").decisions.push(value),
            "expect" => out.last_mut().expect("a scenario").result = Some(value),
            _ => {}
        }
    }
    out.retain(|s| s.result.is_some() || s.log.is_some());
    out
}

#[test]
fn every_program_behaves_as_its_comments_say() {
    assert!(!PROGRAMS.is_empty() && !HYGIENE.is_empty());
    let mut failures = Vec::new();
    // `tests/hygiene`: programs naming things as the generator names its own items.
    for program in PROGRAMS.iter().chain(HYGIENE) {
        let source = std::fs::read_to_string(program.path).expect("the program file is readable");
        let scenarios = scenarios(&source);
        assert!(!scenarios.is_empty(), "{}: no `// expect:` or `// expect-log:` lines", program.name);
        for (i, s) in scenarios.iter().enumerate() {
            let run = (program.run)(&s.script);
            let result = without_file(&run.result);
            let mut problems = Vec::new();
            if let Some(expected) = &s.result
                && &result != expected
            {
                problems.push(format!("result: expected `{expected}`, got `{result}`"));
            }
            if let Some(expected) = &s.log
                && &run.log != expected
            {
                problems.push(format!("log: expected {expected:#?}\ngot {:#?}", run.log));
            }
            for (k, expected) in s.decisions.iter().enumerate() {
                if run.decisions.get(k) != Some(expected) {
                    problems
                        .push(format!("decision {k}: expected `{expected}`, got {:?}", run.decisions.get(k)));
                }
            }
            if !problems.is_empty() {
                failures.push(format!(
                    "{} (scenario {}): {}\n  decisions: {:?}",
                    program.name,
                    i + 1,
                    problems.join("\n  "),
                    run.decisions
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}
