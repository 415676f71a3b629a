"""``mcts_classic``: ``mcts`` as it was before its play-outs were compiled, game for game.

The records in ``tests/golden/mcts_classic/`` were played by ``mcts`` (then all Python) before
the compiled play-outs came; the classic strategy must play them again move for move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ttr_lab import play_game
from ttr_lab.core.registry import build
from ttr_lab.games.ticket_to_ride import TicketToRide

GOLDEN = Path(__file__).parent.parent / "golden" / "mcts_classic"
# (file, the seats' strategies as recorded, the budget the record was played with)
CASES = [("usa-2p-seed5.json", 500), ("usa-3p-seed6.json", 300)]


@pytest.mark.parametrize("name,steps", CASES)
def test_mcts_classic_plays_the_recorded_games_of_the_old_mcts(name, steps):
    recorded = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    strategies = [build("mcts_classic", {"steps": steps}, "ticket_to_ride") if s == "mcts"
                  else build(s, {}, "ticket_to_ride") for s in recorded["strategies"]]
    record = play_game(TicketToRide(recorded["options"]["map"]), strategies, recorded["seed"])
    played = json.loads(record.to_json())
    assert played["strategies"] == [s.replace("mcts", "mcts_classic") for s in recorded["strategies"]]
    assert played["actions"] == recorded["actions"]
    assert played["result"] == recorded["result"]


def test_mcts_classic_takes_the_old_parameters_and_a_cpu_clock():
    classic = build("mcts_classic", {"cpu_ms": 5.0, "turn_alternatives": "tickets"}, "ticket_to_ride")
    assert (classic.playout, classic.limit.cpu_ms, classic.limit.steps, classic.turn_alternatives) == ("python", 5.0, 500, {"tickets"})
