"""TGDL games as OpenSpiel games (docs/python.md).

A game's package registers itself when it is imported and `pyspiel` can be imported
(`register` below); nothing else is needed:

    import liars_dice, pyspiel
    game = pyspiel.load_game("tgdl_liars_dice")              # or ("tgdl_liars_dice", {"players": 2})
    state = game.new_initial_state()                         # a chance node: the first roll

The game is a `pyspiel.Game` subclass (`TgdlGame`) and its states `pyspiel.State`
subclasses (`TgdlState`) around the game module's own states with explicit chance
(`Game.new_initial_state()`): actions are indices into the current options (or chance's
outcomes), as in the game module.

What OpenSpiel's `GameType` and `GameInfo` state and a TGDL game does not declare — the
largest menu (`num_distinct_actions`), the most chance outcomes, the longest game, the
range of the returns, whether chance ever decides, whether the returns always sum to the
same number — is found by the game module's `explore`: a walk of every history with
explicit chance within `explore_nodes` positions. When the walk ends, these facts hold for
every game; otherwise (a larger tree, or a `random()`, whose outcomes cannot be listed)
`explore_playouts` random playouts add what they meet, the facts are only what was seen,
and the game says so (`TgdlGame.exploration()["complete"]` is false). The parameters
`max_actions` and `max_game_length` then set the bounds instead.

- `min_utility`/`max_utility`: OpenSpiel reads them as bounds every return lies within
  (its MCTS takes a child worth `max_utility` as a proven best move, value iteration
  starts from `min_utility`), so they must never be too narrow. A complete walk proves the
  range of the returns. Otherwise the range is a guess: `[0, 1]` widened to what was seen
  when no history seen ended with payoffs (a ranking's returns lie in `[0, 1]`), else
  what was seen; the parameters `min_utility` and `max_utility` (used when
  `min_utility < max_utility`) state it instead. A guessed or stated range is enforced:
  a state whose returns leave it raises `ValueError` from `returns()`, rather than
  OpenSpiel's algorithms going on with bounds that do not hold.
- `chance_mode`: deterministic when a complete walk met no chance event, else explicit
  stochastic. `utility`: zero-sum or constant-sum (with `utility_sum`) when a complete
  walk found the returns of every history summing to the same number, else general-sum.
  The registered type (`pyspiel.registered_games()`) says explicit stochastic and
  general-sum; each loaded game's `get_type()` says what its walk proved.
- `information`: imperfect when anything in the game can be hidden
  (`HAS_HIDDEN_INFORMATION`), else perfect.
- Information states (perfect recall) and observations are the seat's own
  (`State.information_state_string(p)`, `State.observation(p)`), tensors their encodings
  (`tgdl_observation.ObservationEncoder`): nothing given to a seat is read from the world.
- `dynamics`: simultaneous when the game has simultaneous turns
  (`HAS_SIMULTANEOUS_TURNS`), else sequential. A round's start is a simultaneous node
  (`current_player()` is `PlayerId.SIMULTANEOUS`): `legal_actions(p)` is each player's
  menu (empty for a player not in the round), `apply_actions` takes one action per player
  (0 for those not in the round), and `legal_actions()` and `apply_action` take OpenSpiel's
  flat joint actions. Elsewhere the game is sequential: one player decides, or chance.
  `max_game_length` counts each player's choice in a round (the walk's decisions), so it
  bounds the joint decisions OpenSpiel counts from above.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Dict, Optional

import numpy as np

import pyspiel

__all__ = ["register", "TgdlGame", "TgdlState", "TgdlObserver", "openspiel_name"]

# Parameters of the OpenSpiel game itself, with their defaults (0: found by the walk;
# the utility range is stated only when min_utility < max_utility).
KNOBS: Dict[str, Any] = {
    "max_actions": 0,
    "max_game_length": 0,
    "explore_nodes": 1_000_000,
    "explore_playouts": 200,
    "min_utility": 0.0,
    "max_utility": 0.0,
}

_REGISTERED: Dict[str, Any] = {}
_EXPLORED: Dict[tuple, Dict[str, Any]] = {}


def openspiel_name(module) -> str:
    """The name the game module is registered under: `tgdl_` and the module's name."""
    return f"tgdl_{module.__name__}"


def _parameters(module) -> Dict[str, Any]:
    """The game's parameters with their defaults: the player count, and those the game
    module declares (`PARAMETERS`, a dict), passed on to `module.Game(**params)`."""
    params: Dict[str, Any] = {"players": int(module.MIN_PLAYERS)}
    params.update(getattr(module, "PARAMETERS", None) or {})
    return params


