"""Golden records: seeded random Trans-Orient Express games committed as JSON; any change in the
engine's behaviour (or in the stand-in deck) shows here.

After an intended rules or deck change, regenerate with
``UPDATE_GOLDEN=1 pytest tests/games/trans_orient/test_toe_golden.py`` and explain the change
in the commit message.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ttr_lab.core.play import play_game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.testing import RandomPlayer

GOLDEN = Path(__file__).parent / "golden"
CASES = [(2, 11), (3, 22), (4, 7), (4, 1234)]


@pytest.mark.parametrize("n,seed", CASES)
def test_golden_record(n, seed):
    path = GOLDEN / f"standin-{n}p-seed{seed}.json"
    record = play_game("trans_orient", [RandomPlayer() for _ in range(n)], seed)
    text = record.to_json(pretty=True) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path.name}; run with UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs: the engine's behaviour changed"


@pytest.mark.parametrize("n,seed", CASES)
def test_golden_record_replays(n, seed):
    record = GameRecord.load(GOLDEN / f"standin-{n}p-seed{seed}.json")
    assert (record.game, record.options) == ("trans_orient", {"deck": "standin"})
    final = record.replay()
    assert final.is_terminal()
    assert final.result().to_dict() == record.result
