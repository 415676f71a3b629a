"""``StateSlots``: the slots of a ``GameState`` with their types, declared once.

``GameState`` is put together from mixins (``legal.LegalActions``, ``card_flow.CardFlow``,
``views.StateViews``) that read its slots directly; each derives from this class, so the mixins
and the type checker know every slot and its type. The state class adds no slot of its own
(``assemble_state`` sets every one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.game import Game
    from ttr_lab.games.ticket_to_ride.result import GameResult


class StateSlots:
    __slots__ = (
        "game", "phase", "player", "hands", "known", "pile", "discard", "market",
        "owner", "open_groups", "trains", "points", "tickets", "offers", "ticket_deck", "returned_by",
        "boxed", "boxed_by", "rng", "final_turns", "passes", "turns", "stalled", "log",
        "log_len", "scored",
    )

    game: Game  # the shared tables of this board, ruleset and player count
    phase: int  # a Phase
    player: int  # the player to move
    hands: list[int]  # per player, per card kind (stride NUM_CARD_KINDS)
    known: list[int]  # the cards of each hand the others have seen enter it (same layout)
    pile: list[int]  # the draw pile, top last
    discard: list[int]  # per card kind
    market: list[int]  # the face-up cards
    owner: list[int]  # per track: the owning player, or -1
    open_groups: list[tuple[int, ...]]  # the open tracks by payment group
    trains: list[int]  # per player: trains left
    points: list[int]  # per player: route points
    tickets: list[tuple[int, ...]]  # per player: the tickets held
    offers: list[tuple[int, ...]]  # per player: the tickets offered and not yet chosen
    ticket_deck: tuple[int, ...]  # top first
    returned_by: tuple[int, ...]  # per deck position: the seat that put the ticket back, or -1
    boxed: tuple[int, ...]  # the tickets out of the game
    boxed_by: tuple[int, ...]  # per boxed ticket: the seat that put it there, or -1
    rng: int  # the state of the game's own random number generator
    final_turns: int  # turns left in the final round, -1 before it
    passes: int  # passes in a row
    turns: int
    stalled: bool
    log: Any  # the public history (ttr_lab.core.history)
    log_len: int
    scored: GameResult  # cached once the game is over
