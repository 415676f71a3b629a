"""The metrics that explain a result (route points per train placed, trains left, tickets drawn,
kept and completed, points by source): declared by the game and right on played games."""

from __future__ import annotations

import random

import pytest

from ttr_lab.strategies.ticket_to_ride.one_step_thinking import OneStepThinking
from ttr_lab import play_game
from ttr_lab.games.ticket_to_ride import TicketToRide, load_board
from ttr_lab.games.ticket_to_ride import DrawTickets, KeepTickets, Phase, new_game
from ttr_lab.games.ticket_to_ride.result import ticket_draws

BOARD = load_board("usa")
WHY = ("route_points", "ticket_points", "longest_bonus", "route_points_per_train", "trains_left", "trains_placed",
       "ticket_draws", "tickets_drawn", "tickets_held", "tickets_completed")


class TicketGlutton:
    """Keeps two tickets at setup (the third goes under the deck), then draws tickets whenever it
    may and keeps every ticket offered: runs the ticket deck dry, the last draw short."""

    name = "ticket_glutton"

    def act(self, observation, legal_actions, rng):
        for a in legal_actions:
            if type(a) is DrawTickets:
                return a
        keeps = [a for a in legal_actions if type(a) is KeepTickets]
        if keeps:
            if observation.phase is Phase.INITIAL_TICKETS:
                return min(keeps, key=lambda a: len(a.indices))
            return max(keeps, key=lambda a: len(a.indices))
        return legal_actions[rng.randrange(len(legal_actions))]


def test_the_game_declares_the_why_metrics():
    declared = {m.name: m for m in TicketToRide(BOARD).metrics}
    assert set(WHY) <= set(declared)
    assert declared["route_points_per_train"].kind == "float"


@pytest.mark.parametrize("players", [2, 4])
def test_why_metrics_of_played_games_agree_with_the_record(players):
    for seed in (1, 2):
        record = play_game(TicketToRide(BOARD), [OneStepThinking() for _ in range(players)], seed)
        outcome = record.outcome()
        assert record.replay().outcome() == outcome  # the same figures from a replayed record
        for seat, p in enumerate(outcome.players):
            m = p.metrics
            draws = sum(1 for pl, action in record.actions if pl == seat and action == "tickets")
            assert m["ticket_draws"] == draws
            assert m["trains_placed"] + m["trains_left"] == BOARD.ruleset.trains_per_player
            assert m["route_points_per_train"] == pytest.approx(m["route_points"] / m["trains_placed"])
            assert m["tickets_drawn"] == 3 + 3 * draws  # a full deck: every draw offers three
            assert m["tickets_completed"] <= m["tickets_held"] <= m["tickets_drawn"]
            assert p.score == m["route_points"] + m["ticket_points"] + m["longest_bonus"]


def test_tickets_drawn_follows_the_ticket_deck_until_it_runs_dry():
    state = new_game(BOARD, 2, 5)
    seats, rng = [TicketGlutton(), TicketGlutton()], random.Random(5)
    while not state.is_terminal() and (state.phase is not Phase.TURN or state.ticket_deck):
        state.apply(seats[state.player].act(state.observation(state.player), state.legal_actions(), rng))
    assert not state.ticket_deck  # every ticket handed out: the last draw may have offered fewer than three
    draws, offered = ticket_draws(state)
    held = [len(t) for t in state.tickets]
    # Every ticket offered in play was kept; at setup each returned one of three.
    assert offered == [h + 1 for h in held]
    assert sum(held) == len(BOARD.tickets)
    assert sum(draws) * 3 > sum(held) - 4  # the last draw came up short, and was counted as such
