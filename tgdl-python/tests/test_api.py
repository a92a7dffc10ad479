"""The API (docs/python.md) of built game modules against `tgdlc play --trace` and `tgdlc simulate --json`."""

import copy
import json
import pickle
import subprocess
import sys

import pytest
from conftest import without_timing

import connect_four
import rule_errors
import tic_tac_toe

GAMES = [
    (tic_tac_toe, "examples/tic_tac_toe.tgdl"),
    (connect_four, "examples/connect_four.tgdl"),
]
SEEDS = [0, 1, 7, 42, 12345]


def play_trace(tgdlc, root, file, seed, tmp_path):
    trace = tmp_path / f"trace-{seed}.json"
    subprocess.run(
        [tgdlc, "play", str(root / file), "--seats", "random", "--seed", str(seed), "-v", "--trace", str(trace)],
        check=True,
        cwd=root,
        stdout=subprocess.DEVNULL,
    )
    return json.loads(trace.read_text())


def random_game(module, players, seed):
    """Plays a game as `play --seats random --seed seed` does, through the Python API."""
    state = module.Game(players).new_state(seed)
    agents = [module.RandomAgent(module.seat_seed(seed, p)) for p in range(players)]
    moves = []
    while not state.is_terminal():
        player = state.current_player()
        actions = state.legal_actions()
        assert actions == list(range(len(actions)))
        index = agents[player].pick(len(actions))
        moves.append({"player": player, "index": index, "label": state.action_labels()[index]})
        state.apply_action(index)
    return state, moves


@pytest.mark.parametrize("module,file", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_games_match_play_traces(tgdlc, root, tmp_path, module, file, seed):
    trace = play_trace(tgdlc, root, file, seed, tmp_path)
    state, moves = random_game(module, trace["players"], seed)
    assert moves == trace["decisions"]
    result = trace["result"]
    assert result["status"] == "over"
    assert state.outcome() == result["places"]
    assert state.current_player() == module.TERMINAL
    returns = state.returns()
    if len(result["places"]) == 1:
        assert returns == [0.5] * trace["players"]
    else:
        winner = result["places"][0][0]
        assert returns[winner] == 1.0 and sum(returns) == 1.0


@pytest.mark.parametrize("module,file", GAMES)
def test_trace_replays_by_index(tgdlc, root, tmp_path, module, file):
    trace = play_trace(tgdlc, root, file, 99, tmp_path)
    state = module.Game(trace["players"]).new_state(trace["seed"])
    for d in trace["decisions"]:
        assert state.current_player() == d["player"]
        assert state.action_label(d["index"]) == d["label"]
        state.apply_action(d["index"])
    assert state.is_terminal() and state.outcome() == trace["result"]["places"]


@pytest.mark.parametrize("module", [tic_tac_toe, connect_four])
def test_clone_and_pickle_round_trip_mid_game(module):
    state = module.Game().new_state(3)
    for _ in range(4):
        state.apply_action(state.legal_actions()[-1])
    copies = [state.clone(), copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))]
    for c in copies:
        assert type(c) is module.State
        assert c.history() == state.history() and c.seed == 3 and c.players == 2
        assert c.observation(0) == state.observation(0)
        assert c.action_labels() == state.action_labels()
    # Copies are independent, and go on exactly as the original.
    state.apply_action(0)
    assert copies[0].history() == state.history()[:-1]
    for c in copies:
        c.apply_action(0)
        assert c.observation(1) == state.observation(1)
    game = pickle.loads(pickle.dumps(module.Game(2)))
    assert game.players == 2


def test_rule_error_raises_with_its_location():
    state = rule_errors.Game(3).new_state(0)
    assert state.action_labels()  # input `kind`: a player
    with pytest.raises(rule_errors.RuleError) as info:
        state.apply_action(0)
    assert info.value.location.endswith("rule_errors.tgdl:12:39")
    assert info.value.message == "division by zero"
    assert "rule_errors.tgdl:12:39" in str(info.value)
    assert state.is_terminal() and state.current_player() == rule_errors.TERMINAL
    assert state.error() == (info.value.location, "division by zero")
    assert state.returns() == [0.0, 0.0, 0.0]
    # A pickled failed state replays to the same error.
    with pytest.raises(rule_errors.RuleError):
        pickle.loads(pickle.dumps(state))


