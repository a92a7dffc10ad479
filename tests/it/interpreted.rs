//! One semantics, two engines: the interpreter (`tgdl-interp`) plays every program the
//! same games as the compiled engine. Each program of the equivalence table (every example
//! and test program) plays the equivalence test's seeds side by side interpreted and with
//! the shipping generator's engine, every seat random, and at every decision both must
//! show the same status, labels, prompt, log, observations and hidden labels for every
//! viewer, determinized worlds, and end the same way. The batch of generated and mutated
//! programs (`crate::batch`) goes through the same comparison, for what no one thought to
//! write.

use crate::batch::{BATCH, MAX_DECISIONS};
use crate::equivalence::{PAIRS, side_by_side_of, side_by_side_upto};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use tgdl_runtime::Game;

/// The interpreter plays the process's installed program: one program at a time.
static INSTALLED: Mutex<()> = Mutex::new(());

/// Plays one game with the compiled engine `A` and the installed interpreted program.
pub fn play<A: Game>(players: u32, seed: u64) -> Result<u64, String> {
    started::<A>(players, seed, |a, b| side_by_side_of(a, b, seed, false, |_, _, _| {}))
}

/// [`play`] for at most `max_decisions` decisions (the batch's programs need not end).
pub fn play_upto<A: Game>(players: u32, seed: u64, max_decisions: u64) -> Result<u64, String> {
    started::<A>(players, seed, |a, b| side_by_side_upto(a, b, seed, false, max_decisions, |_, _, _| {}))
}

/// Starts both games and hands them to `side_by_side`; games that cannot start must
/// refuse alike.
fn started<A: Game>(
    players: u32,
    seed: u64,
    side_by_side: impl FnOnce(A, tgdl_interp::Interpreted) -> Result<(A, u64), String>,
) -> Result<u64, String> {
    match (A::start(players, seed), tgdl_interp::Interpreted::start(players, seed)) {
        (Ok(a), Ok(b)) => side_by_side(a, b).map(|(_, decisions)| decisions),
        (a, b) => {
            let (a, b) = (a.err().map(|e| e.to_string()), b.err().map(|e| e.to_string()));
            if a == b { Ok(0) } else { Err(format!("start differs: {a:?} and {b:?}")) }
        }
    }
}

/// Prepares and installs the program at `path` (from the repository's root).
fn install(path: &str) -> MutexGuard<'static, ()> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    install_input(tgdl_compiler::Input::File(&file))
}

/// [`install`] for a program held as text, checked as `build.rs` checked it: under the
/// name `file`, its imports resolving from the current directory.
fn install_source(file: &str, text: &str) -> MutexGuard<'static, ()> {
    install_input(tgdl_compiler::Input::Text { name: file, text, base_dir: None })
}

fn install_input(input: tgdl_compiler::Input) -> MutexGuard<'static, ()> {
    let guard = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    let compilation = tgdl_compiler::compile(input, &tgdl_compiler::Options::default());
    let program = compilation.program.as_ref().unwrap_or_else(|| panic!("{}", compilation.render(false)));
    let prepared = tgdl_interp::prepare(program, &compilation.sources);
    tgdl_interp::install(prepared);
    guard
}

/// Plays `name` both ways over `seeds` seeds, cycling the player counts it allows.
fn check(name: &str, seeds: u64) -> Result<(), String> {
    let pair = PAIRS.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no program `{name}`"));
    let _installed = install(pair.path);
    let info = (pair.info)();
    let counts = info.max_players - info.min_players + 1;
    for seed in 0..seeds {
        let players = info.min_players + (seed % u64::from(counts)) as u32;
        (pair.interpreted)(players, seed).map_err(|e| {
            format!("{name}, {players} players, seed {seed}: compiled (first) and interpreted (second) differ, {e}")
        })?;
    }
    Ok(())
}

