"""The game wheels (and the `tgdl` support wheel they require) are built and installed by
ci.sh (`tgdlc build --python`); the tests import them from the installed packages, never
from the source folder, and compare them with the `tgdlc` command line."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def tgdlc():
    path = pathlib.Path(os.environ.get("TGDLC", ROOT / "target" / "release" / "tgdlc"))
    if not path.is_file():
        pytest.fail(f"no tgdlc at {path}: build it (cargo build --release -p tgdlc) or set TGDLC")
    return str(path)


@pytest.fixture(scope="session")
def wheels():
    path = pathlib.Path(os.environ.get("TGDL_WHEELS", ROOT / "target" / "python-wheels"))
    if not path.is_dir():
        pytest.fail(f"no wheels in {path}: run tgdl-python/ci.sh or set TGDL_WHEELS")
    return path


def without_timing(report):
    """A `simulate` report (JSON text or a dict) without its timings, which differ between runs."""
    report = json.loads(report) if isinstance(report, str) else report
    return {k: v for k, v in report.items() if k not in ("seconds", "games_per_sec")}


@pytest.fixture(scope="session")
def cli_report(tgdlc, root):
    """`tgdlc simulate FILE -n GAMES --seed SEED --json` from the workspace root: its report."""

    def run(file, games, seed):
        return subprocess.run(
            [tgdlc, "simulate", str(root / file), "-n", str(games), "--seed", str(seed), "--json"],
            check=True,
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout

    return run
