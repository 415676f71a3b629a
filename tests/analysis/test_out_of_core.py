"""The out-of-core readers (the report's digest, compare range by range, a study's cell
summaries) against the readers they replace (``tests/reference/readers``: each read every row
into one pandas frame), table by table, on a small results folder with what a big one has:
forfeits, stalled games, ties, three- and four-player games, blank metrics, track lists, a
game stored twice, row groups and chunks that cut games in two. And a reader never holds more
than a chunk of rows: ``read_results`` is not called, no chunk is larger than asked."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import reference.readers.breakdowns as old_breakdowns
import reference.readers.compare as old_compare
import reference.readers.ratings as old_ratings
import reference.readers.study_report as old_study
import reference.readers.tables as old_tables
import reference.readers.ttr_report as old_ttr
import ttr_lab.core.result_chunks as result_chunks
import ttr_lab.core.results as results
from ttr_lab.analysis import breakdowns, compare, partitions, ratings, tables
from ttr_lab.analysis.game import game_of, score_parts_of
from ttr_lab.bench.readers import synthesize
from ttr_lab.core.digest import ResultsDigest
from ttr_lab.games.ticket_to_ride import report as ttr_report

verdict = importlib.import_module("ttr_lab.analysis.verdict")
_whole = results.read_results  # the whole-frame reader, for the reference readers
old_verdict = importlib.import_module("reference.readers.verdict")

GAMES = 200


def _varied(frame: pd.DataFrame, seed: int) -> pd.DataFrame:
    """A synthetic frame made like a real one: some games of three, forfeits, stalls, blanks."""
    rng = np.random.default_rng(seed)
    frame = frame.copy()
    games = frame["game_id"].to_numpy()
    ids = pd.unique(games)
    three = set(ids[rng.random(len(ids)) < 0.2])
    frame = frame[~(frame["game_id"].isin(three) & (frame["seat"] == 3))].copy()
    frame.loc[frame["game_id"].isin(three), "num_players"] = 3
    frame["score"] = frame["score"] + rng.integers(-2, 3, len(frame))  # other ties
    frame["tracks"] = [list(rng.choice(100, size=int(rng.integers(0, 6)), replace=False)) for _ in range(len(frame))]
    frame.loc[rng.random(len(frame)) < 0.05, "longest_trail"] = np.nan  # a metric left blank
    by_game = frame.groupby("game_id", sort=False)["score"]
    frame["rank"] = 1 + by_game.rank(method="min", ascending=False).astype(int) - 1
    first = frame["rank"] == 1
    frame["win"] = first / first.groupby(frame["game_id"]).transform("sum")
    stalled = frame["game_id"].isin(set(ids[rng.random(len(ids)) < 0.05]))
    frame.loc[stalled, "termination"] = "stalled"
    forfeited = set(ids[rng.random(len(ids)) < 0.04]) - three
    lost = frame["game_id"].isin(forfeited)
    metric_columns = [c for c in frame.columns if c not in results.FIXED_NAMES]
    frame.loc[lost, ["score", "turns", *metric_columns]] = None
    frame.loc[lost, "termination"] = "forfeit"
    frame.loc[lost, "forfeit"] = frame.loc[lost, "seat"] == 0
    frame.loc[lost, "rank"] = np.where(frame.loc[lost, "seat"] == 0, 4, 1)
    frame.loc[lost, "win"] = np.where(frame.loc[lost, "seat"] == 0, 0.0, 1 / 3)
    return frame.reset_index(drop=True)


def _write(frame: pd.DataFrame, folder, schema: pa.Schema, twice: pd.DataFrame | None = None) -> None:
    (folder / "results").mkdir(parents=True)
    half = frame["deal"].max() // 2
    for i, part in enumerate((frame[frame["deal"] <= half], frame[frame["deal"] > half])):
        pq.write_table(pa.Table.from_pandas(part, schema=schema, preserve_index=False),
                       folder / "results" / f"part-{i}.parquet", row_group_size=101)
    if twice is not None:  # a game stored again, later, with other numbers: the first part's rows count
        pq.write_table(pa.Table.from_pandas(twice, schema=schema, preserve_index=False),
                       folder / "results" / "part-9.parquet", row_group_size=101)
    (folder / "meta.json").write_text(json.dumps({"game": {"name": "ticket_to_ride", "options": {}}}))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two runs of the same deals (B: other numbers), as folders, and the study of both."""
    where = tmp_path_factory.mktemp("out-of-core")
    base = synthesize(where / "synthetic", GAMES)
    whole = results.read_results(base)
    schema = pq.read_schema(next((base / "results").glob("*.parquet")))
    schema = pa.schema([*schema, pa.field("tracks", pa.list_(pa.int64()))]) if "tracks" not in schema.names else schema
    a, b = _varied(whole, 1), _varied(whole, 2)
    b = b.set_index(["game_id", "seat"]).reindex(a.set_index(["game_id", "seat"]).index).reset_index()
    b = b[a.columns].assign(entrant=a["entrant"], num_players=a["num_players"])
    b = b[b["score"].notna() | a["score"].isna()].dropna(subset=["rank"])
    b = b[b["game_id"].isin(b.groupby("game_id").size().loc[lambda n: n == b.groupby("game_id")["num_players"].first()].index)]
    twice = a[a["game_id"] == a["game_id"].iloc[-1]].assign(score=999.0)
    _write(a, where / "a", schema, twice)
    _write(b, where / "b", schema)
    study = where / "study"
    (study / "cells").mkdir(parents=True)
    for key, folder in (("base", "a"), ("other", "b")):
        (study / "cells" / key).symlink_to(where / folder, target_is_directory=True)
    cells = [{"key": k, "levels": {"factor": v}, "options": {}} for k, v in (("base", 0), ("other", 1))]
    (study / "study.json").write_text(json.dumps({
        "name": "s", "game": "ticket_to_ride", "baseline": {"factor": 0},
        "factors": [{"name": "factor", "levels": [0, 1]}], "levels": {"factor": [0, 1]}, "cells": cells}))
    return where


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of a few games, so that games straddle row groups, batches and chunks; every
    chunk and every range of deals seen; ``read_results`` refused to the readers."""
    monkeypatch.setattr(result_chunks, "CHUNK_ROWS", 150)
    monkeypatch.setattr(partitions, "PARTITION_ROWS", 300)
    seen: dict[str, int] = {"chunk": 0, "range": 0}
    chunks, frames = result_chunks.game_chunks, partitions.Split.frame

    def counted_chunks(*args, **kwargs):
        for chunk in chunks(*args, **kwargs):
            seen["chunk"] = max(seen["chunk"], len(chunk))
            yield chunk

    def counted_frame(self, r, columns):
        frame = frames(self, r, columns)
        seen["range"] = max(seen["range"], len(frame))
        return frame

    monkeypatch.setattr(result_chunks, "game_chunks", counted_chunks)
    monkeypatch.setattr(partitions.Split, "frame", counted_frame)
    monkeypatch.setattr(results, "read_results", _refused)
    return seen


def _refused(*args, **kwargs):
    raise AssertionError("a reader read every row at once")


def _same(old: pd.DataFrame, new: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(old.reset_index(drop=True) if isinstance(old.index, pd.RangeIndex) else old,
                                  new.reset_index(drop=True) if isinstance(new.index, pd.RangeIndex) else new,
                                  check_dtype=False, rtol=1e-9, atol=1e-12)


def test_the_report_tables_equal_the_whole_frame_readers(runs, small_chunks):
    from ttr_lab.analysis.report import report_sections, results_digest

    frame = _whole(runs / "a")
    game = game_of(runs / "a", frame)
    parts = score_parts_of(game)
    d = ResultsDigest.of(runs / "a", parts)
    assert d.games == frame["game_id"].nunique() and d.forfeits.sum() == frame["forfeit"].sum()
    order = old_tables.entrant_order(frame)
    rated = old_ratings.bradley_terry(frame, resamples=20)
    for old, new in [
        (old_tables.entrant_table(frame, game.metrics), tables.entrant_table(d, game.metrics)),
        (old_tables.metric_table(frame, game.metrics), tables.metric_table(d, game.metrics)),
        (old_tables.score_parts(frame, parts), tables.score_parts(d, parts)),
        (old_tables.seat_table(frame), tables.seat_table(d)),
        (old_tables.player_count_table(frame), tables.player_count_table(d)),
        (old_tables.head_to_head(frame), tables.head_to_head(d)),
        (old_tables.pairwise_tests(frame), tables.pairwise_tests(d)),
        (rated, ratings.bradley_terry(d, resamples=20)),
        (old_verdict.metric_differences(frame, order[0], order[1], game.metrics),
         verdict.metric_differences(d, order[0], order[1], game.metrics)),
        (old_verdict.upsets(frame, rated, top=8), verdict.upsets(d, rated, top=8)),
        (old_breakdowns.game_length_table(frame), breakdowns.game_length_table(d)),
        (old_breakdowns.think_times(frame), breakdowns.think_times(d)),
        (old_breakdowns.score_breakdown(frame, parts), breakdowns.score_breakdown(d, parts)),
        (old_ttr.points_by_source(game, frame), ttr_report.points_by_source(game, d)),
        (old_ttr.tickets_and_bonuses(game, frame), ttr_report.tickets_and_bonuses(game, d)),
    ]:
        _same(old, new)
    assert old_verdict.metric_differences(frame, order[0], order[1], game.metrics).attrs["same_as"] == \
        verdict.metric_differences(d, order[0], order[1], game.metrics).attrs["same_as"]
    for old, new in zip(old_ttr.track_claims(game, frame), ttr_report.track_claims(game, d)):
        assert old == pytest.approx(new)
    assert 0 < small_chunks["chunk"] <= 150 + 4  # a chunk ends after the game it is in
    titles = [title for title, *_ in report_sections(results_digest(runs / "a", game), game)]
    assert {"Entrants", "Points by source", "Tickets and bonuses", "Think time"} <= set(titles)


@pytest.mark.parametrize("paired", [None, False])
def test_compare_of_two_folders_equals_the_whole_frame_compare(runs, small_chunks, paired):
    frame_a, frame_b = _whole(runs / "a"), _whole(runs / "b")
    game = game_of(runs / "a", frame_a)
    old = old_compare.compare(frame_a, frame_b, game.metrics, paired=paired)
    new = compare.compare_folders(runs / "a", runs / "b", paired=paired)
    for name in ("wins", "scores", "metrics"):
        _same(getattr(old, name), getattr(new, name))
    assert (old.games, old.deals, old.changed_winner, old.changed_games, old.only_a, old.only_b) == \
        (new.games, new.deals, new.changed_winner, new.changed_games, new.only_a, new.only_b)
    assert paired is False or old.changed_winner > 0  # the runs differ: winners changed
    assert 0 < small_chunks["range"] <= 300 + 4 * 13  # a range of deals, not the folder


def test_a_study_s_tables_equal_the_whole_frame_tables(runs, small_chunks):
    import ttr_lab.studies.report as study

    new = study.load_study_results(runs / "study")
    old = old_study.load_study_results(runs / "study")  # its own read_results: the whole frames
    _same(old_study.effects(old), study.effects(new))
    _same(old_study.paired_table(old), study.paired_table(new))
    _same(old_study.balance_table(old), study.balance_table(new))


def test_the_end_of_run_summary_of_a_folder_equals_the_whole_frame_summary(runs, small_chunks):
    from ttr_lab.tournament.summary import error_summary, summary_of, summary_table

    frame = _whole(runs / "a")
    game = game_of(runs / "a", frame)
    table, errors = summary_of(runs / "a", game)  # read_results refused: a chunk at a time
    assert table.attrs["extra"] == ["tickets", "bonus"] and table.attrs == summary_table(frame, game).attrs
    _same(summary_table(frame, game), table)
    assert errors["games"].sum() == frame["forfeit"].sum() > 0
    _same(error_summary(frame).reset_index(drop=True), errors)
    assert 0 < small_chunks["chunk"] <= 150 + 4
