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
- ``reference``: the four agents of the 2017 study against each other, at 2 and at 4 players,
  beside the study's own figures (win rate, score, ticket completion, tickets held, longest-route
  bonus): how faithful they are.
- ``versus``: the ladder's search (``BEST``, ``mcts``) and ``ticket_planner`` against each reference agent
  at 2 players; ``BEST`` as one against three ``long_route`` at 4 players (25% = even).
- ``table4``: ``BEST``, ``ticket_planner``, ``long_route`` and ``one_step`` at one 4-player table,
  and how often ``BEST`` finished ahead of each of the others.
- ``budget``: ``BEST`` with 4x its default budget against itself at 1x (2 players), with the
  seconds per decision of each.
- ``speed``: 4-player games per second of each heuristic strategy against random's, one process.

The experiments that once were sections here (the new mcts against the classic at equal time,
one search's curve by CPU time, how far more play-outs move a search's answers) are scripts in
the repository's ``benchmarks/`` folder, outside the package.

Every match is a tournament's schedule (seeded deals, each under every rotation of the seats:
``ttr_lab.tournament.design``) played on a tournament backend, so a rerun gives the same games
(except ``time``, whose budgets are on the clock).
"""

from __future__ import annotations

import itertools
import time
from typing import Any, Callable, Sequence

import pandas as pd

from ttr_lab.analysis.stats import summarize
from ttr_lab.analysis.tables import ahead_share
from ttr_lab.bench.results import BenchResult, FigureTable, Item, benchmarked
from ttr_lab.tournament.backends import Backend, make_backend
from ttr_lab.tournament.design import match_games, schedule, seatings
from ttr_lab.core.game import load_game
from ttr_lab.tournament.match import play_match

# The strength figures are measured on the game the games catalogue names (the base game).
(GAME_NAME, GAME_OPTIONS), = benchmarked("strength")
USA = load_game(GAME_NAME, **GAME_OPTIONS)

SECTIONS = ("ladder2", "ladder4", "mixed4", "time", "reference", "versus", "table4", "budget", "speed")
MATCH_SECTIONS = ("ladder2", "ladder4", "mixed4", "time", "reference", "versus", "table4", "budget")
# Sections of old, now scripts of the repository's benchmarks/ folder.
EXPERIMENTS = {"equal_time": "benchmarks/equal_time.py", "curve": "benchmarks/time_curve.py",
               "convergence": "benchmarks/convergence.py"}
LADDER = ("random", "greedy", "ticket_planner", "mcts")
REFERENCE = ("destination_hungry", "route_focus", "one_step", "long_route")
BEST = "mcts"  # the measured baseline of the ladder's sections (docs/strategies.md names the strongest search)
BEST_STEPS = 4000  # its default budget (strategies/ticket_to_ride/mcts.py), which ``budget`` multiplies by 4
VERSUS4 = ("long_route",)  # the agents ``BEST`` meets as one against three (the strongest at 4p)

# The 2017 study's engine, run unmodified with fresh agents over 1,748 seat-rotated 4-player games:
# win rate (ties shared), mean score, ticket completion, tickets held at the end,
# longest-route bonus frequency. At 2 players, the win rate pooled over the three opponents and
# both seats (226 games a pair).
STUDY4 = {
    "long_route": (0.410, 96.5, 0.698, 2.00, 0.333),
    "one_step": (0.285, 92.4, 0.773, 3.45, 0.323),
    "destination_hungry": (0.251, 75.2, 0.754, 3.43, 0.292),
    "route_focus": (0.054, 60.8, 0.676, 3.00, 0.109),
}
STUDY2 = {"long_route": 0.636, "destination_hungry": 0.625, "one_step": 0.518, "route_focus": 0.220}


def _interval(low: float, high: float) -> str:
    return f"[{low:.3f}, {high:.3f}]"


def _entrant(strategy: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": strategy, "strategy": strategy, "params": params or {}}


def strength_benchmark(
    deals: int = 20, workers: int | None = None, seed: int = 1, sections: Sequence[str] = SECTIONS,
    backend: str = "ray", on_item: Callable[[Item], None] | None = None,
) -> BenchResult:
    """The ``sections`` asked for, each match on ``deals`` deals under every seat rotation,
    played on ``backend`` (``ray`` with ``workers``, or ``serial`` in this process)."""
    unknown = set(sections) - set(SECTIONS)
    moved = sorted(unknown & set(EXPERIMENTS))
    if moved:
        raise ValueError(f"the {moved[0]} section is an experiment now, outside the package: run "
                         f"python {EXPERIMENTS[moved[0]]} from the repository")
    if unknown:
        raise ValueError(f"unknown section(s) {', '.join(sorted(unknown))}; choose from {', '.join(SECTIONS)}")
    if backend not in ("ray", "serial"):
        raise ValueError(f"unknown backend {backend!r}; choose ray or serial")
    result = BenchResult(on_item=on_item)
    started = time.perf_counter()
    runner = make_backend(backend, workers=workers)
    try:
        if set(sections) & set(MATCH_SECTIONS):
            runner.start()
        for name, section in (("ladder2", _ladder2), ("ladder4", _ladder4), ("mixed4", _mixed4), ("time", _time),
                              ("reference", _reference), ("versus", _versus), ("table4", _table4),
                              ("budget", _budget), ("speed", _speed)):
            if name in sections:
                section(result, deals, seed, runner)
    finally:
        runner.close()
    result.show(f"strength benchmark took {time.perf_counter() - started:.0f} s")
    return result


def _ladder2(result: BenchResult, deals: int, seed: int, runner: Backend) -> None:
    rows: list[tuple[str, ...]] = []
    for weak, strong in zip(LADDER, LADDER[1:]):
        games = play_match([_entrant(strong), _entrant(weak)], match_games((0, 1), deals, seed), USA, runner)
        s = summarize(games, [strong])[0]
        result.figures[f"ladder2 {strong}>{weak}"] = s
        rows.append((strong, weak, str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high),
                     "yes" if s.low > 0.5 else "no", f"{s.metrics['completion']:.3f}", f"{s.seconds_per_decision:.4f}"))
    result.show(FigureTable.of(
        f"2 players, head to head ({deals} deals x 2 seatings)",
        ("stronger", "weaker", "games", "win rate", "95% interval", "significant", "completion", "s/decision"), rows,
    ))


def _one_against_three(result: BenchResult, key: str, pairs: list[tuple[str, str]], deals: int, seed: int,
                       runner: Backend) -> list[tuple[str, ...]]:
    """One of ``a`` against three of ``b`` for each pair, every deal under the 4 seatings; the
    figures stored as ``{key} a>3xb``; the table rows returned."""
    rows: list[tuple[str, ...]] = []
    for one, three in pairs:
        games = play_match([_entrant(one), _entrant(three)], match_games((0, 1, 1, 1), deals, seed), USA, runner)
        s = summarize(games, [one])[0]
        result.figures[f"{key} {one}>3x{three}"] = s
        rows.append((one, three, str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high),
                     "yes" if s.low > 0.25 else "no", f"{s.mean_score:.1f}"))
    return rows


def _ladder4(result: BenchResult, deals: int, seed: int, runner: Backend) -> None:
    rows = _one_against_three(result, "ladder4", list(zip(LADDER[1:], LADDER)), deals, seed, runner)
    result.show(FigureTable.of(
        f"4 players, one against three ({deals} deals x 4 seatings)",
        ("one", "three", "games", "win rate", "95% interval", "significant (> 0.25)", "mean score"), rows,
    ))


def _mixed4(result: BenchResult, deals: int, seed: int, runner: Backend) -> None:
    games = play_match([_entrant(name) for name in LADDER], match_games((0, 1, 2, 3), deals, seed), USA, runner)
    result.show(FigureTable.of(
        f"4 players, mixed table ({deals} deals x 4 seatings)",
        ("strategy", "games", "win rate", "95% interval", "mean score", "completion"),
        [(s.entrant, str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high), f"{s.mean_score:.1f}",
          f"{s.metrics['completion']:.3f}") for s in summarize(games, LADDER)],
    ))
    frame = pd.DataFrame(games)
    steps = []
    for weak, strong in zip(LADDER, LADDER[1:]):
        share, _, low, high = ahead_share(frame, strong, weak)
        result.figures[f"mixed4 {strong}>{weak}"] = (share, low, high)
        steps.append((strong, weak, f"{share:.3f}", _interval(low, high), "yes" if low > 0.5 else "no"))
    result.show(FigureTable.of(
        "mixed table: how often the stronger finished ahead of the weaker",
        ("stronger", "weaker", "ahead", "95% interval", "significant"), steps,
    ))


def _time(result: BenchResult, deals: int, seed: int, runner: Backend) -> None:
    rows: list[tuple[str, ...]] = []
    for ms in (50, 200, 1000):
        entrants = [_entrant("mcts", {"time_ms": ms}), _entrant("ticket_planner")]
        s = summarize(play_match(entrants, match_games((0, 1), deals, seed), USA, runner), ["mcts"])[0]
        result.figures[f"time {ms}ms"] = s
        rows.append((f"{ms / 1000:g} s", str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high),
                     f"{s.seconds_per_decision:.3f}"))
    result.show(FigureTable.of(
        f"mcts against ticket_planner, 2 players, by thinking time ({deals} deals x 2)",
        ("time per move", "games", "win rate", "95% interval", "mean s/decision"), rows,
    ))
    rate = playouts_per_second()
    result.figures["mcts playouts/s"] = rate
    result.show(f"mcts play-outs per CPU-second (2 players, one core, to the end of the game): {rate:.0f}")


def _reference(result: BenchResult, deals: int, seed: int, runner: Backend) -> None:
    entrants = [_entrant(name) for name in REFERENCE]
    for n in (2, 4):
        # At 2 players every pair meets; at 4 the four share one table.
        tables = list(itertools.combinations(range(4), 2)) if n == 2 else [(0, 1, 2, 3)]
        games = play_match(entrants, schedule([seatings(t, "cyclic") for t in tables], deals, seed), USA, runner)
        frame = pd.DataFrame(games)
        rows: list[tuple[str, ...]] = []
        for s in summarize(games, REFERENCE):
            result.figures[f"reference{n} {s.entrant}"] = s
            mine = frame[frame.entrant == s.entrant]
            held, bonus = mine.tickets_held.mean(), (mine.longest_bonus > 0).mean()
            if n == 4:
                win, score, completion, study_held, study_bonus = STUDY4[s.entrant]
                rows.append((s.entrant, str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high), f"{win:.3f}",
                             f"{s.mean_score:.1f} / {score:.1f}", f"{s.metrics['completion']:.3f} / {completion:.3f}",
                             f"{held:.2f} / {study_held:.2f}", f"{bonus:.3f} / {study_bonus:.3f}"))
            else:
                rows.append((s.entrant, str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high),
                             f"{STUDY2[s.entrant]:.3f}", f"{s.mean_score:.1f}", f"{s.metrics['completion']:.3f}"))
        columns = (("agent", "games", "win rate", "95% interval", "study", "score / study", "completion / study",
                    "tickets held / study", "longest bonus / study") if n == 4 else
                   ("agent", "games", "win rate", "95% interval", "study", "mean score", "completion"))
        result.show(FigureTable.of(
            f"reference agents, {n} players ({deals} deals x {n} seatings per table)", columns, rows,
        ))


def _versus(result: BenchResult, deals: int, seed: int, runner: Backend) -> None:
    rows: list[tuple[str, ...]] = []
    for ours in (BEST, "ticket_planner"):
        for agent in REFERENCE:
            games = play_match([_entrant(ours), _entrant(agent)], match_games((0, 1), deals, seed), USA, runner)
            s = summarize(games, [ours])[0]
            result.figures[f"versus2 {ours}>{agent}"] = s
            rows.append((ours, agent, str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high),
                         f"{s.mean_score:.1f}", f"{s.seconds_per_decision:.4f}"))
    result.show(FigureTable.of(
        f"2 players: ours against each reference agent ({deals} deals x 2 seatings)",
        ("ours", "agent", "games", "win rate", "95% interval", "mean score", "s/decision"), rows,
    ))
    rows = _one_against_three(result, "versus4", [(BEST, agent) for agent in VERSUS4], deals, seed, runner)
    result.show(FigureTable.of(
        f"4 players: ours as one against three of an agent ({deals} deals x 4 seatings)",
        ("ours", "three of", "games", "win rate", "95% interval", "above 0.25", "mean score"), rows,
    ))


def _table4(result: BenchResult, deals: int, seed: int, runner: Backend) -> None:
    names = (BEST, "ticket_planner", "long_route", "one_step")
    games = play_match([_entrant(name) for name in names], match_games((0, 1, 2, 3), deals, seed), USA, runner)
    summaries = summarize(games, names)
    for s in summaries:
        result.figures[f"table4 {s.entrant}"] = s
    result.show(FigureTable.of(
        f"4 players: {', '.join(names)} ({deals} deals x 4 seatings)",
        ("strategy", "games", "win rate", "95% interval", "mean score", "completion"),
        [(s.entrant, str(s.games), f"{s.win_rate:.3f}", _interval(s.low, s.high), f"{s.mean_score:.1f}",
          f"{s.metrics['completion']:.3f}") for s in summaries],
    ))
    frame = pd.DataFrame(games)
    rows: list[tuple[str, ...]] = []
    for other in names[1:]:
        share, _, low, high = ahead_share(frame, BEST, other)
        result.figures[f"table4 {BEST} ahead of {other}"] = (share, low, high)
        rows.append((BEST, other, f"{share:.3f}", _interval(low, high), "yes" if low > 0.5 else "no"))
    result.show(FigureTable.of(
        f"the same table: how often {BEST} finished ahead of each other strategy",
        ("strategy", "other", "ahead", "95% interval", "significant"), rows,
    ))


def _budget(result: BenchResult, deals: int, seed: int, runner: Backend) -> None:
    big, small = f"{BEST} x4", f"{BEST} x1"
    entrants = [{"name": big, "strategy": BEST, "params": {"steps": 4 * BEST_STEPS}},
                {"name": small, "strategy": BEST, "params": {"steps": BEST_STEPS}}]
    games = play_match(entrants, match_games((0, 1), deals, seed), USA, runner)
    four, one = summarize(games, [big, small])
    result.figures[f"budget {BEST} x4>x1"] = four
    result.show(FigureTable.of(
        f"{BEST} by budget, 2 players, 4x against 1x its default ({deals} deals x 2 seatings)",
        ("budget", "steps", "games", "win rate", "95% interval", "significant", "s/decision"),
        [("4x", str(4 * BEST_STEPS), str(four.games), f"{four.win_rate:.3f}", _interval(four.low, four.high),
          "yes" if four.low > 0.5 else "no", f"{four.seconds_per_decision:.4f}"),
         ("1x", str(BEST_STEPS), str(one.games), f"{one.win_rate:.3f}", _interval(one.low, one.high), "",
          f"{one.seconds_per_decision:.4f}")],
    ))
    result.show("s/decision: wall-clock time per decision of every kind (forced ones included) while "
                "sharing the machine: an upper bound on the CPU time.")


def _speed(result: BenchResult, deals: int, seed: int, runner: Backend) -> None:
    rates = {name: games_per_second(name) for name in ("random", "greedy", "ticket_planner") + REFERENCE}
    for name, rate in rates.items():
        result.figures[f"speed {name}"] = rate
    result.show(FigureTable.of(
        "4-player games per second, one process (ratio to random, same run)", ("strategy", "games/s", "cost vs random"),
        [(name, f"{rate:.1f}", f"{rates['random'] / rate:.2f}x") for name, rate in rates.items()],
    ))


def games_per_second(name: str, players: int = 4, seconds: float = 3.0, seed: int = 1) -> float:
    from ttr_lab.core.registry import build
    from ttr_lab.core.play import play_game

    game = USA
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_game(game, [build(name, game=game.name) for _ in range(players)], seed + games)
        games += 1
    return games / (time.perf_counter() - start)


def playouts_per_second(decisions: int = 30, seed: int = 3) -> float:
    """mcts play-outs per CPU-second over the searched decisions of a 2-player game, at its defaults."""
    return playouts_per_cpu_second("mcts", {}, 2, decisions, seed)


def playouts_per_cpu_second(strategy: str, params: dict[str, Any], players: int = 2, decisions: int = 30,
                            seed: int = 3) -> float:
    """Play-outs per CPU-second of ``strategy`` (an mcts) at seat 0, the others ticket
    planners, over its first ``decisions`` searched decisions of one game (CPU time of the
    searching thread)."""
    import random

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