def _simultaneous(module) -> bool:
    """Whether the game has rounds of simultaneous choices (modules built before they
    existed have no `HAS_SIMULTANEOUS_TURNS`)."""
    return bool(getattr(module, "HAS_SIMULTANEOUS_TURNS", False))


def _game_type(module, chance_mode, utility) -> "pyspiel.GameType":
    information = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if module.HAS_HIDDEN_INFORMATION
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    dynamics = pyspiel.GameType.Dynamics.SIMULTANEOUS if _simultaneous(module) else pyspiel.GameType.Dynamics.SEQUENTIAL
    return pyspiel.GameType(
        short_name=openspiel_name(module),
        long_name=f"TGDL {module.NAME}",
        dynamics=dynamics,
        chance_mode=chance_mode,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=int(module.MAX_PLAYERS),
        min_num_players=int(module.MIN_PLAYERS),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**_parameters(module), **KNOBS},
    )


def register(module) -> str:
    """Registers the game module with OpenSpiel (once); returns its name."""
    name = openspiel_name(module)
    if name not in _REGISTERED:
        game_type = _game_type(
            module,
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            pyspiel.GameType.Utility.GENERAL_SUM,
        )
        # A class per game module, as OpenSpiel's own Python games register a class: the
        # registry outlives the interpreter, and must not be the last to hold its creator.
        game_class = type(f"TgdlGame_{module.__name__}", (TgdlGame,), {"module": module})
        pyspiel.register_game(game_type, game_class)
        _REGISTERED[name] = game_class
    return name


def _explore(module, players: int, nodes: int, playouts: int, params: Dict[str, Any]) -> Dict[str, Any]:
    """The walk of the variant `params` names (the game's own parameters, not the player
    count), once per variant and budget."""
    key = (module.__name__, players, nodes, playouts, tuple(sorted(params.items())))
    if key not in _EXPLORED:
        _EXPLORED[key] = json.loads(module.explore(players, max_nodes=nodes, playouts=playouts, **params))
    return _EXPLORED[key]


def _utility_range(found: Dict[str, Any], low: float, high: float):
    """`(min_utility, max_utility, why)`: the range OpenSpiel is given, and why it must be
    checked (`None` when the walk proved it). Stated bounds must hold what the walk saw."""
    seen = (found["min_return"], found["max_return"]) if found["histories"] else None
    if low < high:
        if seen and (seen[0] < low or seen[1] > high):
            raise ValueError(
                f"the returns range over [{seen[0]}, {seen[1]}], outside min_utility {low} and max_utility {high}"
            )
        return low, high, None if found["complete"] else "was stated (min_utility, max_utility)"
    if found["complete"]:
        low, high = seen or (0.0, 0.0)
        why = None
    elif not found["payoffs"]:
        # No payoffs seen: a ranking's returns lie in [0, 1].
        low, high = min(0.0, *(seen or [0.0])), max(1.0, *(seen or [1.0]))
        why = "holds the returns of a ranking but was not proven (an incomplete walk saw no payoffs)"
    else:
        low, high = seen
        why = "is what an incomplete walk saw"
    if high <= low:
        high = low + 1.0
    return low, high, why


