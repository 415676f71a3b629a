"""``TicketToRide``: the game as the platform sees it (the core's ``Game`` protocol), the
per-player metrics it records, and its part of a tournament report (the protocol's optional
``score_parts``, ``report_tables`` and ``report_figures``; the work is in ``report.py``).

    game = TicketToRide("usa")                      # or load_game("ticket_to_ride", map="usa")
    state = game.new_game(4, seed=7)
    outcome = ...; outcome.players[0].metrics["tickets_completed"]
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ttr_lab.core.actions import ActionSpace
from ttr_lab.core.outcome import Metric, Outcome, PlayerOutcome, Termination
from ttr_lab.games.ticket_to_ride.actions import Action, all_actions, parse_action
from ttr_lab.games.ticket_to_ride.board import Board, available_maps, load_board
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    from matplotlib.figure import Figure

    from ttr_lab.games.ticket_to_ride.result import GameResult
    from ttr_lab.games.ticket_to_ride.state import GameState

NAME = "ticket_to_ride"

METRICS: tuple[Metric, ...] = (
    Metric("route_points", "points from claimed routes (route table, plus mountain points)"),
    Metric("ticket_points", "points from tickets: completed ones added, failed ones subtracted"),
    Metric("tickets_held", "tickets kept (at setup and later): held at the end"),
    Metric("tickets_completed", "tickets whose two cities the player connected"),
    Metric("tickets_failed", "tickets not connected at the end (their points subtracted)"),
    Metric("ticket_points_completed", "points of the completed tickets"),
    Metric("ticket_points_failed", "points of the failed tickets (subtracted)"),
    Metric("longest_trail", "length in trains of the player's longest continuous trail"),
    Metric("longest_bonus", "points from the longest-trail bonus (0 where the map has none)"),
    Metric("trains_left", "trains not placed at the end"),
    Metric("trains_placed", "trains placed on the board"),
    Metric("route_points_per_train", "route points per train placed (how well trains were turned into points)",
           kind="float"),
    Metric("ticket_draws", "times the player drew tickets during play"),
    Metric("tickets_drawn", "tickets offered to the player, setup included (kept ones are tickets_held)"),
    Metric("cards_left", "train cards in hand at the end"),
    Metric("tracks", "ids of the tracks the player claimed", kind="ints", summarise=False),
    # Only on maps that use them (empty otherwise):
    Metric("explorer_bonus", "points from the Asian Explorer bonus (Legendary Asia)"),
    Metric("largest_network", "most cities in one network of the player's own tracks (Legendary Asia)"),
    Metric("mountain_routes", "claimed tracks with mountain spaces (Legendary Asia)"),
)

# The metrics whose sum is the score (route points, ticket points, the end bonus the ruleset
# awards: the longest trail or the Asian Explorer), first, so the report can stack them; then the
# completed and failed tickets that make up the ticket points.
SCORE_PARTS = ("route_points", "ticket_points", "longest_bonus", "explorer_bonus", "ticket_points_completed",
               "ticket_points_failed")
_BONUS_RULE = {"longest_bonus": "longest_path_bonus", "explorer_bonus": "explorer_bonus"}

_PLAIN = tuple(m.name for m in METRICS if m.name not in ("tracks", "tickets_held", "ticket_points_completed",
                                                         "ticket_points_failed", "route_points_per_train"))


class TicketToRide:
    """Ticket to Ride on one map with one ruleset: immutable, picklable, equal by content."""

    name = NAME

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
        return self.board.name

    @property
    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {"map": self.board.name}
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

    @property
    def score_parts(self) -> tuple[str, ...]:
        """The metrics whose sum is the score, with the ticket points' completed and failed parts;
        an end bonus only where this ruleset awards it."""
        return tuple(p for p in SCORE_PARTS if p not in _BONUS_RULE or getattr(self.ruleset, _BONUS_RULE[p]))

    def new_game(self, num_players: int, seed: int) -> "GameState":
        from ttr_lab.games.ticket_to_ride.state import new_game

        return new_game(self.board, num_players, seed, self.ruleset)

    def parse_action(self, text: str) -> Action:
        return parse_action(text, self.board)

    @property
    def action_space(self) -> ActionSpace:
        """Every action with its integer id; the order is ``actions.all_actions``'s."""
        return _action_space(self.board, self.ruleset)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of ``observation_tensor``'s arrays (the same at every player count)."""
        from ttr_lab.games.ticket_to_ride.tensor import observation_shape

        return observation_shape(self.board, self.ruleset)

    def tensor_writer(self, player: int) -> "Callable[[Any], np.ndarray]":
        """A seat's ``state -> state.observation_tensor(player)`` that keeps its multi-hot
        blocks between calls and writes only what changed (one per seat of an RL environment)."""
        from ttr_lab.games.ticket_to_ride.tensor import TensorWriter

        return TensorWriter(player)

    def observation_tensor(self, observation: Any) -> "np.ndarray":
        """An ``Observation`` as a float32 vector (layout: ``tensor.layout``, docs/rl.md)."""
        from ttr_lab.games.ticket_to_ride.tensor import observation_tensor

        return observation_tensor(observation)

    def turn_number(self, state: "GameState") -> int | None:
        """Turns completed, at a turn boundary (a player to take a turn, or the game over)."""
        return state.turns if state.phase_name.name in ("TURN", "OVER") else None

    def describe_state(self, state: "GameState", record: Any, index: int) -> str:
        """Where a replayed game is, in a few lines (``ttr-lab replay``)."""
        from ttr_lab.games.ticket_to_ride.replay import describe_state

        return describe_state(state, record, index)

    def draw_state(self, state: "GameState", names: Sequence[str] | None = None) -> "Figure":
        """The board with every claim so far (``ttr-lab replay --picture``); ``names``: the
        strategy of each seat, for the legend."""
        from ttr_lab.games.ticket_to_ride.drawing import draw_state

        return draw_state(state, names=names)

    def result_summary(self, record: Any) -> tuple[str, list[str], list[list[str]], list[str]]:
        """``ttr-lab play``'s account of a finished game: (first line, headers, rows, lines)."""
        from ttr_lab.games.ticket_to_ride.summary import ending, result_summary

        headers, rows, lines = result_summary(record, self.score_parts)
        return ending(record), headers, rows, lines

    def record_html(self, record: Any) -> str:
        """A record in Jupyter: its result table and the replay viewer (``replay_html``)."""
        from ttr_lab.games.ticket_to_ride.drawing import record_html

        return record_html(record)

    def replay_page(self, record: Any) -> str:
        """The replay viewer as one self-contained HTML page (``ttr-lab replay --html``)."""
        from ttr_lab.games.ticket_to_ride.replay_html import viewer_page

        return viewer_page(record)

    # The result columns summary_columns reads (the end-of-tournament summary reads only these).
    summary_inputs = ("score", "tickets_held", "tickets_completed", "longest_bonus", "explorer_bonus")

    def summary_columns(self, frame: "pd.DataFrame") -> "pd.DataFrame":
        """Beside win rates at the end of a tournament: ticket completion, end-bonus rate."""
        from ttr_lab.games.ticket_to_ride import report

        return report.summary_columns(self, frame)

    def report_tables(self, frame: "pd.DataFrame") -> list[tuple[str, str, "pd.DataFrame"]]:
        """The report's "Tickets and bonuses" section (ticket completion, end-bonus rates)."""
        from ttr_lab.games.ticket_to_ride import report

        return report.report_tables(self, frame)

    def report_figures(self, frame: "pd.DataFrame") -> list[tuple[str, str, "Figure"]]:
        """The report's ticket, end-bonus and track-heatmap figures."""
        from ttr_lab.games.ticket_to_ride import report

        return report.report_figures(self, frame)


