"""``TicketToRide``: the game as the platform sees it (the core's ``Game`` protocol) and the
per-player metrics it records; its presentation (report sections, summaries, replays) is
``TicketToRideViews`` in presentation.py (``game.views``).

    game = TicketToRide("usa")                      # or load_game("ticket_to_ride", map="usa")
    state = game.new_game(4, seed=7)
    outcome = ...; outcome.players[0].metrics["tickets_completed"]
"""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ttr_lab.core.actions import ActionSpace
from ttr_lab.core.outcome import Metric
from ttr_lab.games.ticket_to_ride.actions import Action, all_actions, parse_action
from ttr_lab.games.ticket_to_ride.board import Board, available_maps, load_board, map_folder
from ttr_lab.games.ticket_to_ride.result import METRICS
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    import numpy as np
    from ttr_lab.core.tensor_layout import TensorLayout

    from ttr_lab.games.ticket_to_ride.batch import Batch
    from ttr_lab.games.ticket_to_ride.determinize import Determinizer
    from ttr_lab.games.ticket_to_ride.presentation import TicketToRideViews
    from ttr_lab.games.ticket_to_ride.result import GameResult
    from ttr_lab.games.ticket_to_ride.state import GameState

NAME = "ticket_to_ride"

_PLAIN = tuple(m.name for m in METRICS if m.name not in ("tracks", "tickets_held", "ticket_points_completed",
                                                         "ticket_points_failed", "route_points_per_train"))


def _plain(value: Any) -> str:
    """A ruleset value as a config writes it: ``15``, ``[0, 1, 2, 4]``."""
    return "[" + ", ".join(map(str, value)) + "]" if isinstance(value, (list, tuple)) else str(value)


_MASK = (1 << 64) - 1


