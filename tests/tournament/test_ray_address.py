"""ttr-lab's own local Ray is never a cluster it was not given: it starts with ``address="local"``
(Ray then reads neither ``RAY_ADDRESS`` nor the last ``ray start``'s address file), and the
processes it starts do not inherit a ``RAY_ADDRESS`` naming someone else's cluster. A fake
``ray`` module records what the backend asks of it: no Ray is started."""

from __future__ import annotations

import os
import sys
import types

from ttr_lab.tournament import backends, ray_watchdog


def _fake_ray(seen: dict) -> types.ModuleType:
    ray = types.ModuleType("ray")

    def init(address=None, **options):
        seen["address"] = address
        seen["RAY_ADDRESS at start"] = os.environ.get("RAY_ADDRESS")
        return types.SimpleNamespace(address_info={"session_dir": "/nonexistent/session_0_0"})

    class _Remote:
        def __init__(self, fn):
            self.fn = fn

        def remote(self, *args):
            return self.fn(*args)

    ray.init = init
    ray.is_initialized = lambda: False
    ray.shutdown = lambda: None
    ray.remote = lambda **_: _Remote
    ray.get = lambda refs: refs
    return ray


def test_the_local_ray_ignores_and_hides_an_inherited_ray_address(monkeypatch):
    seen: dict = {}
    monkeypatch.setitem(sys.modules, "ray", _fake_ray(seen))
    monkeypatch.setattr(ray_watchdog, "start", lambda session: None)
    monkeypatch.setattr(backends, "_warm_up", lambda: os.getpid())
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:6379")  # another user's cluster
    backend = backends.RayBackend(workers=1)
    backend.start()
    assert seen["address"] == "local"
    assert seen["RAY_ADDRESS at start"] is None  # its processes do not inherit it
    assert os.environ["RAY_ADDRESS"] == "127.0.0.1:6379"  # the driver's own environment is put back