def test_budgets_are_set_for_the_games_started_after():
    defaults = connect_four.limits()
    assert defaults["call_depth"] == 1000 and defaults["loop_steps"] == 10_000_000
    try:
        # One loop iteration a decision: connect four's `while` along a line stops.
        assert connect_four.set_limits(loop_steps=1)["loop_steps"] == 1
        with pytest.raises(connect_four.RuleError) as info:
            random_game(connect_four, 2, 3)
        assert info.value.message == "this loop ran more than 1 iterations in one decision"
        assert "connect_four.tgdl:70:" in info.value.location
        with pytest.raises(ValueError, match="3000 at most"):
            connect_four.set_limits(call_depth=3001)
        assert connect_four.limits()["loop_steps"] == 1, "a refused value changes nothing"
    finally:
        connect_four.set_limits(**defaults)
    assert connect_four.limits() == defaults
    state, _ = random_game(connect_four, 2, 3)
    assert state.is_terminal() and state.error() is None


def test_bad_actions_and_players_raise():
    with pytest.raises(ValueError, match="2 players"):
        tic_tac_toe.Game(3)
    state = tic_tac_toe.Game().new_state(0)
    with pytest.raises(IndexError):
        state.apply_action(9)
    with pytest.raises(IndexError):
        state.observation(2)


def test_observation_is_the_seats_json():
    state = connect_four.Game().new_state(0)
    obs = json.loads(state.observation(1))
    assert obs["viewer"] == {"Seat": 1}
    assert obs["view"]["title"] == "ConnectFour"
    assert json.loads(state.observation())["viewer"] == "Public"
    state.apply_action(3)
    assert state.observation_dict(1) == json.loads(state.observation(1))
    assert state.observation_dict()["viewer"] == "Public"
    # The text form draws the same view: the disc dropped in column 3 is on the bottom row.
    text = state.observation_text(1)
    assert "ConnectFour" in text and "X" in text
    assert text == state.observation_text(0) == str(state)  # nothing is hidden in connect four
    with pytest.raises(IndexError):
        state.observation_text(2)



@pytest.mark.parametrize("module,file", GAMES)
def test_simulate_equals_the_command_line(cli_report, module, file):
    cli = cli_report(file, 2000, 5)
    assert without_timing(module.simulate(2000, 5, 2)) == without_timing(cli)
    assert without_timing(module.Game(2).simulate(2000, 5, 1)) == without_timing(cli)
    # Ranges of games merge into the same report.
    game = module.Game(2)
    tallies = [game.simulate_range(a, b, 5) for a, b in [(1500, 2000), (0, 700), (700, 1500)]]
    assert without_timing(module.merge_tallies(tallies)) == without_timing(cli)
    with pytest.raises(ValueError, match="once each"):
        module.merge_tallies(tallies[:2])


def test_agent_action_searches():
    state = tic_tac_toe.Game().new_state(0)
    # X at (0, 0) and (1, 0), O at (0, 1) and (1, 1): X wins at (2, 0).
    for cell in ["Cell(0, 0)", "Cell(0, 1)", "Cell(1, 0)", "Cell(1, 1)"]:
        state.apply_action(state.action_labels().index(f"place {cell}"))
    best = state.agent_action("mcts:2000", 1)
    assert state.action_labels()[best] == "place Cell(2, 0)"
    assert state.agent_action("random", 3) in state.legal_actions()


def test_tgdl_ray_splits_and_merges_locally(cli_report):
    import tgdl_ray

    assert tgdl_ray.ranges(20000, 8)[0] == (0, 2500) and tgdl_ray.ranges(20000, 8)[-1] == (17500, 20000)
    cli = cli_report("examples/connect_four.tgdl", 20000, 3)
    merged = tgdl_ray.simulate(connect_four, 20000, 3, tasks=8, local=True)
    assert without_timing(merged) == without_timing(cli)


def test_tgdl_ray_on_ray(cli_report, wheels, tmp_path):
    ray = pytest.importorskip("ray")
    import tgdl_ray

    cli = cli_report("examples/connect_four.tgdl", 20000, 3)
    # The game's package goes to the workers with the job (runtime_env py_modules).
    ray.init(num_cpus=2, include_dashboard=False, runtime_env=tgdl_ray.runtime_env("connect_four"))
    try:
        merged = tgdl_ray.simulate("connect_four", 20000, 3, tasks=8)
    finally:
        ray.shutdown()
    assert without_timing(merged) == without_timing(cli)
    # The entry point on a wheel's path, as on a cluster whose workers have nothing installed.
    wheel = next(wheels.glob("tgdl_connect_four-*.whl"))
    out = subprocess.run(
        [sys.executable, "-m", "tgdl_ray", "simulate", str(wheel), "-n", "20000", "--seed", "3", "--num-cpus", "2"],
        check=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    ).stdout
    assert without_timing(out) == without_timing(cli)
