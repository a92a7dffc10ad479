"""Python-driven random playouts of connect four: the TGDL wheel beside OpenSpiel's
pyspiel (`pip install open_spiel`), the same loop for both (legal actions, a random
choice, apply), and the cost of one `apply_action` call across the boundary.

    python tgdl-python/bench/playouts.py [GAMES]

A benchmark, not a test: it prints figures for docs/performance.md.
"""

import random
import sys
import time

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 20000


def playouts(new_state, games):
    rng = random.Random(1)
    moves = 0
    start = time.perf_counter()
    for _ in range(games):
        state = new_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return games / (time.perf_counter() - start), moves


def apply_cost(new_state, calls):
    """Seconds per `apply_action` on a fresh state's first move (clone excluded)."""
    state = new_state()
    first = state.legal_actions()[0]
    states = [state.clone() for _ in range(calls)]
    start = time.perf_counter()
    for s in states:
        s.apply_action(first)
    return (time.perf_counter() - start) / calls


def main():
    import connect_four

    tgdl_game = connect_four.Game()
    engines = [("tgdl", lambda: tgdl_game.new_state(1))]
    try:
        import pyspiel

        spiel_game = pyspiel.load_game("connect_four")
        engines.append(("open_spiel", spiel_game.new_initial_state))
    except ImportError:
        print("open_spiel is not installed: measuring TGDL only")
    for name, new_state in engines:
        best = 0.0
        for _ in range(3):
            rate, moves = playouts(new_state, GAMES)
            best = max(best, rate)
        cost = min(apply_cost(new_state, 20000) for _ in range(3))
        print(f"{name}: {best:,.0f} games/s ({moves / GAMES:.1f} moves a game); apply_action {cost * 1e9:,.0f} ns")


if __name__ == "__main__":
    main()
