"""Ticket to Ride's own part of a tournament report: the tables and figures only this game has,
which ``TicketToRideViews.report_tables`` / ``report_figures`` hand to the generic report.

    Tickets and bonuses   per entrant: ticket completion (completed / held), the longest-trail
                          bonus rate, and on maps with them the Asian Explorer and the
                          Globetrotter bonus rates
    figures               tickets completed and failed; how often the end bonus is taken
                          (longest trail, or the Asian Explorer); three board maps: how often
                          each track is claimed, by anyone and by the game's winners, and
                          which entrant claims it most
    Tunnels, Long tickets per entrant, from the game records, on boards that have them
                          (``record_tables``)

Every function takes the results: a frame (one row per player per game; forfeited games have no
score) or a folder's digest (``core.digest``, what the report hands the views: per-entrant means
and shares over the games played out, the tracks each entrant and the winners claimed); a frame
is digested first. pandas, numpy and matplotlib are imported inside the functions, so the rules import
none of them.

Over 400 lines on purpose: these are the hooks one game hands the generic report, read as one
surface (``report_tables`` and ``report_figures`` at the end name every part).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ttr_lab.games.ticket_to_ride.record_tables import entrant_records, record_sections
from ttr_lab.games.ticket_to_ride.result import GameResult

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from ttr_lab.core.digest import ResultsDigest
    from ttr_lab.core.results import StoredRecord

    from ttr_lab.games.ticket_to_ride.game import TicketToRide


def _scored(frame: "pd.DataFrame") -> "pd.DataFrame":
    return frame[frame["score"].notna()]


def _has(frame: "pd.DataFrame", column: str) -> bool:
    return column in frame and bool(frame[column].notna().any())


def _digest(frame: "pd.DataFrame | ResultsDigest") -> "ResultsDigest":
    from ttr_lab.core.digest import digest_of

    return digest_of(frame)


def _explorer(game: "TicketToRide", d: "ResultsDigest") -> bool:
    """Whether the end bonus is the Asian Explorer (largest network) rather than the longest trail."""
    return bool(game.ruleset.explorer_bonus) and d.is_recorded("explorer_bonus")


def _globetrotter(game: "TicketToRide", d: "ResultsDigest") -> bool:
    """Whether the ruleset awards the Globetrotter bonus (most tickets completed) and the results hold it."""
    return bool(game.ruleset.globetrotter_bonus) and d.is_recorded("globetrotter_bonus")


def _means(d: "ResultsDigest") -> "pd.DataFrame":
    """Per entrant that played a game out (best win rate first), the mean of every column."""
    means = d.scored_means()
    return means.reindex([e for e in d.order() if e in means.index])


def _mountains(game: "TicketToRide", d: "ResultsDigest") -> "pd.Series":
    """Per entrant, the mean points per game played out from the mountain spaces of its tracks."""
    import numpy as np
    import pandas as pd

    per_space = game.ruleset.mountain_points_per_space
    points = np.array([per_space * t.mountain_spaces for t in game.board.tracks], dtype=float)
    held = d.list_columns.get("tracks", {})
    out = {}
    for code, counts in held.items():
        n = d.scored.count(code, "score")
        out[d.names[code]] = float(counts[: len(points)] @ points[: len(counts)]) / n if n else np.nan
    return pd.Series(out, dtype=float)


def tickets_and_bonuses(game: "TicketToRide", frame: "pd.DataFrame | ResultsDigest") -> "pd.DataFrame":
    """Per entrant, over the games played out: tickets held, ticket completion (tickets
    completed / held), longest trail and the share of games with the longest-trail bonus (on
    maps that have it), and on maps with the Asian Explorer bonus its share of games, the
    largest network and the mountain routes claimed."""
    import numpy as np
    import pandas as pd

    d = _digest(frame)
    means = _means(d)
    rows = []
    for entrant in means.index:
        code = d.code(entrant)
        held = means.loc[entrant, "tickets_held"] * d.scored.count(code, "tickets_held")
        done = means.loc[entrant, "tickets_completed"] * d.scored.count(code, "tickets_completed")
        row: dict[str, Any] = {"entrant": entrant, "tickets_held": means.loc[entrant, "tickets_held"],
                               "ticket_completion": done / held if held else np.nan}
        if game.ruleset.longest_path_bonus:
            row.update(longest_trail=means.loc[entrant, "longest_trail"],
                       longest_bonus_rate=d.positive_share("longest_bonus").get(entrant, np.nan))
        if _explorer(game, d):
            row.update(explorer_bonus_rate=d.positive_share("explorer_bonus").get(entrant, np.nan),
                       largest_network=means.loc[entrant, "largest_network"],
                       mountain_routes=means.loc[entrant, "mountain_routes"])
        if _globetrotter(game, d):
            row["globetrotter_bonus_rate"] = d.positive_share("globetrotter_bonus").get(entrant, np.nan)
        rows.append(row)
    table = pd.DataFrame(rows)
    # How the report heads these columns (the analysis knows no game's columns): units included.
    table.attrs["labels"] = TABLE_LABELS
    return table


def summary_columns(game: "TicketToRide", frame: "pd.DataFrame") -> "pd.DataFrame":
    """What the end-of-tournament summary shows beside win rates, per entrant: ticket
    completion and the share of games with the end bonus this map awards."""
    return summary_from_sums(game, summary_sums(game, frame))


def summary_sums(game: "TicketToRide", frame: "pd.DataFrame") -> "pd.DataFrame":
    """Per entrant of ``frame``, over its games played out: rows, tickets held and completed,
    rows with each end bonus; and whether any row recorded the explorer bonus (sums: they add
    over chunks)."""
    import pandas as pd

    s = _scored(frame)
    columns = {"rows": 1.0, "held": s["tickets_held"], "completed": s["tickets_completed"]}
    for bonus in ("explorer_bonus", "longest_bonus", "globetrotter_bonus"):
        columns[f"{bonus}_taken"] = s[bonus] > 0 if bonus in s else False
    parts = pd.DataFrame(columns, index=s.index).astype(float)
    sums = parts.groupby(s["entrant"], sort=True).sum().reindex(sorted(pd.unique(frame["entrant"])), fill_value=0.0)
    sums["explorer_recorded"] = float(_has(frame, "explorer_bonus"))
    sums["globetrotter_recorded"] = float(_has(frame, "globetrotter_bonus"))
    return sums


def summary_from_sums(game: "TicketToRide", sums: "pd.DataFrame") -> "pd.DataFrame":
    """``summary_columns`` from the ``summary_sums`` of every row."""
    import numpy as np
    import pandas as pd

    explorer = bool(game.ruleset.explorer_bonus) and bool((sums["explorer_recorded"] > 0).any())
    trotter = (bool(game.ruleset.globetrotter_bonus) and "globetrotter_recorded" in sums
               and bool((sums["globetrotter_recorded"] > 0).any()))
    bonus = ("explorer_bonus" if explorer else "longest_bonus" if game.ruleset.longest_path_bonus
             else "globetrotter_bonus" if trotter else None)
    rows = {}
    for entrant, r in sums[sums["rows"] > 0].sort_index().iterrows():  # entrants with a game played out
        row = {"tickets": r["completed"] / r["held"] if r["held"] else np.nan}
        if bonus is not None:
            row["bonus"] = r[f"{bonus}_taken"] / r["rows"]
        rows[entrant] = row
    table = pd.DataFrame.from_dict(rows, orient="index", columns=["tickets", *(["bonus"] if bonus else [])])
    table.index.name = "entrant"
    name = {"explorer_bonus": "the Asian Explorer bonus", "longest_bonus": "the longest-trail bonus",
            "globetrotter_bonus": "the Globetrotter bonus"}.get(bonus or "")
    table.attrs["percent"] = list(table.columns)
    table.attrs["caption"] = "tickets: share completed" + (f"; bonus: share of games with {name}" if name else "")
    return table


TABLE_LABELS = {
    "tickets_held": "tickets held", "ticket_completion": "tickets completed", "longest_trail": "longest trail (trains)",
    "longest_bonus_rate": "longest-trail bonus (share of games)", "explorer_bonus_rate": "Explorer bonus (share of games)",
    "largest_network": "largest network (cities)", "mountain_routes": "mountain routes",
    "globetrotter_bonus_rate": "Globetrotter bonus (share of games)",
}


def mountain_points(game: "TicketToRide", tracks: Any) -> int:
    """Points a player scored for the mountain (X) spaces of its tracks (``tracks``: track ids):
    part of its route points, scored at once when claiming."""
    if tracks is None:
        return 0
    per_space = game.ruleset.mountain_points_per_space
    return sum(per_space * game.board.tracks[int(t)].mountain_spaces for t in tracks)


def points_by_source(game: "TicketToRide", frame: "pd.DataFrame | ResultsDigest") -> "pd.DataFrame":
    """Per entrant, over the games played out, the mean points from each source, which add up
    to the mean score: routes (the route table), mountain spaces (on maps with them), completed
    tickets, failed tickets (negative), and the end bonus the map awards (the longest trail or
    the Asian Explorer). Mountain points are part of the recorded route points; they are split
    out here from the tracks each player claimed."""
    import pandas as pd

    d = _digest(frame)
    means = _means(d)
    mountains = any(t.mountain_spaces for t in game.board.tracks)
    mountain = _mountains(game, d).reindex(means.index).fillna(0.0) if mountains and d.is_recorded("tracks") else 0.0
    table = pd.DataFrame(index=means.index)
    if len(means):
        table["routes"] = means["route_points"] - mountain
        if mountains:
            table["mountains"] = mountain
        table["tickets_completed"] = means["ticket_points_completed"]
        table["tickets_failed"] = -means["ticket_points_failed"]
        if game.ruleset.longest_path_bonus and d.is_recorded("longest_bonus"):
            table["longest_bonus"] = means["longest_bonus"]
        if _explorer(game, d):
            table["explorer_bonus"] = means["explorer_bonus"]
        if _globetrotter(game, d):
            table["globetrotter_bonus"] = means["globetrotter_bonus"]
        table["score"] = means["score"]
    table = table.rename_axis("entrant").reset_index()
    table.attrs["labels"] = {"routes": "routes (pts)", "mountains": "mountains (pts)",
                             "tickets_completed": "tickets done (pts)", "tickets_failed": "tickets failed (pts)",
                             "longest_bonus": "longest trail (pts)", "explorer_bonus": "Explorer bonus (pts)",
                             "globetrotter_bonus": "Globetrotter (pts)", "score": "score (pts)"}
    table.attrs["one_precision"] = True  # columns that add up read best at one precision
    return table


def report_tables(game: "TicketToRide", frame: "pd.DataFrame | ResultsDigest",
                  records: Sequence["StoredRecord"] = ()) -> list[tuple[str, str, "pd.DataFrame"]]:
    frame = _digest(frame)
    if _explorer(game, frame):
        bonus = ("; the share of games with the Asian Explorer bonus (most cities in one network), the largest "
                 "network and the mountain routes claimed")
    elif game.ruleset.longest_path_bonus:
        bonus = "; the longest trail (in trains) and the share of games with the longest-trail bonus"
    else:
        bonus = ""
    if _globetrotter(game, frame):
        bonus += "; the share of games with the Globetrotter bonus (most tickets completed)"
    note = f"Per entrant, over the games played out: tickets held and the share of them completed{bonus}."
    sources = ("Per entrant, mean points per game from each source; the sources add up to the score. Mountain "
               "points (recorded within route points) are split out from the tracks claimed."
               if any(t.mountain_spaces for t in game.board.tracks) else
               "Per entrant, mean points per game from each source; the sources add up to the score.")
    out = [("Points by source", sources, points_by_source(game, frame)),
           ("Tickets and bonuses", note, tickets_and_bonuses(game, frame))]
    by_length = completion_by_length(frame, records)
    if len(by_length):
        out.append(("Tickets by length", "Per entrant and ticket length (its points): tickets held at the end of the "
                    "recorded games and the share completed, with a 95% Wilson interval. From the game records.",
                    by_length))
    return out + record_sections(game, frame, records)


def ticket_completion(frame: "pd.DataFrame | ResultsDigest") -> "Figure":
    import numpy as np

    from ttr_lab.core.figures import new_figure, no_data_figure

    d = _digest(frame)
    if not d.games_played:
        return no_data_figure()
    columns = ["ticket_points_completed", "ticket_points_failed", "tickets_completed", "tickets_held"]
    g = d.scored_means()[columns].sort_values("ticket_points_completed")
    fig = new_figure(7, 0.5 + 0.45 * len(g))
    ax = fig.add_subplot()
    y = np.arange(len(g))
    ax.barh(y, g["ticket_points_completed"], color="#55a868", label="points of completed tickets")
    ax.barh(y, -g["ticket_points_failed"], color="#c44e52", label="points of failed tickets")
    for i, (done, held, points) in enumerate(zip(g["tickets_completed"], g["tickets_held"], g["ticket_points_completed"])):
        ax.annotate(f" {done:.1f} of {held:.1f} tickets", (points, i), va="center", fontsize=7)
    ax.set_yticks(y, g.index)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("mean ticket points per game")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Tickets: completed and failed")
    return fig


def end_bonus(game: "TicketToRide", frame: "pd.DataFrame | ResultsDigest") -> "Figure":
    """How often each entrant takes the end-of-game bonus: the longest trail, or on maps with
    the Asian Explorer bonus instead, the largest network."""
    import numpy as np
    import pandas as pd

    from ttr_lab.core.figures import new_figure, no_data_figure

    d = _digest(frame)
    if not d.games_played:
        return no_data_figure()
    means = d.scored_means()
    if _explorer(game, d):
        g = pd.DataFrame({"rate": d.positive_share("explorer_bonus"), "size": means["largest_network"]})
        label, note, title = "share of games with the explorer bonus", " mean network {:.1f} cities", "Asian Explorer bonus"
    else:
        g = pd.DataFrame({"rate": d.positive_share("longest_bonus"), "size": means["longest_trail"]})
        label, note, title = "share of games with the longest-trail bonus", " mean trail {:.1f} trains", "Longest-trail bonus"
    g = g.sort_values("rate")
    fig = new_figure(7, 0.5 + 0.45 * len(g))
    ax = fig.add_subplot()
    y = np.arange(len(g))
    ax.barh(y, g["rate"], color="#8172b2")
    for i, (size, rate) in enumerate(zip(g["size"], g["rate"])):
        ax.annotate(note.format(size), (rate, i), va="center", fontsize=7)
    ax.set_yticks(y, g.index)
    ax.set_xlim(0, 1)
    ax.set_xlabel(label)
    ax.set_title(title)
    return fig


def track_claims(game: "TicketToRide", frame: "pd.DataFrame | ResultsDigest") -> tuple[list[float], list[float], int]:
    """Per track, how often it is claimed per game, by anyone and by the game's winners; and
    the number of games played out."""
    d = _digest(frame)
    games = max(d.games_played, 1)
    claimed = [0.0] * len(game.board.tracks)
    by_winners = [0.0] * len(game.board.tracks)
    for counts in d.list_columns.get("tracks", {}).values():
        for t, c in enumerate(counts):
            claimed[t] += float(c)
    for t, c in enumerate(d.list_winners.get("tracks", [])):
        by_winners[t] += float(c)
    return [c / games for c in claimed], [c / games for c in by_winners], games


MIN_CLAIMS_FOR_LIFT = 5  # below this many claims a track's lift is noise, and the map leaves it grey


def track_lift(game: "TicketToRide", frame: "pd.DataFrame") -> list[float | None]:
    """Per track, the lift of winning on claiming it: the share of the winners' claims that go
    to this track over the share of everyone's claims that do (equivalently, the share of its
    claims made by a winner over the share of all claims made by winners). 1: winners claim it
    as often as anyone; 2: twice as often. None where it was claimed fewer than
    ``MIN_CLAIMS_FOR_LIFT`` times. Unlike the raw count, this does not repeat how popular a track is."""
    claimed, by_winners, games = track_claims(game, frame)
    total, winners = sum(claimed), sum(by_winners)
    out: list[float | None] = []
    for c, w in zip(claimed, by_winners):
        if c * games < MIN_CLAIMS_FOR_LIFT or not winners:
            out.append(None)
        else:
            out.append((w / winners) / (c / total))
    return out


def track_maps(game: "TicketToRide", frame: "pd.DataFrame") -> tuple["Figure", "Figure"]:
    """The board with each track coloured by how often it is claimed per game, and by its lift
    for the game's winners (``track_lift``)."""
    from ttr_lab.games.ticket_to_ride.drawing import draw_track_heat, draw_track_lift

    claimed, _, games = track_claims(game, frame)
    return (
        draw_track_heat(game.board, claimed, f"How often each track is claimed ({games} games)", "claims per game"),
        draw_track_lift(game.board, track_lift(game, frame), claimed,
                        f"Tracks winners favour: red claimed more by winners, blue less ({games} games)"),
    )


