"""``ttr-lab bench strength``: how strong each strategy is, measured, with 95% intervals.

Sections (run any subset):

- ``ladder2``: head to head at 2 players: random-greedy, greedy-ticket_planner,
  ticket_planner-mcts. A step is significant when the stronger side's win-rate interval lies
  above 50%.
- ``ladder4``: one of the stronger against three of the weaker at 4 players; significant when
  its interval lies above 25%.
- ``mixed4``: random, greedy, ticket_planner and mcts at one 4-player table; for each step, how
  often the stronger finished ahead of the weaker (interval above 50%).
- ``time``: mcts against ticket_planner at 2 players with 0.05, 0.2 and 1 s per move, and its
  play-outs per second.
- ``reference``: the four agents of the 2017 study against each other, at 2 and at 4 players.
- ``speed``: 4-player games per second of each heuristic strategy against random's, one process.

Every match is seeded and seat-rotated (``ttr_lab.evaluation``), so a rerun gives the same games
(except ``time``, whose budgets are on the clock).
"""

from __future__ import annotations

import itertools
import random
import time
from typing import Any, Sequence

from rich.console import Console

from ttr_lab.console import make_console
from rich.table import Table

from ttr_lab.evaluation import Entrant, beats, play_match, summarize

SECTIONS = ("ladder2", "ladder4", "mixed4", "time", "reference", "speed")
LADDER = ("random", "greedy", "ticket_planner", "mcts")
REFERENCE = ("destination_hungry", "route_focus", "one_step", "long_route")


def _interval(low: float, high: float) -> str:
    return f"[{low:.3f}, {high:.3f}]"


