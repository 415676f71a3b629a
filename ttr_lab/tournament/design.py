"""Which games a tournament or a match plays: tables, seatings, deals, and a stable id for each game.

A *deal* is one seed, derived from the master seed and the deal index alone (never from the
order games run in). Every deal is played at every table of the design under every seating, so
seat advantage and card luck cancel between entrants. Game ids name (deal, table, seating), so
a rerun recognises the games it already has.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass
from typing import Any, Sequence

from ttr_lab.core.rng import derive_seed
from ttr_lab.tournament.config import TournamentConfig


@dataclass(frozen=True)
class GameSpec:
    game_id: str
    deal: int
    deal_seed: int
    table: int
    seating: int
    seats: tuple[int, ...]  # seat -> entrant index


def tables(config: TournamentConfig) -> list[tuple[int, ...]]:
    """The tables of the design, each a tuple of entrant indices (before rotation)."""
    n, k = config.players, len(config.entrants)
    if config.design == "fixed":
        return [tuple(range(k))]
    if config.design == "round_robin":
        return list(itertools.combinations(range(k), n))
    focus = next(i for i, e in enumerate(config.entrants) if e.name == config.focus)
    return [(focus,) + (other,) * (n - 1) for other in range(k) if other != focus]


def seatings(table: tuple[int, ...], rotation: str) -> list[tuple[int, ...]]:
    """The distinct seatings of a table: its cyclic rotations, or all its permutations."""
    n = len(table)
    if rotation == "cyclic":
        candidates = [table[r:] + table[:r] for r in range(n)]
    else:
        candidates = list(itertools.permutations(table))
    out: list[tuple[int, ...]] = []
    for c in candidates:
        if c not in out:
            out.append(c)
    return out


def games_per_deal(config: TournamentConfig) -> int:
    return sum(len(seatings(t, config.rotation or "cyclic")) for t in tables(config))


def plan_games(config: TournamentConfig) -> "Schedule":
    """Every game, deal by deal: ``config.games`` rounded up to whole deals (built on demand)."""
    layout = [seatings(t, config.rotation or "cyclic") for t in tables(config)]
    return Schedule(layout, math.ceil(config.games / games_per_deal(config)), config.seed)


def match_games(table: tuple[int, ...], deals: int, seed: int, prefix: str = "d") -> list[GameSpec]:
    """One table (seat -> entrant index) on ``deals`` deals under every cyclic rotation: the
    games of a match (a tuning trial, a validation, a strength benchmark)."""
    return schedule([seatings(table, "cyclic")], deals, seed, prefix)


def schedule(layout: Sequence[Sequence[tuple[int, ...]]], deals: int, seed: int, prefix: str = "d") -> list[GameSpec]:
    """Deal by deal, every table of ``layout`` (its seatings, each seat -> entrant index) under
    each of its seatings. ``prefix`` tells apart the game ids of matches played side by side."""
    return list(Schedule(layout, deals, seed, prefix))


class Schedule(SequenceABC):
    """The games of ``schedule`` as a sequence whose items are built when asked for: a plan of a
    million games holds its layout, not a million ``GameSpec`` (which would also make every full
    garbage collection of a long run scan them). Game ``i`` is deal ``i // per_deal``, then its
    tables and seatings in order; ``index(game_id)`` goes back from an id to ``i``."""

    def __init__(self, layout: Sequence[Sequence[tuple[int, ...]]], deals: int, seed: int, prefix: str = "d") -> None:
        self.deals, self.seed, self.prefix = deals, seed, prefix
        self._cells = [(ti, si, tuple(seats)) for ti, options in enumerate(layout) for si, seats in enumerate(options)]
        self._where = {(ti, si): c for c, (ti, si, _) in enumerate(self._cells)}

    def __len__(self) -> int:
        return self.deals * len(self._cells)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._spec(j) for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"game {i} is not in a schedule of {len(self)} games")
        return self._spec(i)

    def _spec(self, i: int) -> GameSpec:
        deal, cell = divmod(i, len(self._cells))
        ti, si, seats = self._cells[cell]
        return GameSpec(f"{self.prefix}{deal}-t{ti}-s{si}", deal, derive_seed(self.seed, deal), ti, si, seats)

    def index(self, game_id: Any, *_: Any) -> int:
        """The position of the game called ``game_id``; ValueError when it is not one of these."""
        deal, table, seating = _parse_id(game_id, self.prefix)
        cell = self._where.get((table, seating))
        if cell is None or not 0 <= deal < self.deals:
            raise ValueError(f"{game_id!r} is not a game of this schedule")
        return deal * len(self._cells) + cell

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SequenceABC) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]


def _parse_id(game_id: Any, prefix: str) -> tuple[int, int, int]:
    """``(deal, table, seating)`` of an id written by ``Schedule._spec``; ValueError otherwise."""
    if not isinstance(game_id, str) or not game_id.startswith(prefix):
        raise ValueError(f"{game_id!r} is not a game id of this schedule")
    parts = game_id[len(prefix):].split("-")
    if len(parts) != 3 or parts[1][:1] != "t" or parts[2][:1] != "s":
        raise ValueError(f"{game_id!r} is not a game id of this schedule")
    numbers = (parts[0], parts[1][1:], parts[2][1:])
    if not all(n.isdigit() and n.isascii() and str(int(n)) == n for n in numbers):
        raise ValueError(f"{game_id!r} is not a game id of this schedule")
    deal, table, seating = (int(n) for n in numbers)
    return deal, table, seating