def track_claimers(game: "TicketToRide", frame: "pd.DataFrame | ResultsDigest") -> "Figure":
    """The board coloured by who claims each track: the entrant that claims it most often per
    game played out, thicker the more often."""
    from ttr_lab.games.ticket_to_ride.drawing import draw_track_claimers

    d = _digest(frame)
    shares = {}
    for code, counts in d.list_columns.get("tracks", {}).items():
        n = d.scored.count(code, "score")
        if n:
            shares[d.names[code]] = [float(c) / n for c in counts]
    return draw_track_claimers(game.board, shares, f"Who claims each track ({d.games_played} games)")


LENGTH_BINS = ((0, 8, "4-8"), (9, 12, "9-12"), (13, 16, "13-16"), (17, 20, "17-20"), (21, 99, "21+"))


def ticket_outcomes(frame: "pd.DataFrame", records: Sequence["StoredRecord"]) -> "pd.DataFrame":
    """Every ticket held at the end of every recorded game, one row each: entrant, its points
    (the length of the ticket's shortest connection on the printed table) and whether it was
    completed. From the results folder's game records (``read_records``), since results rows
    hold counts, not tickets; empty without records. Only the records of games in ``frame``
    (``entrant_records``)."""
    import pandas as pd

    columns = ["entrant", "points", "completed"]
    rows = [(entrants[player.player], ticket.points, ticket.completed)
            for record, entrants in entrant_records(frame, records)
            for player in GameResult.from_dict(record.result).players for ticket in player.tickets]
    return pd.DataFrame(rows, columns=columns)


