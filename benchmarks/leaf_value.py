"""Does a leaf value tell sibling moves apart as the planner's play-outs do?

A search compares the moves of one position, so what its leaf must get right is the difference a
move makes, not who is ahead. A value that predicts the final lead well can still be blind to one
move: every position of a game shares that game's outcome, and a move changes the tensor little.
This script asks that question directly, in seconds, before any game is played with the value.

In ``ticket_planner`` self-play on the USA map at 2 players (seeds ``--seed`` + game), at every
``--every``-th decision of seat 0 with more than three legal moves, it takes the root's moves as
``mcts_tree`` groups them (``search.root.root_moves``: the planner's move first) and values each:

- **play-outs**: the mean of seat 0's lead after the move, played to the end by the compiled
  planner at every seat, over ``--playouts`` samples of what seat 0 cannot see (the game's
  determinizer), every move on the same samples;
- **each value** (``--value PATH``, a network over the observation tensor alone; ``learned``: the
  shipped one): the position after the move valued exactly as ``mcts_tree``'s leaves value it with
  ``value: PATH, value_scale: --scale`` (``TreeSearch.leaf_value``: the kernel's tensor, from the
  view of the player to move, negated when that is the other seat).

Per position and value, the Pearson correlation over the root's moves of the value with the
play-outs (how alike they rank the moves, whatever their levels); the mean over positions with a
95% interval clustered by game. ``split half`` is the same correlation between two halves of the play-outs
(each on half the samples): how far two play-out estimates agree with each other, the level a
value would have to reach to stand in for them.

    python benchmarks/leaf_value.py --value results/train-usa-2p-value/network.npz --value learned \\
        --games 40 --playouts 16 --seed 555000
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ttr_lab.core.game import load_game
from ttr_lab.core.intervals import clustered_mean
from ttr_lab.games.ticket_to_ride.kernels.determinize import sample
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS
from ttr_lab.strategies.ticket_to_ride.planner_playouts import planner_playouts
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner
from ttr_lab.strategies.ticket_to_ride.search.mcts_tree import TreeSearch
from ttr_lab.strategies.ticket_to_ride.search.root import root_moves

SEAT = 0  # the seat whose decisions are valued


@dataclass
class Position:
    game: int
    playouts: np.ndarray  # per root move, the mean lead of its play-outs (the planner's move first)
    halves: tuple[np.ndarray, np.ndarray]  # the same on each half of the samples
    values: dict[str, np.ndarray] = field(default_factory=dict)  # per value, per root move, in points


def position(state: Any, anchor: Any, leaves: dict[str, TreeSearch], playouts: int, rng: random.Random,
             game_index: int) -> Position:
    """Every root move of ``state`` (``SEAT`` to move, ``anchor`` the planner's move) valued both ways."""
    sampler, moves = root_moves(state.observation(SEAT), anchor, rng)
    g = sampler.template.face.g
    leads = np.zeros((playouts, len(moves)))
    scores = np.zeros((1, 2), dtype=np.int64)
    for j in range(playouts):
        world = sampler.template.clone()
        sample(g, world.s, sampler.plan, sampler.work, sampler.longs_held, np.uint64(rng.getrandbits(64)))
        for i, move in enumerate(moves):
            after = world.clone()
            after.apply(after.face.actions[int(move)])
            planner_playouts(g, after.s, np.zeros(1, dtype=np.int64), DEFAULT_PARAMS, scores)
            leads[j, i] = scores[0, SEAT] - scores[0, 1 - SEAT]
    half = playouts // 2
    out = Position(game_index, leads.mean(axis=0), (leads[:half].mean(axis=0), leads[half:].mean(axis=0)))
    for name, leaf in leaves.items():
        values = np.zeros(len(moves))
        for i, move in enumerate(moves):
            after = state.clone()
            after.apply(after.face.actions[int(move)])
            if not after.is_terminal():
                values[i] = leaf.leaf_value(after, SEAT)
        out.values[name] = values
    return out


def positions(leaves: dict[str, TreeSearch], games: int, playouts: int, every: int, seed: int) -> list[Position]:
    game = load_game("ticket_to_ride", map="usa")
    out = []
    for k in range(games):
        state, rng = game.new_game(2, seed + k), random.Random(seed + k)
        seats = [TicketPlanner(), TicketPlanner()]
        decision = 0
        while not state.is_terminal():
            p = state.current_player
            legal = state.legal_actions()
            move = seats[p].act(state.observation(p), legal, rng)
            if p == SEAT and len(legal) > 3 and decision % every == 0:
                found = position(state, move, leaves, playouts, rng, k)
                if len(found.playouts) > 2:
                    out.append(found)
            state.apply(move)
            decision += 1
    return out


def agreement(found: list[Position], of: str | None) -> tuple[float, float]:
    """The mean over positions of the correlation over the root's moves of the value ``of`` with
    the play-outs (None: one half of the play-outs with the other), and the half width of its 95%
    interval clustered by game."""
    corrs, games = [], []
    for pos in found:
        a, b = pos.halves if of is None else (pos.values[of], pos.playouts)
        if a.std() > 0 and b.std() > 0:
            corrs.append(float(np.corrcoef(a, b)[0, 1]))
            games.append(pos.game)
    return clustered_mean(corrs, games)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--value", action="append", default=[], help="a network file, or learned (repeatable)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=16, help="play-outs per move (at least 2)")
    parser.add_argument("--every", type=int, default=6, help="value every so many decisions")
    parser.add_argument("--scale", type=float, default=10.0, help="points per unit of the value's logit")
    parser.add_argument("--seed", type=int, default=555000)
    args = parser.parse_args(argv)
    if args.playouts < 2:
        parser.error("--playouts must be at least 2 (the split half needs two halves)")
    leaves = {name: TreeSearch(value=name, value_scale=args.scale) for name in args.value}
    found = positions(leaves, args.games, args.playouts, args.every, args.seed)
    spread = np.mean([p.playouts.std() for p in found])
    print(f"{len(found)} positions of {args.games} games; play-outs: {args.playouts} a move, spread over a "
          f"position's moves {spread:.1f} points (sd)")
    mean, half = agreement(found, None)
    print(f"split half (play-outs with play-outs): correlation {mean:.3f} ± {half:.3f}")
    for name in leaves:
        mean, half = agreement(found, name)
        spread = np.mean([p.values[name].std() for p in found])
        print(f"{name}: correlation with the play-outs {mean:.3f} ± {half:.3f}; spread over a position's moves "
              f"{spread:.1f} points (sd)")


if __name__ == "__main__":
    main()
