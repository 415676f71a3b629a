"""Reading a deck folder: ``deck.toml`` plus three CSV files, validated line by line.

A deck folder holds::

    deck.toml        [deck] name, title, status ("stand-in" or "published"), colours (five names)
    travel.csv       card,destination,region,colour,cost,vp,passport,effect,effect_colour,effect_vp
    luggage.csv      card,vp,passport,effect,effect_vp
    objectives.csv   number,type,scoring,requirement,vp   (one row per threshold, rank or combination)

In the CSV files blank lines and lines starting with ``#`` are comments; the first other line
is the header, exactly as above. A cost or a colour combination is written ``2 green + 1 red``
(``free`` for nothing); ``passport`` is ``yes``/``no`` (or 1/0, empty = no); an empty ``effect``
is ``none``. Every error is one line naming the file, the line and the field, e.g.::

    standin/travel.csv line 14, field cost: cannot read '2 grene'; colours: blue, green, ...

docs/trans-orient-express.md describes each field; ``decks/template/`` has one example row of
every kind, for transcribing a deck.
"""

from __future__ import annotations

import csv
import functools
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterator

from ttr_lab.core.errors import ConfigError
from ttr_lab.games.trans_orient.cards import (
    Deck, Effect, LuggageCard, LuggageEffect, Objective, ObjectiveType, Scoring, TravelCard,
)

TRAVEL_COLUMNS = ("card", "destination", "region", "colour", "cost", "vp", "passport", "effect",
                  "effect_colour", "effect_vp")
LUGGAGE_COLUMNS = ("card", "vp", "passport", "effect", "effect_vp")
OBJECTIVE_COLUMNS = ("number", "type", "scoring", "requirement", "vp")
NUM_COLOURS = 5  # the rules: five token colours, which are also the five region colours
MIN_TRAVEL = 10  # setup lays two rows of up to five columns
DEFAULT_DECK = "standin"
_PACKAGE = "ttr_lab.games.trans_orient.decks"
_NOT_DECKS = ("template",)


class DeckDataError(ConfigError):
    """A deck folder is missing, malformed or inconsistent (the message names file, line, field)."""


def available_decks() -> list[str]:
    """The decks shipped in the package (the template is not a deck)."""
    root = resources.files(_PACKAGE)
    return sorted(p.name for p in root.iterdir()
                  if p.is_dir() and p.joinpath("deck.toml").is_file() and p.name not in _NOT_DECKS)


@functools.lru_cache(maxsize=None)
def load_deck(deck: str = DEFAULT_DECK) -> Deck:
    """A shipped deck by name (``"standin"``) or any deck folder by path."""
    folder: Any
    path = Path(deck).expanduser()
    if any(sep in deck for sep in ("/", "\\")) or path.is_dir():
        if not path.is_dir():
            raise DeckDataError(f"deck folder {deck!r} does not exist")
        folder, label = path, path.name
    else:
        folder = resources.files(_PACKAGE).joinpath(deck)
        if not folder.is_dir() or deck in _NOT_DECKS or deck.startswith(("_", ".")):
            raise DeckDataError(f"unknown deck {deck!r}; decks: {', '.join(available_decks())} (or a folder path)")
        label = deck
    return read_deck(folder, label, source=deck)


def read_deck(folder: Any, label: str, source: str = "") -> Deck:
    """Read and validate the deck in ``folder`` (a Path or package resource); ``label`` names it in errors."""

    def text(name: str) -> str:
        f = folder.joinpath(name)
        if not f.is_file():
            raise DeckDataError(f"{label}: missing {name}")
        return f.read_text(encoding="utf-8")

    meta = _read_meta(text("deck.toml"), f"{label}/deck.toml")
    colours = meta["colours"]
    travel = _read_travel(text("travel.csv"), f"{label}/travel.csv", colours)
    luggage = _read_luggage(text("luggage.csv"), f"{label}/luggage.csv")
    objectives = _read_objectives(text("objectives.csv"), f"{label}/objectives.csv", colours)
    return Deck(meta["name"], meta["title"], meta["status"], colours, travel, luggage, objectives, source)


