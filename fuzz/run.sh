#!/usr/bin/env bash
# Coverage-guided fuzzing of the compiler, the interpreter (alone, and against the compiled
# engines of the examples), the trace reader, the server, stored matches and the language
# server (cargo fuzz, libFuzzer).
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# Runs each target (default: parse check codegen interp differential trace server stored lsp)
# for SECONDS (default 30) on a corpus seeded with every example and test program (for
# `trace`, traces of played games; for `server`, `stored`, `lsp` and `differential`, the
# inputs in seeds/TARGET/: for `differential`, a game of each example, named after it, whose
# first byte is its position among the examples in alphabetical order), with
# the TGDL dictionary. A crash, a timeout (over 10 s for one input, 60 s for `differential`) or
# memory over 2 GB stops the run and leaves the input in fuzz/artifacts/TARGET/; make it
# a regression test (docs/reliability.md). Needs `cargo install cargo-fuzz`; builds on the
# stable toolchain (RUSTC_BOOTSTRAP=1, no sanitizer) or on nightly with
# `FUZZ_SANITIZER=address`. With `FUZZ_KEEP_GOING=1` (long runs), a crash is saved and
# the run goes on (libFuzzer's fork mode).
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-30}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse check codegen interp differential trace server stored lsp)
sanitizer="${FUZZ_SANITIZER:-none}"
if [ "$sanitizer" = none ]; then export RUSTC_BOOTSTRAP=1; fi
extra=()
if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
    extra=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi

for target in "${targets[@]}"; do
    corpus="corpus/$target"
    mkdir -p "$corpus" "artifacts/$target"
    if [ "$target" = trace ]; then
        cp seeds/traces/*.json "$corpus/" 2>/dev/null || true
    elif [ "$target" = server ] || [ "$target" = lsp ] || [ "$target" = stored ] || [ "$target" = differential ]; then
        cp "seeds/$target"/* "$corpus/" 2>/dev/null || true
    else
        for f in ../examples/*.tgdl ../examples/lib/*.tgdl ../tests/programs/*.tgdl \
            ../tests/programs/modules/*.tgdl ../tests/data/*.tgdl ../tgdl-compiler/tests/fragments/*.tgdl; do
            [ -f "$f" ] && cp "$f" "$corpus/"
        done
    fi
    # A differential input plays a whole game on two engines, comparing every viewer's
    # observation at each of up to 300 decisions: an Amazons game takes 10 to 20 s of a
    # slow core, so it gets longer before it counts as hung.
    timeout=10
    if [ "$target" = differential ]; then timeout=60; fi
    cargo fuzz build -s "$sanitizer" "$target"
    cargo fuzz run -s "$sanitizer" "$target" "$corpus" -- \
        -dict=tgdl.dict -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
        -artifact_prefix="artifacts/$target/" -print_final_stats=1 ${FUZZ_SEED:+-seed="$FUZZ_SEED"} "${extra[@]}"
done
