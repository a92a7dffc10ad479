"""Simultaneous turns from Python (docs/python.md, "Simultaneous games"): the states' OpenSpiel-style
API (`is_simultaneous_node`, `legal_actions(player)`, `apply_actions`), the OpenSpiel
games (dynamics SIMULTANEOUS) against OpenSpiel's own `goofspiel` and `matrix_rps`, what
the seats are told in a round, and the PettingZoo Parallel environment.

The games: examples/goofspiel.tgdl and examples/rock_paper_scissors.tgdl, and
tests/programs/simultaneous.tgdl (`rounds`: players 0 and 2 choose together twice, player
1 waiting, then player 1 decides alone)."""

import itertools
import pickle
from collections import defaultdict

import numpy as np
import pytest

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import cfr, exploitability
from pettingzoo.test import api_test, parallel_api_test

import goofspiel
import rock_paper_scissors as rps
import rounds
import tic_tac_toe
from tgdl_pettingzoo import TgdlEnv, TgdlParallelEnv

SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
DESCENDING = {"points_order": "descending"}


def test_a_round_start_is_a_simultaneous_node():
    assert rps.SIMULTANEOUS == -3 and rps.CHANCE == -2, "the module numbers its own"
    assert rps.HAS_SIMULTANEOUS_TURNS and goofspiel.HAS_SIMULTANEOUS_TURNS and rounds.HAS_SIMULTANEOUS_TURNS
    assert not tic_tac_toe.HAS_SIMULTANEOUS_TURNS
    for state in (rps.Game().new_state(3), rps.Game().new_initial_state()):
        assert state.is_simultaneous_node() and not state.is_chance_node()
        assert state.current_player() == rps.SIMULTANEOUS
        assert state.round() == ([0, 1], [False, False])
        assert state.legal_actions(0) == state.legal_actions(1) == [0, 1, 2]
        assert state.action_labels(1) == ["rock", "paper", "scissors"]
        # The round put as decisions in seat order, for code that knows nothing of rounds.
        assert state.deciding_player() == 0 and state.legal_actions() == [0, 1, 2]
        state.apply_action(1)
        assert not state.is_simultaneous_node()
        assert state.current_player() == state.deciding_player() == 1
        assert state.round() == ([0, 1], [True, False])
        assert state.legal_actions(0) == [] and state.action_labels(0) == []
        assert state.legal_actions(1) == [0, 1, 2]
        # The rest of the round: player 0 has chosen, so it passes 0.
        state.apply_actions([0, 2])
        assert state.is_terminal() and state.returns() == [-1.0, 1.0]  # scissors cut paper
        assert state.round() is None and state.legal_actions(0) == state.legal_actions(1) == []
        assert state.current_player() == state.deciding_player() == rps.TERMINAL


def test_apply_actions_at_an_ordinary_decision_takes_the_deciders_action():
    state = tic_tac_toe.Game().new_state(0)
    assert not state.is_simultaneous_node() and state.round() is None
    assert state.legal_actions(0) == state.legal_actions() and state.legal_actions(1) == []
    state.apply_actions([4, 0])
    assert state.history() == [4] and state.current_player() == 1
    with pytest.raises(ValueError, match="player 0 does not choose here"):
        state.apply_actions([3, 0])


@pytest.mark.parametrize(
    "actions, message",
    [
        ([0], "one action per player: 2 for 2 players, not 1"),
        ([0, 1, 2], "not 3"),
        ([3, 0], "player 0's action 3 is not one of its 3 options"),
        ([0, -1], "player 1's action -1 is not one of its 3 options"),
    ],
)
def test_apply_actions_refuses_a_bad_list_and_applies_nothing(actions, message):
    state = rps.Game().new_initial_state()
    with pytest.raises(ValueError, match=message):
        state.apply_actions(actions)
    assert state.history() == [] and state.is_simultaneous_node()


