"""Plug-in strategies that misbehave, for ``ttr-lab serve``'s tests: registered by name in a test
(``register_strategy``), as a user registers their own."""

from __future__ import annotations

import threading
from typing import Any, Sequence

RELEASE = threading.Event()  # set by a test's end: every hanging act returns, its thread ends


class BrokenAtBirth:
    """Raises in its constructor."""

    def __init__(self) -> None:
        raise RuntimeError("no model file here")

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        return legal_actions[0]


class NeverAnswers:
    """Thinks until the test lets it go."""

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        RELEASE.wait()
        return legal_actions[0]
