"""The games as OpenSpiel games (docs/python.md, `tgdl_openspiel`): registered when their
package is imported, run by OpenSpiel's own algorithms unchanged, and compared with
OpenSpiel's `liars_dice`, which examples/liars_dice.tgdl (six-sided dice) and
tests/games/liars_dice_3.tgdl (`dice_sides=3`) play.

TGDL's returns are 1 for the winner and 0 for the loser where OpenSpiel's are +1 and -1:
ours are theirs mapped by r -> (r + 1) / 2, so values and exploitabilities are halved."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import cfr, exploitability, get_all_states
from open_spiel.python.observation import make_observation

import connect_four  # noqa: F401 (registers tgdl_connect_four)
import crazy_eights
import dealt_card
import liars_dice
import liars_dice3  # noqa: F401 (registers tgdl_liars_dice3)
import rule_errors
import tic_tac_toe
import tgdl_openspiel

GameType = pyspiel.GameType


def test_importing_a_game_registers_it():
    names = pyspiel.registered_names()
    for module in (liars_dice, tic_tac_toe, crazy_eights, dealt_card):
        assert f"tgdl_{module.__name__}" in names
    game = pyspiel.load_game("tgdl_liars_dice")
    assert isinstance(game, tgdl_openspiel.TgdlGame) and game.num_players() == 2
    assert game.get_type().short_name == "tgdl_liars_dice"
    assert game.get_type().long_name == "TGDL LiarsDice"
    # Parameters: the player count is passed to the game module, others are refused.
    three = pyspiel.load_game("tgdl_crazy_eights", {"players": 3, "explore_nodes": 2000, "explore_playouts": 10})
    assert three.num_players() == 3 and three.new_initial_state().tgdl_state.players == 3
    with pytest.raises(Exception, match="for 2 players, not 3"):
        pyspiel.load_game("tgdl_liars_dice", {"players": 3})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'bogus'"):
        pyspiel.load_game("tgdl_liars_dice", {"bogus": 1})


def test_a_game_imports_without_openspiel(tmp_path):
    # Without pyspiel, nothing of OpenSpiel is imported and the game is whole.
    hide = (
        "import importlib.util, sys\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda name, *a: None if name == 'pyspiel' else real(name, *a)\n"
        "import liars_dice\n"
        "assert 'pyspiel' not in sys.modules and 'tgdl_openspiel' not in sys.modules\n"
        "print(liars_dice.Game().new_initial_state().chance_outcomes()[0])\n"
    )
    out = subprocess.run([sys.executable, "-c", hide], check=True, capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout.strip() == "(0, 0.16666666666666666)"
    # A pyspiel that fails to import: a warning, and the game is whole.
    (tmp_path / "pyspiel.py").write_text("raise ImportError('broken on purpose')\n")
    broken = "import liars_dice\nprint(liars_dice.Game().new_state(1).players)\n"
    out = subprocess.run(
        [sys.executable, "-c", broken],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert out.stdout.strip() == "2"
    assert "not registered with OpenSpiel" in out.stderr and "broken on purpose" in out.stderr


def test_game_types_and_infos_say_what_the_walk_proved():
    game = pyspiel.load_game("tgdl_liars_dice")
    t = game.get_type()
    assert t.dynamics == GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == GameType.Information.IMPERFECT_INFORMATION
    # Every one of the 147,420 histories ends with one winner: returns sum to 1.
    assert t.utility == GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0
    assert t.reward_model == GameType.RewardModel.TERMINAL
    assert t.provides_information_state_string and t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert (game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()) == (12, 6, 13)
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.max_chance_nodes_in_history() == 2
    assert game.exploration()["complete"]

    ttt = pyspiel.load_game("tgdl_tic_tac_toe")
    t = ttt.get_type()
    assert t.chance_mode == GameType.ChanceMode.DETERMINISTIC
    assert t.information == GameType.Information.PERFECT_INFORMATION
    assert t.utility == GameType.Utility.CONSTANT_SUM and ttt.utility_sum() == 1.0
    assert (ttt.num_distinct_actions(), ttt.max_game_length()) == (9, 9)
    # What is registered promises nothing a walk did not prove.
    registered = {g.short_name: g for g in pyspiel.registered_games()}["tgdl_tic_tac_toe"]
    assert registered.chance_mode == GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert registered.utility == GameType.Utility.GENERAL_SUM
    assert registered.parameter_specification["players"] == 2

    # A walk cut short proves nothing: chance is possible, the sum unknown, the bounds seen.
    c4 = pyspiel.load_game("tgdl_connect_four", {"explore_nodes": 5000, "explore_playouts": 50})
    assert not c4.exploration()["complete"] and c4.exploration()["playouts"] == 50
    assert c4.get_type().chance_mode == GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert c4.get_type().utility == GameType.Utility.GENERAL_SUM
    assert c4.num_distinct_actions() == 7
    wide = pyspiel.load_game("tgdl_connect_four", {"explore_nodes": 5000, "max_actions": 20, "max_game_length": 50})
    assert (wide.num_distinct_actions(), wide.max_game_length()) == (20, 50)

    # Rule errors end every history (zero returns): not constant-sum though the walk ends;
    # applying the action raises the error.
    errors = pyspiel.load_game("tgdl_rule_errors")
    assert errors.exploration()["complete"] and errors.exploration()["errors"] == 3
    assert errors.get_type().utility == GameType.Utility.GENERAL_SUM
    state = errors.new_initial_state()
    with pytest.raises(rule_errors.RuleError, match="division by zero"):
        state.apply_action(0)


def label(text):
    """An action's label as OpenSpiel's liars_dice writes it: `bid 1-4` is `1-4`, `liar`
    is `Liar`, `rolls 3` is `Roll 3`."""
    if text == "liar":
        return "Liar"
    if text.startswith("bid "):
        return text[len("bid ") :]
    if text.startswith("rolls "):
        return "Roll " + text[len("rolls ") :]
    return text


def side_by_side(ours, theirs):
    """Walks both games' trees together, matching actions by their labels: the terminal
    histories, each player's expected returns (uniform players), and the information-state
    strings of the decision nodes, paired (so that the pairing can be checked both ways)."""
    found = {"histories": 0, "ours": np.zeros(2), "theirs": np.zeros(2), "pairs": set()}

    def visit(a, b, weight):
        assert a.is_terminal() == b.is_terminal() and a.is_chance_node() == b.is_chance_node()
        if a.is_terminal():
            found["histories"] += 1
            ra, rb = a.returns(), b.returns()
            assert ra == [(r + 1) / 2 for r in rb]
            found["ours"] += weight * np.array(ra)
            found["theirs"] += weight * np.array(rb)
            return
        if a.is_chance_node():
            pa, pb = a.chance_outcomes(), b.chance_outcomes()
            assert [p for _, p in pa] == pytest.approx([p for _, p in pb], abs=1e-15)
            branches = [(x, y, p) for (x, p), (y, _) in zip(pa, pb)]
            # One outcome: a player's die, the same face in both.
            assert [label(a.action_to_string(-1, x)) for x, _, _ in branches] == [
                b.action_to_string(-1, y) for _, y, _ in branches
            ]
        else:
            p = a.current_player()
            assert p == b.current_player()
            found["pairs"].add((a.information_state_string(p), b.information_state_string(p)))
            la, lb = a.legal_actions(), b.legal_actions()
            labels = a.tgdl_state.action_labels()
            assert [label(labels[x]) for x in la] == [b.action_to_string(p, y) for y in lb]
            branches = [(x, y, 1.0 / len(la)) for x, y in zip(la, lb)]
        for x, y, p in branches:
            visit(a.child(x), b.child(y), weight * p)

    visit(ours.new_initial_state(), theirs.new_initial_state(), 1.0)
    return found


def same_partition(pairs):
    """Both games put the same histories together: the pairing of information states is
    one to one. Returns how many there are."""
    ours = {a for a, _ in pairs}
    theirs = {b for _, b in pairs}
    assert len(ours) == len(theirs) == len(pairs)
    return len(pairs)


def test_liars_dice_is_openspiels():
    found = side_by_side(pyspiel.load_game("tgdl_liars_dice"), pyspiel.load_game("liars_dice"))
    assert found["histories"] == 147_420
    assert same_partition(found["pairs"]) == 24_576
    assert found["theirs"][0] == pytest.approx(-0.032407407407407, abs=1e-9)
    assert found["ours"] == pytest.approx((found["theirs"] + 1) / 2, abs=1e-12)


def test_openspiel_algorithms_run_unchanged():
    ours = pyspiel.load_game("tgdl_liars_dice3")
    theirs = pyspiel.load_game("liars_dice", {"dice_sides": 3})
    found = side_by_side(ours, theirs)
    assert found["histories"] == 9 * (2**6 - 1)
    assert same_partition(found["pairs"]) == 3 * 2**6
    every = get_all_states.get_all_states(ours, include_terminals=True, include_chance_states=True)
    assert len(every) == len(get_all_states.get_all_states(theirs, include_terminals=True, include_chance_states=True))
    uniform = exploitability.exploitability(ours, policy.UniformRandomPolicy(ours))
    assert uniform == pytest.approx(exploitability.exploitability(theirs, policy.UniformRandomPolicy(theirs)) / 2)
    solvers = [cfr.CFRSolver(ours), cfr.CFRSolver(theirs)]
    for _ in range(30):
        for solver in solvers:
            solver.evaluate_and_update_policy()
    ours_after, theirs_after = (
        exploitability.exploitability(g, s.average_policy()) for g, s in zip((ours, theirs), solvers)
    )
    assert ours_after == pytest.approx(theirs_after / 2, abs=1e-9)
    assert ours_after < uniform / 10
    # The average policy plays bids only at the information states it has seen.
    table = solvers[0].average_policy()
    state = ours.new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    probabilities = table.action_probabilities(state)
    assert sorted(probabilities) == state.legal_actions() and sum(probabilities.values()) == pytest.approx(1.0)


def test_states_clone_serialize_and_observe():
    game = pyspiel.load_game("tgdl_liars_dice")
    state = game.new_initial_state()
    for a in [1, 4, 2]:
        state.apply_action(a)
    assert state.current_player() == 1 and state.history() == [1, 4, 2]
    assert state.action_to_string(1, 0) == "bid 1-4" and "liar" == state.action_to_string(1, 9)
    clone = state.clone()
    clone.apply_action(0)
    assert state.history() == [1, 4, 2] and clone.history() == [1, 4, 2, 0]
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and again.tgdl_state.explicit_chance
    assert again.information_state_string(0) == state.information_state_string(0)
    loaded_game, loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(loaded_game) == str(game) and loaded.information_state_string(1) == state.information_state_string(1)
    # Strings and tensors are the seat's own observation and information state.
    tgdl = state.tgdl_state
    assert state.observation_string(1) == tgdl.observation(1)
    assert state.information_state_string(1) == tgdl.information_state_string(1)
    encoder = game.observation_encoder()
    assert list(game.observation_tensor_shape()) == [encoder.size]
    assert np.array_equal(np.array(state.observation_tensor(0), np.float32), encoder.encode_state(tgdl, 0))
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    assert public.string_from(state, 0) == tgdl.observation(None) and "die showing" not in public.string_from(state, 0)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    recall.set_from(state, 1)
    assert recall.string_from(state, 1) == state.information_state_string(1)
    assert np.array_equal(recall.tensor, np.array(state.information_state_tensor(1), np.float32))
    assert recall.dict["events"].shape[0] == 1 + 13 + 2
    assert recall.dict["viewer"].tolist() == [0, 1]
    # Seat 1's events: the start, player 0's roll (a hidden die appears), its own roll,
    # player 0's bid; then nothing.
    kinds = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]]
    assert recall.dict["events"][:5, :4].tolist() == kinds
    assert recall.dict["events"][3, 4:6].tolist() == [1, 0]


def test_information_state_tensors_part_histories_as_the_strings_do():
    game = pyspiel.load_game("tgdl_liars_dice3")
    pairs = set()
    states = get_all_states.get_all_states(game, include_terminals=False, include_chance_states=False)
    for state in states.values():
        p = state.current_player()
        pairs.add(
            (state.information_state_string(p), np.array(state.information_state_tensor(p), np.float32).tobytes())
        )
    assert same_partition(pairs) == 3 * 2**6


def named_dice(text):
    return set(re.findall(r"die showing \d", text))


def test_no_seat_string_names_a_die_hidden_from_it():
    game = pyspiel.load_game("tgdl_liars_dice")
    checked = 0
    for rolls in [(0, 5), (3, 1), (5, 2)]:
        state = game.new_initial_state()
        for r in rolls:
            state.apply_action(r)
        dice = [f"die showing {r + 1}" for r in rolls]
        rng = np.random.default_rng(sum(rolls))
        while True:
            for p in range(2):
                for text in (state.information_state_string(p), state.observation_string(p)):
                    # Its own die, and never the other's.
                    assert named_dice(text) == {dice[p]}
                    checked += 1
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 20


def test_no_seat_string_names_a_card_another_seat_holds():
    game = pyspiel.load_game("tgdl_crazy_eights", {"players": 3, "explore_nodes": 2000, "explore_playouts": 10})
    cards = [c for c in crazy_eights.Game(3).new_initial_state().action_labels()]
    pattern = re.compile(
        r"(?<![\w])(" + "|".join(re.escape(c) for c in sorted(cards, key=len, reverse=True)) + r")(?![\w])"
    )
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    public = set()
    searched = 0
    while not state.is_terminal() and len(state.history()) < 400:
        tgdl = state.tgdl_state
        if not state.is_chance_node():
            held = [set(tgdl.observation_dict(p)["hands"][p]["objects"]) for p in range(3)]
            # Cards once shown to everyone (the discards, the log) may be named later.
            public |= set(pattern.findall(tgdl.observation(None)))
            for p in range(3):
                others = set().union(*(held[q] for q in range(3) if q != p)) - public
                for text in (state.information_state_string(p), state.observation_string(p)):
                    named = set(pattern.findall(text))
                    assert named & others == set(), f"seat {p} is told of another seat's card"
                    assert held[p] <= named, f"seat {p} is not told of its own hand"
                    searched += len(others)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched > 500
