#!/usr/bin/env bash
# The Python bindings end to end (docs/python.md): a virtual environment in
# target/python-venv with maturin, pytest, PettingZoo, NumPy and OpenSpiel; the wheels of
# eight examples (four with hidden information, two of them OpenSpiel's Kuhn and Leduc
# poker, two with simultaneous turns: OpenSpiel's goofspiel and rock-paper-scissors), of
# liar's dice with three-sided dice (to run OpenSpiel's algorithms beside OpenSpiel's own
# game), and of four test programs (a card dealt off a shuffled deck, a `random()`, rules
# that fail, rounds that leave a player out), built by
# `tgdlc build --python` with the `tgdl` support wheel they require; installed as a user
# installs them; pytest against the installed packages.
# With TGDL_RAY=1, also Ray and the distributed simulation test.
set -euo pipefail
cd "$(dirname "$0")/.."

export TGDL_CACHE="${TGDL_CACHE:-$PWD/target/tgdl-cache}"
venv="$PWD/target/python-venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
export PATH="$venv/bin:$PATH"
python -m pip install -q --upgrade pip
python -m pip install -q "maturin>=1.5,<2" "pytest>=7" "pettingzoo>=1.24" numpy "open_spiel>=1.5"
if [ "${TGDL_RAY:-0}" = 1 ]; then
    python -m pip install -q "ray>=2.9"
fi

cargo build --release -p tgdlc
wheels="$PWD/target/python-wheels"
rm -rf "$wheels"
mkdir -p "$wheels"
games=(examples/tic_tac_toe.tgdl examples/connect_four.tgdl examples/crazy_eights.tgdl examples/liars_dice.tgdl
    examples/kuhn_poker.tgdl examples/leduc_poker.tgdl examples/goofspiel.tgdl examples/rock_paper_scissors.tgdl
    tgdl-python/tests/games/liars_dice_3.tgdl tests/programs/dealt_card.tgdl tests/programs/math_and_dice.tgdl
    tests/programs/rule_errors.tgdl tests/programs/simultaneous.tgdl tests/programs/team_results.tgdl)
# These engines (and the game binaries the tests build for `tgdlc play` and `perft`) are
# built for the tests alone: build time matters more than their speed.
export CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
for game in "${games[@]}"; do
    target/release/tgdlc build "$game" --python -o "$wheels"
done

# As a user installs them: the game wheels, their `tgdl` requirement found beside them.
python -m pip uninstall -q -y tgdl tgdl-tic-tac-toe tgdl-connect-four tgdl-crazy-eights tgdl-liars-dice \
    tgdl-kuhn-poker tgdl-leduc-poker tgdl-goofspiel tgdl-rock-paper-scissors tgdl-liars-dice3 tgdl-dealt-card \
    tgdl-math-and-dice tgdl-rule-errors tgdl-rounds tgdl-team-results
python -m pip install -q --no-index --find-links "$wheels" "$wheels"/tgdl_*.whl
python -m pip check

# From a directory outside the checkout's Python sources: the tests import the installed packages.
TGDLC="$PWD/target/release/tgdlc" TGDL_WHEELS="$wheels" python -m pytest -q -p no:cacheprovider tgdl-python/tests