def test_apply_actions_refuses_what_is_not_a_list_of_actions_and_where_none_applies():
    state = rps.Game().new_initial_state()
    with pytest.raises(OverflowError):
        state.apply_actions([2**70, 0])
    with pytest.raises(TypeError):
        state.apply_actions(["rock", "paper"])
    with pytest.raises(IndexError, match="player 2 does not exist"):
        state.legal_actions(2)
    state.apply_actions([0, 0])
    with pytest.raises(ValueError, match="the game is over"):
        state.apply_actions([0, 0])
    # A chance node is chance's: goofspiel's prizes are shuffled first.
    chance = goofspiel.Game(num_cards=3).new_initial_state()
    assert chance.is_chance_node() and chance.current_player() == goofspiel.CHANCE
    assert not chance.is_simultaneous_node() and chance.legal_actions(0) == []
    with pytest.raises(ValueError, match="chance decides here"):
        chance.apply_actions([0, 0])


def test_players_left_out_of_a_round_pass_zero():
    state = rounds.Game().new_initial_state()
    assert state.is_simultaneous_node() and state.round() == ([0, 2], [False, False])
    assert [state.legal_actions(p) for p in range(3)] == [[0, 1], [], [0, 1]]
    with pytest.raises(ValueError, match="player 1 does not choose here: its action must be 0"):
        state.apply_actions([0, 1, 1])
    twin = state.clone()
    state.apply_actions([0, 0, 1])
    twin.apply_actions([0, -1, 1])  # OpenSpiel's flat joint actions give kInvalidAction (-1)
    assert state.history() == twin.history() == [0, 1]
    state.apply_actions([1, 0, 0])
    # Player 1 decides alone: not a simultaneous node, and the others pass.
    assert not state.is_simultaneous_node() and state.current_player() == 1
    assert [state.legal_actions(p) for p in range(3)] == [[], [0], []]
    state.apply_actions([0, 0, 0])
    assert state.is_terminal() and state.outcome() == [[0, 1, 2]]  # 3 against 3: a draw


def test_joint_and_sequential_choices_play_the_same_game():
    # Goofspiel with its prizes shuffled from the seed; the same bids made together and
    # one by one, in seat order.
    rng = np.random.default_rng(5)
    for seed in range(5):
        joint = goofspiel.Game(num_cards=6).new_state(seed)
        one_by_one = joint.clone()
        while not joint.is_terminal():
            assert joint.is_simultaneous_node()
            actions = [int(rng.choice(joint.legal_actions(p))) for p in range(2)]
            joint.apply_actions(actions)
            for p in range(2):
                assert one_by_one.deciding_player() == p
                one_by_one.apply_action(actions[p])
            assert joint.history() == one_by_one.history()
            for p in (0, 1, None):
                assert joint.observation(p) == one_by_one.observation(p)
        assert joint.returns() == one_by_one.returns()
        assert pickle.loads(pickle.dumps(joint)).observation(0) == joint.observation(0)


def test_a_round_tells_no_seat_what_another_chose():
    for game in (rps.Game(), goofspiel.Game(num_cards=4, points_order="descending")):
        start = game.new_initial_state()
        assert start.is_simultaneous_node()
        seen = defaultdict(set)
        own = set()
        for a in start.legal_actions(0):
            state = start.clone()
            state.apply_action(a)  # player 0 chooses first, one by one
            assert state.round()[1] == [True, False]
            seen["information"].add(state.information_state_string(1))
            seen["events"].add(tuple(state.information_events(1)))
            seen["observation"].add(state.observation(1))
            seen["text"].add(state.observation_text(1))
            seen["labels"].add(tuple(state.action_labels(1)))
            own.add(state.information_state_string(0))
            # A pickle replays the round's choice: the same information states.
            again = pickle.loads(pickle.dumps(state))
            assert again.information_state_string(0) == state.information_state_string(0)
            assert again.information_state_string(1) == state.information_state_string(1)
        for what, values in seen.items():
            assert len(values) == 1, f"player 1's {what} tells player 0's choice"
        # Player 1's information state ends at the round's start: it decides from the same
        # information state whether player 0 has chosen or not.
        assert seen["information"] == {start.information_state_string(1)}
        # Player 0 recalls its own choice.
        assert len(own) == len(start.legal_actions(0))
        # Once the round closes, both choices are shown.
        closed = set()
        for a in start.legal_actions(0):
            state = start.clone()
            state.apply_actions([a, 0])
            closed.add(state.information_state_string(1))
        assert len(closed) == len(start.legal_actions(0))


