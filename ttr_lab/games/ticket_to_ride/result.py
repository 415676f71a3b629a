"""The end of a game as values: ``GameResult`` with one ``PlayerResult`` per seat; the per-player
metrics a record holds (``METRICS``) and the core ``Outcome`` of a result (``outcome_of``)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.history import unroll_kinds
from ttr_lab.core.outcome import Metric, Outcome, PlayerOutcome, Termination
from ttr_lab.games.ticket_to_ride.actions import DrawTickets, TicketsKept
from ttr_lab.games.ticket_to_ride.board import TicketDeck
from ttr_lab.games.ticket_to_ride.colours import NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.ruleset import Rejects
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.scoring import score_stations as kernel_score

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.slots import StateSlots

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
    Metric("globetrotter_bonus", "points from the Globetrotter bonus (USA 1910 and Mega Game decks)"),
    Metric("grand_tour_tickets", "kept tickets joined by two paths of own tracks with no track in common (India)"),
    Metric("grand_tour_bonus", "points from the Grand Tour bonus (India)"),
)

_PLAIN = tuple(m.name for m in METRICS if m.name not in ("tracks", "tickets_held", "ticket_points_completed",
                                                         "ticket_points_failed", "route_points_per_train"))


@dataclass(frozen=True)
class TicketResult:
    ticket: int
    name: str
    points: int
    completed: bool


@dataclass(frozen=True)
class PlayerResult:
    player: int
    route_points: int  # from the route table (plus mountain points on maps that have them)
    tickets: tuple[TicketResult, ...]
    ticket_points: int  # + completed, - failed
    tickets_completed: int
    tickets_failed: int
    longest_trail: int  # in trains
    longest_bonus: int  # points from the longest-trail bonus (0 or the ruleset's bonus)
    total: int
    rank: int  # 1 = winner; tied players share a rank
    trains_left: int
    cards_left: int
    # Derived from the history when a game is scored; not stored in records (None when read from one).
    trains_placed: int | None = None  # trains on the board (the trains the player started with, less those left)
    ticket_draws: int | None = None  # times the player drew tickets during play (setup not counted)
    tickets_drawn: int | None = None  # tickets offered to the player, setup included
    # Only on maps that use them (left out of to_dict otherwise, so USA results stay as they were):
    largest_network: int | None = None  # most cities in one network of the player's own tracks
    explorer_bonus: int | None = None  # points from the explorer bonus
    mountain_routes: int | None = None  # claimed tracks with mountain (X) spaces
    globetrotter_bonus: int | None = None  # points from the Globetrotter bonus
    grand_tour_tickets: int | None = None  # tickets joined by two paths sharing no track
    grand_tour_bonus: int | None = None  # points from the Grand Tour bonus
    stations_built: int | None = None  # train stations built
    station_points: int | None = None  # points for the stations not built
    # Per station built, in city order: (its city, the track of another player it borrowed for
    # the tickets, or -1 for none): the assignment the final scoring chose.
    station_tracks: tuple[tuple[int, int], ...] | None = None


@dataclass(frozen=True)
class GameResult:
    players: tuple[PlayerResult, ...]
    stalled: bool  # ended by a full round of passes, not by the final round
    turns: int  # normal turns played (initial ticket choices not counted)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p.player for p in self.players if p.rank == 1)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.total for p in self.players)

    def to_dict(self) -> dict[str, Any]:
        # By hand rather than dataclasses.asdict: this runs once per game in every tournament.
        players = []
        for p in self.players:
            row = {k: getattr(p, k) for k in _PLAYER_FIELDS if k not in _OPTIONAL or getattr(p, k) is not None}
            if p.station_tracks is not None:
                row["station_tracks"] = [list(pair) for pair in p.station_tracks]
            row["tickets"] = [
                {"ticket": t.ticket, "name": t.name, "points": t.points, "completed": t.completed} for t in p.tickets
            ]
            players.append(row)
        return {"players": players, "stalled": self.stalled, "turns": self.turns}

    @classmethod
    def from_dict(cls, data: Any) -> "GameResult":
        """The result a game record stores (``to_dict``), as values; the fields derived from the
        history are not stored, so they are None. A malformed one is a ConfigError naming the field."""
        try:
            players = tuple(
                PlayerResult(
                    tickets=tuple(TicketResult(int(t["ticket"]), str(t["name"]), int(t["points"]), bool(t["completed"]))
                                  for t in p["tickets"]),
                    station_tracks=None if p.get("station_tracks") is None else tuple(
                        (int(c), int(t)) for c, t in p["station_tracks"]),
                    **{k: p[k] if k in _OPTIONAL and p.get(k) is None else int(p[k])
                       for k in _PLAYER_FIELDS if k not in ("tickets", "station_tracks") and (k in p or k not in _OPTIONAL)},
                )
                for p in data["players"]
            )
            return cls(players=players, stalled=bool(data["stalled"]), turns=int(data["turns"]))
        except KeyError as exc:
            raise ConfigError(f"a Ticket to Ride result needs the field {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"a Ticket to Ride result has a malformed field: {exc}") from None


# Derived from the history when a game is scored, and left out of records' results so records
# written before they existed still replay to the same result.
_DERIVED = ("trains_placed", "ticket_draws", "tickets_drawn")
_PLAYER_FIELDS = tuple(f.name for f in fields(PlayerResult) if f.name not in _DERIVED)
_OPTIONAL = ("largest_network", "explorer_bonus", "mountain_routes", "globetrotter_bonus", "grand_tour_tickets",
             "grand_tour_bonus", "stations_built", "station_points", "station_tracks")


def ticket_draws(state: "StateSlots") -> tuple[list[int], list[int]]:
    """Per player: how many times it drew tickets in play, and how many tickets it was offered
    in all (setup included). The public history records a draw and the number kept, not the
    number offered, so the ticket deck is followed through the game: a draw offers what the deck
    still holds up to the ruleset's draw, and the tickets not kept go back under it."""
    game = state.tables
    rules, n = game.ruleset, game.num_players
    deck = sum(1 for t in game.board.tickets if t.deck is TicketDeck.REGULAR) - n * rules.initial_tickets
    draws, offered = [0] * n, [rules.initial_tickets + rules.initial_long_tickets] * n
    setup_keeps, pending = 0, [0] * n
    # Only the ticket events matter, a few among the hundreds of a game.
    for p, action, _ in unroll_kinds(state.log, (DrawTickets, TicketsKept)):
        if type(action) is DrawTickets:
            got = min(rules.ticket_draw, deck)
            deck -= got
            draws[p] += 1
            offered[p] += got
            pending[p] = got
        elif type(action) is TicketsKept:
            if setup_keeps < n:  # the first n keeps are the setup's
                setup_keeps += 1
                if rules.initial_rejects is Rejects.BOTTOM:
                    deck += rules.initial_tickets + rules.initial_long_tickets - action.count
            else:
                deck += pending[p] - action.count
                pending[p] = 0
    return draws, offered


