"""``learned``: the trained network's policy alone, one evaluation per decision (``network.py``).

It reads the decision's observation tensor (and, for weights trained with ``features``, the
planner's planning features, ``plan_features``; with ``kept-plan-v1`` the plan is the one the
ticket planner would keep for this seat, so the strategy keeps it between its decisions as that
planner does), evaluates the network once and plays the legal action
of the highest logit (``temperature: 0``, the default) or samples the legal actions' softmax at
that temperature with the game's seeded ``rng``. The weights are the ones shipped for the map
(``weights/``, trained at 2 players by ``ttr-lab train configs/train/usa-2p-offers-tuned.yaml``, docs/rl.md),
or any file a ``weights`` parameter names. A map without weights, or weights made for another
map or tensor layout, is a one-line error, never a network reading numbers it was not trained on.
"""

from __future__ import annotations

import functools
import math
import random
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from pydantic import NonNegativeFloat

from ttr_lab.core.errors import ConfigError, StrategyError
from ttr_lab.core.game import load_game
from ttr_lab.games.ticket_to_ride import Action, DrawMarket, Observation, tables_for
from ttr_lab.games.ticket_to_ride.state import face_of
from ttr_lab.games.ticket_to_ride.colours import NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.tensor import observation_tensor
from ttr_lab.strategies.ticket_to_ride import plan_features
from ttr_lab.strategies.ticket_to_ride.network import Network
from ttr_lab.strategies.ticket_to_ride.planner_knobs import knobs
from ttr_lab.strategies.ticket_to_ride.planner_playouts import KeptPlan
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner, seat_view

# The weights shipped per map (in this package's ``weights`` folder).
SHIPPED = {"usa": "learned-usa-2p.npz"}
# A network over the observation tensor alone (no planning features), per map: what a compiled
# search that sees only the tensor can evaluate (``mcts_tree``'s ``value: learned``). Reproduced by
# ``ttr-lab train configs/train/usa-2p.yaml``.
SHIPPED_TENSOR_ONLY = {"usa": "tensor-usa-2p.npz"}


def market_slots(game: Any) -> dict[str, Any]:
    """Ticket to Ride's slot actions (``network.py``): "draw market s" takes the card in slot s,
    one of the card kinds."""
    space = game.action_space
    return {"ids": [space.id_of(DrawMarket(s)) for s in range(game.ruleset.market_size)], "kinds": NUM_CARD_KINDS}


def shipped_weights(map_name: str, tensor_only: bool = False) -> Path:
    """The shipped weights file of ``map_name`` (``tensor_only``: the network that reads the
    observation tensor alone); a ConfigError when none is shipped."""
    shipped = SHIPPED_TENSOR_ONLY if tensor_only else SHIPPED
    if map_name not in shipped:
        raise ConfigError(f"learned: no weights shipped for map {map_name!r} (only for {', '.join(shipped)}); "
                          "train some with `ttr-lab train` and pass them as weights: PATH")
    return Path(str(resources.files("ttr_lab.strategies.ticket_to_ride") / "weights" / shipped[map_name]))


@functools.lru_cache(maxsize=8)
def _loaded(path: str) -> tuple[Network, Any]:
    """The network at ``path`` and the game it was trained on, checked against each other; read once
    per process (a tournament makes a fresh strategy for every game)."""
    net = Network.load(path)
    try:
        game = load_game(net.meta["game"], **net.meta.get("options", {}))
    except Exception as exc:  # noqa: BLE001 - a game this install cannot load
        raise ConfigError(f"{path}: trained on a game this ttr-lab cannot load: {exc}") from None
    net.check(game, path)
    if net.meta.get("features") not in (None, *plan_features.NAMES):
        raise ConfigError(f"{path}: reads extra inputs {net.meta['features']!r} this ttr-lab does not make "
                          f"(only {' or '.join(map(repr, plan_features.NAMES))})")
    return net, game


_FEATURIZERS: dict[int, tuple[np.ndarray, plan_features.Featurizer]] = {}


def featurizer(g: np.ndarray) -> plan_features.Featurizer:
    """The planning features' maker for game array ``g`` (one per game array, kept while it lives)."""
    found = _FEATURIZERS.get(id(g))
    if found is None or found[0] is not g:
        found = _FEATURIZERS[id(g)] = (g, plan_features.Featurizer(g))
    return found[1]


def state_inputs(net: Network, state: Any, kept: KeptPlan | None = None) -> np.ndarray:
    """What ``net`` reads for the player to move in a ``GameState`` (its features read only what
    that player sees; kept-plan features read that player's ``kept`` plans, updated here, or
    without them plan afresh as the planner's first decision does)."""
    tensor = state.observation_tensor(state.current_player)
    return _with_features(net, tensor, state, kept)


def network_inputs(net: Network, observation: Observation, kept: KeptPlan | None = None,
                   view: Any = None) -> np.ndarray:
    """What ``net`` reads for ``observation``: its tensor, then the extras its ``features`` name
    (kept-plan features: with the seat's ``kept`` plans, updated here) read off ``view``, the
    planner's view of the seat (``seat_view(observation)``, built here if None)."""
    tensor = observation_tensor(observation)
    if not net.meta.get("features"):
        return tensor
    return _with_features(net, tensor, seat_view(observation) if view is None else view, kept)