# -- deck.toml ---------------------------------------------------------------------------------

def _read_meta(text: str, where: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckDataError(f"{where}: not valid TOML ({exc})") from None
    deck = data.get("deck")
    if not isinstance(deck, dict):
        raise DeckDataError(f"{where}: needs a [deck] table")
    out: dict[str, Any] = {}
    for key in ("name", "title", "status"):
        value = deck.get(key)
        if not isinstance(value, str) or not value.strip():
            raise DeckDataError(f"{where}, field {key}: a non-empty text is required")
        out[key] = value.strip()
    colours = deck.get("colours")
    if (not isinstance(colours, list) or len(colours) != NUM_COLOURS
            or not all(isinstance(c, str) and c.strip().isalpha() for c in colours)):
        raise DeckDataError(f"{where}, field colours: a list of {NUM_COLOURS} colour names (letters only) is required")
    names = tuple(c.strip().lower() for c in colours)
    if len(set(names)) != NUM_COLOURS:
        raise DeckDataError(f"{where}, field colours: the {NUM_COLOURS} names must differ")
    if set(names) & {"free", "none", "token", "tokens", "card"}:
        raise DeckDataError(f"{where}, field colours: 'free', 'none', 'token', 'tokens' and 'card' are reserved words")
    out["colours"] = names
    unknown = set(deck) - {"name", "title", "status", "colours", "note"}
    if unknown:
        raise DeckDataError(f"{where}: unknown field {sorted(unknown)[0]!r} in [deck]")
    return out


# -- CSV rows ------------------------------------------------------------------------------------

class _Row:
    """One CSV row with its line number; ``get`` converts a field or raises a one-line error."""

    def __init__(self, where: str, line: int, values: dict[str, str]) -> None:
        self.where, self.line, self.values = where, line, values

    def error(self, field: str, message: str) -> DeckDataError:
        return DeckDataError(f"{self.where} line {self.line}, field {field}: {message}")

    def get(self, field: str, convert: Callable[[str], Any]) -> Any:
        try:
            return convert(self.values[field])
        except ValueError as exc:
            raise self.error(field, str(exc)) from None


def _rows(text: str, where: str, columns: tuple[str, ...]) -> Iterator[_Row]:
    header_seen = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        fields = [f.strip() for f in next(csv.reader([line]))]
        if not header_seen:
            if tuple(f.lower() for f in fields) != columns:
                raise DeckDataError(f"{where} line {number}: the header must be {','.join(columns)}, not {','.join(fields)}")
            header_seen = True
            continue
        if len(fields) != len(columns):
            raise DeckDataError(f"{where} line {number}: {len(fields)} fields, the header has {len(columns)}")
        yield _Row(where, number, dict(zip(columns, fields)))
    if not header_seen:
        raise DeckDataError(f"{where}: no header line ({','.join(columns)})")


def _int(low: int, high: int | None = None) -> Callable[[str], int]:
    def convert(s: str) -> int:
        if not s:
            raise ValueError("a whole number is required")
        try:
            value = int(s)
        except ValueError:
            raise ValueError(f"{s!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise ValueError(f"{value} is out of range (must be {bound})")
        return value
    return convert


def _flag(s: str) -> bool:
    s = s.lower()
    if s in ("yes", "1", "true", "y"):
        return True
    if s in ("no", "0", "false", "n", ""):
        return False
    raise ValueError(f"{s!r} is not yes or no")


def _choice(names: dict[str, Any]) -> Callable[[str], Any]:
    def convert(s: str) -> Any:
        key = (s or "none").lower()
        if key not in names:
            raise ValueError(f"{s!r} is not one of {', '.join(names)}")
        return names[key]
    return convert


def _counts(colours: tuple[str, ...]) -> Callable[[str], tuple[int, ...]]:
    """``"2 green + 1 red"`` -> counts per colour index; ``free``/``0`` -> all zero."""
    def convert(s: str) -> tuple[int, ...]:
        counts = [0] * len(colours)
        if s.lower() in ("free", "0"):
            return tuple(counts)
        for part in s.split("+"):
            words = part.split()
            if len(words) != 2 or not words[0].isdigit() or words[1].lower() not in colours:
                raise ValueError(f"cannot read {part.strip()!r}; write e.g. '2 {colours[1]} + 1 {colours[3]}' "
                                 f"(colours: {', '.join(colours)}) or 'free'")
            c = colours.index(words[1].lower())
            if counts[c]:
                raise ValueError(f"{words[1]} appears twice")
            if not 1 <= int(words[0]) <= 10:
                raise ValueError(f"{words[0]} {words[1]} is out of range (1 to 10 tokens of a colour)")
            counts[c] = int(words[0])
        return tuple(counts)
    return convert


def _numbered(cards: dict[int, Any], where: str, kind: str) -> tuple:
    missing = [n for n in range(1, len(cards) + 1) if n not in cards]
    if missing:
        raise DeckDataError(f"{where}: {kind} numbers must run 1..{len(cards)} without gaps; {missing[0]} is missing")
    return tuple(cards[n] for n in range(1, len(cards) + 1))


# -- travel.csv ----------------------------------------------------------------------------------

_EFFECTS = {"none": Effect.NONE, "discount": Effect.DISCOUNT, "capacity": Effect.CAPACITY,
            "luggage": Effect.LUGGAGE, "vp_per_colour": Effect.VP_PER_COLOUR}


def _read_travel(text: str, where: str, colours: tuple[str, ...]) -> tuple[TravelCard, ...]:
    cards: dict[int, TravelCard] = {}
    lines: dict[int, int] = {}
    regions: dict[int, tuple[int, str, int]] = {}  # destination -> (colour, region, line)
    colour = _choice({c: i for i, c in enumerate(colours)})
    for row in _rows(text, where, TRAVEL_COLUMNS):
        number = row.get("card", _int(1))
        if number in cards:
            raise row.error("card", f"card {number} is already on line {lines[number]}")
        destination = row.get("destination", _int(1))
        region = row.values["region"]
        if not region:
            raise row.error("region", "a region name is required")
        if not row.values["colour"]:
            raise row.error("colour", f"a colour is required ({', '.join(colours)})")
        c = row.get("colour", colour)
        seen = regions.setdefault(destination, (c, region, row.line))
        if seen[0] != c:
            raise row.error("colour", f"destination {destination} is {colours[seen[0]]} on line {seen[2]}, not {colours[c]}")
        if seen[1] != region:
            raise row.error("region", f"destination {destination} is {seen[1]!r} on line {seen[2]}, not {region!r}")
        cost = row.get("cost", _counts(colours))
        vp = row.get("vp", _int(0, 99))
        passport = row.get("passport", _flag)
        effect = row.get("effect", _choice(_EFFECTS))
        effect_colour, effect_vp = -1, 0
        needs_colour = effect in (Effect.DISCOUNT, Effect.VP_PER_COLOUR)
        if needs_colour:
            if not row.values["effect_colour"]:
                raise row.error("effect_colour", f"a {effect.name.lower()} effect names a colour ({', '.join(colours)})")
            effect_colour = row.get("effect_colour", colour)
        elif row.values["effect_colour"]:
            raise row.error("effect_colour", f"only discount and vp_per_colour effects name a colour, not {effect.name.lower()}")
        if effect == Effect.VP_PER_COLOUR:
            effect_vp = row.get("effect_vp", _int(1, 20))
        elif row.values["effect_vp"] not in ("", "0"):
            raise row.error("effect_vp", f"only vp_per_colour effects have VP per card, not {effect.name.lower()}")
        cards[number] = TravelCard(number, destination, region, c, cost, vp, passport, effect, effect_colour, effect_vp)
        lines[number] = row.line
    if len(cards) < MIN_TRAVEL:
        raise DeckDataError(f"{where}: {len(cards)} travel cards; setup needs at least {MIN_TRAVEL} (two rows of 5)")
    return _numbered(cards, where, "card")


# -- luggage.csv ---------------------------------------------------------------------------------

_LUGGAGE = {"none": LuggageEffect.NONE, "vp_per_luggage": LuggageEffect.VP_PER_LUGGAGE,
            "vp_per_passport": LuggageEffect.VP_PER_PASSPORT, "wild_number": LuggageEffect.WILD_NUMBER,
            "wild_colour": LuggageEffect.WILD_COLOUR}


def _read_luggage(text: str, where: str) -> tuple[LuggageCard, ...]:
    cards: dict[int, LuggageCard] = {}
    lines: dict[int, int] = {}
    for row in _rows(text, where, LUGGAGE_COLUMNS):
        number = row.get("card", _int(1))
        if number in cards:
            raise row.error("card", f"card {number} is already on line {lines[number]}")
        vp = row.get("vp", _int(0, 99))
        passport = row.get("passport", _flag)
        effect = row.get("effect", _choice(_LUGGAGE))
        effect_vp = 0
        if effect in (LuggageEffect.VP_PER_LUGGAGE, LuggageEffect.VP_PER_PASSPORT):
            effect_vp = row.get("effect_vp", _int(1, 20))
        elif row.values["effect_vp"] not in ("", "0"):
            raise row.error("effect_vp", f"only vp_per_luggage and vp_per_passport have VP per item, not {effect.name.lower()}")
        cards[number] = LuggageCard(number, vp, passport, effect, effect_vp)
        lines[number] = row.line
    return _numbered(cards, where, "card")


# -- objectives.csv ------------------------------------------------------------------------------

_TYPES = {"visa": ObjectiveType.VISA, "season": ObjectiveType.SEASON, "route": ObjectiveType.ROUTE}
_SCORINGS = {"threshold": Scoring.THRESHOLD, "rank": Scoring.RANK, "combination": Scoring.COMBINATION}


def _read_objectives(text: str, where: str, colours: tuple[str, ...]) -> tuple[Objective, ...]:
    groups: dict[int, dict[str, Any]] = {}
    for row in _rows(text, where, OBJECTIVE_COLUMNS):
        number = row.get("number", _int(1))
        kind = row.get("type", _choice(_TYPES))
        scoring = row.get("scoring", _choice(_SCORINGS))
        if (kind == ObjectiveType.SEASON) != (scoring == Scoring.COMBINATION):
            allowed = "combination" if kind == ObjectiveType.SEASON else "threshold or rank"
            raise row.error("scoring", f"a {kind.name.lower()} objective scores by {allowed}, not {scoring.name.lower()}")
        g = groups.setdefault(number, {"type": kind, "scoring": scoring, "line": row.line, "tiers": [], "combos": []})
        if (g["type"], g["scoring"]) != (kind, scoring):
            raise row.error("type", f"objective {number} is {g['type'].name.lower()}/{g['scoring'].name.lower()} "
                                    f"on line {g['line']}; all its rows must agree")
        vp = row.get("vp", _int(0, 99))
        if scoring == Scoring.COMBINATION:
            counts = row.get("requirement", _counts(colours))
            if not any(counts):
                raise row.error("requirement", "a combination needs at least one colour")
            g["tiers"].append((len(g["combos"]), vp))
            g["combos"].append(counts)
            continue
        requirement = row.get("requirement", _int(1, 99))
        if any(r == requirement for r, _ in g["tiers"]):
            word = "rank" if scoring == Scoring.RANK else "threshold"
            raise row.error("requirement", f"objective {number} already has {word} {requirement}")
        if scoring == Scoring.RANK and requirement != len(g["tiers"]) + 1:
            raise row.error("requirement", f"objective {number}'s ranks must be listed 1, 2, 3 in order; "
                                           f"expected {len(g['tiers']) + 1}, got {requirement}")
        g["tiers"].append((requirement, vp))
    objectives = tuple(
        Objective(n, g["type"], g["scoring"], tuple(sorted(g["tiers"])) if g["scoring"] == Scoring.THRESHOLD
                  else tuple(g["tiers"]), tuple(g["combos"]))
        for n, g in sorted(groups.items())
    )
    for kind in ObjectiveType:
        if not any(o.type == kind for o in objectives):
            raise DeckDataError(f"{where}: no {kind.name.lower()} objective (setup draws one of each type)")
    return objectives
