"""Kuhn and Leduc poker (examples/kuhn_poker.tgdl, examples/leduc_poker.tgdl) as OpenSpiel
games, against OpenSpiel's own `kuhn_poker` and `leduc_poker`: the same histories, the
same expected returns under uniform play, the same information states, and CFR reaching
the game's value. Both pay chips (`payoffs`): returns are OpenSpiel's, not halved.

OpenSpiel's chance actions are card numbers and ours indices into the cards left in the
deck, so chance outcomes are paired by the card they deal (its label)."""

import numpy as np
import pytest

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

import kuhn_poker  # noqa: F401 (registers tgdl_kuhn_poker)
import leduc_poker  # noqa: F401 (registers tgdl_leduc_poker)

GameType = pyspiel.GameType
RANKS = ["jack", "queen", "king"]


def kuhn_card(label):
    """OpenSpiel's number of a Kuhn card: 0 jack, 1 queen, 2 king."""
    return RANKS.index(label)


def leduc_card(label):
    """OpenSpiel's number of a Leduc card: twice the rank, plus the suit."""
    rank, suit = label.split(" of ")
    return 2 * RANKS.index(rank) + ["hearts", "spades"].index(suit)


def side_by_side(ours, theirs, card):
    """Walks both games' trees together, chance outcomes paired by the card they deal and
    decisions by their labels: the terminal histories, each player's expected returns
    under uniform play, and the pairs of information-state strings of the decision nodes."""
    found = {"histories": 0, "ours": np.zeros(2), "theirs": np.zeros(2), "pairs": set()}

    def visit(a, b, weight):
        assert a.is_terminal() == b.is_terminal() and a.is_chance_node() == b.is_chance_node()
        if a.is_terminal():
            found["histories"] += 1
            assert a.returns() == b.returns()
            found["ours"] += weight * np.array(a.returns())
            found["theirs"] += weight * np.array(b.returns())
            return
        if a.is_chance_node():
            theirs_p = dict(b.chance_outcomes())
            labels = a.tgdl_state.action_labels()
            branches = [(x, card(labels[x]), p) for x, p in a.chance_outcomes()]
            # The same cards left, each as likely.
            assert sorted(y for _, y, _ in branches) == sorted(theirs_p)
            for _, y, p in branches:
                assert p == pytest.approx(theirs_p[y], abs=1e-15)
        else:
            p = a.current_player()
            assert p == b.current_player()
            found["pairs"].add((a.information_state_string(p), b.information_state_string(p)))
            labels = a.tgdl_state.action_labels()
            theirs_by_name = {b.action_to_string(p, y): y for y in b.legal_actions()}
            assert sorted(label.capitalize() for label in labels) == sorted(theirs_by_name)
            branches = [(x, theirs_by_name[labels[x].capitalize()], 1.0 / len(labels)) for x in a.legal_actions()]
        for x, y, p in branches:
            visit(a.child(x), b.child(y), weight * p)

    visit(ours.new_initial_state(), theirs.new_initial_state(), 1.0)
    return found


def one_to_one(pairs):
    """Both games group the same histories together. Returns how many groups there are."""
    assert len({a for a, _ in pairs}) == len({b for _, b in pairs}) == len(pairs)
    return len(pairs)


def uniform_value(game):
    """Each player's expected return under uniform play, by OpenSpiel's own evaluation."""
    uniform = policy.UniformRandomPolicy(game)
    return expected_game_score.policy_value(game.new_initial_state(), [uniform] * game.num_players())


