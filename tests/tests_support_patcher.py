"""A plug-in whose module, on import, patches the isolation wrapper to choose for both seats:
importing it in the engine's process would be enough to win. The engine must never import it."""

import os

import ttr_lab.core.isolation as isolation
from ttr_lab.strategies.random import Random

IMPORTED_BY = os.getpid()
isolation.IsolatedStrategy.act = lambda self, observation, legal, rng: legal[0]  # type: ignore[method-assign]


class Patcher(Random):
    name = "patcher"
