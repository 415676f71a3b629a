"""Two results compared, entrant by entrant: what changed in win rate, score and each metric
when a rule, a map or a strategy changed between run A and run B (``ttr-lab compare``, and a
study's every cell against its baseline cell), and a balance measure of one run.

Runs are compared only when they describe the same games (``ttr_lab.analysis.runs``): one game,
one player count, one variant and the same deals (same seed, same schedule: the game ids match
and carry the same deal seeds), unless the caller asks otherwise: paired across rule variants
(a study's cells), or as two samples across variants and deals. Paired, every seat is compared
with itself on the same cards: a difference is the mean of per-game differences, its interval
and test are taken over *deals* (every seating of a deal shares its cards, so the deal is the
independent unit, as in ``pairwise_tests``), and the games whose winner changed are counted.
As two samples: Welch's t on per-game values. Wins are shares (ties split), as everywhere else.
Entrants in one run only are in no table: ``only_a`` and ``only_b`` name them. ``pairs`` matches
entrants whose names differ (``{name in A: name in B}``: two options of one strategy, each run
naming its entrant after them); they are shown under A's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from ttr_lab.analysis.partitions import PairedSums
from ttr_lab.analysis.stats import signed_rank_p
from ttr_lab.analysis.runs import RunIdentity, check_comparable, deal_check, deal_difference, identity
from ttr_lab.core.accumulate import Moments
from ttr_lab.analysis.tables import _holm, summarised_metrics
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.outcome import Metric

_KEY = ["game_id", "seat", "entrant"]
DELTA_COLUMNS = ("entrant", "games", "deals", "a", "b", "delta", "low", "high", "p_value")


@dataclass(frozen=True)
class Comparison:
    """What ``compare`` found. ``wins``: per entrant, the win rate in A and B, its change with a
    95% interval, the games it won only in B (``gained``) or only in A (``lost``), the paired
    test's p-value (Holm-corrected over the entrants in ``p_holm``); ``scores``: the same for
    the mean score; ``metrics``: one row per entrant and metric; ``changed_winner``: games
    whose winner (the set of first-ranked entrants) differs; ``changed_games``: their ids."""

    paired: bool
    games: int  # games compared: common to both when paired, else A's + B's
    deals: int
    changed_winner: int | None
    changed_games: tuple[str, ...]
    wins: pd.DataFrame
    scores: pd.DataFrame
    metrics: pd.DataFrame
    only_a: tuple[str, ...] = ()  # entrants in A only: compared with nobody
    only_b: tuple[str, ...] = ()

    def delta(self, entrant: str, what: str = "win") -> float:
        """One entrant's change in win rate (``"win"``), mean score (``"score"``) or a metric."""
        table = self.wins if what == "win" else self.scores if what == "score" else \
            self.metrics[self.metrics["metric"] == what]
        row = table[table["entrant"] == entrant]
        if row.empty:
            raise KeyError(f"no {what!r} difference for entrant {entrant!r}")
        return float(row["delta"].iloc[0])


def same_deals(frame_a: pd.DataFrame, frame_b: pd.DataFrame) -> bool:
    """Whether the runs played the same deals: some game ids in common, each with the same deal
    seed (``runs.deal_difference``)."""
    return not deal_difference(frame_a, frame_b)


def paired_delta(a: np.ndarray, b: np.ndarray, deals: np.ndarray) -> tuple[float, float, float, float, int]:
    """``b - a`` seat by seat, as (mean, low, high, p_value, deals): the mean of the per-deal
    mean differences, a Student t 95% interval over deals, and a Wilcoxon signed-rank test of
    the per-deal differences (zeros dropped). Rows where either side is missing are left out."""
    from scipy import stats

    keep = ~(np.isnan(a) | np.isnan(b))
    if not keep.any():
        return (np.nan, np.nan, np.nan, np.nan, 0)
    per_deal = pd.Series(b[keep] - a[keep]).groupby(deals[keep]).mean().to_numpy()
    d = len(per_deal)
    mean = float(per_deal.mean())
    if d < 2:
        return (mean, np.nan, np.nan, np.nan, d)
    half = float(stats.t.ppf(0.975, d - 1) * per_deal.std(ddof=1) / np.sqrt(d))
    nonzero = per_deal[per_deal != 0]
    p = signed_rank_p(nonzero)
    return (mean, mean - half, mean + half, p, d)


