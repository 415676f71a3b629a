"""``LegalActions``: every legal action of a position, in the stable order the game promises.

The hot path of any search (it runs at every node), kept apart from ``apply`` in state.py; a
mixin of ``GameState``, so it reads the state's slots directly. Every action it returns is a
shared object of the game's ``ActionTable`` (actions.py), so it allocates nothing but the list.
"""

from __future__ import annotations

from ttr_lab.games.ticket_to_ride.actions import DRAW_BLIND, DRAW_TICKETS, PASS, Action
from ttr_lab.games.ticket_to_ride.colours import GRAY, LOCOMOTIVE, NUM_CARD_KINDS, NUM_COLOURS
from ttr_lab.games.ticket_to_ride.game import Phase
from ttr_lab.games.ticket_to_ride.slots import StateSlots

_SETUP, _TURN, _SECOND, _KEEP, _OVER = (int(p) for p in Phase)
_K = NUM_CARD_KINDS


class LegalActions(StateSlots):
    __slots__ = ()

    def legal_actions(self) -> list[Action]:
        """Every legal action, in a fixed order: draws, tickets, then claims (by track colour,
        length, track id, payment colour, locomotives); during a ticket choice, the subsets to keep. ``[PASS]`` when nothing else is
        legal; ``[]`` once the game is over."""
        phase = self.phase
        if phase == _TURN:
            out = self._draw_actions(first=True)
            if self.ticket_deck:
                out.append(DRAW_TICKETS)
            self._claims_into(out)
            return out or [PASS]
        if phase == _SECOND:
            return self._draw_actions(first=False)
        if phase == _SETUP or phase == _KEEP:
            minimum = self.game.ruleset.initial_keep_min if phase == _SETUP else self.game.ruleset.ticket_keep_min
            return list(self.game.actions.keep_options(len(self.offers[self.player]), minimum))
        return []

    def _draw_actions(self, first: bool) -> list[Action]:
        out: list[Action] = [DRAW_BLIND] if self.pile else []
        slots = self.game.actions.draw_market
        if first:
            out.extend(slots[: len(self.market)])
        else:
            out.extend(slots[i] for i, card in enumerate(self.market) if card != LOCOMOTIVE)
        return out

    def _claims_into(self, out: list) -> None:
        g = self.game
        p = self.player
        base = p * _K
        hand = self.hands[base:base + _K]
        locos = hand[LOCOMOTIVE]
        trains = self.trains[p]
        claims = g.actions.claims
        owner = self.owner
        twins = g.twin_or_self
        blocked = g.twin_blocks_for[p]  # tracks closed for everyone are not in open_groups at all
        check = g.twin_blocks_open
        groups = self.open_groups
        colour_groups = g.colour_groups
        for colour in range(NUM_COLOURS):
            have = hand[colour]
            available = have + locos
            if not available:
                continue
            for length, ferry, need, gi in colour_groups[colour]:
                if length > available:
                    break
                group = groups[gi]
                if not group or need > trains:
                    continue
                kmin = length - have
                if kmin < ferry:
                    kmin = ferry
                if kmin > locos:
                    continue
                lo = kmin - ferry
                hi = (length if locos > length else locos) - ferry + 1
                for t in group:
                    if check and blocked[owner[twins[t]]]:
                        continue
                    out.extend(claims[t][colour][lo:hi])
        held = [c for c in range(NUM_COLOURS) if hand[c]]
        most = max(hand[c] for c in held) + locos if held else locos
        all_locos = g.actions.all_locos
        for length, ferry, need, gi in colour_groups[GRAY]:
            if length > most:
                break
            group = groups[gi]
            if not group or need > trains:
                continue
            kmax = length - 1 if locos >= length else locos
            spans = []
            for c in held:
                kmin = length - hand[c]
                if kmin < ferry:
                    kmin = ferry
                if kmin <= kmax:
                    spans.append((c, kmin - ferry, kmax - ferry + 1))
            only_locos = locos >= length
            if not spans and not only_locos:
                continue
            for t in group:
                if check and blocked[owner[twins[t]]]:
                    continue
                row = claims[t]
                for c, lo, hi in spans:
                    out.extend(row[c][lo:hi])
                if only_locos:
                    out.append(all_locos[t])
