"""The map: cities, tracks and tickets, loaded once from package data into an immutable ``Board``.

A map is a folder with ``map.toml`` (name, player counts, ruleset overrides), ``cities.csv``,
``routes.csv`` (``city_a,city_b,length,color`` and the optional ``ferry_locomotives``,
``mountain_spaces``, ``tunnel``, each 0 when left out; one row per track), ``tickets.csv``
(``city_a,city_b,points,deck``) and optionally ``positions.csv`` (``city,lat,lon``). Ids are
positions in those files, so they are stable for a given map. A shipped map's ``map.toml`` may
declare variants of it (another ticket deck, other rule numbers on the same board), loaded by
their own names: ``map_variants.py``.
"""

from __future__ import annotations

import csv
import functools
from enum import Enum
import io
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

from ttr_lab.games.ticket_to_ride.colours import GRAY, TRACK_COLOUR_NAMES, track_colour_index
from ttr_lab.games.ticket_to_ride.map_variants import map_meta, select_tickets, shipped_variants, variant_tables
from ttr_lab.games.ticket_to_ride.network import connected_components
from ttr_lab.core.errors import BoardDataError
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

if TYPE_CHECKING:  # networkx is imported only when a graph view is asked for
    import networkx as nx


@dataclass(frozen=True, slots=True)
class Track:
    """One claimable track. Two tracks between the same cities form a double route (``twin``)."""

    id: int
    a: int  # city id
    b: int  # city id
    length: int
    colour: int  # 0..7, or GRAY
    ferry_locomotives: int = 0  # spaces that must be paid with locomotive cards
    mountain_spaces: int = 0  # X spaces: one extra train each, scored at once
    twin: int = -1  # id of the other track of a double route, or -1
    label: str = ""  # e.g. "Denver-Kansas City black"
    # A tunnel: its claim turns over cards of the draw pile, and each match asks one more card.
    tunnel: bool = False

    @property
    def colour_name(self) -> str:
        return TRACK_COLOUR_NAMES[self.colour]

    @property
    def is_gray(self) -> bool:
        return self.colour == GRAY

    @property
    def trains(self) -> int:
        """Trains a claim takes from the supply: one per space, plus one per mountain X."""
        return self.length + self.mountain_spaces


class TicketDeck(str, Enum):
    """Which ticket deck a ticket belongs to."""

    REGULAR = "regular"
    LONG = "long"  # e.g. Legendary Asia's long tickets, dealt at setup only


@dataclass(frozen=True, slots=True)
class Ticket:
    """A destination ticket: connect ``a`` and ``b`` with your own tracks for ``points``."""

    id: int
    a: int
    b: int
    points: int
    deck: TicketDeck = TicketDeck.REGULAR
    label: str = ""  # e.g. "Los Angeles-New York (21)"