def unpaired_delta(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float]:
    """``mean(b) - mean(a)`` of two independent samples: Welch's 95% interval and t-test."""
    from scipy import stats

    a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    if len(a) < 2 or len(b) < 2:
        return (float(b.mean() - a.mean()) if len(a) and len(b) else np.nan, np.nan, np.nan, np.nan)
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    mean, se = float(b.mean() - a.mean()), float(np.sqrt(va + vb))
    if se == 0:
        return (mean, mean, mean, 1.0 if mean == 0 else 0.0)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    half = float(stats.t.ppf(0.975, df) * se)
    return (mean, mean - half, mean + half, float(stats.ttest_ind(b, a, equal_var=False).pvalue))


def winners(frame: pd.DataFrame) -> pd.Series:
    """Per game id, its winner(s): the first-ranked entrants, joined by '+' in name order."""
    best = frame.groupby("game_id")["rank"].transform("min")
    return frame[frame["rank"] == best].groupby("game_id")["entrant"].agg(lambda s: "+".join(sorted(set(s))))


def _column(frame: pd.DataFrame, name: str) -> np.ndarray:
    values = frame[name].astype(float).to_numpy()
    if name != "win" and "forfeit" in frame:  # a forfeited game has no score or metrics
        values = np.where(frame["forfeit"].fillna(False).to_numpy(dtype=bool), np.nan, values)
    return values


def _candidates(metrics: Sequence[Metric]) -> list[Metric]:
    """The metrics that may be compared (summarised numbers and flags); those recorded in both
    runs are (``summarised_metrics``)."""
    return [m for m in metrics if m.summarise and m.kind in ("int", "float", "bool")]


class _Sums:
    """What ``compare`` adds up over ranges of deals (``partitions``): the deals check, the
    entrants, and per number and entrant the paired sums or each run's moments."""

    def __init__(self, names: Sequence[str], paired: bool | None) -> None:
        self.names, self.paired = list(names), paired
        self.common, self.first_other = 0, ""
        self.entrants_a: set[str] = set()
        self.entrants_b: set[str] = set()
        self.recorded_a: set[str] = set()
        self.recorded_b: set[str] = set()
        self.pairs = PairedSums()
        self.moments = {"a": Moments(), "b": Moments()}
        self.changed: list[str] = []
        self.gained: dict[str, int] = {}
        self.lost: dict[str, int] = {}
        self.games, self.deals = 0, 0
        self.codes: dict[str, int] = {}  # entrant -> its bit in a game's winners

    def check(self, frame_a: pd.DataFrame, frame_b: pd.DataFrame, a: str, b: str) -> None:
        """The deals check of one range (``runs.deal_difference``, added up)."""
        if frame_a.empty or frame_b.empty:
            return
        common, other = deal_check(frame_a, frame_b, a, b)
        self.common += common
        self.first_other = self.first_other or other

    def add(self, frame_a: pd.DataFrame, frame_b: pd.DataFrame) -> None:
        if self.paired:
            frame_a, frame_b = (frame_a[frame_a["game_id"].isin(frame_b["game_id"])],
                                frame_b[frame_b["game_id"].isin(frame_a["game_id"])])
        self.entrants_a.update(str(e) for e in pd.unique(frame_a["entrant"]))
        self.entrants_b.update(str(e) for e in pd.unique(frame_b["entrant"]))
        self.recorded_a.update(n for n in self.names if n in frame_a and frame_a[n].notna().any())
        self.recorded_b.update(n for n in self.names if n in frame_b and frame_b[n].notna().any())
        names = [n for n in self.names if n in frame_a and n in frame_b]
        if self.paired:
            self.games += int(frame_a["game_id"].nunique())
            self.deals += int(frame_a["deal"].nunique())
            m = frame_a.merge(frame_b, on=_KEY, suffixes=("_a", "_b"))
            joined = {w: pd.DataFrame({n: _column(m, f"{n}_{w}") for n in names}) for w in ("a", "b")}
            self.pairs.add(names, m["entrant"].astype(str).to_numpy(), joined["a"], joined["b"], m["deal_a"].to_numpy())
            if frame_a.empty:
                return
            wa, wb = self._winners(frame_a), self._winners(frame_b)
            wb = wb.reindex(wa.index)
            self.changed += [str(i) for i in wa.index[(wa != wb).to_numpy()]]
            won_a = frame_a.set_index(_KEY)["win"] > 0
            won_b = frame_b.set_index(_KEY)["win"].reindex(won_a.index) > 0
            for counts, won in ((self.gained, won_b & ~won_a), (self.lost, won_a & ~won_b)):
                for entrant, n in won.groupby(level="entrant").sum().items():
                    counts[str(entrant)] = counts.get(str(entrant), 0) + int(n)
        else:
            self.games += int(frame_a["game_id"].nunique() + frame_b["game_id"].nunique())
            self.deals += int(frame_a["deal"].nunique() + frame_b["deal"].nunique())
            for side, frame in (("a", frame_a), ("b", frame_b)):
                if frame.empty:
                    continue
                values = pd.DataFrame({n: _column(frame, n) for n in names})
                self.moments[side].add(values, frame["entrant"].astype(str).to_numpy(), names)

    def _winners(self, frame: pd.DataFrame) -> pd.Series:
        """Per game id, its winners (``winners``) as one number: a bit per entrant (a string per
        game, as ``winners`` joins them, would cost a Python call per game)."""
        for e in pd.unique(frame["entrant"]):
            self.codes.setdefault(str(e), len(self.codes))
        if len(self.codes) > 62:
            return winners(frame)
        best = frame.groupby("game_id", sort=False)["rank"].transform("min")
        top = frame.loc[frame["rank"] == best, ["game_id", "entrant"]].drop_duplicates()
        bits = np.left_shift(1, top["entrant"].astype(str).map(self.codes).to_numpy(dtype=np.int64))
        return pd.Series(bits, index=top["game_id"].to_numpy()).groupby(level=0, sort=False).sum()

    def table(self, name: str, order: Sequence[str]) -> pd.DataFrame:
        rows = []
        for entrant in order:
            if self.paired:
                mean, low, high, p, deals = self.pairs.delta(name, entrant)
                games = self.pairs.games.get((name, entrant), 0)
                a, b = self.pairs.side(name, entrant, "a"), self.pairs.side(name, entrant, "b")
            else:
                ma, mb = self.moments["a"], self.moments["b"]
                mean, low, high, p = _welch(ma, mb, entrant, name)
                games, deals = ma.count(entrant, name) + mb.count(entrant, name), 0
                a, b = ma.mean_of(entrant, name), mb.mean_of(entrant, name)
            rows.append({"entrant": entrant, "games": games, "deals": deals, "a": a, "b": b, "delta": mean,
                         "low": low, "high": high, "p_value": p})
        out = pd.DataFrame(rows, columns=list(DELTA_COLUMNS))
        tested = out["p_value"].notna()
        out["p_holm"] = np.nan
        if tested.any():
            out.loc[tested, "p_holm"] = _holm(out.loc[tested, "p_value"].to_numpy())
        return out