def test_the_observation_tensor_does_not_tell_the_choice():
    env = TgdlEnv(goofspiel, params={"num_cards": 4, "points_order": "descending"})
    tensors = set()
    for a in range(4):
        env.reset(seed=1)
        assert env.agent_selection == "player_0"
        env.step(a)
        assert env.agent_selection == "player_1"
        obs = env.observe("player_1")
        assert obs["action_mask"].tolist()[:4] == [1, 1, 1, 1]
        assert env.observe("player_0")["action_mask"].sum() == 0
        tensors.add(obs["observation"].tobytes())
    assert len(tensors) == 1


def test_rock_paper_scissors_is_openspiels_matrix_rps():
    game = pyspiel.load_game("tgdl_rock_paper_scissors")
    matrix = pyspiel.load_game("matrix_rps")
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    state = game.new_initial_state()
    assert state.is_simultaneous_node() and state.current_player() == SIMULTANEOUS
    names = [matrix.row_action_name(i).lower() for i in range(matrix.num_rows())]
    assert [state.action_to_string(p, a) for p in range(2) for a in range(3)] == names * 2
    for r, c in itertools.product(range(3), range(3)):
        joint = state.clone()
        joint.apply_actions([r, c])
        assert joint.is_terminal()
        assert joint.returns() == [matrix.player_utility(0, r, c), matrix.player_utility(1, r, c)]
        module_state = rps.Game().new_state(0)
        module_state.apply_actions([r, c])
        assert module_state.returns() == joint.returns()
    # Flat joint actions, numbered as OpenSpiel numbers them: player 0's is the low digit.
    assert state.legal_actions() == list(range(9))
    for flat in range(9):
        r, c = flat % 3, flat // 3
        assert state.child(flat).returns() == [matrix.player_utility(0, r, c), matrix.player_utility(1, r, c)]
        assert state.action_to_string(SIMULTANEOUS, flat) == f"({names[r]}, {names[c]})"


def joint_children(state):
    """`(probability, child)` of every joint move from `state`, each player choosing
    uniformly (chance by its probabilities)."""
    if state.is_chance_node():
        for action, p in state.chance_outcomes():
            yield p, state.child(action)
        return
    menus = [state.legal_actions(p) or [0] for p in range(state.num_players())]
    weight = 1.0 / np.prod([len(m) for m in menus])
    for actions in itertools.product(*menus):
        child = state.clone()
        child.apply_actions(list(actions))
        yield weight, child


def walk(game):
    """Joint moves at each depth (perft), and the probability of each vector of returns
    under uniform random play."""
    counts, returns = defaultdict(int), defaultdict(float)

    def visit(state, depth, probability):
        if state.is_terminal():
            returns[tuple(state.returns())] += probability
            return
        for p, child in joint_children(state):
            counts[depth + 1] += 1
            visit(child, depth + 1, probability * p)

    visit(game.new_initial_state(), 0, 1.0)
    return [counts[d] for d in sorted(counts)], dict(returns)


@pytest.mark.parametrize(
    "cards, perft, draw, win",
    [(4, [16, 144, 576], 0.19444444444444445, 0.40277777777777778), (5, [25, 400, 3600, 14400], 0.08888888888888889, 0.45555555555555556)],
)
def test_goofspiel_is_openspiels(cards, perft, draw, win):
    params = {"num_cards": cards, "points_order": "descending"}
    ours = pyspiel.load_game("tgdl_goofspiel", params)
    theirs = pyspiel.load_game("goofspiel", params)
    assert ours.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert ours.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert ours.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert ours.num_distinct_actions() == theirs.num_distinct_actions() == cards
    # Each player's choice in a round counts: a bound on OpenSpiel's joint moves.
    assert ours.max_game_length() >= theirs.max_game_length()
    our_counts, our_returns = walk(ours)
    their_counts, their_returns = walk(theirs)
    assert our_counts == their_counts == perft
    assert set(our_returns) == set(their_returns) == {(0.0, 0.0), (1.0, -1.0), (-1.0, 1.0)}
    for outcome, p in their_returns.items():
        assert our_returns[outcome] == pytest.approx(p, abs=1e-9)
    assert our_returns[(0.0, 0.0)] == pytest.approx(draw, abs=1e-9)
    assert our_returns[(1.0, -1.0)] == our_returns[(-1.0, 1.0)] == pytest.approx(win, abs=1e-9)