def score_game(state: "StateSlots") -> GameResult:
    """Score a finished game from the board itself (route points are rechecked, not trusted):
    the numbers come from the scoring kernel, the names and the history's counts from here."""
    game = state.tables
    board, rules = game.board, game.ruleset
    n = game.num_players
    out = np.zeros((n, L.RESULT_COLUMNS), dtype=np.int64)
    joined = np.zeros((n, len(board.tickets)), dtype=np.bool_)
    stations = rules.stations_per_player > 0
    borrowed = np.full((n, len(board.cities) if stations else 0), -1, dtype=np.int64)
    kernel_score(state.face.g, state.s, out, joined, borrowed)
    built = state.stations
    rows = out.tolist()
    held = state.tickets
    ticket_rows = [
        tuple(
            TicketResult(tid, board.tickets[tid].label, board.tickets[tid].points, bool(joined[p, i]))
            for i, tid in enumerate(held[p])
        )
        for p in range(n)
    ]
    has_mountains = any(t.mountain_spaces for t in board.tracks)
    tour = rules.grand_tour
    draws, offered = ticket_draws(state)
    players = tuple(
        PlayerResult(
            player=p, route_points=rows[p][L.R_ROUTES], tickets=ticket_rows[p], ticket_points=rows[p][L.R_TICKET_POINTS],
            tickets_completed=rows[p][L.R_COMPLETED], tickets_failed=rows[p][L.R_FAILED],
            longest_trail=rows[p][L.R_TRAIL], longest_bonus=rows[p][L.R_LONGEST_BONUS], total=rows[p][L.R_TOTAL],
            rank=rows[p][L.R_RANK],
            trains_left=state.trains[p], cards_left=sum(state.hands[p * NUM_CARD_KINDS:(p + 1) * NUM_CARD_KINDS]),
            trains_placed=rules.trains_per_player - state.trains[p], ticket_draws=draws[p], tickets_drawn=offered[p],
            largest_network=rows[p][L.R_NETWORK] if rules.explorer_bonus else None,
            explorer_bonus=rows[p][L.R_EXPLORER_BONUS] if rules.explorer_bonus else None,
            mountain_routes=rows[p][L.R_MOUNTAINS] if has_mountains else None,
            globetrotter_bonus=rows[p][L.R_GLOBETROTTER_BONUS] if rules.globetrotter_bonus else None,
            grand_tour_tickets=rows[p][L.R_GRAND_TOUR_TICKETS] if tour else None,
            grand_tour_bonus=rows[p][L.R_GRAND_TOUR_BONUS] if tour else None,
            stations_built=rows[p][L.R_STATIONS_BUILT] if stations else None,
            station_points=rows[p][L.R_STATION_POINTS] if stations else None,
            station_tracks=tuple((c, int(borrowed[p, c])) for c, o in enumerate(built) if o == p) if stations else None,
        )
        for p in range(n)
    )
    return GameResult(players=players, stalled=state.stalled, turns=state.turns)


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
