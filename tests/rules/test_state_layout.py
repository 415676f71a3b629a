"""The state's layout is declared once (``kernels.layout.STATE``): the kernels' constants, the
game array's offset slots, the face's fields, ``Fields``, snapshot and restore all follow from it,
so a new field is one line of the declaration."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from ttr_lab.core.array_layout import ArrayLayout, Part
from ttr_lab.games.ticket_to_ride import load_board, new_game
from ttr_lab.games.ticket_to_ride import fields as F
from ttr_lab.games.ticket_to_ride.kernels import layout as L, layout_constants as C
from ttr_lab.games.ticket_to_ride.kernels.regenerate import TARGET
from ttr_lab.games.ticket_to_ride.kernels.rows import hand_start, offers_start, tickets_start
from ttr_lab.games.ticket_to_ride.kernels.game_array import game_array
from ttr_lab.games.ticket_to_ride.restore import restore_state
from ttr_lab.games.ticket_to_ride.state import GameState, assemble_state, face_of


def test_the_kernels_constants_are_the_declaration_s_slots():
    for i, part in enumerate(L.STATE.header):
        assert getattr(L, part.name.upper()) == i
    assert L.STATE_HEADER == len(L.STATE.header)
    for part in L.STATE.body:
        assert getattr(L, f"S_{part.name.upper()}") == L.GAME.offsets[f"s_{part.name}"]
    assert L.GAME_HEADER == L.GAME.size
    with pytest.raises(AttributeError, match="has no attribute 'S_NOT_DECLARED'"):
        L.S_NOT_DECLARED  # noqa: B018


def test_the_generated_constants_are_the_declarations_own():
    """``layout_constants.py`` is the text the declarations give: a declaration changed without
    regenerating the file fails here (python -m ttr_lab.games.ticket_to_ride.kernels.regenerate)."""
    assert TARGET.read_text() == L.constants_source(), (
        "kernels/layout_constants.py is stale: run python -m ttr_lab.games.ticket_to_ride.kernels.regenerate")
    for _, constants in L.derived_constants():
        for name, value, _ in constants:
            assert type(getattr(L, name)) is int and getattr(L, name) == getattr(C, name) == value, name


def test_a_changed_declaration_no_longer_matches_the_generated_file(monkeypatch):
    monkeypatch.setattr(L, "VIEW", L.VIEW + (("extra", "test-only"),))
    assert f"V_EXTRA: Final = {len(L.VIEW) - 1}" in L.constants_source() != TARGET.read_text()


def test_no_hand_written_constant_of_layout_py_is_also_generated():
    tree = ast.parse(Path(L.__file__).read_text())
    by_hand = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
               for t in (node.targets if isinstance(node, ast.Assign) else [node.target]) if isinstance(t, ast.Name)}
    assert not by_hand & set(C.__all__)


def test_the_type_checker_refuses_a_misspelt_constant(tmp_path):
    (tmp_path / "probe.py").write_text(
        "from ttr_lab.games.ticket_to_ride.kernels import layout as lay\n"
        "fine: int = lay.PHASE + lay.S_HANDS + lay.V_HEADER + lay.KINDS + lay.SETUP\n"
        "wrong = lay.PHAES\n"
        "import ttr_lab.games.ticket_to_ride as ttr\n"
        "also_wrong = ttr.Phaes\n")
    root, kernels = Path(L.__file__).parents[4], Path(L.__file__).parent
    # Only these modules are read (their other imports skipped): the check takes a second.
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(root / "pyproject.toml"), "--no-incremental",
         "--cache-dir", "/dev/null", "--follow-imports=skip", str(tmp_path / "probe.py"),
         str(kernels / "layout.py"), str(kernels / "layout_constants.py"), str(kernels.parent / "__init__.py")],
        cwd=root, capture_output=True, text=True, timeout=600)
    errors = [line.split("probe.py:", 1)[-1] for line in done.stdout.splitlines() if ": error:" in line]
    assert errors == ['3: error: Module has no attribute "PHAES"; maybe "PHASE"?  [attr-defined]',
                      '5: error: Module has no attribute "Phaes"; maybe "Phase"?  [attr-defined]'], done.stdout


def test_the_face_s_fields_follow_the_declared_order_and_lengths():
    state = new_game(load_board("usa"), 3, 1)
    g, at = state.face.g, L.STATE_HEADER
    for part in L.STATE.body:
        start, room = state.face.fields[part.name]
        assert start == at == g[getattr(L, f"S_{part.name.upper()}")]
        at += room * (3 if part.kind == "rows" else 1)
    assert at == len(state.s) == g[L.S_SIZE]


def test_a_declaration_refuses_a_count_it_does_not_know():
    with pytest.raises(ValueError, match="not declared"):
        ArrayLayout([Part("phase", (1,), "", "scalar")], [Part("pile", ("cards",), "", "counted", "pile_n")])


@pytest.fixture
def with_bonus(monkeypatch):
    """The real declaration with one line more: a test-only field, a number per player."""
    bonus = Part("bonus", ("players",), "test-only: a number per player", fill=7)
    extended = L.STATE.extended(bonus)
    monkeypatch.setattr(L, "STATE", extended)
    monkeypatch.setattr(L, "GAME", L.game_layout(extended))
    monkeypatch.setattr(L, "GAME_HEADER", L.game_layout(extended).size)
    game_array.cache_clear()
    face_of.cache_clear()
    F.install(GameState)
    yield bonus
    delattr(GameState, "bonus")
    monkeypatch.undo()
    game_array.cache_clear()
    face_of.cache_clear()


def test_one_declared_line_gives_a_field_its_offset_property_snapshot_and_restore(with_bonus):
    board = load_board("usa")
    state = new_game(board, 3, 5)
    # Offsets: after every other field; the game array names it; the state array has room for it.
    start, room = state.face.fields["bonus"]
    assert room == 3 and start + room == len(state.s) == state.face.g[L.S_SIZE]
    assert state.face.g[L.GAME.offsets["s_bonus"]] == start
    # The face: a property, and ``Fields``; the compiled rules play on and leave it alone.
    assert state.bonus == [0, 0, 0]
    state.bonus = [4, 5, 6]
    assert state.fields().bonus == [4, 5, 6] and state.clone().bonus == [4, 5, 6]
    state.apply(state.legal_actions()[0])
    assert state.bonus == [4, 5, 6]
    # Snapshot and restore: its plain numbers under its name, read back.
    snap = state.snapshot()
    assert snap["bonus"] == [4, 5, 6]
    back = restore_state(board, snap)
    assert back.bonus == [4, 5, 6] and back.snapshot() == snap
    # A snapshot without it (written before the field existed) restores it to its declared fill.
    del snap["bonus"]
    assert restore_state(board, snap).bonus == [7, 7, 7]
    # ``assemble_state`` (restore's and determinize's builder) takes it by name.
    built = assemble_state(state.tables, **{**vars(state.fields()), "bonus": [1, 2, 3], "rng": state.rng})
    assert built.bonus == [1, 2, 3] and built.hands == state.hands


def test_assemble_state_refuses_a_field_the_state_does_not_declare():
    state = new_game(load_board("usa"), 2, 1)
    with pytest.raises(TypeError, match="bonus"):
        assemble_state(state.tables, bonus=[1, 2])


def test_a_seat_s_rows_start_where_the_declaration_puts_them():
    """The kernels' row helpers (what the planner kernels read hands and tickets with) take each
    row's width from the declared length rules: 9 kinds a hand, a ticket per board ticket, the
    largest offer."""
    state = new_game(load_board("usa"), 4, 2)
    g, f = state.face.g, state.face.fields
    assert f["tickets"][1] == g[L.N_TICKETS] and f["offers"][1] == g[L.MAX_OFFER]
    for p in range(4):
        assert hand_start(g, p) == f["hands"][0] + p * L.KINDS
        assert tickets_start(g, p) == f["tickets"][0] + p * f["tickets"][1]
        assert offers_start(g, p) == f["offers"][0] + p * f["offers"][1]


def test_the_type_checker_is_told_every_declared_field_with_the_type_the_face_hands_out():
    """``slots.StateSlots`` (read by the type checker only) says what the declaration derives:
    a new field without its line there, or with another type, fails here, naming the line."""
    import ast
    import inspect

    from ttr_lab.games.ticket_to_ride import slots

    tree = ast.parse(inspect.getsource(slots))
    declared = {node.target.id: ast.unparse(node.annotation) for node in ast.walk(tree)
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
    wanted = L.STATE.annotations()
    wrong = {name: kind for name, kind in wanted.items() if declared.get(name) != kind}
    assert not wrong, "slots.StateSlots should say:\n" + "\n".join(f"        {n}: {k}" for n, k in wrong.items())
    assert [n for n in declared if n in wanted] == list(wanted)  # in the declared order


def test_a_numbered_entry_added_moves_the_ones_after_it_and_the_size():
    from ttr_lab.core.array_layout import numbered

    base = numbered("V_", L.VIEW, "V_HEADER")
    assert base == {k: getattr(L, k) for k in base}  # the kernels' constants are the declaration's
    grown = numbered("V_", L.VIEW[:3] + (("bonus", "test-only"),) + L.VIEW[3:], "V_HEADER")
    assert grown["V_BONUS"] == 3 and grown["V_PASSES"] == base["V_PASSES"] + 1
    assert grown["V_HEADER"] == base["V_HEADER"] + 1 and grown["V_PLAYER"] == base["V_PLAYER"]
    with pytest.raises(ValueError, match="declared twice"):
        numbered("V_", L.VIEW + (("phase", ""),))


@pytest.mark.parametrize("prefix, declaration, size", [
    ("R_", "RESULT", "RESULT_COLUMNS"), ("V_", "VIEW", "V_HEADER"), ("P_", "DEAL_PLAN", "PLAN_HEADER"),
    ("O_", "OPPONENT_ROW", "OPPONENT_FIXED"), ("W_", "TENSOR_PLAN", "WRITER_PLAN_SIZE"),
])
def test_the_kernels_small_arrays_are_numbered_in_their_declared_order(prefix, declaration, size):
    entries = getattr(L, declaration)
    assert [getattr(L, f"{prefix}{name}".upper()) for name, _ in entries] == list(range(len(entries)))
    assert getattr(L, size) == len(entries)


def test_no_two_declarations_give_one_constant(monkeypatch):
    monkeypatch.setattr(L, "VIEW", L.VIEW + (("header", "an entry named like the family's size"),))
    with pytest.raises(ValueError, match="declares V_HEADER twice"):
        L.derived_constants()