def test_flat_joint_actions_are_numbered_as_openspiels_goofspiel_numbers_them():
    params = {"num_cards": 4, "points_order": "descending"}
    ours = pyspiel.load_game("tgdl_goofspiel", params).new_initial_state()
    theirs = pyspiel.load_game("goofspiel", params).new_initial_state()
    assert ours.legal_actions() == theirs.legal_actions() == list(range(16))
    for flat in ours.legal_actions():
        # OpenSpiel's child records each player's action; bids are cards, and options
        # are the cards held, lowest first: the same numbers.
        joint = theirs.child(flat).history()
        by_joint = ours.clone()
        by_joint.apply_actions(joint)
        assert str(ours.child(flat)) == str(by_joint)


def test_openspiel_plays_the_games_and_their_turn_based_forms():
    games = [
        pyspiel.load_game("tgdl_rock_paper_scissors"),
        pyspiel.load_game("tgdl_goofspiel", {"num_cards": 4, "points_order": "descending"}),
        pyspiel.load_game("tgdl_goofspiel", {"num_cards": 4}),  # the prizes shuffled: chance nodes
        pyspiel.load_game("tgdl_rounds"),
    ]
    for game in games:
        # OpenSpiel's own checks of a game's API along random games, serializing the states.
        pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
        pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=5, serialize=True, verbose=False)


def test_openspiels_turn_based_form_hides_the_first_choice():
    game = pyspiel.convert_to_turn_based(pyspiel.load_game("tgdl_rock_paper_scissors"))
    strings = set()
    for a in range(3):
        state = game.new_initial_state()
        assert state.current_player() == 0
        state.apply_action(a)
        assert state.current_player() == 1
        strings.add((state.information_state_string(1), state.observation_string(1), tuple(state.observation_tensor(1))))
    assert len(strings) == 1


def test_openspiels_algorithms_on_rock_paper_scissors():
    ours = pyspiel.convert_to_turn_based(pyspiel.load_game("tgdl_rock_paper_scissors"))
    theirs = pyspiel.convert_to_turn_based(pyspiel.load_game("matrix_rps"))
    # The normal form of our game is matrix_rps's payoff matrix.
    matrix = pyspiel.extensive_to_matrix_game(ours)
    rps_matrix = pyspiel.load_matrix_game("matrix_rps")
    assert (matrix.row_utilities() == rps_matrix.row_utilities()).all()
    assert (matrix.col_utilities() == rps_matrix.col_utilities()).all()
    # Uniform play is the equilibrium; always rock is exploited by paper, by 1 each way.
    assert exploitability.nash_conv(ours, policy.UniformRandomPolicy(ours)) == pytest.approx(0, abs=1e-12)
    rock = policy.TabularPolicy(ours)
    rock.action_probability_array[:] = [1, 0, 0]
    assert exploitability.nash_conv(ours, rock) == pytest.approx(2.0)
    # CFR from rock: OpenSpiel's regrets on both games, iteration by iteration.
    ours_cfr, theirs_cfr = cfr.CFRSolver(ours), cfr.CFRSolver(theirs)
    for solver in (ours_cfr, theirs_cfr):
        solver._current_policy.action_probability_array[:] = [1, 0, 0]
    for _ in range(50):
        ours_cfr.evaluate_and_update_policy()
        theirs_cfr.evaluate_and_update_policy()
        a = exploitability.nash_conv(ours, ours_cfr.average_policy())
        b = exploitability.nash_conv(theirs, theirs_cfr.average_policy())
        assert a == pytest.approx(b, abs=1e-9)
    assert a < 0.1  # 0.0713...: on its way to the equilibrium


def test_openspiels_best_response_on_goofspiel():
    # Uniform play in goofspiel with four cards: OpenSpiel finds the same exploitability in
    # its own game and in ours.
    params = {"num_cards": 4, "points_order": "descending"}
    ours = pyspiel.convert_to_turn_based(pyspiel.load_game("tgdl_goofspiel", params))
    theirs = pyspiel.convert_to_turn_based(pyspiel.load_game("goofspiel", params))
    a = exploitability.exploitability(ours, policy.UniformRandomPolicy(ours))
    b = exploitability.exploitability(theirs, policy.UniformRandomPolicy(theirs))
    assert a == pytest.approx(b, abs=1e-9) and a == pytest.approx(0.75, abs=1e-9)


