"""The fast policy and the position evaluation behind ``mcts``.

Both run inside one search, on *determinized* states (sampled by ``ttr_lab.determinize`` from
the searching player's observation), so reading the whole state here is not peeking: every
hidden part of it was sampled. They read it through the state's named readers (``hand``,
``held_tickets``, ``track_owners``, ``components``...), never its slots. They are built for
speed, not for the last bit of judgement:

- ``Playout.choose(state, legal)``: the player to move follows the cheapest route for its
  tickets (computed once per search on the board at the root), claims a route of it when it can
  pay, else draws the colours it lacks; with no route to build it claims long tracks for points.
  The search's tree opens this move first (``mcts._moves``); the play-outs below the tree are
  played by ticket planners.
- ``Playout.values(state)``: the final scores once the game is over, else a projected final
  score per player (``projected_scores``: route points, tickets completed or judged likely from
  the cards, trains and turns it still needs, and the points its cards and remaining turns may
  still bring); the search turns them into each player's lead over the best other player.
"""

from __future__ import annotations

import math
from typing import Sequence

from ttr_lab.strategies.ticket_to_ride.planning import costs_for, shortest_path, track_costs
from ttr_lab.games.ticket_to_ride import (
    GRAY, LOCOMOTIVE, NUM_COLOURS, Claim, DrawBlind, DrawMarket, GameState, KeepTickets, Observation, Phase,
    ticket_connected,
)