def _welch(ma: Moments, mb: Moments, entrant: str, name: str) -> tuple[float, float, float, float]:
    """``unpaired_delta`` from each run's moments (Welch's interval and t-test)."""
    from scipy import stats

    na, nb = ma.count(entrant, name), mb.count(entrant, name)
    if na < 2 or nb < 2:
        return (mb.mean_of(entrant, name) - ma.mean_of(entrant, name) if na and nb else np.nan, np.nan, np.nan, np.nan)
    sa, sb = ma.std_of(entrant, name), mb.std_of(entrant, name)
    va, vb = sa**2 / na, sb**2 / nb
    mean, se = mb.mean_of(entrant, name) - ma.mean_of(entrant, name), float(np.sqrt(va + vb))
    if se == 0:
        return (mean, mean, mean, 1.0 if mean == 0 else 0.0)
    df = (va + vb) ** 2 / (va**2 / (na - 1) + vb**2 / (nb - 1))
    half = float(stats.t.ppf(0.975, df) * se)
    p = float(stats.ttest_ind_from_stats(mb.mean_of(entrant, name), sb, nb, ma.mean_of(entrant, name), sa, na,
                                         equal_var=False).pvalue)
    return (mean, mean - half, mean + half, p)


def compare(frame_a: pd.DataFrame, frame_b: pd.DataFrame, metrics: Sequence[Metric] = (),
            paired: bool | None = None, across_variants: bool = False,
            identities: tuple[RunIdentity, RunIdentity] | None = None,
            pairs: Mapping[str, str] | None = None) -> Comparison:
    """Run B against run A (results frames as ``read_results`` gives them), per entrant of both.
    ``paired``: None pairs by deal and refuses (``ConfigError``, one line) runs of another game,
    player count, variant or deals; True pairs across variants of one game too (the same deals
    under a rule change); False compares two samples of one game and player count, whatever
    their variants and deals. ``across_variants``: pair across variants without being asked (a
    study's cells differ in their factors by design). ``identities``: the runs' identities when
    their folders are known (``runs.identity``). ``metrics``: the game's, each one summarised
    in both runs gets a row per entrant. ``compare_folders`` reads two folders a range of deals
    at a time; this is the same comparison on one range, the frames. ``pairs``: ``{A's entrant:
    B's}`` for entrants compared under different names (shown under A's)."""
    a_id, b_id = identities or (identity(frame_a, "A"), identity(frame_b, "B"))
    return compared([(frame_a, frame_b)], a_id, b_id, metrics, paired, across_variants, pairs)


