"""Two results compared a range of deals at a time, so that ``compare`` of two folders of ten
million games holds a few hundred thousand rows of each, not every row of both.

Every number ``compare`` gives is a sum over deals (a paired difference is the mean of per-deal
means) or over rows, so the rows can be split by deal into partitions, each compared on its
own, and the partitions' sums added. Each folder is read once, a chunk at a time, and its rows
(the columns ``compare`` reads) written to local temporary Parquet files, one per range of
deal numbers; then each range of A is joined with the same range of B in memory. A frame (a
notebook's) is one partition.

What a partition leaves behind is small: per entrant and number, the per-deal differences as
value counts (``Distribution``: the t interval and the Wilcoxon test need them all, and means
of a few whole numbers repeat), moments, counts of games gained and lost, and the ids of the
games whose winner changed.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np
import pandas as pd

from ttr_lab.analysis.stats import signed_rank_p
from ttr_lab.core.accumulate import Distribution, Moments

PARTITION_ROWS = 400_000  # rows of one folder per deal range: tens of MB in memory once joined
_WRITE_ROWS = 65_536  # rows held per range before they are written


@dataclass
class RowsSeen:
    """What a folder's rows name, gathered while they are split (``game_of`` and the runs'
    identities read it as they read a digest)."""

    games: int = 0
    game_names: set[str] = field(default_factory=set)
    variants: set[str] = field(default_factory=set)
    players: set[int] = field(default_factory=set)
    entrants: set[str] = field(default_factory=set)


def _deal_bounds(location: Any) -> tuple[int, int, int]:
    """(lowest deal, highest deal, rows) from the parts' Parquet statistics (no row read)."""
    import pyarrow.parquet as pq

    from ttr_lab.core.results import _located, result_parts

    location = _located(location)
    low, high, rows = None, None, 0
    for part in result_parts(location):
        with location.fs.open_input_file(part) as f:
            meta = pq.ParquetFile(f).metadata
        rows += meta.num_rows
        at = meta.schema.to_arrow_schema().get_field_index("deal")
        for g in range(meta.num_row_groups):
            stats = meta.row_group(g).column(at).statistics if at >= 0 else None
            if stats is None or not stats.has_min_max:
                return 0, 0, -1  # no statistics: one range
            low = stats.min if low is None else min(low, stats.min)
            high = stats.max if high is None else max(high, stats.max)
    return int(low or 0), int(high or 0), rows


