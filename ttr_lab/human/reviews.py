"""``ttr-lab serve``'s "review this game": a finished game's review run in a background thread,
its progress published, and drawn as the replay viewer draws a review (the evaluation graph and
the three moves that cost the person most, each a link to its position in the replay).

    POST /api/games/ID/review   {"decision": N}: review the finished game whose last decision is N
    GET  /api/games/ID/review   the review's progress, then its graph (HTML) and the replay's address

The review itself belongs to a layer above this one (``ttr_lab.review``): the command line hands
``make_app`` a ``reviewer`` (record, seats, advance) -> the review's per-game JSON; without one
the server offers no review. Bounded: one review runs at a time, on a thread of its own (never the
AI seats'), at most ``MAX_WAITING`` wait behind it (past that a request is refused with 503), a
game is reviewed once (asking again answers the same review), and at most ``MAX_KEPT`` reviews are
kept (the oldest finished one goes first). The requests pass the server's guard like any other
(Host, Origin, token, JSON body), and the POST names the game's last decision, as a move does:
a page that has not seen the game end is refused with 409.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Sequence

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ttr_lab.core.errors import TTRLabError
from ttr_lab.core.review_view import panel_html, review_data

MAX_WAITING = 4  # reviews waiting behind the one running
MAX_KEPT = 32  # reviews kept (as many as the server keeps games)

Reviewer = Callable[[Any, Sequence[int], Callable[[int], None]], dict[str, Any]]


class Busy(Exception):
    """Too many reviews waiting: the request is refused, nothing is lost."""


class _Stopped(Exception):
    """The server is closing: the review running gives up at its next decision."""


@dataclass
class Job:
    """One game's review: what to review, how far it is, and what it found."""

    game_id: str
    record: Any
    seats: tuple[int, ...]
    colours: tuple[str, ...]
    total: int
    done: int = 0
    state: str = "waiting"  # waiting, running, done, failed
    error: str | None = None
    review: dict[str, Any] | None = None
    panel: str = field(default="", repr=False)

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state, "done": self.done, "total": self.total, "error": self.error}
        if self.state == "done":
            out.update(panel=self.panel, replay=f"/games/{self.game_id}/replay")
        return out


class Reviews:
    """The server's reviews, run one at a time by ``reviewer`` on a thread of their own."""

    def __init__(self, reviewer: Reviewer, max_waiting: int = MAX_WAITING, max_kept: int = MAX_KEPT) -> None:
        self.reviewer, self.max_waiting, self.max_kept = reviewer, max_waiting, max_kept
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def ask(self, game_id: str, record: Any, seats: Sequence[int], colours: Sequence[str] = ()) -> Job:
        """The review of ``game_id`` (its ``record``, the ``seats`` to review): the one asked
        before, or a new one queued; ``Busy`` when ``max_waiting`` already wait."""
        with self._lock:
            if game_id in self._jobs:
                return self._jobs[game_id]
            waiting = sum(1 for j in self._jobs.values() if j.state == "waiting")
            if waiting >= self.max_waiting:
                raise Busy(f"{waiting} reviews are waiting already; ask again when one has finished")
            finished = [k for k, j in self._jobs.items() if j.state in ("done", "failed")]
            while len(self._jobs) >= self.max_kept and finished:
                del self._jobs[finished.pop(0)]
            total = sum(1 for seat, _ in record.actions if seat in set(seats))
            job = self._jobs[game_id] = Job(game_id, record, tuple(seats), tuple(colours), total)
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="reviews", daemon=True)
                self._thread.start()
        self._queue.put(job)
        return job

    def status(self, game_id: str) -> dict[str, Any] | None:
        with self._lock:
            job = self._jobs.get(game_id)
            return None if job is None else job.status()

    def review_of(self, game_id: str) -> dict[str, Any] | None:
        """The finished review of ``game_id`` (its JSON), or None."""
        with self._lock:
            job = self._jobs.get(game_id)
            return job.review if job is not None and job.state == "done" else None

    def stop(self) -> None:
        """Stop the thread: the review running ends at its next decision, the waiting ones never start."""
        self._stop.set()
        self._queue.put(None)

    def _work(self) -> None:
        while not self._stop.is_set():
            job = self._queue.get()
            if job is None or self._stop.is_set():
                return
            self._run(job)

    def _run(self, job: Job) -> None:
        def advance(n: int) -> None:
            if self._stop.is_set():
                raise _Stopped
            with self._lock:
                job.done += n

        with self._lock:
            job.state = "running"
        try:
            review = self.reviewer(job.record, job.seats, advance)
            panel = panel_html(review_data(review, job.record.actions), len(job.record.actions) + 1, job.colours,
                               link=f"/games/{job.game_id}/replay", target="_blank")
        except _Stopped:
            return
        except TTRLabError as exc:
            failed = " ".join(str(exc).split())
        except Exception as exc:  # noqa: BLE001 - the page says what went wrong; the server goes on
            failed = f"the review failed: {type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
        else:
            with self._lock:
                job.review, job.panel, job.state, job.done = review, panel, "done", job.total
            return
        with self._lock:
            job.state, job.error = "failed", failed


