"""Pieces shared by the four reference agents of the 2017 playtesting study.

Fernando de Mesentier Silva, Scott Lee, Julian Togelius and Andy Nealen, "AI-based Playtesting
of Contemporary Board Games" (FDG 2017) plays Ticket to Ride with four heuristic agents:
Destination Hungry, Route Focus, One Step Thinking and Long Route (see
``docs/reference-agents.md``). They play as the study's public engine plays them; the habits that
engine gives all of them are collected here:

- ``split_draws`` / ``payable_claims`` / ``pair_claims``: the legal actions sorted by kind (the
  legal list is searched for claims only when the hand can pay for a wanted track);
- ``keep_everything`` / ``fewest_points_keep``: the two ticket keeps the engine's agents end up
  making;
- ``hop_costs``: paths of fewest tracks (networkx ``shortest_path`` without weights);
- ``engine_payment``, ``engine_rank``, ``engine_draw``: the engine's claim order and payment, its
  ranking of equally long routes, and its card draws.

The one-route-at-a-time play of One Step Thinking and Long Route is ``ttr_lab.strategies.ticket_to_ride.step_agent``;
Destination Hungry's network is ``ttr_lab.strategies.ticket_to_ride.engine_plan``. Everything reads only the
``Observation`` given to the agent.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ttr_lab.games.ticket_to_ride import (
    GRAY, LOCOMOTIVE, NUM_COLOURS, Action, Claim, DrawBlind, DrawMarket, DrawTickets, KeepTickets, Observation,
    Tables,
)


# --- the legal actions, by kind ----------------------------------------------------------------

def split_draws(legal: Sequence[Action]) -> tuple[DrawBlind | None, list[DrawMarket], DrawTickets | None]:
    """The blind draw, the market draws and the ticket draw among ``legal`` (each may be absent).
    Draws come first in the engine's fixed order, so the scan stops at the first claim."""
    blind: DrawBlind | None = None
    tickets: DrawTickets | None = None
    market: list[DrawMarket] = []
    for a in legal:
        if type(a) is DrawMarket:
            market.append(a)
        elif type(a) is DrawBlind:
            blind = a
        elif type(a) is DrawTickets:
            tickets = a
        elif type(a) is Claim:
            break
    return blind, market, tickets


def ticket_draw(legal: Sequence[Action]) -> DrawTickets | None:
    return split_draws(legal)[2]


def claims_for(legal: Sequence[Action], tracks: Iterable[int]) -> dict[int, list[Claim]]:
    """The legal claims of the given tracks, grouped by track id."""
    wanted = set(tracks)
    out: dict[int, list[Claim]] = {}
    if not wanted:
        return out
    for a in legal:
        if type(a) is Claim and a.track in wanted:
            out.setdefault(a.track, []).append(a)
    return out


def payable_claims(obs: Observation, legal: Sequence[Action], tracks: Iterable[int]) -> dict[int, list[Claim]]:
    """``claims_for`` the tracks and their twins: the ones the hand can pay for now, as the
    engine's legal actions say (the payment rule is the game's, not restated here)."""
    group = obs.tables.twin_group
    return claims_for(legal, {option for t in tracks for option in group[t]})


def keep_options(legal: Sequence[Action]) -> list[KeepTickets]:
    return [a for a in legal if type(a) is KeepTickets]


def keep_everything(legal: Sequence[Action]) -> KeepTickets:
    """The keep with the most tickets (all of the offer)."""
    options = keep_options(legal)
    return max(options, key=lambda a: (len(a.indices), [-i for i in a.indices]))


def fewest_points_keep(obs: Observation, options: Sequence[KeepTickets]) -> KeepTickets:
    """The keep whose tickets are worth least in total (the smallest possible risk)."""
    tickets = obs.board.tickets
    offered = obs.offered
    return min(options, key=lambda a: (sum(tickets[offered[i]].points for i in a.indices), len(a.indices), a.indices))


