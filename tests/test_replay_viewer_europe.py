"""The replay viewer on Europe (``ttr-lab replay RECORD --html``): tunnels and ferries drawn as
such, and every tunnel claim's step saying what it turned over (the cards and extra asked the
engine holds there, or no match), with the decline or payment that answers it the next step."""

from __future__ import annotations

import re
from pathlib import Path

from ttr_lab.core.record import GameRecord
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES
from ttr_lab.games.ticket_to_ride.replay_html import positions, viewer_page

RECORD = GameRecord.load(Path(__file__).parent / "golden" / "europe-3p-seed31.json")


def test_tunnel_claims_say_what_they_turned_over():
    game = RECORD.load_game()
    steps = positions(RECORD)
    states = list(RECORD.states())
    seen = {"extra": 0, "none": 0}
    for index, (seat, text) in enumerate(RECORD.actions, 1):
        action = game.parse_action(text) if text.startswith("claim") else None
        shown = steps[index]["action"]
        if action is None or not game.board.tracks[action.track].tunnel:
            assert "tunnel" not in shown
            continue
        state = states[index]
        if state.tunnel_pending is None:
            assert shown.endswith("(tunnel: no match turned over, no extra card)")
            seen["none"] += 1
            continue
        revealed = ", ".join(CARD_NAMES[c] for c in state.revealed)
        assert shown == f"seat {seat}: {text} (tunnel: turned over {revealed}: {state.tunnel_extra} extra)"
        assert steps[index]["tunnel"]["revealed"] == [CARD_NAMES[c] for c in state.revealed]
        assert RECORD.actions[index][0] == seat and re.match(r"decline$|pay ", RECORD.actions[index][1])
        assert steps[index + 1]["tunnel"] is None  # answered: the box goes
        seen["extra"] += 1
    assert seen["extra"] >= 3 and seen["none"] >= 1  # the record has both kinds


def test_the_board_draws_tunnels_dashed_and_ferries_with_their_locomotives():
    page = viewer_page(RECORD)
    board = RECORD.load_game().board
    tunnels = {int(t) for t in re.findall(r'<line data-track="(\d+)"[^>]*class="tunnel"', page)}
    assert tunnels == {t.id for t in board.tracks if t.tunnel}
    discs = re.findall(r'data-ferry="(\d+)"', page)
    assert sorted(map(int, discs)) == sorted(t.id for t in board.tracks for _ in range(t.ferry_locomotives))
    assert "line.tunnel{stroke-dasharray" in page
