"""A seat's observation (docs/hidden-information.md) as a fixed-shape numeric array (docs/python.md).

    import crazy_eights
    encoder = crazy_eights.observation_encoder()      # or ObservationEncoder(crazy_eights)
    state = crazy_eights.Game().new_state(7)
    x = encoder.encode_state(state, 0)                 # float32, shape encoder.shape
    encoder.decode(x)["hand"]                          # the blocks by name

The array is built from `state.observation(p)` alone — what seat p may see: the board,
the public attributes, p's own hand and secrets, how many objects of each class the other
players hold — never from the world. The log is not encoded (read it from the dict).

What an observation can show is learnt once per encoder, from the observations of every
seat in `probe_games` seeded random games (the same games every time, so every encoder
of a game and player count has the same layout): the grids and graphs of the view, the
texts shown in their cells, the labels of the objects seen in hands, the root classes,
the attributes and their values. The layout is the concatenation of these blocks, in
this order (`encoder.layout` lists `(name, start, shape)`):

- `grid:TITLE`, shape `(len(cell_tokens) + 2, rows, columns)`, one per grid of the view:
  plane k is 1 where the cell shows `cell_tokens[k]` (a piece's label, `a hidden Card`,
  ...); plane `-2` ("other") is 1 where it shows a text not met while probing; plane `-1`
  holds the number a cell shows (`0`, `3`). Empty (`.`) and missing cells are all zeros.
- `graph:TITLE`, shape `(len(cell_tokens) + 1, nodes)`, one per graph: per node (in the
  view's order), how many pieces with each label it holds, then "other".
- `hand`, shape `(len(objects) + 1,)`: how many objects with each label of `objects` the
  observer holds (the last entry: labels not met while probing). Zeros for a spectator.
- `hand_sizes`, shape `(players, len(classes))`: per seat, how many objects of each root
  class it holds (public: "player 1 holds 5 Card").
- `scalars`, shape `(len(attributes),)`: per attribute of the view (`section.key`, the
  global classes' attributes and the secrets the seat may see), its number: a number as
  is, `true` 1 and `false` 0, `player k` k, a text starting with a number that number
  (`35 cards; ...` 35), otherwise 0.
- `values:SECTION.KEY`, shape `(len(values) + 1,)`, for the attributes that showed at most
  `max_values` distinct texts: one-hot over them (the last entry: another text).
- `mentions:SECTION.KEY`, shape `(len(objects),)`, for the attributes whose texts named
  objects (`discards: 4, 8 of diamonds on top`): 1 for each object label the text names.
- `active`, shape `(players,)`: one-hot of the seat to move; `viewer`, shape
  `(players,)`: one-hot of the observer (zeros for a spectator).

`encoder.vocabulary` is plain data (JSON): pass it back as `vocabulary=` to rebuild the
same encoder without probing.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

__all__ = ["ObservationEncoder", "probe_vocabulary", "observations_of_random_games"]

_NUMBER = re.compile(r"^\s*(-?\d+(?:\.\d+)?)")
_PLAYER = re.compile(r"^player (\d+)$")
_NODE = re.compile(r"^(.*?) \[(.*)\]$")
# Sections the observation encodes elsewhere: hands (the `hand` and `hand_sizes` blocks).
_HAND_SECTIONS = ("hands",)


def _number(text: str) -> Optional[float]:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _scalar(text: str) -> float:
    """The number an attribute's text stands for (see the module's documentation)."""
    value = _number(text)
    if value is not None:
        return value
    if text == "true":
        return 1.0
    if text == "false":
        return 0.0
    m = _PLAYER.match(text)
    if m:
        return float(m.group(1))
    m = _NUMBER.match(text)
    return float(m.group(1)) if m else 0.0


def _node_pieces(node: str) -> List[str]:
    m = _NODE.match(node)
    return [p.strip() for p in m.group(2).split(",") if p.strip()] if m else []


def _sections(obs: Dict[str, Any], kind: str):
    for section in obs["view"]["sections"]:
        if isinstance(section, dict) and kind in section:
            yield section[kind]


def _attributes(obs: Dict[str, Any]):
    """`(name, text)` of every attribute of the view outside the hand summaries."""
    for section in _sections(obs, "Attributes"):
        if section["title"] in _HAND_SECTIONS:
            continue
        for key, text in section["items"]:
            yield f"{section['title']}.{key}", text


def observations_of_random_games(module, players: int, games: int, seed: int = 0, max_decisions: int = 500):
    """The observation dicts of every seat at every decision of `games` seeded random games."""
    game = module.Game(players)
    for i in range(games):
        state = game.new_state(module.derive_seed(seed, i))
        agents = [module.RandomAgent(module.seat_seed(state.seed, p)) for p in range(players)]
        decisions = 0
        while True:
            for p in range(players):
                yield state.observation_dict(p)
            if state.is_terminal() or decisions >= max_decisions:
                break
            n = len(state.legal_actions())
            try:
                # The seat `apply_action` chooses for (a round's players one by one).
                seat = state.deciding_player() if hasattr(state, "deciding_player") else state.current_player()
                state.apply_action(agents[seat].pick(n))
            except module.RuleError:
                break
            decisions += 1


def probe_vocabulary(module, players: int, games: int = 40, seed: int = 0, max_values: int = 32) -> Dict[str, Any]:
    """What the observations of `games` seeded random games show (the encoder's layout)."""
    first = module.Game(players).new_state(0).observation_dict(0)
    grids = [[g["title"], len(g["cells"]), max((len(r) for r in g["cells"]), default=0)] for g in _sections(first, "Grid")]
    graphs = [[g["title"], len(g["nodes"])] for g in _sections(first, "Graph")]
    tokens, objects, classes = set(), set(), []
    attributes: List[str] = []
    values: Dict[str, set] = {}
    texts: Dict[str, set] = {}
    for obs in observations_of_random_games(module, players, games, seed):
        for g in _sections(obs, "Grid"):
            for row in g["cells"]:
                for cell in row:
                    if cell is not None and cell != "." and _number(cell) is None:
                        tokens.add(cell)
        for g in _sections(obs, "Graph"):
            for node, _links in g["nodes"]:
                tokens.update(_node_pieces(node))
        for hand in obs["hands"]:
            if hand["objects"] is not None:
                objects.update(hand["objects"])
            for cls, _n in hand["counts"]:
                if cls not in classes:
                    classes.append(cls)
        for name, text in _attributes(obs):
            if name not in values:
                attributes.append(name)
                values[name] = set()
                texts[name] = set()
            texts[name].add(text)
            if _number(text) is None and text not in ("true", "false"):
                values[name].add(text)
    objects_sorted = sorted(objects)
    mentions = sorted(name for name in attributes if any(_mentioned(objects_sorted, t) for t in texts[name]))
    return {
        "players": players,
        "grids": grids,
        "graphs": graphs,
        "cell_tokens": sorted(tokens),
        "objects": objects_sorted,
        "classes": classes,
        "attributes": attributes,
        "values": {k: sorted(v) for k, v in values.items() if 0 < len(v) <= max_values},
        "mentions": mentions,
    }


def _label_pattern(labels: Sequence[str]):
    if not labels:
        return None
    alternatives = "|".join(re.escape(label) for label in sorted(labels, key=len, reverse=True))
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])")


