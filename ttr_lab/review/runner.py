"""Reviewing games: ``review_game`` (one record, in this process) and ``review_games`` (many, in
this process or spread over Ray, one task per slice of a game's decisions), with a progress bar.

A review replays: each decision's samples come from a seed derived from the review's ``seed``,
the game's key and the decision's index, so the same record, seats, budget and seed give the
same review whichever process, order or slicing judged its decisions.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.record import GameRecord
from ttr_lab.core.rng import derive_seed
from ttr_lab.review.judge import JUDGES, kind_of
from ttr_lab.review.reviewed import DEFAULT_BUDGET, ReviewedDecision, ReviewedGame, finite

_SLICE = 24  # decisions per Ray task: small enough to spread one game over the workers


@dataclass(frozen=True)
class GameToReview:
    """A record to review, with its id and the entrant at each seat (None: the record's names)."""

    record: GameRecord
    game_id: str
    entrants: tuple[str, ...] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return self.entrants or self.record.strategies


def game_key(game_id: str) -> int:
    """The integer a game's id mixes into its decisions' seeds."""
    return zlib.crc32(game_id.encode("utf-8"))


def chosen_seats(record: GameRecord, seats: Sequence[int] | None) -> tuple[int, ...]:
    """The seats to review (default all); an unknown seat is a ConfigError naming it."""
    if seats is None:
        return tuple(range(record.num_players))
    bad = [s for s in seats if not 0 <= int(s) < record.num_players]
    if bad:
        raise ConfigError(f"no seat {bad[0]} in a {record.num_players}-player game (seats are 0 to "
                          f"{record.num_players - 1})")
    return tuple(sorted({int(s) for s in seats}))


def check_budget(budget: int) -> int:
    if int(budget) < 4:
        raise ConfigError(f"the budget is play-outs per decision, at least 4, not {budget}")
    return int(budget)


def _judge_of(record: GameRecord) -> Callable[..., Any]:
    judge = JUDGES.get(record.game)
    if judge is None:
        raise ConfigError(f"no review for {record.game} games (the review judges {', '.join(sorted(JUDGES))})")
    return judge


def decisions_of(record: GameRecord, seats: Sequence[int]) -> list[int]:
    """The indices of the record's actions taken at ``seats``."""
    wanted = set(seats)
    return [i for i, (seat, _) in enumerate(record.actions) if seat in wanted]


def judge_slice(record: GameRecord, names: Sequence[str], indices: Sequence[int], budget: int, seed: int,
                key: int, done: Callable[[int], None] | None = None) -> list[ReviewedDecision]:
    """The decisions ``indices`` of ``record`` judged (``done(1)`` after each): the record is
    replayed to each, and its position judged from the seat's observation."""
    judge = _judge_of(record)
    game = record.load_game()
    wanted = set(indices)
    out = []
    for i, state in enumerate(record.states()):
        if i not in wanted:
            continue
        seat, text = record.actions[i]
        out.append(_judged(judge, state, game.parse_action(text), i, names[seat], budget, derive_seed(seed, key, i)))
        if done is not None:
            done(1)
        if len(out) == len(wanted):
            break
    return out


def review_position(game: Any, state: Any, played: str, budget: int = DEFAULT_BUDGET, seed: int = 0,
                    entrant: str = "") -> ReviewedDecision:
    """One position judged: ``played`` (in the action language) at ``state`` of ``game`` against
    the strongest search's move, from the seat to move's information (decision number 0)."""
    judge = JUDGES.get(game.name)
    if judge is None:
        raise ConfigError(f"no review for {game.name} games (the review judges {', '.join(sorted(JUDGES))})")
    return _judged(judge, state, game.parse_action(played), 0, entrant, check_budget(budget), derive_seed(seed, 0, 0))


def _judged(judge: Callable[..., Any], state: Any, played: Any, index: int, entrant: str, budget: int,
            seed: int) -> ReviewedDecision:
    j = judge(state, played, budget, random.Random(seed))
    return ReviewedDecision(
        decision=index, seat=state.current_player, entrant=entrant, kind=kind_of(played),
        played=state.action_text(played), best=state.action_text(j.best), value_played=j.value_played,
        value_best=j.value_best, difference=j.difference, error=finite(j.error), samples=j.samples,
        playouts=j.playouts)


def margins_of(record: GameRecord) -> tuple[float, ...]:
    """Each seat's final score less the best other seat's."""
    scores = [float(p.score or 0) for p in record.outcome().players]  # None: no score (a forfeit)
    return tuple(s - max(scores[:p] + scores[p + 1:]) for p, s in enumerate(scores))


def review_game(record: GameRecord, seats: Sequence[int] | None = None, budget: int = DEFAULT_BUDGET, seed: int = 0,
                game_id: str = "game", entrants: Sequence[str] | None = None,
                progress: Callable[[int], None] | None = None) -> ReviewedGame:
    """Review ``record`` in this process: for each decision of ``seats`` (default all), the move
    played against the strongest search's, from that seat's information, on ``budget`` play-outs
    (``seed``: the same seed, the same review). ``progress(n)`` is told as decisions are done."""
    todo = GameToReview(record, game_id, tuple(entrants) if entrants is not None else None)
    return review_games([todo], seats, budget, seed, advance=progress)[0]


def review_games(games: Sequence[GameToReview], seats: Sequence[int] | None = None, budget: int = DEFAULT_BUDGET,
                 seed: int = 0, backend: Any = None, advance: Callable[[int], None] | None = None) -> list[ReviewedGame]:
    """Review every game of ``games`` (the same ``seats`` of each; default all), in this process
    or, given a started ``RayBackend``, on its workers; ``advance(n)`` as decisions are done."""
    budget = check_budget(budget)
    plans = []
    for g in games:
        _judge_of(g.record)
        mine = chosen_seats(g.record, seats)
        if g.record.cut_short(g.record.replay(), len(g.record.actions)):
            raise ConfigError(f"game {g.game_id}: the record is cut short (its actions end before the game does)")
        plans.append((g, mine, decisions_of(g.record, mine)))
    judged: dict[str, list[ReviewedDecision]] = {g.game_id: [] for g, _, _ in plans}
    if len(judged) != len(plans):
        raise ConfigError("two games to review share an id")
    tasks = [(g, chunk) for g, _, indices in plans for chunk in _slices(indices, backend)]
    for game_id, found in _run(tasks, budget, seed, backend, advance):
        judged[game_id] += found
    return [ReviewedGame(g.game_id, g.record.game, dict(g.record.options), tuple(g.names), margins_of(g.record),
                         mine, budget, seed, tuple(sorted(judged[g.game_id], key=lambda d: d.decision)))
            for g, mine, _ in plans]


def _slices(indices: list[int], backend: Any) -> list[list[int]]:
    if backend is None or not indices:
        return [indices] if indices else []
    return [indices[i:i + _SLICE] for i in range(0, len(indices), _SLICE)]


def _run(tasks: list[tuple[GameToReview, list[int]]], budget: int, seed: int, backend: Any,
         advance: Callable[[int], None] | None) -> Iterator[tuple[str, list[ReviewedDecision]]]:
    if backend is None:
        for g, chunk in tasks:
            yield g.game_id, judge_slice(g.record, g.names, chunk, budget, seed, game_key(g.game_id), advance)
        return
    import ray

    remote = ray.remote(num_cpus=1, max_retries=1)(_remote_slice)
    pending = {remote.remote(g.record.to_dict(), list(g.names), chunk, budget, seed, game_key(g.game_id)):
               (g.game_id, len(chunk)) for g, chunk in tasks}
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                game_id, n = pending.pop(ref)
                found = [ReviewedDecision.from_dict(d) for d in ray.get(ref)]
                if advance is not None:
                    advance(n)
                yield game_id, found
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def _remote_slice(record: dict[str, Any], names: list[str], indices: list[int], budget: int, seed: int,
                  key: int) -> list[dict[str, Any]]:
    """A Ray task: one slice of a game's decisions judged, as plain dicts."""
    found = judge_slice(GameRecord.from_dict(record), names, indices, budget, seed, key)
    return [d.to_dict() for d in found]
