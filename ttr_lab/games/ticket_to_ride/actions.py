"""Actions: frozen, hashable values with a readable text form and a parser back.

The action language (one action per line, case-insensitive)::

    draw blind                       take the top card of the draw pile
    draw market 2                    take face-up card in market slot 2 (slots 0..4, left to right,
                                     or up to the ruleset's market_size - 1)
    tickets                          draw destination tickets
    keep 0,2                         keep offered tickets 0 and 2 (indices into the offer)
    claim Denver-Kansas City black with 3 black + 1 loco
    claim Atlanta-Charleston gray with 2 red
    claim Atlanta-Raleigh gray#2 with 2 loco
    pay 1 card + 1 loco              a tunnel's extra cards: cards of the colour the claim was
                                     paid with, plus locomotives ('pay 2 loco', 'pay 1 card')
    decline                          give up the tunnel: the laid cards go back to the hand
    station Berlin with 2 red + 1 loco   build a train station (maps with stations)
    station Wien with 3 loco
    pass                             only when no other action is legal

A claim names its track as ``CityA-CityB colour`` (cities in either order; ``#1``/``#2`` tells the
two tracks of a double route with the same colour apart; the colour may be left out when only one
track joins the cities; ``#57`` is track id 57) and its payment as ``N colour + M loco``. Paying
only locomotives is written ``with 4 loco``. The payment is part of the action, so
``legal_actions()`` lists every distinct payment the hand allows. A station names its city and
its payment the same way: the cards of the player's next station (``Ruleset.station_costs``), of
one colour plus locomotives, or only locomotives.

Every action a state offers is one shared object from the game's ``ActionTable``, built once per
board and market size, so generating legal actions allocates nothing but the list.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence, Union

from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, GRAY, LOCOMOTIVE, NUM_COLOURS, card_index
from ttr_lab.core.actions import check_whole_numbers
from ttr_lab.core.errors import IllegalActionError

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.board import Board, Track
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class DrawBlind:
    def __str__(self) -> str:
        return "draw blind"


@dataclass(frozen=True, slots=True)
class DrawMarket:
    slot: int

    def __post_init__(self) -> None:
        check_whole_numbers(self, "slot")

    def __str__(self) -> str:
        return f"draw market {self.slot}"


@dataclass(frozen=True, slots=True)
class DrawTickets:
    def __str__(self) -> str:
        return "tickets"


@dataclass(frozen=True, slots=True)
class KeepTickets:
    indices: tuple[int, ...]  # sorted indices into the tickets on offer

    def __post_init__(self) -> None:
        if type(self.indices) is not tuple or any(type(i) is not int for i in self.indices):
            raise IllegalActionError(f"KeepTickets.indices must be a tuple of whole numbers (int), not {self.indices!r}")

    def __str__(self) -> str:
        return "keep " + (",".join(map(str, self.indices)) or "none")


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim ``track`` paying ``cards`` cards of ``colour`` plus ``locomotives`` locomotives.

    When only locomotives are paid, ``colour`` is ``LOCOMOTIVE`` and ``cards`` is 0, so every
    distinct payment has exactly one representation.
    """

    track: int
    colour: int
    cards: int
    locomotives: int
    label: str = field(default="", compare=False)  # the track's name, for str()

    def __post_init__(self) -> None:
        check_whole_numbers(self, "track", "colour", "cards", "locomotives")

    def __str__(self) -> str:
        return f"claim {self.label or f'#{self.track}'} with {payment_text(self.colour, self.cards, self.locomotives)}"


@dataclass(frozen=True, slots=True)
class PayTunnel:
    """Pay the extra cards a tunnel claim asks: ``cards`` of the colour the claim was paid with
    plus ``locomotives`` (only locomotives when the claim was paid with locomotives only)."""

    cards: int
    locomotives: int

    def __post_init__(self) -> None:
        check_whole_numbers(self, "cards", "locomotives")

    def __str__(self) -> str:
        parts = [f"{self.cards} card{'s' if self.cards != 1 else ''}"] if self.cards else []
        if self.locomotives or not parts:
            parts.append(f"{self.locomotives} loco")
        return "pay " + " + ".join(parts)


