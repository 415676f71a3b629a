"""Pieces shared by the four reference agents of the 2017 playtesting study.

Fernando de Mesentier Silva, Scott Lee, Julian Togelius and Andy Nealen, "AI-based Playtesting
of Contemporary Board Games" (FDG 2017) plays Ticket to Ride with four heuristic agents:
Destination Hungry, Route Focus, One Step Thinking and Long Route (see
``docs/reference-agents.md``). They share a few habits, collected here on top of the planning
toolkit (``strategies.planning``, whose ``shortest_path``, ``plan_tickets`` and ``claims_by_track``
they use directly) and the rules package (``Observation.track_points``, ``components``):

- ``split_draws`` / ``claims_for`` / ``payable_claims``: the legal actions sorted by kind
  (the legal list is searched for claims only when the hand can pay for a wanted track);
- ``draw_towards``: take the face-up card the agent wants most, else draw blind;
- ``plain_payment`` / ``reserving_payment``: choose among the payments the engine lists;
- ``PlanMemo``: remembers the tracks a plan uses and the board it was made on, and tells when a
  new position may have changed the plan, so a game does not rerun path searches every turn;
- ``ticket_trains``, ``extend_plan``, ``longest_target``, ``hand_fit``: ticket and route
  evaluation.

The one-route-at-a-time play of One Step Thinking and Long Route (``StepAgent``) and their
ticket keep (``ratio_keep``) are in ``strategies.step_agent``. Everything reads only the
``Observation`` given to the agent.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from strategies.planning import payable, Network, network, shortest_path
from ttr_lab.games.ticket_to_ride import (
    GRAY, LOCOMOTIVE, NUM_COLOURS, Action, Claim, DrawBlind, DrawMarket, DrawTickets, KeepTickets, Observation,
    ticket_connected, twin_closes,
)


# --- the legal actions, by kind ----------------------------------------------------------------

def split_draws(legal: Sequence[Action]) -> tuple[DrawBlind | None, list[DrawMarket], DrawTickets | None]:
    """The blind draw, the market draws and the ticket draw among ``legal`` (each may be absent).
    Draws come first in the engine's fixed order, so the scan stops at the first claim."""
    blind = tickets = None
    market: list[DrawMarket] = []
    for a in legal:
        kind = type(a)
        if kind is DrawMarket:
            market.append(a)
        elif kind is DrawBlind:
            blind = a
        elif kind is DrawTickets:
            tickets = a
        elif kind is Claim:
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
    """``claims_for`` the tracks (and their twins) the hand can pay for; the legal list is only
    searched when one of them passes ``payable``."""
    twin = network(obs.board).twin
    owner = obs.owner
    candidates = set()
    for t in tracks:
        for option in (t, twin[t]):
            if option >= 0 and owner[option] < 0 and payable(obs, option):
                candidates.add(option)
    return claims_for(legal, candidates)


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
    pool = claims or list(legal)
    return pool[rng.randrange(len(pool))]


# --- drawing cards -----------------------------------------------------------------------------

def draw_towards(obs: Observation, legal: Sequence[Action], want: Sequence[float], locomotive: float = 0.0) -> Action | None:
    """The face-up card with the highest positive ``want`` (per colour 0..7; a face-up
    locomotive is worth ``locomotive``), else a blind draw, else any face-up card, else None.
    Ties go to the leftmost slot."""
    blind, market, _ = split_draws(legal)
    best, best_value = None, 0.0
    cards = obs.market
    for a in market:
        card = cards[a.slot]
        value = locomotive if card == LOCOMOTIVE else want[card]
        if value > best_value:
            best, best_value = a, value
    if best is not None:
        return best
    if blind is not None:
        return blind
    return market[0] if market else None


def colour_wish(colour: int | None) -> list[float]:
    """A ``want`` vector that asks for one colour only (or nothing for None)."""
    want = [0.0] * NUM_COLOURS
    if colour is not None and 0 <= colour < NUM_COLOURS:
        want[colour] = 1.0
    return want


def most_held_colour(hand: Sequence[int]) -> int:
    """The train colour the hand holds most of (lowest index on ties)."""
    best = 0
    for c in range(1, NUM_COLOURS):
        if hand[c] > hand[best]:
            best = c
    return best


# --- paying for a claim ------------------------------------------------------------------------

def _pile(hand: Sequence[int], claim: Claim) -> int:
    return 0 if claim.colour == LOCOMOTIVE else hand[claim.colour]


