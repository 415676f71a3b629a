"""Why an action is refused, in words: the kernels decide (``apply_action`` returns a refusal
code and leaves the state unchanged), this module says it, reading the numbers from the state.

An action the action space does not hold at all (a track id off the board, a payment no track
accepts, a ticket index beyond any offer) never reaches a kernel; ``refusal`` names what is wrong
with it, checking in the order the rules are told (docs/rules.md), so the reason is the one a
player at the table would be given first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttr_lab.games.ticket_to_ride.actions import (
    BuildStation, Claim, DeclineTunnel, DrawBlind, DrawMarket, DrawTickets, KeepTickets, Pass, PayTunnel,
)
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, GRAY, LOCOMOTIVE, NUM_CARD_KINDS, NUM_COLOURS
from ttr_lab.games.ticket_to_ride.tables import Phase
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.network import twin_blocks, twin_closes

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.slots import StateSlots

_PHASE_REASONS = {
    Phase.OVER: "the game is over",
    Phase.INITIAL_TICKETS: "the player must first choose which initial tickets to keep",
    Phase.KEEP_TICKETS: "the player must first choose which drawn tickets to keep",
    Phase.SECOND_DRAW: "this is the second card draw; only 'draw blind' or a non-locomotive 'draw market N' is allowed",
    Phase.TURN: "that is only allowed in the middle of another action",
    Phase.TUNNEL: "the player must first pay the tunnel's extra cards or decline",
}

# The phases in which each kind of action may be played at all.
_PHASES_OF = {
    Claim: (Phase.TURN,), DrawBlind: (Phase.TURN, Phase.SECOND_DRAW), DrawMarket: (Phase.TURN, Phase.SECOND_DRAW),
    KeepTickets: (Phase.KEEP_TICKETS, Phase.INITIAL_TICKETS), DrawTickets: (Phase.TURN,), Pass: (Phase.TURN,),
    PayTunnel: (Phase.TUNNEL,), DeclineTunnel: (Phase.TUNNEL,),
    BuildStation: (Phase.TURN,),
}


def phase_reason(state: "StateSlots", action: Any) -> str:
    if type(action) not in _PHASES_OF:
        return f"{type(action).__name__} is not an action (use legal_actions() or parse_action())"
    return _PHASE_REASONS[Phase(state.phase)]


def refusal(state: "StateSlots", action: Any, code: int | None) -> str:
    """The reason ``action`` is refused: ``code`` from ``apply_action``, or None for an action the
    game's action space does not hold."""
    kind = type(action)
    if code == L.E_PHASE or kind not in _PHASES_OF or Phase(state.phase) not in _PHASES_OF[kind]:
        return phase_reason(state, action)
    p = state.player
    if kind is Claim:
        return _claim_reason(state, action, code)
    if kind is BuildStation:
        return _station_reason(state, action, code)
    if kind is DrawBlind:
        return "the draw pile and the discard pile are both empty"
    if kind is DrawMarket:
        if code == L.E_SECOND_LOCO:
            return "a face-up locomotive may not be taken as the second card"
        n = len(state.market)
        return f"the market has {n} cards (slots 0..{n - 1})"
    if kind is DrawTickets:
        return "the ticket deck is empty"
    if kind is Pass:
        return "a player may pass only when no other action is legal"
    if kind is PayTunnel:
        return _extra_reason(state, action, code)
    offered = len(state.offers[p])
    rules = state.tables.ruleset
    minimum = rules.initial_keep_min if state.phase == Phase.INITIAL_TICKETS else rules.ticket_keep_min
    if code == L.E_KEEP_FEW:
        return f"at least {min(minimum, offered)} of the {offered} offered tickets must be kept"
    return f"{offered} tickets are on offer (indices 0..{offered - 1}), each kept once"