@pytest.mark.parametrize(
    "name, card, histories, information_states, bound",
    [("kuhn_poker", kuhn_card, 30, 12, 2.0), ("leduc_poker", leduc_card, 5520, 936, 13.0)],
)
def test_poker_is_openspiels(name, card, histories, information_states, bound):
    ours, theirs = pyspiel.load_game(f"tgdl_{name}"), pyspiel.load_game(name)
    found = side_by_side(ours, theirs, card)
    assert found["histories"] == histories
    assert one_to_one(found["pairs"]) == information_states
    assert found["ours"] == pytest.approx(found["theirs"], abs=1e-9)
    assert uniform_value(ours) == pytest.approx(uniform_value(theirs), abs=1e-9)
    assert uniform_value(theirs)[0] == pytest.approx(found["theirs"][0], abs=1e-9)
    # The walk was complete: the payoffs' range, and a zero sum, are proven.
    assert ours.exploration()["complete"] and ours.exploration()["payoffs"]
    assert ours.get_type().utility == GameType.Utility.ZERO_SUM == theirs.get_type().utility
    assert (ours.min_utility(), ours.max_utility()) == (-bound, bound)
    assert (theirs.min_utility(), theirs.max_utility()) == (-bound, bound)
    assert ours.num_distinct_actions() == theirs.num_distinct_actions()
    assert ours.max_chance_outcomes() == theirs.max_chance_outcomes()


def test_uniform_values_are_the_command_lines():
    # `tgdlc perft --exact --chance`: player 0 expects 0.125 in Kuhn, -0.078125 in Leduc.
    assert uniform_value(pyspiel.load_game("tgdl_kuhn_poker"))[0] == pytest.approx(0.125, abs=1e-12)
    assert uniform_value(pyspiel.load_game("tgdl_leduc_poker"))[0] == pytest.approx(-0.078125, abs=1e-12)


def test_cfr_solves_kuhn_poker():
    ours, theirs = pyspiel.load_game("tgdl_kuhn_poker"), pyspiel.load_game("kuhn_poker")
    solvers = [cfr.CFRSolver(ours), cfr.CFRSolver(theirs)]
    for _ in range(200):
        for solver in solvers:
            solver.evaluate_and_update_policy()
    averages = [s.average_policy() for s in solvers]
    ours_after, theirs_after = (exploitability.exploitability(g, a) for g, a in zip((ours, theirs), averages))
    # The same regrets, iteration by iteration: the same average policy.
    assert ours_after == pytest.approx(theirs_after, abs=1e-9)
    assert ours_after < 0.01
    value = expected_game_score.policy_value(ours.new_initial_state(), [averages[0]] * 2)
    assert value[0] == pytest.approx(-1 / 18, abs=0.005) and sum(value) == pytest.approx(0, abs=1e-12)


def test_an_unproven_utility_range_is_enforced():
    # A walk cut short saw some payoffs: the range is what it saw, and a return outside raises.
    cut = {"explore_nodes": 30, "explore_playouts": 3}
    game = pyspiel.load_game("tgdl_leduc_poker", cut)
    assert not game.exploration()["complete"] and game.exploration()["payoffs"]
    assert game.max_utility() < 13 and game.get_type().utility == GameType.Utility.GENERAL_SUM
    # Both raise in both rounds; player 1 holds a king, player 0 a jack, the public card a queen.
    raises = [0, 0, 1, 2, 1, 2, 1, 2, 1]
    state = game.new_initial_state()
    for action in raises:
        state.apply_action(action)
    assert state.tgdl_state.returns() == [-13.0, 13.0]
    with pytest.raises(ValueError, match="outside the utility range"):
        state.returns()
    # Stated bounds are used (floats: OpenSpiel checks the parameter's type), and enforced.
    stated = pyspiel.load_game("tgdl_leduc_poker", {**cut, "min_utility": -13.0, "max_utility": 13.0})
    assert (stated.min_utility(), stated.max_utility()) == (-13.0, 13.0)
    state = stated.new_initial_state()
    for action in raises:
        state.apply_action(action)
    assert state.returns() == [-13.0, 13.0]
    narrow = pyspiel.load_game("tgdl_leduc_poker", {**cut, "min_utility": -12.0, "max_utility": 12.0})
    state = narrow.new_initial_state()
    for action in raises:
        state.apply_action(action)
    with pytest.raises(ValueError, match="was stated"):
        state.returns()
    with pytest.raises(ValueError, match="outside min_utility"):
        pyspiel.load_game("tgdl_leduc_poker", {"min_utility": -2.0, "max_utility": 2.0})
