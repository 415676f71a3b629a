"""The HTML replay viewers (``ttr-lab replay RECORD --html``) in a real headless browser: the
page is opened at a turn (or a step, or a round), its script runs, and what it then shows is
checked against the engine's state there: for Ticket to Ride the claimed tracks and each player's
points, trains, cards, tickets and hidden hand; for Trans-Orient Express the station, the bag and
each player's hand, tableau, reserve, discounts, capacity, luggage and score. Skipped, with the
reason, where no Chromium is installed (``.ci/run`` installs it)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_lab import play_game
from ttr_lab.games.ticket_to_ride import TicketToRide
from ttr_lab.cli import app
from ttr_lab.core.record import GameRecord
from ttr_lab.core.registry import build
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES
from ttr_lab.games.trans_orient import TransOrientExpress

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> tuple[Path, GameRecord]:
    folder = tmp_path_factory.mktemp("viewer")
    record = play_game(TicketToRide("usa"), [build(name, game="ticket_to_ride") for name in ("greedy", "ticket_planner", "random")], seed=5)
    record.save(folder / "game.json")
    result = CliRunner().invoke(app, ["replay", str(folder / "game.json"), "--html", str(folder / "game.html")])
    assert result.exit_code == 0, result.output
    return folder / "game.html", GameRecord.load(folder / "game.json")


def test_the_page_is_self_contained(page):
    text = page[0].read_text()
    assert text.startswith("<!doctype html>") and "<svg" in text and "<script" in text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)  # nothing fetched: works offline
    assert text.count('data-track="') == len(TicketToRide("usa").board.tracks)


def dom_at(path: Path, fragment: str) -> str:
    """The page's DOM after its script ran, opened at ``#fragment``."""
    if CHROMIUM is None:
        pytest.skip("no Chromium installed (apt-get install chromium; .ci/run installs it)")
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                           f"{path.resolve().as_uri()}#{fragment}"], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _cells(row: str, name: str) -> str:
    return re.search(rf'<td class="[^"]*\b{name}\b[^"]*">(.*?)</td>', row, re.S).group(1)


def _cards(cell: str) -> dict[str, int]:
    return {name: int(n) for n, name in re.findall(r">(\d+) ([a-z]+)</span>", cell)}


@pytest.mark.parametrize("turn", [0, 12, 30, 10_000])
def test_the_browser_shows_the_engines_state_at_a_turn(page, turn):
    path, record = page
    dom = dom_at(path, f"turn={turn}")
    state, index = record.state_at(turn=min(turn, record.outcome().turns))
    assert f'data-step="{index}"' in dom  # the page went to the step the engine names for that turn
    claimed = dict(re.findall(r'data-track="(\d+)"[^>]*data-owner="(-?\d+)"', dom))
    assert len(claimed) == len(state.owner)
    assert [int(claimed[str(t)]) for t in range(len(state.owner))] == list(state.owner)
    rows = re.findall(r'<tr data-seat="(\d)".*?</tr>', dom, re.S)
    assert len(rows) == state.num_players
    for seat, row in enumerate(re.findall(r'<tr data-seat="\d".*?</tr>', dom, re.S)):
        assert record.strategies[seat] in row
        assert int(_cells(row, "points")) == state.route_points(seat)
        assert int(_cells(row, "trains")) == state.trains_left(seat)
        assert int(_cells(row, "cards")) == sum(state.hand(seat))
        assert int(_cells(row, "tickets")) == len(state.held_tickets(seat))
        hand = {CARD_NAMES[k]: n for k, n in enumerate(state.hand(seat)) if n}
        assert _cards(_cells(row, "hand")) == hand  # the hidden hand, shown with the switch
        held = _cells(row, "held")
        assert all(state.board.tickets[t].label in held for t in state.held_tickets(seat))
    if turn >= record.outcome().turns:
        assert "game over" in dom


