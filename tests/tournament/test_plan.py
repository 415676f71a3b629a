"""A tournament's plan and the games it still has to play, built on demand: the same games as
the schedule written out, ids that lead back to their position, and a driver that keeps nothing
per game on a fresh run (one position per game still to play on a resume)."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given, settings, strategies as st

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.rng import derive_seed
from ttr_lab.tournament.config import parse_config
from ttr_lab.tournament.design import GameSpec, Schedule, plan_games, seatings
from ttr_lab.tournament.runner import Remaining, stored_positions


def config(games: int, design: str = "fixed", players: int = 4, entrants: int = 4):
    return parse_config({
        "name": "plan", "players": players, "games": games, "seed": 9, "backend": "serial", "design": design,
        "entrants": [{"name": f"r{i}", "strategy": "random"} for i in range(entrants)],
    }, "test")


def written_out(layout, deals, seed, prefix="d"):
    """The schedule as the loops that define it (deal, then table, then seating)."""
    return [GameSpec(f"{prefix}{d}-t{t}-s{s}", d, derive_seed(seed, d), t, s, seats)
            for d in range(deals) for t, options in enumerate(layout) for s, seats in enumerate(options)]


layouts = st.lists(st.sampled_from([(0, 1), (0, 1, 2), (2, 0, 1, 3), (0, 1, 1)]), min_size=1, max_size=3).map(
    lambda tables: [seatings(t, "cyclic") for t in tables])


@settings(max_examples=60, deadline=None)
@given(layout=layouts, deals=st.integers(0, 12), seed=st.integers(0, 2**63 - 1), prefix=st.sampled_from(["d", "m3d"]))
def test_the_plan_is_the_schedule_written_out_and_ids_lead_back_to_their_position(layout, deals, seed, prefix):
    plan = Schedule(layout, deals, seed, prefix)
    expected = written_out(layout, deals, seed, prefix)
    assert len(plan) == len(expected) and list(plan) == expected and plan == expected
    assert plan[1:7:2] == expected[1:7:2] and plan[-3:] == expected[-3:]
    for i, spec in enumerate(expected):
        assert plan[i] == spec and plan[i - len(expected)] == spec
        assert plan.index(spec.game_id) == i and spec in plan


@pytest.mark.parametrize("game_id", [
    "d5-t0-s0",  # a deal past the plan's
    "d0-t1-s0", "d0-t0-s4",  # a table or a seating the design does not have
    "d01-t0-s0", "d+1-t0-s0", "d-1-t0-s0", "d\u0661-t0-s0",  # not the way ids are written
    "d1-t0", "d1-t0-s0-x", "x1-t0-s0", "d1-s0-t0", "", 5, None,
])
def test_an_id_that_is_not_one_of_the_plans_games_is_a_value_error(game_id):
    plan = plan_games(config(games=20))  # five deals at one table of four seatings
    with pytest.raises(ValueError):
        plan.index(game_id)
    with pytest.raises(IndexError):
        plan[len(plan)]


def test_the_games_left_are_the_plan_without_the_stored_ones_in_plan_order():
    plan = plan_games(config(games=24))
    ids = {plan[i].game_id for i in (0, 5, 6, 23)} | {"d99-t0-s0"}  # the last: beyond a smaller plan
    stored = stored_positions(plan, ids)
    assert sorted(stored) == [0, 5, 6, 23]
    left = Remaining(plan, stored)
    expected = [s for s in plan if s.game_id not in ids]
    assert len(left) == 20 and list(left) == expected and left[3:9] == expected[3:9] and left[-1] == expected[-1]
    assert list(Remaining(plan)) == list(plan)


def _bytes_kept(build, tries: int = 3):
    """What ``build()``'s result holds on to (allocated and still alive), in bytes: the least of a
    few tries, since tracemalloc counts the whole process (a test runner's thread, a cache filled
    once) and such noise only ever adds."""
    kept_bytes = []
    for _ in range(tries):
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            kept = build()
            after = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        del kept
        kept_bytes.append(after - before)
    return min(kept_bytes)


@pytest.mark.parametrize("design", ["fixed", "round_robin"])
def test_a_fresh_runs_driver_keeps_nothing_per_game(design):
    players = 2 if design == "round_robin" else 4
    small = _bytes_kept(lambda: Remaining(plan_games(config(1_000, design, players))))
    huge = _bytes_kept(lambda: Remaining(plan_games(config(9_999_996, design, players))))
    # Not a byte per game: 10,000,000 games more than the small plan, under 0.1 byte each (a list
    # of specs was 213 bytes each; an array of positions would be 8, a bit per game 1.25 MB). The
    # two differ by about 100-200 KB of bookkeeping in a fresh process, whatever the size.
    assert huge - small < 1_000_000


def test_a_resumes_driver_keeps_one_position_per_game_left():
    plan = plan_games(config(200_000))
    stored = list(range(0, len(plan), 2))
    kept = _bytes_kept(lambda: Remaining(plan, stored))
    assert len(Remaining(plan, stored)) == 100_000
    assert kept < 9 * 100_000  # 8 bytes a position, and the array's room to grow


@settings(max_examples=80, deadline=None)
@given(players=st.integers(1, 5), entrants=st.integers(1, 7), games=st.integers(1, 50),
       design=st.sampled_from(["fixed", "round_robin", "one_vs_field"]), rotation=st.sampled_from(["cyclic", "all"]))
def test_the_games_a_config_counts_before_planning_are_the_games_planned(players, entrants, games, design, rotation):
    data = {"players": players, "games": games, "backend": "serial", "design": design, "rotation": rotation,
            "focus": "r0", "entrants": [{"name": f"r{i}", "strategy": "random"} for i in range(entrants)]}
    try:
        cfg = parse_config(data, "test")
    except ConfigError:
        return  # a design the entrants do not fit
    assert cfg.planned_games() == len(plan_games(cfg)) and cfg.planned_games() % cfg.games_per_deal() == 0
