"""Deal numbers of any size: a tournament's deals are numbered on and on (and a merged or
resumed run may start far from zero), so the out-of-core report codes the deals it cannot
index directly, and its tables are the same as for the same games numbered 0, 1, 2..."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

import ttr_lab.core.result_chunks as result_chunks
from ttr_lab.analysis import ratings, tables
from ttr_lab.analysis.game import game_of, score_parts_of
from ttr_lab.bench.readers import synthesize
from ttr_lab.core.accumulate import NumberCodes
from ttr_lab.core.digest import ResultsDigest
from ttr_lab.core.results import read_results

verdict = importlib.import_module("ttr_lab.analysis.verdict")  # the package's name is a function


def test_numbers_below_the_limit_are_their_own_code_and_others_are_coded_as_they_come():
    codes = NumberCodes(100)
    assert codes.of([3, 0, 7]).tolist() == [3, 0, 7]
    codes.limit(8)  # codes 0..7 used: the first number too large to index comes
    assert codes.of([5, 2**40, -3, 2**40, 9]).tolist() == [5, 8, 9, 8, 10]
    codes.limit(2)  # numbers are coded already: the limit stays
    assert codes.of([9, 1, 2**62, -3]).tolist() == [10, 1, 11, 9]
    assert codes.values(12).tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 2**40, -3, 9, 2**62]


def test_a_folder_of_huge_deal_numbers_reads_as_the_same_games_numbered_from_zero(tmp_path, monkeypatch):
    monkeypatch.setattr(result_chunks, "CHUNK_ROWS", 48)  # the huge numbers come in a later chunk
    small = synthesize(tmp_path / "small", 120)
    frame = read_results(small)
    huge = frame.assign(deal=np.where(frame["deal"] >= 10, frame["deal"] * 7 + 2**40, frame["deal"]))
    (tmp_path / "huge" / "results").mkdir(parents=True)
    schema = pq.read_schema(next((small / "results").glob("*.parquet")))
    pq.write_table(pa.Table.from_pandas(huge, schema=schema, preserve_index=False),
                   tmp_path / "huge" / "results" / "part-0.parquet")
    (tmp_path / "huge" / "meta.json").write_text((small / "meta.json").read_text())
    game = game_of(small, frame)
    parts = score_parts_of(game)
    a, b = ResultsDigest.of(small, parts), ResultsDigest.of(tmp_path / "huge", parts)
    assert sorted(b.deal_values[b.deals_used()].tolist()) == sorted(set(huge["deal"]))
    order = tables.entrant_order(a)
    for old, new in [(tables.pairwise_tests(a), tables.pairwise_tests(b)),
                     (tables.head_to_head(a), tables.head_to_head(b)),
                     (ratings.bradley_terry(a, resamples=20), ratings.bradley_terry(b, resamples=20)),
                     (verdict.metric_differences(a, order[0], order[1], game.metrics),
                      verdict.metric_differences(b, order[0], order[1], game.metrics))]:
        pd.testing.assert_frame_equal(old, new)
    assert json.loads((tmp_path / "huge" / "meta.json").read_text())["game"]["name"] == game.name