#[test]
fn the_interpreter_plays_what_the_compiled_engines_play() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for pair in PAIRS.iter().filter(|p| !p.path.starts_with("tests/equivalence/")) {
        // The examples for more seeds: the games people play; one seed of the games whose
        // menus run to thousands of moves (Amazons) or whose jumps are searched
        // recursively (draughts), each seed minutes long in a debug build. The interpreter
        // plays one program at a time, so this test alone sets the suite's length; the
        // fuzzer's `differential` target plays many more games of every example.
        let seeds = match pair.name {
            "amazons" | "english_draughts" => 1,
            _ if pair.path.starts_with("examples/") => 4,
            _ => 2,
        };
        match check(pair.name, seeds) {
            Ok(()) => compared += 1,
            Err(why) => failures.push(why),
        }
    }
    eprintln!("compared {compared}");
    assert!(failures.is_empty(), "{} programs differ:\n{}", failures.len(), failures.join("\n\n"));
}

/// Perft on the interpreter counts the published figures the compiled engines are held to
/// (`tests/it/examples.rs`), at the depths a debug build reaches quickly.
#[test]
fn the_interpreter_counts_the_published_perft_figures() {
    let counts: [(&str, u32, &[u64]); 7] = [
        ("examples/tic_tac_toe.tgdl", 5, &[9, 72, 504, 3_024, 15_120]),
        ("examples/connect_four.tgdl", 4, &[7, 49, 343, 2_401]),
        ("examples/breakthrough.tgdl", 3, &[22, 484, 11_132]),
        ("examples/reversi.tgdl", 5, &[4, 12, 56, 244, 1_396]),
        ("examples/chess.tgdl", 2, &[20, 400]),
        ("examples/english_draughts.tgdl", 5, &[7, 49, 302, 1_469, 7_361]),
        ("examples/amazons.tgdl", 1, &[2_176]),
    ];
    for (path, depth, published) in counts {
        let _installed = install(path);
        let game = tgdl_interp::Interpreted::start(2, 0).expect("two players");
        assert_eq!(tgdl_play::perft(&game, depth), published, "{path}");
    }
}

/// `why` tells nothing of what the asking seat cannot see: asked about a card hidden from
/// it, it answers exactly as about a card that does not exist (the same words, the hidden
/// card's name aside), at every decision of seeded crazy-eights games.
#[test]
fn why_answers_of_a_hidden_card_as_of_no_card() {
    use tgdl_runtime::hidden::Viewer;
    use tgdl_runtime::{Rng, Status};
    let _installed = install("examples/crazy_eights.tgdl");
    let mut asked = 0;
    for seed in 0..3 {
        let mut game = tgdl_interp::Interpreted::start(2, seed).expect("two players");
        let mut rng = Rng::new(seed);
        for _ in 0..12 {
            let Status::Decide(p) = game.status() else { break };
            for hidden in game.hidden_from(Viewer::Seat(p.0)) {
                let answer = |label: &str, name: &str| {
                    let why = tgdl_interp::why(&game, p.0, label);
                    (why.offered, why.lines.iter().map(|l| l.replace(name, "NAME")).collect::<Vec<_>>())
                };
                let of_hidden = answer(&format!("play {hidden}"), &hidden);
                let of_nothing = answer("play nothing at all", "nothing at all");
                assert_eq!(of_hidden, of_nothing, "seed {seed}, player {}: asked of {hidden}", p.0);
                asked += 1;
            }
            let n = game.labels().len() as u64;
            game.apply(rng.below(n) as usize).expect("a legal move");
        }
    }
    assert!(asked > 100, "only {asked} questions");
}

