"""``Random``: picks uniformly among the legal actions, with the rng it is given.

The baseline every other strategy must beat, and the engine's workhorse for property tests and
speed benchmarks. Because claims list every distinct payment, it claims often once its hand can
pay for something, which makes its games short and varied.
"""

from __future__ import annotations

import random
from typing import Sequence

from ttr_lab.games.ticket_to_ride import Action, Observation


class Random:
    name = "random"
    observes = False  # it never reads its observation, so play_game hands it None


    def act(self, observation: Observation | None, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        # ``choice`` draws exactly what ``randrange(len(...))`` draws (the same ``_randbelow``),
        # with less on the way: the games of every seed stay as they were.
        return rng.choice(legal_actions)
