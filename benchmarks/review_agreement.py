"""Does the review agree with outcomes? On a tournament whose games were reviewed (``ttr-lab
review RESULTS_DIR``, which keeps ``review/`` in the folder): the entrants ordered by win rate and
by mean points lost per decision, side by side, and the correlation of a seat's summed loss with
its final margin (over all seats, and per entrant), with 95% intervals.

    ttr-lab tournament agreement.yaml          # greedy, ticket_planner, mcts_learned; records: true
    ttr-lab review results/agreement            # every game kept, on a local Ray
    python benchmarks/review_agreement.py results/agreement
"""

from __future__ import annotations

import argparse

import pandas as pd

from ttr_lab.analysis.decision_quality import decision_quality, loss_and_margin, stored_review
from ttr_lab.analysis.presentation import present
from ttr_lab.analysis.tables import entrant_table
from ttr_lab.core.results import read_results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    args = parser.parse_args()
    stored = stored_review(args.results)
    if stored is None:
        raise SystemExit(f"{args.results} keeps no review: run ttr-lab review {args.results} first")
    decisions, seats = stored
    wins = entrant_table(read_results(args.results))[["entrant", "games", "win_rate", "win_low", "win_high"]]
    quality = decision_quality(decisions)
    side = wins.merge(quality[["entrant", "lost", "lost_low", "lost_high", "within_noise", "worst", "worst_share"]],
                      on="entrant")
    side.attrs = {**quality.attrs}
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(f"{decisions['game'].nunique()} games reviewed, {len(decisions)} decisions")
        print(present(side).to_string(index=False))
        by_wins = list(wins["entrant"])
        by_loss = list(quality["entrant"])
        print("order by win rate:    ", ", ".join(by_wins))
        print("order by points lost: ", ", ".join(by_loss), "(same)" if by_wins == by_loss else "(differs)")
        print(present(loss_and_margin(seats)).to_string(index=False))
        print(present(decision_quality(decisions)).to_string(index=False))


if __name__ == "__main__":
    main()