class TgdlGame(pyspiel.Game):
    """A TGDL game module as an OpenSpiel game, with the parameters `params` (the
    player count, the game module's parameters, and `KNOBS`). `register` makes a subclass
    per game module, whose `module` is the game module."""

    module = None

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        module = type(self).module
        if module is None:
            raise TypeError("load the game with pyspiel.load_game(name) (a subclass made by register)")
        params = {**_parameters(module), **KNOBS, **dict(params or {})}
        knobs = {k: type(v)(params[k]) for k, v in KNOBS.items()}
        game_params = {k: v for k, v in params.items() if k not in KNOBS}
        tgdl_game = module.Game(**game_params)
        players = tgdl_game.players
        variant = {k: v for k, v in game_params.items() if k != "players"}
        found = _explore(module, players, knobs["explore_nodes"], knobs["explore_playouts"], variant)
        complete = found["complete"]
        constant = complete and found["errors"] == 0 and abs(found["max_sum"] - found["min_sum"]) < 1e-12
        if constant and abs(found["max_sum"]) < 1e-12:
            utility, utility_sum = pyspiel.GameType.Utility.ZERO_SUM, 0.0
        elif constant:
            utility, utility_sum = pyspiel.GameType.Utility.CONSTANT_SUM, float(found["max_sum"])
        else:
            utility, utility_sum = pyspiel.GameType.Utility.GENERAL_SUM, None
        chance_mode = (
            pyspiel.GameType.ChanceMode.DETERMINISTIC
            if complete and not found["chance"]
            else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        )
        low, high, enforced = _utility_range(found, knobs["min_utility"], knobs["max_utility"])
        max_actions = knobs["max_actions"] or max(1, found["max_actions"])
        max_length = knobs["max_game_length"] or max(1, found["max_decisions"])
        info = pyspiel.GameInfo(
            num_distinct_actions=max_actions,
            max_chance_outcomes=found["max_chance_outcomes"],
            num_players=players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=utility_sum,
            max_game_length=max_length,
        )
        super().__init__(_game_type(module, chance_mode, utility), info, params)
        self.tgdl_game = tgdl_game
        self._enforced = enforced
        self._found = found
        self._max_chance_nodes = found["max_chance_nodes"]
        # Events of an information state: the start, each decision, each chance outcome.
        self._max_events = 1 + max_length + self._max_chance_nodes
        self._initial = tgdl_game.new_initial_state()
        self._encoder = None

    def check_returns(self, returns):
        """`returns`, when the utility range holds them; `ValueError` otherwise (only a
        range the walk did not prove is checked)."""
        if self._enforced:
            low, high = self.min_utility(), self.max_utility()
            for p, r in enumerate(returns):
                if not low <= r <= high:
                    raise ValueError(
                        f"player {p}'s return {r} is outside the utility range [{low}, {high}], which "
                        f"{self._enforced}: load the game with min_utility and max_utility bounding every return"
                    )
        return returns

    def exploration(self) -> Dict[str, Any]:
        """What the game module's `explore` found (`complete`, `max_actions`, ...)."""
        return dict(self._found)

    def new_initial_state(self, *args):
        """The start of a game: setup has run up to its first chance event or decision."""
        if args:
            raise ValueError("a TGDL game starts only from its setup")
        return TgdlState(self, self._initial.clone())

    def max_chance_nodes_in_history(self) -> int:
        return int(self._max_chance_nodes)

    def make_py_observer(self, iig_obs_type=None, params=None):
        # OpenSpiel calls this with the parameters alone when it names no observation type.
        if isinstance(iig_obs_type, dict):
            iig_obs_type, params = None, iig_obs_type
        return TgdlObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def observation_encoder(self):
        """The encoder of the seats' observations (`tgdl_observation`), made once."""
        if self._encoder is None:
            from tgdl_observation import ObservationEncoder

            self._encoder = ObservationEncoder(self.module, self.num_players())
        return self._encoder


class TgdlState(pyspiel.State):
    """A state of a TGDL game with explicit chance; `tgdl_state` is the game module's."""

    def __init__(self, game: TgdlGame, tgdl_state):
        super().__init__(game)
        self.tgdl_state = tgdl_state
        self._max_actions = game.num_distinct_actions()
        self._players = game.num_players()

    def current_player(self):
        s = self.tgdl_state
        p = s.current_player()
        if p >= 0:
            return p
        if s.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        # The module numbers its own (CHANCE -2, SIMULTANEOUS -3): OpenSpiel's ids here.
        return pyspiel.PlayerId.CHANCE if s.is_chance_node() else pyspiel.PlayerId.SIMULTANEOUS

    def _checked(self, actions):
        if len(actions) > self._max_actions:
            raise ValueError(
                f"this decision has {len(actions)} options, more than the game's num_distinct_actions "
                f"({self._max_actions}, found by exploring the game): load the game with a larger max_actions"
            )
        return actions

    def _menus(self):
        """Each player's options at a simultaneous node (empty for those not in the round)."""
        return [self._checked(self.tgdl_state.legal_actions(p)) for p in range(self._players)]

    def _legal_actions(self, player):
        if player == pyspiel.PlayerId.SIMULTANEOUS:
            # `legal_actions()` at a simultaneous node: OpenSpiel's flat joint actions.
            count = 1
            for menu in self._menus():
                count *= len(menu) or 1
            return list(range(count))
        return self._checked(self.tgdl_state.legal_actions(player))

    def _joint(self, flat):
        """The actions of flat joint action `flat`, as OpenSpiel numbers them: player 0's
        option is the least significant digit; a player without options passes 0."""
        actions = []
        for menu in self._menus():
            if menu:
                actions.append(menu[flat % len(menu)])
                flat //= len(menu)
            else:
                actions.append(0)
        return actions

    def chance_outcomes(self):
        return self.tgdl_state.chance_outcomes()

    def _apply_action(self, action):
        if self.tgdl_state.is_simultaneous_node():
            self.tgdl_state.apply_actions(self._joint(action))
        else:
            self.tgdl_state.apply_action(action)

    def _apply_actions(self, actions):
        self.tgdl_state.apply_actions([int(a) for a in actions])

    def _action_to_string(self, player, action):
        # Actions are indices into this state's options: their labels as the player who
        # decides reads them (at a chance node, the outcome; at a simultaneous node, each
        # player's choice of a flat joint action).
        s = self.tgdl_state
        if player == pyspiel.PlayerId.SIMULTANEOUS:
            joint = self._joint(action)
            return "(" + ", ".join(self._label(p, a) for p, a in enumerate(joint) if s.legal_actions(p)) + ")"
        if player == pyspiel.PlayerId.CHANCE or player < 0:
            labels = s.action_labels()
            return labels[action] if 0 <= action < len(labels) else f"action {action}"
        return self._label(player, action)

    def _label(self, player, action):
        labels = self.tgdl_state.action_labels(player)
        if 0 <= action < len(labels):
            return labels[action]
        return f"action {action}"

    def is_terminal(self):
        return self.tgdl_state.is_terminal()

    def returns(self):
        returns = self.tgdl_state.returns()
        return self.get_game().check_returns(returns) if self.is_terminal() else returns

    def rewards(self):
        return self.returns()

    def __str__(self):
        return str(self.tgdl_state)


