//! The flags that change the engines' budgets (`--max-call-depth` and the others,
//! docs/reliability.md), through a game binary's command line in process. The budgets
//! are settings of the process, so every case runs in this one test, one after another,
//! and the defaults are put back at the end.

use tgdl_runtime::limits::{self, Limits};
use tgdl_tests::PROGRAMS;

/// Plays option `choice` (1-based) of `tests/programs/budgets.tgdl` with `flags`; the exit
/// code and everything printed.
fn budgets(choice: usize, flags: &[&str]) -> (u8, String) {
    let program = PROGRAMS.iter().find(|p| p.name == "budgets").expect("tests/programs/budgets.tgdl");
    let mut args = vec!["play", "--seats", "human", "--seed", "1"];
    args.extend_from_slice(flags);
    (program.cli)(&args, &format!("{choice}\n"))
}

#[test]
fn budget_flags_raise_and_lower_each_budget() {
    // The deepest recursion needs a main thread's stack, as in a game binary.
    let run = std::thread::Builder::new().stack_size(limits::GAME_STACK_BYTES).spawn(|| {
        let (code, out) = budgets(1, &[]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("calls nested more than 1000 deep"), "{out}");

        let (code, out) = budgets(1, &["--max-call-depth", "3000"]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("calls nested more than 3000 deep"), "{out}");
        assert_eq!(limits::current().call_depth, 3000);

        let (code, out) = budgets(3, &["--max-event-runs", "10"]);
        assert!(out.contains("events ran more than 10 actions in one decision"), "{code} {out}");

        let (code, out) = budgets(4, &["--max-string-bytes", "100"]);
        assert!(out.contains("this string would be 128 bytes long, over the limit of 100"), "{code} {out}");

        let (code, out) = budgets(5, &["--max-list-items", "1000"]);
        assert!(out.contains("this list would hold 1024 items, over the limit of 1000"), "{code} {out}");

        // Every way a list, stack or table grows stops at a small budget with a located
        // error, at the statement that would cross it (`push`, `push_front`, a new key).
        let (code, out) = budgets(9, &["--max-list-items", "1000"]);
        assert!(
            out.contains("budgets.tgdl:92:17: this list would hold 1001 items, over the limit of 1000"),
            "{code} {out}"
        );
        let (code, out) = budgets(10, &["--max-list-items", "1000"]);
        assert!(
            out.contains("budgets.tgdl:104:17: this stack would hold 1001 items, over the limit of 1000"),
            "{code} {out}"
        );
        let (code, out) = budgets(10, &["--max-list-items", "1001"]);
        assert!(
            out.contains("budgets.tgdl:105:17: this stack would hold 1002 items, over the limit of 1001"),
            "{code} {out}"
        );
        let (code, out) = budgets(12, &["--max-list-items", "1000"]);
        assert!(
            out.contains("budgets.tgdl:125:17: this table would hold 1001 entries, over the limit of 1000"),
            "{code} {out}"
        );
        let (_, out) = budgets(12, &["--max-list-items", "2000"]);
        assert!(out.contains("player 0 wins"), "an old key replaced never counts against the budget: {out}");

        // Raised, the string budget lets the same rule go further before it stops.
        let (_, out) = budgets(4, &["--max-string-bytes", "1000"]);
        assert!(out.contains("this string would be 1024 bytes long, over the limit of 1000"), "{out}");

        // A flag left out keeps the budget in force: back to the defaults first. Then 60
        // steps of the `strings` loop no longer fit in 10 (and it stops before its string grows
        // past the budget, at step 24).
        limits::set(Limits::default()).expect("the defaults");
        let (_, out) = budgets(4, &["--max-loop-steps", "10"]);
        assert!(out.contains("this loop ran more than 10 iterations in one decision"), "{out}");

        // Out of range: a usage error, and the budgets stay as they were.
        limits::set(Limits::default()).expect("the defaults");
        for flags in [["--max-call-depth", "3001"], ["--max-event-runs", "0"], ["--max-string-bytes", "-1"]] {
            let (code, out) = budgets(1, &flags);
            assert_eq!(code, 2, "{flags:?} is refused: {out}");
        }
        assert_eq!(limits::current(), Limits::default());
    });
    let result = run.expect("a thread").join();
    limits::set(Limits::default()).expect("the defaults");
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}
