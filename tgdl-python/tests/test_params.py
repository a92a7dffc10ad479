"""Game parameters through the wheel (docs/python.md): `Game(dice=2)` plays the variant
liar's dice declares with `param number dice = 1 in 1..5;`, as `tgdlc --param dice=2`
does; values outside the declaration are refused; copies, pickles, explicit chance, the
vector environment and OpenSpiel keep the variant."""

import copy
import json
import pickle
import subprocess

import pytest

import liars_dice


def test_the_module_lists_the_parameters_with_their_defaults():
    assert liars_dice.PARAMETERS == {"dice": 1}
    assert liars_dice.Game().params == {"dice": 1}
    assert repr(liars_dice.Game(dice=2)) == "Game(players=2, dice=2)"


def test_a_variant_plays_what_the_command_line_plays(tgdlc, root):
    # One die each: 12 opening bids; two each: 24 (bids go up to four dice).
    assert len(liars_dice.Game().new_state(3).legal_actions()) == 12
    game = liars_dice.Game(dice=2)
    assert game.params == {"dice": 2}
    assert len(game.new_state(3).legal_actions()) == 24
    out = subprocess.run(
        [tgdlc, "perft", str(root / "examples/liars_dice.tgdl"), "--depth", "2", "--json", "--param", "dice=2"],
        check=True, capture_output=True, text=True, cwd=root,
    ).stdout
    counts = json.loads(out)["perft"]
    state = game.new_state(0)
    assert counts[0] == len(state.legal_actions())
    assert counts[1] == sum(len(_after(state, a).legal_actions()) for a in state.legal_actions())
    report = json.loads(game.simulate(50, seed=4))
    assert report["params"] == {"dice": "2"}


def _after(state, action):
    s = state.clone()
    s.apply_action(action)
    return s


def test_values_outside_the_declaration_are_refused():
    with pytest.raises(ValueError, match=r"`dice` takes a number in 1..5, not `9`"):
        liars_dice.Game(dice=9)
    with pytest.raises(ValueError, match=r"no parameter `sides`"):
        liars_dice.Game(sides=3)


def test_copies_and_pickles_keep_the_variant():
    game = liars_dice.Game(dice=3)
    assert pickle.loads(pickle.dumps(game)).params == {"dice": 3}
    state = game.new_state(5)
    state.apply_action(7)
    for back in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), state.clone()):
        assert back.history() == state.history()
        assert back.legal_actions() == state.legal_actions()
        assert str(back) == str(state)
    explicit = game.new_initial_state()
    # Three dice for each of two players, each rolled by chance: six chance nodes.
    rolls = 0
    while explicit.is_chance_node():
        explicit.apply_action(explicit.chance_outcomes()[0][0])
        rolls += 1
    assert rolls == 6
    assert len(pickle.loads(pickle.dumps(explicit)).legal_actions()) == 36


def test_the_vector_environment_plays_the_variant():
    env = liars_dice.VectorEnv(3, seed=2, threads=1, dice=2)
    for i in range(3):
        assert len(env.state(i).legal_actions()) == 24


def test_openspiel_loads_the_variant():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("tgdl_liars_dice", {"dice": 2, "explore_nodes": 20000, "explore_playouts": 50})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.legal_actions()) == 24
