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
DOCS = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
NOTES = ROOT / "docs" / "notes"  # dated records: their text stays as written


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
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


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_docs_links_lead_to_files_that_exist(path):
    text = path.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([\w./-]+\.(?:md|png|svg|html|ipynb|yaml|py))(?:#[^)]*)?\)", text):
        if not target.startswith(("http://", "https://", "mailto:")):
            assert (path.parent / target).exists(), f"{path.name}: a link to {target}, which is not there"


def _sentences(text: str) -> list[str]:
    """Table rows one by one, prose by sentence (a paragraph's lines joined)."""
    rows = [line for line in text.splitlines() if line.startswith("|")]
    prose = "\n".join(line for line in text.splitlines() if not line.startswith("|"))
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", prose)]
    return rows + [s for p in paragraphs for s in re.split(r"(?<=\.)\s", p)]


@pytest.mark.parametrize("path", [p for p in DOCS if NOTES not in p.parents], ids=lambda p: str(p.relative_to(ROOT)))
def test_the_docs_give_the_strongest_player_one_name(path):
    """``mcts_learned`` is the strongest search: no doc calls another strategy ours or the
    strongest, and every sentence that names the strongest player or search names it."""
    for sentence in _sentences(path.read_text(encoding="utf-8")):
        assert not re.search(r"\bour (strongest|best)\b", sentence, re.I), f"{path.name}: {sentence[:120]!r}"
        if re.search(r"\bstrongest (player|search)\b", sentence):
            assert "`mcts_learned`" in sentence, f"{path.name}: {sentence[:120]!r}"


def test_only_mcts_learned_describes_itself_as_the_strongest():
    """``ttr-lab strategies`` prints each strategy's first line of documentation."""
    import sys

    from ttr_lab.core.registry import game_strategies

    for game in ("ticket_to_ride", "trans_orient"):
        for name in game_strategies(game):
            cls = resolve(name, game)
            doc = (cls.__doc__ or sys.modules[cls.__module__].__doc__ or "").strip()
            first = doc.split("\n\n")[0]
            assert ("strongest" in first) == ((game, name) == ("ticket_to_ride", "mcts_learned")), \
                f"{game}'s {name}: {first[:80]!r}"


def test_the_strategy_guide_has_a_row_for_every_registered_strategy():
    from ttr_lab.core.registry import game_strategies

    rows = [line for line in (ROOT / "docs" / "strategies.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| ")]
    named = {n for row in rows for n in re.findall(r"`(\w+)`", row.split("|")[1])}
    assert set(game_strategies("ticket_to_ride")) - named == set()
    strongest = [row for row in rows if "strongest" in row]
    assert len(strongest) == 1 and strongest[0].startswith("| **`mcts_learned`**")
