"""The judge of one decision: what the strongest search would have played there, and what the move
played and that move are each worth, measured on the same samples.

Everything here reads the seat's observation only: the search and the play-outs sample the hidden
cards and tickets with the game's determinizer (``determinizer``), as a player at that seat could,
never from the true state. Two steps, each on its own samples so the second is not biased by the
first's choice (a winner's curse):

- **choose**: ``mcts_halving`` with the shipped policy network as its prior where the map has one
  (``mcts_learned``, the strongest search), else its hand prior, spends half the budget on its
  race and names its move. A second card, which that search leaves to its planner, is chosen by
  playing every distinct card out on common samples.
- **measure**: the move played and the chosen move are each applied to the same fresh samples
  and played to the end by the compiled planner at every seat (the search's own play-outs), so
  their difference is paired; its mean and standard error are the review's numbers.

This module is the review's one piece that knows Ticket to Ride; the rest reads ``Judgement``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ttr_lab.core.errors import ConfigError, StrategyError
from ttr_lab.games.ticket_to_ride import (
    Claim, DrawBlind, DrawMarket, DrawTickets, GameState, KeepTickets, Phase, determinizer,
)
from ttr_lab.strategies.ticket_to_ride.learned import Learned
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, tables_of
from ttr_lab.strategies.ticket_to_ride.search.mcts_halving import HalvingSearch
from ttr_lab.strategies.ticket_to_ride.search.mcts_halving.kernels import play_candidates_streamed

# The kinds of decision the review reports losses by.
CLAIM, DRAW, TICKETS, OTHER = "claim", "draw", "tickets", "other"
KINDS = (CLAIM, DRAW, TICKETS)


@dataclass(frozen=True)
class Judgement:
    """One decision judged: the chosen (best) move, each move's mean final lead on the measuring
    samples, their paired difference (best less played) with its standard error."""

    best: Any
    value_played: float
    value_best: float
    difference: float
    error: float
    samples: int  # measuring samples
    playouts: int  # play-outs spent, choosing and measuring


def kind_of(action: Any) -> str:
    """The kind of decision an action is: a claim, a card draw or a ticket decision."""
    if isinstance(action, Claim):
        return CLAIM
    if isinstance(action, (DrawBlind, DrawMarket)):
        return DRAW
    if isinstance(action, (DrawTickets, KeepTickets)):
        return TICKETS
    return OTHER


def judge(state: GameState, played: Any, budget: int, rng: random.Random) -> Judgement:
    """``played`` (a legal action of ``state``) against the strongest search's move at ``state``,
    from the current seat's information, on ``budget`` play-outs (half to choose, half to measure)."""
    obs = state.observation(state.current_player)
    legal = state.legal_actions()
    if played not in legal:
        raise ConfigError(f"{played} is not a legal move at this position")
    choosing = max(2, budget // 2)
    spent = 0
    if len(legal) == 1:
        best = played
    elif obs.phase == Phase.SECOND_DRAW:
        best, spent = _flat_best(obs, legal, choosing, rng)
    else:
        found = HalvingSearch(iterations=choosing, policy=_prior(obs, legal)).search(obs, legal, rng)
        best, spent = found.action, found.playouts
    moves = [played] if best == played else [played, best]
    samples = max(2, (budget - choosing) // len(moves)) if len(legal) > 1 else max(2, budget // 4)
    leads = play_out(obs, moves, _seeds(rng, samples))
    spent += leads.size
    value_played = float(np.mean(leads[:, 0]))
    if len(moves) == 1:
        return Judgement(played, value_played, value_played, 0.0, 0.0, samples, spent)
    d = leads[:, 1] - leads[:, 0]
    difference, error = float(np.mean(d)), float(np.std(d, ddof=1) / math.sqrt(samples))
    if difference <= 0.0:  # the move played measured at least as good: it is the best one seen
        return Judgement(played, value_played, value_played, difference, error, samples, spent)
    return Judgement(best, value_played, float(np.mean(leads[:, 1])), difference, error, samples, spent)


# The judge of each game the review reads, by the game's registered name.
JUDGES = {"ticket_to_ride": judge}


def play_out(obs: Any, moves: list[Any], seeds: np.ndarray) -> np.ndarray:
    """``out[j, i]``: the seat's final lead after ``moves[i]`` on the state sampled from
    ``seeds[j]`` (its observation's determinizer), played out by the planner at every seat."""
    sampler = determinizer(obs)
    template = sampler.template
    g = template.face.g
    pt, w = tables_of(g)
    ids = np.array([template.face.id_of(m) for m in moves], dtype=np.int64)
    out = np.empty((seeds.shape[0], len(moves)), dtype=np.float64)
    play_candidates_streamed(g, pt, w, DEFAULT_PARAMS, template.s, sampler.plan, sampler.work, sampler.longs_held,
                             obs.player, ids, seeds, out)
    return out


def _seeds(rng: random.Random, n: int) -> np.ndarray:
    return np.array([rng.getrandbits(64) for _ in range(n)], dtype=np.uint64)


def _flat_best(obs: Any, legal: list[Any], budget: int, rng: random.Random) -> tuple[Any, int]:
    """The best of ``legal`` by mean lead on common samples (every move on each): a choice among
    few moves (a second card). One move per card kind: two slots showing the same card are one
    choice. Ties go to the earlier move."""
    seen: dict[str, Any] = {}
    for action in legal:
        key = f"market card {obs.market[action.slot]}" if isinstance(action, DrawMarket) else str(action)
        seen.setdefault(key, action)
    moves = list(seen.values())
    samples = max(2, budget // len(moves))
    leads = play_out(obs, moves, _seeds(rng, samples))
    return moves[int(np.argmax(leads.mean(axis=0)))], int(leads.size)


def _prior(obs: Any, legal: list[Any]) -> Learned | None:
    """The shipped policy network as the search's prior where one is shipped for this map and
    player count (the ``mcts_learned`` search), else None (``mcts_halving``'s hand prior)."""
    return _prior_for(obs.board.fingerprint, obs.num_players, lambda: _try_prior(obs, legal))


# Per map and player count: whether the shipped policy network reads its positions.
_PRIORS: dict[tuple[Any, int], bool] = {}


def _prior_for(fingerprint: Any, players: int, probe: Callable[[], bool]) -> Learned | None:
    key = (fingerprint, players)
    if key not in _PRIORS:
        _PRIORS[key] = probe()
    return Learned() if _PRIORS[key] else None


def _try_prior(obs: Any, legal: list[Any]) -> bool:
    try:
        Learned().read(obs, legal)
    except (ConfigError, StrategyError, ValueError):
        return False
    return True