def compared(ranges: Iterable[tuple[pd.DataFrame, pd.DataFrame]], a_id: RunIdentity, b_id: RunIdentity,
             metrics: Sequence[Metric], paired: bool | None, across_variants: bool,
             pairs: Mapping[str, str] | None = None) -> Comparison:
    """``compare`` over ranges of deals of both runs (each range's rows of A, then of B)."""
    check_comparable(a_id, b_id, across_variants=across_variants or paired is not None)
    names = ["win", "score", *(m.name for m in _candidates(metrics))]
    sums = _Sums(names, paired is not False)
    as_a = {b: a for a, b in (pairs or {}).items()}  # B's name -> A's
    raw_a: set[str] = set()
    raw_b: set[str] = set()
    for frame_a, frame_b in ranges:
        raw_a.update(str(e) for e in pd.unique(frame_a["entrant"]))
        raw_b.update(str(e) for e in pd.unique(frame_b["entrant"]))
        if as_a:
            frame_b = frame_b.assign(entrant=frame_b["entrant"].astype(str).replace(as_a))
        if paired is not False:
            sums.check(frame_a, frame_b, a_id.label, b_id.label)
        sums.add(frame_a, frame_b)
    if paired is not False:
        differ = (f"{a_id.label} and {b_id.label} have no game id in common (different schedules)"
                  if not sums.common else sums.first_other)
        if differ:
            raise ConfigError(f"{differ}: the runs played different deals, so they cannot be paired; --unpaired "
                              "compares them as two samples")
    _check_pairs(pairs or {}, raw_a, raw_b, a_id.label, b_id.label)
    only_a, only_b = tuple(sorted(sums.entrants_a - sums.entrants_b)), tuple(sorted(sums.entrants_b - sums.entrants_a))
    order = sorted(sums.entrants_a & sums.entrants_b)
    wins, scores = sums.table("win", order), sums.table("score", order)
    shown = [m for m in _candidates(metrics) if m.name in sums.recorded_a and m.name in sums.recorded_b]
    pieces = [sums.table(m.name, order).assign(metric=m.name) for m in shown]
    table = pd.concat(pieces, ignore_index=True) if pieces else pd.DataFrame(columns=[*DELTA_COLUMNS, "p_holm", "metric"])
    table = table[["entrant", "metric", *[c for c in table.columns if c not in ("entrant", "metric")]]]
    changed: tuple[str, ...] = ()
    count: int | None = None
    if sums.paired:
        changed = tuple(sorted(sums.changed))
        count = len(changed)
        wins["gained"] = wins["entrant"].map(sums.gained).fillna(0).astype(int)
        wins["lost"] = wins["entrant"].map(sums.lost).fillna(0).astype(int)
    return Comparison(bool(sums.paired), sums.games, sums.deals, count, changed, wins, scores, table, only_a, only_b)


def _check_pairs(pairs: Mapping[str, str], raw_a: set[str], raw_b: set[str], a: str, b: str) -> None:
    """``pairs`` name entrants of their runs, and no renamed B entrant takes another's name."""
    twice = sorted({b_name for b_name in pairs.values() if list(pairs.values()).count(b_name) > 1})
    if twice:
        raise ConfigError(f"pair: {b}'s entrant {twice[0]!r} is paired with more than one of {a}'s")
    for name_a, name_b in pairs.items():
        if name_a not in raw_a:
            raise ConfigError(f"pair {name_a}={name_b}: {a} has no entrant {name_a!r} (it has {', '.join(sorted(raw_a))})")
        if name_b not in raw_b:
            raise ConfigError(f"pair {name_a}={name_b}: {b} has no entrant {name_b!r} (it has {', '.join(sorted(raw_b))})")
        if name_a in raw_b and name_a not in pairs.values():
            raise ConfigError(f"pair {name_a}={name_b}: {b} already has an entrant {name_a!r}, which would be "
                              "counted twice; pair it too")


