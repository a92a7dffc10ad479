"""Simulations split into Ray tasks (docs/python.md): game i always has seed derive_seed(seed, i),
so the merged report equals `tgdlc simulate -n N --seed S --json`, timing aside.

    python -m tgdl_ray simulate connect_four -n 20000 --seed 5 --tasks 8 [--address auto]
    python -m tgdl_ray simulate wheels/tgdl_connect_four-0.1.0-cp39-abi3-linux_x86_64.whl -n 20000

The game is the name of an installed game module, a module object, or the path of a game
wheel (unpacked into this user's private cache directory, checked against the wheel, and
imported from there; nothing installed). The
game's package is shipped to the Ray workers with the job (`runtime_env`'s `py_modules`),
so the workers of a cluster need neither its wheel nor this module; `--no-ship` leaves
them to import an installed one. A program that calls `ray.init` itself passes
`runtime_env=tgdl_ray.runtime_env(game)` to ship it. As a function:
`simulate(game, n, seed, tasks=8)`; `local=True` (`--local`) runs the same tasks one
after another in this process, without Ray.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import io
import os
import pathlib
import shutil
import stat
import sys
import tempfile
import time
import zipfile
from typing import List, Optional, Sequence, Tuple

__all__ = ["ranges", "load", "runtime_env", "simulate", "main"]


def _cache_root() -> pathlib.Path:
    """This user's private directory of unpacked wheels: `$XDG_CACHE_HOME/tgdl_ray`, else
    `~/.cache/tgdl_ray`, created with mode 0700. Refused (PermissionError) when another
    user owns it or others may write to it, or when others may replace it (the directory
    above it is writable by others and not sticky): what is imported from there must be
    what this user unpacked."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    base = pathlib.Path(base) if os.path.isabs(base) else pathlib.Path.home() / ".cache"
    base.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.stat(base)
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not info.st_mode & stat.S_ISVTX:
        raise PermissionError(f"{base} can be changed by other users: set XDG_CACHE_HOME to a private directory")
    root = base / "tgdl_ray"
    try:
        root.mkdir(mode=0o700)
    except FileExistsError:
        pass
    _check_private(root)
    return root


def _check_private(directory: pathlib.Path) -> None:
    info = os.lstat(directory)
    if not stat.S_ISDIR(info.st_mode):
        raise PermissionError(f"{directory} is not a directory (a symbolic link?)")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise PermissionError(f"{directory} belongs to another user: refusing to import from it")
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise PermissionError(f"{directory} can be written by other users: refusing to import from it")


def _holds(directory: pathlib.Path, expected: dict) -> bool:
    """Whether `directory` holds exactly the files `expected` names (relative path ->
    SHA-256 of the content), nothing else, and no symbolic link."""
    if not directory.is_dir() or directory.is_symlink():
        return False
    found = 0
    for folder, dirs, files in os.walk(directory):
        for name in dirs + files:
            path = pathlib.Path(folder) / name
            if path.is_symlink():
                return False
        for name in files:
            path = pathlib.Path(folder) / name
            relative = path.relative_to(directory).as_posix()
            if expected.get(relative) != hashlib.sha256(path.read_bytes()).hexdigest():
                return False
            found += 1
    return found == len(expected)


def load(game):
    """The game module of `game`: a module, the name of an installed one, or the path of
    a game wheel (`tgdlc build --python`), unpacked into this user's private cache
    (`$XDG_CACHE_HOME/tgdl_ray/<wheel>-<sha256>`, see `_cache_root`) and imported from
    there once its files are checked against the wheel's."""
    if not isinstance(game, (str, os.PathLike)):
        return game
    path = pathlib.Path(game)
    if path.suffix != ".whl":
        return importlib.import_module(str(game))
    if not path.is_file():
        raise FileNotFoundError(f"no wheel at {path}")
    # Read once: what is hashed is what is unpacked.
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    root = _cache_root()
    target = root / f"{path.stem}-{digest}"
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        names = wheel.namelist()
        packages = sorted({n.split("/")[0] for n in names if n.endswith("/__init__.py") and n.count("/") == 1})
        if len(packages) != 1:
            raise ValueError(f"{path} is not the wheel of one game (packages: {packages})")
        expected = {i.filename: hashlib.sha256(wheel.read(i)).hexdigest() for i in wheel.infolist() if not i.is_dir()}
        if not _holds(target, expected):
            # Unpacked afresh beside it (mkdtemp: mode 0700), then moved into place.
            staging = pathlib.Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=root))
            wheel.extractall(staging)
            if target.exists() or target.is_symlink():
                if target.is_dir() and not target.is_symlink():
                    shutil.rmtree(target)
                else:
                    target.unlink()
            try:
                staging.rename(target)
            except OSError:  # another process unpacked it first
                shutil.rmtree(staging, ignore_errors=True)
    _check_private(target)
    if not _holds(target, expected):
        raise ImportError(f"{target} does not hold what {path} holds: refusing to import it")
    name = packages[0]
    loaded = sys.modules.get(name)
    if loaded is not None:
        if pathlib.Path(loaded.__file__).resolve().parent != (target / name).resolve():
            raise ImportError(f"another `{name}` is already imported (from {loaded.__file__})")
        return loaded
    sys.path.insert(0, str(target))
    # No bytecode is written beside the checked files: the next load finds them as unpacked.
    writes = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        return importlib.import_module(name)
    finally:
        sys.dont_write_bytecode = writes


