"""Which hidden information makes ``mcts_learned`` overrule the planner where it should not?

``ttr-lab bench strength --section convergence`` shows that the race's overrules of the planner
gain some 10-12 points in the worlds it samples (``game.determinize``) and 1-3 in the game's true
state, both played out by the ``ticket_planner`` strategy. This script splits that gap between
the two unknowns of a two-player Ticket to Ride position. For each overrule at one play-out
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

    python benchmarks/hidden_information.py --playouts 1024 --deals 10 --seed 20261240
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from typing import Any, Callable

from ttr_lab.bench.convergence import USA, _played_edge
from ttr_lab.core.registry import build
from ttr_lab.core.rng import derive_seed

SAMPLES = 16  # resampled worlds per overrule and kind


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


def overrule_edges(playouts: int, deals: int, seed: int) -> list[tuple[str, float, float, float, float]]:
    """Per overrule: the kind of move, and its edge in the true state, with the tickets
    resampled, with the cards resampled, and in the game's determinizations."""
    rows = []
    for deal in range(deals):
        game_seed = derive_seed(seed, 0xC0C0, deal)
        state = USA.new_game(2, game_seed)
        players = [build("ticket_planner", {}, USA.name) for _ in range(2)]
        shadow = build("mcts_learned", {"iterations": playouts}, USA.name)
        stream = random.Random(derive_seed(game_seed, playouts, 0))
        rng = random.Random(game_seed)
        while not state.is_terminal():
            p = state.current_player
            observation, legal = state.observation(p), state.legal_actions()
            action = players[p].act(observation, legal, rng)
            if p == 0:
                shadow.last_playouts = 0
                chosen = shadow.act(observation, legal, stream)
                if shadow.last_playouts > 0 and chosen != action:
                    k = derive_seed(game_seed, 77, len(rows))
                    worlds = random.Random(k)
                    makers: list[Callable[[], Any]] = [
                        lambda: tickets_resampled(state, 0, worlds),
                        lambda: cards_resampled(state, 0, worlds),
                        lambda: USA.determinize(observation, worlds),
                    ]
                    means = [statistics.fmean(_played_edge(make(), action, chosen, k) for _ in range(SAMPLES))
                             for make in makers]
                    rows.append((str(chosen).split()[0], _played_edge(state, action, chosen, k), *means))
            state.apply(action)
    return rows


def _mean(values: list[float]) -> str:
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{statistics.fmean(values):+.1f} ± {half:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--playouts", type=int, default=1024)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=20261240)
    args = parser.parse_args()
    rows = overrule_edges(args.playouts, args.deals, args.seed)
    names = ("true state", "tickets resampled", "cards resampled", "all resampled")
    print(f"mcts_learned at {args.playouts} play-outs: {len(rows)} overrules in {args.deals} deals (seed {args.seed})")
    for i, name in enumerate(names, start=1):
        gap = "" if i == 1 else f"   paired, less the true state: {_mean([r[i] - r[1] for r in rows])}"
        print(f"  {name:18} {_mean([r[i] for r in rows])}{gap}")
    for kind in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == kind]
        means = " / ".join(f"{statistics.fmean(r[i] for r in mine):+.1f}" for i in range(1, 5))
        print(f"  overrules to {kind!r}: {len(mine)}, edge {means} (true / tickets / cards / all)")


if __name__ == "__main__":
    main()
