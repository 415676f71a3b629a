"""Actions: frozen, hashable values with a readable text form and a parser back.

The action language (one action per line, case-insensitive; columns count from 0, left to right;
cards are named by their printed number)::

    take card 2            mandatory: column 2's travel card into the hand (its pile goes to the bag)
    take tokens 2          mandatory: column 2's pile into the reserve (its card is discarded)
    station master 3       the round's first player puts the station master on column 3
    play 17                optional: play travel card 17 from the hand, paying its cost
    no play                optional: play nothing this turn
    keep luggage 5         keep luggage card 5 of the two drawn (the other goes under the deck)
    give back card 17      end of turn, more than 2 cards in hand: card 17 goes under the draw deck
    give back red          end of turn, too many tokens: one red token goes back to the bag

Other players see ``keep luggage N`` as ``kept luggage`` (``LuggageKept``): luggage is secret.
Every action a state offers is one shared object of the deck's ``ActionTable``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from ttr_lab.core.actions import check_whole_numbers
from ttr_lab.core.errors import IllegalActionError

if TYPE_CHECKING:
    from ttr_lab.games.trans_orient.cards import Deck

MAX_COLUMNS = 5  # the most columns any player count lays out


@dataclass(frozen=True, slots=True)
class TakeCard:
    column: int

    def __post_init__(self) -> None:
        check_whole_numbers(self, "column")

    def __str__(self) -> str:
        return f"take card {self.column}"


@dataclass(frozen=True, slots=True)
class TakeTokens:
    column: int

    def __post_init__(self) -> None:
        check_whole_numbers(self, "column")

    def __str__(self) -> str:
        return f"take tokens {self.column}"


@dataclass(frozen=True, slots=True)
class PlaceMaster:
    column: int

    def __post_init__(self) -> None:
        check_whole_numbers(self, "column")

    def __str__(self) -> str:
        return f"station master {self.column}"


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def __post_init__(self) -> None:
        check_whole_numbers(self, "card")

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, slots=True)
class NoPlay:
    def __str__(self) -> str:
        return "no play"


@dataclass(frozen=True, slots=True)
class KeepLuggage:
    card: int

    def __post_init__(self) -> None:
        check_whole_numbers(self, "card")

    def __str__(self) -> str:
        return f"keep luggage {self.card}"


@dataclass(frozen=True, slots=True)
class GiveCard:
    card: int

    def __post_init__(self) -> None:
        check_whole_numbers(self, "card")

    def __str__(self) -> str:
        return f"give back card {self.card}"


@dataclass(frozen=True, slots=True)
class GiveToken:
    colour: int
    label: str = field(default="", compare=False)  # the colour's name, for str()

    def __post_init__(self) -> None:
        check_whole_numbers(self, "colour")

    def __str__(self) -> str:
        return f"give back {self.label}" if self.label else f"give back token {self.colour}"


@dataclass(frozen=True, slots=True)
class LuggageKept:
    """The public form of ``keep luggage N``: another player sees only that one was kept."""

    def __str__(self) -> str:
        return "kept luggage"


Action = Union[TakeCard, TakeTokens, PlaceMaster, Play, NoPlay, KeepLuggage, GiveCard, GiveToken]
ACTION_TYPES = (TakeCard, TakeTokens, PlaceMaster, Play, NoPlay, KeepLuggage, GiveCard, GiveToken)

NO_PLAY = NoPlay()
LUGGAGE_KEPT = LuggageKept()


class ActionTable:
    """Every action of one deck, built once (lists indexed by column, card number or colour)."""

    def __init__(self, deck: "Deck") -> None:
        cols = range(MAX_COLUMNS)
        self.take_card = tuple(TakeCard(c) for c in cols)
        self.take_tokens = tuple(TakeTokens(c) for c in cols)
        self.master = tuple(PlaceMaster(c) for c in cols)
        self.play = tuple(Play(n) for n in range(len(deck.travel) + 1))  # index 0 unused
        self.give_card = tuple(GiveCard(n) for n in range(len(deck.travel) + 1))
        self.keep_luggage = tuple(KeepLuggage(n) for n in range(len(deck.luggage) + 1))
        self.give_token = tuple(GiveToken(c, name) for c, name in enumerate(deck.colours))
        every = (NO_PLAY, *self.take_card, *self.take_tokens, *self.master, *self.play, *self.give_card,
                 *self.keep_luggage, *self.give_token)
        # The table's objects by id() (they live as long as the table: ids are never reused) and by value.
        self.by_object = {id(a): a for a in every}
        self.by_value = {a: a for a in every}


@functools.lru_cache(maxsize=None)
def action_table(deck: "Deck") -> ActionTable:
    return ActionTable(deck)


@functools.lru_cache(maxsize=None)
def all_actions(deck: "Deck") -> tuple[Action, ...]:
    """Every action of a game with ``deck``, in the order that numbers them
    (``TransOrientExpress.action_space``): take card 0..4, take tokens 0..4, station master
    0..4, no play, play card 1..n, keep luggage 1..m, give back card 1..n, give back token per
    colour."""
    table = action_table(deck)
    return (*table.take_card, *table.take_tokens, *table.master, NO_PLAY, *table.play[1:],
            *table.keep_luggage[1:], *table.give_card[1:], *table.give_token)


_NUMBERED = {
    "take card": "take_card", "take tokens": "take_tokens", "station master": "master", "play": "play",
    "keep luggage": "keep_luggage", "give back card": "give_card",
}
_NUMBERED_RE = re.compile(r"^(take card|take tokens|station master|play|keep luggage|give back card)\s+#?(\d+)$")
_TOKEN_RE = re.compile(r"^give back (?:token\s+)?([a-z]+|\d+)$")


def parse_action(text: str, deck: "Deck") -> Action:
    """The action a line of the action language names (see the module docstring).

    Raises ``IllegalActionError`` for text that names no action of this deck; whether the
    action is legal in a given state is for ``State.apply`` to decide.
    """
    s = " ".join(text.strip().lower().split())
    table = action_table(deck)
    if s in ("no play", "pass", "skip"):
        return NO_PLAY
    m = _NUMBERED_RE.match(s)
    if m:
        options = getattr(table, _NUMBERED[m.group(1)])
        index = int(m.group(2))
        low = 0 if m.group(1) in ("take card", "take tokens", "station master") else 1
        if not low <= index < len(options):
            what = "column" if low == 0 else "luggage card" if m.group(1) == "keep luggage" else "card"
            raise IllegalActionError(f"{text.strip()!r}: no {what} {index} (from {low} to {len(options) - 1})")
        return options[index]
    m = _TOKEN_RE.match(s)
    if m:
        word = m.group(1)
        if word.isdigit():
            c = int(word)
            if c >= len(deck.colours):
                raise IllegalActionError(f"{text.strip()!r}: no colour {c} (0 to {len(deck.colours) - 1})")
            return table.give_token[c]
        if word in deck.colours:
            return table.give_token[deck.colours.index(word)]
        raise IllegalActionError(f"{text.strip()!r}: unknown colour {word!r}; colours: {', '.join(deck.colours)}")
    raise IllegalActionError(
        f"cannot read action {text.strip()!r}; expected 'take card N', 'take tokens N', 'station master N', "
        "'play N', 'no play', 'keep luggage N', 'give back card N' or 'give back COLOUR'"
    )
