"""A hand-made review of a recorded game, for the viewer's and the server's tests: no search runs
(the review's numbers are the test's), so the tests are about drawing and clicking, and fast.

Seat ``seat``'s decisions are reviewed; four of them lost points: two claims whose best move is
another claim (15 and 9 points), a draw (4) and one more claim or draw (2, not among the three
costliest); every other decision is within noise of the best."""

from __future__ import annotations

from typing import Any

from ttr_lab.games.ticket_to_ride import Claim
from ttr_lab.review.reviewed import ReviewedDecision, ReviewedGame
from ttr_lab.review.runner import margins_of

LOSSES = (15.0, 9.0, 4.0, 2.0)


def hand_review(record: Any, seat: int = 0) -> ReviewedGame:
    game = record.load_game()
    claims_left, other_left = [15.0, 9.0], [4.0, 2.0]
    decisions = []
    lead = 0.0
    for index, state in enumerate(record.states()):
        if index >= len(record.actions):
            break
        who, text = record.actions[index]
        if who != seat:
            continue
        played = game.parse_action(text)
        best, lost = text, 0.0
        others = [a for a in state.legal_actions() if isinstance(a, Claim) and a != played]
        if isinstance(played, Claim) and claims_left and any(a.track != played.track for a in others):
            best = state.action_text(next(a for a in others if a.track != played.track))
            lost = claims_left.pop(0)
        elif not isinstance(played, Claim) and other_left and index > 10 and len(state.legal_actions()) > 1:
            best = state.action_text(next(a for a in state.legal_actions() if a != played))
            lost = other_left.pop(0)
        lead += 1.5 - lost / 3
        kind = "claim" if isinstance(played, Claim) else "draw" if text.startswith("draw") else "tickets"
        decisions.append(ReviewedDecision(decision=index, seat=seat, entrant=record.strategies[seat], kind=kind,
                                          played=text, best=best, value_played=lead, value_best=lead + lost,
                                          difference=lost, error=0.5 if lost else 0.0, samples=8, playouts=16))
    assert not claims_left and not other_left, "the game has too few decisions of each kind for the hand review"
    return ReviewedGame("game", record.game, dict(record.options), record.strategies, margins_of(record), (seat,),
                        16, 0, tuple(decisions))


def costly(review: ReviewedGame, seat: int = 0) -> list[ReviewedDecision]:
    return review.costliest(seat)