/// A move the game writes itself (`label_play`) is written so only for a seat that sees
/// every object it names: another seat reads its default label, the card in its hidden
/// form, and is told of the things it names in that form too.
#[test]
fn a_move_the_game_writes_names_a_hidden_card_only_to_who_sees_it() {
    use tgdl_runtime::hidden::Viewer;
    use tgdl_runtime::{Rng, Status};
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let source = std::fs::read_to_string(examples.join("crazy_eights.tgdl")).expect("the example");
    let written = "    function label_play {
        function input cards.Card card;
        returns string;
        effect { return \"lay down \" + card.glyph(); }
    }
";
    let text = source.replacen("global class Eights {\n", &format!("global class Eights {{\n{written}"), 1);
    assert_ne!(text, source, "the function went in");
    let _installed = install_input(tgdl_compiler::Input::Text {
        name: "crazy_eights.tgdl",
        text: &text,
        base_dir: Some(&examples),
    });
    let mut seen_written = 0;
    for seed in 0..3 {
        let mut game = tgdl_interp::Interpreted::start(2, seed).expect("two players");
        let mut rng = Rng::new(seed);
        for _ in 0..30 {
            let Status::Decide(p) = game.status() else { break };
            let (me, other) = (Viewer::Seat(p.0), Viewer::Seat(1 - p.0));
            let (mine, theirs) = (game.labels_of(p.0, me), game.labels_of(p.0, other));
            let (my_things, their_things) = (game.things_of(p.0, me), game.things_of(p.0, other));
            for (i, label) in mine.iter().enumerate() {
                if !label.starts_with("lay down ") {
                    assert!(my_things[i].is_empty(), "seed {seed}: {label} names its things itself");
                    continue;
                }
                seen_written += 1;
                assert!(!my_things[i][0].contains("hidden"), "seed {seed}: {label}: {:?}", my_things[i]);
                assert_eq!(theirs[i], "play a hidden Card", "seed {seed}: {label}");
                assert_eq!(their_things[i], ["a hidden Card"], "seed {seed}: {label}");
            }
            let n = game.labels().len() as u64;
            game.apply(rng.below(n) as usize).expect("a legal move");
        }
    }
    assert!(seen_written > 20, "only {seen_written} moves written by the game");
}

/// How many batch programs must be compared for the batch test to mean anything: the
/// generators reach programs that play, not only ones that end at once.
const BATCH_COMPARED_AT_LEAST: usize = 5;

#[test]
fn the_interpreter_plays_the_batch_as_its_engines_do() {
    let (mut compared, mut undecided, mut failures) = (Vec::new(), Vec::new(), Vec::new());
    for b in BATCH {
        // A panic of the interpreter (preparing or playing) is a difference like any other.
        let installed = std::panic::catch_unwind(|| install_source(b.file, b.source));
        let _installed = match installed {
            Ok(guard) => guard,
            Err(panic) => {
                failures.push(format!("{}: preparing panicked: {}", b.name, panic_message(&*panic)));
                continue;
            }
        };
        let info = (b.info)();
        let counts = info.max_players - info.min_players + 1;
        let mut decisions = 0;
        for seed in 0..3 {
            let players = info.min_players + (seed % u64::from(counts)) as u32;
            let place = format!("{} ({}), {players} players, seed {seed}", b.name, b.file);
            match std::panic::catch_unwind(|| (b.interpreted)(players, seed, MAX_DECISIONS)) {
                Ok(Ok(n)) => decisions += n,
                Ok(Err(e)) => {
                    failures.push(format!("{place}: compiled (first) and interpreted (second) differ, {e}"));
                    break;
                }
                Err(panic) => {
                    failures.push(format!("{place}: a panic, {}", panic_message(&*panic)));
                    break;
                }
            }
        }
        // A program whose games end before their first decision (or cannot start) shows
        // little: only those with decisions count as compared.
        if decisions > 0 {
            compared.push(format!("{} ({decisions} decisions)", b.name));
        } else {
            undecided.push(b.name);
        }
    }
    eprintln!("compared ({}): {}", compared.len(), compared.join(", "));
    eprintln!("no decision to compare ({}): {}", undecided.len(), undecided.join(", "));
    assert!(failures.is_empty(), "{} batch programs differ:\n{}", failures.len(), failures.join("\n\n"));
    assert!(
        compared.len() >= BATCH_COMPARED_AT_LEAST,
        "only {} of {} batch programs were compared: the others end before a decision",
        compared.len(),
        BATCH.len()
    );
}

/// The text a panic carries.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}
