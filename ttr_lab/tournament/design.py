"""Which games a tournament or a match plays: tables, seatings, deals, and a stable id for each game.

A *deal* is one seed, derived from the master seed and the deal index alone (never from the
order games run in). Every deal is played at every table of the design under every seating, so
seat advantage and card luck cancel between entrants. Game ids name (deal, table, seating), so
a rerun recognises the games it already has.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Sequence

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


def plan_games(config: TournamentConfig) -> list[GameSpec]:
    """Every game, deal by deal: ``config.games`` rounded up to whole deals."""
    layout = [seatings(t, config.rotation or "cyclic") for t in tables(config)]
    return schedule(layout, math.ceil(config.games / games_per_deal(config)), config.seed)


def match_games(table: tuple[int, ...], deals: int, seed: int, prefix: str = "d") -> list[GameSpec]:
    """One table (seat -> entrant index) on ``deals`` deals under every cyclic rotation: the
    games of a match (a tuning trial, a validation, a strength benchmark)."""
    return schedule([seatings(table, "cyclic")], deals, seed, prefix)


def schedule(layout: Sequence[Sequence[tuple[int, ...]]], deals: int, seed: int, prefix: str = "d") -> list[GameSpec]:
    """Deal by deal, every table of ``layout`` (its seatings, each seat -> entrant index) under
    each of its seatings. ``prefix`` tells apart the game ids of matches played side by side."""
    specs = []
    for deal in range(deals):
        deal_seed = derive_seed(seed, deal)
        for ti, options in enumerate(layout):
            for si, seats in enumerate(options):
                specs.append(GameSpec(f"{prefix}{deal}-t{ti}-s{si}", deal, deal_seed, ti, si, seats))
    return specs