def _extra_reason(state: "StateSlots", a: PayTunnel, code: int | None) -> str:
    extra = state.tunnel_extra
    if code == L.E_TUNNEL_EXTRA or (code is None and a.cards + a.locomotives != extra):
        return f"the tunnel asks {extra} extra card(s), the payment is {a.cards} + {a.locomotives} locomotives"
    hand = state.hands[state.player * NUM_CARD_KINDS:(state.player + 1) * NUM_CARD_KINDS]
    colour = state.tunnel_pending.colour if state.tunnel_pending is not None else LOCOMOTIVE
    if code == L.E_TUNNEL_LOCOS or (code is None and colour == LOCOMOTIVE and a.cards):
        return "the tunnel was paid with locomotives only, so its extra cards must be locomotives"
    if code == L.E_CARDS:
        return f"the player has {hand[colour]} {CARD_NAMES[colour]}, not {a.cards}"
    if code == L.E_LOCOS:
        return f"the player has {hand[LOCOMOTIVE]} locomotives, not {a.locomotives}"
    return f"{a} is not an extra payment of this game (the tunnel asks at most {state.tables.ruleset.tunnel_reveal})"


def _claim_reason(state: "StateSlots", a: Claim, code: int | None) -> str:
    g = state.tables
    t, colour, cards, locos = a.track, a.colour, a.cards, a.locomotives
    p = state.player
    if not isinstance(t, int) or not 0 <= t < len(g.track_length):
        return f"there is no track #{t}"
    owner = state.owner
    if owner[t] >= 0:
        return f"the track is already claimed by player {owner[t]}"
    twin = g.track_twin[t]
    if twin >= 0 and twin_blocks(owner[twin], p, g.doubles_shared):
        if twin_closes(owner[twin], g.doubles_shared):
            return f"with {g.num_players} players only one track of a double route may be claimed"
        return "a player may not claim both tracks of a double route"
    length = g.track_length[t]
    if code is None:  # not a payment this track accepts: say which rule of payment it breaks
        if cards + locos != length or cards < 0 or locos < 0:
            return f"the track needs {length} cards, the payment is {cards} + {locos} locomotives"
        track_colour = g.track_colour[t]
        if cards == 0 and colour != LOCOMOTIVE:
            return "a payment of only locomotives is written with colour LOCOMOTIVE"
        if cards and (colour == LOCOMOTIVE or not 0 <= colour < NUM_COLOURS or (track_colour != GRAY and colour != track_colour)):
            shown = CARD_NAMES[colour] if isinstance(colour, int) and 0 <= colour < NUM_CARD_KINDS else colour
            return f"a {CARD_NAMES[track_colour] if track_colour != GRAY else 'gray'} track cannot be paid with {shown}"
        if locos < g.track_ferry[t]:
            return f"this ferry needs at least {g.track_ferry[t]} locomotive(s)"
        return f"{a} is not a payment of this track"
    hand = state.hands[p * NUM_CARD_KINDS:(p + 1) * NUM_CARD_KINDS]
    if code == L.E_CARDS:
        return f"the player has {hand[colour]} {CARD_NAMES[colour]}, not {cards}"
    if code == L.E_LOCOS:
        return f"the player has {hand[LOCOMOTIVE]} locomotives, not {locos}"
    return f"the track needs {g.track_trains[t]} trains and the player has {state.trains[p]}"


def _station_reason(state: "StateSlots", a: BuildStation, code: int | None) -> str:
    rules = state.tables.ruleset
    cities = state.tables.board.cities
    p = state.player
    if not rules.stations_per_player:
        return "this game has no train stations (its ruleset's stations_per_player is 0)"
    if not 0 <= a.city < len(cities):
        return f"there is no city #{a.city}"
    built = state.stations_built[p]
    if built >= rules.stations_per_player:
        return f"the player has built all {rules.stations_per_player} of its stations"
    owner = state.stations[a.city]
    if owner >= 0:
        return f"{cities[a.city]} already holds a station (player {owner}'s)"
    cost = rules.station_costs[built]
    if code is None or code == L.E_STATION_COST:
        if a.cards + a.locomotives != cost:
            return (f"the player's station number {built + 1} costs {cost} card(s), "
                    f"the payment is {a.cards + a.locomotives}")
        if a.cards == 0 and a.colour != LOCOMOTIVE:
            return "a payment of only locomotives is written with colour LOCOMOTIVE"
        return f"{a} is not a payment of a station (one colour plus locomotives)"
    hand = state.hands[p * NUM_CARD_KINDS:(p + 1) * NUM_CARD_KINDS]
    if code == L.E_CARDS:
        return f"the player has {hand[a.colour]} {CARD_NAMES[a.colour]}, not {a.cards}"
    return f"the player has {hand[LOCOMOTIVE]} locomotives, not {a.locomotives}"
