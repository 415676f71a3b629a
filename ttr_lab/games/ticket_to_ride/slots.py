"""``StateSlots``: what a ``GameState`` holds, with its types, declared once for its queries.

``GameState`` (state.py) keeps a position in the kernels' state array and reads each field off
it (``hands``, ``owner``...); its queries (``queries.StateQueries``) read those fields by name. This
base names them and their types for the type checker; at run time it adds nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from ttr_lab.games.ticket_to_ride.tables import Tables


class StateSlots:
    if not TYPE_CHECKING:  # the type checker reads the names below as the state's attributes
        __slots__ = ()

    if TYPE_CHECKING:
        tables: Tables  # the shared tables of this board, ruleset and player count
        face: Any  # what every state of the game shares: the kernels' tables and buffers
        s: np.ndarray  # the position, as the kernels' state array
        log: Any  # the public history (ttr_lab.core.history)
        log_len: int
        scored: Any  # the GameResult, cached once the game is over (None before)
        # Read off the state array (fresh Python values each time): every part of the declared
        # layout (``kernels.layout.STATE``) the face shows, in its order, typed as
        # ``STATE.annotations()`` derives (tests/rules/test_state_layout.py holds the two equal).
        phase: int  # a Phase
        player: int  # the player to move
        final_turns: int  # turns left in the final round, -1 before it
        passes: int  # passes in a row
        turns: int
        stalled: bool
        rng: int  # the state of the game's own random number generator
        tunnel_claim: int  # the waiting tunnel's claim (action id less the first claim's), or -1
        tunnel_extra: int  # the extra cards it asks
        hands: list[int]  # per player, per card kind (stride NUM_CARD_KINDS)
        known: list[int]  # the cards of each hand the others have seen enter it (same layout)
        pile: list[int]  # the draw pile, top last
        discard: list[int]  # per card kind
        market: list[int]  # the face-up cards
        owner: list[int]  # per track: the owning player, or -1
        trains: list[int]  # per player: trains left
        points: list[int]  # per player: route points
        tickets: list[tuple[int, ...]]  # per player: the tickets held
        tickets_n: list[int]
        offers: list[tuple[int, ...]]  # per player: the tickets offered and not yet chosen
        offers_n: list[int]
        ticket_deck: tuple[int, ...]  # top first
        returned_by: tuple[int, ...]  # per deck position: the seat that put the ticket back, or -1
        boxed: tuple[int, ...]  # the tickets out of the game
        boxed_by: tuple[int, ...]  # per boxed ticket: the seat that put it there, or -1
        revealed: list[int]  # the cards it turned over
        tunnels: list[int]  # per player (stride 3): its last tunnel's track, extra asked, extra paid (-1 declined)

        @property
        def tunnel_pending(self) -> Any: ...  # the waiting tunnel's Claim, or None
        stations: list[int]  # per city: the seat whose train station stands there, or -1 (empty: no stations)
        stations_built: list[int]  # per player: train stations built (empty without stations)

        @property
        def open_groups(self) -> list[tuple[int, ...]]: ...  # the open tracks by payment group

        def is_terminal(self) -> bool: ...
