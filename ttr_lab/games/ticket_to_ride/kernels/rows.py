"""Where seat ``p``'s row of a per-player state field starts: ``s[hand_start(g, p) + kind]``.

A row's width is its field's length rule after the player factor (``layout.STATE``), read here
from the declaration (``layout.row_width``) rather than restated by each kernel that walks a
row; each helper is compiled into its caller, and the width's branch folds away (its parts are
constants).
"""

from __future__ import annotations

import numpy as np

from ttr_lab.core.compiled import njit_no_refcount
from ttr_lab.games.ticket_to_ride.kernels import layout as L

_HANDS_BY, _HANDS_SLOT = L.row_width("hands")
_TICKETS_BY, _TICKETS_SLOT = L.row_width("tickets")
_OFFERS_BY, _OFFERS_SLOT = L.row_width("offers")


@njit_no_refcount(inline=True)
def hand_start(g: np.ndarray, p: int) -> int:
    """Seat ``p``'s hand: a count per card kind."""
    return g[L.S_HANDS] + p * (_HANDS_BY if _HANDS_SLOT < 0 else _HANDS_BY * g[_HANDS_SLOT])


@njit_no_refcount(inline=True)
def tickets_start(g: np.ndarray, p: int) -> int:
    """Seat ``p``'s tickets held, ``s[g[S_TICKETS_N] + p]`` of them."""
    return g[L.S_TICKETS] + p * (_TICKETS_BY if _TICKETS_SLOT < 0 else _TICKETS_BY * g[_TICKETS_SLOT])


@njit_no_refcount(inline=True)
def offers_start(g: np.ndarray, p: int) -> int:
    """Seat ``p``'s tickets on offer, ``s[g[S_OFFERS_N] + p]`` of them."""
    return g[L.S_OFFERS] + p * (_OFFERS_BY if _OFFERS_SLOT < 0 else _OFFERS_BY * g[_OFFERS_SLOT])
