"""``TicketInference``: which tickets an opponent holds, guessed from the tracks it claimed.

A determinization deals each opponent tickets uniformly from those the searcher has not seen,
so in the play-outs an opponent chases tickets it most likely does not hold. A player builds
towards its tickets, so a ticket whose cities its network already brings closer is a likelier
one. For each opponent ``q`` and each ticket ``t`` it may hold, the *saving* is how many trains
``q``'s claimed tracks take off the cheapest connection of ``t``'s cities (other players' tracks
impassable; cards not considered), and ``t`` weighs ``exp(beta * saving)``: a ticket whose
connection runs along ``q``'s network is that much likelier than one nowhere near it.

``reweigh(state, rng)`` moves a sample towards that distribution without changing anything
else about it: Gibbs sweeps from the uniform sample, each slot of an opponent's hand in turn
keeping its ticket or swapping it with one at an unseen position of the ticket deck, each
choice with its weight (the exact conditional distribution of that slot). Every swap exchanges two
tickets the searcher has not seen between two places it cannot see, so the sample stays
consistent with its observation. The weights are computed once per observation (two all-pairs
shortest paths per opponent).
"""

from __future__ import annotations

import math
import random

import numpy as np

from ttr_lab.games.ticket_to_ride import GameState, Observation


# The last observation's key and weights: a player searches the same board for several
# decisions in a row (draws, ticket choices), and one key per process is enough for that.
_LAST: list = [None, {}]


class TicketInference:
    """Ticket weights per opponent for one observation; ``reweigh`` applies them to a sample."""

    def __init__(self, obs: Observation, beta: float, sweeps: int = 1) -> None:
        self.beta, self.sweeps = beta, sweeps
        key = (obs.board, obs.num_players, obs.player, beta, tuple(obs.owner), tuple(obs.ticket_counts))
        if _LAST[0] == key:  # the board has not changed since the last search
            self.weights = _LAST[1]
            return
        tables = obs.tables
        board = obs.board
        cities = len(board.cities)
        ends, trains, owner = tables.track_ends, tables.track_trains, obs.owner
        self.weights: dict[int, dict[int, float]] = {}
        for q in range(obs.num_players):
            if q == obs.player or not obs.ticket_counts[q] or not any(o == q for o in owner):
                continue  # nothing claimed yet: every ticket as likely as the next
            base = np.full((cities, cities), np.inf)
            np.fill_diagonal(base, 0.0)
            free = base.copy()
            for t, (a, b) in enumerate(ends):
                if owner[t] >= 0 and owner[t] != q:
                    continue
                cost = float(trains[t])
                if cost < base[a, b]:
                    base[a, b] = base[b, a] = cost
                if owner[t] == q:
                    free[a, b] = free[b, a] = 0.0
                elif cost < free[a, b]:
                    free[a, b] = free[b, a] = cost
            base, free = _all_pairs(base), _all_pairs(free)
            weights = {}
            for ticket in board.tickets:
                # Cut off without the network: its cities are joined only through it, if at all.
                cut = not math.isfinite(base[ticket.a, ticket.b])
                weights[ticket.id] = 1.0 if cut else math.exp(beta * (base[ticket.a, ticket.b] - free[ticket.a, ticket.b]))
            self.weights[q] = weights
        _LAST[0], _LAST[1] = key, self.weights

    def reweigh(self, state: GameState, rng: random.Random) -> GameState:
        """``state`` (a determinization of the observation) with opponents' tickets resampled
        towards their weights, in place; returned for chaining."""
        if not self.weights:
            return state
        deck = list(state.ticket_deck)
        returned = state.returned_by
        unseen = [i for i, r in enumerate(returned) if r < 0]
        if not unseen:
            return state
        held = [list(t) for t in state.tickets]
        kinds = state.face.game.board.tickets
        for q, weights in self.weights.items():
            mine = held[q]
            for _ in range(self.sweeps):
                for i in range(len(mine)):
                    # Heat bath: slot i takes its own ticket or one at an unseen deck position,
                    # each with its weight (the exact conditional, the rest held fixed).
                    x = mine[i]
                    kind = kinds[x].deck
                    options = [j for j in unseen if kinds[deck[j]].deck is kind]
                    total = weights[x] + sum(weights[deck[j]] for j in options)
                    pick = rng.random() * total - weights[x]
                    if pick >= 0:
                        for j in options:
                            pick -= weights[deck[j]]
                            if pick < 0:
                                mine[i], deck[j] = deck[j], x
                                break
        state.tickets = [tuple(t) for t in held]
        state.ticket_deck = tuple(deck)  # the same length: who returned each position is kept
        return state


def _all_pairs(d: np.ndarray) -> np.ndarray:
    """Floyd-Warshall over a symmetric cost matrix (inf: no track)."""
    for k in range(d.shape[0]):
        np.minimum(d, d[:, k:k + 1] + d[k:k + 1, :], out=d)
    return d
