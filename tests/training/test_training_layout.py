"""Training's layout: each game's own part sits in ``ttr_lab/training/<game>/``, found by its
name (that the generic package names no game is tests/test_layers.py's rule for every shared layer)."""

from __future__ import annotations

import pytest

from ttr_lab.core.errors import ConfigError
from ttr_lab.training.games import GameTraining, training_for


def test_each_trainable_game_has_its_training_and_another_is_one_line():
    assert isinstance(training_for("ticket_to_ride"), GameTraining)
    with pytest.raises(ConfigError, match="^game: trans_orient has no training"):
        training_for("trans_orient")