def runtime_env(game) -> dict:
    """The Ray `runtime_env` that sends the game's package to the workers: pass it to
    `ray.init(runtime_env=...)` (Ray uploads directories at the job level only)."""
    mod = load(game)
    package = os.path.dirname(mod.__file__)
    if os.path.basename(package) != mod.__name__:
        raise ValueError(f"cannot ship `{mod.__name__}`: it is not a game package (from {mod.__file__})")
    return {"py_modules": [package]}


def ranges(n: int, tasks: int) -> List[Tuple[int, int]]:
    """`0..n` split into at most `tasks` contiguous ranges of nearly equal size."""
    tasks = max(1, min(tasks, n)) if n > 0 else 1
    return [(n * t // tasks, n * (t + 1) // tasks) for t in range(tasks)]


def _tally(module_name, start, end, seed, players, max_decisions, seats):
    module = importlib.import_module(module_name)
    return module.simulate_range(start, end, seed, players, max_decisions, seats)


def simulate(
    game,
    n: int,
    seed: int = 0,
    tasks: int = 8,
    players: Optional[int] = None,
    max_decisions: Optional[int] = None,
    seats: Optional[Sequence[str]] = None,
    local: bool = False,
    ship: bool = True,
) -> str:
    """The `simulate --json` report of `n` games of `game` (a module, its name or a wheel's
    path), run as `tasks` Ray tasks (Ray is initialised locally unless it already is) and
    merged. When this function starts Ray, `ship` sends the game's package to the workers
    (`runtime_env`); a program that calls `ray.init` itself passes
    `runtime_env=tgdl_ray.runtime_env(game)` for that."""
    mod = load(game)
    name = mod.__name__
    seats = list(seats) if seats is not None else None
    started = time.perf_counter()
    parts = ranges(n, tasks)
    if local:
        tallies = [_tally(name, a, b, seed, players, max_decisions, seats) for a, b in parts]
    else:
        import ray

        if not ray.is_initialized():
            ray.init(runtime_env=runtime_env(mod) if ship else None)
        # Workers need the game's module, not this one: the task goes by value.
        if __name__ != "__main__":
            ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
        remote = ray.remote(_tally)
        tallies = ray.get([remote.remote(name, a, b, seed, players, max_decisions, seats) for a, b in parts])
    return mod.merge_tallies(tallies, time.perf_counter() - started)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tgdl_ray", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="random (or agents') games split into Ray tasks")
    sim.add_argument("game", help="the game: an installed module (connect_four) or the path of its wheel")
    sim.add_argument("-n", "--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", type=int)
    sim.add_argument("--max-decisions", type=int)
    sim.add_argument("--seats", help="comma-separated seats, e.g. mcts:200,random")
    sim.add_argument("--tasks", type=int, default=8, help="Ray tasks (default 8)")
    sim.add_argument("--address", help="the Ray cluster to join (default: a local instance)")
    sim.add_argument("--num-cpus", type=int, help="CPUs of a local Ray instance")
    sim.add_argument("--local", action="store_true", help="run the tasks here, without Ray")
    sim.add_argument(
        "--no-ship", action="store_true", help="do not send the game to the workers (they have it installed)"
    )
    args = parser.parse_args(argv)
    if not args.local:
        import ray

        env = None if args.no_ship else runtime_env(args.game)
        if args.address:
            ray.init(address=args.address, runtime_env=env)
        else:
            ray.init(num_cpus=args.num_cpus, runtime_env=env)
    seats = args.seats.split(",") if args.seats else None
    print(
        simulate(
            args.game,
            args.games,
            args.seed,
            args.tasks,
            args.players,
            args.max_decisions,
            seats,
            local=args.local,
            ship=not args.no_ship,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