def strength_benchmark(
    deals: int = 20, workers: int | None = None, seed: int = 1, sections: Sequence[str] = SECTIONS,
    console: Console | None = None,
) -> dict[str, Any]:
    console = console or make_console()
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        raise ValueError(f"unknown section(s) {', '.join(sorted(unknown))}; choose from {', '.join(SECTIONS)}")
    out: dict[str, Any] = {}
    started = time.perf_counter()

    if "ladder2" in sections:
        table = Table(title=f"2 players, head to head ({deals} deals x 2 seatings)")
        for col in ("stronger", "weaker", "games", "win rate", "95% interval", "significant", "completion", "s/decision"):
            table.add_column(col)
        for weak, strong in zip(LADDER, LADDER[1:]):
            entrants: list[Entrant] = [(strong, {}), (weak, {})]
            rows = play_match(entrants, [0, 1], deals, seed, workers)
            s = summarize(rows, 2)[0]
            out[f"ladder2 {strong}>{weak}"] = s
            table.add_row(strong, weak, str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high),
                          "yes" if s.low > 0.5 else "no", f"{s.completion:.3f}", f"{s.seconds_per_decision:.4f}")
        console.print(table)

    if "ladder4" in sections:
        table = Table(title=f"4 players, one against three ({deals} deals x 4 seatings)")
        for col in ("one", "three", "games", "win rate", "95% interval", "significant (> 0.25)", "mean score"):
            table.add_column(col)
        for weak, strong in zip(LADDER, LADDER[1:]):
            entrants = [(strong, {}), (weak, {})]
            rows = play_match(entrants, [0, 1, 1, 1], deals, seed, workers)
            s = summarize(rows, 2)[0]
            out[f"ladder4 {strong}>3x{weak}"] = s
            table.add_row(strong, weak, str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high),
                          "yes" if s.low > 0.25 else "no", f"{s.mean_score:.1f}")
        console.print(table)

    if "mixed4" in sections:
        entrants = [(name, {}) for name in LADDER]
        rows = play_match(entrants, [0, 1, 2, 3], deals, seed, workers)
        table = Table(title=f"4 players, mixed table ({deals} deals x 4 seatings)")
        for col in ("strategy", "games", "win rate", "95% interval", "mean score", "completion"):
            table.add_column(col)
        for s in summarize(rows, 4):
            table.add_row(LADDER[s.entrant], str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high),
                          f"{s.mean_score:.1f}", f"{s.completion:.3f}")
        console.print(table)
        steps = Table(title="mixed table: how often the stronger finished ahead of the weaker")
        for col in ("stronger", "weaker", "ahead", "95% interval", "significant"):
            steps.add_column(col)
        for i in range(3):
            share, games, low, high = beats(rows, i + 1, i)
            out[f"mixed4 {LADDER[i + 1]}>{LADDER[i]}"] = (share, low, high)
            steps.add_row(LADDER[i + 1], LADDER[i], f"{share:.3f}", _interval(low, high), "yes" if low > 0.5 else "no")
        console.print(steps)

    if "time" in sections:
        table = Table(title=f"mcts against ticket_planner, 2 players, by thinking time ({deals} deals x 2)")
        for col in ("time per move", "games", "win rate", "95% interval", "mean s/decision"):
            table.add_column(col)
        for ms in (50, 200, 1000):
            entrants = [("mcts", {"time_ms": ms}), ("ticket_planner", {})]
            rows = play_match(entrants, [0, 1], deals, seed, workers)
            s = summarize(rows, 2)[0]
            out[f"time {ms}ms"] = s
            table.add_row(f"{ms / 1000:g} s", str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high),
                          f"{s.seconds_per_decision:.3f}")
        console.print(table)
        rate = playouts_per_second()
        out["mcts playouts/s"] = rate
        console.print(f"mcts play-outs per second (2 players, one core, to the end of the game): {rate:.0f}")

    if "reference" in sections:
        for n in (2, 4):
            table = Table(title=f"reference agents, {n} players ({deals} deals x {n} seatings per table)")
            for col in ("agent", "games", "win rate", "95% interval", "mean score", "completion"):
                table.add_column(col)
            entrants = [(name, {}) for name in REFERENCE]
            if n == 2:
                rows = []
                for a, b in itertools.combinations(range(4), 2):
                    rows += play_match(entrants, [a, b], deals, seed, workers)
            else:
                rows = play_match(entrants, [0, 1, 2, 3], deals, seed, workers)
            for s in summarize(rows, 4):
                out[f"reference{n} {REFERENCE[s.entrant]}"] = s
                table.add_row(REFERENCE[s.entrant], str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high),
                              f"{s.mean_score:.1f}", f"{s.completion:.3f}")
            console.print(table)

    if "speed" in sections:
        table = Table(title="4-player games per second, one process (ratio to random, same run)")
        for col in ("strategy", "games/s", "cost vs random"):
            table.add_column(col)
        rates = {name: games_per_second(name) for name in ("random", "greedy", "ticket_planner") + REFERENCE}
        for name, rate in rates.items():
            out[f"speed {name}"] = rate
            table.add_row(name, f"{rate:.1f}", f"{rates['random'] / rate:.2f}x")
        console.print(table)

    console.print(f"strength benchmark took {time.perf_counter() - started:.0f} s")
    return out


def games_per_second(name: str, players: int = 4, seconds: float = 3.0, seed: int = 1) -> float:
    from strategies.registry import build
    from ttr_lab.games.ticket_to_ride.board import load_board
    from ttr_lab.core.play import play_game
    from ttr_lab.games.ticket_to_ride.definition import TicketToRide

    board = load_board("usa")
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_game(TicketToRide(board), [build(name) for _ in range(players)], seed + games)
        games += 1
    return games / (time.perf_counter() - start)


def playouts_per_second(decisions: int = 30, seed: int = 3) -> float:
    """MCTS play-outs per second, over the searched decisions of a 2-player game."""
    from strategies.mcts import MCTS
    from strategies.ticket_planner import TicketPlanner
    from ttr_lab.games.ticket_to_ride.board import load_board
    from ttr_lab.games.ticket_to_ride.state import new_game

    state = new_game(load_board("usa"), 2, seed)
    search, other, rng = MCTS(), TicketPlanner(), random.Random(seed)
    playouts, seconds, searched = 0, 0.0, 0
    while not state.is_terminal() and searched < decisions:
        p = state.current_player
        legal = state.legal_actions()
        if p == 0:
            start = time.perf_counter()
            action = search.act(state.observation(p), legal, rng)
            spent = time.perf_counter() - start
            if search.last_playouts:
                playouts += search.last_playouts
                seconds += spent
                searched += 1
                search.last_playouts = 0
        else:
            action = other.act(state.observation(p), legal, rng)
        state.apply(action)
    return playouts / seconds if seconds else 0.0