@dataclass(frozen=True)
class Balance:
    """How evenly one run's wins are spread over its entrants: the range (``spread``: best win
    rate minus worst) and standard deviation of the win rates, and a chi-square test of "every
    entrant wins its fair share" (``p_value``; small: they are not all equal)."""

    win_rates: dict[str, float]
    spread: float
    sd: float
    chi2: float
    p_value: float
    games: int


def balance(frame: pd.DataFrame) -> Balance:
    """The balance of one results frame. The fair share of an entrant is one over the players
    of each game it sat in; the chi-square test takes games as independent (at a fixed table
    the seatings of a deal are not quite, so read its p-value as a guide)."""
    g = frame.assign(_fair=1.0 / frame["num_players"]).groupby("entrant").agg(
        wins=("win", "sum"), fair=("_fair", "sum"), games=("win", "size"))
    return balance_of(g["wins"].to_dict(), g["fair"].to_dict(), g["games"].to_dict(), int(frame["game_id"].nunique()))


def balance_of(wins: dict[str, float], fair: dict[str, float], rows: dict[str, int], games: int) -> Balance:
    """``balance`` from its sums per entrant: wins, fair shares and games (rows), and the games."""
    from scipy import stats

    names = sorted(rows)
    rates = {str(e): float(wins[e]) / rows[e] for e in names}
    values = np.array(list(rates.values()), dtype=float)
    chi2 = float(sum((wins[e] - fair[e]) ** 2 / fair[e] for e in names))
    p = float(stats.chi2.sf(chi2, len(names) - 1)) if len(names) > 1 else 1.0
    return Balance(rates, float(values.max() - values.min()), float(values.std(ddof=0)), chi2, p, games)


def comparison_figure(comparison: Comparison, title: str = "B against A") -> Any:
    """Per entrant, the change in win rate (left) and in mean score (right), with 95% intervals."""
    from ttr_lab.core.figures import new_figure

    wins, scores = comparison.wins, comparison.scores
    fig = new_figure(9, 0.5 * len(wins) + 1.8)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, table, label, scale in ((axes[0], wins, "change in win rate (points of %)", 100), (axes[1], scores, "change in mean score", 1)):
        y = np.arange(len(table))
        delta = table["delta"].to_numpy() * scale
        err = np.vstack([delta - table["low"].to_numpy() * scale, table["high"].to_numpy() * scale - delta])
        ax.errorbar(delta, y, xerr=np.nan_to_num(err), fmt="o", capsize=4, color="tab:blue")
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y, table["entrant"].tolist())
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
    how = f"paired on {comparison.deals} deals, {comparison.changed_winner} of {comparison.games} games changed winner" \
        if comparison.paired else "unpaired (the runs share no deals)"
    fig.suptitle(f"{title}: {how}; 95% intervals")
    return fig


def compare_folders(folder_a: str | Any, folder_b: str | Any, paired: bool | None = None,
                    across_variants: bool = False, metrics: Sequence[Metric] | None = None,
                    pairs: Mapping[str, str] | None = None) -> Comparison:
    """``compare`` of two results folders (``metrics``: None for those A's game declares), each
    run's identity read from its ``meta.json`` (or config). Out of core: each folder is read
    once, a chunk at a time, and split by ranges of deals (``partitions``), compared range by
    range."""
    from ttr_lab.analysis.game import game_of
    from ttr_lab.analysis.partitions import folder_pairs

    game = game_of(folder_a)
    metrics = game.metrics if metrics is None else metrics
    columns = ["game_id", "deal", "deal_seed", "game", "variant", "num_players", "seat", "entrant", "rank", "win",
               "forfeit", "score", *(m.name for m in _candidates(metrics))]
    ranges = folder_pairs(folder_a, folder_b, columns)
    seen_a, seen_b = next(ranges)
    identities = (identity(seen_a, f"A ({folder_a})", folder_a), identity(seen_b, f"B ({folder_b})", folder_b))
    return compared(ranges, *identities, metrics, paired, across_variants, pairs)