def _with_features(net: Network, tensor: np.ndarray, state: Any, kept: KeptPlan | None) -> np.ndarray:
    features = net.meta.get("features")
    if not features:
        return tensor
    if features in plan_features.KEPT_NAMES:
        if kept is None:  # no plan held from earlier decisions: the planner's first decision plans afresh
            kept = KeptPlan(state.face.g)
        extras = featurizer(state.face.g).kept_one(state.s, kept, features == plan_features.OFFERS)
        return np.concatenate([tensor, extras])
    return np.concatenate([tensor, featurizer(state.face.g).one(state.s)])


def shares_plan(planner: TicketPlanner) -> bool:
    """Whether ``planner`` keeps the plan the kept-plan features keep (its plan-shaping knobs,
    ``plan_features.PLAN_KNOBS``, at their defaults: ``cached_plan`` reads no other knob), so a
    search may hand its planner's ``KeptPlan`` to its prior (``Learned.read``'s ``kept``) rather
    than keep a second copy (held equal, decision by decision, by tests/strategies/test_kept_plan_shared.py;
    only the first ticket choice differs, where the features plan for no tickets and the planner
    keeps none, and the seat's next decision plans afresh for both). Other plan knobs plan
    otherwise: the prior then keeps its own."""
    default = knobs()
    return all(getattr(planner.knobs, name) == getattr(default, name) for name in plan_features.PLAN_KNOBS)


class Learned:
    name = "learned"

    def __init__(self, weights: str | None = None, temperature: NonNegativeFloat = 0.0) -> None:
        """``weights``: a ``.npz`` network file (None: the one shipped for the map played);
        ``temperature``: 0 plays the highest logit, above 0 samples the softmax at it."""
        if temperature < 0 or not math.isfinite(temperature):
            raise ConfigError(f"learned: temperature must be a finite number >= 0, not {temperature!r}")
        self.weights = weights
        self.temperature = float(temperature)
        if weights is not None:
            _loaded(str(weights))  # a bad file is refused when the strategy is made, not mid-game
        self.net: Network | None = None
        self.game: Any = None
        self.kept: KeptPlan | None = None  # kept-plan features: the plan this seat's planner would hold
        self.last_inputs: np.ndarray | None = None  # what the network read at the last decision

    @classmethod
    def of(cls, net: Network, game: Any) -> "Learned":
        """The strategy playing ``net`` (trained on ``game``) as it is in memory: a training run's
        network as a search's prior, with no weights file between them."""
        net.check(game, "the network given")
        made = cls()
        made.net, made.game = net, game
        return made

    def _network(self, observation: Observation) -> Network:
        path = str(self.weights) if self.weights is not None else None
        if path is None:
            try:
                path = str(shipped_weights(observation.board.name))
            except ConfigError as exc:
                raise StrategyError(str(exc)) from None
        net, game = _loaded(path)
        if game.board.fingerprint != observation.board.fingerprint or game.ruleset != observation.ruleset:
            raise StrategyError(f"learned: the weights {Path(path).name} were trained on {game.title}, "
                                f"not on the map or rules played here ({observation.board.title})")
        self.net, self.game = net, game
        return net

    def _inputs(self, observation: Observation, view: Any = None,
                kept: KeptPlan | None = None) -> tuple[Network, np.ndarray]:
        """The network and what it reads for ``observation`` (keeping this seat's plan up to date:
        ``kept``, a search's planner's, when given, else its own)."""
        # The contract builds a strategy per game, but one made by hand may be handed another map
        # or player count: its network and kept plan are then made again (or refused), never read
        # against tables they were not made for.
        net = self.net
        if net is None or (self.game.board.fingerprint, self.game.ruleset) != (observation.board.fingerprint,
                                                                               observation.ruleset):
            net, self.kept = self._network(observation), None
        g = face_of(tables_for(observation.board, observation.num_players, observation.ruleset)).g  # both cached
        if kept is None or not kept.fits(g):
            if self.kept is None or not self.kept.fits(g):
                self.kept = KeptPlan(g)
            kept = self.kept
        self.last_inputs = network_inputs(net, observation, kept, view)
        return net, self.last_inputs

    def logits(self, observation: Observation, legal_actions: Sequence[Action]) -> np.ndarray:
        """The network's logit of each of ``legal_actions`` (a search's prior over them). Called at
        every decision, as ``act`` is, it keeps the plan the features read."""
        return self.read(observation, legal_actions)[0]

    def read(self, observation: Observation, legal_actions: Sequence[Action],
             view: Any = None, kept: KeptPlan | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``logits`` and the inputs the network read for them (a search reports both); ``view``:
        the seat's view (``seat_view``) when the caller has built it for this decision; ``kept``:
        the plan the caller's planner keeps for this seat, read (and updated) in place of the
        prior's own when it is the same plan (``shares_plan``)."""
        net, tensor = self._inputs(observation, view, kept)
        return self._logits(net, tensor, observation, legal_actions), tensor

    def _logits(self, net: Network, tensor: np.ndarray, observation: Observation,
                legal_actions: Sequence[Action]) -> np.ndarray:
        head, _, _, _ = net.forward(tensor[None])
        return net.logits(head, [observation.market])[0, self.game.action_space.ids(legal_actions)]

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        net, tensor = self._inputs(observation)
        if self.temperature == 0.0:
            mask = np.zeros(net.n_actions, dtype=bool)
            mask[self.game.action_space.ids(legal_actions)] = True
            return self.game.action_space.action_of(net.best(tensor, mask, observation.market))
        z = self._logits(net, tensor, observation, legal_actions) / self.temperature
        p = np.exp(z - z.max())
        return legal_actions[int(np.searchsorted(np.cumsum(p / p.sum()), rng.random() * (1 - 1e-12)))]
