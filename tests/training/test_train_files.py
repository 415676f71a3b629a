"""``ttr-lab train``'s files: it writes only into a folder of its own, a checkpoint or held-out
file it cannot read is one line (never advice to unpickle it), a run that diverges stops without
touching its last good checkpoint, and a NaN checkpoint or a run past its iterations is said."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from ttr_lab.cli import app
from ttr_lab.core.errors import ConfigError
from ttr_lab.strategies.network import PARAMS
from ttr_lab.training import load_config, train
from ttr_lab.training import loop
from ttr_lab.training.folder import MARKER

TINY = """name: tiny
map: usa
players: 2
seed: 3
hidden: 8
iterations: 1
envs: 2
steps: 4
epochs: 1
batch: 32
judge_games: 0
"""


def _config(tmp_path, extra="", **overrides):
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY + f"output: {tmp_path / 'run'}\n" + extra)
    return load_config(path, overrides)


def _train_cli(tmp_path, out, *args):
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY)
    return CliRunner().invoke(app, ["train", str(path), "--out", str(out), *args])


def _one_line(result, message):
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.output.startswith("error: ") and result.output.count("\n") == 1, result.output
    assert message in result.output and "allow_pickle" not in result.output, result.output


def test_a_folder_of_the_users_own_files_is_refused_and_left_as_it_was(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "config.json").write_text('{"my": "config"}')
    (mine / "curve.csv").write_text("my,curve\n")
    _one_line(_train_cli(tmp_path, mine), "is not empty and is not a ttr-lab training folder (it holds config.json, "
                                          "curve.csv and no ttr-lab-train.json)")
    assert sorted(p.name for p in mine.iterdir()) == ["config.json", "curve.csv"]
    assert (mine / "config.json").read_text() == '{"my": "config"}'


def test_out_naming_a_file_is_one_line(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    _one_line(_train_cli(tmp_path, tmp_path / "notes.txt"), "is a file, not a folder")
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_its_own_folder_is_marked_first_and_a_rerun_goes_on_there(tmp_path):
    cfg = _config(tmp_path)
    train(cfg, say=lambda _: None)
    assert (tmp_path / "run" / MARKER).is_file()
    lines: list[str] = []
    assert train(_config(tmp_path, iterations=2), say=lines.append).iterations == 2
    assert lines[0].startswith("resuming tiny after iteration 1 of 2")


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04", b"garbage that is no zip at all, nor a pickle\n" * 4],
                         ids=["empty", "truncated", "garbage"])
def test_an_unreadable_checkpoint_is_one_line_that_says_delete_it(tmp_path, content):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "checkpoint.npz").write_bytes(content)
    with pytest.raises(ConfigError, match="cannot resume from .*checkpoint.npz: .*\\(delete it to start over\\)") as err:
        train(_config(tmp_path), say=lambda _: None)
    assert "allow_pickle" not in str(err.value) and "pickle.load" not in str(err.value)


def test_a_truncated_checkpoint_through_the_cli_is_one_line(tmp_path):
    train(_config(tmp_path), say=lambda _: None)
    ckpt = tmp_path / "run" / "checkpoint.npz"
    ckpt.write_bytes(ckpt.read_bytes()[:200])
    _one_line(_train_cli(tmp_path, tmp_path / "run", "--iterations", "2"), "(delete it to start over)")


def test_a_truncated_holdout_file_is_one_line_that_says_delete_it(tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / MARKER).write_text("{}")  # its own folder, the file cut short (a copy mishap)
    (tmp_path / "run" / "holdout.npz").write_bytes(b"PK\x03\x04")
    extra = "method: expert_iteration\ngames: 1\nsearch_iterations: 4\nholdout_games: 2\n"
    with pytest.raises(ConfigError, match="cannot read the held-out games from .*\\(delete it to play them again\\)"):
        train(_config(tmp_path, extra), say=lambda _: None)


def test_a_step_that_diverges_stops_the_run_and_keeps_the_last_good_checkpoint(tmp_path, monkeypatch):
    train(_config(tmp_path), say=lambda _: None)
    ckpt = tmp_path / "run" / "checkpoint.npz"
    good = ckpt.read_bytes()
    fit = loop.fit

    def diverging(net, adam, samples, cfg, iteration):
        losses = fit(net, adam, samples, cfg, iteration)
        net.params["w2"][0, 0] = np.inf  # as a too-large step leaves it
        return losses

    monkeypatch.setattr(loop, "fit", diverging)
    with pytest.raises(loop.Diverged, match="iteration 2 diverged \\(parameter w2 holds 1 infinite value\\(s\\); "
                                            "lr 0.001, value_weight 0.5\\): stopped; checkpoint.npz in .* keeps iteration 1"):
        train(_config(tmp_path, iterations=2), say=lambda _: None)
    assert ckpt.read_bytes() == good


def test_a_nan_checkpoint_is_refused(tmp_path):
    train(_config(tmp_path), say=lambda _: None)
    ckpt = tmp_path / "run" / "checkpoint.npz"
    with np.load(ckpt) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["net_" + PARAMS[0]][0, 0] = np.nan
    with open(ckpt, "wb") as f:
        np.savez(f, **arrays)
    with pytest.raises(ConfigError, match="cannot resume from .*: parameter w1 holds 1 NaN value\\(s\\) "
                                          "\\(delete it to start over\\)"):
        train(_config(tmp_path, iterations=2), say=lambda _: None)


def test_a_run_past_the_iterations_asked_says_so_and_trains_nothing(tmp_path):
    train(_config(tmp_path, iterations=2), say=lambda _: None)
    lines: list[str] = []
    run = train(_config(tmp_path, iterations=1), say=lines.append)
    assert lines == [f"tiny has done 2 iterations in {tmp_path / 'run'}, past the 1 asked for: nothing to train "
                     "(give more iterations to go on)"]
    assert run.iterations == 2


@pytest.mark.parametrize("extra, message", [
    ("lr: .inf\n", "lr: Input should be a finite number"),
    ("lr: 1.0e30\n", "lr: Input should be less than or equal to 1"),
    ("value_weight: .inf\n", "value_weight: Input should be a finite number"),
    ("value_weight: .nan\n", "value_weight: Input should be a finite number"),
    ({"steps": 10**12}, "steps: Input should be less than or equal to 100000"),
    ({"envs": 4096, "steps": 1000}, "envs 4096 x steps 1000 records 4,096,000 decisions an iteration"),
])
def test_non_finite_and_absurd_settings_are_refused(tmp_path, extra, message):
    with pytest.raises(ConfigError, match=message.replace("(", "\\(")):
        _config(tmp_path, extra) if isinstance(extra, str) else _config(tmp_path, **extra)


def test_a_prior_no_move_can_come_from_is_refused_with_the_config(tmp_path):
    from ttr_lab.core.game import load_game
    from ttr_lab.strategies.ticket_to_ride.learned import market_slots
    from ttr_lab.strategies.network import Network

    game = load_game("ticket_to_ride", map="usa")
    net = Network.initial(game, hidden=4, seed=1, slots=market_slots(game))
    net.params["wv"][0, 0] = np.nan
    net.save(tmp_path / "nan.npz")
    extra = (f"method: expert_iteration\nsearch: halving\ngames: 1\nsearch_iterations: 4\nprior: {tmp_path / 'nan.npz'}\n")
    with pytest.raises(ConfigError, match="tiny.yaml: prior: .*nan.npz: parameter wv holds 1 NaN value\\(s\\)"):
        _config(tmp_path, extra)


@pytest.mark.parametrize("which", ["curve", "value curve"])
def test_a_curve_of_one_point_draws_its_interval(tmp_path, monkeypatch, which):
    """A checkpoint judged once is a curve of one point: its 95% interval is drawn (a bar), as its
    label says, where a band between points drew nothing."""
    import matplotlib.figure
    from matplotlib.collections import LineCollection

    from ttr_lab.training.curve import write_curve
    from ttr_lab.training.holdout import write_value_curve

    drawn = []
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", lambda fig, *a, **k: drawn.append(fig))
    if which == "curve":
        write_curve([{"iteration": 1, "samples": 500, "seconds": 1.0, "opponent": "greedy", "games": 40,
                      "win_share": 0.6, "low": 0.45, "high": 0.73}], tmp_path)
        low, high = 0.45, 0.73
    else:
        write_value_curve([{"iteration": 1, "samples": 500, "seconds": 1.0, "games": 8, "positions": 300,
                            "excess_loss": 0.02, "low": 0.01, "high": 0.03, "corr": 0.4}], tmp_path)
        low, high = 0.01, 0.03
    (fig,) = drawn
    bars = [segment for ax in fig.axes for c in ax.collections if isinstance(c, LineCollection)
            for segment in c.get_segments()]
    assert any(abs(s[0][0] - s[1][0]) < 1e-9 and sorted([s[0][1], s[1][1]]) == pytest.approx([low, high])
               for s in bars), bars
