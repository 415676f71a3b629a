"""The report's answer up front: who is first, by how much, how sure the data is, and what
explains it; and the games that went against the odds (upsets), to replay.

Every number comes from the analysis' own tables: the order is ``entrant_order`` (win rate),
the test the paired Wilcoxon of ``pairwise_tests`` (Holm-corrected over every pair), the win
rate interval Wilson's. The metrics that explain the lead are compared *by deal*: every seating
of a deal shares its cards, so the per-deal difference between the leader's and the runner-up's
means cancels the luck of the deal, and its spread over deals gives the interval.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np
import pandas as pd

from ttr_lab.analysis.presentation import p_text, percent, percent_interval
from ttr_lab.core.accumulate import Tally
from ttr_lab.analysis.tables import Results, entrant_order, entrant_table, pairwise_tests, summarised_metrics
from ttr_lab.core.outcome import Metric

EXPLAINING = 4  # metrics named in the verdict's words (the table beside them lists every one)


@dataclass(frozen=True)
class Verdict:
    """``sentences``: the verdict in words, the headline first. ``leader`` and ``runner_up``:
    the first two entrants by win rate (None where there are fewer). ``separated``: whether the
    paired test says the leader finishes ahead of the runner-up more often than chance.
    ``differences``: per metric, the leader's mean minus the runner-up's over the deals both
    played, with its 95% interval (``metric_differences``), clearest first."""

    sentences: tuple[str, ...]
    leader: str | None
    runner_up: str | None
    separated: bool
    differences: pd.DataFrame


def metric_differences(frame: Results, a: str, b: str, metrics: Sequence[Metric] = ()) -> pd.DataFrame:
    """For the score and each summarised metric of ``metrics`` recorded here: ``a``'s mean per
    game minus ``b``'s, paired by deal (per deal, a's mean over its games played out there minus
    b's; then the mean over the deals where both played), with a normal 95% interval from the
    spread of the per-deal differences (Student's t, so a handful of deals gives an honestly wide
    interval; none with fewer than two deals). Columns ``metric``,
    ``description``, ``a_mean``, ``b_mean``, ``difference``, ``difference_low``,
    ``difference_high``, ``deals``; rows clearest first (largest difference over its standard
    error), so the metrics whose interval leaves out zero lead."""
    from scipy.special import stdtrit  # Student's t quantile (what scipy.stats.t.ppf calls), without scipy.stats

    shown = [Metric("score", "final score (points)"), *summarised_metrics(frame, [m for m in metrics if m.name != "score"])]
    rows = []
    per_deal = _Held()
    for m, (da, db) in zip(shown, _deal_means(frame, a, b, [m.name for m in shown])):
        diff = (da - db).dropna()
        per_deal.keep(m.name, diff)
        n = len(diff)
        mean = float(diff.mean()) if n else math.nan
        se = float(diff.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
        half = float(stdtrit(n - 1, 0.975)) * se if n > 1 else math.nan
        rows.append({"metric": m.name, "description": m.description,
                     "a_mean": float(da.mean()) if n else math.nan,
                     "b_mean": float(db.mean()) if n else math.nan,
                     "difference": mean, "difference_low": mean - half, "difference_high": mean + half,
                     "deals": n, "_clarity": abs(mean) / se if se and not math.isnan(se) else
                     (math.inf if n > 1 and mean else 0.0)})
    out = pd.DataFrame(rows, columns=["metric", "description", "a_mean", "b_mean", "difference", "difference_low",
                                      "difference_high", "deals", "_clarity"])
    out = out.sort_values("_clarity", ascending=False, kind="stable").drop(columns="_clarity").reset_index(drop=True)
    out.attrs["labels"] = {"a_mean": f"{a} (mean)", "b_mean": f"{b} (mean)", "difference": f"{a} − {b}"}
    with per_deal:
        out.attrs["same_as"] = _mirrors(list(out["metric"]), per_deal)
    return out


DEAL_MEANS_BYTES = 192 << 20  # per scan of a folder: the per-deal sums of a few columns at a time


def _deal_means(frame: Results, a: str, b: str, columns: Sequence[str]) -> Iterator[tuple[pd.Series, pd.Series]]:
    """Per column in turn, a's and b's per-deal mean over their games played out (Series by
    deal), over the deals where both played out a game; none where either never did. From a
    digest, its folder is read again a few columns at a time, and each column's means are
    handed on before the next are summed."""
    if isinstance(frame, pd.DataFrame):
        scored = frame[frame["score"].notna()]
        mine = scored[scored["entrant"].isin([a, b])]
        per = mine[["deal", "entrant", *columns]].astype({c: float for c in columns}).groupby(["entrant", "deal"]).mean()
        if a not in per.index.get_level_values(0) or b not in per.index.get_level_values(0):
            return
        da, db = per.loc[a], per.loc[b]
        deals = da.index.intersection(db.index)
        for c in columns:
            yield da.loc[deals, c], db.loc[deals, c]
        return
    if a not in frame.names or b not in frame.names:
        return
    deals_total = max(frame.deal_games.length, 1)
    # Per column and deal, both entrants' 64-bit sum and 32-bit count (a few games: exact).
    group = max(1, DEAL_MEANS_BYTES // (24 * deals_total))
    for start in range(0, len(columns), group):
        chunk_columns = list(columns[start:start + group])
        sums, counts = Tally(np.float64), Tally(np.int32)
        for chunk in frame.chunks(["deal", "entrant", "score", *chunk_columns]):
            chunk = chunk[chunk["score"].notna() & chunk["entrant"].isin([a, b])]
            deal = frame.deal_codes(chunk["deal"])
            for who in (a, b):
                mine = (chunk["entrant"] == who).to_numpy()
                counts.add((who, None), deal[mine], np.ones(int(mine.sum())))
                for c in chunk_columns:
                    values = chunk[c].astype(float).to_numpy()[mine]
                    present = ~np.isnan(values)
                    sums.add((who, c), deal[mine][present], values[present])
                    counts.add((who, c), deal[mine][present], np.ones(int(present.sum())))
        both = (counts.get((a, None), deals_total) > 0) & (counts.get((b, None), deals_total) > 0)
        index = pd.Index(frame.deal_values[np.flatnonzero(both)], name="deal")
        for c in chunk_columns:
            means = []
            for who in (a, b):
                n = counts.get((who, c), deals_total)[both]
                total = sums.get((who, c), deals_total)[both]
                means.append(pd.Series(np.where(n > 0, total / np.maximum(n, 1), np.nan), index=index, name=c))
                # Absent when ``who`` never scored a game (every game forfeited).
                sums.arrays.pop((who, c), None)
                counts.arrays.pop((who, c), None)
            yield means[0], means[1]


class _Held:
    """Each metric's per-deal differences, kept until its mirrors are looked for, on disk (a
    temporary folder, removed on leaving the ``with``): ten million games have millions of deals
    times some thirty metrics, which would otherwise sit in memory beside the sums of the metrics
    still to come (the report's tables at three million games: 0.94 -> 0.91 GiB peak);
    ``_mirrors`` reads back two at a time. The deals' index stays in
    memory, one shared by the metrics recorded in the same deals; values in 32 bits when those
    are exact (means of a few whole numbers), else 64."""

    def __init__(self) -> None:
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._index: dict[str, pd.Index] = {}
        self._files: dict[str, Path] = {}

    def keep(self, name: str, diff: pd.Series) -> None:
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="ttr-lab-deals-")
        self._index[name] = next((x for x in self._index.values() if x.equals(diff.index)), diff.index)
        values = diff.to_numpy(dtype=np.float64)
        narrow = values.astype(np.float32)
        path = Path(self._folder.name) / f"{len(self._files)}.npy"
        np.save(path, narrow if np.array_equal(narrow, values, equal_nan=True) else values)
        self._files[name] = path

    def get(self, name: str) -> pd.Series | None:
        """The differences back, in 64 bits (the same numbers)."""
        if name not in self._files:
            return None
        return pd.Series(np.load(self._files[name]).astype(np.float64), index=self._index[name], name=name)

    def __enter__(self) -> "_Held":
        return self

    def __exit__(self, *_: object) -> None:
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None


def _mirrors(order: Sequence[str], per_deal: _Held) -> dict[str, str]:
    """Metric -> an earlier one (in ``order``) whose per-deal differences it repeats, the same or
    negated deal by deal (trains left and trains placed add up to the trains a player starts
    with): one finding, not two. Constant differences are not matched (two unrelated bonuses
    may both be +10 in every deal)."""
    same: dict[str, str] = {}
    for i, name in enumerate(order):
        x = per_deal.get(name)
        if x is None or len(x) < 2 or float(x.std(ddof=0)) == 0:
            continue
        for earlier in order[:i]:
            if earlier in same:
                continue
            y = per_deal.get(earlier)
            if y is None or not x.index.equals(y.index):
                continue
            if np.allclose(x.to_numpy(), y.to_numpy()) or np.allclose(x.to_numpy(), -y.to_numpy()):
                same[name] = earlier
                break
    return same


def _clear(row: pd.Series) -> bool:
    """Whether a difference's interval leaves out zero."""
    return bool(row["difference_low"] > 0 or row["difference_high"] < 0)


def _decimals(row: pd.Series) -> int:
    """A difference's precision, by the width of its own interval (one row, not the column:
    a score's +28.8 beside a ticket count's +0.06 would make the count read ``0.1 [0.0, 0.1]``):
    two significant digits of the width, so the interval is readable."""
    values = [row["difference"], row["difference_low"], row["difference_high"]]
    width = abs(values[2] - values[1])
    if width == 0:  # no spread over the deals: the value's own precision
        return 0 if float(values[0]).is_integer() else 1
    return 1 if width >= 1 or math.isnan(width) else 2 if width >= 0.1 else 3


def _difference(row: pd.Series) -> str:
    """``+7.7 [6.2, 9.2]``: a difference and its interval at one precision (``_decimals``)."""
    values = [row["difference"], row["difference_low"], row["difference_high"]]
    d = _decimals(row)
    if any(math.isnan(v) for v in values[1:]):
        return f"{values[0]:+.{d}f}"
    return f"{values[0]:+.{d}f} [{values[1]:.{d}f}, {values[2]:.{d}f}]"


def differences_view(differences: pd.DataFrame) -> pd.DataFrame:
    """``metric_differences`` as the report prints it, each row at its own precision, the same
    as the verdict's words write it (``_difference``), so that prose and table agree."""
    labels = differences.attrs.get("labels", {})
    rows = []
    for _, r in differences.iterrows():
        d = _decimals(r)
        mean_d = max(d, 1) if not float(r["a_mean"]).is_integer() or not float(r["b_mean"]).is_integer() else d
        row = {"metric": r["metric"]}
        if "description" in differences.columns:
            row["description"] = r["description"]
        row.update({labels.get("a_mean", "A (mean)"): f"{r['a_mean']:.{mean_d}f}",
                    labels.get("b_mean", "B (mean)"): f"{r['b_mean']:.{mean_d}f}",
                    f"{labels.get('difference', 'A − B')} [95% CI]": _difference(r), "deals": str(int(r["deals"]))})
        rows.append(row)
    out = pd.DataFrame(rows)
    out.attrs["text_columns"] = ["metric", "description"]
    return out


def _ahead(tests: pd.DataFrame, x: str, y: str) -> dict | None:
    """The paired test of ``x`` against ``y`` from ``pairwise_tests`` (whose pairs are named in
    name order), turned round so that the share is x's: None if they never met."""
    if tests.empty:
        return None
    hit = tests[(tests["a"] == x) & (tests["b"] == y)]
    if len(hit):
        r = hit.iloc[0]
        return {"share": r["a_ahead"], "low": r["a_ahead_low"], "high": r["a_ahead_high"], "games": int(r["games"]),
                "deals": int(r["deals"]), "p": r["p_holm"], "significant": bool(r["significant"])}
    hit = tests[(tests["a"] == y) & (tests["b"] == x)]
    if len(hit):
        r = hit.iloc[0]
        return {"share": 1 - r["a_ahead"], "low": 1 - r["a_ahead_high"], "high": 1 - r["a_ahead_low"],
                "games": int(r["games"]), "deals": int(r["deals"]), "p": r["p_holm"], "significant": bool(r["significant"])}
    return None


def verdict(frame: Results, metrics: Sequence[Metric] = (), tests: pd.DataFrame | None = None) -> Verdict:
    """The verdict on a tournament's results (``metrics``: the game's; ``tests``: an already
    computed ``pairwise_tests(frame)``)."""
    order = entrant_order(frame)
    if len(order) < 2:
        only = order[0] if order else None
        return Verdict((f"Only one entrant ({only}) played: there is no one to compare it with.",), only, None, False,
                       metric_differences(frame, only or "", "", metrics))
    tests = pairwise_tests(frame) if tests is None else tests
    table = entrant_table(frame).set_index("entrant")
    leader, runner = order[0], order[1]
    lead = table.loc[leader]
    rate = f"{percent_interval(lead['win_rate'], lead['win_low'], lead['win_high'])} of its {int(lead['games'])} games"
    pair = _ahead(tests, leader, runner)
    sentences = []
    if pair is None:
        sentences.append(f"{leader} has the best win rate ({rate}, ties shared), ahead of {runner} "
                         f"({percent(table.loc[runner, 'win_rate'])}); the two never sat at the same table, so no "
                         "paired test can separate them.")
    elif pair["significant"] and pair["share"] > 0.5:
        sentences.append(f"{leader} is first: it wins {rate} (ties shared), and finishes ahead of the runner-up "
                         f"{runner} in {percent_interval(pair['share'], pair['low'], pair['high'])} of the "
                         f"{pair['games']} games they shared. A paired test over {pair['deals']} deals (Wilcoxon, "
                         f"Holm-corrected over every pair) says the lead is real: p {p_text(pair['p'])}.")
    else:
        sentences.append(f"{leader} has the best win rate ({rate}, ties shared), but the data cannot separate it "
                         f"from {runner} ({percent(table.loc[runner, 'win_rate'])}): {leader} finishes ahead in "
                         f"{percent_interval(pair['share'], pair['low'], pair['high'])} of the {pair['games']} games "
                         f"they shared, and the paired test over {pair['deals']} deals gives Holm p "
                         f"{p_text(pair['p'])}, not significant at 5%. More deals would be needed to tell them apart.")
    rest = order[2:]
    beaten = [e for e in rest if (t := _ahead(tests, leader, e)) is not None and t["significant"] and t["share"] > 0.5]
    unclear = [e for e in rest if e not in beaten]
    if rest:
        if beaten and not unclear:
            sentences.append(f"It is also significantly ahead of every other entrant ({', '.join(beaten)}).")
        elif beaten:
            sentences.append(f"It is significantly ahead of {', '.join(beaten)}; the data cannot separate it "
                             f"from {', '.join(unclear)}.")
        else:
            sentences.append(f"The data cannot separate it from the others either ({', '.join(unclear)}).")
    differences = metric_differences(frame, leader, runner, metrics)
    score = differences[differences["metric"] == "score"]
    if len(score) and score["deals"].iloc[0] > 1:
        row = score.iloc[0]
        sentences.append(f"By score, {leader} makes {_difference(row)} points a game against {runner} on the same "
                         f"deals ({row['deals']} deals, 95% interval)" + ("." if _clear(row) else
                                                                          ": the interval includes zero."))
    same_as = differences.attrs.get("same_as", {})
    clear = [r for _, r in differences.iterrows() if _clear(r) and r["metric"] != "score" and r["metric"] not in same_as]
    if clear:
        def mirrored(metric: str) -> str:
            twins = [m for m, of in same_as.items() if of == metric]
            return f" (the same finding as {', '.join(twins)})" if twins else ""

        named = "; ".join(f"{r['metric']} {_difference(r)}{mirrored(r['metric'])}" for r in clear[:EXPLAINING])
        sentences.append(f"What sets {leader} apart from {runner}, per game on the same deals ({leader} minus "
                         f"{runner}, 95% interval): {named}.")
    elif len(differences) > 1:
        sentences.append(f"No recorded metric differs clearly between {leader} and {runner} on the same deals "
                         "(every 95% interval of the difference includes zero).")
    separated = bool(pair and pair["significant"] and pair["share"] > 0.5)
    return Verdict(tuple(sentences), leader, runner, separated, differences)


def explaining(differences: pd.DataFrame, most: int = 6) -> pd.DataFrame:
    """The score's row of ``metric_differences``, then the rows whose interval leaves out zero,
    clearest first, at most ``most`` in all: the short table beside the verdict."""
    score = [i for i, r in differences.iterrows() if r["metric"] == "score"]
    same_as = differences.attrs.get("same_as", {})
    keep = score + [i for i, r in differences.iterrows()
                    if r["metric"] != "score" and _clear(r) and r["metric"] not in same_as][:most - len(score)]
    out = differences.loc[keep].reset_index(drop=True)
    out.attrs = dict(differences.attrs)
    return out


def upsets(frame: Results, ratings: pd.DataFrame, top: int = 5) -> pd.DataFrame:
    """The games won most against the odds, one row per pairing: a winner (rank 1) that beat an
    entrant rated above it (``ratings``: ``bradley_terry(frame)``), by how far the best entrant it
    beat is rated above it, largest first (forfeited games left out: a forfeit is no upset of
    play). The gap belongs to the two entrants, not to the game: with a few entrants, every upset
    of a run is often the same two, and a row per game repeated one gap down the table. So each
    pairing shows its widest win (the most points the winner beat it by), and ``games`` counts its
    upsets. Columns ``game_id``, ``deal``, ``winner``, ``beaten``, ``games``, ``gap`` (Elo
    points), ``margin`` (points)."""
    rating = dict(zip(ratings["entrant"], ratings["rating"]))
    columns = ["game_id", "deal", "entrant", "rank", "score", "termination"]
    chunks = [frame] if isinstance(frame, pd.DataFrame) else frame.chunks(columns)
    # Each chunk's pairings (its games are whole), then the pairings over all of them.
    pieces = [_per_pairing(_upsets_in(chunk, rating)) for chunk in chunks]
    out = _per_pairing(pd.concat(pieces, ignore_index=True) if pieces
                       else _upsets_in(pd.DataFrame(columns=columns), rating)).head(top).reset_index(drop=True)
    out.attrs["labels"] = {"game_id": "widest win", "beaten": "best entrant it beat", "games": "upsets",
                           "gap": "rating gap (Elo)", "margin": "won by (pts)"}
    return out


def _per_pairing(table: pd.DataFrame) -> pd.DataFrame:
    """Upsets (a game a row, or pairings with their ``games``) as one row per (winner, beaten):
    its widest win, and how many upsets it counts; largest gap first, then widest margin."""
    if "games" not in table:
        table = table.assign(games=1)
    table = table.sort_values(["gap", "margin", "game_id"], ascending=[False, False, True], kind="stable")
    counts = table.groupby(["winner", "beaten"], sort=False)["games"].sum()
    first = table.drop_duplicates(["winner", "beaten"]).copy()
    first["games"] = [int(counts[(w, b)]) for w, b in zip(first["winner"], first["beaten"])]
    return first[["game_id", "deal", "winner", "beaten", "games", "gap", "margin"]].astype({"games": int})


def _upsets_in(frame: pd.DataFrame, rating: dict[str, float]) -> pd.DataFrame:
    """Every game of ``frame`` won against the ratings, largest gap first."""
    played = frame[frame["termination"] != "forfeit"][["game_id", "deal", "entrant", "rank", "score"]].copy()
    played["rating"] = played["entrant"].map(rating).astype(float)
    # One pass over all games (a loop over games took most of a 10,000-game report): per game,
    # the lowest-rated winner and the highest-rated loser, the first seat among equals.
    winner = played[played["rank"] == 1].sort_values("rating", kind="stable").drop_duplicates("game_id")
    best = played[played["rank"] > 1].sort_values("rating", ascending=False, kind="stable").drop_duplicates("game_id")
    both = winner.merge(best[["game_id", "entrant", "rating", "score"]], on="game_id", suffixes=("", "_beaten"))
    both["gap"] = both["rating_beaten"] - both["rating"]
    both = both[both["gap"] > 0]
    out = pd.DataFrame({"game_id": both["game_id"].astype(str), "deal": both["deal"].astype(int),
                        "winner": both["entrant"], "beaten": both["entrant_beaten"], "gap": both["gap"].astype(float),
                        "margin": (both["score"] - both["score_beaten"]).astype(float)},
                       columns=["game_id", "deal", "winner", "beaten", "gap", "margin"])
    return out.sort_values(["gap", "margin", "game_id"], ascending=[False, False, True], kind="stable")


def biggest_upset(frame: pd.DataFrame) -> str | None:
    """The game id of the biggest upset (``upsets``, with ratings fitted without resampling),
    or None where no game went against the ratings."""
    from ttr_lab.analysis.ratings import bradley_terry

    found = upsets(frame, bradley_terry(frame, resamples=0), top=1)
    return None if found.empty else str(found["game_id"].iloc[0])


__all__ = ["Verdict", "biggest_upset", "differences_view", "explaining", "metric_differences", "upsets", "verdict"]
