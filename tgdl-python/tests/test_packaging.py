"""What `pip install` of the wheels gives: each game a package of its own, and the shared
`tgdl` distribution (PettingZoo, observations, Ray) that every game wheel requires."""

import importlib.metadata as metadata
import pathlib
import subprocess
import sys

from conftest import without_timing

import connect_four
import tgdl_observation
import tgdl_pettingzoo
import tgdl_ray
import tic_tac_toe

GAMES = ["tgdl-tic-tac-toe", "tgdl-connect-four", "tgdl-crazy-eights", "tgdl-rule-errors"]


def test_everything_is_imported_from_the_installed_wheels(root):
    source = (root / "tgdl-python").resolve()
    for module in [connect_four, tic_tac_toe, tgdl_ray, tgdl_pettingzoo, tgdl_observation]:
        path = pathlib.Path(module.__file__).resolve()
        assert source not in path.parents, f"{module.__name__} comes from the source folder: {path}"
        assert "site-packages" in path.parts
    assert pathlib.Path(connect_four._engine.__file__).parent == pathlib.Path(connect_four.__file__).parent


def test_game_wheels_require_the_support_wheel_and_share_no_file():
    support = metadata.distribution("tgdl")
    assert support.version == connect_four.__version__
    owned = {}
    for dist in GAMES + ["tgdl"]:
        files = {str(f) for f in metadata.files(dist) if not str(f).endswith(".pyc") and ".dist-info/" not in str(f)}
        assert files, dist
        for f in files:
            assert f not in owned, f"{f} is installed by both {owned[f]} and {dist}"
            owned[f] = dist
    for game in GAMES:
        assert f"tgdl=={support.version}" in metadata.requires(game)
    assert {owned["tgdl_ray.py"], owned["tgdl_pettingzoo.py"], owned["tgdl_observation.py"]} == {"tgdl"}
    assert owned["connect_four/__init__.py"] == "tgdl-connect-four"
    # The stubs ship with the package.
    assert "connect_four/__init__.pyi" in owned and "connect_four/py.typed" in owned



def test_python_m_tgdl_ray_runs_a_wheel(cli_report, wheels, tmp_path):
    """`python -m tgdl_ray simulate WHEEL` unpacks the wheel and imports the game from it."""
    wheel = next(wheels.glob("tgdl_tic_tac_toe-*.whl"))
    cli = cli_report("examples/tic_tac_toe.tgdl", 3000, 11)
    script = (
        "import sys, tgdl_ray; r = tgdl_ray.main(sys.argv[1:]); "
        "import tic_tac_toe; print(tic_tac_toe.__file__, file=sys.stderr); sys.exit(r)"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, "simulate", str(wheel), "-n", "3000", "--seed", "11", "--tasks", "5", "--local"],
        check=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert without_timing(out.stdout) == without_timing(cli)
    assert "site-packages" not in out.stderr and "tgdl_ray" in out.stderr  # the unpacked wheel
    # The module entry point itself.
    out = subprocess.run(
        [sys.executable, "-m", "tgdl_ray", "simulate", "tic_tac_toe", "-n", "3000", "--seed", "11", "--local"],
        check=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    ).stdout
    assert without_timing(out) == without_timing(cli)