@dataclass(frozen=True, slots=True)
class DeclineTunnel:
    """Give up a tunnel claim rather than pay its extra cards: the laid cards go back to the
    hand, no track is claimed, and the turn ends."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class BuildStation:
    """Build a train station on ``city`` paying ``cards`` cards of ``colour`` plus ``locomotives``
    locomotives (their sum is the cost of the player's next station). Only locomotives: ``colour``
    is ``LOCOMOTIVE`` and ``cards`` 0, as for a claim."""

    city: int
    colour: int
    cards: int
    locomotives: int
    label: str = field(default="", compare=False)  # the city's name, for str()

    def __post_init__(self) -> None:
        check_whole_numbers(self, "city", "colour", "cards", "locomotives")

    def __str__(self) -> str:
        return f"station {self.label or f'#{self.city}'} with {payment_text(self.colour, self.cards, self.locomotives)}"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class TicketsKept:
    """The public record of a ``keep`` by another player: how many, never which."""

    count: int

    def __post_init__(self) -> None:
        check_whole_numbers(self, "count")

    def __str__(self) -> str:
        return f"kept {self.count}"


Action = Union[DrawBlind, DrawMarket, DrawTickets, KeepTickets, PayTunnel, DeclineTunnel, BuildStation, Claim,
               Pass]

DRAW_BLIND = DrawBlind()
DRAW_TICKETS = DrawTickets()
DECLINE = DeclineTunnel()
PASS = Pass()


def payment_text(colour: int, cards: int, locomotives: int) -> str:
    parts = []
    if cards:
        parts.append(f"{cards} {CARD_NAMES[colour]}")
    if locomotives or not parts:
        parts.append(f"{locomotives} loco")
    return " + ".join(parts)


class ActionTable:
    """Every action of one board and market size, built once: the legal-action generator slices
    these lists.

    ``draw_market[i]`` is ``DrawMarket(i)``, one per market slot. ``claims[t][c]`` lists the
    claims of track ``t`` paid with colour ``c`` (the track's own colour, or any colour on gray),
    by number of locomotives from the ferry minimum up; for a coloured track the last entry pays
    only locomotives. ``all_locos[t]`` is that only-locomotive payment (also on gray tracks). The
    claims depend on the board alone, so tables of one board share them.
    """

    def __init__(self, board: "Board", market_size: int) -> None:
        self.draw_market = tuple(DrawMarket(i) for i in range(market_size))
        self.claims, self.all_locos, self._claim_by_key = _claims(board)
        self._keep: dict[tuple[int, int], tuple[KeepTickets, ...]] = {}

    def keep_options(self, offered: int, min_keep: int) -> tuple[KeepTickets, ...]:
        """Every subset of ``range(offered)`` with at least ``min_keep`` members, lexicographic."""
        key = (offered, min(min_keep, offered))
        options = self._keep.get(key)
        if options is None and offered == 0:  # nothing was left to offer: keep nothing
            options = self._keep[key] = (keep_action(()),)
        if options is None:
            subsets = [
                keep_action(combo)
                for size in range(max(key[1], 1), offered + 1)
                for combo in itertools.combinations(range(offered), size)
            ]
            subsets.sort(key=lambda a: a.indices)
            options = self._keep[key] = tuple(subsets)
        return options

    def claim(self, track: int, colour: int, locomotives: int) -> Claim | None:
        """The shared Claim object for a payment, or None if no such payment exists."""
        return self._claim_by_key.get((track, colour, locomotives))


def action_table(board: "Board", market_size: int | None = None) -> ActionTable:
    """The one ActionTable of a board and market size (the board's own ruleset's by default)."""
    return _table(board, board.ruleset.market_size if market_size is None else market_size)


@functools.lru_cache(maxsize=None)
def keep_action(indices: tuple[int, ...]) -> KeepTickets:
    """The one shared ``KeepTickets(indices)``: the tables and the action space hold the same
    objects, so checking the action space's objects checks every keep a state offers."""
    return KeepTickets(indices)


@functools.lru_cache(maxsize=None)
def _table(board: "Board", market_size: int) -> ActionTable:
    return ActionTable(board, market_size)


@functools.lru_cache(maxsize=None)
def _claims(board: "Board") -> tuple[list[dict[int, tuple[Claim, ...]]], list[Claim], dict[tuple[int, int, int], Claim]]:
    """Every claim of a board: per track, its claims by payment colour; per track, the
    only-locomotive payment; and each claim by (track, colour, locomotives)."""
    claims: list[dict[int, tuple[Claim, ...]]] = []
    all_locos: list[Claim] = []
    by_key: dict[tuple[int, int, int], Claim] = {}
    for t in board.tracks:
        length, ferry = t.length, t.ferry_locomotives
        all_loco = Claim(t.id, LOCOMOTIVE, 0, length, t.label)
        colours = range(NUM_COLOURS) if t.colour == GRAY else (t.colour,)
        options: dict[int, tuple[Claim, ...]] = {}
        for c in colours:
            row = [Claim(t.id, c, length - k, k, t.label) for k in range(ferry, length)]
            if t.colour != GRAY:
                row.append(all_loco)
            options[c] = tuple(row)
            for a in row:
                by_key[(a.track, a.colour, a.locomotives)] = a
        claims.append(options)
        all_locos.append(all_loco)
        by_key[(t.id, LOCOMOTIVE, length)] = all_loco
    return claims, all_locos, by_key


def cheapest_tunnel_answer(legal: "Sequence[Action]") -> Action:
    """At a tunnel's extra payment: the payment with the fewest locomotives when the hand can
    pay, else ``decline`` (the legal actions list them in that order). A default for strategies
    that do not weigh a tunnel's cost."""
    return legal[0]


def max_offer(ruleset: "Ruleset") -> int:
    """The most tickets ever on offer at once: the setup deal or a draw, whichever is larger."""
    return max(ruleset.initial_tickets + ruleset.initial_long_tickets, ruleset.ticket_draw)


def tunnel_actions(board: "Board", ruleset: "Ruleset") -> tuple[PayTunnel | DeclineTunnel, ...]:
    """The tunnel decisions of a game: every extra payment by cards asked (1 to
    ``tunnel_reveal``) then locomotives among them, then ``decline``; none on a map without
    tunnels, so its other actions keep their ids."""
    if not any(t.tunnel for t in board.tracks):
        return ()
    pays = [PayTunnel(extra - locos, locos) for extra in range(1, ruleset.tunnel_reveal + 1) for locos in range(extra + 1)]
    return (*pays, DECLINE)


@functools.lru_cache(maxsize=None)
def all_actions(board: "Board", ruleset: "Ruleset") -> tuple[Action, ...]:
    """Every action of a game on ``board`` under ``ruleset``, in the order that numbers them
    (``TicketToRide.action_space``): draw blind, draw market 0..m-1, tickets, pass; then one keep
    per subset of the largest offer, subset ``mask`` at ``mask`` (bit i: ticket i kept; 0 keeps
    none); then the tunnel decisions (``tunnel_actions``: none without tunnels); then the station
    builds (none unless the ruleset has stations: ``station_actions``); then the claims by track
    id, each track's payments by colour then locomotives, a track's only-locomotive payment once,
    after its coloured ones."""
    table = action_table(board, ruleset.market_size)
    k = max_offer(ruleset)
    keeps = [keep_action(tuple(i for i in range(k) if mask >> i & 1)) for mask in range(1 << k)]
    stations = station_actions(board, station_payment_costs(ruleset))
    claims: list[Claim] = []
    for t, options in enumerate(table.claims):
        for colour in sorted(options):
            claims.extend(a for a in options[colour] if a.colour != LOCOMOTIVE)
        claims.append(table.all_locos[t])
    return (DRAW_BLIND, *table.draw_market, DRAW_TICKETS, PASS, *keeps, *tunnel_actions(board, ruleset), *stations, *claims)


def station_payment_costs(ruleset: "Ruleset") -> tuple[int, ...]:
    """The distinct costs a station may have in a game under ``ruleset``, smallest first (none
    when it has no stations)."""
    return tuple(sorted(set(ruleset.station_costs[:ruleset.stations_per_player])))


@functools.lru_cache(maxsize=None)
def station_actions(board: "Board", costs: tuple[int, ...]) -> tuple[BuildStation, ...]:
    """Every station build of a board whose stations cost ``costs`` cards: by city id, then by
    cost, then by payment colour and locomotives, the only-locomotive payment of a cost last."""
    out: list[BuildStation] = []
    for city, name in enumerate(board.cities):
        for cost in costs:
            for colour in range(NUM_COLOURS):
                out.extend(BuildStation(city, colour, cost - k, k, name) for k in range(cost))
            out.append(BuildStation(city, LOCOMOTIVE, 0, cost, name))
    return tuple(out)


_KEEP_RE = re.compile(r"^keep\s+(none|\d+(?:\s*[,\s]\s*\d+)*)$")
_MARKET_RE = re.compile(r"^(?:draw\s+)?market\s+(\d+)$")
_PAY_PART_RE = re.compile(r"^(\d+)\s+([a-z]+)$")
_EXTRA_RE = re.compile(r"^pay\s+(?:(\d+)\s+cards?(?:\s*\+\s*(\d+)\s+locos?)?|(\d+)\s+locos?)$")


def parse_action(text: str, board: "Board") -> Action:
    """The action a line of the action language names (see the module docstring).

    Raises ``IllegalActionError`` for text that names no action on this board; whether the action
    is legal in a given state is for ``GameState.apply`` to decide.
    """
    s = " ".join(text.strip().lower().split())
    if s in ("draw blind", "blind", "draw deck"):
        return DRAW_BLIND
    if s in ("tickets", "draw tickets"):
        return DRAW_TICKETS
    if s == "pass":
        return PASS
    if s == "decline":
        return DECLINE
    m = _EXTRA_RE.match(s)
    if m:
        cards, locos, only = m.groups()
        return PayTunnel(int(cards or 0), int(only or locos or 0))
    m = _MARKET_RE.match(s)
    if m:
        return DrawMarket(int(m.group(1)))
    m = _KEEP_RE.match(s)
    if m:
        if m.group(1) == "none":
            return KeepTickets(())
        indices = tuple(sorted({int(x) for x in re.split(r"[,\s]+", m.group(1))}))
        return KeepTickets(indices)
    if s.startswith("claim "):
        return _parse_claim(text.strip()[6:].strip(), board)
    if s.startswith("station "):
        return _parse_station(text.strip()[8:].strip(), board)
    raise IllegalActionError(
        f"cannot read action {text!r}; expected 'draw blind', 'draw market N', 'tickets', "
        "'keep I,J', 'claim CITY-CITY [colour] with N colour [+ M loco]', 'pay N cards [+ M loco]', "
        "'decline', 'station CITY with N colour [+ M loco]' or 'pass'"
    )


def _parse_station(body: str, board: "Board") -> BuildStation:
    where, sep, payment = body.rpartition(" with ")
    if not sep:
        raise IllegalActionError(f"station {body!r} lacks its payment, e.g. 'with 2 red + 1 loco'")
    name = where.strip()
    if name.startswith("#") and name[1:].isdigit():
        city = int(name[1:])
        if not 0 <= city < len(board.cities):
            raise IllegalActionError(f"no city #{city} on the {board.name} map")
    else:
        try:
            city = board.city(name)
        except Exception:
            raise IllegalActionError(f"no city named {name!r} on the {board.name} map") from None
    colour, cards, locos = _parse_payment(payment, f"station {board.cities[city]}")
    if cards + locos < 1:
        raise IllegalActionError(f"station {board.cities[city]}: a station costs at least one card")
    if cards == 0:
        colour = LOCOMOTIVE
    # Whether the game has stations and this payment fits the player's next one is the state's
    # to decide: the action is refused there with the rule's reason.
    return BuildStation(city, colour, cards, locos, board.cities[city])


def _parse_claim(body: str, board: "Board") -> Claim:
    route, sep, payment = body.rpartition(" with ")
    if not sep:
        raise IllegalActionError(f"claim {body!r} lacks its payment, e.g. 'with 2 red + 1 loco'")
    track = parse_track(route, board)
    colour, cards, locos = _parse_payment(payment, f"claim {track.label}")
    if cards + locos != track.length:
        raise IllegalActionError(
            f"claim {track.label}: payment {payment.strip()!r} is {cards + locos} cards, the track needs {track.length}"
        )
    if cards == 0:
        colour = LOCOMOTIVE
    action = action_table(board).claim(track.id, colour, locos)
    if action is None:
        raise IllegalActionError(f"claim {track.label}: {payment.strip()!r} is not a payment this track accepts")
    return action


def _parse_payment(payment: str, what: str) -> tuple[int, int, int]:
    colour, cards, locos = -1, 0, 0
    for part in payment.lower().split("+"):
        m = _PAY_PART_RE.match(part.strip())
        if not m:
            raise IllegalActionError(f"cannot read payment part {part.strip()!r}; write e.g. '3 black + 1 loco'")
        try:
            c = card_index(m.group(2))
        except ValueError as exc:
            raise IllegalActionError(str(exc)) from None
        if c == LOCOMOTIVE:
            locos += int(m.group(1))
        elif colour in (-1, c):
            colour, cards = c, cards + int(m.group(1))
        else:
            raise IllegalActionError(f"{what}: a payment uses one colour (plus locomotives), got {payment!r}")
    return (colour if colour >= 0 else LOCOMOTIVE), cards, locos


def parse_track(route: str, board: "Board") -> "Track":
    """A track named ``CityA-CityB [colour[#n]]`` or ``#id``."""
    route = route.strip()
    if route.startswith("#") and route[1:].isdigit():
        tid = int(route[1:])
        if not 0 <= tid < len(board.tracks):
            raise IllegalActionError(f"no track #{tid} on the {board.name} map")
        return board.tracks[tid]
    if "-" not in route:
        raise IllegalActionError(f"cannot read track {route!r}; write 'CityA-CityB colour'")
    # A city's own name may hold a hyphen (Winston-Salem): try every hyphen as the one between
    # the cities, and read the route where both sides name cities.
    unjoined: list[str] = []  # cuts naming two cities that no track joins
    for cut in (i for i, ch in enumerate(route) if ch == "-"):
        track = _track_at(route, route[:cut], route[cut + 1:], board, unjoined)
        if track is not None:
            return track
    if unjoined:
        raise IllegalActionError(f"no track joins {unjoined[0]} on the {board.name} map")
    raise IllegalActionError(f"cannot read track {route!r}: unknown city in it")


def _track_at(route: str, first: str, rest: str, board: "Board", unjoined: list[str]) -> "Track | None":
    """The track ``route`` names when ``first`` is its first city and ``rest`` the second city
    with an optional colour; None when the cut leaves a side that is no city, or names two
    cities no track joins (then noted in ``unjoined``)."""
    candidates: list[tuple[str, str | None]] = [(rest, None)]
    head, _, last = rest.rpartition(" ")
    if head:
        candidates.append((head, last))
    for city_b, spec in candidates:
        try:
            tracks = board.tracks_between(first.strip(), city_b.strip())
        except Exception:
            continue
        if not tracks:
            unjoined.append(f"{first.strip()} and {city_b.strip()}")
            continue
        if spec is None:
            if len(tracks) == 1:
                return tracks[0]
            raise IllegalActionError(
                f"{route!r} is a double route; name the track: " + " or ".join(t.label for t in tracks)
            )
        spec = spec.lower()
        suffixes = [t.label.rpartition(" ")[2].lower() for t in tracks]
        exact = [t for t, s in zip(tracks, suffixes) if s == spec]
        loose = [t for t, s in zip(tracks, suffixes) if s.partition("#")[0] == spec]
        if len(exact) == 1:
            return exact[0]
        if len(loose) == 1:
            return loose[0]
        names = " or ".join(t.label for t in tracks)
        if loose:
            raise IllegalActionError(f"{route!r} is ambiguous; name the track: {names}")
        raise IllegalActionError(f"no {spec} track between {first.strip()} and {city_b.strip()}; tracks: {names}")
    return None
