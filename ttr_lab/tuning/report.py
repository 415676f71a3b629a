"""What a tuning run leaves behind: a table of trials, the objective-vs-trial figure, the best
parameters as a ready-to-use tournament entrant, and a short report."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from ttr_lab.analysis.presentation import percent_interval

from ttr_lab.tuning.config import TuneConfig
from ttr_lab.tuning.trials import TuningRun


def trials_frame(run: TuningRun, defaults: dict[str, Any]) -> pd.DataFrame:
    """One row per finished trial, in the order they finished (failed ones included)."""
    rows = []
    for i, t in enumerate(run.trials, start=1):
        row: dict[str, Any] = {"trial": i, "proposal": t.proposal, **{f"param.{k}": v for k, v in t.params.items()}}
        m = t.measure.to_dict() if t.measure else {}
        row.update({k: m.get(k, math.nan) for k in ("objective", "low", "high", "win_rate", "margin", "mean_score",
                                                     "seconds_per_decision", "games")})
        # The game's own summary metrics, by name (Ticket to Ride's ticket completion, say).
        row.update(dict(t.measure.metrics) if t.measure else {})
        row["is_default"] = t.params == defaults
        row["error"] = t.error
        rows.append(row)
    return pd.DataFrame(rows)


def objective_figure(frame: pd.DataFrame, config: TuneConfig, path: Path) -> Any:
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    # A bare Figure, not pyplot: no GUI backend needed, and a notebook's backend is left alone.
    ok = frame.dropna(subset=["objective"])
    if config.objective == "win_rate":  # drawn in percent, as the report writes it
        ok = ok.assign(**{c: ok[c] * 100 for c in ("objective", "low", "high")})
    fig = Figure(figsize=(9.5, 4.2), layout="constrained")
    ax = fig.subplots()
    if len(ok):
        low = (ok["objective"] - ok["low"]).clip(lower=0).fillna(0)
        high = (ok["high"] - ok["objective"]).clip(lower=0).fillna(0)
        ax.errorbar(ok["trial"], ok["objective"], yerr=[low, high], fmt="o", color="#4477aa", ecolor="#99bbdd",
                    capsize=2, label="trial (95% interval)")
        ax.step(ok["trial"], ok["objective"].cummax(), where="post", color="#cc6677", label="best so far")
        default = ok[ok["is_default"]]
        if len(default):
            ax.scatter(default["trial"], default["objective"], s=90, facecolors="none", edgecolors="black", label="default parameters")
        # The run's best: highest objective, the earliest proposal among equals (as best_of).
        best = ok.sort_values(["objective", "proposal"], ascending=[False, True]).iloc[0]
        ax.scatter([best["trial"]], [best["objective"]], marker="*", s=200, color="#ddaa33", zorder=5, label="best")
    if config.objective == "win_rate":
        ax.set_ylim(-3, 103)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # trials are whole: no tick at trial 2.5
    ax.set_xlabel("trial (in the order they finished)")
    ax.set_ylabel("win rate (%)" if config.objective == "win_rate" else config.objective.replace("_", " "))
    ax.set_title(f"{config.name}: {config.strategy} against {', '.join(o['name'] for o in config.opponent_entrants())}"
                 f" ({config.players} players)")
    ax.grid(alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        # Beside the axes: inside, some corner always holds trials (the best are often bottom right).
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, borderaxespad=0)
    fig.savefig(path, dpi=110)
    return fig


def entrant_snippet(config: TuneConfig, run: TuningRun) -> str:
    """A tournament entrant with the tuned parameters, as YAML with a comment saying where it came from."""
    v = run.validation
    head = v["head_to_head"]
    if run.best is None:
        raise ValueError("no trial was measured: there is no entrant to write")
    best = run.best.measured
    lines = [
        f"# {config.strategy} tuned by ttr-lab tune ({config.name}): {len(run.trials)} trials of {best.games} games, "
        f"{config.objective} against {', '.join(o['name'] for o in config.opponent_entrants())} at {config.players} players",
        f"# best trial: {config.objective} {format_value(best.objective, best.low, best.high, config.objective)} on the tuning deals",
        f"# validation on {head['games']} fresh games: ahead of the default in {head['tuned_ahead']:.1%} "
        f"[{head['low']:.1%}, {head['high']:.1%}]" if not head.get("same") else
        "# the best trial was the default parameters: no better setting found",
    ]
    entrant = [{"name": f"{config.strategy.rsplit(':', 1)[-1]}-tuned", "strategy": config.strategy,
                "params": {**config.params, **run.best_params}}]
    return "\n".join(lines) + "\n" + yaml.safe_dump(entrant, sort_keys=False, default_flow_style=None)


def format_value(value: float, low: float, high: float, objective: str) -> str:
    """A win rate as a percentage (``12.5% [8.0, 18.9]``, as the validation's shares are), a
    margin in points to 1 decimal, with its interval when there is one."""
    if objective == "win_rate":
        return percent_interval(value, low, high)
    interval = "" if math.isnan(low) else f" [{low:.1f}, {high:.1f}]"
    return f"{value:.1f}{interval}"


def _both(m: dict[str, float]) -> str:
    return (f"win rate {format_value(m['win_rate'], m['win_low'], m['win_high'], 'win_rate')}, "
            f"score margin {format_value(m['margin'], m['margin_low'], m['margin_high'], 'score_margin')}")


def _verdict(head: dict[str, Any]) -> str:
    if head.get("same"):
        return "the best parameters are the defaults"
    if head["significant"]:
        return "the tuned parameters are better than the default (95%)"
    if head["worse"]:
        return "the tuned parameters are WORSE than the default on fresh seeds (the best trial was lucky)"
    return "no significant difference from the default on fresh seeds"


def best_trials(frame: pd.DataFrame) -> pd.DataFrame:
    """The finished trials, best objective first."""
    return frame.dropna(subset=["objective"]).sort_values("objective", ascending=False)


def write_outputs(config: TuneConfig, run: TuningRun, defaults: dict[str, Any]) -> None:
    """Write trials.csv, objective.png, best.yaml and report.md into the run's folder, and keep
    on ``run`` what a caller shows: the trials, the summary lines, the tuned entrant."""
    folder = run.folder
    frame = trials_frame(run, defaults)
    frame.to_csv(folder / "trials.csv", index=False)
    objective_figure(frame, config, folder / "objective.png")
    snippet = entrant_snippet(config, run)
    (folder / "best.yaml").write_text(snippet)

    ok = best_trials(frame)
    v = run.validation
    head = v["head_to_head"]
    tuned, default = v["tuned_vs_field"], v["default_vs_field"]
    lines = [
        f"best parameters: {run.best_params}",
        f"validation ({v['deals']} fresh deals): tuned ahead of default in {head['tuned_ahead']:.1%} "
        f"[{head['low']:.1%}, {head['high']:.1%}] of {head['games']} games: {_verdict(head)}"
        if not head.get("same") else f"validation ({v['deals']} fresh deals): {_verdict(head)}",
        f"against the field on fresh deals: tuned {_both(tuned)}; default {_both(default)}",
    ]
    failed = frame[frame["error"] != ""]
    if len(failed):
        lines.append(f"{len(failed)} trials failed; the first: {failed.iloc[0]['error']}")
    report = [
        f"# Tuning: {config.name}", "",
        f"{config.strategy} against {', '.join(o['name'] for o in config.opponent_entrants())} at {config.players} "
        f"players, {config.objective}, {config.search} search, {len(frame)} trials of {int(ok['games'].iloc[0])} games "
        "(the same seeded deals in every trial, each under every seat rotation).", "",
        *[f"- {line}" for line in lines], "",
        "![objective by trial](objective.png)", "",
        "## Best trials", "", _markdown(ok.head(10), config.objective), "",
        "## Tuned entrant", "", "```yaml", snippet.rstrip(), "```", "",
    ]
    (folder / "report.md").write_text("\n".join(report))
    run.trials_table, run.summary, run.entrant = frame, lines, snippet


# The trials table's columns the best-trials table leaves out (the game's metrics are shown).
_NOT_SHOWN = {"trial", "proposal", "win_rate", "margin", "seconds_per_decision", "games", "is_default", "error"}


def _markdown(frame: pd.DataFrame, objective: str) -> str:
    """The best trials: parameters, the objective with its interval in one cell (a win rate as a
    percentage), the mean score, the game's metrics."""
    params = [c for c in frame.columns if c.startswith("param.")]
    rest = ["mean_score"] + [c for c in frame.columns if c not in (*params, "objective", "low", "high", "mean_score")
                             and c not in _NOT_SHOWN]
    header = ("| trial | " + " | ".join([*(c.removeprefix("param.") for c in params), f"{objective.replace('_', ' ')} "
                                         "[95% CI]", *(c.replace("_", " ") for c in rest)]) + " |")
    lines = [header, "|" + "---|" * (len(params) + len(rest) + 2)]
    for _, r in frame.iterrows():
        cells = [f"{r[c]:.4g}" if isinstance(r[c], float) else str(r[c]) for c in params]
        cells.append(format_value(r["objective"], r["low"], r["high"], objective))
        cells += [f"{r[c]:.4g}" if isinstance(r[c], float) else str(r[c]) for c in rest]
        lines.append(f"| {int(r['trial'])}{' (default)' if r['is_default'] else ''} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