@functools.lru_cache(maxsize=1 << 14)
def _encoded(encoder, observation: str) -> np.ndarray:
    array = encoder.encode(json.loads(observation))
    array.setflags(write=False)
    return array


class TgdlObserver:
    """The observer of OpenSpiel's observation API (`make_py_observer`): a seat's
    observation (`perfect_recall=False`), its information state (`perfect_recall=True`),
    or what a spectator sees (`private_info=NONE`), as a string and as a tensor."""

    def __init__(self, game: TgdlGame, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        private = iig_obs_type.private_info
        if not iig_obs_type.public_info:
            raise ValueError("a TGDL observation always holds the public information")
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            self._public = False
        elif private == pyspiel.PrivateInfoType.NONE and not iig_obs_type.perfect_recall:
            self._public = True
        else:
            raise ValueError(
                f"unsupported observation type {iig_obs_type}: a seat's own (with or without "
                "perfect recall), or a spectator's without"
            )
        self._recall = iig_obs_type.perfect_recall
        self._game = game
        self._encoder = game.observation_encoder()
        players = game.num_players()
        obs = self._encoder.size
        if self._recall:
            # Per event: its kind (start, chance, own decision, another's), who decided, the
            # option chosen (own decisions), and the encoding of what the seat then saw.
            self._columns = 4 + players + game.num_distinct_actions()
            pieces = [("viewer", (players,)), ("events", (game._max_events, self._columns + obs))]
        else:
            pieces = [(name, shape) for name, _start, shape in self._encoder.layout]
        size = sum(int(np.prod(shape)) for _name, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {}
        index = 0
        for name, shape in pieces:
            n = int(np.prod(shape))
            self.dict[name] = self.tensor[index : index + n].reshape(shape)
            index += n

    def set_from(self, state: TgdlState, player: int):
        s = state.tgdl_state
        if not self._recall:
            self.tensor[:] = _encoded(self._encoder, s.observation(None if self._public else player))
            return
        self.tensor.fill(0)
        self.dict["viewer"][player] = 1
        events = s.information_events(player)
        rows = self.dict["events"]
        if len(events) > rows.shape[0]:
            raise ValueError(
                f"seat {player}'s information state has {len(events)} events, more than the tensor holds "
                f"({rows.shape[0]}, from the exploration of the game): load the game with a larger max_game_length"
            )
        players = self._game.num_players()
        kinds = {"start": 0, "chance": 1, "own": 2, "other": 3}
        for row, (kind, who, option, _label, observation) in zip(rows, events):
            row[kinds[kind]] = 1
            if kind in ("own", "other"):
                row[4 + who] = 1
            if kind == "own" and option < self._columns - 4 - players:
                row[4 + players + option] = 1
            row[self._columns :] = _encoded(self._encoder, observation)

    def string_from(self, state: TgdlState, player: int) -> str:
        s = state.tgdl_state
        if self._recall:
            return s.information_state_string(player)
        return s.observation(None if self._public else player)
