"""The cards as values: travel cards, luggage cards, objectives, and the ``Deck`` that holds them.

Everything here is immutable and loaded once per deck folder (see deck.py for the file format).
Cards are known by their printed number (travel 1..72, luggage 1..16, objectives 1..18 in the
published game); the flat per-number tuples of ``Deck`` (index 0 unused) are what the hot path
reads. Variant-like fields are enums, never strings compared during play.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import IntEnum
from typing import Any


class Effect(IntEnum):
    """The one effect a travel card may carry (a passport icon is not an effect: Decision 1)."""

    NONE = 0
    DISCOUNT = 1  # every later card costs one token of ``effect_colour`` less
    CAPACITY = 2  # one more token kept at the end of each turn
    LUGGAGE = 3  # draw 2 luggage cards, keep 1
    VP_PER_COLOUR = 4  # ``effect_vp`` VP per own travel card of ``effect_colour`` (this one included)


class LuggageEffect(IntEnum):
    NONE = 0  # only the printed VP
    VP_PER_LUGGAGE = 1  # ``effect_vp`` VP per luggage card held (this one included)
    VP_PER_PASSPORT = 2  # ``effect_vp`` VP per passport icon (travel and luggage cards)
    WILD_NUMBER = 3  # fills one gap in a route run
    WILD_COLOUR = 4  # counts as one travel card of any colour, for season objectives only


class ObjectiveType(IntEnum):
    VISA = 0  # passports
    SEASON = 1  # a combination of colours
    ROUTE = 2  # the run of destinations 1, 2, 3, ...


class Scoring(IntEnum):
    THRESHOLD = 0  # each player alone: the highest threshold reached
    RANK = 1  # medals by rank among the players
    COMBINATION = 2  # the best combination of colours held (season objectives)


EFFECT_NAMES = {e: e.name.lower() for e in Effect}
LUGGAGE_EFFECT_NAMES = {e: e.name.lower() for e in LuggageEffect}
OBJECTIVE_TYPE_NAMES = {t: t.name.lower() for t in ObjectiveType}
SCORING_NAMES = {s: s.name.lower() for s in Scoring}


@dataclass(frozen=True, slots=True)
class TravelCard:
    number: int
    destination: int
    region: str
    colour: int
    cost: tuple[int, ...]  # tokens per colour index
    vp: int
    passport: bool
    effect: Effect = Effect.NONE
    effect_colour: int = -1  # DISCOUNT and VP_PER_COLOUR
    effect_vp: int = 0  # VP_PER_COLOUR


@dataclass(frozen=True, slots=True)
class LuggageCard:
    number: int
    vp: int
    passport: bool
    effect: LuggageEffect = LuggageEffect.NONE
    effect_vp: int = 0  # VP_PER_LUGGAGE and VP_PER_PASSPORT


@dataclass(frozen=True, slots=True)
class Objective:
    """One shared objective. ``tiers`` are ``(requirement, vp)``: for THRESHOLD a count reached,
    for RANK a rank (1, 2, 3), for COMBINATION an index into ``combinations``."""

    number: int
    type: ObjectiveType
    scoring: Scoring
    tiers: tuple[tuple[int, int], ...]
    combinations: tuple[tuple[int, ...], ...] = ()  # COMBINATION: colour counts needed per tier

    def describe(self, colours: tuple[str, ...]) -> str:
        kind = OBJECTIVE_TYPE_NAMES[self.type]
        if self.scoring == Scoring.COMBINATION:
            parts = [f"{count_text(self.combinations[i], colours)}: {vp}" for i, vp in self.tiers]
        elif self.scoring == Scoring.RANK:
            parts = [f"rank {r}: {vp}" for r, vp in self.tiers]
        else:
            parts = [f">= {t}: {vp}" for t, vp in self.tiers]
        return f"{self.number} {kind} ({SCORING_NAMES[self.scoring]}; " + ", ".join(parts) + ")"


def count_text(counts: tuple[int, ...], colours: tuple[str, ...]) -> str:
    """``(0, 2, 1, 0, 0)`` -> ``"2 green + 1 yellow"``; all zero -> ``"free"``."""
    parts = [f"{k} {colours[c]}" for c, k in enumerate(counts) if k]
    return " + ".join(parts) or "free"


@dataclass(frozen=True, eq=False)
class Deck:
    """One deck folder's cards; equal when their content is (``fingerprint``), wherever loaded from.
    ``load_deck`` returns one object per folder."""

    name: str
    title: str
    status: str  # "stand-in" for the project's own design; see deck.toml
    colours: tuple[str, ...]
    travel: tuple[TravelCard, ...]  # by number: travel[i].number == i + 1
    luggage: tuple[LuggageCard, ...]
    objectives: tuple[Objective, ...]  # sorted by number
    source: str = ""  # where it was loaded from (not part of the fingerprint)
    # The rules' numbers played with this deck (``rules.Rules``); None: the rules file's own.
    # Carried by the deck so that every setup, determinization and restore built from it uses them.
    rules: Any = None

    def __repr__(self) -> str:
        return (f"<Deck {self.name} ({self.status}): {len(self.travel)} travel, {len(self.luggage)} luggage, "
                f"{len(self.objectives)} objectives>")

    def __reduce__(self) -> tuple:
        return (Deck, (self.name, self.title, self.status, self.colours, self.travel, self.luggage,
                       self.objectives, self.source, self.rules))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Deck) and self.fingerprint == other.fingerprint)

    def __hash__(self) -> int:
        return hash(self.fingerprint)

    @functools.cached_property
    def fingerprint(self) -> str:
        import hashlib

        text = repr((self.name, self.colours, self.travel, self.luggage, self.objectives)
                    + ((self.rules,) if self.rules is not None else ()))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def num_colours(self) -> int:
        return len(self.colours)

    @functools.cached_property
    def max_destination(self) -> int:
        return max((c.destination for c in self.travel), default=0)

    # Flat per-number tables for the hot path (index 0 unused).
    @functools.cached_property
    def cost(self) -> tuple[tuple[int, ...], ...]:
        return ((0,) * self.num_colours,) + tuple(c.cost for c in self.travel)

    @functools.cached_property
    def effect(self) -> tuple[Effect, ...]:
        return (Effect.NONE,) + tuple(c.effect for c in self.travel)

    @functools.cached_property
    def effect_colour(self) -> tuple[int, ...]:
        return (-1,) + tuple(c.effect_colour for c in self.travel)

    def card(self, number: int) -> TravelCard:
        return self.travel[number - 1]

    def luggage_card(self, number: int) -> LuggageCard:
        return self.luggage[number - 1]

    def objective(self, number: int) -> Objective:
        for o in self.objectives:
            if o.number == number:
                return o
        raise KeyError(f"no objective {number} in the {self.name} deck")

    def objectives_of(self, kind: ObjectiveType) -> tuple[Objective, ...]:
        return tuple(o for o in self.objectives if o.type == kind)

    def colour_index(self, name: str) -> int:
        try:
            return self.colours.index(name.strip().lower())
        except ValueError:
            raise ValueError(f"unknown colour {name!r}; colours: {', '.join(self.colours)}") from None

    def describe_card(self, number: int) -> str:
        c = self.card(number)
        text = (f"{c.number}: destination {c.destination} ({c.region}, {self.colours[c.colour]}), "
                f"cost {count_text(c.cost, self.colours)}, {c.vp} VP")
        if c.passport:
            text += ", passport"
        if c.effect == Effect.DISCOUNT:
            text += f", discount {self.colours[c.effect_colour]}"
        elif c.effect == Effect.VP_PER_COLOUR:
            text += f", {c.effect_vp} VP per {self.colours[c.effect_colour]} card"
        elif c.effect != Effect.NONE:
            text += f", {EFFECT_NAMES[c.effect]}"
        return text
