//! Property test: no input makes the compiler panic. Random bytes, random sequences of
//! TGDL tokens, mutations of the valid programs of the repository and randomly generated
//! programs go through the whole pipeline — `compile`, which generates the engine when
//! the checker accepts. Every case is seeded (the failure message gives the input), and the
//! case counts keep the test to a few seconds in a debug build.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use tgdl_compiler::{CodegenOptions, Input, Options};

#[path = "support/programs.rs"]
mod programs;
use programs::*;

/// Runs one input through the pipeline; returns the panic message if it panicked.
fn run(text: &str) -> Option<String> {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let input = Input::Text { name: "fuzz.tgdl", text, base_dir: None };
        let options = Options { generate: Some(CodegenOptions::default()), ..Options::default() };
        let compilation = tgdl_compiler::compile(input, &options);
        // Rendering walks every span: it must not panic either.
        let _ = compilation.render(false);
        for d in &compilation.diagnostics {
            let _ = d.to_json(&compilation.sources);
        }
    }));
    result.err().map(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

#[track_caller]
fn assert_no_panic(kind: &str, seed: u64, text: &str) {
    if let Some(message) = run(text) {
        panic!("{kind} case {seed} panicked: {message}\n--- input ---\n{text}\n--- end ---");
    }
}

#[test]
fn random_bytes_do_not_panic() {
    let mut rng = Rng(1);
    for seed in 0..1000u64 {
        let len = rng.below(120);
        // Mostly printable ASCII (where the lexer has work to do), some arbitrary bytes.
        let bytes: Vec<u8> = (0..len)
            .map(|_| if rng.chance(85) { 32 + rng.below(95) as u8 } else { rng.next() as u8 })
            .collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        assert_no_panic("random bytes", seed, &text);
    }
}

#[test]
fn random_token_sequences_do_not_panic() {
    let mut rng = Rng(2);
    for seed in 0..1000u64 {
        let mut text = String::new();
        if rng.chance(70) {
            text.push_str("game G players 2;\n");
        }
        for _ in 0..rng.below(80) {
            text.push_str(token(&mut rng));
            text.push(' ');
        }
        assert_no_panic("random tokens", seed, &text);
    }
}

/// The valid programs of the repository, split into tokens (words, numbers, strings and
/// single punctuation characters) with the whitespace kept.
fn corpus() -> Vec<Vec<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["../examples", "../tests/programs", "tests/fragments"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths.iter().filter(|p| p.extension().is_some_and(|x| x == "tgdl")) {
            if let Ok(text) = std::fs::read_to_string(p) {
                out.push(tokenize(&text));
            }
        }
    }
    assert!(out.len() >= 10, "the corpus of valid programs is missing");
    out
}

#[test]
fn mutated_programs_do_not_panic() {
    let corpus = corpus();
    let mut rng = Rng(3);
    for seed in 0..500u64 {
        let mut tokens = rng.pick(&corpus);
        mutate(&mut tokens, &mut rng);
        assert_no_panic("mutated program", seed, &tokens.concat());
    }
}

#[test]
fn generated_programs_do_not_panic() {
    let mut g = Gen { rng: Rng(4) };
    for seed in 0..120u64 {
        let text = g.program();
        assert_no_panic("generated program", seed, &text);
    }
}

#[test]
fn well_typed_programs_and_their_mutations_do_not_panic() {
    let mut g = TypedGen { rng: Rng(5), vars: Vec::new(), fresh: 0 };
    let mut accepted = 0;
    for seed in 0..40u64 {
        let text = g.program();
        assert_no_panic("typed program", seed, &text);
        accepted += usize::from(!tgdl_compiler::check_source("typed.tgdl", &text).has_errors());
        // One small mutation: a token replaced (mostly a type or scope error now).
        let mut tokens = tokenize(&text);
        let at = g.rng.below(tokens.len());
        tokens[at] = token(&mut g.rng).to_string();
        assert_no_panic("mutated typed program", seed, &tokens.concat());
    }
    // The generator is only useful if its programs reach code generation.
    assert!(accepted >= 30, "only {accepted} of 40 typed programs check");
}
