"""Explicit chance (docs/python.md): `Game.new_initial_state()` puts every chance event as a
chance node, whose outcomes are listed, weighed and chosen; `Game.new_state(seed)` goes on
drawing chance from its seed."""

import copy
import functools
import json
import pickle
import subprocess

import pytest
from test_api import play_trace

import crazy_eights
import dealt_card
import liars_dice
import math_and_dice


def walk(state, weight, totals):
    """Every history from `state`, players choosing uniformly and chance by its
    probabilities: the number of terminal histories and each player's expected return."""
    if state.is_terminal():
        totals["histories"] += 1
        for p, r in enumerate(state.returns()):
            totals["returns"][p] += weight * r
        return
    if state.is_chance_node():
        assert state.current_player() == -2
        branches = state.chance_outcomes()
    else:
        actions = state.legal_actions()
        branches = [(a, 1.0 / len(actions)) for a in actions]
    for action, p in branches:
        child = state.clone()
        child.apply_action(action)
        walk(child, weight * p, totals)


def exact(tgdlc, root, file):
    """`tgdlc perft FILE --exact --chance --json`."""
    out = subprocess.run(
        [tgdlc, "perft", str(root / file), "--exact", "--chance", "--json"],
        check=True,
        cwd=root,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def test_a_card_game_starts_at_a_chance_node():
    state = crazy_eights.Game(2).new_initial_state()
    assert state.explicit_chance
    assert state.is_chance_node() and not state.is_terminal()
    assert state.current_player() == crazy_eights.CHANCE == -2
    assert crazy_eights.TERMINAL == -1
    outcomes = state.chance_outcomes()
    # The first card off the shuffled deck: any of the 52, each as likely.
    assert len(outcomes) == 52
    assert [a for a, _ in outcomes] == state.legal_actions() == list(range(52))
    assert all(p == outcomes[0][1] for _, p in outcomes)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
    labels = state.action_labels()
    assert len(set(labels)) == 52 and "8 of hearts" in labels
    assert state.prompt() == "chance: the next of 52 shuffled"
    # Choosing an outcome deals that card: the next event has one card fewer.
    state.apply_action(labels.index("8 of hearts"))
    assert state.is_chance_node() and len(state.chance_outcomes()) == 51
    assert "8 of hearts" not in state.action_labels()
    assert state.history() == [labels.index("8 of hearts")]
    with pytest.raises(ValueError, match="chance decides"):
        state.agent_action("random")
    # Dealt on to the first decision: chance's outcomes are part of the history.
    while state.is_chance_node():
        state.apply_action(0)
    assert state.current_player() == 0 and len(state.history()) > 14
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()


def test_dice_are_chance_nodes_with_their_faces():
    state = liars_dice.Game().new_initial_state()
    assert state.chance_outcomes() == [(i, 1 / 6) for i in range(6)]
    assert state.action_labels() == [f"rolls {i}" for i in range(1, 7)]
    state.apply_action(2)
    state.apply_action(4)
    assert state.current_player() == 0
    assert "die showing 3" in state.observation(0) and "die showing 5" in state.observation(1)
    assert state.history() == [2, 4]


@functools.lru_cache(maxsize=None)
def exact_walk(module):
    totals = {"histories": 0, "returns": [0.0] * module.MIN_PLAYERS}
    walk(module.Game().new_initial_state(), 1.0, totals)
    return totals


@pytest.mark.parametrize(
    "module,file",
    [(liars_dice, "examples/liars_dice.tgdl"), (dealt_card, "tests/programs/dealt_card.tgdl")],
)
def test_an_exact_walk_over_chance_nodes_matches_perft(tgdlc, root, module, file):
    expected = exact(tgdlc, root, file)
    totals = exact_walk(module)
    assert totals["histories"] == expected["histories"]
    for ours, theirs in zip(totals["returns"], expected["returns"]):
        assert ours == pytest.approx(theirs, abs=1e-9)
    assert expected["errors"] == 0 and expected["unlisted"] == 0


def test_liars_dice_walk_has_openspiels_counts():
    totals = exact_walk(liars_dice)
    # OpenSpiel's liars_dice: 36 rolls times 4,095 bid sequences; player 0 expects
    # -0.0324074 there, with returns of +1/-1 (here 1/0).
    assert totals["histories"] == 147_420
    assert totals["returns"][0] == pytest.approx((1 - 0.032407407407407) / 2, abs=1e-9)
    assert sum(totals["returns"]) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_seeded_states_still_draw_chance_from_their_seed(tgdlc, root, tmp_path, seed):
    # The same games as `tgdlc play --seats random --seed S`: chance never stops a seeded
    # state, and its history holds the players' decisions alone.
    trace = play_trace(tgdlc, root, "examples/liars_dice.tgdl", seed, tmp_path)
    state = liars_dice.Game().new_state(seed)
    assert not state.explicit_chance and state.seed == seed
    agents = [liars_dice.RandomAgent(liars_dice.seat_seed(seed, p)) for p in range(2)]
    moves = []
    while not state.is_terminal():
        assert not state.is_chance_node() and state.current_player() >= 0
        p = state.current_player()
        index = agents[p].pick(len(state.legal_actions()))
        moves.append({"player": p, "index": index, "label": state.action_labels()[index]})
        state.apply_action(index)
    assert moves == trace["decisions"]
    assert state.history() == [m["index"] for m in moves]
    assert state.outcome() == trace["result"]["places"]
    with pytest.raises(ValueError, match="explicit chance"):
        state.information_state_string(0)


def test_explicit_states_clone_and_pickle_with_their_chance():
    state = liars_dice.Game().new_initial_state()
    for a in [5, 0, 3, 1]:
        state.apply_action(a)
    copies = [state.clone(), copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))]
    for c in copies:
        assert c.explicit_chance and c.history() == [5, 0, 3, 1]
        assert c.current_player() == state.current_player()
        for p in range(2):
            assert c.information_state_string(p) == state.information_state_string(p)
            assert c.information_events(p) == state.information_events(p)
        c.apply_action(0)
    state.apply_action(0)
    for c in copies:
        assert c.history() == state.history() and c.observation(0) == state.observation(0)
    # A pickle of a seeded state (and one from before explicit chance) is still seeded.
    seeded = liars_dice.Game().new_state(9)
    seeded.apply_action(0)
    again = pickle.loads(pickle.dumps(seeded))
    assert not again.explicit_chance and again.seed == 9 and again.observation(0) == seeded.observation(0)
    old = liars_dice._restore_state(2, 9, [0])
    assert not old.explicit_chance and old.observation(1) == seeded.observation(1)