@dataclass(frozen=True, eq=False)
class Board:
    """Immutable map data. Compare boards by identity; ``load_board`` returns one per map."""

    name: str
    title: str
    cities: tuple[str, ...]
    tracks: tuple[Track, ...]
    tickets: tuple[Ticket, ...]
    ruleset: Ruleset
    min_players: int = 2
    max_players: int = 5
    positions: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    # The folder a map came from, absolute; None for a shipped map. Options and records name a
    # folder map by it, never by its name alone: a folder whose map.toml reuses a shipped map's
    # name must not be read back as the shipped map.
    source: str | None = None
    city_ids: Mapping[str, int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "city_ids", MappingProxyType({c: i for i, c in enumerate(self.cities)}))
        object.__setattr__(self, "positions", MappingProxyType(dict(self.positions)))

    def __reduce__(self) -> tuple:
        # Pickled by value (to send to Ray workers); the mapping views are rebuilt on load.
        return (_rebuild_board, (self.name, self.title, self.cities, self.tracks, self.tickets, self.ruleset,
                                 self.min_players, self.max_players, dict(self.positions), self.source))

    @functools.cached_property
    def fingerprint(self) -> str:
        """A digest of the map's data: equal for two copies of the same map."""
        import hashlib

        text = repr((self.name, self.cities, self.tracks, self.tickets, self.ruleset, sorted(self.positions.items())))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def reference(self) -> str:
        """What ``load_board`` takes to load this map again: a shipped map's name, else its folder."""
        return self.source or self.name

    def __repr__(self) -> str:
        return f"<Board {self.name}: {len(self.cities)} cities, {len(self.tracks)} tracks, {len(self.tickets)} tickets>"

    def city(self, name: str) -> int:
        """City id by name (exact, then case-insensitive)."""
        if name in self.city_ids:
            return self.city_ids[name]
        lowered = {c.lower(): i for c, i in self.city_ids.items()}
        try:
            return lowered[name.strip().lower()]
        except KeyError:
            raise BoardDataError(f"no city named {name!r} on the {self.name} map") from None

    def tracks_between(self, a: str | int, b: str | int) -> tuple[Track, ...]:
        """The one or two tracks joining two cities (names or ids), in id order."""
        ia = a if isinstance(a, int) else self.city(a)
        ib = b if isinstance(b, int) else self.city(b)
        return tuple(t for t in self.tracks if {t.a, t.b} == {ia, ib})

    @functools.cached_property
    def track_ends(self) -> tuple[tuple[int, int], ...]:
        """Per track id, the ids of the two cities it joins."""
        return tuple((t.a, t.b) for t in self.tracks)

    def ticket_label(self, ticket_id: int) -> str:
        return self.tickets[ticket_id].label

    @functools.cached_property
    def graph(self) -> "nx.MultiGraph":
        """A networkx MultiGraph view: nodes are city names, one edge per track (key = track id)."""
        import networkx as nx

        g = nx.MultiGraph(name=self.name)
        for i, c in enumerate(self.cities):
            g.add_node(c, id=i, pos=self.positions.get(c))
        for t in self.tracks:
            g.add_edge(
                self.cities[t.a], self.cities[t.b], key=t.id, id=t.id, length=t.length,
                colour=t.colour_name, ferry_locomotives=t.ferry_locomotives,
                mountain_spaces=t.mountain_spaces, tunnel=t.tunnel,
            )
        return nx.freeze(g)


_INTERNED: dict[str, Board] = {}


def _rebuild_board(*args: Any) -> Board:
    """Unpickle a board, reusing this process's copy of the same map if it has one, so caches
    keyed by board (the game facts, the action table) are built once per process."""
    board = Board(*args)
    return _INTERNED.setdefault(board.fingerprint, board)


def available_maps() -> list[str]:
    """Names of the maps shipped inside the package, their variants included (``usa_1910``)."""
    root = resources.files("ttr_lab.games.ticket_to_ride.maps")
    folders = [p.name for p in root.iterdir() if p.is_dir() and (p / "map.toml").is_file()]
    return sorted([*folders, *shipped_variants()])


def map_folder(name: str) -> Any:
    """The package folder holding a shipped map's files (a variant's: its board's folder)."""
    return resources.files("ttr_lab.games.ticket_to_ride.maps") / shipped_variants().get(name, name)


@functools.lru_cache(maxsize=None)
def load_board(name: str = "usa") -> Board:
    """Load a shipped map or variant by name (``"usa"``, ``"usa_1910"``) or a map folder by
    path; cached, so loaded once."""
    shipped = resources.files("ttr_lab.games.ticket_to_ride.maps") / name
    if "/" not in name and shipped.is_dir():
        return _load(shipped, name)
    if name in shipped_variants():
        return _load(map_folder(name), shipped_variants()[name], variant=name)
    path = Path(name)
    if path.is_dir():
        return _load(path, str(path), folder_path=str(path.resolve()))
    raise BoardDataError(f"unknown map {name!r}; shipped maps: {', '.join(available_maps())} (or give a map folder)")


