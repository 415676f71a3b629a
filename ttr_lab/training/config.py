"""Training configuration (``ttr-lab train CONFIG``): YAML checked by pydantic; every mistake is a
one-line ConfigError.

    extends: defaults.yaml         # optional: a config (a path relative to this file) whose
                                   # settings this file's own keys override
    name: train-usa-2p
    map: usa                       # or game: ... with options: {...}
    players: 2
    seed: 1
    output: results/train-usa-2p
    hidden: 256                    # the trunk's width (obs -> hidden -> hidden, ReLU)
    iterations: 60                 # each: collect on the batched env, then fit
    envs: 64                       # sub-games stepped together
    steps: 160                     # learner decisions recorded per sub-game per iteration (and
                                   # each sub-game's game then played to its end)
    opponents: [planner, greedy]   # compiled opponents, one per iteration in turn
    teacher_mix: 1.0               # DAgger: the chance the teacher's move is played at iteration 0,
    teacher_decay: 0.8             # times this each iteration, down to teacher_floor (else the
    teacher_floor: 0.1             # network's own move: it learns to recover from its mistakes)
    epochs: 2                      # passes over each iteration's samples
    batch: 256
    lr: 0.001                      # Adam
    value_weight: 0.5              # the value head's share of the loss
    judge_every: 10                # iterations between judged checkpoints (and the last)
    judge_games: 200               # games per judged opponent (seat-rotated, fresh seeds)
    judge_opponents: [greedy, planner]
    features: none                 # or plan-v1: the planner's planning features appended to the
                                   # tensor (the game's: Ticket to Ride's plan_features.py)
                                   # or kept-plan-v1: the same, the plan the one the ticket_planner
                                   # strategy keeps between its decisions, not a fresh one; or
                                   # kept-offers-v1: that, then per subset of a ticket offer what
                                   # keeping it costs and scores
    teacher: planner               # imitation's teacher: the batched env's compiled planner (a fresh
                                   # plan, one ticket order), or ticket_planner: the strategy's own
                                   # move (its kept plan, its four ticket orders)
    teacher_knobs: {}              # ticket_planner's knobs changed for the teacher (not those that
                                   # shape its plan: the features' kept plan is the default one's)
    init: null                     # a weights file to start from (its hidden and features must match)
    method: imitation              # or expert_iteration (the game's expert.py): self-play games whose
                                   # moves come from a search, its root's samples the policy
                                   # targets, the outcome the value targets; its keys:
    search: tree                   # the searching seats: mcts_tree, or halving: mcts_halving with
                                   # the network being trained as its prior (mcts_learned's search)
    workers: 1                     # processes playing an iteration's games (the samples are the same)
    games: 16                      # self-play games per iteration
    search_iterations: 64          # the search's iterations (halving: play-outs) per searched decision
    search_value_mix: 0.0          # > 0: the search's leaves use the network's value head too
    search_value_scale: 10.0       # (points of lead per unit of the value head's logit)
    answer_weight: 0.5             # policy target: this share on the move played, the rest the visits
    replay: 1                      # iterations of samples fitted together (the newest included)
    prior: null                    # search: halving: a fixed prior for the racing seats (a weights
                                   # file, or learned: the shipped one) in place of the network being
                                   # trained, which then reads the mover's own inputs at each decision:
                                   # the games are mcts_learned's, the network learns from them
    value_target: win              # the value head's target: the mover's win share, or lead:
    lead_scale: 10.0               # sigmoid(lead / lead_scale), the lead the mover's final score over
                                   # the best other seat's (so the logit reads as lead / lead_scale)
    holdout_games: 0               # > 0: that many self-play games more, never trained on, on which
                                   # the value head is judged at iteration 0 and every judge_every
                                   # (training/holdout.py: value_curve.csv and .png)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ttr_lab.tournament.config_files import check_game, read_yaml_extending, validate, with_game

Opponent = Literal["random", "greedy", "planner"]  # the batched env's compiled policies
TEACHING: tuple[Opponent, ...] = ("planner", "greedy")
JUDGING: tuple[Opponent, ...] = ("greedy", "planner")
# The decisions an imitation iteration records (envs x steps): each is an observation, a mask and
# a market (some 6 KB on usa with the planning features), so this is some 1.5 GB of samples.
MAX_SAMPLES = 250_000


class TrainConfig(BaseModel):
    # No NaN or infinity anywhere: an infinite lr trains a NaN network to the last iteration.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _named_game(cls, data: Any) -> Any:
        return with_game(cls, data)

    name: str = "train"
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    players: int = Field(default=2, ge=2)
    seed: int = 0
    output: str = "results/train"
    hidden: int = Field(default=256, ge=1, le=4096)
    iterations: int = Field(default=60, ge=1, le=1_000_000)
    envs: int = Field(default=64, ge=1, le=4096)
    steps: int = Field(default=160, ge=1, le=100_000)
    opponents: list[Opponent] = Field(default_factory=lambda: list(TEACHING), min_length=1)
    teacher_mix: float = Field(default=1.0, ge=0.0, le=1.0)
    teacher_decay: float = Field(default=0.8, ge=0.0, le=1.0)
    teacher_floor: float = Field(default=0.1, ge=0.0, le=1.0)
    epochs: int = Field(default=2, ge=1, le=1000)
    batch: int = Field(default=256, ge=1)
    lr: float = Field(default=1e-3, gt=0.0, le=1.0)  # Adam moves each weight by about lr a step
    value_weight: float = Field(default=0.5, ge=0.0, le=100.0)
    judge_every: int = Field(default=10, ge=1)
    judge_games: int = Field(default=200, ge=0)
    judge_opponents: list[Opponent] = Field(default_factory=lambda: list(JUDGING))
    features: Literal["none", "plan-v1", "kept-plan-v1", "kept-offers-v1"] = "none"
    teacher: Literal["planner", "ticket_planner"] = "planner"
    teacher_knobs: dict[str, float] = Field(default_factory=dict)
    init: str | None = None
    method: Literal["imitation", "expert_iteration"] = "imitation"
    games: int = Field(default=16, ge=1, le=10_000)
    search_iterations: int = Field(default=64, ge=1, le=1_000_000)
    search_value_mix: float = Field(default=0.0, ge=0.0, le=1.0)
    search_value_scale: float = Field(default=10.0, gt=0.0)
    answer_weight: float = Field(default=0.5, ge=0.0, le=1.0)
    replay: int = Field(default=1, ge=1, le=1000)
    search: Literal["tree", "halving"] = "tree"
    workers: int = Field(default=1, ge=1)
    prior: str | None = None
    value_target: Literal["win", "lead"] = "win"
    lead_scale: float = Field(default=10.0, gt=0.0)
    holdout_games: int = Field(default=0, ge=0, le=10_000)

    def teacher_share(self, iteration: int) -> float:
        """The chance the teacher's move is played at ``iteration`` (0 first)."""
        return max(self.teacher_floor, self.teacher_mix * self.teacher_decay ** iteration)


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """The training config at ``path`` with the non-None ``overrides``; a ConfigError names any mistake."""
    source = str(path)
    cfg = validate(TrainConfig, read_yaml_extending(path), source, overrides)
    check_game(cfg.game, cfg.options, cfg.players, source)
    from ttr_lab.core.game import load_game

    if cfg.envs * cfg.steps > MAX_SAMPLES:
        from ttr_lab.core.errors import ConfigError

        raise ConfigError(f"{source}: envs {cfg.envs} x steps {cfg.steps} records {cfg.envs * cfg.steps:,} decisions an "
                          f"iteration, held in memory at once (some 6 KB each); at most {MAX_SAMPLES:,}")
    if not hasattr(load_game(cfg.game, **cfg.options), "batch"):
        from ttr_lab.core.errors import ConfigError

        raise ConfigError(f"{source}: game: {cfg.game} has no compiled rules to batch; training needs them")
    from ttr_lab.training.games import training_for

    training_for(cfg.game).check(cfg, source)
    if cfg.method == "expert_iteration" and cfg.features.startswith("kept-") and cfg.search == "tree":
        from ttr_lab.core.errors import ConfigError

        raise ConfigError(f"{source}: features: {cfg.features} needs search: halving (the tree's self-play "
                          "games keep no plans for the network's inputs)")
    if cfg.search_value_mix > 0 and cfg.search == "halving":
        from ttr_lab.core.errors import ConfigError

        raise ConfigError(f"{source}: search_value_mix is for search: tree (the halving race's leaves are "
                          "play-outs; the network is its prior)")
    if cfg.search_value_mix > 0 and cfg.features != "none":
        from ttr_lab.core.errors import ConfigError

        raise ConfigError(f"{source}: search_value_mix needs features: none (the search's kernel reads the "
                          "observation tensor alone)")
    if cfg.value_target == "lead" and cfg.method != "expert_iteration":
        from ttr_lab.core.errors import ConfigError

        raise ConfigError(f"{source}: value_target: lead is for method: expert_iteration (imitation's outcomes "
                          "are the batched env's win shares)")
    if cfg.holdout_games and cfg.method != "expert_iteration":
        from ttr_lab.core.errors import ConfigError

        raise ConfigError(f"{source}: holdout_games is for method: expert_iteration (imitation's value is judged "
                          "by its games)")
    if cfg.prior is not None:
        from ttr_lab.core.errors import ConfigError

        if cfg.method != "expert_iteration" or cfg.search != "halving":
            raise ConfigError(f"{source}: prior is for method: expert_iteration with search: halving (the race's "
                              "prior; the tree takes none)")
        if cfg.features.startswith("kept-"):
            raise ConfigError(f"{source}: prior with features: {cfg.features}: the kept plan is kept by the "
                              "network's own seat, which a fixed prior replaces")
        if cfg.prior != "learned" and not Path(cfg.prior).is_file():
            raise ConfigError(f"{source}: prior: {cfg.prior} is not a weights file (or learned: the shipped one)")
        if cfg.prior != "learned":
            from ttr_lab.strategies.network import Network

            try:
                Network.load(cfg.prior)  # a file no move can come from is refused now, not mid-run
            except ConfigError as exc:
                raise ConfigError(f"{source}: prior: {exc}") from None
    return cfg
