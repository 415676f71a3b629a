"""A user strategy defined outside the package, loaded by import path in the tests."""

from strategies.random import Random


class Cautious(Random):
    """Draws while it can, for ``patience`` turns, then plays randomly."""

    name = "cautious"

    def __init__(self, *, patience: int = 3) -> None:
        self.patience = patience

    def act(self, observation, legal_actions, rng):
        if observation.turns < self.patience * observation.num_players:
            draws = [a for a in legal_actions if str(a).startswith("draw")]
            if draws:
                return draws[rng.randrange(len(draws))]
        return super().act(observation, legal_actions, rng)
