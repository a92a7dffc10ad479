"""The PettingZoo AEC environment passes PettingZoo's own API test."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import connect_four
import tic_tac_toe
from tgdl_pettingzoo import TgdlEnv


@pytest.mark.parametrize("module", [tic_tac_toe, connect_four])
@pytest.mark.parametrize("encoding", ["json", "grid"])
def test_api_test_passes(module, encoding):
    api_test(TgdlEnv(module, encoding=encoding), num_cycles=200, verbose_progress=False)


def test_masks_and_rewards():
    env = TgdlEnv(connect_four, encoding="grid")
    assert env.max_actions == 7
    env.reset(seed=4)
    obs, reward, termination, truncation, info = env.last()
    assert obs["observation"].shape == env.observation_space("player_0")["observation"].shape
    assert obs["observation"][-2:].tolist() == [1, 0]  # player 0 to move
    assert obs["action_mask"].tolist() == [1] * 7
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(env.state_obj.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_same_seed_same_observations():
    a, b = TgdlEnv(tic_tac_toe), TgdlEnv(tic_tac_toe)
    a.reset(seed=9)
    b.reset(seed=9)
    for action in [4, 0, 6]:
        a.step(action)
        b.step(action)
    assert (a.observe("player_0")["observation"] == b.observe("player_0")["observation"]).all()
