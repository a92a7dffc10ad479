"""The game wheels are built and installed by ci.sh (`tgdlc build --python`); the tests
drive them through Python and compare with the `tgdlc` command line."""

import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tgdl-python" / "python"))


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def tgdlc():
    path = pathlib.Path(os.environ.get("TGDLC", ROOT / "target" / "release" / "tgdlc"))
    if not path.is_file():
        pytest.fail(f"no tgdlc at {path}: build it (cargo build --release -p tgdlc) or set TGDLC")
    return str(path)