def _mentioned(labels: Sequence[str], text: str) -> List[str]:
    pattern = _label_pattern(labels)
    return [m.group(0) for m in pattern.finditer(text)] if pattern else []


class ObservationEncoder:
    """Fixed-shape arrays of a game's observations (see the module's documentation)."""

    def __init__(
        self,
        module,
        players: Optional[int] = None,
        probe_games: int = 40,
        seed: int = 0,
        max_values: int = 32,
        vocabulary: Optional[Dict[str, Any]] = None,
    ):
        self.module = module
        self.players = module.Game(players).players
        if vocabulary is None:
            vocabulary = probe_vocabulary(module, self.players, probe_games, seed, max_values)
        elif vocabulary["players"] != self.players:
            raise ValueError(f"the vocabulary is for {vocabulary['players']} players, not {self.players}")
        self.vocabulary = vocabulary
        v = vocabulary
        self.cell_tokens: List[str] = list(v["cell_tokens"])
        self.objects: List[str] = list(v["objects"])
        self.classes: List[str] = list(v["classes"])
        self.attributes: List[str] = list(v["attributes"])
        self._token = {t: i for i, t in enumerate(self.cell_tokens)}
        self._object = {o: i for i, o in enumerate(self.objects)}
        self._class = {c: i for i, c in enumerate(self.classes)}
        self._attribute = {a: i for i, a in enumerate(self.attributes)}
        self._values = {k: {t: i for i, t in enumerate(vs)} for k, vs in v["values"].items()}
        self._pattern = _label_pattern(self.objects)
        self.layout: List[Tuple[str, int, Tuple[int, ...]]] = []
        lows, highs = [], []
        inf = np.inf

        def block(name, shape, low, high):
            start = self.layout[-1][1] + int(np.prod(self.layout[-1][2])) if self.layout else 0
            self.layout.append((name, start, tuple(shape)))
            size = int(np.prod(shape))
            lows.append(np.broadcast_to(np.asarray(low, np.float32), shape).reshape(size))
            highs.append(np.broadcast_to(np.asarray(high, np.float32), shape).reshape(size))

        channels = len(self.cell_tokens)
        for title, rows, cols in v["grids"]:
            low = np.zeros((channels + 2, rows, cols), np.float32)
            high = np.ones((channels + 2, rows, cols), np.float32)
            low[-1], high[-1] = -inf, inf
            block(f"grid:{title}", low.shape, low, high)
        for title, nodes in v["graphs"]:
            block(f"graph:{title}", (channels + 1, nodes), 0, inf)
        block("hand", (len(self.objects) + 1,), 0, inf)
        block("hand_sizes", (self.players, len(self.classes)), 0, inf)
        block("scalars", (len(self.attributes),), -inf, inf)
        for name in self.attributes:
            if name in self._values:
                block(f"values:{name}", (len(self._values[name]) + 1,), 0, 1)
        for name in v["mentions"]:
            block(f"mentions:{name}", (len(self.objects),), 0, 1)
        block("active", (self.players,), 0, 1)
        block("viewer", (self.players,), 0, 1)
        self.low = np.concatenate(lows).astype(np.float32)
        self.high = np.concatenate(highs).astype(np.float32)
        self.size = int(self.low.shape[0])
        self.shape = (self.size,)
        self._starts = {name: (start, shape) for name, start, shape in self.layout}

    def _view(self, out: np.ndarray, name: str) -> np.ndarray:
        start, shape = self._starts[name]
        return out[start : start + int(np.prod(shape))].reshape(shape)

    def encode(self, obs: Dict[str, Any]) -> np.ndarray:
        """The array of one observation dict (`state.observation_dict(p)`)."""
        out = np.zeros(self.size, dtype=np.float32)
        grids = list(_sections(obs, "Grid"))
        if len(grids) != len(self.vocabulary["grids"]):
            raise ValueError(f"the view has {len(grids)} grids, the layout {len(self.vocabulary['grids'])}")
        other = len(self.cell_tokens)
        for grid, (title, rows, cols) in zip(grids, self.vocabulary["grids"]):
            planes = self._view(out, f"grid:{title}")
            for r, row in enumerate(grid["cells"][:rows]):
                for c, cell in enumerate(row[:cols]):
                    if cell is None or cell == ".":
                        continue
                    number = _number(cell)
                    if number is not None:
                        planes[-1, r, c] = number
                    else:
                        planes[self._token.get(cell, other), r, c] = 1
        for graph, (title, nodes) in zip(_sections(obs, "Graph"), self.vocabulary["graphs"]):
            planes = self._view(out, f"graph:{title}")
            for i, (node, _links) in enumerate(graph["nodes"][:nodes]):
                for piece in _node_pieces(node):
                    planes[self._token.get(piece, other), i] += 1
        viewer = obs["viewer"]
        seat = viewer.get("Seat") if isinstance(viewer, dict) else None
        hand = self._view(out, "hand")
        sizes = self._view(out, "hand_sizes")
        for h in obs["hands"]:
            if h["player"] == seat and h["objects"] is not None:
                for label in h["objects"]:
                    hand[self._object.get(label, len(self.objects))] += 1
            if h["player"] < self.players:
                for cls, n in h["counts"]:
                    if cls in self._class:
                        sizes[h["player"], self._class[cls]] = n
        scalars = self._view(out, "scalars")
        for name, text in _attributes(obs):
            i = self._attribute.get(name)
            if i is None:
                continue
            scalars[i] = _scalar(text)
            values = self._values.get(name)
            if values is not None and _number(text) is None and text not in ("true", "false"):
                self._view(out, f"values:{name}")[values.get(text, len(values))] = 1
            if f"mentions:{name}" in self._starts:
                mentions = self._view(out, f"mentions:{name}")
                for m in self._pattern.finditer(text):
                    mentions[self._object[m.group(0)]] = 1
        active = obs["view"].get("active")
        if active is not None and 0 <= active < self.players:
            self._view(out, "active")[active] = 1
        if seat is not None and 0 <= seat < self.players:
            self._view(out, "viewer")[seat] = 1
        return out

    def encode_state(self, state, player: Optional[int]) -> np.ndarray:
        """The array of what seat `player` of `state` may see (`None`: a spectator)."""
        return self.encode(state.observation_dict(player))

    def decode(self, array: np.ndarray) -> Dict[str, np.ndarray]:
        """The blocks of an array by name, in their shapes (views into `array`)."""
        array = np.asarray(array)
        return {name: self._view(array, name) for name, _start, _shape in self.layout}

    def describe(self) -> str:
        """The layout as text: one line per block."""
        return "\n".join(f"{start:>6}  {name}  {shape}" for name, start, shape in self.layout)

    def to_json(self) -> str:
        return json.dumps(self.vocabulary)