class Split:
    """A folder's rows in local Parquet files, one per range of deals (``width`` deals from
    ``low``), and what they name."""

    def __init__(self, folder: Any, columns: Sequence[str], low: int, width: int, ranges: int, where: Path) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        from ttr_lab.core.result_chunks import game_chunks

        self.seen = RowsSeen()
        self.files = [where / f"range-{i:05d}.parquet" for i in range(ranges)]
        writers: dict[int, Any] = {}
        held: dict[int, list[pd.DataFrame]] = {}
        for chunk in game_chunks(folder, columns):
            self._see(chunk)
            chunk = chunk[[c for c in columns if c in chunk]]
            which = np.clip((chunk["deal"].to_numpy() - low) // width, 0, ranges - 1)
            for r in np.unique(which):
                held.setdefault(int(r), []).append(chunk[which == r])
                if sum(len(x) for x in held[int(r)]) >= _WRITE_ROWS:
                    self._write(writers, held.pop(int(r)), int(r), pa, pq)
        for r, pieces in held.items():
            self._write(writers, pieces, r, pa, pq)
        for writer in writers.values():
            writer.close()

    def _write(self, writers: dict[int, Any], pieces: list[pd.DataFrame], r: int, pa: Any, pq: Any) -> None:
        table = pa.Table.from_pandas(pd.concat(pieces, ignore_index=True), preserve_index=False)
        if r not in writers:
            writers[r] = pq.ParquetWriter(self.files[r], table.schema)
        writers[r].write_table(table.cast(writers[r].schema))

    def _see(self, chunk: pd.DataFrame) -> None:
        self.seen.games += int(chunk["game_id"].nunique())
        for column, into in (("game", self.seen.game_names), ("variant", self.seen.variants)):
            if column in chunk:
                into.update(str(v) for v in pd.unique(chunk[column].dropna()))
        self.seen.players.update(int(v) for v in pd.unique(chunk["num_players"]))
        self.seen.entrants.update(str(v) for v in pd.unique(chunk["entrant"]))

    def frame(self, r: int, columns: Sequence[str]) -> pd.DataFrame:
        import pyarrow.parquet as pq

        if not self.files[r].exists():
            return pd.DataFrame(columns=list(columns))
        return pq.read_table(self.files[r]).to_pandas()


def split_pair(folder_a: Any, folder_b: Any, columns: Sequence[str], where: Path) -> tuple[Split, Split, int]:
    """Both folders split by the same ranges of deals under ``where``; and how many ranges."""
    bounds = [_deal_bounds(folder_a), _deal_bounds(folder_b)]
    if any(rows < 0 for _, _, rows in bounds):
        low, width, ranges = 0, 1 << 62, 1
    else:
        low, high = min(b[0] for b in bounds), max(b[1] for b in bounds)
        ranges = max(1, math.ceil(max(b[2] for b in bounds) / PARTITION_ROWS))
        width = max(1, math.ceil((high - low + 1) / ranges))
        ranges = max(1, math.ceil((high - low + 1) / width))
    (where / "a").mkdir()
    (where / "b").mkdir()
    return (Split(folder_a, columns, low, width, ranges, where / "a"),
            Split(folder_b, columns, low, width, ranges, where / "b"), ranges)


def folder_pairs(folder_a: Any, folder_b: Any, columns: Sequence[str]) -> Iterator[Any]:
    """Yields the RowsSeen of A and of B first, then each range's (A rows, B rows)."""
    with tempfile.TemporaryDirectory(prefix="ttr-compare-") as where:
        a, b, ranges = split_pair(folder_a, folder_b, columns, Path(where))
        yield a.seen, b.seen
        for r in range(ranges):
            yield a.frame(r, columns), b.frame(r, columns)


class PairedSums:
    """Per number (win, score, a metric) and entrant, what a paired comparison sums over deals."""

    def __init__(self) -> None:
        self.differences: dict[tuple[str, str], Distribution] = {}
        self.sides = Moments()  # (name, entrant) -> a and b over the rows joined
        self.games: dict[tuple[str, str], int] = {}

    def add(self, names: Sequence[str], entrants: np.ndarray, a: pd.DataFrame, b: pd.DataFrame,
            deals: np.ndarray) -> None:
        """One range's joined rows: per row its entrant, deal, and each number in A and in B
        (columns ``names``; NaN where absent)."""
        a, b = a.reset_index(drop=True), b.reset_index(drop=True)
        diff = b - a  # NaN where either side is: a row counts where both are
        by_entrant = pd.Series(entrants)
        for name, n in diff.notna().groupby(by_entrant).sum().stack().items():
            self.games[(name[1], str(name[0]))] = self.games.get((name[1], str(name[0])), 0) + int(n)
        sides = pd.concat([a.add_suffix("\x00a"), b.add_suffix("\x00b")], axis=1)
        self.sides.add(sides, entrants, list(sides.columns))
        per_deal = diff.groupby([entrants, deals]).mean()
        for entrant, g in per_deal.groupby(level=0, sort=False):
            for name in names:
                values = g[name].to_numpy()
                values = values[~np.isnan(values)]
                if len(values):
                    self.differences.setdefault((name, str(entrant)), Distribution()).add(values)

    def delta(self, name: str, entrant: str) -> tuple[float, float, float, float, int]:
        """``compare.paired_delta`` from the per-deal differences' value counts: (mean, low,
        high, p_value, deals)."""
        from scipy import stats

        dist = self.differences.get((name, entrant))
        if dist is None:
            return (np.nan, np.nan, np.nan, np.nan, 0)
        values, counts = dist.table()
        d = int(counts.sum())
        mean = float((values * counts).sum() / d)
        if d < 2:
            return (mean, np.nan, np.nan, np.nan, d)
        sd = float(np.sqrt((counts * (values - mean) ** 2).sum() / (d - 1)))
        half = float(stats.t.ppf(0.975, d - 1) * sd / np.sqrt(d))
        # The signed-rank test depends on the values, not their order: the deals' differences
        # rebuilt from their counts, in value order.
        nonzero = np.repeat(values[values != 0], counts[values != 0])
        p = signed_rank_p(nonzero)
        return (mean, mean - half, mean + half, p, d)

    def side(self, name: str, entrant: str, which: str) -> float:
        return self.sides.mean_of(entrant, f"{name}\x00{which}")
