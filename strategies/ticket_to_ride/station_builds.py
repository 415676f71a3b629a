"""The station choice (``station_plans``) for a strategy that decides on observations (``Greedy``):
the seat's view as an array state, the legal actions as ids, the compiled choice back as an action."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ttr_lab.games.ticket_to_ride import Action, BuildStation, Observation
from ttr_lab.strategies.ticket_to_ride.planner_knobs import knobs
from ttr_lab.strategies.ticket_to_ride.station_plans import planned_station
from ttr_lab.strategies.ticket_to_ride.ticket_planner import seat_view

_DEFAULTS = knobs().params()


def station_build(obs: Observation, legal: Sequence[Action], params: np.ndarray = _DEFAULTS) -> Action | None:
    """The station ``obs``'s seat builds now, or None (none legal, or none worth its cost)."""
    if not any(type(a) is BuildStation for a in legal):
        return None
    state = seat_view(obs)
    face = state.face
    ids = np.array([face.id_of(a) for a in legal], dtype=np.int64)
    choice = planned_station(face.g, state.s, params, ids, len(ids))
    return None if choice < 0 else face.actions[choice]