def _rebuilt(board: Board, ruleset: Ruleset, edits: Sequence[Mapping[str, Any]]) -> "TicketToRide":
    """Unpickle: ``board`` is already edited; the edits are kept for ``options``."""
    game = TicketToRide(board, ruleset)
    game.edits = tuple(dict(e) for e in edits)
    return game


@functools.lru_cache(maxsize=None)
def _action_space(board: Board, ruleset: Ruleset) -> ActionSpace:
    return ActionSpace(all_actions(board, ruleset), f"Ticket to Ride ({board.name})")


def outcome_of(result: "GameResult", owner: list[int]) -> Outcome:
    """The core ``Outcome`` of a scored game (``owner``: the player owning each track, or -1)."""
    players = []
    for p in result.players:
        metrics: dict[str, Any] = {name: getattr(p, name) for name in _PLAIN}
        completed = sum(t.points for t in p.tickets if t.completed)
        metrics.update({
            "tickets_held": len(p.tickets),
            "route_points_per_train": p.route_points / p.trains_placed if p.trains_placed else 0.0,
            "ticket_points_completed": completed,
            "ticket_points_failed": sum(t.points for t in p.tickets) - completed,
            "tracks": [t for t, o in enumerate(owner) if o == p.player],
        })
        players.append(PlayerOutcome(score=p.total, rank=p.rank, metrics=metrics))
    termination = Termination.STALLED if result.stalled else Termination.NORMAL
    return Outcome(tuple(players), termination, result.turns)
