"""High card: a toy third game that lives in the tests only, to show that adding a game touches
nothing outside its own package (the tests' conftest registers it with ``register_game``)."""

from toy_game.game import GAME, HighCard

__all__ = ["GAME", "HighCard"]
