"""An experiment: does a search gain with time? One strategy at
several CPU budgets per decision against one fixed opponent.

The strategy (``CURVE_STRATEGY``, or ``--strategy``) gets ``cpu_ms`` of the searching
thread's CPU clock per decision at each budget; the opponent (``CURVE_OPPONENT``, or
``--opponent``) plays at its own defaults, whatever the budget, so the row-to-row change is
the strategy's alone. Two players, every deal in both seatings, fresh deals per budget (derived
from the seed and the budget, so a rerun replays the same deals); per budget the win share with
its 95% Wilson interval, the mean lead in points (the strategy's score less the opponent's, with
a 95% normal interval over games) and the CPU seconds per decision each side actually spent.
Run from the repository:

    python benchmarks/time_curve.py --deals 20 --cpu-ms 10 --cpu-ms 40 --cpu-ms 160
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from typing import Any, Callable, Sequence

from ttr_lab.analysis.stats import summarize
from ttr_lab.bench.results import BenchResult, FigureTable, Item, benchmarked
from ttr_lab.core.game import load_game
from ttr_lab.core.rng import derive_seed
from ttr_lab.tournament.backends import Backend
from ttr_lab.tournament.design import match_games
from ttr_lab.tournament.match import play_match

from on_backend import match_options, played_on

(_NAME, _OPTIONS), = benchmarked("strength")  # the games catalogue says which game
USA = load_game(_NAME, **_OPTIONS)
CURVE_STRATEGY = "mcts_tree"
CURVE_OPPONENT = "mcts_flat"  # its default budget is counted in play-outs: the same opponent on any machine
CURVE_MS = (10.0, 40.0, 160.0)


def lead_interval(rows: Sequence[dict[str, Any]], entrant: str) -> tuple[float, float]:
    """``entrant``'s mean lead over the best other seat per game, and the half-width of its 95%
    normal interval (0 with fewer than two games)."""
    games: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        games[r["game_id"]].append(r)
    leads = []
    for seats in games.values():
        mine = [r["score"] for r in seats if r["entrant"] == entrant]
        others = [r["score"] for r in seats if r["entrant"] != entrant]
        if mine and others:
            leads.append(mine[0] - max(others))
    if not leads:
        return 0.0, 0.0
    mean = sum(leads) / len(leads)
    if len(leads) < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in leads) / (len(leads) - 1)
    return mean, 1.96 * math.sqrt(var / len(leads))


def cpu_per_decision(rows: Sequence[dict[str, Any]], entrant: str) -> float:
    decisions = sum(r["decisions"] for r in rows if r["entrant"] == entrant)
    return sum(r["think_cpu_seconds"] for r in rows if r["entrant"] == entrant) / decisions if decisions else 0.0


def time_curve_section(result: BenchResult, deals: int, seed: int, runner: Backend, budgets: Sequence[float],
                       strategy: str = CURVE_STRATEGY, opponent: str = CURVE_OPPONENT) -> None:
    """The section: ``strategy`` at each of ``budgets`` (CPU ms per decision) against ``opponent``
    on ``deals`` deals x both seatings; ``figures["curve"]`` holds (ms, win rate, low, high, mean
    lead) per budget."""
    name = f"{strategy} (cpu_ms)"
    rows, curve = [], []
    for ms in budgets:
        entrants = [{"name": name, "strategy": strategy, "params": {"cpu_ms": ms}},
                    {"name": opponent, "strategy": opponent, "params": {}}]
        deal_seed = derive_seed(seed, 0xC7, int(ms * 1000))
        played = play_match(entrants, match_games((0, 1), deals, deal_seed, f"c{ms:g}-"), USA, runner)
        s = summarize(played, [name])[0]
        lead, half = lead_interval(played, name)
        result.figures[f"curve {ms:g}ms"] = s
        curve.append((ms, s.win_rate, s.low, s.high, lead))
        rows.append((f"{ms:g} ms", str(s.games), f"{s.win_rate:.3f}", f"[{s.low:.3f}, {s.high:.3f}]",
                     f"{lead:+.1f} ± {half:.1f}", f"{1000 * cpu_per_decision(played, name):.1f}",
                     f"{1000 * cpu_per_decision(played, opponent):.1f}"))
    result.figures["curve"] = curve
    result.show(FigureTable.of(
        f"{strategy} by CPU time per decision against {opponent} at its defaults, 2 players "
        f"({deals} deals x both seatings, fresh deals per budget, seed {seed})",
        ("budget", "games", "win rate", "95% interval", "mean lead (pts)", f"{strategy} CPU ms/decision",
         f"{opponent} CPU ms/decision"),
        rows, right=("games", "win rate", "mean lead (pts)"),
    ))


def time_curve_benchmark(deals: int = 20, seed: int = 1, backend: str = "ray", workers: int | None = None,
                         budgets: Sequence[float] = CURVE_MS, strategy: str = CURVE_STRATEGY,
                         opponent: str = CURVE_OPPONENT, on_item: Callable[[Item], None] | None = None) -> BenchResult:
    """The section on ``deals`` deals x both seatings, played on ``backend`` (``ray`` or ``serial``)."""
    if not budgets or any(ms <= 0 for ms in budgets):
        raise ValueError(f"the curve's budgets must be positive milliseconds, not {list(budgets)}")
    return played_on(backend, workers, lambda result, runner: time_curve_section(
        result, deals, seed, runner, budgets, strategy, opponent), on_item)


def main(argv: list[str] | None = None) -> None:
    from ttr_lab.cli.bench import show_items

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    match_options(parser, "deals per budget, each in both seatings")
    parser.add_argument("--strategy", default=CURVE_STRATEGY, help="the strategy given each budget")
    parser.add_argument("--opponent", default=CURVE_OPPONENT, help="the fixed opponent (at its defaults)")
    args = parser.parse_args(argv)
    try:
        time_curve_benchmark(args.deals, args.seed, args.backend, args.workers, args.cpu_ms or CURVE_MS,
                             args.strategy, args.opponent, on_item=show_items())
    except ValueError as exc:
        parser.exit(2, f"time_curve: {exc}\n")


if __name__ == "__main__":
    main()
