"""A training iteration's samples: inputs, legal masks, market slots, policy targets, outcomes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


SAMPLE_ARRAYS = ("obs", "masks", "markets", "teacher", "outcomes")  # every sample's, in this order


@dataclass
class Samples:
    obs: np.ndarray  # (n, obs_dim) float32
    masks: np.ndarray  # (n, n_actions) bool
    markets: np.ndarray  # (n, slots) int64: the card kind in each market slot, -1 for none
    teacher: np.ndarray  # (n,) int64 action ids
    outcomes: np.ndarray  # (n,) float32: the learner's win share in that sample's game
    targets: np.ndarray | None = None  # (n, n_actions) float32 policy targets; None: one-hot on ``teacher``

    def dense_targets(self, idx: np.ndarray, n_actions: int) -> np.ndarray:
        if self.targets is not None:
            return self.targets[idx]
        out = np.zeros((len(idx), n_actions), dtype=np.float32)
        out[np.arange(len(idx)), self.teacher[idx]] = 1.0
        return out

    def arrays(self) -> dict[str, np.ndarray]:
        out = {k: getattr(self, k) for k in SAMPLE_ARRAYS}
        if self.targets is not None:
            out["targets"] = self.targets
        return out


def joined(parts: list[Samples]) -> Samples:
    """One set of the samples of ``parts`` in order (all with targets or none)."""
    if len(parts) == 1:
        return parts[0]
    targets = [p.targets for p in parts if p.targets is not None]
    return Samples(**{k: np.concatenate([getattr(p, k) for p in parts]) for k in SAMPLE_ARRAYS},
                   targets=np.concatenate(targets) if len(targets) == len(parts) else None)
