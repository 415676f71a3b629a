"""The boundaries between the engine and an isolated strategy's process, each probed the way a
hostile plug-in would: its identity (user id), each reply's framing, the time to build it, the
files it leaves, the processes that outlive the engine."""

from __future__ import annotations

import pytest

from ttr_lab.core import confinement


@pytest.fixture
def own_ledger(tmp_path, monkeypatch):
    """A fresh engine process able to switch users, with a ledger of its own."""
    monkeypatch.setattr(confinement, "can_switch_user", lambda: True)
    for name, value in (("LEDGER", tmp_path / "uids"), ("_block", [0, 0]), ("_handed", set()),
                        ("_live_uids", set)):  # no process runs as any of them, unless a test says so
        monkeypatch.setattr(confinement, name, value, raising=False)
    return tmp_path / "uids"


def test_no_two_children_ever_share_a_user_id_however_many_an_entrant_restarts(own_ledger, monkeypatch):
    # A strategy that ends its process every game gets a fresh child (and uid) each game: with
    # uids reused, its child came to share the user of another entrant's live child, and killed it.
    uids = [confinement.next_uid() for _ in range(1000)]
    assert len(set(uids)) == 1000 and all(uid > 65535 for uid in uids)
    # Another process of the run (a Ray worker) claims from the same ledger: none of these either.
    monkeypatch.setattr(confinement, "_block", [0, 0])
    monkeypatch.setattr(confinement, "_handed", set())
    other = [confinement.next_uid() for _ in range(300)]
    assert not set(other) & set(uids)


def test_a_user_id_some_process_runs_as_is_never_handed_out(own_ledger, monkeypatch):
    first = confinement.next_uid()
    monkeypatch.setattr(confinement, "_block", [0, 0])
    monkeypatch.setattr(confinement, "_handed", set())
    own_ledger.unlink()  # the ledger lost (a cleaned temp folder): numbering starts again
    monkeypatch.setattr(confinement, "_live_uids", lambda: {first})  # ... while that child still runs
    assert confinement.next_uid() != first


def test_the_users_processes_run_as_are_read_from_proc():
    import os

    assert os.getuid() in confinement._live_uids()


def test_a_ledger_someone_else_planted_is_not_trusted(own_ledger):
    own_ledger.symlink_to(own_ledger.parent / "elsewhere")
    confinement.next_uid()
    assert not own_ledger.is_symlink() and not (own_ledger.parent / "elsewhere").exists()
