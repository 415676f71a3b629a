"""Ticket to Ride's own part of a tournament report: the tables and figures only this game has,
which ``TicketToRideViews.report_tables`` / ``report_figures`` hand to the generic report.

    Tickets and bonuses   per entrant: ticket completion (completed / held), the longest-trail
                          bonus rate, and on maps with it the Asian Explorer bonus rate
    figures               tickets completed and failed; how often the end bonus is taken
                          (longest trail, or the Asian Explorer); two board maps of how often
                          each track is claimed, by anyone and by the game's winners

Every function takes the results frame (one row per player per game; forfeited games have no
score). pandas, numpy and matplotlib are imported inside the functions, so the rules import
none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any


if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from ttr_lab.core.results import StoredRecord

    from ttr_lab.games.ticket_to_ride.game import TicketToRide


def _scored(frame: "pd.DataFrame") -> "pd.DataFrame":
    return frame[frame["score"].notna()]


def _has(frame: "pd.DataFrame", column: str) -> bool:
    return column in frame and bool(frame[column].notna().any())


def _by_win_rate(table: "pd.DataFrame", frame: "pd.DataFrame") -> "pd.DataFrame":
    """``table`` (indexed by entrant) in the report's order: best win rate first, ties by name."""
    rates = frame.groupby("entrant")["win"].mean()
    order = sorted(rates.index, key=lambda e: (-rates[e], e))
    return table.reindex([e for e in order if e in table.index])


def _explorer(game: "TicketToRide", frame: "pd.DataFrame") -> bool:
    """Whether the end bonus is the Asian Explorer (largest network) rather than the longest trail."""
    return bool(game.ruleset.explorer_bonus) and _has(frame, "explorer_bonus")


def tickets_and_bonuses(game: "TicketToRide", frame: "pd.DataFrame") -> "pd.DataFrame":
    """Per entrant, over the games played out: tickets held, ticket completion (tickets
    completed / held), longest trail and the share of games with the longest-trail bonus (on
    maps that have it), and on maps with the Asian Explorer bonus its share of games, the
    largest network and the mountain routes claimed."""
    import numpy as np
    import pandas as pd

    s = _scored(frame)
    rows = []
    for entrant, g in s.groupby("entrant", sort=True):
        held = g["tickets_held"].sum()
        row: dict[str, Any] = {
            "entrant": entrant, "tickets_held": g["tickets_held"].mean(),
            "ticket_completion": g["tickets_completed"].sum() / held if held else np.nan,
        }
        if game.ruleset.longest_path_bonus:
            row.update(longest_trail=g["longest_trail"].mean(), longest_bonus_rate=(g["longest_bonus"] > 0).mean())
        if _explorer(game, frame):
            row.update(explorer_bonus_rate=(g["explorer_bonus"] > 0).mean(), largest_network=g["largest_network"].mean(),
                       mountain_routes=g["mountain_routes"].mean())
        rows.append(row)
    table = pd.DataFrame(rows)
    if not table.empty:
        table = _by_win_rate(table.set_index("entrant"), frame).reset_index()
    # How the report heads these columns (the analysis knows no game's columns): units included.
    table.attrs["labels"] = TABLE_LABELS
    return table


TABLE_LABELS = {
    "tickets_held": "tickets held", "ticket_completion": "tickets completed", "longest_trail": "longest trail (trains)",
    "longest_bonus_rate": "longest-trail bonus (share of games)", "explorer_bonus_rate": "Explorer bonus (share of games)",
    "largest_network": "largest network (cities)", "mountain_routes": "mountain routes",
}


def mountain_points(game: "TicketToRide", tracks: Any) -> int:
    """Points a player scored for the mountain (X) spaces of its tracks (``tracks``: track ids):
    part of its route points, scored at once when claiming."""
    if tracks is None:
        return 0
    per_space = game.ruleset.mountain_points_per_space
    return sum(per_space * game.board.tracks[int(t)].mountain_spaces for t in tracks)


def points_by_source(game: "TicketToRide", frame: "pd.DataFrame") -> "pd.DataFrame":
    """Per entrant, over the games played out, the mean points from each source, which add up
    to the mean score: routes (the route table), mountain spaces (on maps with them), completed
    tickets, failed tickets (negative), and the end bonus the map awards (the longest trail or
    the Asian Explorer). Mountain points are part of the recorded route points; they are split
    out here from the tracks each player claimed."""
    import pandas as pd

    s = _scored(frame)
    mountains = any(t.mountain_spaces for t in game.board.tracks)
    parts = pd.DataFrame({"entrant": s["entrant"]})
    mountain = s["tracks"].map(lambda tracks: mountain_points(game, tracks)) if mountains and "tracks" in s else 0
    parts["routes"] = s["route_points"].astype(float) - mountain
    if mountains:
        parts["mountains"] = mountain
    parts["tickets_completed"] = s["ticket_points_completed"].astype(float)
    parts["tickets_failed"] = -s["ticket_points_failed"].astype(float)
    if game.ruleset.longest_path_bonus and _has(s, "longest_bonus"):
        parts["longest_bonus"] = s["longest_bonus"].astype(float)
    if _explorer(game, frame):
        parts["explorer_bonus"] = s["explorer_bonus"].astype(float)
    parts["score"] = s["score"].astype(float)
    table = parts.groupby("entrant").mean()
    if not table.empty:
        table = _by_win_rate(table, frame)
    table = table.reset_index()
    table.attrs["labels"] = {"routes": "routes (pts)", "mountains": "mountains (pts)",
                             "tickets_completed": "tickets done (pts)", "tickets_failed": "tickets failed (pts)",
                             "longest_bonus": "longest trail (pts)", "explorer_bonus": "Explorer bonus (pts)",
                             "score": "score (pts)"}
    table.attrs["one_precision"] = True  # columns that add up read best at one precision
    return table


def track_claims(game: "TicketToRide", frame: "pd.DataFrame") -> tuple[list[float], list[float], int]:
    """Per track, how often it is claimed per game, by anyone and by the game's winners; and
    the number of games played out."""
    scored = _scored(frame)
    games = max(scored["game_id"].nunique(), 1)
    claimed = [0.0] * len(game.board.tracks)
    by_winners = [0.0] * len(game.board.tracks)
    if "tracks" in scored:
        for tracks, won in zip(scored["tracks"], scored["rank"] == 1):
            if tracks is None:
                continue
            for t in tracks:
                claimed[int(t)] += 1
                if won:
                    by_winners[int(t)] += 1
    return [c / games for c in claimed], [c / games for c in by_winners], games


MIN_CLAIMS_FOR_LIFT = 5  # below this many claims a track's lift is noise, and the map leaves it grey


LENGTH_BINS = ((0, 8, "4-8"), (9, 12, "9-12"), (13, 16, "13-16"), (17, 20, "17-20"), (21, 99, "21+"))