def fallback(legal: Sequence[Action], rng) -> Action:
    """What the agents do when their heuristics name nothing: a random claim if there is one,
    else a random legal action (the study's engine falls back on a random move too)."""
    claims = [a for a in legal if type(a) is Claim]
    pool: Sequence[Action] = claims or legal
    return pool[rng.randrange(len(pool))]


# --- paying for a claim ------------------------------------------------------------------------

def _pile(hand: Sequence[int], claim: Claim) -> int:
    return 0 if claim.colour == LOCOMOTIVE else hand[claim.colour]


def plain_payment(claims: Sequence[Claim], hand: Sequence[int]) -> Claim:
    """Pay like the study's engine: as few locomotives as possible; on a gray track, the colour
    held most."""
    return min(claims, key=lambda a: (a.locomotives, -_pile(hand, a), a.colour))


def pair_claims(claims: dict[int, list[Claim]], track: int, tables: Tables) -> list[Claim]:
    """Legal claims of ``track`` or of its twin (both join the same two cities)."""
    return [a for t in tables.twin_group[track] for a in claims.get(t, ())]


# --- the study's engine, as its agents see it --------------------------------------------------

# The engine lists claims colour by colour in this order (red, orange, blue, pink, white, yellow,
# black, green); an agent taking "the first claim of a route" pays with the first colour here
# that works, that colour's cards first and locomotives for the rest.
ENGINE_COLOURS: tuple[int, ...] = (0, 1, 4, 5, 7, 2, 6, 3)


def hop_costs(costs: Sequence[int | float | None]) -> list[int | None]:
    """Every usable track (held or claimable) as one step: the engine's paths for three of the
    agents are networkx ``shortest_path`` without weights, i.e. fewest tracks, held ones included."""
    return [None if c is None else 1 for c in costs]


def engine_payment(claims: Sequence[Claim], hand: Sequence[int], tables: Tables, colours: Iterable[int] = ENGINE_COLOURS) -> Claim | None:
    """The claim the engine makes when asked for a route with colour ``c`` (tried in ``colours``
    order): on a track of colour ``c`` or gray, ``c`` cards first and locomotives for the rest (all
    locomotives when the hand has no ``c``). None when no listed colour pays."""
    by_track = sorted(claims, key=lambda a: a.track)
    colour_of = tables.track_colour
    for c in colours:
        for a in by_track:
            if colour_of[a.track] not in (c, GRAY):
                continue
            if hand[c] == 0:
                if a.colour == LOCOMOTIVE:
                    return a
            elif a.colour == c and a.cards == min(hand[c], a.cards + a.locomotives):
                return a
    return None


def engine_rank(hand: Sequence[int], colour: int, length: int, gray_in_hand: int) -> int:
    """How One Step Thinking and Long Route rank equally long routes for their hand, as in the
    engine: a gray route its largest colour pays ranks ``gray_in_hand``, a coloured one its own
    colour pays 10, 9 when locomotives make up the rest; otherwise the largest colour, whatever
    the route's colour, sets the rank (``9 - length + most``; ``10 - ...`` on gray)."""
    most = max(hand[:NUM_COLOURS])
    if colour == GRAY:
        if most >= length:
            return gray_in_hand
        return 9 if most + hand[LOCOMOTIVE] >= length else 10 - length + most
    if hand[colour] >= length:
        return 10
    return 9 if hand[colour] + hand[LOCOMOTIVE] >= length else 9 - length + most


def engine_draw(obs: Observation, legal: Sequence[Action], colour: int | None, locomotive: bool) -> Action | None:
    """The face-up card of ``colour`` (a card index; LOCOMOTIVE for a face-up locomotive), else a
    face-up locomotive when ``locomotive``, else a blind draw, else None."""
    blind, market, _ = split_draws(legal)
    cards = obs.market
    if colour is not None:
        for a in market:
            if cards[a.slot] == colour:
                return a
    if locomotive:
        for a in market:
            if cards[a.slot] == LOCOMOTIVE:
                return a
    return blind
