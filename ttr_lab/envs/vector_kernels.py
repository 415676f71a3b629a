"""The batched environment's step as kernels: every sub-game of ``vector.TicketToRideVectorEnv``
advanced in one native call (the learner's action, the opponents' replies, the end, the scoring,
the next deal and the views), over the game's own rule kernels.

Per sub-game ``i`` the env keeps: its state row ``states[i]``, the learner's seat ``seats[i]``, the
opponents' SplitMix64 stream ``rngs[i]``, its seed ``bases[i]`` and the number of games it has
started ``games[i]``. Seeds derive by ``ttr_lab.core.rng.derive_seed`` itself, compiled: game
``k`` of sub-game ``i`` has the seed ``derive_seed(bases[i], k)``; it is dealt as
``game.new_game(players, that seed)`` deals it and its opponents draw from
``derive_seed(that seed, STRATEGY_KEY)``, as ``game.random_games`` seeds its play-outs.

The entry points take their arrays as named tuples (numba reads a ``NamedTuple`` of arrays by
field, compiled): ``Rules`` (the env's settings), ``Batch`` (the sub-games' rows, kept between calls),
``Opponents`` (the compiled opponents), ``Views`` (the observations and masks handed out) and
``Outcome`` (a step's rewards and ends).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.core.rng import STRATEGY_KEY
from ttr_lab.envs.table import REWARDS
from ttr_lab.games.ticket_to_ride.kernels.rng import DEAL_KEY, derive_seed, next_below
from ttr_lab.games.ticket_to_ride.kernels.scoring import score_game
from ttr_lab.games.ticket_to_ride.kernels.setup import new_state
from ttr_lab.games.ticket_to_ride.kernels.tensor import write_mask, write_tensor
from ttr_lab.strategies.ticket_to_ride.greedy_kernel import greedy_choice
from ttr_lab.strategies.ticket_to_ride.planner_decisions import choose as planner_choice

# opponent policies: uniform over the legal ids; the compiled ticket planner; the compiled greedy
RANDOM, PLANNER, GREEDY = 0, 1, 2
# The reward kinds by their place in ``table.REWARDS``, the number the env hands the kernels.
RANK, MARGIN = REWARDS.index("rank"), REWARDS.index("margin")
ROTATE = -1  # the seat rule: game k of sub-game i seats the learner at (i + k) % players



class Rules(NamedTuple):
    """What an env fixes for every sub-game (read at each call: ``set_attr`` may change them)."""

    g: np.ndarray  # the game array
    plan: np.ndarray  # the tensor's plan and scales (``write_tensor``)
    scales: np.ndarray
    seat_rule: int  # the learner's seat, or ROTATE (the self-play form: 0, its seats are the movers)
    reward_kind: int  # RANK or MARGIN
    illegal_reward: float  # the mover's reward for an id that is not legal
    next_step: bool  # next-step autoreset instead of same-step


class Batch(NamedTuple):
    """The sub-games' rows (row ``i``: sub-game ``i``), kept by the env between calls."""

    states: np.ndarray  # (n, state size) int64
    bases: np.ndarray  # uint64 seeds
    games: np.ndarray  # the games each has started
    seats: np.ndarray  # the seat it shows: the learner's, or (self-play) the player to move
    rngs: np.ndarray  # the opponents' uint64 streams (self-play: none draw)
    pending: np.ndarray  # next-step autoreset: the game ended at the last step


class Opponents(NamedTuple):
    """The other seats' compiled policy: RANDOM, PLANNER or GREEDY; for the planner and greedy,
    the planner's tables, their knobs (the greedy's ``greedy_kernel.PLAN_PARAMS``) and buffers."""

    policy: int
    pt: np.ndarray
    params: np.ndarray
    w: tuple


class Views(NamedTuple):
    """What a reset or step hands out per sub-game: its observation and legal-id mask."""

    obs: np.ndarray  # (n, tensor size) float32
    masks: np.ndarray  # (n, n_actions) bool


class Outcome(NamedTuple):
    """A step's per-sub-game results."""

    rewards: np.ndarray
    ended: np.ndarray
    illegal: np.ndarray
    final_obs: np.ndarray  # an ended game's last view
    seats: np.ndarray  # the seat that played: the learner's (set where ended), the mover (self-play)


@njit(cache=True)
def _start(g: np.ndarray, states: np.ndarray, i: int, bases: np.ndarray, games: np.ndarray,
           seats: np.ndarray, rngs: np.ndarray, seat_rule: int) -> None:
    seed = derive_seed(np.uint64(bases[i]), np.uint64(games[i]))
    states[i, :] = new_state(g, derive_seed(seed, DEAL_KEY))
    rngs[i] = derive_seed(seed, STRATEGY_KEY)
    seats[i] = (i + games[i]) % g[L.N_PLAYERS] if seat_rule == ROTATE else seat_rule


