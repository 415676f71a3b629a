"""The errors ttr-lab raises. Each message names what is wrong, in one line."""

from __future__ import annotations


class TTRLabError(Exception):
    """Base class of every ttr-lab error."""


class IllegalActionError(TTRLabError, ValueError):
    """An action that the rules do not allow in this state (or text that is not an action)."""


class BoardDataError(TTRLabError, ValueError):
    """A map's data files are missing, malformed or inconsistent."""


class ConfigError(TTRLabError, ValueError):
    """A configuration (ruleset override, CLI option, strategy name) is invalid."""


class StrategyError(TTRLabError, RuntimeError):
    """A strategy raised, or returned something that is not a legal action."""

    def __init__(self, message: str, seat: int | None = None, strategy: str | None = None):
        super().__init__(message)
        self.seat = seat
        self.strategy = strategy


class GameInterrupted(BaseException):
    """The game loop was stopped by something that is no strategy's doing (its process was
    suspended while a strategy thought, say): the loop lets it through, never as a forfeit, and
    the caller plays the game again. A BaseException, so that no ``except Exception`` takes it.
    A strategy that raises it itself forfeits (the tournament's guard sees to that)."""
