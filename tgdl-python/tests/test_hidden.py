"""No output meant for one seat carries what another seat holds (docs/hidden-information.md).

Seeded games of crazy eights (cards in hands, a closed deck) are played through the Python
API and through the PettingZoo environment. At every decision, for every seat p, every
output meant for p — the JSON, the dict and the text of p's observation, the encoded
array, the env's `observe()`/`last()` and p's info dict — is searched for the labels of
the cards the other seats hold (read from their own observations), and must name none of
them; p's own hand must be there in full (so that the search can fail)."""

import collections
import json
import pickle
import re

import numpy as np
import pytest

import crazy_eights
from tgdl_pettingzoo import TgdlEnv

ENCODERS = {}


def encoder(players):
    if players not in ENCODERS:
        ENCODERS[players] = crazy_eights.observation_encoder(players)
    return ENCODERS[players]


def named(labels, text):
    """The labels of `labels` that `text` names (as whole words: `10 of hearts` does not
    name `0 of hearts`)."""
    return {label for label in labels if re.search(rf"(?<![\w]){re.escape(label)}(?![\w])", text)}


def hands(state):
    """Each seat's hand, as that seat sees it."""
    return [state.observation_dict(q)["hands"][q]["objects"] for q in range(state.players)]


def split_log(text):
    view, _, log = text.partition("log:\n")
    return view, log


class Checker:
    """The checks of one game; `public` gathers every label a spectator has been shown (a
    card seen on the discard pile may be drawn again later: the log's history may name it)."""

    def __init__(self, players):
        self.players = players
        self.encoder = encoder(players)
        self.public = set()
        self.points = 0
        self.searched = 0

    def point(self, state):
        self.points += 1
        held = hands(state)
        every = set().union(*map(set, held))
        self.public |= named(every | set(self.encoder.objects), state.observation_text(None, 1000))
        designer = str(state)
        for p in range(self.players):
            mine = held[p]
            others = set().union(*(set(held[q]) for q in range(self.players) if q != p)) - set(mine)
            self.searched += len(others)
            # The search can succeed: the designer's drawing shows the other hands.
            assert named(others, designer) == others
            obs = state.observation_dict(p)
            assert obs == json.loads(state.observation(p))
            shown = json.dumps([obs["view"], obs["hands"]])
            assert named(others, shown) == set(), f"seat {p} is shown another seat's cards"
            assert named(set(mine), shown) == set(mine), f"seat {p} is not shown its own hand"
            assert named(others - self.public, json.dumps(obs["log"])) == set()
            view, log = split_log(state.observation_text(p, 1000))
            assert named(others, view) == set() and named(others - self.public, log) == set()
            assert named(set(mine), view) == set(mine)
            # The other hands: their sizes only.
            for q, hand in enumerate(obs["hands"]):
                assert (hand["objects"] is not None) == (q == p)
                assert hand["counts"] == ([["Card", len(held[q])]] if held[q] else [])
            self.check_array(self.encoder.encode_state(state, p), p, held, shown)

    def check_array(self, array, p, held, shown):
        """`array` encodes seat p's observation (`shown`: its view and hands as JSON)."""
        mine = held[p]
        others = set().union(*map(set, held)) - set(mine)
        blocks = self.encoder.decode(array)
        objects = self.encoder.objects
        # The observer's hand, exactly; no card of another hand.
        counted = {objects[i]: int(n) for i, n in enumerate(blocks["hand"][:-1]) if n}
        assert counted == dict(collections.Counter(mine)), f"seat {p}'s hand block is not its hand"
        assert blocks["hand"][-1] == 0
        assert set(counted) & others == set()
        # Cards named anywhere else in the array are cards the seat is shown.
        for name, block in blocks.items():
            if name.startswith("mentions:"):
                marked = {objects[i] for i in np.flatnonzero(block)}
                assert marked & others == set(), f"{name} of seat {p} names another seat's card"
                assert marked <= named(set(objects), shown)
            if name.startswith("values:"):
                key = name[len("values:"):]
                vocabulary = self.encoder.vocabulary["values"][key]
                for i in np.flatnonzero(block[:-1]):
                    assert named(others, vocabulary[i]) == set()
        sizes = blocks["hand_sizes"][:, self.encoder.classes.index("Card")]
        assert sizes.tolist() == [len(h) for h in held]
        assert blocks["viewer"].tolist() == [1 if q == p else 0 for q in range(self.players)]


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", [1, 8])
def test_no_python_observation_shows_another_hand(players, seed):
    state = crazy_eights.Game(players).new_state(seed)
    assert crazy_eights.HAS_HIDDEN_INFORMATION
    checker = Checker(players)
    agents = [crazy_eights.RandomAgent(crazy_eights.seat_seed(seed, p)) for p in range(players)]
    while True:
        checker.point(state)
        if state.is_terminal():
            break
        state.apply_action(agents[state.current_player()].pick(len(state.legal_actions())))
    assert state.outcome() is not None
    assert checker.points > 20 and checker.searched > 100


def test_no_env_output_shows_another_hand():
    players = 3
    env = TgdlEnv(crazy_eights, players=players, encoder=encoder(players))
    env.reset(seed=5)
    checker = Checker(players)
    rng = np.random.default_rng(5)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        state = env.state_obj
        held = hands(state)
        p = env.agent_name_mapping[agent]
        everyone = set().union(*map(set, held))
        for other in env.agents:
            q = env.agent_name_mapping[other]
            others = everyone - set(held[q])
            # Every output meant for `other`: observe(), observation_dict/text, its info.
            seen = env.observe(other)
            assert (seen["observation"] == encoder(players).encode_state(state, q)).all()
            shown = env.observation_dict(other)
            checker.check_array(seen["observation"], q, held, json.dumps([shown["view"], shown["hands"]]))
            view, _log = split_log(env.observation_text(other, 1000))
            assert named(others, view) == set() and named(set(held[q]), view) == set(held[q])
            text = json.dumps(env.infos[other])
            assert named(others, text) == set(), f"the info of {other} names another seat's card"
            # Infos are plain data: no State (a State is the whole game, for the designer).
            assert b"_restore_state" not in pickle.dumps(env.infos[other])
        assert (obs["observation"] == env.observe(agent)["observation"]).all()
        if termination or truncation:
            env.step(None)
            continue
        labels = info["action_labels"]
        # The mover's info lists its options: the cards it may play are its own.
        assert labels == state.action_labels()
        played = {label[len("play "):] for label in labels if label.startswith("play ")}
        assert played <= set(held[p])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps > 20 and env.state_obj.is_terminal()


def test_a_search_agent_plays_a_hidden_seat_from_what_it_saw():
    # A state made in Python keeps its information states: the search draws its worlds
    # from what the deciding seat saw, to the end of a game.
    state = crazy_eights.Game(2).new_state(4)
    decisions = 0
    while not state.is_terminal():
        action = state.agent_action("mcts:30", decisions)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert state.outcome() is not None and decisions > 5
