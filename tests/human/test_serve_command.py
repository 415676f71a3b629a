"""``ttr-lab serve``'s command line: a port that is no port and a time that is not finite or sane
are refused in one line before it listens; an address other machines reach is warned of, and the
address it prints is one a browser opens."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ttr_lab.cli import app
from ttr_lab.cli.serve import announcement, exposure
from ttr_lab.human.guard import Guard


@pytest.mark.parametrize("args, words", [
    (["--port", "99999"], "--port 99999: a port is a number from 0 to 65535"),
    (["--port", "-1"], "--port -1: a port is a number from 0 to 65535"),
    (["--think", "inf"], "--think is above 0 and at most 600 seconds, not inf"),
    (["--think", "nan"], "--think is above 0 and at most 600 seconds, not nan"),
    (["--think", "1e9"], "--think is above 0 and at most 600 seconds"),
    (["--pace", "inf"], "--pace is 0 or more and at most 60 seconds, not inf"),
    (["--review-budget", "2"], "--review-budget is 0 (no review) or from 4 to 20000 play-outs a decision, not 2"),
])
def test_a_bad_option_is_one_line(args, words):
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


def test_every_address_is_warned_of_and_the_printed_address_opens():
    assert exposure("127.0.0.1") is None and exposure("localhost") is None
    assert "every machine on the network can open this server" in exposure("0.0.0.0")
    line = announcement("0.0.0.0", 8123)
    assert "open http://127.0.0.1:8123/ in a browser" in line and "0.0.0.0" not in line
    assert "open http://[::1]:8123/" in announcement("::", 8123)
    assert announcement("127.0.0.1", 8123) == "ttr-lab serve: open http://127.0.0.1:8123/ in a browser (Ctrl-C stops)"


def test_the_host_names_a_server_answers_to():
    guard = Guard(lambda *a: None, "t", ["box.lan"])  # type: ignore[arg-type,return-value]
    hosts = guard.hosts({"server": ("192.168.0.5", 8000)})
    assert {"127.0.0.1:8000", "localhost:8000", "[::1]:8000", "box.lan:8000", "192.168.0.5:8000"} == hosts
    assert guard.hosts({"server": ("::1", 80)}) >= {"localhost", "[::1]", "[::1]:80"}