def test_a_game_without_a_viewer_is_refused_in_one_line(tmp_path, monkeypatch):
    from ttr_lab.core.views import GameViews
    from ttr_lab.games.ticket_to_ride.presentation import TicketToRideViews

    record = play_game(TicketToRide("usa"), [build("random"), build("random")], seed=1)
    record.save(tmp_path / "g.json")
    monkeypatch.setattr(TicketToRideViews, "replay_page", GameViews.replay_page)
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "g.json"), "--html", str(tmp_path / "g.html")])
    assert result.exit_code == 2 and "has no HTML replay viewer" in result.output and not (tmp_path / "g.html").exists()


@pytest.fixture(scope="module")
def toe_page(tmp_path_factory) -> tuple[Path, GameRecord]:
    folder = tmp_path_factory.mktemp("toe-viewer")
    seats = [build(name, game="trans_orient") for name in ("planner", "greedy", "random")]
    record = play_game(TransOrientExpress(), seats, seed=3)
    record.save(folder / "game.json")
    result = CliRunner().invoke(app, ["replay", str(folder / "game.json"), "--html", str(folder / "game.html")])
    assert result.exit_code == 0, result.output
    return folder / "game.html", GameRecord.load(folder / "game.json")


def _numbers(cell: str, attribute: str) -> list[int]:
    return [int(n) for n in re.findall(rf'data-{attribute}="(\d+)"', cell)]


def _row_cells(dom: str, row: str) -> list[str]:
    return re.findall(r'<td class="l" data-column="\d">(.*?)</td>', re.search(rf'<tr class="{row}">(.*?)</tr>', dom, re.S).group(1))


@pytest.mark.parametrize("fragment", ["step=15", "round=6"])
def test_the_browser_shows_the_trans_orient_position(toe_page, fragment):
    path, record = toe_page
    dom = dom_at(path, fragment)
    key, value = fragment.split("=")
    states = list(record.states())
    index = int(value) if key == "step" else next(i for i, s in enumerate(states) if s.round >= int(value))
    state, deck = states[index], record.load_game().deck
    colours, C = deck.colours, len(deck.colours)

    def tokens(counts) -> dict[str, int]:
        return {colours[c]: n for c, n in enumerate(counts) if n}

    assert f'data-step="{index}"' in dom and f"round {state.round}" in dom
    assert [(_numbers(c, "card") or [0])[0] for c in _row_cells(dom, "lower")] == list(state.lower)
    assert [(_numbers(c, "card") or [0])[0] for c in _row_cells(dom, "upper")] == list(state.upper)
    piles = _row_cells(dom, "piles")
    assert [_cards(c) for c in piles] == [tokens(state.piles[k * C:(k + 1) * C]) for k in range(len(state.lower))]
    assert [k for k, c in enumerate(piles) if "station master" in c] == ([state.mcol] if state.mcol >= 0 else [])
    assert _cards(re.search(r'class="bag-tokens">(.*?)</span>;', dom, re.S).group(1)) == tokens(state.bag)
    rows = re.findall(r'<tr data-seat="\d".*?</tr>', dom, re.S)
    assert len(rows) == state.num_players
    for seat, row in enumerate(rows):
        assert record.strategies[seat] in row
        assert _numbers(_cells(row, "hand"), "card") == list(state.hands[seat])
        assert _numbers(_cells(row, "played"), "card") == list(state.played[seat])
        assert _cards(_cells(row, "reserve")) == tokens(state.reserves[seat * C:(seat + 1) * C])
        assert _cards(_cells(row, "discounts")) == tokens(state.discounts[seat * C:(seat + 1) * C])
        assert _cells(row, "capacity").startswith(f"{state.capacity[seat]} (keeps {5 + state.capacity[seat]})")
        assert int(_cells(row, "lug-count")) == len(state.luggage[seat])
        assert _numbers(_cells(row, "lug-cards"), "luggage")[:len(state.luggage[seat])] == list(state.luggage[seat])
    last, text = re.search(r'<div class="last">(.*?)</div>', dom, re.S).group(1), record.actions[index - 1][1]
    assert text.startswith("keep luggage") == (fragment == "step=15")  # step 15 follows seat 0's first keep
    if fragment == "step=15":  # the card kept is named only behind the switch
        assert re.fullmatch(rf'last action: seat 0: kept luggage <span class="hidden-info">\(seat 0: {text}\)</span>', last)


