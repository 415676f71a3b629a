"""Which games a tournament plays: tables, seatings, deals, and a stable id for each game.

A *deal* is one seed, derived from the master seed and the deal index alone (never from the
order games run in). Every deal is played at every table of the design under every seating, so
seat advantage and card luck cancel between entrants. Game ids name (deal, table, seating), so
a rerun recognises the games it already has.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

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
    layout = [(ti, seatings(t, config.rotation or "cyclic")) for ti, t in enumerate(tables(config))]
    deals = math.ceil(config.games / games_per_deal(config))
    specs = []
    for deal in range(deals):
        seed = derive_seed(config.seed, deal)
        for ti, options in layout:
            for si, seats in enumerate(options):
                specs.append(GameSpec(f"d{deal}-t{ti}-s{si}", deal, seed, ti, si, seats))
    return specs
