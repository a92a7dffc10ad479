#!/usr/bin/env bash
# The Python bindings end to end (docs/python.md): a virtual environment in
# target/python-venv with maturin, pytest, PettingZoo and NumPy; the wheels of two
# examples (and a game whose rules fail) built by `tgdlc build --python`; pytest.
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
python -m pip install -q "maturin>=1.5,<2" "pytest>=7" "pettingzoo>=1.24" numpy
if [ "${TGDL_RAY:-0}" = 1 ]; then
    python -m pip install -q "ray>=2.9"
fi

cargo build --release -p tgdlc
wheels="$PWD/target/python-wheels"
rm -rf "$wheels"
mkdir -p "$wheels"
for game in examples/tic_tac_toe.tgdl examples/connect_four.tgdl tests/programs/rule_errors.tgdl; do
    target/release/tgdlc build "$game" --python -o "$wheels"
done
python -m pip install -q --force-reinstall "$wheels"/*.whl

TGDLC="$PWD/target/release/tgdlc" python -m pytest -q tgdl-python/tests
