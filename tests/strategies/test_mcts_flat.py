"""``mcts_flat``: the flat search frozen as a yardstick, game for game.

The records in ``tests/golden/mcts_flat/`` were played by ``mcts_flat`` at its default budget;
it must play them again move for move. After an intended change to its play, regenerate with
``UPDATE_GOLDEN=1 pytest tests/strategies/test_mcts_flat.py`` and say why in the commit."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ttr_lab import play_game
from ttr_lab.core.registry import build
from ttr_lab.games.ticket_to_ride import TicketToRide
from ttr_lab.strategies.shipped import TICKET_TO_RIDE

FROZEN = TICKET_TO_RIDE["mcts_flat"].fixed

GOLDEN = Path(__file__).parent.parent / "golden" / "mcts_flat"
# (map, seats, seed); files are named <map>-<n>p-seed<seed>.json
CASES = [("usa", ("mcts_flat", "ticket_planner"), 5), ("legendary_asia", ("ticket_planner", "mcts_flat", "mcts_flat"), 6)]


@pytest.mark.parametrize("map_name,seats,seed", CASES, ids=[f"{m}-{len(s)}p-seed{d}" for m, s, d in CASES])
def test_mcts_flat_plays_its_recorded_games(map_name, seats, seed):
    path = GOLDEN / f"{map_name}-{len(seats)}p-seed{seed}.json"
    record = play_game(TicketToRide(map_name), [build(s, {}, "ticket_to_ride") for s in seats], seed)
    text = record.to_json(pretty=True) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    recorded = json.loads(path.read_text(encoding="utf-8"))
    played = json.loads(text)
    assert played["strategies"] == list(seats)
    assert played["actions"] == recorded["actions"]
    assert played["result"] == recorded["result"]


def test_mcts_flat_takes_a_budget_and_nothing_else():
    flat = build("mcts_flat", {"cpu_ms": 5.0}, "ticket_to_ride")
    assert (flat.limit.cpu_ms, flat.limit.steps, flat.limit.playouts) == (5.0, 4000, 400)
    settings = {k: getattr(flat.leaf if k == "rollout_depth" else flat, k) for k in FROZEN}
    assert settings == {**FROZEN, "turn_alternatives": {"tickets", "points"}}
    with pytest.raises(Exception, match="tree"):
        build("mcts_flat", {"tree": True}, "ticket_to_ride")
