"""``StateSlots``: the slots of a state with their types, declared once.

The state is put together from mixins (``queries.StateQueries``, ``station.Station``) that read its
slots directly; they derive from this class, so they and the type checker know every slot and
its type. The state class adds no slot of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ttr_lab.games.trans_orient.rules import Tables


class StateSlots:
    __slots__ = (
        "tables", "phase", "player", "round", "tidx", "order", "starter", "master",
        "mcol", "lower", "upper", "piles", "deck", "deck_known", "hands", "played",
        "reserves", "bag", "discounts", "capacity", "luggage", "lug_deck", "lug_by", "offer",
        "objectives", "final", "stalled", "rng", "turns", "counters", "log", "log_len",
    )

    tables: Tables  # the shared tables of this deck and player count
    phase: int  # a Phase
    player: int  # the player to move
    round: int
    tidx: int  # the turn's index in the round's order
    order: tuple[int, ...]  # the round's turn order
    starter: int  # the round's first player
    master: int  # the station master's holder
    mcol: int  # the station master's column, -1 before it is placed
    lower: list[int]  # per column: the card of the lower row (0: none)
    upper: list[int]  # per column: the card of the upper row (0: none)
    piles: list[int]  # per column, per colour: tokens under the lower card
    deck: tuple[int, ...]  # the travel deck, top first
    deck_known: int  # cards on top of the deck someone has seen
    hands: list[tuple[int, ...]]  # per player: travel cards in hand
    played: list[tuple[int, ...]]  # per player: travel cards placed
    reserves: list[int]  # per player, per colour: tokens
    bag: list[int]  # per colour: tokens in the bag
    discounts: list[int]  # per player, per colour: discounts from cards placed
    capacity: list[int]  # per player: capacity effects placed
    luggage: list[tuple[int, ...]]  # per player: luggage cards kept
    lug_deck: tuple[int, ...]  # the luggage deck, top first
    lug_by: tuple[int, ...]  # per luggage deck position: the seat that put it back, or -1
    offer: tuple[int, ...]  # the luggage cards drawn, one to keep
    objectives: tuple[int, ...]  # the objective cards in play
    final: bool  # in the final round
    stalled: bool
    rng: int
    turns: int
    counters: list[int]  # per player, per counter (stride K)
    log: Any  # the public history (ttr_lab.core.history)
    log_len: int

    if TYPE_CHECKING:
        def is_terminal(self) -> bool: ...