def test_information_states_keep_what_the_seat_saw_in_order():
    state = liars_dice.Game().new_initial_state()
    state.apply_action(0)  # player 0 rolls a 1
    state.apply_action(5)  # player 1 rolls a 6
    state.apply_action(3)  # player 0 bids 1-4
    kinds = [e[0] for e in state.information_events(1)]
    assert kinds[0] == "start" and kinds[-1] == "other" and "own" not in kinds
    assert state.information_events(1)[-1][1:4] == (0, 0, "bid 1-4")
    assert state.information_length(1) == len(kinds)
    text = state.information_state_string(1)
    assert text.startswith("seat 1\n") and 'player 0 chose "bid 1-4"' in text
    assert "deciding from" in text and "die showing 6" in text and "die showing 1" not in text
    # The same decisions after other rolls of the other die read alike to seat 1.
    other = liars_dice.Game().new_initial_state()
    for a in [2, 5, 3]:
        other.apply_action(a)
    assert other.information_state_string(1) == text
    assert other.information_state_string(0) != state.information_state_string(0)
    with pytest.raises(IndexError):
        state.information_state_string(2)


def test_random_cannot_be_listed_and_says_so():
    state = math_and_dice.Game().new_initial_state()
    assert state.chance_outcomes() == [(i, 1 / 6) for i in range(6)]
    state.apply_action(0)
    # The setup's first random(): a number in [0, 1), not a list of outcomes.
    assert state.is_chance_node() and state.current_player() == math_and_dice.CHANCE
    for call in (state.chance_outcomes, state.legal_actions, state.action_labels, lambda: state.apply_action(0)):
        with pytest.raises(ValueError, match=r"random\(\)"):
            call()
    found = json.loads(math_and_dice.explore(max_nodes=100, playouts=0))
    assert found["unlisted"] and found["chance"] and not found["complete"]
    # Seeded, the same game draws random() from its seed, to its rule error in setup.
    with pytest.raises(math_and_dice.RuleError, match="at least 1, got 0"):
        math_and_dice.Game().new_state(1)


def test_explore_finds_the_facts_of_a_small_tree():
    found = json.loads(liars_dice.explore())
    assert found["complete"] and found["histories"] == 147_420 and found["playouts"] == 0
    assert (found["max_actions"], found["max_chance_outcomes"]) == (12, 6)
    assert (found["max_decisions"], found["max_chance_nodes"], found["max_length"]) == (13, 2, 15)
    assert (found["min_return"], found["max_return"], found["min_sum"], found["max_sum"]) == (0, 1, 1, 1)
    assert found["chance"] and not found["unlisted"] and found["errors"] == 0
    # A budget too small: playouts add what they meet, and the facts are what was seen.
    partial = json.loads(liars_dice.explore(max_nodes=50, playouts=20))
    assert not partial["complete"] and partial["nodes"] == 50 and partial["playouts"] == 20
    assert 0 < partial["max_actions"] <= 12