def plain_payment(claims: Sequence[Claim], hand: Sequence[int]) -> Claim:
    """Pay like the study's engine: as few locomotives as possible; on a gray track, the colour
    held most."""
    return min(claims, key=lambda a: (a.locomotives, -_pile(hand, a), a.colour))


def reserving_payment(claims: Sequence[Claim], hand: Sequence[int], reserved: Sequence[int]) -> Claim:
    """Pay without touching cards other planned tracks need (``reserved`` per colour) when
    possible; then with as few locomotives as possible; then from the larger pile."""

    def key(a: Claim) -> tuple:
        if a.colour == LOCOMOTIVE:
            eaten = 0
        else:
            eaten = max(0, a.cards - max(0, hand[a.colour] - reserved[a.colour]))
        return (eaten, a.locomotives, -_pile(hand, a), a.colour)

    return min(claims, key=key)


def pair_claims(claims: dict[int, list[Claim]], track: int, net: Network) -> list[Claim]:
    """Legal claims of ``track`` or of its twin (both join the same two cities)."""
    out = list(claims.get(track, ()))
    twin = net.twin[track]
    if twin >= 0:
        out += claims.get(twin, ())
    return out


# --- remembering a plan ------------------------------------------------------------------------

class PlanMemo:
    """The tracks a plan uses and the position it was made in.

    ``valid(obs)`` says whether the plan is still what a fresh search would find: the tickets are
    the same, nobody else took or closed a planned track, the player claimed nothing outside the
    plan (nor anything at all, for a plan serving several tickets), and every planned track
    still fits in the player's trains. Claims elsewhere by others only remove tracks the plan
    does not use, so a cheapest path stays cheapest; that is what lets the agents plan again
    only when the plan is touched, as the study's engine planned again whenever anybody scored.
    """

    __slots__ = ("owner", "tickets", "tracks", "members", "joint")

    def __init__(self) -> None:
        self.owner: tuple[int, ...] | None = None
        self.tickets: tuple[int, ...] = ()
        self.tracks: tuple[int, ...] = ()
        self.members: frozenset[int] = frozenset()
        self.joint = False

    def remember(self, obs: Observation, tracks: Iterable[int], joint: bool = False) -> None:
        """Store a plan; ``joint`` when it serves several tickets at once (then a claim of the
        player's own may open a cheaper way for the other tickets, so it also ends the plan)."""
        self.joint = joint
        self.owner = obs.owner
        self.tickets = obs.tickets
        self.tracks = tuple(tracks)
        self.members = frozenset(self.tracks)

    def valid(self, obs: Observation) -> bool:
        before = self.owner
        if before is None or obs.tickets != self.tickets:
            return False
        owner = obs.owner
        if owner == before:
            return True
        me = obs.player
        members = self.members
        twin = network(obs.board).twin
        shared = obs.doubles_shared
        for t, (old, new) in enumerate(zip(before, owner)):
            if old == new:
                continue
            if new == me:
                if t not in members or self.joint:
                    return False
            elif t in members or (twin_closes(new, shared) and twin[t] in members):
                return False
        trains = obs.trains[me]
        need = network(obs.board).trains
        for t in self.tracks:
            if owner[t] < 0 and need[t] > trains:
                return False
        self.owner = owner
        return True

    def remaining(self, obs: Observation) -> list[int]:
        """Planned tracks the player does not hold yet, in plan order."""
        owner, me = obs.owner, obs.player
        return [t for t in self.tracks if owner[t] != me]


# --- evaluating tickets and routes -------------------------------------------------------------

def ticket_trains(
    obs: Observation, costs: Sequence[int | None], ticket: int, roots: Sequence[int]
) -> int | None:
    """Trains still needed to complete ``ticket`` on its own cheapest path (0 if done), or None
    if no path is left."""
    t = obs.board.tickets[ticket]
    if ticket_connected(t, roots):
        return 0
    found = shortest_path(costs, network(obs.board), t.a, t.b)
    return None if found is None else found[0]


def route_one(
    obs: Observation, costs: list[int | None], ticket: int, roots: Sequence[int]
) -> tuple[list[int], int] | None:
    """Route one ticket over ``costs`` (tracks already planned cost 0): the tracks it adds and
    the trains they take, or None if no path is left. ``costs`` is updated in place (the added
    tracks become free, so later tickets share them)."""
    t = obs.board.tickets[ticket]
    if ticket_connected(t, roots):
        return [], 0
    found = shortest_path(costs, network(obs.board), t.a, t.b)
    if found is None:
        return None
    added = []
    for track in found[1]:
        if costs[track]:
            added.append(track)
            costs[track] = 0
    return added, found[0]


