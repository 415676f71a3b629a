"""Are ``mcts_learned``'s overrules of the planner worth in the game what its samples say?

``benchmarks/convergence.py`` measures the edge of the race's overrules of
the planner in the worlds it samples (``game.determinize``) and in the game's true state, both
played out by the ``ticket_planner`` strategy. This script measures that gap on more deals, with
intervals by deal, and splits it between the two unknowns of a two-player Ticket to Ride
position. For each overrule at one play-out
budget (seat 0 of ``ticket_planner`` games, as the section plays them) it plays both moves out
by the planner in:

- the true state;
- the true state with only the opponent's tickets resampled (its held and offered tickets and
  the ticket deck's slots the observer did not return, shuffled together and dealt back);
- the true state with only the unseen cards resampled (the opponent's cards not publicly known
  and the draw pile, shuffled together and dealt back);
- the game's own determinizations (everything unseen resampled).

Each resampling keeps exactly what the observer knows (a test checks the observation does not
change), so with a sampler that drew like the truth each row's mean would equal the true state's.

``--belief`` then asks whether a belief over the opponent's tickets closes the gap: the same
overrules on ``WORLDS`` determinizations each, every world weighted by ``exp(beta * fit)``, where
``fit`` counts the opponent's claimed tracks that lie on a near-shortest path (``SLACK`` trains
over the shortest) between the two cities of one of the tickets the world gave it: the planner
claims the tracks of its tickets' paths, so worlds whose tickets its claims serve are the likely
ones. Per ``beta``, the weighted mean edge and the worlds' effective number.

    python benchmarks/hidden_information.py --playouts 1024 --deals 10 --seed 20261240
    python benchmarks/hidden_information.py --playouts 1024 --deals 10 --seed 20261240 --belief

``--against LARGER`` asks whether more time chooses better moves: at every decision where the
search at ``--playouts`` and a second at ``LARGER`` play-outs answer differently, the larger
budget's answer against the smaller's, in the true state and over the game's determinizations.

    python benchmarks/hidden_information.py --playouts 256 --against 1024 --deals 50 --seed 20261245

Those edges assume the planner plays the rest of the game; in a game the search does.
``--continuation N`` also plays both answers on in the true state with ``mcts_learned`` at ``N``
play-outs at every seat (``--repeats`` seeds each; ``--workers`` processes share the deals), so
the two edges of the same decisions say whether more time's better answer stays better when the
search itself plays on.

    python benchmarks/hidden_information.py --playouts 256 --against 1024 --continuation 256 \
        --repeats 4 --deals 60 --seed 20261250 --workers 2
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import functools
import math
import random
import statistics
import sys
from typing import Any, Callable, Sequence, cast

import networkx as nx

from convergence import USA, played_edge, sampled_edge, seat_zero_decisions  # a sibling script
from ttr_lab.core.intervals import clustered_mean
from ttr_lab.core.registry import build
from ttr_lab.core.rng import derive_seed

SAMPLES = 16  # resampled worlds per overrule and kind
WORLDS = 64  # determinizations per overrule for the belief's weights
SLACK = 2  # trains over the shortest path that still count a track as on a ticket's way
BETAS = (0.0, 0.5, 1.0, 2.0)


@functools.lru_cache(maxsize=None)
def ticket_ways(board: Any) -> tuple[frozenset[int], ...]:
    """Per ticket, the tracks on a path between its cities at most ``SLACK`` trains longer than
    the shortest (a track's trains its length)."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(board.cities)))
    for track in board.tracks:
        if not graph.has_edge(track.a, track.b) or graph[track.a][track.b]["weight"] > track.length:
            graph.add_edge(track.a, track.b, weight=track.length)
    far = dict(nx.all_pairs_dijkstra_path_length(graph))
    ways = []
    for ticket in board.tickets:
        best = far[ticket.a].get(ticket.b, math.inf)
        ways.append(frozenset(
            track.id for track in board.tracks
            if min(far[ticket.a].get(track.a, math.inf) + far[track.b].get(ticket.b, math.inf),
                   far[ticket.a].get(track.b, math.inf) + far[track.a].get(ticket.b, math.inf))
            + track.length <= best + SLACK))
    return tuple(ways)


def fit(board: Any, tickets: Sequence[int], claimed: Sequence[int]) -> int:
    """How many of ``claimed`` (track ids) lie on the way of one of ``tickets`` (ticket ids)."""
    ways = ticket_ways(board)
    on_way: set[int] = set().union(*(ways[t] for t in tickets)) if tickets else set()
    return sum(1 for track in claimed if track in on_way)


def believed_edges(observation: Any, anchor: Any, move: Any, seed: int) -> list[tuple[float, float]]:
    """Per ``BETAS``: the overrule's mean edge over ``WORLDS`` determinizations weighted by the
    belief, and the worlds' effective number."""
    worlds = random.Random(seed)
    other = 1 - observation.player
    claimed = [track for track, owner in enumerate(observation.owner) if owner == other]
    fits, edges = [], []
    for _ in range(WORLDS):
        world = USA.determinize(observation, worlds)
        snap = world.snapshot()
        fits.append(fit(cast(Any, USA).board, list(snap["tickets_held"][other]) + list(snap["offered_tickets"][other]), claimed))
        edges.append(played_edge(world, anchor, move, seed))
    out = []
    for beta in BETAS:
        top = max(fits)
        weights = [math.exp(beta * (f - top)) for f in fits]
        total = sum(weights)
        out.append((sum(w * e for w, e in zip(weights, edges)) / total, total * total / sum(w * w for w in weights)))
    return out


def tickets_resampled(state: Any, me: int, rng: random.Random) -> Any:
    """``state`` with its other seat's tickets and the unseen ticket deck shuffled together and
    dealt back (two players)."""
    snap = state.snapshot()
    other = 1 - me
    held, offered = list(snap["tickets_held"][other]), list(snap["offered_tickets"][other])
    slots = [i for i, by in enumerate(snap["ticket_deck_returned_by"]) if by != me]
    pool = held + offered + [snap["ticket_deck"][i] for i in slots]
    rng.shuffle(pool)
    snap["tickets_held"][other] = pool[:len(held)]
    snap["offered_tickets"][other] = pool[len(held):len(held) + len(offered)]
    for k, i in enumerate(slots):
        snap["ticket_deck"][i] = pool[len(held) + len(offered) + k]
    return USA.restore(snap)


def cards_resampled(state: Any, me: int, rng: random.Random) -> Any:
    """``state`` with its other seat's cards that are not publicly known and the draw pile
    shuffled together and dealt back (two players)."""
    snap = state.snapshot()
    other = 1 - me
    hand, known = snap["hands"][other], snap["known_cards"][other]
    unseen = [colour for colour in hand for _ in range(hand[colour] - known[colour])]
    pool = unseen + list(snap["draw_pile"])
    rng.shuffle(pool)
    dealt = dict(known)
    for colour in pool[:len(unseen)]:
        dealt[colour] += 1
    snap["hands"][other] = dealt
    snap["draw_pile"] = pool[len(unseen):]
    return USA.restore(snap)


def overrule_edges(playouts: int, deals: int, seed: int, belief: bool = False,
                   split: bool = True) -> list[tuple[Any, ...]]:
    """Per overrule: the kind of move, and its edge in the true state, with the tickets
    resampled, with the cards resampled, and in the game's determinizations; with ``belief``,
    the kind, the true state's edge and ``believed_edges``; last, the deal. Without ``split``
    only the true state and the determinizations are played (the resampled rows are nan)."""
    rows: list[tuple[Any, ...]] = []
    current = -1
    for deal, game_seed, state, observation, legal, action in seat_zero_decisions(deals, seed):
        if deal != current:  # a search per game, seeing every decision of its seat
            current, shadow = deal, build("mcts_learned", {"iterations": playouts}, USA.name)
            stream = random.Random(derive_seed(game_seed, playouts, 0))
        found = shadow.search(observation, legal, stream)
        chosen = found.action
        if found.playouts == 0 or chosen == action:
            continue
        k = derive_seed(game_seed, 77, len(rows))
        kind, true = str(chosen).split()[0], played_edge(state, action, chosen, k)
        if belief:
            rows.append((kind, true, believed_edges(observation, action, chosen, k), deal))
            continue
        worlds = random.Random(k)
        makers: list[Callable[[], Any]] = [
            lambda: tickets_resampled(state, 0, worlds),
            lambda: cards_resampled(state, 0, worlds),
            lambda: USA.determinize(observation, worlds),
        ]
        means = [statistics.fmean(played_edge(make(), action, chosen, k) for _ in range(SAMPLES))
                 if split or i == 2 else math.nan for i, make in enumerate(makers)]
        rows.append((kind, true, *means, deal))
    return rows


def budget_edges(small: int, large: int, deals: int, seed: int, continuation: int | None = None,
                 repeats: int = 1, workers: int = 1) -> list[tuple[float, float, float, int]]:
    """Where the search at ``small`` and at ``large`` play-outs answer differently (seat 0 of
    ``ticket_planner`` games): the larger's answer's edge over the smaller's in the true state
    and over ``SAMPLES`` determinizations, both played on by the planner; then (with
    ``continuation``) in the true state played on by the search itself at ``continuation``
    play-outs at every seat, averaged over ``repeats`` seeds (nan without); and the deal. The
    deals are shared among ``workers`` processes; the figures do not depend on how many."""
    job = functools.partial(_budget_deal, small, large, seed, continuation, repeats)
    rows: list[tuple[float, float, float, int]] = []
    with concurrent.futures.ProcessPoolExecutor(workers) if workers > 1 else contextlib.nullcontext() as pool:
        parts = pool.map(job, range(deals)) if pool else map(job, range(deals))
        for done, part in enumerate(parts, start=1):  # a long run says how far it has come
            rows.extend(part)
            print(f"deal {done}/{deals}: {len(rows)} decisions answered differently so far", file=sys.stderr)
    return rows


def _budget_deal(small: int, large: int, seed: int, continuation: int | None, repeats: int,
                 deal: int) -> list[tuple[float, float, float, int]]:
    rows: list[tuple[float, float, float, int]] = []
    searches: list[Any] = []
    streams: list[random.Random] = []
    for _, game_seed, state, observation, legal, _ in seat_zero_decisions(deal + 1, seed, first=deal):
        if not searches:  # built on the first decision, which names the game's seed
            searches = [build("mcts_learned", {"iterations": n}, USA.name) for n in (small, large)]
            streams = [random.Random(derive_seed(game_seed, n, 0)) for n in (small, large)]
        first, second = (search.act(observation, legal, stream) for search, stream in zip(searches, streams))
        if first == second:
            continue
        k = derive_seed(game_seed, 78, len(rows))
        own = math.nan
        if continuation:
            own = statistics.fmean(
                played_edge(state, first, second, derive_seed(k, r), "mcts_learned", {"iterations": continuation})
                for r in range(repeats))
        rows.append((played_edge(state, first, second, k), sampled_edge(observation, first, second, SAMPLES, k),
                     own, deal))
    return rows


def _mean(values: list[float], deals: list[int]) -> str:
    """The mean with its 95% interval by deal (a game's overrules share its deal)."""
    return "{:+.1f} ± {:.1f}".format(*clustered_mean(values, deals))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--playouts", type=int, default=1024)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=20261240)
    parser.add_argument("--belief", action="store_true", help="weigh the worlds by the opponent's tickets' fit")
    parser.add_argument("--no-split", action="store_true", help="only the true state and the determinizations")
    parser.add_argument("--against", type=int, help="a larger budget whose answers meet --playouts' answers")
    parser.add_argument("--continuation", type=int,
                        help="with --against: also play both answers on by the search itself at this many play-outs")
    parser.add_argument("--repeats", type=int, default=1, help="seeds of the search's own continuation per answer")
    parser.add_argument("--workers", type=int, default=1, help="processes for --against (the figures do not change)")
    args = parser.parse_args()
    if args.against:
        pairs = budget_edges(args.playouts, args.against, args.deals, args.seed, args.continuation,
                             args.repeats, args.workers)
        by = [r[3] for r in pairs]
        print(f"mcts_learned at {args.against} against {args.playouts} play-outs: {len(pairs)} decisions answered "
              f"differently in {args.deals} deals (seed {args.seed}); the larger's answer's edge, 95% by deal:")
        print(f"  played on by the planner: true state {_mean([r[0] for r in pairs], by)}; "
              f"determinizations {_mean([r[1] for r in pairs], by)}")
        if args.continuation:
            print(f"  played on by mcts_learned at {args.continuation} play-outs (true state, {args.repeats} seeds): "
                  f"{_mean([r[2] for r in pairs], by)}; paired, less the planner's: "
                  f"{_mean([r[2] - r[0] for r in pairs], by)}")
        return
    rows = overrule_edges(args.playouts, args.deals, args.seed, args.belief, not args.no_split)
    deals = [r[-1] for r in rows]
    if not rows:
        print(f"mcts_learned at {args.playouts} play-outs overruled the planner nowhere in {args.deals} deals")
        return
    if args.belief:
        print(f"mcts_learned at {args.playouts} play-outs: {len(rows)} overrules; edge in the true state "
              f"{_mean([r[1] for r in rows], deals)}; over {WORLDS} determinizations weighted by the belief:")
        for i, beta in enumerate(BETAS):
            print(f"  beta {beta}: {_mean([r[2][i][0] for r in rows], deals)}, paired less the true state "
                  f"{_mean([r[2][i][0] - r[1] for r in rows], deals)}, effective worlds "
                  f"{statistics.fmean(r[2][i][1] for r in rows):.1f} of {WORLDS}")
        return
    names = ("true state", "tickets resampled", "cards resampled", "all resampled")
    print(f"mcts_learned at {args.playouts} play-outs: {len(rows)} overrules in {args.deals} deals (seed {args.seed}); "
          "95% intervals by deal")
    for i, name in enumerate(names, start=1):
        if math.isnan(rows[0][i]):
            continue
        gap = "" if i == 1 else f"   paired, less the true state: {_mean([r[i] - r[1] for r in rows], deals)}"
        print(f"  {name:18} {_mean([r[i] for r in rows], deals)}{gap}")
    for kind in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == kind]
        means = " / ".join(f"{statistics.fmean(r[i] for r in mine):+.1f}" for i in range(1, 5))
        print(f"  overrules to {kind!r}: {len(mine)}, edge {means} (true / tickets / cards / all)")


if __name__ == "__main__":
    main()
