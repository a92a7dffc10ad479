"""Simulations split into Ray tasks (notes §7): game i always has seed derive_seed(seed, i),
so the merged report equals `tgdlc simulate -n N --seed S --json`, timing aside.

    python -m tgdl_ray simulate connect_four -n 20000 --seed 5 --tasks 8 [--address auto]

MODULE is the name of an installed game module (`pip install` its wheel first; every
Ray worker needs it too). As a function: `simulate(module, n, seed, tasks=8)`.
Without Ray installed (or with `local=True`), the same tasks run one after another here.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from typing import List, Optional, Sequence, Tuple

__all__ = ["ranges", "simulate", "main"]


def ranges(n: int, tasks: int) -> List[Tuple[int, int]]:
    """`0..n` split into at most `tasks` contiguous ranges of nearly equal size."""
    tasks = max(1, min(tasks, n)) if n > 0 else 1
    return [(n * t // tasks, n * (t + 1) // tasks) for t in range(tasks)]


def _tally(module_name, start, end, seed, players, max_decisions, seats):
    module = importlib.import_module(module_name)
    return module.simulate_range(start, end, seed, players, max_decisions, seats)


def simulate(
    module,
    n: int,
    seed: int = 0,
    tasks: int = 8,
    players: Optional[int] = None,
    max_decisions: Optional[int] = None,
    seats: Optional[Sequence[str]] = None,
    local: bool = False,
) -> str:
    """The `simulate --json` report of `n` games, run as `tasks` Ray tasks (Ray must be
    initialised, or is initialised locally) and merged."""
    name = module if isinstance(module, str) else module.__name__
    mod = importlib.import_module(name)
    seats = list(seats) if seats is not None else None
    started = time.perf_counter()
    parts = ranges(n, tasks)
    if local:
        tallies = [_tally(name, a, b, seed, players, max_decisions, seats) for a, b in parts]
    else:
        import ray

        if not ray.is_initialized():
            ray.init()
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
    sim.add_argument("module", help="the game's Python module (e.g. connect_four)")
    sim.add_argument("-n", "--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", type=int)
    sim.add_argument("--max-decisions", type=int)
    sim.add_argument("--seats", help="comma-separated seats, e.g. mcts:200,random")
    sim.add_argument("--tasks", type=int, default=8, help="Ray tasks (default 8)")
    sim.add_argument("--address", help="the Ray cluster to join (default: a local instance)")
    sim.add_argument("--num-cpus", type=int, help="CPUs of a local Ray instance")
    sim.add_argument("--local", action="store_true", help="run the tasks here, without Ray")
    args = parser.parse_args(argv)
    if not args.local:
        import ray

        if args.address:
            ray.init(address=args.address)
        else:
            ray.init(num_cpus=args.num_cpus)
    seats = args.seats.split(",") if args.seats else None
    print(
        simulate(
            args.module,
            args.games,
            args.seed,
            args.tasks,
            args.players,
            args.max_decisions,
            seats,
            local=args.local,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
