"""A short run of the fuzzing campaign (``tests/fuzzing.py``): generated configs, maps, records
and action texts are accepted or refused with a one-line ttr-lab error, never a crash; a map that
loads has action texts that parse back. The campaign itself runs many more inputs."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from fuzzing import TARGETS, check

# Bounded, and no deadline: the loaders' speed depends on the machine, not on the input.
EXAMPLES = 25


def _fuzz(label: str) -> Any:
    strategy, target = TARGETS[label]

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(strategy)
    def run(value: Any) -> None:
        assert check(target, value) in ("accepted", "refused"), value

    return run


@pytest.mark.parametrize("label", sorted(TARGETS))
def test_generated_inputs_are_accepted_or_refused_in_one_line(label):
    _fuzz(label)()


def test_a_crash_is_told_apart_from_a_refusal():
    from fuzzing import config_target, record_target

    assert check(config_target, "players: [") == "refused"
    assert check(record_target, '{"format": 2, "game": "ticket_to_ride", "num_players": 2, "seed": 1e400, '
                                '"strategies": ["a", "b"], "actions": []}') == "refused"  # was an OverflowError
    record = '{"format": 2, "game": "ticket_to_ride", "num_players": 2, "seed": 1, "strategies": ["a", "b"], "actions": []'
    assert check(record_target, record + ', "result": [{"a": 1}]}') == "refused"  # was an AttributeError
    assert check(lambda _: {}["x"], None).startswith("KeyError at ")
