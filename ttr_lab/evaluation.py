"""Seeded, seat-rotated matches between strategies, and the statistics to read them honestly.

A *match* plays ``deals`` deals; each deal (one seed, derived from the master seed and the deal
index) is played once per cyclic rotation of the seats, so every entrant sits in every seat on
the same cards and seat advantage cancels. Games run in a process pool (``workers``); results
do not depend on the number of workers or the order games finish in.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Sequence

from ttr_lab.analysis.stats import wilson
from ttr_lab.core.rng import derive_seed

Entrant = tuple[str, dict[str, Any]]  # (registered name or module:Class, parameters)


@dataclass(frozen=True)
class GameRow:
    deal: int
    rotation: int
    seed: int
    seats: tuple[int, ...]  # seat -> entrant index
    totals: tuple[int, ...]  # by seat
    ranks: tuple[int, ...]  # by seat
    tickets_completed: tuple[int, ...]
    tickets_held: tuple[int, ...]
    seconds: tuple[float, ...]  # by seat: thinking time
    decisions: tuple[int, ...]

    def win_share(self, entrant: int) -> float:
        """1 for a sole winner, 1/k for each of k tied winners, else 0 (summed over its seats)."""
        winners = [s for s, r in enumerate(self.ranks) if r == 1]
        return sum(1.0 / len(winners) for s in winners if self.seats[s] == entrant)


def _play(args: tuple) -> GameRow:
    import time

    from strategies.registry import build
    from ttr_lab.core.play import play_game
    from ttr_lab.games.ticket_to_ride.definition import TicketToRide

    entrants, seats, deal, rotation, seed, map_name = args

    class Timed:
        def __init__(self, inner: Any) -> None:
            self.inner, self.seconds, self.decisions = inner, 0.0, 0
            self.name = getattr(inner, "name", type(inner).__name__.lower())

        def act(self, observation: Any, legal: Any, rng: Any) -> Any:
            start = time.perf_counter()
            action = self.inner.act(observation, legal, rng)
            self.seconds += time.perf_counter() - start
            self.decisions += 1
            return action

    players = [Timed(build(*entrants[e])) for e in seats]
    record = play_game(TicketToRide(map_name), players, seed)
    res = record.result["players"]
    return GameRow(
        deal=deal, rotation=rotation, seed=seed, seats=tuple(seats),
        totals=tuple(p["total"] for p in res), ranks=tuple(p["rank"] for p in res),
        tickets_completed=tuple(p["tickets_completed"] for p in res),
        tickets_held=tuple(len(p["tickets"]) for p in res),
        seconds=tuple(p.seconds for p in players), decisions=tuple(p.decisions for p in players),
    )


def play_match(
    entrants: Sequence[Entrant], table: Sequence[int], deals: int, seed: int = 0,
    workers: int | None = None, map_name: str = "usa",
) -> list[GameRow]:
    """Play ``deals`` deals of ``table`` (seat -> entrant index), each under every cyclic
    rotation of the seats. Returns one row per game, in deal and rotation order."""
    n = len(table)
    jobs = []
    for deal in range(deals):
        deal_seed = derive_seed(seed, deal)
        for r in range(n):
            seats = [table[(s + r) % n] for s in range(n)]
            jobs.append((tuple(entrants), seats, deal, r, deal_seed, map_name))
    workers = workers or min(len(jobs), os.cpu_count() or 1)
    if workers <= 1:
        return [_play(j) for j in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_play, jobs, chunksize=1))


@dataclass(frozen=True)
class EntrantSummary:
    entrant: int
    games: int
    win_rate: float
    low: float
    high: float
    mean_score: float
    completion: float  # tickets completed / held
    seconds_per_decision: float


def summarize(rows: Sequence[GameRow], entrants: int) -> list[EntrantSummary]:
    out = []
    for e in range(entrants):
        games = sum(1 for r in rows for s in r.seats if s == e)
        wins = sum(r.win_share(e) for r in rows)
        scores = [r.totals[s] for r in rows for s in range(len(r.seats)) if r.seats[s] == e]
        done = sum(r.tickets_completed[s] for r in rows for s in range(len(r.seats)) if r.seats[s] == e)
        held = sum(r.tickets_held[s] for r in rows for s in range(len(r.seats)) if r.seats[s] == e)
        secs = sum(r.seconds[s] for r in rows for s in range(len(r.seats)) if r.seats[s] == e)
        decisions = sum(r.decisions[s] for r in rows for s in range(len(r.seats)) if r.seats[s] == e)
        low, high = wilson(wins, games)
        out.append(EntrantSummary(
            e, games, wins / games if games else 0.0, low, high,
            sum(scores) / len(scores) if scores else 0.0, done / held if held else 0.0,
            secs / decisions if decisions else 0.0,
        ))
    return out


def beats(rows: Sequence[GameRow], a: int, b: int) -> tuple[float, int, float, float]:
    """How often entrant ``a`` finished ahead of entrant ``b`` at the same table (ties half):
    ``(share, games, low, high)`` with a Wilson 95% interval; games without both are skipped."""
    wins, games = 0.0, 0
    for r in rows:
        sa = [s for s, e in enumerate(r.seats) if e == a]
        sb = [s for s, e in enumerate(r.seats) if e == b]
        for x in sa:
            for y in sb:
                games += 1
                if r.ranks[x] < r.ranks[y]:
                    wins += 1
                elif r.ranks[x] == r.ranks[y]:
                    wins += 0.5
    low, high = wilson(wins, games)
    return (wins / games if games else 0.0, games, low, high)
