"""A review spread over Ray (slices of a game's decisions as tasks) finds what a review in this
process finds, decision for decision: each decision's samples come from its own seed."""

from __future__ import annotations

import csv

from typer.testing import CliRunner

from ttr_lab.cli import app
from ttr_lab.core.play import play_game
from ttr_lab.games.ticket_to_ride import TicketToRide
from ttr_lab.review.runner import GameToReview, review_games
from ttr_lab.strategies.ticket_to_ride.greedy import Greedy
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner


def test_a_review_on_ray_is_the_review_in_this_process(shared_ray, tmp_path):
    usa = TicketToRide("usa")
    games = [GameToReview(play_game(usa, [Greedy(), TicketPlanner()], seed), f"g{seed}") for seed in (1, 2)]
    done: list[int] = []
    on_ray = review_games(games, budget=4, seed=9, backend=shared_ray._backend, advance=done.append)
    here = review_games(games, budget=4, seed=9)
    assert on_ray == here
    assert sum(done) == sum(len(g.record.actions) for g in games) and len(done) > 2  # several slices
    # The command on Ray: the same table as in this process.
    path = tmp_path / "g1.json"
    games[0].record.save(path)
    for backend in ("ray", "serial"):
        result = CliRunner().invoke(app, ["review", str(path), "--budget", "4", "--seed", "9", "--backend", backend,
                                          "--out", str(tmp_path / backend)])
        assert result.exit_code == 0, result.output
    tables = [list(csv.DictReader((tmp_path / b / "review.csv").open())) for b in ("ray", "serial")]
    assert tables[0] == tables[1] and len(tables[0]) == len(games[0].record.actions)