@pytest.mark.parametrize(
    "module, params",
    [(rps, None), (goofspiel, {"num_cards": 5, "points_order": "descending"}), (goofspiel, None), (rounds, None)],
)
@pytest.mark.parametrize("encoding", ["tensor", "json"])
def test_pettingzoos_api_tests_pass(module, params, encoding):
    parallel_api_test(TgdlParallelEnv(module, params=params, encoding=encoding), num_cycles=200)
    api_test(TgdlEnv(module, params=params, encoding=encoding), num_cycles=200, verbose_progress=False)


def test_the_package_makes_the_parallel_env():
    env = goofspiel.parallel_env(params={"num_cards": 4})
    assert isinstance(env, TgdlParallelEnv) and env.module is goofspiel and env.max_actions == 4
    observations, infos = env.reset(seed=3)
    assert env.acting_agents() == ["player_0", "player_1"]
    assert infos["player_1"]["action_labels"] == ["1: bid", "2: bid", "3: bid", "4: bid"]


def test_a_parallel_step_takes_the_round_together():
    env = TgdlParallelEnv(rps)
    observations, infos = env.reset(seed=0)
    assert env.agents == ["player_0", "player_1"] == env.acting_agents()
    for agent in env.agents:
        assert observations[agent]["action_mask"].tolist() == [1, 1, 1]
        assert infos[agent]["action_labels"] == ["rock", "paper", "scissors"]
    with pytest.raises(ValueError, match="player_1 acts in this step"):
        env.step({"player_0": 0})
    with pytest.raises(ValueError, match="player_0 chose 3"):
        env.step({"player_0": 3, "player_1": 0})
    assert env.state_obj.history() == []
    observations, rewards, terminations, truncations, infos = env.step({"player_0": 1, "player_1": 0})
    assert rewards == {"player_0": 1.0, "player_1": -1.0}  # paper wraps rock
    assert terminations == {"player_0": True, "player_1": True}
    assert truncations == {"player_0": False, "player_1": False}
    assert env.agents == [] and set(observations) == {"player_0", "player_1"}
    with pytest.raises(ValueError, match="the game is over"):
        env.step({})


def test_a_parallel_step_takes_a_lone_decision_alone():
    env = TgdlParallelEnv(rounds)
    observations, infos = env.reset(seed=0)
    assert env.acting_agents() == ["player_0", "player_2"]
    assert observations["player_1"]["action_mask"].sum() == 0 and "action_labels" not in infos["player_1"]
    # The action given to the player who waits is ignored.
    env.step({"player_0": 1, "player_1": 7, "player_2": 0})
    env.step({"player_0": 0, "player_2": 0})
    assert env.acting_agents() == ["player_1"]
    observations, rewards, terminations, truncations, infos = env.step({"player_1": 0})
    assert env.state_obj.history() == [1, 0, 0, 0, 0]
    # 3 against 2: player 0 wins, the others share last place.
    assert rewards == {"player_0": 1.0, "player_1": 0.0, "player_2": 0.0}
    assert all(terminations.values()) and env.agents == []


@pytest.mark.parametrize("module, params", [(goofspiel, {"num_cards": 6}), (rounds, None), (rps, None)])
def test_parallel_and_turn_by_turn_stepping_agree(module, params):
    rng = np.random.default_rng(11)
    for seed in range(8):
        parallel = TgdlParallelEnv(module, params=params)
        observations, _ = parallel.reset(seed=seed)
        chosen = []
        while parallel.agents:
            actions = {}
            for agent in parallel.acting_agents():
                actions[agent] = int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
                chosen.append((agent, actions[agent]))
            observations, rewards, *_ = parallel.step(actions)
        aec = TgdlEnv(module, params=params)
        aec.reset(seed=seed)
        asked = iter(chosen)
        final = {}
        for agent in aec.agent_iter():
            obs, reward, termination, truncation, info = aec.last()
            if termination or truncation:
                final[agent] = reward
                aec.step(None)
                continue
            expected_agent, action = next(asked)
            assert agent == expected_agent
            aec.step(action)
        assert final == rewards
        assert aec.state_obj.history() == parallel.state_obj.history()
        for agent in parallel.possible_agents:
            assert (aec.observe(agent)["observation"] == observations[agent]["observation"]).all()
