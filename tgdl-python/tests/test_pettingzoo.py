"""The PettingZoo AEC environment passes PettingZoo's own API test; its default
observation is the documented fixed-shape array of `tgdl_observation`."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import connect_four
import tic_tac_toe
import tgdl_observation
from tgdl_pettingzoo import TgdlEnv


@pytest.mark.parametrize("module", [tic_tac_toe, connect_four])
@pytest.mark.parametrize("encoding", ["tensor", "json"])
def test_api_test_passes(module, encoding):
    api_test(TgdlEnv(module, encoding=encoding), num_cycles=200, verbose_progress=False)


def test_the_game_package_makes_the_env():
    env = connect_four.env(players=2)
    assert isinstance(env, TgdlEnv) and env.module is connect_four
    api_test(env, num_cycles=50, verbose_progress=False)


def test_masks_rewards_and_the_tensor_layout():
    env = TgdlEnv(connect_four)
    assert env.max_actions == 7
    env.reset(seed=4)
    obs, reward, termination, truncation, info = env.last()
    space = env.observation_space("player_0")["observation"]
    assert obs["observation"].shape == space.shape == env.encoder.shape
    assert obs["observation"].dtype == np.float32 and space.contains(obs["observation"])
    blocks = env.encoder.decode(obs["observation"])
    assert blocks["active"].tolist() == [1, 0] and blocks["viewer"].tolist() == [1, 0]
    assert obs["action_mask"].tolist() == [1] * 7
    assert info["action_labels"] == env.state_obj.action_labels()
    assert "action_labels" not in env.infos["player_1"]
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        assert space.contains(obs["observation"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(env.state_obj.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_connect_four_planes_show_the_discs():
    encoder = connect_four.observation_encoder()
    assert set(encoder.cell_tokens) == {"X", "O"}
    state = connect_four.Game().new_state(0)
    for column in [3, 3, 4]:
        state.apply_action(column)
    blocks = encoder.decode(encoder.encode_state(state, 1))
    grid = blocks["grid:Frame.Grid"]
    x, o = encoder.cell_tokens.index("X"), encoder.cell_tokens.index("O")
    assert grid.shape == (len(encoder.cell_tokens) + 2, 6, 7)
    assert grid[x].sum() == 2 and grid[x, 5, 3] == 1 and grid[x, 5, 4] == 1
    assert grid[o].sum() == 1 and grid[o, 4, 3] == 1
    # The column heights are numbers: plane -1 of the top row.
    assert blocks["grid:Frame.Top"][-1, 0].tolist() == [0, 0, 0, 2, 1, 0, 0]
    assert blocks["active"].tolist() == [0, 1] and blocks["viewer"].tolist() == [0, 1]
    assert blocks["scalars"][encoder.attributes.index("Rules.discs")] == 3


def test_encoders_agree_and_rebuild_from_their_vocabulary():
    a = tgdl_observation.ObservationEncoder(tic_tac_toe)
    b = tgdl_observation.ObservationEncoder(tic_tac_toe, vocabulary=a.vocabulary)
    assert a.layout == b.layout and a.vocabulary == tic_tac_toe.observation_encoder().vocabulary
    state = tic_tac_toe.Game().new_state(0)
    state.apply_action(4)
    assert (a.encode_state(state, 0) == b.encode_state(state, 0)).all()
    assert "grid:Board.Grid" in a.describe()


def test_same_seed_same_observations():
    a, b = TgdlEnv(tic_tac_toe), TgdlEnv(tic_tac_toe)
    a.reset(seed=9)
    b.reset(seed=9)
    for action in [4, 0, 6]:
        a.step(action)
        b.step(action)
    assert (a.observe("player_0")["observation"] == b.observe("player_0")["observation"]).all()
    assert a.observation_dict("player_0") == b.observation_dict("player_0")
    assert a.observation_text("player_1") == b.observation_text("player_1")
