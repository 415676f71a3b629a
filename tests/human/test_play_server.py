"""``ttr-lab serve``'s endpoints on a real server: a game's whole course over HTTP, what the
browser receives (the person's observation only), two games at once kept apart, and bad
requests, one row per probe: each gets a 4xx status and a JSON error naming the cause, and the
game it concerned goes on."""

from __future__ import annotations

import json
import time

import pytest

from serving import request, served
from ttr_lab.core.record import GameRecord


@pytest.fixture(scope="module")
def base():
    with served() as address:
        yield address


def _variant(base: str, label: str) -> int:
    return next(v["variant"] for v in request(base, "/api/tables")[1]["variants"] if v["label"] == label)


def _start(base: str, label: str = "Ticket to Ride: USA", strategy: str = "greedy", seed: int = 5) -> str:
    status, reply = request(base, "/api/games", {"variant": _variant(base, label), "players": 2, "seat": 0,
                                                 "strategies": [strategy], "seed": seed})
    assert status == 200, reply
    return reply["id"]


def _my_turn(base: str, game: str) -> dict:
    deadline = time.monotonic() + 60
    while True:
        view = request(base, f"/api/games/{game}")[1]
        if view.get("actions") or view.get("over"):
            return view
        assert time.monotonic() < deadline
        time.sleep(0.01)


def _act(base: str, game: str, view: dict, action) -> tuple[int, dict]:
    """Play ``action`` (an index or a text) at the decision ``view`` shows, as the page does."""
    return request(base, f"/api/games/{game}/act", {"decision": view["decision"], "action": action})


def _finish(base: str, game: str) -> dict:
    while True:
        view = _my_turn(base, game)
        if view["over"]:
            return view
        claims = [i for i, a in enumerate(view["actions"]) if a["text"].startswith("claim")]
        assert _act(base, game, view, (claims or [0])[0])[0] == 200


@pytest.mark.parametrize("label", ["Ticket to Ride: USA", "Ticket to Ride: Legendary Asia",
                                   "Trans-Orient Express (stand-in deck, not the published cards)"])
def test_a_whole_game_over_http_of_every_game(base, label):
    game = _start(base, label, strategy="random")
    view = _finish(base, game)
    assert view["outcome"]["rows"] and view["error"] is None
    status, data = request(base, f"/games/{game}/record.json")
    record = GameRecord.from_dict(data)
    assert status == 200 and record.strategies[0] == "human" and record.replay().is_terminal()
    status, page = request(base, f"/games/{game}/replay")
    assert status == 200 and page.startswith("<!doctype html>")


def test_the_browser_gets_the_persons_observation_only(base):
    game = _start(base, seed=11)
    first = _my_turn(base, game)
    view = _finish(base, game)
    record = GameRecord.from_dict(request(base, f"/games/{game}/record.json")[1])
    start = next(iter(record.states()))
    board = start.board
    theirs = {board.tickets[t].label for t in start.offered_tickets(1)} - {board.tickets[t].label for t in start.offered_tickets(0)}
    their_hand = start.hand(1)
    assert theirs and first["step"]["hands"][1] == {} and first["step"]["held"][1] == []
    # Exactly what the person's observation gives, and nothing beside it.
    assert set(first) == {"id", "started", "title", "you", "names", "to_play", "thinking", "over", "step", "scores",
                          "events", "actions", "error", "outcome", "version", "decision"}
    seen = start.observation(0)
    live = record.load_game().views.live()
    assert first["step"] == json.loads(json.dumps(live.step(seen, None)))
    assert [a["text"] for a in first["actions"]] == [str(a) for a in start.legal_actions()]
    text = json.dumps(first)
    assert not any(label in text for label in theirs)  # the opponent's dealt tickets are nowhere in it
    assert first["step"]["cards"][1] == sum(their_hand)  # their hand's size is public, not its cards
    assert view["over"]


def test_two_games_at_once_do_not_mix(base):
    one, two = _start(base, seed=1), _start(base, seed=2)
    assert one != two and len(one) >= 20 and len(two) >= 20  # secrets.token_urlsafe(18): 24 characters
    before = _my_turn(base, two)
    assert _act(base, one, _my_turn(base, one), 0)[0] == 200
    after = request(base, f"/api/games/{two}")[1]
    assert after["version"] == before["version"] and after["step"] == before["step"]
    assert _act(base, two, before, 0)[0] == 200


def _probe_game(base: str) -> str:
    game = _start(base, seed=7)
    _my_turn(base, game)
    return game


