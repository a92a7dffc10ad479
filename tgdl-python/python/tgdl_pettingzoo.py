"""PettingZoo environments over any game module built by `tgdlc build --python`: an AEC
environment (`TgdlEnv`, one agent acts at a time) and a Parallel one (`TgdlParallelEnv`,
every player of a round of simultaneous choices acts in one step).

    import connect_four
    env = connect_four.env()            # or tgdl_pettingzoo.TgdlEnv(connect_four, players=2)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are `player_0`, `player_1`, ... (seat p). Actions are option indices: the action
space is `Discrete(max_actions)` and the mask marks the options of the current decision
(`state.legal_actions()`). Each observation is a dict: `observation`, a numeric encoding
of what the seat may see (`state.observation(p)`, docs/hidden-information.md: never another seat's hand),
and `action_mask`.

Encodings (`encoding=`):
- `"tensor"` (default): `tgdl_observation.ObservationEncoder`'s float32 array of fixed
  shape, with a documented layout (`env.encoder.layout`: one-hot planes per grid cell,
  hand counts, hand sizes, the attributes, who is to move; see `tgdl_observation`).
- `"json"`: the UTF-8 bytes of the observation's JSON, zero-padded to `observation_size`
  bytes (uint8). Lossless and generic; decode with `bytes(obs).rstrip(b"\\0")`.
- a callable `f(observation_dict) -> np.ndarray` of shape `observation_shape`, with
  values in `[low, high]`.

The same observation as data or text: `env.observation_dict(agent)`,
`env.observation_text(agent)`. `infos[agent]["action_labels"]` holds the labels of the
options of the agent to move (the other agents' infos do not). Rewards come when the game
ends: `state.returns()` (1 for first place, 0 for last, evenly between, 0.5 each in a
draw). A rule error ends the game with zero rewards and `infos[agent]["error"] =
(location, message)`. `max_decisions` truncates long games (each player's choice counts
once). `render()` draws what a spectator sees (`reveal=True`: the whole world, for the
designer). `params` holds values for the game's parameters (`params={"num_cards": 4}`).

In a round of simultaneous choices, the AEC environment asks its players one after
another in seat order (`state.deciding_player()`); each reads what the others chose as a
secret until the round closes. The Parallel environment asks them together:

    import goofspiel
    env = goofspiel.parallel_env(params={"num_cards": 4})   # TgdlParallelEnv(goofspiel, ...)
    observations, infos = env.reset(seed=42)
    while env.agents:
        actions = {a: env.action_space(a).sample(observations[a]["action_mask"]) for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)

Each step applies the choices of the agents that act now (`env.acting_agents()`: the
players of the round yet to choose, or the one player who decides) with
`state.apply_actions`; the actions given for the others are ignored, and their masks are
all zeros. Observations, rewards, terminations and truncations are given for every live
agent; once the game ends, `env.agents` is empty.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from tgdl_observation import ObservationEncoder

__all__ = ["TgdlEnv", "TgdlParallelEnv", "env", "parallel_env", "probe_max_actions"]


def _deciding(state) -> int:
    """The seat `apply_action` chooses for (in a round, the first yet to choose); modules
    built before rounds existed have no `deciding_player`."""
    deciding = getattr(state, "deciding_player", None)
    return deciding() if deciding is not None else state.current_player()


def probe_max_actions(module, players: int, games: int = 50, seed: int = 0, params: Optional[dict] = None) -> int:
    """The largest number of options met in `games` seeded random games."""
    game = module.Game(players, **(params or {}))
    best = 1
    for i in range(games):
        state = game.new_state(module.derive_seed(seed, i))
        agents = [module.RandomAgent(module.seat_seed(state.seed, p)) for p in range(players)]
        steps = 0
        while not state.is_terminal() and steps < 10_000:
            n = len(state.legal_actions())
            best = max(best, n)
            try:
                state.apply_action(agents[_deciding(state)].pick(n))
            except module.RuleError:
                break
            steps += 1
    return best


class _TgdlAgents:
    """What both environments share: the game, the agents, the spaces, the encodings."""

    def _setup(
        self,
        module,
        players: Optional[int],
        params: Optional[dict],
        encoding: Any,
        observation_size: int,
        observation_shape: Optional[tuple],
        low: float,
        high: float,
        max_actions: Optional[int],
        max_decisions: int,
        render_mode: Optional[str],
        encoder: Optional[ObservationEncoder],
        reveal: bool,
    ):
        self.module = module
        self.game = module.Game(players, **(params or {}))
        self.players = self.game.players
        self.render_mode = render_mode
        self.reveal = reveal
        self.encoder: Optional[ObservationEncoder] = None
        self.max_decisions = max_decisions
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        self.max_actions = max_actions or probe_max_actions(module, self.players, params=params)

        probe = self.game.new_state(0)
        if encoding == "tensor":
            self.encoder = encoder or ObservationEncoder(module, self.players)
            if self.encoder.players != self.players:
                raise ValueError(f"the encoder is for {self.encoder.players} players, not {self.players}")
            self._encode: Callable[[Dict[str, Any]], np.ndarray] = self.encoder.encode
            shape, dtype, low, high = self.encoder.shape, np.float32, self.encoder.low, self.encoder.high
        elif encoding == "json":
            self._encode = self._json_encoding
            shape, dtype, low, high = (observation_size,), np.uint8, 0, 255
            self.observation_size = observation_size
        elif callable(encoding):
            self._encode = encoding
            sample = np.asarray(encoding(probe.observation_dict(0)))
            shape, dtype = observation_shape or sample.shape, sample.dtype
        else:
            raise ValueError(f"unknown encoding {encoding!r}: use 'tensor', 'json' or a function")
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=low, high=high, shape=shape, dtype=dtype),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.max_actions,), dtype=np.int8),
            }
        )
        self._observation_spaces = {a: obs_space for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(self.max_actions) for a in self.possible_agents}
        self.state_obj = None

    # Spaces are the same objects on every call (PettingZoo requires it).
    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def _json_encoding(self, observation: Dict[str, Any]) -> np.ndarray:
        data = json.dumps(observation, separators=(",", ":")).encode("utf-8")
        if len(data) > self.observation_size:
            raise ValueError(
                f"the observation takes {len(data)} bytes, more than observation_size={self.observation_size}"
            )
        out = np.zeros(self.observation_size, dtype=np.uint8)
        out[: len(data)] = np.frombuffer(data, dtype=np.uint8)
        return out

    def _options(self, seat: int) -> int:
        """How many options seat `seat` chooses from now (0 when it does not choose)."""
        state = self.state_obj
        if state is None or state.is_terminal():
            return 0
        n = len(self._legal_actions(seat))
        if n > self.max_actions:
            raise ValueError(f"{n} options, more than max_actions={self.max_actions}")
        return n

    def _mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(self.max_actions, dtype=np.int8)
        mask[: self._options(seat)] = 1
        return mask

    def observation_dict(self, agent) -> Dict[str, Any]:
        """What `agent` may see, as data (`state.observation_dict(seat)`)."""
        return self.state_obj.observation_dict(self.agent_name_mapping[agent])

    def observation_text(self, agent, log_lines: int = 5) -> str:
        """What `agent` may see, drawn as the terminal draws it."""
        return self.state_obj.observation_text(self.agent_name_mapping[agent], log_lines)

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        observation = self.state_obj.observation_dict(seat)
        encoded = np.asarray(self._encode(observation), dtype=self._observation_spaces[agent]["observation"].dtype)
        return {"observation": encoded, "action_mask": self._mask(seat)}

    def _new_game(self, seed: Optional[int]):
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(2, dtype=np.uint32).view(np.uint64)[0])
        self.state_obj = self.game.new_state(int(seed) & (2**64 - 1))

    def render(self):
        if self.render_mode is None:
            return None
        text = str(self.state_obj) if self.reveal else self.state_obj.observation_text(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


class TgdlEnv(_TgdlAgents, AECEnv):
    """A TGDL game as a PettingZoo AEC environment (see the module's documentation)."""

    def __init__(
        self,
        module,
        players: Optional[int] = None,
        encoding: Any = "tensor",
        observation_size: int = 4096,
        observation_shape: Optional[tuple] = None,
        low: float = 0,
        high: float = 255,
        max_actions: Optional[int] = None,
        max_decisions: int = 10_000,
        render_mode: Optional[str] = None,
        encoder: Optional[ObservationEncoder] = None,
        reveal: bool = False,
        params: Optional[dict] = None,
    ):
        AECEnv.__init__(self)
        self.metadata = {
            "render_modes": ["human", "ansi"],
            "name": f"tgdl_{module.__name__}_v0",
            "is_parallelizable": False,
        }
        self._setup(
            module,
            players,
            params,
            encoding,
            observation_size,
            observation_shape,
            low,
            high,
            max_actions,
            max_decisions,
            render_mode,
            encoder,
            reveal,
        )

    def _legal_actions(self, seat: int):
        # One agent at a time: in a round, its players in seat order.
        return self.state_obj.legal_actions() if _deciding(self.state_obj) == seat else []

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.decisions = 0
        self._select()
        self._label_options()

    def _label_options(self):
        """The agent to move finds the labels of its options in its info; no one else."""
        for a in self.agents:
            self.infos[a].pop("action_labels", None)
        p = _deciding(self.state_obj)
        if p >= 0 and self.possible_agents[p] in self.infos:
            self.infos[self.possible_agents[p]]["action_labels"] = self.state_obj.action_labels()

    def _select(self):
        p = _deciding(self.state_obj)
        if p >= 0:
            self.agent_selection = self.possible_agents[p]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        n = len(self.state_obj.legal_actions())
        if action is None or not 0 <= int(action) < n:
            raise ValueError(f"{agent} chose {action!r}, which is not one of its {n} options")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        try:
            self.state_obj.apply_action(int(action))
        except self.module.RuleError as e:
            for a in self.agents:
                self.infos[a] = {"error": (e.location, e.message)}
        self.decisions += 1
        if self.state_obj.is_terminal():
            returns = self.state_obj.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self.agent_name_mapping[a]])
                self.terminations[a] = True
        elif self.decisions >= self.max_decisions:
            for a in self.agents:
                self.truncations[a] = True
        self._select()
        self._label_options()
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            # The last mover is asked first to step with None, as PettingZoo's games do.
            self.agent_selection = agent
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class TgdlParallelEnv(_TgdlAgents, ParallelEnv):
    """A TGDL game as a PettingZoo Parallel environment: every player of a round of
    simultaneous choices acts in one step, a player who decides alone acts alone (see the
    module's documentation)."""

    def __init__(
        self,
        module,
        players: Optional[int] = None,
        encoding: Any = "tensor",
        observation_size: int = 4096,
        observation_shape: Optional[tuple] = None,
        low: float = 0,
        high: float = 255,
        max_actions: Optional[int] = None,
        max_decisions: int = 10_000,
        render_mode: Optional[str] = None,
        encoder: Optional[ObservationEncoder] = None,
        reveal: bool = False,
        params: Optional[dict] = None,
    ):
        self.metadata = {"render_modes": ["human", "ansi"], "name": f"tgdl_{module.__name__}_parallel_v0"}
        self._setup(
            module,
            players,
            params,
            encoding,
            observation_size,
            observation_shape,
            low,
            high,
            max_actions,
            max_decisions,
            render_mode,
            encoder,
            reveal,
        )
        self.agents = []

    def _legal_actions(self, seat: int):
        return self.state_obj.legal_actions(seat)

    def acting_agents(self):
        """The agents whose actions the next step applies: the players of the round under
        way yet to choose, or the one player who decides; none once the game is over."""
        state = self.state_obj
        if state is None or state.is_terminal():
            return []
        return [a for a in self.agents if state.legal_actions(self.agent_name_mapping[a])]

    def _infos(self):
        infos = {a: {} for a in self.agents}
        for a in self.acting_agents():
            infos[a]["action_labels"] = self.state_obj.action_labels(self.agent_name_mapping[a])
        return infos

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.decisions = 0
        observations = {a: self.observe(a) for a in self.agents}
        return observations, self._infos()

    def step(self, actions):
        if not self.agents:
            raise ValueError("the game is over: reset the environment to play again")
        acting = self.acting_agents()
        joint = [0] * self.players
        for agent in acting:
            seat = self.agent_name_mapping[agent]
            action = actions.get(agent)
            n = len(self.state_obj.legal_actions(seat))
            if action is None:
                raise ValueError(f"{agent} acts in this step: give it an action (one of its {n} options)")
            if not 0 <= int(action) < n:
                raise ValueError(f"{agent} chose {action!r}, which is not one of its {n} options")
            joint[seat] = int(action)
        error = None
        try:
            self.state_obj.apply_actions(joint)
        except self.module.RuleError as e:
            error = (e.location, e.message)
        self.decisions += len(acting)
        rewards = {a: 0.0 for a in self.agents}
        terminations = {a: False for a in self.agents}
        truncations = {a: False for a in self.agents}
        if self.state_obj.is_terminal():
            returns = self.state_obj.returns()
            for a in self.agents:
                rewards[a] = float(returns[self.agent_name_mapping[a]])
                terminations[a] = True
        elif self.decisions >= self.max_decisions:
            truncations = {a: True for a in self.agents}
        observations = {a: self.observe(a) for a in self.agents}
        infos = self._infos()
        if error is not None:
            for a in self.agents:
                infos[a]["error"] = error
        if self.state_obj.is_terminal() or self.decisions >= self.max_decisions:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos


def env(module, **kwargs) -> TgdlEnv:
    """`TgdlEnv(module, **kwargs)` (PettingZoo's naming)."""
    return TgdlEnv(module, **kwargs)


def parallel_env(module, **kwargs) -> TgdlParallelEnv:
    """`TgdlParallelEnv(module, **kwargs)` (PettingZoo's naming)."""
    return TgdlParallelEnv(module, **kwargs)
