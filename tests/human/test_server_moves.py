"""A move names the decision it answers: a repeated or stale one (a double click, a click on a
list the server has since replaced) is refused with 409, never played at the next decision, and
however many requests race for a decision, one is taken. Also the game's ends that are not its
rules': an AI seat that never answers, a constructor that raises, a person who does not come back."""

from __future__ import annotations

import threading
import time

import pytest

from plugins import RELEASE
from serving import request, served
from ttr_lab.core.registry import REGISTRY, StrategySpec
from ttr_lab.games.ticket_to_ride import TicketToRide


@pytest.fixture(scope="module")
def base():
    with served() as address:
        yield address


def _start(base: str, strategy: str = "greedy", seat: int = 0, seed: int = 5) -> tuple[int, dict]:
    tables = request(base, "/api/tables")[1]
    usa = next(v["variant"] for v in tables["variants"] if v["label"] == "Ticket to Ride: USA")
    return request(base, "/api/games", {"variant": usa, "players": 2, "seat": seat, "strategies": [strategy], "seed": seed})


def _wait(base: str, game: str, ready, seconds: float = 120) -> dict:
    """The first view ``ready`` accepts, asked until ``seconds`` have passed (an upper bound)."""
    deadline = time.monotonic() + seconds
    while True:
        view = request(base, f"/api/games/{game}")[1]
        if ready(view):
            return view
        assert time.monotonic() < deadline, view
        time.sleep(0.01)


def _my_turn(base: str, game: str, after: int = -1) -> dict:
    return _wait(base, game, lambda v: v.get("over") or (v.get("actions") and v.get("decision", v["version"]) != after))


def test_a_move_for_a_decision_already_answered_is_refused_not_played_at_the_next(base):
    game = _start(base)[1]["id"]
    first = _my_turn(base, game)
    decision = first.get("decision", 0)
    assert request(base, f"/api/games/{game}/act", {"decision": decision, "action": 0})[0] == 200
    second = _my_turn(base, game, after=decision)
    assert not second["over"]
    # The same click again (a double click, or a click before the page saw the new list).
    status, reply = request(base, f"/api/games/{game}/act", {"decision": decision, "action": 0})
    assert status == 409 and f"decision {decision} is not open" in reply["error"], (status, reply)
    now = request(base, f"/api/games/{game}")[1]
    assert now["actions"] == second["actions"] and now["decision"] == second["decision"]  # nothing was played


def test_a_move_naming_another_action_than_the_one_at_its_index_is_refused(base):
    game = _start(base, seed=8)[1]["id"]
    view = _my_turn(base, game)
    wrong = next(a["text"] for a in view["actions"][1:] if a["text"] != view["actions"][0]["text"])
    status, reply = request(base, f"/api/games/{game}/act", {"decision": view["decision"], "action": 0, "text": wrong})
    assert status == 409 and repr(wrong) in reply["error"]
    assert request(base, f"/api/games/{game}")[1]["actions"] == view["actions"]


def test_racing_posts_answer_each_decision_once(base):
    game = _start(base, seed=13)[1]["id"]
    accepted, decisions, last = 0, 0, -1
    while decisions < 15:
        view = _my_turn(base, game, after=last)
        if view["over"]:
            break
        last = view["decision"]
        gate, answers = threading.Barrier(8), []

        def post() -> None:
            gate.wait()
            answers.append(request(base, f"/api/games/{game}/act", {"decision": last, "action": 0})[0])

        threads = [threading.Thread(target=post) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        decisions += 1
        accepted += answers.count(200)
        assert sorted(set(answers)) in ([200, 409], [200]), answers
    assert decisions >= 5 and accepted == decisions


def test_threads_racing_in_the_session_take_one_choice_per_decision():
    from ttr_lab.human.session import Session, StaleMove

    session = Session(TicketToRide("usa"), 0, {1: StrategySpec(strategy="greedy")}, seed=4, pace=0.0)
    taken = refused = 0
    for _ in range(10):
        deadline = time.monotonic() + 120
        while not session.view().get("actions") and session.record is None:
            assert time.monotonic() < deadline
            time.sleep(0.005)
        if session.record is not None:
            break
        decision, gate, results = session.view()["decision"], threading.Barrier(8), []

        def choose() -> None:
            gate.wait()
            try:
                session.choose(decision, 0)
                results.append("taken")
            except StaleMove:
                results.append("refused")

        threads = [threading.Thread(target=choose) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results.count("taken") == 1, results
        taken, refused = taken + 1, refused + results.count("refused")
    session.stop()
    assert taken >= 5 and refused == 7 * taken


@pytest.fixture
def plugins(monkeypatch):
    monkeypatch.setitem(REGISTRY, "broken_at_birth", "plugins:BrokenAtBirth")
    monkeypatch.setitem(REGISTRY, "never_answers", "plugins:NeverAnswers")
    RELEASE.clear()
    yield
    RELEASE.set()


def test_a_strategy_whose_constructor_raises_is_a_400_naming_it(base, plugins):
    status, reply = _start(base, "broken_at_birth")
    assert status == 400 and "'broken_at_birth' could not be built: RuntimeError: no model file here" in reply["error"]


def test_an_ai_that_never_answers_ends_its_game_said_and_holds_a_bounded_number_of_threads(plugins):
    with served(ai_limit=0.2, ai_workers=2) as address:
        games = [_start(address, "never_answers", seat=1)[1]["id"] for _ in range(2)]
        for game in games:  # the AI plays first: each game ends, and says why
            view = _wait(address, game, lambda v: v.get("over"))
            assert "seat 0 (never_answers)" in view["error"] and "the game ended" in view["error"], view
        assert sum(t.name == "ai-seat" for t in threading.enumerate()) <= 2
        status, reply = _start(address, "greedy")  # both AI threads are held: said, not a hang
        assert status == 503 and "every one of the 2 AI threads is held" in reply["error"]
        RELEASE.set()  # the stuck calls return: their threads end, the server plays again
        _wait(address, games[0], lambda v: _start(address, "greedy")[0] == 200)


def test_a_person_back_after_the_idle_limit_is_told_the_game_ended(base):
    with served(idle_seconds=0.2) as address:
        game = _start(address)[1]["id"]
        view = _wait(address, game, lambda v: v.get("over"))
        assert view["error"] == "this game ended after 0.2 seconds idle (nobody chose a move)" and view["actions"] == []
        status, reply = request(address, f"/api/games/{game}/act", {"decision": view["decision"], "action": 0})
        assert status == 410 and reply["error"] == view["error"]


def test_a_move_after_the_idle_limit_is_told_so_even_before_the_game_thread_looks():
    from ttr_lab.human.session import GameEnded, Session

    session = Session(TicketToRide("usa"), 0, {1: StrategySpec(strategy="greedy")}, seed=6, pace=0.0)
    deadline = time.monotonic() + 120
    while not session.view().get("actions"):
        assert time.monotonic() < deadline
        time.sleep(0.005)
    session.touched -= 2 * 3600  # an hour and more since the person was asked (the thread wakes once a minute)
    with pytest.raises(GameEnded, match="this game ended after 60 minutes idle"):
        session.choose(session.view()["decision"], 0)
    while not session.view()["over"]:  # the page is told too
        assert time.monotonic() < deadline
        time.sleep(0.005)
    assert session.view()["error"].startswith("this game ended after 60 minutes idle") and session.record is None