# (name, method and path (GAME: a game waiting for the person's choice), body (variant "USA": that
# map's number), status, words in the error)
PROBES = [
    ("start: body not JSON", "POST /api/games", b"{variant: 0", 400, "not JSON"),
    ("start: body a list", "POST /api/games", [1, 2], 400, "a JSON object, not a list"),
    ("start: variant a path", "POST /api/games", {"variant": "/etc/passwd", "players": 2, "strategies": ["random"]}, 400,
     "variant is a number"),
    ("start: variant out of range", "POST /api/games", {"variant": 999, "players": 2, "strategies": ["random"]}, 400,
     "variant is a number"),
    ("start: one player", "POST /api/games", {"variant": "USA", "players": 1, "strategies": []}, 400, "takes 2 to 5 players"),
    ("start: a strategy by import path", "POST /api/games", {"variant": "USA", "players": 2, "strategies": ["os:system"]}, 400,
     "strategies is a list of 1 of random"),
    ("start: too few strategies", "POST /api/games", {"variant": "USA", "players": 3, "strategies": ["random"]}, 400,
     "strategies is a list of 2"),
    ("start: seat out of range", "POST /api/games", {"variant": "USA", "players": 2, "seat": 2, "strategies": ["random"]}, 400,
     "seat is a number from 0 to 1"),
    ("start: negative seed", "POST /api/games", {"variant": "USA", "players": 2, "strategies": ["random"], "seed": -1}, 400,
     "seed is a whole number"),
    ("preview: variant not a number", "GET /api/preview?variant=x", None, 400, "are numbers"),
    ("view: forged game id", "GET /api/games/forged-id", None, 404, "no such game"),
    ("act: forged game id", "POST /api/games/forged-id/act", {"action": 0, "decision": 1}, 404, "no such game"),
    ("act: body not JSON", "POST /api/games/GAME/act", b"\xff\xfe", 400, "not JSON"),
    ("act: no action", "POST /api/games/GAME/act", {"decision": "D"}, 400, "names the decision it answers and the action"),
    ("act: no decision", "POST /api/games/GAME/act", {"action": 0}, 400, "names the decision it answers"),
    ("act: decision not a number", "POST /api/games/GAME/act", {"action": 0, "decision": "1"}, 400,
     "decision is the number of the decision"),
    ("act: a decision not open", "POST /api/games/GAME/act", {"action": 0, "decision": 999}, 409, "decision 999 is not open"),
    ("act: the text of another action", "POST /api/games/GAME/act", {"action": 0, "decision": "D", "text": "draw blind"},
     409, "not 'draw blind'"),
    ("act: index out of range", "POST /api/games/GAME/act", {"action": 9999, "decision": "D"}, 400, "no action 9999"),
    ("act: a boolean", "POST /api/games/GAME/act", {"action": True, "decision": "D"}, 400, "an index or a text, not bool"),
    ("act: a list", "POST /api/games/GAME/act", {"action": [0], "decision": "D"}, 400, "an index or a text, not list"),
    ("act: not an action", "POST /api/games/GAME/act", {"action": "fly to the moon", "decision": "D"}, 400,
     "cannot read action"),
    ("act: not legal now", "POST /api/games/GAME/act", {"action": "draw blind", "decision": "D"}, 400, "not legal now"),
    ("start: nested 60,000 deep", "POST /api/games", b"[" * 60_000, 400, "nested too deep"),
    ("start: a strategy a list", "POST /api/games", {"variant": "USA", "players": 2, "strategies": [[1]]}, 400,
     "strategies is a list of 1"),
    ("record before the end", "GET /games/GAME/record.json", None, 409, "not over yet"),
    ("replay before the end", "GET /games/GAME/replay", None, 409, "not over yet"),
]


@pytest.mark.parametrize("name, where, body, status, words", PROBES, ids=[p[0] for p in PROBES])
def test_a_bad_request_gets_a_clear_error_and_the_game_goes_on(base, name, where, body, status, words):
    method, path = where.split(" ")
    game = _probe_game(base) if "GAME" in path else None
    before = request(base, f"/api/games/{game}")[1] if game else None
    if isinstance(body, dict) and body.get("variant") == "USA":
        body = {**body, "variant": _variant(base, "Ticket to Ride: USA")}
    if isinstance(body, dict) and body.get("decision") == "D":
        body = {**body, "decision": before["decision"]}
    raw = body if isinstance(body, bytes) else None
    got, reply = request(base, path.replace("GAME", game or ""), None if raw else body, raw=raw, method=method)
    assert got == status and isinstance(reply, dict) and words in reply["error"], (got, reply)
    if game:  # the game goes on: the same decision, still open, and a legal choice plays
        assert request(base, f"/api/games/{game}")[1]["actions"] == before["actions"]
        assert _act(base, game, before, 0)[0] == 200


def test_a_designers_map_folder_named_at_start_up_is_offered_and_plays(tmp_path):
    import shutil

    from ttr_lab.games.ticket_to_ride import TicketToRide
    from ttr_lab.human.server import shipped_variants
    from ttr_lab.human.session import Session
    from ttr_lab.core.registry import StrategySpec

    folder = tmp_path / "my_map"
    shutil.copytree(dict(TicketToRide.data_folders()[1])["usa"], folder,
                    ignore=shutil.ignore_patterns("__pycache__"))
    toml = folder / "map.toml"  # a map of its own: another name and title
    toml.write_text(toml.read_text().replace('name = "usa"', 'name = "my_map"').replace('"Ticket to Ride: USA"', '"My map"'))
    variants = shipped_variants([("ticket_to_ride", {"map": str(folder)})])
    mine = variants[-1]
    assert mine.options == {"map": str(folder)} and mine.label.startswith("My map")
    game = TicketToRide(str(folder))
    session = Session(game, 0, {1: StrategySpec(strategy="greedy")}, seed=3, pace=0.0)
    deadline = time.monotonic() + 60
    while session.record is None:
        assert time.monotonic() < deadline and session.error is None
        view = session.view()
        if view.get("actions"):
            texts = [a["text"] for a in view["actions"]]
            session.choose(view["decision"], next((i for i, t in enumerate(texts) if t.startswith("claim")), 0))
        else:
            time.sleep(0.005)
    assert session.record.options == {"map": str(folder)} and session.view()["over"]
