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


class Crashy(Random):
    """Raises on its third decision of every game: it must forfeit, not stop the tournament."""

    name = "crashy"

    def __init__(self) -> None:
        self.decisions = 0

    def act(self, observation, legal_actions, rng):
        self.decisions += 1
        if self.decisions == 3:
            raise RuntimeError("out of ideas")
        return super().act(observation, legal_actions, rng)


class SlowStart(Random):
    """Sets up slowly (as a policy loading its model would), then plays at once."""

    name = "slow_start"

    def __init__(self, *, seconds: float = 0.3) -> None:
        self.seconds = seconds

    def on_game_start(self, observation):
        import time

        time.sleep(self.seconds)


class Sleepy(Random):
    """Thinks too long once the first turns are over."""

    name = "sleepy"

    def __init__(self, *, seconds: float = 0.3) -> None:
        self.seconds = seconds

    def act(self, observation, legal_actions, rng):
        if observation.turns >= 4:
            import time

            time.sleep(self.seconds)
        return super().act(observation, legal_actions, rng)


class KillsItsWorker(Random):
    """Kills the process it runs in, once per marker file: a worker dying mid-task."""

    name = "killer"

    def __init__(self, *, marker: str = "") -> None:
        self.marker = marker

    def act(self, observation, legal_actions, rng):
        import os

        if self.marker and not os.path.exists(self.marker):
            open(self.marker, "w").close()
            os._exit(1)
        return super().act(observation, legal_actions, rng)


class Fragile(Random):
    """Crashes at its first decision when ``nerve`` is above 0.8: a parameter setting that breaks."""

    name = "fragile"

    def __init__(self, *, nerve: float = 0.5) -> None:
        self.nerve = nerve

    def act(self, observation, legal_actions, rng):
        if self.nerve > 0.8:
            raise RuntimeError(f"nerve {self.nerve} is too much")
        return super().act(observation, legal_actions, rng)


class Cheat(Random):
    """Looks for the live game state on the call stack and in the heap; when it finds one, gives
    itself locomotives. ``marker``: a file it creates when it found a state."""

    name = "cheat"

    def __init__(self, *, marker: str = "") -> None:
        self.marker = marker

    @staticmethod
    def _find_state():
        import gc
        import sys

        frame = sys._getframe(1)
        while frame is not None:
            for value in list(frame.f_locals.values()):
                if hasattr(value, "hands") and hasattr(value, "legal_actions"):
                    return value
            frame = frame.f_back
        return next((o for o in gc.get_objects() if type(o).__name__ == "GameState"), None)

    def act(self, observation, legal_actions, rng):
        state = self._find_state()
        if state is not None:
            if self.marker:
                open(self.marker, "a").close()
            kinds = len(observation.hand)
            state.hands[observation.player * kinds + kinds - 1] += 10  # the last kind: locomotives
        return super().act(observation, legal_actions, rng)


class Exits(Random):
    """Ends its process on its second decision: with ``sys.exit`` or ``os._exit``."""

    name = "exits"

    def __init__(self, *, how: str = "sys", code: int = 3) -> None:
        self.how, self.code, self.decisions = how, code, 0

    def act(self, observation, legal_actions, rng):
        import os
        import sys

        self.decisions += 1
        if self.decisions == 2:
            if self.how == "sys":
                sys.exit(self.code)
            if self.how == "interrupt":
                raise KeyboardInterrupt
            os._exit(self.code)
        return super().act(observation, legal_actions, rng)


class Stubborn(Random):
    """Sleeps through the move time limit, swallowing whatever interrupts it."""

    name = "stubborn"

    def __init__(self, *, seconds: float = 30.0) -> None:
        self.seconds = seconds

    def act(self, observation, legal_actions, rng):
        import time

        end = time.monotonic() + self.seconds
        while time.monotonic() < end:
            try:
                time.sleep(0.05)
            except BaseException:  # noqa: BLE001 - the point: it swallows the alarm
                pass
        return super().act(observation, legal_actions, rng)


class Tamper(Random):
    """Changes the ruleset (or a track of the board) it is handed, on its first decision, with
    ``object.__setattr__``: frozen dataclasses do not stop that."""

    name = "tamper"

    def __init__(self, *, what: str = "ruleset") -> None:
        self.what = what

    def act(self, observation, legal_actions, rng):
        if self.what == "ruleset":
            object.__setattr__(observation.ruleset, "route_scores", (0, 50, 50, 50, 50, 50, 50))
        elif self.what == "track":
            object.__setattr__(observation.board.tracks[0], "length", 1)
        return super().act(observation, legal_actions, rng)


class ExitsInEvent(Random):
    """Ends its process (``os._exit``) in ``on_event`` when it sits at ``seat``, on hearing its
    own first action: the next call to its process is another seat's decision."""

    name = "exits_in_event"

    def __init__(self, *, seat: int = 1, code: int = 4) -> None:
        self.seat, self.code, self.me = seat, code, -1

    def on_game_start(self, observation):
        self.me = observation.player

    def on_event(self, player, action, card):
        import os

        if self.me == self.seat and player == self.me:
            os._exit(self.code)
