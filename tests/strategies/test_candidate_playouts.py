"""A round of candidates in one native call scores what one play-out call per candidate scores."""

from __future__ import annotations

import random

import pytest

import ttr_lab.strategies.ticket_to_ride.search.mcts as mcts
from ttr_lab.core.game import load_game
from ttr_lab.strategies.ticket_to_ride.search.mcts.candidate_playouts import NATIVE, ROUNDS, candidate_playouts
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

USA = load_game("ticket_to_ride", map="usa")


def _midgame(players: int, seed: int, turns: int):
    state, planner, rng = USA.new_game(players, seed), TicketPlanner(), random.Random(seed)
    while state.turns < turns:
        state.apply(planner.act(state.observation(state.current_player), state.legal_actions(), rng))
    return state


@pytest.mark.parametrize("playout", ["planner", "random"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_round_scores_each_candidate_as_its_own_play_out_call(playout, players):
    state = _midgame(players, seed=players, turns=12)
    moves = state.legal_actions()[:6]
    seeds = [5, 17] if playout == "random" else [5]
    batches, decisions = candidate_playouts(playout == "planner")(state, moves, seeds)
    alone, total = [], 0
    for m in moves:
        child = state.clone()
        child.apply(m)
        scores, spent = NATIVE[playout](child, seeds)
        alone.append(scores)
        total += spent
    assert batches == alone and decisions == total
    assert len(batches) == len(moves) and all(len(b) == len(seeds) for b in batches)


def test_a_move_the_sample_refuses_is_named():
    state = _midgame(2, seed=1, turns=6)
    other = _midgame(2, seed=2, turns=6)
    illegal = next(a for a in other.legal_actions() if a not in state.legal_actions())
    with pytest.raises(ValueError, match="not legal"):
        candidate_playouts(True)(state, [state.legal_actions()[0], illegal], [1])


@pytest.mark.parametrize("playout", ["planner", "random"])
def test_mcts_plays_the_same_game_with_and_without_rounds(playout, monkeypatch):
    def game(players: int):
        state, rng, other = USA.new_game(players, 3), random.Random(3), TicketPlanner()
        search = mcts.MCTS(steps=600, playout=playout, leaf_playouts=1 if playout == "planner" else 2)
        moves = []
        while not state.is_terminal() and len(moves) < 25:
            p = state.current_player
            if p == 0:
                found = search.search(state.observation(p), state.legal_actions(), rng)
                action = found.action
                moves.append((str(action), found.rounds, found.playouts, found.simulations))
            else:
                action = other.act(state.observation(p), state.legal_actions(), rng)
            state.apply(action)
        return moves

    with_rounds = game(3)
    monkeypatch.setitem(ROUNDS, playout, None)
    assert game(3) == with_rounds
    assert any(rounds for _, rounds, _, _ in with_rounds)