def completion_by_length(frame: "pd.DataFrame", records: Sequence["StoredRecord"]) -> "pd.DataFrame":
    """Per entrant and ticket length (points, in bins), tickets held at the end, the share
    completed and its 95% Wilson interval; empty when the results keep no game records."""
    import pandas as pd

    from ttr_lab.core.intervals import wilson

    tickets = ticket_outcomes(frame, records)
    rows = []
    for low, high, label in LENGTH_BINS:
        chunk = tickets[(tickets["points"] >= low) & (tickets["points"] <= high)]
        for entrant, g in chunk.groupby("entrant", sort=True):
            done = int(g["completed"].sum())
            lo, hi = wilson(done, len(g))
            rows.append({"entrant": entrant, "length": label, "held": len(g), "completion": done / len(g),
                         "completion_low": lo, "completion_high": hi})
    table = pd.DataFrame(rows, columns=["entrant", "length", "held", "completion", "completion_low", "completion_high"])
    table.attrs["labels"] = {"length": "ticket (points)", "held": "tickets held", "completion": "completed [95% CI]"}
    return table


def completion_by_length_figure(frame: "pd.DataFrame", records: Sequence["StoredRecord"]) -> "Figure":
    """Share of tickets completed by ticket length, one line per entrant, with 95% intervals;
    lengths are categories, each point on its tick."""
    from matplotlib.ticker import PercentFormatter

    from ttr_lab.core.figures import new_figure, no_data_figure

    table = completion_by_length(frame, records)
    labels = [label for _, _, label in LENGTH_BINS]
    fig = new_figure(7, 3.6)
    ax = fig.add_subplot()
    for entrant, g in table.groupby("entrant", sort=True):
        x = [labels.index(v) for v in g["length"]]
        ax.errorbar(x, g["completion"], yerr=[(g["completion"] - g["completion_low"]).clip(lower=0),
                                              (g["completion_high"] - g["completion"]).clip(lower=0)],
                    fmt="o-", capsize=3, alpha=0.85, label=entrant)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlim(-0.5, len(labels) - 0.5)
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("ticket length (points on the ticket)")
    ax.set_ylabel("tickets completed (95% interval)")
    if len(table):
        ax.legend(fontsize=7, loc="lower left")
    ax.set_title("Ticket completion by ticket length")
    return fig


