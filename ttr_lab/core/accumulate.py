"""Sufficient statistics gathered chunk by chunk, merged exactly: what lets a reader of ten
million games hold a few numbers per entrant (or per deal) instead of every row.

    Moments        per group and column: count, mean and the sum of squared deviations
                   (Chan's merge, so no sum of squares loses the variance to cancellation)
    Distribution   one column's values with their counts (exact quantiles as numpy's linear
                   interpolation gives them); values that do not repeat are kept as they come
    Codes          names to small integer codes, first come first coded
    NumberCodes    whole numbers (deal numbers) to codes: small ones are their own code
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable, Sequence

import numpy as np
import pandas as pd


class Moments:
    """Per group (a frame's index) and column: ``n`` (values present), ``mean`` and ``m2``."""

    def __init__(self) -> None:
        self.n = pd.DataFrame()
        self.mean = pd.DataFrame()
        self.m2 = pd.DataFrame()

    def add(self, frame: pd.DataFrame, by: Any, columns: Sequence[str]) -> None:
        """Add ``frame``'s ``columns`` (as floats; NaN is absent), grouped by ``by``."""
        if frame.empty or not columns:
            return
        values = frame[list(columns)].astype(float)
        g = values.groupby(by if not isinstance(by, str) else frame[by], sort=False)
        n, mean = g.count(), g.mean()
        m2 = g.var(ddof=0).fillna(0.0) * n
        if self.n.empty:
            self.n, self.mean, self.m2 = n, mean.fillna(0.0), m2
            return
        index = self.n.index.union(n.index, sort=False)
        cols = self.n.columns.union(n.columns, sort=False)
        n1, n2 = (x.reindex(index=index, columns=cols).fillna(0.0) for x in (self.n, n))
        a1, a2 = (x.reindex(index=index, columns=cols).fillna(0.0) for x in (self.mean, mean.fillna(0.0)))
        q1, q2 = (x.reindex(index=index, columns=cols).fillna(0.0) for x in (self.m2, m2))
        total = n1 + n2
        safe = total.where(total > 0, 1.0)
        delta = a2 - a1
        self.mean = a1 + delta * n2 / safe
        self.m2 = q1 + q2 + delta * delta * n1 * n2 / safe
        self.n = total

    def merged(self, other: "Moments") -> "Moments":
        """Both sets of moments as one (a study's cells at one level)."""
        out = Moments()
        for part in (self, other):
            if part.n.empty:
                continue
            if out.n.empty:
                out.n, out.mean, out.m2 = part.n.copy(), part.mean.copy(), part.m2.copy()
                continue
            index = out.n.index.union(part.n.index, sort=False)
            cols = out.n.columns.union(part.n.columns, sort=False)
            n1, n2 = (x.reindex(index=index, columns=cols).fillna(0.0) for x in (out.n, part.n))
            a1, a2 = (x.reindex(index=index, columns=cols).fillna(0.0) for x in (out.mean, part.mean))
            q1, q2 = (x.reindex(index=index, columns=cols).fillna(0.0) for x in (out.m2, part.m2))
            total = n1 + n2
            safe = total.where(total > 0, 1.0)
            delta = a2 - a1
            out.mean, out.m2, out.n = a1 + delta * n2 / safe, q1 + q2 + delta * delta * n1 * n2 / safe, total
        return out

    def count(self, group: Hashable, column: str) -> int:
        return int(self.n.at[group, column]) if group in self.n.index and column in self.n.columns else 0

    def count_all(self, column: str) -> int:
        """Values present in ``column`` over every group."""
        return int(self.n[column].sum()) if column in self.n.columns else 0

    def mean_of(self, group: Hashable, column: str) -> float:
        """The mean (NaN with no value), as pandas' ``mean``."""
        return float(self.mean.at[group, column]) if self.count(group, column) else np.nan

    def std_of(self, group: Hashable, column: str) -> float:
        """The sample standard deviation (NaN under two values), as pandas' ``std``."""
        n = self.count(group, column)
        return float(np.sqrt(max(self.m2.at[group, column], 0.0) / (n - 1))) if n > 1 else np.nan

    def means(self) -> pd.DataFrame:
        """Every group's mean per column, NaN where no value."""
        return self.mean.where(self.n > 0) if not self.n.empty else pd.DataFrame()


class Distribution:
    """One column's values (of one group) with their counts: exact quantiles in memory that
    grows with the distinct values, not the rows (scores and turns repeat: a few hundred)."""

    COMPACT = 1 << 16

    def __init__(self) -> None:
        self._values: list[np.ndarray] = []
        self._counts: list[np.ndarray] = []
        self._pending = 0
        self._raw = False  # values that barely repeat (times): kept as they come, counts of one
        self._compacted = False  # whether values were counted yet (counts other than one)

    def add(self, values: Any) -> None:
        values = np.asarray(values, dtype=float)
        values = values[~np.isnan(values)]
        if not len(values):
            return
        self._values.append(values)
        self._counts.append(np.ones(len(values), dtype=np.int64) if not self._raw else np.empty(0, dtype=np.int64))
        self._pending += len(values)
        if not self._raw and self._pending >= self.COMPACT:
            self._compact()

    def _compact(self) -> None:
        values = np.concatenate(self._values) if len(self._values) > 1 else self._values[0]
        counts = np.concatenate(self._counts) if len(self._counts) > 1 else self._counts[0]
        # Whether the values repeat, told from the first of them when none is counted yet (a
        # million times at once: no table of them made just to be dropped). Raw or counted,
        # every value is kept: only the memory differs.
        first = not self._compacted and len(values) > 2 * self.COMPACT
        if first and len(np.unique(values[: self.COMPACT])) * 2 > self.COMPACT:
            self._raw = True
            self._values, self._counts, self._pending = [values], [], 0
            return
        self._compacted = True
        unique, inverse = np.unique(values, return_inverse=True)
        if len(unique) * 2 > len(values) and len(values) >= self.COMPACT:
            self._raw = True  # as many values as rows: counts would double the memory
            self._values = [np.repeat(values, counts)]
            self._counts = []
        else:
            self._values, self._counts = [unique], [np.bincount(inverse, weights=counts).astype(np.int64)]
        self._pending = 0

    def table(self) -> tuple[np.ndarray, np.ndarray]:
        """Sorted distinct values and their counts."""
        if self._raw:
            values = np.concatenate(self._values) if self._values else np.empty(0)
            unique, counts = np.unique(values, return_counts=True)
            return unique, counts
        if not self._values:
            return np.empty(0), np.empty(0, dtype=np.int64)
        self._compact()
        return self._values[0], self._counts[0]

    def _raw_values(self) -> np.ndarray:
        """The values kept as they came, as one array (in no particular order)."""
        if len(self._values) > 1:
            self._values = [np.concatenate(self._values)]
        return self._values[0] if self._values else np.empty(0)

    def values(self) -> np.ndarray:
        """Every value (each as often as it came), in no particular order."""
        if self._raw:
            return self._raw_values()
        values, counts = self.table()
        return np.repeat(values, counts)

    def quantiles(self, qs: Sequence[float]) -> list[float]:
        """Quantiles with linear interpolation between order statistics (numpy's and pandas')."""
        n = self.size()
        if not n:
            return [np.nan] * len(qs)
        spots = [(h, int(np.floor(h))) for h in ((n - 1) * q for q in qs)]
        if self._raw:
            # The order statistics picked out in place (the values' order is no information):
            # no sorted copy, no table of distinct values, of ten million times.
            values = self._raw_values()
            values.partition(sorted({k for _, lo in spots for k in (lo, min(lo + 1, n - 1))}))
            pairs = [(values[lo], values[min(lo + 1, n - 1)]) for _, lo in spots]
        else:
            distinct, counts = self.table()
            ends = np.cumsum(counts)
            pairs = [tuple(distinct[np.searchsorted(ends, [lo, min(lo + 1, n - 1)], side="right")]) for _, lo in spots]
        return [float(a + (h - lo) * (b - a)) for (h, lo), (a, b) in zip(spots, pairs)]

    def size(self) -> int:
        if self._raw:
            return sum(len(v) for v in self._values)
        return int(self.table()[1].sum())

    def box(self) -> dict[str, Any]:
        """The statistics matplotlib's ``bxp`` draws a box from (whiskers at 1.5 IQR); the
        fliers each distinct value outside the whiskers, in order."""
        q1, med, q3 = self.quantiles([0.25, 0.5, 0.75])
        values = self._raw_values() if self._raw else self.table()[0]
        low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
        inside = (values >= low) & (values <= high)
        outside = values[~inside]
        whiskers = (float(values.min(where=inside, initial=np.inf)), float(values.max(where=inside, initial=-np.inf)))
        return {"q1": q1, "med": med, "q3": q3, "whislo": whiskers[0] if inside.any() else q1,
                "whishi": whiskers[1] if inside.any() else q3,
                "fliers": np.unique(outside) if self._raw else outside}


class Codes:
    """Names to codes 0, 1, 2... in the order first seen."""

    def __init__(self) -> None:
        self.names: list[Any] = []
        self._index: dict[Any, int] = {}

    def of(self, values: Iterable[Any]) -> np.ndarray:
        codes, uniques = pd.factorize(np.asarray(values, dtype=object) if not isinstance(values, (pd.Series, np.ndarray))
                                      else values, sort=False)
        mapped = np.array([self._code(u) for u in uniques], dtype=np.int64)
        return mapped[codes] if len(mapped) else np.zeros(len(codes), dtype=np.int64)

    def _code(self, name: Any) -> int:
        code = self._index.get(name)
        if code is None:
            code = self._index[name] = len(self.names)
            self.names.append(name)
        return code

    def __len__(self) -> int:
        return len(self.names)


class NumberCodes:
    """Whole numbers (deal numbers) to codes. A number below ``direct`` is its own code (a
    schedule's deals are 0, 1, 2...: arrays indexed by deal, nothing kept); any other takes the
    next code from ``direct`` on, in the order first seen. ``limit()`` lowers ``direct`` to the
    codes already used, the first time a number too large to index comes: the codes given
    stay valid. The numbers coded are kept in sorted numpy arrays, not a dict (a long run has
    millions of deals)."""

    def __init__(self, direct: int) -> None:
        self.direct = direct
        self._sorted = np.zeros(0, dtype=np.int64)  # the numbers coded, sorted
        self._codes = np.zeros(0, dtype=np.int64)  # the code of each
        self._seen: list[np.ndarray] = []  # the numbers coded, in code order

    def limit(self, used: int) -> None:
        """From now on only numbers below ``used`` (the codes used so far) are their own code;
        once any number is coded, ``direct`` stays."""
        if not self._seen:
            self.direct = min(self.direct, used)

    def is_direct(self, values: np.ndarray) -> bool:
        return not len(values) or bool(values.min() >= 0 and values.max() < self.direct)

    def of(self, values: Any) -> np.ndarray:
        values = np.asarray(values, dtype=np.int64)
        if self.is_direct(values):
            return values
        out = values.copy()  # numbers below ``direct`` keep their own
        beyond = (values < 0) | (values >= self.direct)
        numbers = values[beyond]
        unique, first = np.unique(numbers, return_index=True)
        at = np.searchsorted(self._sorted, unique)
        known = at < len(self._sorted)
        known[known] = self._sorted[at[known]] == unique[known]
        new = unique[~known][np.argsort(first[~known], kind="stable")]  # first seen, first coded
        if len(new):
            codes = self.direct + sum(len(s) for s in self._seen) + np.arange(len(new), dtype=np.int64)
            order = np.argsort(new)
            where = np.searchsorted(self._sorted, new[order])
            self._sorted = np.insert(self._sorted, where, new[order])
            self._codes = np.insert(self._codes, where, codes[order])
            self._seen.append(new)
        out[beyond] = self._codes[np.searchsorted(self._sorted, numbers)]
        return out

    def values(self, length: int) -> np.ndarray:
        """The number of each code 0..length-1."""
        direct = np.arange(min(self.direct, length), dtype=np.int64)
        return np.concatenate([direct, *self._seen])[:length] if self._seen else direct


class Tally:
    """Sums per key (an entrant pair, say) and row code (a deal): one growing array per key,
    each chunk added over the span of row codes it holds (a chunk's games are a few
    consecutive deals, so no chunk touches the whole array)."""

    def __init__(self, dtype: Any = np.float64) -> None:
        self.dtype = dtype
        self.arrays: dict[Hashable, np.ndarray] = {}
        self.length = 0

    def add(self, key: Hashable, rows: np.ndarray, values: Any) -> None:
        if not len(rows):
            return
        low, high = int(rows.min()), int(rows.max()) + 1
        array = self.arrays.get(key)
        if array is None or len(array) < high:
            # A quarter more at a time: a tenth of the deals too many at most, not twice as many.
            grown = np.zeros(max(high, (len(array) if array is not None else 0) * 5 // 4, 1024), dtype=self.dtype)
            if array is not None:
                grown[: len(array)] = array
            array = self.arrays[key] = grown
        self.length = max(self.length, high)
        array[low:high] += np.bincount(rows - low, weights=values, minlength=high - low).astype(self.dtype)

    def get(self, key: Hashable, length: int) -> np.ndarray:
        """The sums of ``key`` over row codes 0..length-1 (zeros where none came)."""
        array = self.arrays.get(key)
        out = np.zeros(length, dtype=self.dtype)
        if array is not None:
            n = min(length, len(array))
            out[:n] = array[:n]
        return out