def test_the_browser_shows_the_trans_orient_final_scores(toe_page):
    path, record = toe_page
    dom = dom_at(path, "step=100000")
    assert "game over" in dom and 'class="final" style="display: block;"' in dom
    scores = [int(_cells(row, "score")) for row in re.findall(r'<tr data-seat="\d".*?</tr>', dom, re.S)]
    assert scores == [p["score"] for p in record.result["players"]]


# Keys, clicks and the address, driven by a script added after the viewer's: it presses keys as a
# user would (the viewer's own listeners receive them) and writes what the page shows after each.
_PRESS = """<script>
const trace = [], root = document.querySelector(".ttr-viewer");
const press = key => { document.dispatchEvent(new KeyboardEvent("keydown", {key, bubbles: true}));
  trace.push(root.getAttribute("data-step") + " " + location.hash); };
%s
const out = document.createElement("pre"); out.id = "trace"; out.textContent = trace.join("|"); document.body.append(out);
</script>"""


def dom_after(path: Path, fragment: str, script: str, tmp_path: Path, screenshot: Path | None = None) -> str:
    """The DOM (or a screenshot) of the page opened at ``#fragment`` once ``script`` (using
    ``press(key)``) has run."""
    if CHROMIUM is None:
        pytest.skip("no Chromium installed (apt-get install chromium; .ci/run installs it)")
    driven = tmp_path / f"driven-{path.name}"
    driven.write_text(path.read_text().replace("</body>", _PRESS % script + "</body>"), encoding="utf-8")
    if screenshot is not None:
        done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                               f"--screenshot={screenshot}", "--window-size=1280,1100",
                               f"{driven.resolve().as_uri()}#{fragment}"], capture_output=True, text=True, timeout=180)
        assert done.returncode == 0 and screenshot.stat().st_size > 10_000, done.stderr[-2000:]
    return dom_at(driven, fragment)


def _trace(dom: str) -> list[tuple[int, str]]:
    text = re.search(r'<pre id="trace">(.*?)</pre>', dom, re.S).group(1)
    return [(int(step), address) for step, address in (item.split(" ") for item in text.split("|"))]


def test_keys_step_through_the_game_and_the_address_follows(page, tmp_path):
    path, record = page
    last = len(record.actions)
    script = "".join(f'press("{key}");' for key in ("ArrowRight", "ArrowRight", "ArrowLeft", "End", "Home", "ArrowRight", "x"))
    shot = tmp_path / "after-keys.png"
    trace = _trace(dom_after(path, "step=10", script, tmp_path, screenshot=shot))
    steps = [11, 12, 11, last, 0, 1, 1]
    assert trace == [(k, f"#step={k}") for k in steps]


def test_the_last_claim_is_highlighted_and_a_players_tickets_drawn(page, tmp_path):
    path, record = page
    index = next(i for i, (_, text) in enumerate(record.actions, 1) if text.startswith("claim") and i > 20)
    state, _ = record.state_at(action=index)
    before, _ = record.state_at(action=index - 1)
    track = next(t for t in range(len(state.owner)) if state.owner[t] != before.owner[t])
    script = "root.querySelector('input[data-draw-tickets=\"1\"]').click();"
    dom = dom_after(path, f"step={index}", script, tmp_path)
    highlighted = re.findall(r'<line data-track="(\d+)"[^>]*class="last-claim"', dom)
    assert highlighted == [str(track)]
    drawn = sorted(int(t) for t in re.findall(r'data-ticket-of="1" data-ticket-id="(\d+)"', dom))
    assert drawn == sorted(state.held_tickets(1)) and drawn


def test_the_trans_orient_viewer_explains_its_card_notation(toe_page):
    text = toe_page[0].read_text()
    assert 'class="legend"' in text and "destination" in text and "passport" in text and "station master" in text
