"""The vector environment (`module.VectorEnv`, docs/python.md) against single games: the
same seeds, the same actions, the same observations (the Rust encoding against the Python
encoder's), masks, players, returns and resets."""

import numpy as np
import pytest

import connect_four
import crazy_eights
import kuhn_poker
import leduc_poker
import liars_dice
import rule_errors
import tic_tac_toe


@pytest.fixture(scope="module")
def eights_encoder():
    """The encoder of three-player crazy eights, probed once."""
    return crazy_eights.observation_encoder(3)


def play_both(module, num_envs, seed, steps, players=None, threads=None, rng_seed=0, encoder=None):
    """Steps a vector of `num_envs` games and, beside it, a single game per slot
    (`new_state(derive_seed(seed, k))`), with the same random legal actions; checks every
    row of every step against the single games. Returns how many games ended."""
    env = module.VectorEnv(num_envs, seed=seed, players=players, threads=threads, encoder=encoder)
    game = module.Game(env.players)
    encoder = env.encoder
    indices = list(range(num_envs))
    singles = [game.new_state(module.derive_seed(seed, k)) for k in indices]
    rng = np.random.default_rng(rng_seed)
    ended = 0

    def check(obs, mask, player):
        assert obs.shape == (num_envs, env.observation_size) and obs.dtype == np.float32
        assert mask.shape == (num_envs, env.num_actions) and mask.dtype == np.bool_
        assert env.game_indices().tolist() == indices
        assert env.seeds().tolist() == [module.derive_seed(seed, k) for k in indices]
        for i, state in enumerate(singles):
            p = state.current_player()
            assert player[i] == p
            options = len(state.legal_actions())
            assert mask[i, :options].all() and not mask[i, options:].any()
            assert np.array_equal(obs[i], encoder.encode_state(state, p)), f"game {indices[i]}: observations differ"

    check(*env.observe())
    for _ in range(steps):
        _, mask, _ = env.observe()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        obs, mask, player, rewards, done = env.step(actions)
        assert rewards.shape == (num_envs, env.players) and rewards.dtype == np.float64
        for i, a in enumerate(actions):
            singles[i].apply_action(int(a))
            if singles[i].is_terminal():
                assert done[i] and rewards[i].tolist() == singles[i].returns()
                indices[i] += num_envs
                singles[i] = game.new_state(module.derive_seed(seed, indices[i]))
                ended += 1
            else:
                assert not done[i] and not rewards[i].any()
        assert not env.truncated.any() and not env.failed.any()
        check(obs, mask, player)
    for i, state in enumerate(singles):
        assert env.state(i).history() == state.history() and env.state(i).seed == state.seed
    return ended


@pytest.mark.parametrize(
    "module, num_envs, steps, players",
    [
        (kuhn_poker, 8, 30, None),
        (leduc_poker, 8, 30, None),
        (tic_tac_toe, 5, 25, None),
        (connect_four, 4, 60, None),
        (liars_dice, 6, 20, None),
        (crazy_eights, 3, 40, 3),
    ],
    ids=lambda x: getattr(x, "__name__", str(x)),
)
def test_the_vector_plays_the_single_games(module, num_envs, steps, players, eights_encoder):
    encoder = eights_encoder if module is crazy_eights else None
    ended = play_both(module, num_envs, seed=11, steps=steps, players=players, encoder=encoder)
    # Enough games ended that resets were checked (crazy eights: its games are long).
    assert ended >= (0 if module is crazy_eights else num_envs)


def test_threads_do_not_change_the_games():
    runs = []
    for threads in (1, 2):
        env = leduc_poker.VectorEnv(64, seed=5, threads=threads)
        assert env.threads == threads
        rng = np.random.default_rng(1)
        trace = []
        _, mask, _ = env.observe()
        for _ in range(40):
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
            obs, mask, player, rewards, done = env.step(actions)
            trace.append((obs.copy(), mask.copy(), player.copy(), rewards.copy(), done.copy()))
        runs.append(trace)
    for a, b in zip(*runs):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