def review_routes(reviews: Reviews | None, finished: Callable[[Request], Any], session: Callable[[Request], Any],
                  body: Callable[[Request], Awaitable[dict[str, Any]]], refused: Callable[[int, str], Exception]) -> list[Route]:
    """The two routes, over the server's own ways to find a game (``finished``: one that is over;
    ``session``: any), to read a body and to refuse (``refused(status, message)``)."""

    def offered() -> Reviews:
        if reviews is None:
            raise refused(404, "this server offers no review (ttr-lab serve --review-budget 0)")
        return reviews

    async def ask(request: Request) -> Response:
        mine = offered()
        game = finished(request)
        data = await body(request)
        decision, last = data.get("decision"), game.view().get("decision")
        if isinstance(decision, bool) or not isinstance(decision, int):
            raise refused(400, f'the body names the game\'s last decision: {{"decision": N}}, not {decision!r}')
        if decision != last:
            raise refused(409, f"decision {decision} is not this game's last ({last}): reload the page")
        pieces = game.live.page(game.names)
        colours = [p["colour"] for p in pieces.data.get("players", [])] if pieces is not None else []
        try:
            mine.ask(game.id, game.record, [game.person], colours)
        except Busy as exc:
            raise refused(503, str(exc)) from None
        return JSONResponse(mine.status(game.id))

    async def progress(request: Request) -> Response:
        found = offered().status(session(request).id)
        if found is None:
            raise refused(404, "nobody asked for this game's review yet")
        return JSONResponse(found)

    return [Route("/api/games/{game_id}/review", ask, methods=["POST"]),
            Route("/api/games/{game_id}/review", progress)]


# The page's part (inside its script: ``$``, ``api``, ``esc``, ``game`` and ``current`` in scope):
# a "review this game" button in the outcome when the server offers reviews; a click asks for the
# review naming the game's last decision, then its progress is shown until the graph comes.
PAGE_SCRIPT = r"""
let reviewing = false;
fetch("/api/tables").then(r => r.json()).then(t => { reviewing = !!t.review; }).catch(() => {});
function reviewButton(){ return reviewing ? ' · <button id="review-button">review this game</button>' : ""; }
function reviewShown(r){
  let box = $("#review");
  if (!box){ box = document.createElement("div"); box.id = "review"; $("#outcome").append(box); }
  box.setAttribute("data-state", r.state);
  if (r.state === "done"){
    box.innerHTML = r.panel + `<a id="reviewed-replay" href="${r.replay}" target="_blank">the replay with the review</a>`;
  } else if (r.state === "failed"){
    box.innerHTML = `<span class="error">${esc(r.error)}</span>`;
  } else {
    box.innerHTML = `reviewing your decisions (what mcts_learned would have played): `
      + `<progress max="${r.total}" value="${r.done}"></progress> ${r.done} of ${r.total}`
      + (r.state === "waiting" ? " (waiting for another review to finish)" : "");
  }
}
async function reviewFollow(id){
  try {
    const r = await api(`/api/games/${id}/review`);
    if (id !== game) return;
    reviewShown(r);
    if (r.state === "waiting" || r.state === "running") setTimeout(() => reviewFollow(id), 400);
  } catch (e) { say(e.message, true); }
}
document.addEventListener("click", async e => {
  if (e.target.id !== "review-button" || !game || !current) return;
  e.target.disabled = true;
  try { reviewShown(await api(`/api/games/${game}/review`, {decision: current.decision})); reviewFollow(game); }
  catch (err) { say(err.message, true); e.target.disabled = false; }
});
"""
