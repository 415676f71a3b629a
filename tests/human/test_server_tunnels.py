"""A tunnel's answer through ``ttr-lab serve``'s API holds to the server's guards like any move:
the pay-or-decline decision has its own number, the claim's decision answered again is refused
(409) rather than played as the tunnel's answer, an answer without the page's token is refused,
and a payment the hand cannot make is not legal. The view shows the turned-over cards."""

from __future__ import annotations

import time

from serving import request, served
from ttr_lab.games.ticket_to_ride import TicketToRide

TUNNELS = {t.id for t in TicketToRide("europe").board.tracks if t.tunnel}


def _wait(base: str, game: str, ready, seconds: float = 120) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        view = request(base, f"/api/games/{game}")[1]
        if ready(view):
            return view
        assert time.monotonic() < deadline, view
        time.sleep(0.01)


def test_a_tunnels_answer_is_a_guarded_decision_of_its_own():
    with served() as base:
        tables = request(base, "/api/tables")[1]
        europe = next(v["variant"] for v in tables["variants"] if v["label"] == "Ticket to Ride: Europe")
        game = request(base, "/api/games", {"variant": europe, "players": 2, "seat": 0, "strategies": ["greedy"],
                                            "seed": 3})[1]["id"]
        last = -1
        while True:
            view = _wait(base, game, lambda v: v.get("over") or (v.get("actions") and v["decision"] != last))
            assert not view["over"], "no tunnel answer before the end"
            texts = [a["text"] for a in view["actions"]]
            if view["step"]["tunnel"] is not None:
                break
            # Keep every ticket, claim a tunnel when one is offered, else draw blind.
            keep = max((i for i, a in enumerate(view["actions"]) if a["keep"] is not None),
                       key=lambda i: len(view["actions"][i]["keep"]), default=None)
            tunnel = next((i for i, a in enumerate(view["actions"]) if a["text"].startswith("claim")
                           and int(a["target"].split('"')[1]) in TUNNELS), None)
            choice = keep if keep is not None else tunnel if tunnel is not None else texts.index("draw blind")
            assert request(base, f"/api/games/{game}/act", {"decision": view["decision"], "action": choice})[0] == 200
            claimed, last = view["decision"], view["decision"]
        assert view["decision"] == claimed + 1 and "decline" in texts
        assert len(view["step"]["tunnel"]["revealed"]) == 3 and view["step"]["tunnel"]["extra"] >= 1
        # The claim's decision again: refused, nothing played.
        status, reply = request(base, f"/api/games/{game}/act", {"decision": claimed, "action": texts.index("decline")})
        assert status == 409 and f"decision {claimed} is not open" in reply["error"]
        # Without the token: refused.
        status, _ = request(base, f"/api/games/{game}/act", {"decision": view["decision"], "action": "decline"},
                            guarded=False)
        assert status == 403
        # A payment beyond what is asked is not legal.
        status, reply = request(base, f"/api/games/{game}/act", {"decision": view["decision"], "action": "pay 9 loco"})
        assert status == 400 and "not legal" in reply["error"]
        assert request(base, f"/api/games/{game}")[1]["step"]["tunnel"] == view["step"]["tunnel"]
        status, _ = request(base, f"/api/games/{game}/act", {"decision": view["decision"], "action": "decline"})
        assert status == 200
        after = _wait(base, game, lambda v: v["step"]["tunnel"] is None)
        assert any(e.startswith("seat 0 (you): decline") for e in after["events"])
