"""The docs stand alone and say what the code does: no reference a reader cannot follow, every
tunable range in the tuning table, and the way a strategy reads a track as documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ttr_lab.games.ticket_to_ride import TicketToRide, load_board
from ttr_lab.core.registry import REGISTRY, resolve
from ttr_lab.games.ticket_to_ride import Claim, points_per_track, track_points
from ttr_lab.tuning.space import documented_ranges

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_a_doc_cites_nothing_a_reader_cannot_see(path):
    text = path.read_text(encoding="utf-8")
    for pattern in (r"\b[Ii]ssue \d+", r"\bissue's\b", r"/work/", r"\bshared/(rules|reference)"):
        assert not re.search(pattern, text), f"{path.name}: {re.search(pattern, text).group(0)!r}"


def test_the_tuning_table_lists_every_documented_range():
    table = (ROOT / "docs" / "tuning.md").read_text(encoding="utf-8")
    for name in REGISTRY:
        for parameter in documented_ranges(resolve(name)):
            assert f"| {name} | `{parameter}` |" in table, f"docs/tuning.md lacks {name}.{parameter}"


def test_a_claim_scores_what_the_documented_track_points_say():
    board = load_board("legendary_asia")  # mountain spaces: points beyond the length table
    state = TicketToRide(board).new_game(2, 3)
    seen = 0
    while not state.is_terminal() and seen < 20:
        legal = state.legal_actions()
        claims = [a for a in legal if isinstance(a, Claim)]
        action = claims[-1] if claims else legal[0]
        if claims:
            observation = state.observation(state.current_player)
            track = observation.board.tracks[action.track]
            before = observation.route_points[observation.player]
            expected = track_points(track, observation.ruleset)
            assert expected == points_per_track(observation.board, observation.ruleset)[track.id]
            player = state.current_player
            state.apply(action)
            assert state.observation(player).route_points[player] - before == expected
            seen += 1
        else:
            state.apply(action)
    assert seen > 0


def test_the_tournament_docs_list_every_ticket_to_ride_result_column():
    from pathlib import Path

    from ttr_lab.games.ticket_to_ride.result import METRICS

    text = (Path(__file__).parent.parent / "docs" / "tournaments.md").read_text(encoding="utf-8")
    assert [m.name for m in METRICS if f"`{m.name}`" not in text] == []


def test_the_study_docs_say_how_to_cut_a_study_down():
    from pathlib import Path

    text = (Path(__file__).parent.parent / "docs" / "studies.md").read_text(encoding="utf-8")
    assert "--games" in text
