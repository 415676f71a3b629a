"""Golden records: seeded games committed as JSON; any change in the engine's behaviour shows here.

After an intended rules change, regenerate with ``UPDATE_GOLDEN=1 pytest tests/test_golden.py``
and explain the change in the commit message.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ttr_lab.strategies.random import Random
from ttr_lab import GameRecord, play_game
from ttr_lab.games.ticket_to_ride import TicketToRide
from ttr_lab.games.ticket_to_ride.board import available_maps

GOLDEN = Path(__file__).parent / "golden"
# (map, players, seed); files are named <map>-<n>p-seed<seed>.json
CASES = [
    ("usa", 2, 11), ("usa", 3, 22), ("usa", 4, 7), ("usa", 4, 1234), ("usa", 5, 33),
    ("legendary_asia", 2, 12), ("legendary_asia", 4, 44), ("legendary_asia", 5, 55),
    ("usa_1910", 2, 1910), ("usa_mega", 5, 69), ("usa_big_cities", 4, 35),
    ("india", 2, 13), ("india", 3, 23), ("india", 4, 43),
    ("europe", 2, 13), ("europe", 3, 31), ("europe", 5, 57),
]
per_case = pytest.mark.parametrize("map_name,n,seed", CASES, ids=[f"{m}-{n}p-seed{s}" for m, n, s in CASES])


def golden_path(map_name: str, n: int, seed: int) -> Path:
    return GOLDEN / f"{map_name}-{n}p-seed{seed}.json"


@per_case
def test_golden_record(map_name, n, seed):
    path = golden_path(map_name, n, seed)
    record = play_game(TicketToRide(map_name), [Random() for _ in range(n)], seed)
    text = record.to_json(pretty=True) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path.name}; run with UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs: the engine's behaviour changed"


@per_case
def test_golden_record_replays(map_name, n, seed):
    record = GameRecord.load(golden_path(map_name, n, seed))
    assert (record.game, record.options) == ("ticket_to_ride", {"map": map_name})
    assert (record.num_players, record.seed) == (n, seed)
    final = record.replay()
    assert final.is_terminal()
    assert final.result().to_dict() == record.result


def test_every_shipped_map_has_golden_records():
    assert {m for m, _, _ in CASES} == set(available_maps())


def test_a_format_1_record_still_loads_and_replays_the_same_game():
    """Records written before there was a second game (format 1: no "game", the map at the top)."""
    old = GameRecord.load(GOLDEN / "legacy" / "usa-2p-seed11-format1.json")
    new = GameRecord.load(GOLDEN / "usa-2p-seed11.json")
    assert (old.game, old.options) == ("ticket_to_ride", {"map": "usa"})
    assert old.actions == new.actions and old.result == new.result
    assert old.replay().result().to_dict() == old.result
