"""How a game ended, in terms every game shares: ``Outcome`` with one ``PlayerOutcome`` per
seat, a ``Termination`` reason, and the game's own ``Metric``s (declared once by the game, with a
one-line description each, so tables and reports can label them without knowing the game)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping, Sequence


class Termination(str, Enum):
    """Why a game ended."""

    NORMAL = "normal"  # by the game's own end condition
    STALLED = "stalled"  # nobody could or would move any more (e.g. a full round of passes)
    FORFEIT = "forfeit"  # a strategy crashed, chose an illegal action or ran out of time


METRIC_KINDS = ("int", "float", "bool", "ints")  # "ints": a list of ids (e.g. tracks claimed)


@dataclass(frozen=True)
class Metric:
    """A game-specific number recorded per player (a column in every results table)."""

    name: str
    description: str
    kind: str = "int"
    # Shown in reports as a mean per entrant (counts, points); False for ids and flags.
    summarise: bool = True

    def __post_init__(self) -> None:
        if self.kind not in METRIC_KINDS:
            raise ValueError(f"metric {self.name}: kind {self.kind!r} is not one of {', '.join(METRIC_KINDS)}")


@dataclass(frozen=True)
class SummaryMetric:
    """A figure per entrant over its games played out, that a game declares for its summaries
    (``GameViews.summary_metrics``; tuning reports it beside the objective): the sum of the
    ``numerator`` metric over the sum of the ``denominator`` metric (Ticket to Ride's ticket
    completion: tickets completed / tickets held; 0 when the denominator sums to 0), or without
    a ``denominator`` the mean of ``numerator`` per game."""

    name: str
    description: str
    numerator: str
    denominator: str | None = None

    def of(self, rows: "Sequence[Mapping[str, Any]]") -> float:
        """This figure over ``rows`` (results rows of games played out; a missing value is 0)."""
        top = sum(r.get(self.numerator) or 0 for r in rows)
        if self.denominator is None:
            return top / len(rows) if rows else 0.0
        bottom = sum(r.get(self.denominator) or 0 for r in rows)
        return top / bottom if bottom else 0.0


@dataclass(frozen=True)
class PlayerOutcome:
    score: float | None  # None: no score (a forfeited game)
    rank: int  # 1 = first; tied players share a rank (competition ranking: 1, 1, 3)
    metrics: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    players: tuple[PlayerOutcome, ...]
    termination: Termination
    turns: int | None = None
    forfeited_by: int | None = None  # the seat that forfeited, if any
    error: str = ""

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, p in enumerate(self.players) if p.rank == 1)

    def win_shares(self) -> tuple[float, ...]:
        """Per seat, its share of the win: 1 for a sole winner, shared equally on ties."""
        winners = self.winners
        return tuple((1.0 / len(winners)) if seat in winners else 0.0 for seat in range(len(self.players)))

    @classmethod
    def forfeit(cls, num_players: int, loser: int | None, error: str) -> "Outcome":
        """The strategy at ``loser`` forfeits: it ranks last, the others share first; no scores.
        ``loser`` None (or -1): a forfeit no seat can be named for, every seat shares first."""
        players = tuple(
            PlayerOutcome(score=None, rank=num_players if seat == loser else 1)
            for seat in range(num_players)
        )
        return cls(players, Termination.FORFEIT, None, loser, error)
