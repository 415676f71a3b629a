"""The rules' numbers and the facts every state of one game shares (``Tables``).

``Rules`` holds the component counts and limits of the rules file; ``Tables`` is made once per
(deck, player count) and holds what the hot path reads: columns, the turn order of a round for
each starting player, and the actions of this deck, built once.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, fields, replace
from enum import IntEnum
from typing import Any, Mapping

from ttr_lab.core.errors import ConfigError
from ttr_lab.games.trans_orient.actions import ActionTable, action_table
from ttr_lab.games.trans_orient.cards import Deck

MIN_PLAYERS, MAX_PLAYERS = 2, 4
# Per-player public counters (``state.counters[player * K + i]``), recorded as metrics.
CARD_TAKES, PILE_TAKES, TOKENS_PAID, TOKENS_WASTED, CARDS_GIVEN = range(5)
K = 5


class Phase(IntEnum):
    """What the player to move is deciding."""

    TAKE = 0  # the mandatory action: a column's card or its pile
    STATION = 1  # the round's first player places the station master (3-4 players)
    PLAY = 2  # the optional action: play one card from hand, or not
    LUGGAGE = 3  # keep one of the two luggage cards drawn
    GIVE_CARD = 4  # end of turn: give back a travel card (more than 2 in hand)
    GIVE_TOKEN = 5  # end of turn: give back a token (more than the reserve limit)
    OVER = 6


@dataclass(frozen=True)
class Rules:
    """The numbers of the rules file."""

    tokens_per_colour: int = 10  # 50 tokens in 5 colours
    start_tokens: int = 2  # each player's reserve at setup
    pile_size: int = 3  # tokens under each lower-row card
    round_end_tokens: int = 1  # added to the remaining column's pile at the end of a round
    hand_limit: int = 2  # travel cards kept in hand at the end of a turn
    reserve_limit: int = 5  # tokens kept at the end of a turn, plus 1 per capacity effect
    luggage_draw: int = 2  # luggage cards drawn by a luggage effect (one is kept)
    end_cards: int = 7  # the player who places this many cards ends the game at the end of the round
    max_rounds: int = 40  # Further decision 10: the 40th round is the last (stalled)


RULES = Rules()


def turns_per_round(num_players: int) -> int:
    """One turn each with 3-4 players; with 2 players the 1-2-2-1 order gives 4 turns."""
    return 4 if num_players == 2 else num_players


def columns_for(num_players: int) -> int:
    """Decision (setup table missing from the text): one column more than the turns of a round,
    so 5 with 2 players, 4 with 3, 5 with 4 (the 2- and 4-player counts are in the text)."""
    return turns_per_round(num_players) + 1


def round_order(starter: int, num_players: int) -> tuple[int, ...]:
    """The seats taking the turns of a round started by ``starter``: clockwise, one turn each;
    with 2 players the starter, the other twice, then the starter again."""
    if num_players == 2:
        other = 1 - starter
        return (starter, other, other, starter)
    return tuple((starter + i) % num_players for i in range(num_players))


class Tables:
    """Immutable facts of one (deck, player count). Get one with ``tables_for``."""

    __slots__ = ("deck", "rules", "num_players", "columns", "turns", "orders", "actions", "colours",
                 "passes_master")

    def __init__(self, deck: Deck, num_players: int, rules: Rules = RULES) -> None:
        if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise ConfigError(f"Trans-Orient Express is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {num_players}")
        self.deck = deck
        self.rules = rules
        self.num_players = num_players
        self.columns = columns_for(num_players)
        self.turns = turns_per_round(num_players)
        self.orders = tuple(round_order(s, num_players) for s in range(num_players))
        self.actions: ActionTable = action_table(deck)
        self.colours = deck.num_colours
        # With 2 players the station master is never placed: it passes to the other player.
        self.passes_master = num_players == 2
        if len(deck.travel) < 2 * self.columns:
            raise ConfigError(f"the {deck.name} deck has {len(deck.travel)} travel cards; "
                              f"{num_players} players need at least {2 * self.columns}")

    def __reduce__(self) -> tuple:
        return (tables_for, (self.deck, self.num_players))


@functools.lru_cache(maxsize=None)
def tables_for(deck: Deck, num_players: int) -> Tables:
    return Tables(deck, num_players, deck.rules or RULES)


def with_rules(deck: Deck, overrides: Mapping[str, Any]) -> Deck:
    """``deck`` played with some of the rules' numbers changed (``overrides``: field -> value)."""
    known = {f.name for f in fields(Rules)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ConfigError(f"Trans-Orient Express has no rule {', '.join(map(repr, unknown))}; rules: {', '.join(sorted(known))}")
    base = deck.rules or RULES
    try:
        rules = replace(base, **{k: int(v) for k, v in overrides.items()})
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"Trans-Orient Express rules must be whole numbers: {exc}") from None
    bad = sorted(k for k, v in asdict(rules).items() if v < (1 if k in _AT_LEAST_ONE else 0))
    if bad:
        raise ConfigError(f"Trans-Orient Express rules out of range: {', '.join(f'{k}={getattr(rules, k)}' for k in bad)}")
    return replace(deck, rules=None if rules == RULES else rules)


_AT_LEAST_ONE = {"tokens_per_colour", "luggage_draw", "end_cards", "max_rounds"}