def _read_csv(folder: Any, filename: str, columns: tuple[str, ...], source: str, required: bool = True) -> list[dict[str, str]]:
    file = folder / filename
    if not file.is_file():
        if required:
            raise BoardDataError(f"map {source}: missing {filename}")
        return []
    rows = list(csv.DictReader(io.StringIO(file.read_text(encoding="utf-8"))))
    header = tuple(rows[0].keys()) if rows else ()
    missing = [c for c in columns if c not in header]
    if rows and missing:
        raise BoardDataError(f"map {source}: {filename} lacks column(s) {', '.join(missing)}")
    return rows


def _int(row: dict[str, str], key: str, where: str, default: int | None = None) -> int:
    raw = (row.get(key) or "").strip()
    if raw == "" and default is not None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise BoardDataError(f"{where}: {key} must be an integer, got {raw!r}") from None


# A ticket's points: the shipped maps give 4 to 25; beyond this the game's 64-bit scores could overflow.
MAX_TICKET_POINTS = 1000


def check_ticket_points(points: int, where: str) -> None:
    if not 1 <= points <= MAX_TICKET_POINTS:
        raise BoardDataError(f"{where}: a ticket is worth 1 to {MAX_TICKET_POINTS} points, not {points}")


def _coordinate(row: dict[str, str], key: str, where: str) -> float:
    raw = (row.get(key) or "").strip()
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):  # a NaN drew a blank picture
        raise BoardDataError(f"{where}: {key} must be a finite number, got {raw!r}")
    return value


def _load(folder: Any, source: str, folder_path: str | None = None, variant: str | None = None) -> Board:
    """The board of a map folder; with ``variant``, that variant of it (its own name, title,
    tickets and ruleset on top of the map's)."""
    meta = map_meta(folder, source)
    ruleset = Ruleset.from_mapping(meta.get("ruleset", {}))
    tickets_file, selection = "tickets.csv", None
    if variant is not None:
        table = variant_tables(meta, source)[variant]
        meta = {**meta, "name": variant, **{k: v for k, v in table.items() if k != "ruleset"}}
        ruleset = Ruleset.from_mapping(table.get("ruleset", {}), base=ruleset)
        tickets_file, selection = str(table.get("tickets", tickets_file)), table.get("tickets_where")
        source = f"{source} (variant {variant})"

    cities = tuple(r["city"].strip() for r in _read_csv(folder, "cities.csv", ("city",), source))
    if len(set(cities)) != len(cities):
        raise BoardDataError(f"map {source}: cities.csv lists a city twice")
    _check_city_names(cities, source)
    ids = {c: i for i, c in enumerate(cities)}

    def city_id(name: str, where: str) -> int:
        try:
            return ids[name.strip()]
        except KeyError:
            raise BoardDataError(f"{where}: unknown city {name!r}") from None

    raw_tracks = []
    for n, row in enumerate(_read_csv(folder, "routes.csv", ("city_a", "city_b", "length", "color"), source), start=2):
        where = f"map {source}: routes.csv line {n}"
        a, b = city_id(row["city_a"], where), city_id(row["city_b"], where)
        length = _int(row, "length", where)
        try:
            colour = track_colour_index(row["color"])
        except ValueError as exc:
            raise BoardDataError(f"{where}: {exc}") from None
        ferry = _int(row, "ferry_locomotives", where, default=0)
        mountain = _int(row, "mountain_spaces", where, default=0)
        tunnel = _int(row, "tunnel", where, default=0)
        if tunnel not in (0, 1):
            raise BoardDataError(f"{where}: tunnel must be 0 or 1, got {tunnel}")
        if a == b or length < 1 or ferry < 0 or mountain < 0 or ferry + mountain > length:
            raise BoardDataError(f"{where}: inconsistent track {row}")
        if length >= len(ruleset.route_scores):
            raise BoardDataError(f"{where}: length {length} has no score in the ruleset")
        raw_tracks.append((a, b, length, colour, ferry, mountain, tunnel))

    by_pair: dict[tuple[int, int], list[int]] = {}
    for i, (a, b, *_rest) in enumerate(raw_tracks):
        by_pair.setdefault((min(a, b), max(a, b)), []).append(i)
    tracks = []
    for i, (a, b, length, colour, ferry, mountain, tunnel) in enumerate(raw_tracks):
        group = by_pair[(min(a, b), max(a, b))]
        if len(group) > 2:
            raise BoardDataError(f"map {source}: {cities[a]}-{cities[b]} has {len(group)} tracks; at most 2 are supported")
        twin = next((j for j in group if j != i), -1)
        label = f"{cities[a]}-{cities[b]} {TRACK_COLOUR_NAMES[colour]}"
        if twin >= 0 and raw_tracks[twin][3] == colour:  # identical twins need a number
            label += f"#{group.index(i) + 1}"
        tracks.append(Track(i, a, b, length, colour, ferry, mountain, twin, label, bool(tunnel)))

    component = connected_components(len(cities), ((a, b) for a, b, *_rest in raw_tracks))
    tickets: list[Ticket] = []
    ticket_rows = _read_csv(folder, tickets_file, ("city_a", "city_b", "points"), source)
    for n, row in select_tickets(ticket_rows, selection, tickets_file, source):
        where = f"map {source}: {tickets_file} line {n}"
        a, b = city_id(row["city_a"], where), city_id(row["city_b"], where)
        points = _int(row, "points", where)
        deck_name = (row.get("deck") or "regular").strip()
        try:
            deck = TicketDeck(deck_name)
        except ValueError:
            raise BoardDataError(f"{where}: deck must be one of {', '.join(d.value for d in TicketDeck)}, "
                                 f"got {deck_name!r}") from None
        if a == b:
            raise BoardDataError(f"{where}: the ticket joins {cities[a]} to itself")
        check_ticket_points(points, where)
        if component[a] != component[b]:
            raise BoardDataError(f"{where}: no chain of tracks joins {cities[a]} to {cities[b]}: the ticket could never "
                                 "be completed")
        tickets.append(Ticket(len(tickets), a, b, points, deck, f"{cities[a]}-{cities[b]} ({points})"))

    positions = {}
    for n, row in enumerate(_read_csv(folder, "positions.csv", ("city", "lat", "lon"), source, required=False), start=2):
        where = f"map {source}: positions.csv line {n}"
        city_id(row["city"], where)
        positions[row["city"].strip()] = (_coordinate(row, "lat", where), _coordinate(row, "lon", where))

    board = Board(
        name=str(meta.get("name", source)),
        title=str(meta.get("title", source)),
        cities=cities,
        tracks=tuple(tracks),
        tickets=tuple(tickets),
        ruleset=ruleset,
        min_players=int(meta.get("min_players", 2)),
        max_players=int(meta.get("max_players", 5)),
        positions=positions,
        source=folder_path,
    )
    _check_labels_read_back(board, source)
    return _INTERNED.setdefault(board.fingerprint, board)