class Playout:
    """The fast policy and the evaluation for one root decision (caches the root board's routes)."""

    def __init__(
        self, obs: Observation, points_per_train: float = 1.6, train_rate: float = 1.3,
        block_risk: float | None = None,
    ) -> None:
        self.obs = obs
        self.tables = obs.tables
        self.points = obs.track_points
        self.tickets = obs.board.tickets
        self.points_per_train = points_per_train
        self.train_rate = train_rate
        # Chance that a track still to claim is taken by another player first.
        self.block_risk = 0.04 * (obs.num_players - 1) if block_risk is None else block_risk
        self.n = obs.num_players
        self._costs: dict[int, list] = {}
        self._paths: dict[tuple[int, int], tuple[int, ...] | None] = {}

    # -- routes on the root board ----------------------------------------------------------------

    def path(self, player: int, ticket: int) -> tuple[int, ...] | None:
        """The cheapest route for ``player``'s ``ticket`` on the board as it was at the root."""
        key = (player, ticket)
        if key in self._paths:
            return self._paths[key]
        costs = self._costs.get(player)
        if costs is None:
            costs = self._costs[player] = track_costs(self.obs, player=player)
        t = self.tickets[ticket]
        found = shortest_path(costs, self.tables, t.a, t.b)
        path = tuple(found[1]) if found else None
        self._paths[key] = path
        return path

    def targets(self, state: GameState, player: int) -> list[int]:
        """Tracks ``player`` still wants: on its tickets' routes and unclaimed, longest first."""
        owner = state.track_owners
        out = []
        for tk in state.held_tickets(player):
            path = self.path(player, tk)
            if path:
                for t in path:
                    if owner[t] < 0 and t not in out:
                        out.append(t)
        out.sort(key=lambda t: -self.tables.track_length[t])
        return out

    # -- the policy ------------------------------------------------------------------------------

    def choose(self, state: GameState, legal: Sequence) -> object:
        """The move this fast policy makes for the player to move."""
        phase = state.phase_name
        if len(legal) == 1 or phase is Phase.TUNNEL:  # a tunnel: the cheapest answer (listed first)
            return legal[0]
        p = state.current_player
        if phase is Phase.KEEP_TICKETS or phase is Phase.INITIAL_TICKETS:
            return self._keep(state, legal)
        targets = self.targets(state, p)
        if phase is Phase.TURN:
            claim = self._claim(state, legal, targets)
            if claim is not None:
                return claim
        return self._draw(state, legal, targets)

    def _keep(self, state: GameState, legal: Sequence) -> object:
        p = state.current_player
        offered = state.offered_tickets(p)

        def cost(a: KeepTickets) -> tuple:
            total = 0
            for i in a.indices:
                path = self.path(p, offered[i])
                total += 99 if path is None else sum(self.tables.track_length[t] for t in path)
            return (len(a.indices), total)

        return min(legal, key=cost)

    def _claim(self, state: GameState, legal: Sequence, targets: list[int]) -> object | None:
        claims = [a for a in legal if type(a) is Claim]
        if not claims:
            return None
        wanted = set(targets)
        tables = self.tables
        best, best_key = None, None
        trains = state.trains_left(state.current_player)
        for a in claims:
            t = a.track
            on_route = not wanted.isdisjoint(tables.twin_group[t])
            if not on_route and targets and trains > 6:
                continue  # keep the cards for the route
            if not on_route and tables.track_length[t] < 3 and trains > 3:
                continue
            key = (on_route, tables.track_length[t], -a.locomotives)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    def _draw(self, state: GameState, legal: Sequence, targets: list[int]) -> object:
        tables = self.tables
        hand = state.hand(state.current_player)
        need = [0] * NUM_COLOURS
        for t in targets:
            c = tables.track_colour[t]
            if c == GRAY:
                c = max(range(NUM_COLOURS), key=lambda k: hand[k])
            need[c] += tables.track_length[t] - tables.track_ferry[t]
        ferries = sum(tables.track_ferry[t] for t in targets)
        missing = sum(max(0, need[c] - hand[c]) for c in range(NUM_COLOURS)) + ferries - hand[LOCOMOTIVE]
        blind = None
        loco = None
        best, best_gap = None, 0
        for a in legal:
            if type(a) is DrawBlind:
                blind = a
            elif type(a) is DrawMarket:
                card = state.market_card(a.slot)
                if card == LOCOMOTIVE:
                    loco = a
                else:
                    gap = need[card] - hand[card]
                    if gap > best_gap:
                        best, best_gap = a, gap
        if best is not None:
            return best
        if loco is not None and (missing >= 3 or ferries > hand[LOCOMOTIVE]):
            return loco
        if blind is not None:
            return blind
        return legal[0]

    # -- evaluation ------------------------------------------------------------------------------

    def turns_left(self, state: GameState) -> list[float]:
        """Per player, the turns it may still expect: exact in the final round; before it, the
        player nearest the end places about ``train_rate`` trains a turn."""
        n = self.n
        final_turns = state.final_turns_left
        if final_turns >= 0:
            out = [0.0] * n
            for k in range(final_turns):
                out[(state.current_player + k) % n] = 1.0
            return out
        fewest = min(state.trains_left(p) for p in range(n))
        left = max(0.0, (fewest - state.ruleset.end_trains) / self.train_rate) + 1.0
        return [left] * n

    def current_path(self, state: GameState, player: int, ticket: int) -> tuple[int, ...] | None:
        """The cheapest route for a ticket on the board as it is now (for routes cut since the root)."""
        tables = self.tables
        costs = costs_for(tables, state.track_owners, player, state.trains_left(player))
        t = self.tickets[ticket]
        found = shortest_path(costs, tables, t.a, t.b)
        return tuple(found[1]) if found else None

    def projected_scores(self, state: GameState) -> list[float]:
        """Per player: route points, plus each ticket's value times (2 x its chance - 1), plus the
        points its cards and turns may still bring: about one point per card it holds or can
        draw (two a turn), but no more than its trains can carry (``points_per_train`` each)."""
        n = self.n
        tables = self.tables
        owner = state.track_owners
        turns = self.turns_left(state)
        scores = []
        for p in range(n):
            roots = state.components(p)
            hand = state.hand(p)
            trains = state.trains_left(p)
            score = float(state.route_points(p))
            pending: list[int] = []
            needed: list[int] = []
            for tk in state.held_tickets(p):
                ticket = self.tickets[tk]
                if ticket_connected(ticket, roots):
                    score += ticket.points
                    continue
                path = self.path(p, tk)
                if path is not None and any(owner[t] >= 0 and owner[t] != p for t in path):
                    path = self.current_path(state, p, tk)
                if path is None:
                    score -= ticket.points
                    continue
                pending.append(ticket.points)
                for t in path:
                    if owner[t] != p and t not in needed:
                        needed.append(t)
            # Resources: the plan for the pending tickets takes claims (turns), cards and
            # trains; what is left converts to about one point per card held or drawn (two a
            # turn), capped by the trains left. Claiming a planned track now or drawing now and
            # claiming later then come out even, as they should, but for the risk of being cut.
            cards = sum(hand)
            turns_free = turns[p]
            if needed:
                trains_needed = sum(tables.track_trains[t] for t in needed)
                need = [0] * NUM_COLOURS
                for t in needed:
                    c = tables.track_colour[t]
                    if c == GRAY:
                        c = max(range(NUM_COLOURS), key=lambda k: hand[k])
                    need[c] += tables.track_length[t] - tables.track_ferry[t]
                short = sum(max(0, need[c] - hand[c]) for c in range(NUM_COLOURS)) + sum(tables.track_ferry[t] for t in needed)
                missing = max(0, short - hand[LOCOMOTIVE])
                turns_needed = len(needed) + missing / 2.0
                if trains_needed > trains:
                    chance = 0.0
                else:
                    chance = 1.0 / (1.0 + math.exp(-(turns[p] - turns_needed) / 1.5))
                    # Each track still to claim may be taken first by someone else; a free
                    # parallel track (open to it whoever takes this one) makes that much less likely.
                    for t in needed:
                        spare = tables.spare_twin(owner, t)
                        chance *= 1.0 - self.block_risk * (0.3 if spare else 1.0)
                plan_points = sum(self.points[t] for t in needed)
                score += chance * plan_points + sum(v * (2.0 * chance - 1.0) for v in pending)
                if chance > 0.0:
                    used = sum(need) - missing  # cards from hand (and locomotives) the plan spends
                    cards -= used
                    turns_free -= turns_needed
                    trains -= trains_needed
            score += max(0.0, min(cards + 2.0 * max(0.0, turns_free), self.points_per_train * trains))
            scores.append(score)
        return scores

    def values(self, state: GameState) -> list[float]:
        """Per player, its final score once the game is over, else its projected score (the
        search's evaluation)."""
        if state.is_terminal():
            return [float(x) for x in state.result().scores]
        return self.projected_scores(state)