def extend_plan(
    obs: Observation, costs: list[int | None], tickets: Iterable[int], roots: Sequence[int],
    cache: dict | None = None,
) -> tuple[list[int], int, list[int]]:
    """Route ``tickets`` (most valuable first) on top of ``costs``, where tracks already planned
    cost 0; returns the tracks added, the trains they take and the tickets no path completes.
    ``costs`` is not changed. Offers are evaluated subset by subset, so ``cache`` (a dict kept
    across calls with the same ``costs``) shares the routing of common leading tickets."""
    board_tickets = obs.board.tickets
    order = tuple(sorted(tickets, key=lambda k: (-board_tickets[k].points, k)))
    cache = {} if cache is None else cache
    state = cache.get(())
    if state is None:
        state = cache[()] = (list(costs), [], 0, [])
    for n in range(1, len(order) + 1):
        key = order[:n]
        nxt = cache.get(key)
        if nxt is None:
            now, added, trains, lost = state
            now = list(now)
            routed = route_one(obs, now, order[n - 1], roots)
            if routed is None:
                nxt = (now, added, trains, lost + [order[n - 1]])
            else:
                nxt = (now, added + routed[0], trains + routed[1], lost)
            cache[key] = nxt
        state = nxt
    return list(state[1]), state[2], list(state[3])


def hand_fit(hand: Sequence[int], colour: int, length: int, gray_in_hand: int = 10) -> int:
    """How ready the hand is to pay a track, as the study's agents rank equally long routes:
    ``gray_in_hand`` (gray) or 10 (coloured) when the colour alone pays it, 9 when locomotives
    make up the rest, less the more cards are missing."""
    have = max(hand[:NUM_COLOURS]) if colour == GRAY else hand[colour]
    if have >= length:
        return gray_in_hand if colour == GRAY else 10
    if have + hand[LOCOMOTIVE] >= length:
        return 9
    return 9 - length + have


def longest_target(obs: Observation, costs: Sequence[int | None], gray_in_hand: int = 10) -> int | None:
    """The longest track the player can still claim (ties: the hand fits it best, then the
    lowest id), or None."""
    net = network(obs.board)
    hand = obs.hand
    best, best_key = None, None
    for t, c in enumerate(costs):
        if not c:  # None (not claimable) or 0 (already held)
            continue
        key = (net.length[t], hand_fit(hand, net.colour[t], net.length[t], gray_in_hand), -t)
        if best_key is None or key > best_key:
            best, best_key = t, key
    return best


def track_colour_for(obs: Observation, track: int) -> int:
    """The card colour to collect for ``track``: its own colour; on gray, the colour held most;
    on a double route whose twin is open too, whichever of the two colours the hand holds more."""
    net = network(obs.board)
    hand = obs.hand
    options = [track]
    twin = net.twin[track]
    if twin >= 0 and obs.owner[twin] < 0:
        options.append(twin)
    best_colour, best_count = None, -1
    for t in options:
        c = net.colour[t]
        if c == GRAY:
            c = most_held_colour(hand)
        if hand[c] > best_count:
            best_colour, best_count = c, hand[c]
    assert best_colour is not None
    return best_colour


# --- the study's engine, as its agents see it --------------------------------------------------

# The engine lists claims colour by colour in this order (red, orange, blue, pink, white, yellow,
# black, green); an agent taking "the first claim of a route" pays with the first colour here
# that works, that colour's cards first and locomotives for the rest.
ENGINE_COLOURS: tuple[int, ...] = (0, 1, 4, 5, 7, 2, 6, 3)


def hop_costs(costs: Sequence[int | float | None]) -> list[int | None]:
    """Every usable track (held or claimable) as one step: the engine's paths for three of the
    agents are networkx ``shortest_path`` without weights, i.e. fewest tracks, held ones included."""
    return [None if c is None else 1 for c in costs]


def engine_payment(claims: Sequence[Claim], hand: Sequence[int], net: Network, colours: Iterable[int] = ENGINE_COLOURS) -> Claim | None:
    """The claim the engine makes when asked for a route with colour ``c`` (tried in ``colours``
    order): on a track of colour ``c`` or gray, ``c`` cards first and locomotives for the rest (all
    locomotives when the hand has no ``c``). None when no listed colour pays."""
    by_track = sorted(claims, key=lambda a: a.track)
    for c in colours:
        for a in by_track:
            if net.colour[a.track] not in (c, GRAY):
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