@njit(cache=True)
def _next_game(g: np.ndarray, states: np.ndarray, i: int, bases: np.ndarray, games: np.ndarray, seats: np.ndarray,
               rngs: np.ndarray, seat_rule: int, policy: int, ids: np.ndarray, scratch: np.ndarray, pt: np.ndarray,
               params: np.ndarray, w: tuple) -> int:
    """Sub-game ``i``'s next game: dealt, then the other seats play up to the learner's turn; the
    decisions they made."""
    games[i] += 1
    _start(g, states, i, bases, games, seats, rngs, seat_rule)
    rngs[i], made = _opponents(g, states[i], seats[i], np.uint64(rngs[i]), policy, ids, scratch, pt, params, w)
    return made


@njit(cache=True)
def _opponents(g: np.ndarray, s: np.ndarray, seat: int, rng: np.uint64, policy: int, ids: np.ndarray,
               scratch: np.ndarray, pt: np.ndarray, params: np.ndarray, w: tuple) -> tuple[np.uint64, int]:
    """The other seats play until ``seat`` is to move or the game is over; the advanced stream
    and the decisions made. ``pt``, ``params``, ``w``: the planner's tables, knobs and buffers
    (the greedy's plan knobs, ``greedy_kernel.PLAN_PARAMS``, for the greedy)."""
    decisions = 0
    while s[L.PHASE] != L.OVER and s[L.PLAYER] != seat:
        if policy == PLANNER:
            apply_action(g, s, planner_choice(g, pt, s, params, w), scratch)
        elif policy == GREEDY:
            apply_action(g, s, greedy_choice(g, pt, s, params, w), scratch)
        else:
            count = legal_ids(g, s, ids)
            rng, pick = next_below(rng, count)
            apply_action(g, s, ids[pick], scratch)
        decisions += 1
    return rng, decisions


@njit(cache=True)
def _reward(g: np.ndarray, out: np.ndarray, seat: int, kind: int) -> float:
    """``seat``'s reward for a finished game whose ``score_game`` result is ``out``
    (``envs.table.Table.rewards``)."""
    n = g[L.N_PLAYERS]
    if kind == RANK:
        if out[seat, L.R_RANK] != 1:
            return 0.0
        winners = 0
        for p in range(n):
            if out[p, L.R_RANK] == 1:
                winners += 1
        return 1.0 / winners
    best = -(1 << 62)
    for p in range(n):
        if p != seat and out[p, L.R_TOTAL] > best:
            best = out[p, L.R_TOTAL]
    return float(out[seat, L.R_TOTAL] - best)


@njit(cache=True)
def _illegal(g: np.ndarray, s: np.ndarray, action: int, scratch: np.ndarray) -> bool:
    """Play ``action`` for the player to move; True (and ``s`` unchanged) if it is no legal id."""
    if action < 0 or action >= g[L.N_ACTIONS] or s[L.PHASE] == L.OVER:
        return True
    return apply_action(g, s, action, scratch) != L.OK


