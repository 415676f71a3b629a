"""An experiment: the new ``mcts`` against ``mcts_classic`` at equal CPU time per searched decision.

``NEW`` (``mcts`` on compiled planner play-outs, no tree) and ``CLASSIC`` each get ``cpu_ms``
of the searching thread's CPU clock per searched decision (``EQUAL_TIME_MS``: 10 ms, 50 ms,
200 ms, 1 s), at 2 players head to head and at 4 as one against three classics, every deal
under every seating, fresh deals for each budget and player count; the win rate by time (the
curve, ``figures["equal_time curve"]``, drawn by ``equal_time_figure``), and both searches'
play-outs per CPU-second measured in the same run (their ratio). ``new_factor`` gives the new
search that multiple of the classic's time instead (4: does its own strength still grow with
time? 0.2: is it as strong at a fifth of the time?), on deals of its own. Run from the repository:

    python benchmarks/equal_time.py --deals 20 --backend ray --figure docs/strength-equal-time.png
"""

from __future__ import annotations

import argparse
from typing import Any, Callable, Sequence

from ttr_lab.analysis.stats import summarize
from ttr_lab.bench.results import BenchResult, FigureTable, Item, benchmarked
from ttr_lab.bench.strength import playouts_per_cpu_second
from ttr_lab.core.game import load_game
from ttr_lab.core.rng import derive_seed
from ttr_lab.tournament.backends import Backend
from ttr_lab.tournament.design import match_games
from ttr_lab.tournament.match import play_match

from on_backend import match_options, played_on

(_NAME, _OPTIONS), = benchmarked("strength")  # the games catalogue says which game
USA = load_game(_NAME, **_OPTIONS)
EQUAL_TIME_MS = (10.0, 50.0, 200.0, 1000.0)  # CPU time per searched decision
NEW = ("mcts", {"playout": "planner", "tree": False})  # the search on compiled play-outs
CLASSIC = "mcts_classic"
RATE_DECISIONS = 30  # searched decisions over which the play-outs per CPU-second are counted


def equal_time_section(result: BenchResult, deals: int, seed: int, runner: Backend, budgets: Sequence[float],
                       players: Sequence[int], new_factor: float = 1.0) -> None:
    """The section: every budget at every player count, then the play-out rates (the inputs
    checked by ``equal_time_benchmark``)."""
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


def equal_time_benchmark(deals: int = 20, seed: int = 1, backend: str = "ray", workers: int | None = None,
                         cpu_ms: Sequence[float] = EQUAL_TIME_MS, players: Sequence[int] = (2, 4),
                         new_factor: float = 1.0, on_item: Callable[[Item], None] | None = None) -> BenchResult:
    """The section on ``deals`` deals under every seating, played on ``backend`` (``ray`` with
    ``workers``, or ``serial``)."""
    if not cpu_ms or any(ms <= 0 for ms in cpu_ms):
        raise ValueError(f"the equal-time budgets must be positive milliseconds, not {list(cpu_ms)}")
    if not players or set(players) - {2, 4}:
        raise ValueError(f"equal_time plays 2 and/or 4 players, not {list(players)}")
    if not new_factor > 0:
        raise ValueError(f"the new search's time factor must be positive, not {new_factor}")
    return played_on(backend, workers, lambda result, runner: equal_time_section(
        result, deals, seed, runner, cpu_ms, players, new_factor), on_item)


def main(argv: list[str] | None = None) -> None:
    from ttr_lab.cli.bench import show_items

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    match_options(parser, "deals per cell, each under every seating")
    parser.add_argument("--players", type=int, action="append", default=[], help="2 and/or 4 (repeat)")
    parser.add_argument("--new-time-factor", type=float, default=1.0, help="the new search's multiple of the time")
    parser.add_argument("--figure", default=None, help="save the win-rate-by-time curve here (.png or .svg)")
    args = parser.parse_args(argv)
    try:
        result = equal_time_benchmark(args.deals, args.seed, args.backend, args.workers, args.cpu_ms or EQUAL_TIME_MS,
                                      args.players or (2, 4), args.new_time_factor, on_item=show_items())
    except ValueError as exc:
        parser.exit(2, f"equal_time: {exc}\n")
    if args.figure:
        equal_time_figure(result.figures["equal_time curve"]).savefig(args.figure)


if __name__ == "__main__":
    main()