def test_reset_replays_and_reseeds():
    env = kuhn_poker.VectorEnv(16, seed=2, threads=1)
    first = env.observe()
    env.step(np.ones(16, np.int64))
    again = env.reset()
    for x, y in zip(first, again):
        assert np.array_equal(x, y)
    assert env.game_indices().tolist() == list(range(16))
    other = env.reset(seed=3)
    assert env.seed == 3 and env.seeds()[0] == kuhn_poker.derive_seed(3, 0)
    # Other seeds deal other cards: some observation differs.
    assert not np.array_equal(first[0], other[0])


def test_bad_actions_step_nothing():
    env = connect_four.VectorEnv(3, seed=1, threads=1)
    before = env.observe()
    with pytest.raises(IndexError, match="2 actions for 3 games"):
        env.step([0, 1])
    with pytest.raises(IndexError, match="action 7 of game 1 does not exist"):
        env.step([0, 7, 0])
    with pytest.raises(IndexError, match="action -1 of game 2"):
        env.step(np.array([0, 0, -1]))
    for x, y in zip(before, env.observe()):
        assert np.array_equal(x, y)
    assert [env.state(i).history() for i in range(3)] == [[], [], []]
    with pytest.raises(ValueError, match="one integer per game"):
        env.step(np.zeros((3, 1), np.int64))


def test_limits_truncation_and_rule_errors():
    # A mask too narrow for the menu is refused, naming the parameter.
    with pytest.raises(ValueError, match="more than the mask's 3 \\(max_actions\\)"):
        connect_four.VectorEnv(2, max_actions=3)
    wide = connect_four.VectorEnv(2, max_actions=10)
    assert wide.observe()[1].shape == (2, 10) and wide.observe()[1].sum() == 14
    # max_decisions ends a game, truncated, with zero rewards; the next game starts.
    env = connect_four.VectorEnv(2, seed=4, max_decisions=2, threads=1)
    _, _, _, rewards, done = env.step([0, 0])
    assert not done.any()
    _, _, player, rewards, done = env.step([1, 1])
    assert done.all() and env.truncated.all() and not env.failed.any() and not rewards.any()
    assert env.game_indices().tolist() == [2, 3] and player.tolist() == [0, 0]
    # A rule error ends a game, failed, with zero rewards.
    errors = rule_errors.VectorEnv(2, players=3, max_actions=3, threads=1)
    _, _, _, rewards, done = errors.step([1, 0])
    assert done.all() and errors.failed.all() and not errors.truncated.any() and not rewards.any()


def test_the_mask_width_is_the_largest_menu(eights_encoder):
    assert kuhn_poker.VectorEnv(1).num_actions == 2
    assert leduc_poker.VectorEnv(1).num_actions == 3
    assert liars_dice.VectorEnv(1).num_actions == 12
    env = crazy_eights.VectorEnv(2, players=3, encoder=eights_encoder)
    assert env.observation_size == eights_encoder.size and env.encoder is eights_encoder
    with pytest.raises(ValueError, match="encoder is for 2 players"):
        crazy_eights.VectorEnv(2, players=3, encoder=crazy_eights.observation_encoder(2, probe_games=1))


def test_without_observations_the_games_are_the_same():
    runs = []
    for observations in (True, False):
        env = leduc_poker.VectorEnv(32, seed=8, observations=observations, threads=1)
        rng = np.random.default_rng(2)
        obs, mask, player = env.observe()
        assert obs.shape == (32, env.observation_size if observations else 0)
        assert (env.encoder is None) != observations
        trace = []
        for _ in range(30):
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
            _, mask, player, rewards, done = env.step(actions)
            trace.append((mask.copy(), player.copy(), rewards.copy(), done.copy()))
        runs.append(trace)
    for a, b in zip(*runs):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    with pytest.raises(ValueError, match="observations=False has none"):
        kuhn_poker.VectorEnv(2, observations=False, encoder=kuhn_poker.observation_encoder())