@njit(cache=True)
def _reset_learners(g: np.ndarray, states: np.ndarray, seats: np.ndarray, rngs: np.ndarray, bases: np.ndarray,
                   games: np.ndarray, seat_rule: int, policy: int, pt: np.ndarray, params: np.ndarray, w: tuple,
                   plan: np.ndarray, scales: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> None:
    """Every sub-game's first game dealt, played by the opponents up to the learner's turn, viewed."""
    ids, scratch = np.empty(g[L.N_ACTIONS], dtype=np.int64), np.empty(g[L.N_ACTIONS], dtype=np.int64)
    for i in range(states.shape[0]):
        games[i] = 0
        _start(g, states, i, bases, games, seats, rngs, seat_rule)
        rngs[i], _ = _opponents(g, states[i], seats[i], np.uint64(rngs[i]), policy, ids, scratch, pt, params, w)
        write_tensor(g, states[i], seats[i], plan, scales, obs[i])
        write_mask(g, states[i], seats[i], ids, masks[i])


@njit(cache=True)
def _step_learners(g: np.ndarray, states: np.ndarray, actions: np.ndarray, seats: np.ndarray, rngs: np.ndarray,
                  bases: np.ndarray, games: np.ndarray, seat_rule: int, policy: int, pt: np.ndarray,
                  params: np.ndarray, w: tuple, reward_kind: int, illegal_reward: float, plan: np.ndarray, scales: np.ndarray, obs: np.ndarray, masks: np.ndarray,
                  rewards: np.ndarray, ended: np.ndarray, illegal: np.ndarray, final_obs: np.ndarray,
                  final_seats: np.ndarray, pending: np.ndarray, next_step: bool) -> int:
    """One step of every sub-game: the learner's action, the opponents' replies; a game that ends
    is scored (its last view into ``final_obs``, its seat into ``final_seats``) and the next one
    dealt and played up to the learner's turn (same-step autoreset). ``next_step``: next-step
    autoreset instead: where ``pending[i]`` is set, the game ended at the last step and this step
    ignores the action and deals the next one; where a game ends now, its last view is ``obs[i]``
    with every id marked (any action is taken, and ignored), and ``pending[i]`` is set. Returns the decisions made."""
    n_actions = g[L.N_ACTIONS]
    ids, scratch = np.empty(n_actions, dtype=np.int64), np.empty(n_actions, dtype=np.int64)
    n = g[L.N_PLAYERS]
    out, completed = np.zeros((n, L.RESULT_COLUMNS), dtype=np.int64), np.zeros((n, g[L.N_TICKETS]), dtype=np.bool_)
    decisions = 0
    for i in range(states.shape[0]):
        s = states[i]
        seat = seats[i]
        if pending[i]:
            pending[i] = False
            rewards[i], ended[i], illegal[i] = 0.0, False, False
            decisions += _next_game(g, states, i, bases, games, seats, rngs, seat_rule, policy, ids, scratch, pt,
                                    params, w)
            write_tensor(g, states[i], seats[i], plan, scales, obs[i])
            write_mask(g, states[i], seats[i], ids, masks[i])
            continue
        bad = s[L.PLAYER] != seat or _illegal(g, s, actions[i], scratch)
        decisions += 1
        if not bad:
            rngs[i], made = _opponents(g, s, seat, np.uint64(rngs[i]), policy, ids, scratch, pt, params, w)
            decisions += made
        illegal[i] = bad
        ended[i] = bad or s[L.PHASE] == L.OVER
        rewards[i] = 0.0
        if ended[i]:
            if bad:
                rewards[i] = illegal_reward
            else:
                score_game(g, s, out, completed)
                rewards[i] = _reward(g, out, seat, reward_kind)
            write_tensor(g, s, seat, plan, scales, final_obs[i])
            final_seats[i] = seat
            if next_step:
                pending[i] = True
                obs[i, :] = final_obs[i]
                masks[i, :] = True
                continue
            decisions += _next_game(g, states, i, bases, games, seats, rngs, seat_rule, policy, ids, scratch, pt,
                                    params, w)
        write_tensor(g, states[i], seats[i], plan, scales, obs[i])
        write_mask(g, states[i], seats[i], ids, masks[i])
    return decisions


@njit(cache=True)
def _reset_movers(g: np.ndarray, states: np.ndarray, bases: np.ndarray, games: np.ndarray, plan: np.ndarray,
                 scales: np.ndarray, obs: np.ndarray, masks: np.ndarray, to_move: np.ndarray) -> None:
    """The self-play form's reset: every sub-game's first game, seen by the player to move."""
    ids = np.empty(g[L.N_ACTIONS], dtype=np.int64)
    seats, rngs = np.zeros(states.shape[0], dtype=np.int64), np.zeros(states.shape[0], dtype=np.uint64)
    for i in range(states.shape[0]):
        games[i] = 0
        _start(g, states, i, bases, games, seats, rngs, 0)
        to_move[i] = states[i, L.PLAYER]
        write_tensor(g, states[i], to_move[i], plan, scales, obs[i])
        write_mask(g, states[i], to_move[i], ids, masks[i])


@njit(cache=True)
def _step_movers(g: np.ndarray, states: np.ndarray, actions: np.ndarray, bases: np.ndarray, games: np.ndarray,
                reward_kind: int, illegal_reward: float, plan: np.ndarray, scales: np.ndarray, obs: np.ndarray,
                masks: np.ndarray, to_move: np.ndarray, movers: np.ndarray, rewards: np.ndarray, returns: np.ndarray,
                ended: np.ndarray, illegal: np.ndarray, final_obs: np.ndarray, pending: np.ndarray,
                next_step: bool) -> None:
    """The self-play form's step: each sub-game's player to move plays ``actions[i]``; an ended game
    gets every seat's reward in ``returns[i]`` (the mover's in ``rewards[i]``), the mover's last
    view in ``final_obs[i]``, and the next game is dealt. ``movers[i]``: the seat that played.
    ``pending``: next-step autoreset, as in ``_step_learners``."""
    n_actions = g[L.N_ACTIONS]
    ids, scratch = np.empty(n_actions, dtype=np.int64), np.empty(n_actions, dtype=np.int64)
    n = g[L.N_PLAYERS]
    out, completed = np.zeros((n, L.RESULT_COLUMNS), dtype=np.int64), np.zeros((n, g[L.N_TICKETS]), dtype=np.bool_)
    seats, rngs = np.zeros(states.shape[0], dtype=np.int64), np.zeros(states.shape[0], dtype=np.uint64)
    for i in range(states.shape[0]):
        s = states[i]
        if pending[i]:
            pending[i] = False
            movers[i] = to_move[i]
            rewards[i], ended[i], illegal[i] = 0.0, False, False
            games[i] += 1
            _start(g, states, i, bases, games, seats, rngs, 0)
            to_move[i] = states[i, L.PLAYER]
            write_tensor(g, states[i], to_move[i], plan, scales, obs[i])
            write_mask(g, states[i], to_move[i], ids, masks[i])
            continue
        mover = s[L.PLAYER]
        movers[i] = mover
        bad = _illegal(g, s, actions[i], scratch)
        illegal[i] = bad
        ended[i] = bad or s[L.PHASE] == L.OVER
        rewards[i] = 0.0
        if ended[i]:
            if not bad:
                score_game(g, s, out, completed)
            for p in range(n):
                if bad:
                    returns[i, p] = illegal_reward if p == mover else 0.0
                else:
                    returns[i, p] = _reward(g, out, p, reward_kind)
            rewards[i] = returns[i, mover]
            write_tensor(g, s, mover, plan, scales, final_obs[i])
            if next_step:
                pending[i] = True
                to_move[i] = mover
                obs[i, :] = final_obs[i]
                masks[i, :] = True
                continue
            games[i] += 1
            _start(g, states, i, bases, games, seats, rngs, 0)
        to_move[i] = states[i, L.PLAYER]
        write_tensor(g, states[i], to_move[i], plan, scales, obs[i])
        write_mask(g, states[i], to_move[i], ids, masks[i])


# The entry points take the named tuples and hand their fields to the positional kernels above.
# Passing the tuples down to the per-sub-game helpers instead (read by field there) ran the step
# 5-7% slower (interleaved, same inputs, one process), so the tuples stop at this boundary.


@njit(cache=True)
def reset_learners(rules: Rules, b: Batch, opp: Opponents, views: Views) -> None:
    """Every sub-game's first game dealt, played by the opponents up to the learner's turn, viewed."""
    _reset_learners(rules.g, b.states, b.seats, b.rngs, b.bases, b.games, rules.seat_rule, opp.policy, opp.pt,
                    opp.params, opp.w, rules.plan, rules.scales, views.obs, views.masks)


@njit(cache=True)
def step_learners(rules: Rules, b: Batch, opp: Opponents, actions: np.ndarray, views: Views, out: Outcome) -> int:
    """One step of every sub-game (``_step_learners``): the learner's action ``actions[i]``, the
    opponents' replies, the ended games scored and the next ones dealt. Returns the decisions made."""
    return _step_learners(rules.g, b.states, actions, b.seats, b.rngs, b.bases, b.games, rules.seat_rule,
                          opp.policy, opp.pt, opp.params, opp.w, rules.reward_kind, rules.illegal_reward, rules.plan,
                          rules.scales, views.obs, views.masks, out.rewards, out.ended, out.illegal, out.final_obs,
                          out.seats, b.pending, rules.next_step)


@njit(cache=True)
def reset_movers(rules: Rules, b: Batch, views: Views) -> None:
    """The self-play form's reset: every sub-game's first game, seen by its player to move
    (``b.seats``)."""
    _reset_movers(rules.g, b.states, b.bases, b.games, rules.plan, rules.scales, views.obs, views.masks, b.seats)


@njit(cache=True)
def step_movers(rules: Rules, b: Batch, actions: np.ndarray, views: Views, out: Outcome,
                returns: np.ndarray) -> None:
    """The self-play form's step (``_step_movers``): each sub-game's player to move (``b.seats[i]``)
    plays ``actions[i]``; ``out.seats[i]``: the seat that played; an ended game's every seat's
    reward in ``returns[i]``."""
    _step_movers(rules.g, b.states, actions, b.bases, b.games, rules.reward_kind, rules.illegal_reward, rules.plan,
                 rules.scales, views.obs, views.masks, b.seats, out.seats, out.rewards, returns, out.ended,
                 out.illegal, out.final_obs, b.pending, rules.next_step)


@njit(cache=True)
def planner_ids(g: np.ndarray, states: np.ndarray, pt: np.ndarray, params: np.ndarray, w: tuple,
                out: np.ndarray) -> None:
    """``out[i]``: the compiled ticket planner's action id for the player to move in ``states[i]``
    (-1 where the game is over): a teacher for imitation."""
    for i in range(states.shape[0]):
        out[i] = planner_choice(g, pt, states[i], params, w)
