"""Steps per second of the vector environment (`module.VectorEnv`) against Python loops:
over single TGDL games (`new_state` + `apply_action`, with and without the observation
encoder), and over OpenSpiel's own games through its Python API (with and without
`observation_tensor`); on one core and on all of them. Then OpenSpiel's CFR iterations per
second on `tgdl_kuhn_poker` and on OpenSpiel's `kuhn_poker`, Python's CFR and C++'s.

    python tgdl-python/bench/vector.py [SECONDS] [REPEATS]

Needs the wheels of examples/kuhn_poker.tgdl, leduc_poker.tgdl and connect_four.tgdl
installed, NumPy and OpenSpiel (the virtual environment tgdl-python/ci.sh makes). A step
is one player's decision (OpenSpiel's chance nodes are sampled, not counted); every loop
chooses uniformly among the legal actions. "All cores" runs the Python loops in one
process per core (they hold the GIL) and the vector environment on one thread per core.
Each figure is the best of REPEATS (3) runs of SECONDS (2) each: the machine may be
shared. A benchmark, not a test: it prints figures for docs/performance.md.
"""

import multiprocessing
import os
import random
import sys
import time

# BLAS threads would spin beside the vector environment's own.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
GAMES = ["kuhn_poker", "leduc_poker", "connect_four"]
CORES = os.cpu_count() or 1


def timed(run):
    """Steps per second of `run(deadline) -> steps`, over about SECONDS: the best of REPEATS."""
    best = 0.0
    for _ in range(REPEATS):
        start = time.perf_counter()
        steps = run(start + SECONDS)
        best = max(best, steps / (time.perf_counter() - start))
    return best


def vector_rate(name, num_envs, threads, observations=True):
    module = __import__(name)
    env = module.VectorEnv(num_envs, seed=1, threads=threads, observations=observations)
    rng = np.random.default_rng(1)
    _, mask, _ = env.observe()

    def run(deadline):
        nonlocal mask
        steps = 0
        while time.perf_counter() < deadline:
            # A uniform legal action per game, without a loop over the games.
            actions = (rng.random(mask.shape) * mask).argmax(axis=1)
            _, mask, _, _, _ = env.step(actions)
            steps += num_envs
        return steps

    return timed(run)


def tgdl_loop(name, encode, seed):
    """One process's loop over single TGDL games: steps per second."""
    module = __import__(name)
    game = module.Game()
    encoder = module.observation_encoder() if encode else None
    rng = random.Random(seed)

    def run(deadline):
        steps, k = 0, 0
        while time.perf_counter() < deadline:
            state = game.new_state(module.derive_seed(seed, k))
            k += 1
            while not state.is_terminal():
                if encoder is not None:
                    encoder.encode_state(state, state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return timed(run)


def openspiel_loop(name, encode, seed):
    """One process's loop over OpenSpiel's own game through its Python API."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(seed)

    def run(deadline):
        steps = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probabilities = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(actions, probabilities)[0])
                    continue
                if encode:
                    np.asarray(state.observation_tensor(state.current_player()), np.float32)
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return timed(run)


def _loop(args):
    kind, name, encode, seed = args
    return (tgdl_loop if kind == "tgdl" else openspiel_loop)(name, encode, seed)


def loop_rate(kind, name, encode, processes):
    if processes == 1:
        return _loop((kind, name, encode, 1))
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        return sum(pool.map(_loop, [(kind, name, encode, 1 + p) for p in range(processes)]))


def cfr_rate(name, iterations, native):
    """CFR iterations per second: OpenSpiel's Python `cfr.CFRSolver`, or (`native`) its
    C++ `pyspiel.CFRSolver`, which calls a Python game back at every node."""
    import pyspiel
    from open_spiel.python.algorithms import cfr

    if name.startswith("tgdl_"):
        __import__(name[len("tgdl_") :])
    game = pyspiel.load_game(name)
    solver = pyspiel.CFRSolver(game) if native else cfr.CFRSolver(game)
    best = 0.0
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        best = max(best, iterations / (time.perf_counter() - start))
    return best


def main():
    print(f"{CORES} cores; load average {os.getloadavg()[0]:.2f}; best of {REPEATS} runs of {SECONDS} s")
    print("steps/s (one core | all cores):")
    for name in GAMES:
        rows = []
        for num_envs in (256, 4096):
            rows.append(
                (f"VectorEnv({num_envs})", vector_rate(name, num_envs, 1), vector_rate(name, num_envs, CORES))
            )
        rows.append(
            (
                "VectorEnv(4096, observations=False)",
                vector_rate(name, 4096, 1, False),
                vector_rate(name, 4096, CORES, False),
            )
        )
        for encode in (False, True):
            what = "loop over TGDL games" + (" + encode_state" if encode else "")
            rows.append((what, loop_rate("tgdl", name, encode, 1), loop_rate("tgdl", name, encode, CORES)))
        for encode in (False, True):
            what = "loop over OpenSpiel's game" + (" + observation_tensor" if encode else "")
            rows.append((what, loop_rate("spiel", name, encode, 1), loop_rate("spiel", name, encode, CORES)))
        for what, one, every in rows:
            print(f"  {name:13} {what:48} {one:>12,.0f} | {every:>12,.0f}")
    print("OpenSpiel CFRSolver iterations/s, one core (Python cfr.CFRSolver | C++ pyspiel.CFRSolver):")
    for name in ("tgdl_kuhn_poker", "kuhn_poker"):
        native = 300 if name.startswith("tgdl_") else 20000
        print(f"  {name:16} {cfr_rate(name, 300, False):>10,.1f} | {cfr_rate(name, native, True):>10,.1f}")


if __name__ == "__main__":
    main()
