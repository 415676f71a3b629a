"""Colour indices shared by cards and tracks.

Cards and tracks use the same small integers so a hand can be a list of nine counts indexed by
colour: 0..7 are the eight train colours, 8 is the locomotive card. On a *track*, index 8 means
gray (payable with any one colour); a track is never "locomotive" coloured, and a card is never
gray, so the one index serves both without ambiguity in context.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "pink", "black", "white")
NUM_COLOURS = len(COLOURS)  # 8 train colours
LOCOMOTIVE = NUM_COLOURS  # card index of the wild locomotive, after the colours
GRAY = NUM_COLOURS  # track index of a gray track, after the colours
NUM_CARD_KINDS = NUM_COLOURS + 1  # card kinds: the train colours and the locomotive
NUM_TRACK_COLOURS = NUM_COLOURS + 1  # track colours: the train colours and gray

CARD_NAMES: tuple[str, ...] = COLOURS + ("locomotive",)
TRACK_COLOUR_NAMES: tuple[str, ...] = COLOURS + ("gray",)

_CARD_ALIASES = {"loco": LOCOMOTIVE, "locomotives": LOCOMOTIVE, "wild": LOCOMOTIVE, "purple": 5}
_TRACK_ALIASES = {"grey": GRAY, "purple": 5}


def card_index(name: str) -> int:
    """Card colour index for a name (``red`` ... ``white``, ``locomotive``/``loco``)."""
    key = name.strip().lower()
    if key in _CARD_ALIASES:
        return _CARD_ALIASES[key]
    try:
        return CARD_NAMES.index(key)
    except ValueError:
        raise ValueError(f"unknown card colour {name!r}; expected one of {', '.join(CARD_NAMES)}") from None


def track_colour_index(name: str) -> int:
    """Track colour index for a name (``red`` ... ``white``, ``gray``)."""
    key = name.strip().lower()
    if key in _TRACK_ALIASES:
        return _TRACK_ALIASES[key]
    try:
        return TRACK_COLOUR_NAMES.index(key)
    except ValueError:
        raise ValueError(
            f"unknown track colour {name!r}; expected one of {', '.join(TRACK_COLOUR_NAMES)}"
        ) from None
