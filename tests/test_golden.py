"""Golden records: seeded games committed as JSON; any change in the engine's behaviour shows here.

After an intended rules change, regenerate with ``UPDATE_GOLDEN=1 pytest tests/test_golden.py``
and explain the change in the commit message.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from strategies.random import Random
from ttr_lab import TicketToRide, GameRecord, play_game

GOLDEN = Path(__file__).parent / "golden"
CASES = [(2, 11), (3, 22), (4, 7), (4, 1234), (5, 33)]


@pytest.mark.parametrize("n,seed", CASES)
def test_golden_record(n, seed):
    path = GOLDEN / f"usa-{n}p-seed{seed}.json"
    record = play_game(TicketToRide("usa"), [Random() for _ in range(n)], seed)
    text = record.to_json(pretty=True) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path.name}; run with UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs: the engine's behaviour changed"


@pytest.mark.parametrize("n,seed", CASES)
def test_golden_record_replays(n, seed):
    record = GameRecord.load(GOLDEN / f"usa-{n}p-seed{seed}.json")
    final = record.replay()
    assert final.is_terminal()
    assert final.result().to_dict() == record.result


def test_a_format_1_record_still_loads_and_replays_the_same_game():
    """Records written before there was a second game (format 1: no "game", the map at the top)."""
    old = GameRecord.load(GOLDEN / "legacy" / "usa-2p-seed11-format1.json")
    new = GameRecord.load(GOLDEN / "usa-2p-seed11.json")
    assert (old.game, old.options) == ("ticket_to_ride", {"map": "usa"})
    assert old.actions == new.actions and old.result == new.result
    assert old.replay().result().to_dict() == old.result