class TicketToRide:
    """Ticket to Ride on one map with one ruleset: immutable, picklable, equal by content."""

    name = NAME
    # Top-level config keys for options (tournament and tuning configs): ``map: usa``.
    config_shorthands = {"map": "map"}

    def __init__(self, map: str | Board = "usa", ruleset: Ruleset | Mapping[str, Any] | None = None,
                 edits: Sequence[Mapping[str, Any]] = ()) -> None:
        board = map if isinstance(map, Board) else load_board(str(map))
        if ruleset is not None and not isinstance(ruleset, Ruleset):
            ruleset = Ruleset.from_mapping(ruleset, base=board.ruleset)
        self.edits = tuple(dict(e) for e in edits)  # map edits (edits.py), kept to name them in options
        if self.edits:
            from ttr_lab.games.ticket_to_ride.edits import edit_board

            board = edit_board(board, self.edits)
        self.board = board
        self.ruleset: Ruleset = ruleset or board.ruleset
        self.min_players = board.min_players
        self.max_players = board.max_players

    @staticmethod
    def variants() -> list[dict[str, Any]]:
        """The options of every shipped variant: one per map (``load_game(NAME, **options)``)."""
        return [{"map": name} for name in available_maps()]

    @staticmethod
    def data_folders() -> tuple[str, list[tuple[str, str]], str]:
        """Where the shipped maps' files are (``ttr-lab maps``): the option that takes a map
        folder, each shipped map with its folder, and how to start a new one."""
        return ("map", [(name, str(map_folder(name))) for name in available_maps()],
                "copy a map's folder, give it a new name and title in map.toml, edit its CSV files (cities, "
                "routes, tickets, positions) and its [ruleset] table, then play it with the folder as the map "
                "(--map DIR, or map: DIR in a config); a rule change alone needs no copy: options: {ruleset: "
                "{longest_path_bonus: 15}}; a variant (usa_1910) lives in its board's folder, as a "
                "[variants.NAME] table of map.toml")

    def __repr__(self) -> str:
        extra = ", custom ruleset" if self.ruleset != self.board.ruleset else ""
        return f"<TicketToRide {self.board.name}{extra}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TicketToRide) and self.board.fingerprint == other.board.fingerprint \
            and self.ruleset == other.ruleset

    def __hash__(self) -> int:
        return hash((self.board.fingerprint, self.ruleset))

    def __reduce__(self) -> tuple:
        return (_rebuilt, (self.board, self.ruleset, self.edits))

    @property
    def title(self) -> str:
        return self.board.title

    @property
    def variant(self) -> str:
        """The map and every ruleset field this game changes from the map's own, e.g.
        ``usa, longest_path_bonus=15``: a rule variant is named wherever results are."""
        base, mine = self.board.ruleset.to_dict(), self.ruleset.to_dict()
        changed = [f"{key}={_plain(value)}" for key, value in mine.items() if base.get(key) != value]
        return ", ".join([self.board.name, *changed])

    @property
    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {"map": self.board.reference}
        if self.ruleset != self.board.ruleset:
            out["ruleset"] = self.ruleset.to_dict()
        if self.edits:
            out["edits"] = [dict(e) for e in self.edits]
        return out

    def rule_parameters(self) -> dict[str, Any]:
        """The rule numbers a study may vary (every ``Ruleset`` field), with this game's values;
        overrides go in the ``ruleset`` option."""
        return self.ruleset.to_dict()

    def edit_targets(self, kind: str) -> list[tuple[Any, str]]:
        """For a "remove each" study: (value of the ``edits`` option's ``kind``, label) of every
        track (``remove_track``) or ticket (``remove_ticket``) of the map."""
        from ttr_lab.games.ticket_to_ride.edits import edit_targets

        return edit_targets(self.board, kind)

    def draw_edit_effects(self, kind: str, effects: Mapping[Any, float], title: str, label: str) -> "Figure":
        """The board with each removed track coloured by its effect (``effects``: edit value ->
        number, e.g. the change in the spread of win rates when it is gone)."""
        from ttr_lab.games.ticket_to_ride.drawing import draw_track_heat

        if kind != "remove_track":
            raise ValueError(f"only remove_track effects are drawn on the board, not {kind}")
        values = [float(effects.get(t.label, 0.0)) for t in self.board.tracks]
        return draw_track_heat(self.board, values, title, label)

    @property
    def metrics(self) -> tuple[Metric, ...]:
        return METRICS

    def new_game(self, num_players: int, seed: int) -> "GameState":
        from ttr_lab.games.ticket_to_ride.state import new_game

        return new_game(self.board, num_players, seed, self.ruleset)

    def parse_action(self, text: str) -> Action:
        return parse_action(text, self.board)

    def random_playouts(self, state: "GameState", seeds: Sequence[int]) -> "np.ndarray":
        """Play ``state`` to the end once per seed, every seat uniformly random, in one native
        call (the compiled kernels): each play-out's final scores, shape ``(len(seeds), players)``.
        ``state`` itself is left as it is."""
        import numpy as np

        from ttr_lab.games.ticket_to_ride.kernels.playout import random_playouts

        scores = np.zeros((len(seeds), state.num_players), dtype=np.int64)
        random_playouts(state.face.g, state.s, np.array([s & _MASK for s in seeds], dtype=np.uint64), scores)
        return scores

    def random_games(self, num_players: int, seeds: Sequence[int]) -> "np.ndarray":
        """Whole uniformly random games in one native call: game ``i`` dealt as
        ``new_game(num_players, seeds[i])`` deals it, then played out; final scores per game."""
        import numpy as np

        from ttr_lab.core.rng import STRATEGY_KEY, derive_seed
        from ttr_lab.games.ticket_to_ride.kernels.playout import random_games
        from ttr_lab.games.ticket_to_ride.kernels.rng import DEAL_KEY
        from ttr_lab.games.ticket_to_ride.kernels.game_array import game_array
        from ttr_lab.games.ticket_to_ride.tables import tables_for

        g = game_array(tables_for(self.board, num_players, self.ruleset))
        deals = np.array([derive_seed(s, DEAL_KEY) for s in seeds], dtype=np.uint64)
        policy = np.array([derive_seed(s, STRATEGY_KEY) for s in seeds], dtype=np.uint64)
        scores = np.zeros((len(seeds), num_players), dtype=np.int64)
        random_games(g, deals, policy, scores)
        return scores

    @property
    def action_space(self) -> ActionSpace:
        """Every action with its integer id; the order is ``actions.all_actions``'s."""
        return _action_space(self.board, self.ruleset)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of ``observation_tensor``'s arrays (the same at every player count)."""
        from ttr_lab.games.ticket_to_ride.tensor import observation_shape

        return observation_shape(self.board, self.ruleset)

    @property
    def observation_layout(self) -> "TensorLayout":
        """The named blocks of ``observation_tensor`` (``tensor.layout``; a network's weights are
        checked against it)."""
        from ttr_lab.games.ticket_to_ride.tensor import layout

        return layout(self.board, self.ruleset)

    def tensor_writer(self, player: int) -> "Callable[[Any], np.ndarray]":
        """A seat's ``state -> state.observation_tensor(player)`` that keeps its multi-hot
        blocks between calls and writes only what changed (one per seat of an RL environment)."""
        from ttr_lab.games.ticket_to_ride.tensor import TensorWriter

        return TensorWriter(player)

    def batch(self, players: int) -> "Batch":
        """Many games at ``players`` as rows of one array, their tensors and masks written in one
        native call (``batch.Batch``): what the batched RL environment steps."""
        from ttr_lab.games.ticket_to_ride.batch import Batch

        return Batch(self, players)

    def observation_tensor(self, observation: Any) -> "np.ndarray":
        """An ``Observation`` as a float32 vector (layout: ``tensor.layout``, docs/rl.md)."""
        from ttr_lab.games.ticket_to_ride.tensor import observation_tensor

        return observation_tensor(observation)

    def determinize(self, observation: Any, rng: random.Random) -> "GameState":
        """A state consistent with ``observation``, its unknowns sampled with ``rng``
        (``determinize.py``)."""
        from ttr_lab.games.ticket_to_ride.determinize import determinize

        return determinize(observation, rng)

    def determinizer(self, observation: Any) -> "Determinizer":
        """``observation``'s determinizations prepared once, for a search that samples many:
        ``sample(rng)`` is one native call (``determinize.Determinizer``)."""
        from ttr_lab.games.ticket_to_ride.determinize import Determinizer

        return Determinizer(observation)

    def restore(self, snapshot: dict[str, Any]) -> "GameState":
        """The state a ``snapshot()`` describes, on this game's board and ruleset."""
        from ttr_lab.games.ticket_to_ride.restore import restore_state

        return restore_state(self.board, snapshot, self.ruleset)

    @property
    def views(self) -> "TicketToRideViews":
        """Its presentation: report sections, summaries, replays, drawings (``presentation.py``)."""
        from ttr_lab.games.ticket_to_ride.presentation import TicketToRideViews

        return TicketToRideViews(self)


def _rebuilt(board: Board, ruleset: Ruleset, edits: Sequence[Mapping[str, Any]]) -> "TicketToRide":
    """Unpickle: ``board`` is already edited; the edits are kept for ``options``."""
    game = TicketToRide(board, ruleset)
    game.edits = tuple(dict(e) for e in edits)
    return game


@functools.lru_cache(maxsize=None)
def _action_space(board: Board, ruleset: Ruleset) -> ActionSpace:
    return ActionSpace(all_actions(board, ruleset), f"Ticket to Ride ({board.name})")
