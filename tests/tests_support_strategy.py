"""A user strategy defined outside the package, loaded by import path in the tests."""

from ttr_lab.strategies.random import Random


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
            hands = state.hands  # a copy: written back whole, through the state's own setter
            hands[observation.player * kinds + kinds - 1] += 10  # the last kind: locomotives
            state.hands = hands
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
        elif self.what == "numpy":  # a module every strategy and the report share
            import numpy as np

            np.sum, np.argmax = (lambda *a, **k: 0), (lambda *a, **k: 0)
        elif self.what in ("claim", "label"):  # an action it is handed, and does not choose
            claims = [a for a in legal_actions if type(a).__name__ == "Claim"]
            if len(claims) > 1:
                object.__setattr__(claims[-1], *(("track", -1) if self.what == "claim" else ("label", "Nowhere")))
                legal_actions = [a for a in legal_actions if a is not claims[-1]]
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


class Idle(Random):
    """Waits ``seconds`` of wall-clock time at every decision without using the CPU."""

    name = "idle"

    def __init__(self, *, seconds: float = 0.02) -> None:
        self.seconds = seconds

    def act(self, observation, legal_actions, rng):
        import time

        time.sleep(self.seconds)
        return super().act(observation, legal_actions, rng)


class Busy(Random):
    """Uses ``seconds`` of CPU time (its process's) at every decision."""

    name = "busy"

    def __init__(self, *, seconds: float = 0.01) -> None:
        self.seconds = seconds

    def act(self, observation, legal_actions, rng):
        import time

        until = time.process_time() + self.seconds
        while time.process_time() < until:
            pass
        return super().act(observation, legal_actions, rng)


# ---- strategies that try the isolation's boundaries ------------------------------------------


class _Runs:
    """Unpickled, runs code: writes the id of the process that unpickled it into ``marker``."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return exec, (f"import os; open({self.marker!r}, 'w').write(str(os.getpid()))",)


class Smuggler(Random):
    """Answers with an object whose unpickling runs code, rather than a legal action."""

    name = "smuggler"

    def __init__(self, *, marker: str = "") -> None:
        self.marker = marker

    def act(self, observation, legal_actions, rng):
        return _Runs(self.marker)


class Forger(Random):
    """Writes a pickle of its own onto its process's connection to the engine, as if it were the
    answer, then plays on: the engine must read it as data, not run it."""

    name = "forger"

    def __init__(self, *, marker: str = "") -> None:
        self.marker = marker

    def act(self, observation, legal_actions, rng):
        import os
        import pickle
        import struct
        import sys

        data = pickle.dumps(_Runs(self.marker))
        os.write(int(sys.argv[1]), struct.pack("!i", len(data)) + data)  # multiprocessing's framing
        return super().act(observation, legal_actions, rng)


class Prober(Random):
    """Tries to signal every other strategy process it sees, and the engine, and to open the
    engine's memory; forfeits naming what it reached (signal 0: it checks, it does not harm)."""

    name = "prober"

    def act(self, observation, legal_actions, rng):
        import os
        from pathlib import Path

        reached = []
        others = []
        for entry in Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and int(entry.name) != os.getpid() and \
                        b"ttr_lab.core.isolation" in (entry / "cmdline").read_bytes():
                    others.append(int(entry.name))
            except OSError:
                continue
        for pid in [*others, os.getppid()]:
            try:
                os.kill(pid, 0)
                reached.append(f"signal {pid}")
            except OSError:
                pass
        try:
            open(f"/proc/{os.getppid()}/mem", "rb").close()
            reached.append("the engine's memory")
        except OSError:
            pass
        if reached:
            raise RuntimeError(f"reached {', '.join(reached)}")
        return super().act(observation, legal_actions, rng)


class Spawner(Random):
    """Starts ``sleep <token>`` in a session of its own at its first decision: it must not outlive its seat."""

    name = "spawner"

    def __init__(self, *, token: str = "600") -> None:
        self.token = token
        self.started = False

    def act(self, observation, legal_actions, rng):
        import subprocess

        if not self.started:
            self.started = True
            subprocess.Popen(["sleep", self.token], start_new_session=True, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        return super().act(observation, legal_actions, rng)


class Careless(Random):
    """Changes its process at its first decision: ``chdir``, closing standard output (``close``,
    or ``os_close`` its file descriptor), or leaving a thread that never ends (``thread``)."""

    name = "careless"

    def __init__(self, *, how: str = "chdir", to: str = "/") -> None:
        self.how, self.to, self.done = how, to, False

    def act(self, observation, legal_actions, rng):
        import os
        import sys
        import threading
        import time

        if not self.done:
            self.done = True
            if self.how == "chdir":
                os.chdir(self.to)
            elif self.how == "close":
                sys.stdout.close()
            elif self.how == "os_close":
                sys.stdout.flush()
                os.close(1)
            elif self.how == "thread":
                threading.Thread(target=lambda: [time.sleep(1) for _ in iter(int, 1)], name="endless").start()
        return super().act(observation, legal_actions, rng)
