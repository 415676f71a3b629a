"""``ttr-lab bench strength --section equal_time``: the new ``mcts`` against ``mcts_classic`` at
equal CPU time per searched decision.

``NEW`` (``mcts`` on compiled planner play-outs, no tree) and ``CLASSIC`` each get ``cpu_ms``
of the searching thread's CPU clock per searched decision (``EQUAL_TIME_MS``: 10 ms, 50 ms,
200 ms, 1 s), at 2 players head to head and at 4 as one against three classics, every deal
under every seating, fresh deals for each budget and player count; the win rate by time (the
curve, ``figures["equal_time curve"]``, drawn by ``equal_time_figure``), and both searches'
play-outs per CPU-second measured in the same run (their ratio). ``new_factor`` gives the new
search that multiple of the classic's time instead (4: does its own strength still grow with
time? 0.2: is it as strong at a fifth of the time?), on deals of its own.
"""

from __future__ import annotations

import random
import time
from typing import Any, Sequence

from ttr_lab.analysis.stats import summarize
from ttr_lab.bench.results import BenchResult, FigureTable, benchmarked
from ttr_lab.core.game import load_game
from ttr_lab.core.rng import derive_seed
from ttr_lab.tournament.backends import Backend
from ttr_lab.tournament.design import match_games
from ttr_lab.tournament.match import play_match

(_NAME, _OPTIONS), = benchmarked("strength")  # the games catalogue says which game
USA = load_game(_NAME, **_OPTIONS)
EQUAL_TIME_MS = (10.0, 50.0, 200.0, 1000.0)  # CPU time per searched decision
NEW = ("mcts", {"playout": "planner", "tree": False})  # the search on compiled play-outs
CLASSIC = "mcts_classic"
RATE_DECISIONS = 30  # searched decisions over which the play-outs per CPU-second are counted


def equal_time_section(result: BenchResult, deals: int, seed: int, runner: Backend, budgets: Sequence[float],
                       players: Sequence[int], new_factor: float = 1.0) -> None:
    """The section: every budget at every player count, then the play-out rates (the inputs
    checked by ``strength_benchmark``)."""
    new, params = NEW
    name = f"{new} ({params['playout']}{'' if params.get('tree', True) else ', flat'})"
    rows, curve = [], []
    for n in players:
        table = (0, 1) if n == 2 else (0, 1, 1, 1)
        for ms in budgets:
            entrants = [{"name": name, "strategy": new, "params": {**params, "cpu_ms": ms * new_factor}},
                        {"name": CLASSIC, "strategy": CLASSIC, "params": {"cpu_ms": ms}}]
            # Fresh deals per cell: no budget, player count or time factor replays another's games.
            keys = (n, int(ms * 1000)) if new_factor == 1 else (n, int(ms * 1000), int(new_factor * 1000))
            deal_seed = derive_seed(seed, 0xE7, *keys)
            s = summarize(play_match(entrants, match_games(table, deals, deal_seed, f"e{n}-{ms:g}-"), USA, runner),
                          [name])[0]
            even = 1 / n
            result.figures[f"equal_time {n}p {ms:g}ms"] = s
            curve.append((n, ms, s.win_rate, s.low, s.high))
            rows.append((f"{n}", f"{ms * new_factor:g} ms", f"{ms:g} ms", str(s.games), f"{s.win_rate:.3f}", f"[{s.low:.3f}, {s.high:.3f}]",
                         f"{even:.2f}", "yes" if s.low > even else "no", f"{s.mean_score:.1f}"))
    result.figures["equal_time curve"] = curve
    timing = "at equal CPU time" if new_factor == 1 else f"with {new_factor:g}x the classic's CPU time"
    result.show(FigureTable.of(
        f"{name} against {CLASSIC} {timing} per searched decision "
        f"({deals} deals x every seating; at 4 players one against three)",
        ("players", "new's CPU per decision", "classic's", "games", "win rate", "95% interval", "even", "above even",
         "mean score"),
        rows,
    ))
    rates = []
    for n in players:
        classic = playouts_per_cpu_second(CLASSIC, {"cpu_ms": 50.0}, n, RATE_DECISIONS)
        native = playouts_per_cpu_second(new, {**params, "cpu_ms": 50.0}, n, RATE_DECISIONS)
        result.figures[f"equal_time playouts/cpu-s {n}p"] = (native, classic)
        rates.append((f"{n}", f"{native:.0f}", f"{classic:.0f}", f"{native / classic:.1f}x" if classic else "-"))
    result.show(FigureTable.of(
        "play-outs per CPU-second of the searching thread (50 ms per searched decision, one run)",
        ("players", name, CLASSIC, "ratio"), rates,
    ))


def equal_time_figure(curve: Sequence[tuple[int, float, float, float, float]]) -> Any:
    """The win rate by CPU time per decision (``figures["equal_time curve"]``), one line per
    player count with its 95% intervals, and each count's even share."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    for n in sorted({c[0] for c in curve}):
        points = sorted((ms, w, lo, hi) for m, ms, w, lo, hi in curve if m == n)
        xs = [p[0] for p in points]
        line = ax.errorbar(xs, [p[1] for p in points], yerr=[[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]],
                           marker="o", capsize=3, label=f"{n} players")
        ax.axhline(1 / n, linestyle=":", color=line[0].get_color())
    ax.set_xscale("log")
    ax.set_xlabel("CPU time per searched decision (ms)")
    ax.set_ylabel("win rate of the new mcts")
    ax.set_title(f"{NEW[0]} on compiled play-outs against {CLASSIC}")
    ax.legend()
    fig.tight_layout()  # else the axis label is cut off at the bottom
    return fig


def playouts_per_cpu_second(strategy: str, params: dict[str, Any], players: int = 2, decisions: int = 30,
                            seed: int = 3) -> float:
    """Play-outs per CPU-second of ``strategy`` (an mcts) at seat 0, the others ticket
    planners, over its first ``decisions`` searched decisions of one game (CPU time of the
    searching thread)."""
    from ttr_lab.core.registry import build
    from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

    state = USA.new_game(players, seed)
    search, other, rng = build(strategy, params, USA.name), TicketPlanner(), random.Random(seed)
    simulations, seconds, searched = 0, 0.0, 0
    while not state.is_terminal() and searched < decisions:
        p = state.current_player
        legal = state.legal_actions()
        if p == 0:
            start = time.thread_time()
            found = search.search(state.observation(p), legal, rng)
            action = found.action
            spent = time.thread_time() - start
            if found.playouts:
                simulations += found.simulations
                seconds += spent
                searched += 1
        else:
            action = other.act(state.observation(p), legal, rng)
        state.apply(action)
    return simulations / seconds if seconds else 0.0
