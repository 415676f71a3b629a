"""Hostile strategies for the tests of the boundaries between the engine and a strategy's
process (tests/tournament/test_boundaries.py), loaded by import path."""

import os
import sys
import time

from ttr_lab.strategies.random import Random


class HalfSender(Random):
    """Writes the length of a 1,000-byte answer and two bytes of it onto its connection to the
    engine, then sleeps: the engine must not wait for the rest past the move's deadline."""

    name = "half_sender"

    def __init__(self, *, seconds: float = 600.0) -> None:
        self.seconds = seconds

    def act(self, observation, legal_actions, rng):
        import struct

        os.write(int(sys.argv[1]), struct.pack("!i", 1000) + b'["')  # multiprocessing's framing
        time.sleep(self.seconds)
        return super().act(observation, legal_actions, rng)


class SlowBuilder(Random):
    """Sleeps in its constructor: every time, or (with ``marker``, a file its process can write)
    from its second construction on, i.e. when built for a game after the config's check."""

    name = "slow_builder"

    def __init__(self, *, seconds: float = 600.0, marker: str = "") -> None:
        if marker and not os.path.exists(marker):
            open(marker, "w").close()
            return
        time.sleep(seconds)


class Litterer(Random):
    """Leaves a file in its temporary folder and one in /dev/shm, and refuses to play without a
    limit on the size of the files it may write."""

    name = "litterer"

    def __init__(self, *, token: str = "litter") -> None:
        self.token = token

    def act(self, observation, legal_actions, rng):
        import resource
        import tempfile

        if resource.getrlimit(resource.RLIMIT_FSIZE)[0] == resource.RLIM_INFINITY:
            raise RuntimeError("no limit on the size of a file")
        for folder in (tempfile.gettempdir(), "/dev/shm"):
            with open(os.path.join(folder, self.token), "w") as f:
                f.write("left behind")
        return super().act(observation, legal_actions, rng)


class HangsWhenBuiltForAGame(Random):
    """Returns from its first construction (the config's check) and never from a later one (built
    for a game): each construction appends a line to ``log``, a file any process can write, so a
    test counts how often it was built without timing anything."""

    name = "hangs_when_built_for_a_game"

    def __init__(self, *, log: str = "") -> None:
        with open(log, "a") as f:
            f.write("built\n")
        with open(log) as f:
            if len(f.read().splitlines()) > 1:
                time.sleep(600)
