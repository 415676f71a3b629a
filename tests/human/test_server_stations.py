"""A station build through ``ttr-lab serve``'s API holds to the server's guards like any move: a
city's payments are actions whose target is that city's dot, the build answered with a stale
decision number is refused (409), one without the page's token, from another Origin or Host, or not
sent as JSON is refused,
a station on a city not offered is not legal (400), nothing of these is played, and the build
sent right is the one applied: the city shows the person's station."""

from __future__ import annotations

import time

from serving import request, served


def _wait(base: str, game: str, ready, seconds: float = 120) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        view = request(base, f"/api/games/{game}")[1]
        if ready(view):
            return view
        assert time.monotonic() < deadline, view
        time.sleep(0.01)


def _first_turn(base: str) -> tuple[str, dict]:
    """A 2-player Europe game with the person in seat 0, at the first decision offering stations."""
    tables = request(base, "/api/tables")[1]
    europe = next(v["variant"] for v in tables["variants"] if v["label"] == "Ticket to Ride: Europe")
    game = request(base, "/api/games", {"variant": europe, "players": 2, "seat": 0, "strategies": ["greedy"],
                                        "seed": 4})[1]["id"]
    last = -1
    while True:
        view = _wait(base, game, lambda v: v.get("over") or (v.get("actions") and v["decision"] != last))
        assert not view["over"]
        if any(a["text"].startswith("station ") for a in view["actions"]):
            return game, view
        keep = max((i for i, a in enumerate(view["actions"]) if a["keep"] is not None),
                   key=lambda i: len(view["actions"][i]["keep"]))
        assert request(base, f"/api/games/{game}/act", {"decision": view["decision"], "action": keep})[0] == 200
        last = view["decision"]


def test_a_station_build_is_a_guarded_move_and_the_one_sent_is_applied():
    with served() as base:
        game, view = _first_turn(base)
        builds = [(i, a) for i, a in enumerate(view["actions"]) if a["text"].startswith("station ")]
        assert all(a["target"].startswith('circle[data-city="') for _, a in builds)
        # Several payments for one city share its dot (the page asks which).
        by_city: dict[str, list[int]] = {}
        for i, a in builds:
            by_city.setdefault(a["target"], []).append(i)
        target, options = max(by_city.items(), key=lambda kv: len(kv[1]))
        assert len(options) > 1
        choice = options[-1]
        text = view["actions"][choice]["text"]
        city = int(target.split('"')[1])
        decision = view["decision"]
        assert request(base, f"/api/games/{game}/act", {"decision": decision - 1, "action": choice})[0] == 409
        assert request(base, f"/api/games/{game}/act", {"decision": decision, "action": choice}, guarded=False)[0] == 403
        assert request(base, f"/api/games/{game}/act", {"decision": decision, "action": choice},
                       headers={"Origin": "http://evil.example"})[0] == 403
        port = base.rsplit(":", 1)[1]
        assert request(base, f"/api/games/{game}/act", {"decision": decision, "action": choice},
                       headers={"Host": f"evil.example:{port}"})[0] in (400, 403, 421)
        assert request(base, f"/api/games/{game}/act", {"decision": decision, "action": choice},
                       headers={"Content-Type": "text/plain;charset=UTF-8"})[0] == 415
        status, reply = request(base, f"/api/games/{game}/act", {"decision": decision, "action": "station Nowhere with 1 red"})
        assert status == 400, reply
        # The index and the text must name the same action.
        status, reply = request(base, f"/api/games/{game}/act",
                                {"decision": decision, "action": options[0], "text": text})
        assert status in (400, 409), reply
        unchanged = request(base, f"/api/games/{game}")[1]
        assert unchanged["decision"] == decision and unchanged["step"]["stations"][city] == -1
        assert request(base, f"/api/games/{game}/act", {"decision": decision, "action": choice, "text": text})[0] == 200
        after = _wait(base, game, lambda v: v["step"]["stations"][city] == 0)
        assert f"seat 0 (you): {text}" in after["events"]
        assert sum(o == 0 for o in after["step"]["stations"]) == 1 and after["step"]["stations_left"][0] == 2


def test_the_finished_games_view_holds_the_borrowed_tracks_and_the_station_columns(monkeypatch):
    """To the end of a game: the last view's step carries what the record's result says the
    stations borrowed (``LiveView.final``; here the result is said to lend track 5 to seat 0's
    first station, as this short game's stations lend none), and the outcome table counts the
    stations built and the points for those kept."""
    from ttr_lab.games.ticket_to_ride import live

    monkeypatch.setattr(live, "borrowed_tracks", lambda result: [[0, 20, 5]])
    with served() as base:
        game, view = _first_turn(base)
        last = -1
        while not view["over"]:
            texts = [a["text"] for a in view["actions"]]
            claims = [i for i, t in enumerate(texts) if t.startswith("claim")]
            choice = claims[-1] if claims else texts.index("draw blind") if "draw blind" in texts else 0
            assert request(base, f"/api/games/{game}/act", {"decision": view["decision"], "action": choice})[0] == 200
            last = view["decision"]
            view = _wait(base, game, lambda v: v.get("over") or (v.get("actions") and v["decision"] != last))
        view = _wait(base, game, lambda v: v.get("outcome"))
        assert view["step"]["borrowed"] == [[0, 20, 5]]
        headers = view["outcome"]["headers"]
        assert "stations kept" in headers and headers[-1] == "stations built"