def report_figures(game: "TicketToRide", frame: "pd.DataFrame | ResultsDigest", records: Sequence["StoredRecord"] = (),
                   skip: Sequence[str] = ()) -> list[tuple[str, str, "Figure"]]:
    frame = _digest(frame)
    bonus = "Asian Explorer bonus frequency" if _explorer(game, frame) else "Longest-trail bonus frequency"
    out = [("ticket_completion", "Tickets completed and failed", ticket_completion(frame))]
    if _explorer(game, frame) or game.ruleset.longest_path_bonus:
        out.append(("longest_route", bonus, end_bonus(game, frame)))
    if len(ticket_outcomes(frame, records)):
        out.append(("completion_by_length", "Ticket completion by ticket length (from the game records)",
                    completion_by_length_figure(frame, records)))
    if not {"tracks_claimed", "tracks_claimed_by_winners"} <= set(skip):  # the maps are the costly ones to build
        claimed, by_winners = track_maps(game, frame)
        out += [("tracks_claimed", "How often each track is claimed", claimed),
                ("tracks_claimed_by_winners", "Tracks winners favour (lift: winners' share of claims over everyone's)",
                 by_winners)]
    if "tracks_by_entrant" not in skip:
        out.append(("tracks_by_entrant", "Who claims each track (the entrant that claims it most often)",
                    track_claimers(game, frame)))
    return out