def _check_city_names(cities: tuple[str, ...], source: str) -> None:
    """Every city name can be written in an action's text and read back (records are replayed
    from that text): not empty, one line, single spaces, unique whatever the case."""
    seen: dict[str, str] = {}
    for n, city in enumerate(cities, start=2):
        where = f"map {source}: cities.csv line {n}"
        if not city:
            raise BoardDataError(f"{where}: a city needs a name")
        if not city.isprintable() or "  " in city:
            raise BoardDataError(f"{where}: city {city!r} holds a control character or a run of spaces")
        if city.startswith("#"):
            raise BoardDataError(f"{where}: city {city!r} starts with '#', which names a track by id")
        other = seen.setdefault(city.lower(), city)
        if other != city:
            raise BoardDataError(f"{where}: cities {other!r} and {city!r} differ only in case")


def _check_labels_read_back(board: Board, source: str) -> None:
    """Each track's label, as a claim prints it, is parsed back to that track: a name the
    action parser would misread is refused here rather than in a replay."""
    from ttr_lab.core.errors import IllegalActionError
    from ttr_lab.games.ticket_to_ride.actions import parse_track

    for t in board.tracks:
        try:
            back = parse_track(t.label, board)
        except IllegalActionError:
            back = None
        if back is not t:
            raise BoardDataError(f"map {source}: track {t.label!r} cannot be read back from its text; "
                                 "rename a city so the two names and the colour stay apart")
