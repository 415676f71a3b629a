"""An experiment: how far does more time move a search's decisions? The decisions themselves at several budgets, on the same positions.

A match says whether four times the time wins more games; it cannot say why not. Here seat 0 of
``deals`` two-player ``ticket_planner`` games (fresh deals from the seed) is shadowed by one
search per budget (``CONVERGENCE_STRATEGY``, at ``iterations`` play-outs per decision: counted, so
the figures are the same on a loaded machine) and by a second search at each budget on another
stream of samples. Every shadow sees every decision of that seat, so its planner and prior keep
their plans as in a game. At each decision the searches race (they report play-outs in
their ``SearchResult``; a decision with one sensible move, which they leave to their planner, is not
counted), the section records each shadow's answer. It asks nothing of the game beyond the core's
interface. Per budget:

- how often the answer is not the planner's move (the search overrules it);
- how often it equals the largest budget's answer (what more time would still change);
- how often two searches at the same budget, on different samples, agree (the noise floor: a
  budget whose answers agree with the largest budget's as often as with themselves has
  converged, and more time changes its play only by chance);
- the candidates it raced;
- where it overrules, the winner's edge over the planner's move as the race measured it, and as
  ``FRESH`` new samples measure it (a search with ``edge``): the race's figure includes the
  samples that chose the winner among its rivals, so it is biased up by the choice (a winner's
  curse); the fresh figure is not, and its mean says whether the overrules gain in the search's
  own verdict at all;
- the same edge played out by the ``ticket_planner`` strategy (its kept plan, its ticket orders)
  at every seat instead of the play-out kernel's planner, first on ``SAMPLED`` of the game's own
  determinizations (``game.determinize``), then in the game's true state: both moves played in
  a copy of the real position (the real hands, tickets and deck, which the samples stand for).
  The true-state mean over the overrules is unbiased for the sampled one when the samples are
  drawn like the truth, so a gap between those two measures the samples' error (what the search
  assumes of hidden cards and tickets), and a gap between the fresh edge and the sampled one
  the play-out policy's.

    python benchmarks/convergence.py --deals 20 --playouts 64 --playouts 256 --playouts 1024
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any, Callable, Iterator, Sequence

from ttr_lab.bench.results import BenchResult, FigureTable, Item, benchmarked
from ttr_lab.core.game import load_game
from ttr_lab.core.intervals import clustered_mean
from ttr_lab.core.registry import build
from ttr_lab.core.rng import derive_seed

(_NAME, _OPTIONS), = benchmarked("strength")
USA = load_game(_NAME, **_OPTIONS)
CONVERGENCE_STRATEGY = "mcts_learned"
CONVERGENCE_PLAYOUTS = (64, 256, 1024, 4096)  # about 12, 50, 200 and 800 ms of CPU a decision
FRESH = 256  # samples re-measuring an overruling winner's edge
SAMPLED = 16  # determinizations played out by the planner strategy, per overrule


def convergence_section(result: BenchResult, deals: int, seed: int,
                        budgets: Sequence[int] = CONVERGENCE_PLAYOUTS,
                        strategy: str = CONVERGENCE_STRATEGY) -> None:
    """The section (see the module docstring); ``figures["convergence"]`` holds, per budget,
    (play-outs, turns, overrule share, agreement with the largest, agreement with itself, the
    (deal, race's, fresh, sampled, true-state) edge of each overrule)."""
    budgets = sorted(budgets)
    answers: dict[tuple[int, int], list[str]] = {(b, k): [] for b in budgets for k in (0, 1)}
    anchors: list[str] = []
    raced: dict[int, list[int]] = {b: [] for b in budgets}
    edges: dict[int, list[tuple[float, ...]]] = {b: [] for b in budgets}  # (deal, race's, fresh, sampled, true) per overrule
    current = -1
    for deal, game_seed, state, observation, legal, action in seat_zero_decisions(deals, seed):
        if deal != current:  # shadows per game, seeing every decision of the seat to keep their plans
            current = deal
            shadows = {(b, k): build(strategy, {"iterations": b}, USA.name) for b in budgets for k in (0, 1)}
            streams = {(b, k): random.Random(derive_seed(game_seed, b, k)) for b in budgets for k in (0, 1)}
        found = {key: shadow.search(observation, legal, streams[key]) for key, shadow in shadows.items()}
        chosen = {key: f.action for key, f in found.items()}
        # A decision the searches raced, not one they left to their planner.
        if not any(f.playouts > 0 for f in found.values()):
            continue
        anchors.append(str(action))
        for key, shadow in shadows.items():
            answers[key].append(str(chosen[key]))
            if key[1] == 0:
                raced[key[0]].append(len(found[key].root))
                if chosen[key] != action and hasattr(shadow, "edge"):
                    race = next(row.lead for row in found[key].root if row.move == str(chosen[key]))
                    fresh, _ = shadow.edge(observation, action, chosen[key], FRESH, streams[key])
                    k = derive_seed(game_seed, len(anchors))
                    edges[key[0]].append((deal, race, fresh, sampled_edge(observation, action, chosen[key], SAMPLED, k),
                                          played_edge(state, action, chosen[key], k)))
    largest = budgets[-1]
    rows, figures = [], []
    for b in budgets:
        first, second = answers[(b, 0)], answers[(b, 1)]
        turns = len(first)
        overrule = _share(a != anchor for a, anchor in zip(first, anchors))
        with_largest = _share(a == z for a, z in zip(first, answers[(largest, 1)]))
        with_itself = _share(a == z for a, z in zip(first, second))
        mean_raced = sum(raced[b]) / len(raced[b]) if raced[b] else 0.0
        figures.append((b, turns, overrule, with_largest, with_itself, edges[b]))
        rows.append((str(b), str(turns), f"{overrule:.1%}", f"{with_largest:.1%}", f"{with_itself:.1%}",
                     f"{mean_raced:.1f}", _edges(edges[b])))
    result.figures["convergence"] = figures
    result.show(FigureTable.of(
        f"{strategy}'s answers by play-outs per decision, on the searched decisions of seat 0 in {deals} ticket_planner "
        f"games at 2 players (seed {seed}); 'with the largest' pairs each budget's first search with the "
        f"second search at {largest}",
        ("play-outs", "turns", "overrules the planner", f"agrees with {largest}", "agrees with itself",
         "candidates raced", f"overrules' edge (pts): race / {FRESH} fresh samples / {SAMPLED} samples "
         "played by the planner / the true state played by the planner"),
        rows, right=("play-outs", "turns"),
    ))


def seat_zero_decisions(deals: int, seed: int, first: int = 0) -> Iterator[tuple[int, int, Any, Any, Any, Any]]:
    """Seat 0's every decision in two-player ``ticket_planner`` games, deals ``first`` to
    ``deals - 1`` of ``seed``'s fresh deals: (deal, the game's seed, the state, the observation,
    the legal moves, the planner's move). The move is played when the next decision is asked for."""
    for deal in range(first, deals):
        game_seed = derive_seed(seed, 0xC0C0, deal)
        state = USA.new_game(2, game_seed)
        players = [build("ticket_planner", {}, USA.name) for _ in range(2)]
        rng = random.Random(game_seed)
        while not state.is_terminal():
            p = state.current_player
            observation, legal = state.observation(p), state.legal_actions()
            action = players[p].act(observation, legal, rng)
            if p == 0:
                yield deal, game_seed, state, observation, legal, action
            state.apply(action)


def sampled_edge(observation: Any, anchor: Any, move: Any, samples: int, seed: int) -> float:
    """``played_edge`` averaged over ``samples`` of the game's determinizations of ``observation``
    (drawn from ``seed``): what the true state's edge would be on average if the samples were
    drawn like the truth."""
    worlds = random.Random(seed)
    return statistics.fmean(played_edge(USA.determinize(observation, worlds), anchor, move, seed)
                            for _ in range(samples))


def played_edge(state: Any, anchor: Any, move: Any, seed: int, player: str = "ticket_planner",
                options: dict[str, Any] | None = None) -> float:
    """``move``'s lead over ``anchor`` for the player to move, each played in a copy of the real
    ``state`` and followed by ``player`` (built with ``options``, a fresh one per seat) at every
    seat to the end (the same seed for both)."""
    me = state.current_player
    leads = []
    for first in (anchor, move):
        copy = state.clone()
        copy.apply(first)
        players = [build(player, options or {}, USA.name) for _ in range(copy.num_players)]
        rng = random.Random(seed)
        while not copy.is_terminal():
            p = copy.current_player
            copy.apply(players[p].act(copy.observation(p), copy.legal_actions(), rng))
        scores = [float(player.score or 0) for player in copy.outcome().players]
        leads.append(scores[me] - max(score for seat, score in enumerate(scores) if seat != me))
    return leads[1] - leads[0]


def _edges(rows: Sequence[tuple[float, ...]]) -> str:
    """The mean edges of the overrules: the race's, then the others with 95% intervals by deal
    (a game's overrules share its deal, the true state's above all, so they are not independent)."""
    if not rows:
        return "-"
    race = sum(row[1] for row in rows) / len(rows)
    deals = [row[0] for row in rows]
    rest = " / ".join("{:+.1f} ± {:.1f}".format(*clustered_mean([row[k] for row in rows], deals))
                      for k in range(2, len(rows[0])))
    return f"{race:+.1f} / {rest} ({len(rows)})"


def _share(flags: Any) -> float:
    seen = list(flags)
    return sum(seen) / len(seen) if seen else 0.0


def convergence_benchmark(deals: int = 20, seed: int = 1, budgets: Sequence[int] = CONVERGENCE_PLAYOUTS,
                          on_item: Callable[[Item], None] | None = None) -> BenchResult:
    """The section on ``deals`` games, in this process."""
    if not budgets or any(n < 1 for n in budgets):
        raise ValueError(f"the convergence budgets must be play-out counts of 1 or more, not {list(budgets)}")
    result = BenchResult(on_item=on_item)
    convergence_section(result, deals, seed, budgets)
    return result


def main(argv: list[str] | None = None) -> None:
    from ttr_lab.cli.bench import show_items

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="ticket_planner games whose seat 0 is shadowed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, action="append", default=[], help="play-outs per decision (repeat)")
    args = parser.parse_args(argv)
    try:
        convergence_benchmark(args.deals, args.seed, args.playouts or CONVERGENCE_PLAYOUTS, on_item=show_items())
    except ValueError as exc:
        parser.exit(2, f"convergence: {exc}\n")


if __name__ == "__main__":
    main()
