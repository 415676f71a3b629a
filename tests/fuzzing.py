"""The fuzzing campaign's targets and input generators: the config loader, the map loader, the
record loader and the action parser, each fed text a careless or hostile user could give it.

A target passes when it either accepts the input or refuses it with a ttr-lab error (a
``TTRLabError``: the one-line ``error: ...`` of the command line); anything else is a crash. A map
the loader accepts must also keep its word: every action's text, on that map, parses back to the
action (records are replayed from that text).

``tests/test_fuzz.py`` runs a few dozen inputs per target in the suite; the campaign runs many
more and counts inputs and crashes instead of stopping at the first::

    PYTHONPATH=. python tests/fuzzing.py 2000 out.json   # inputs per target; the summary as JSON
    PYTHONPATH=. python tests/fuzzing.py 2000 out.json "map loader"   # one target
"""

from __future__ import annotations

import atexit
import csv
import io
import itertools
import json
import random
import shutil
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any, Callable, Sequence

from hypothesis import strategies as st

from ttr_lab.core.errors import TTRLabError

_FOLDER = Path(tempfile.mkdtemp(prefix="ttr-fuzz-"))
atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)
_SERIAL = itertools.count()

# Characters that mean something to YAML, CSV, the action language or a terminal.
SPECIAL = "-#,:&*!|>'\"%@`{}[]()<=+?\\/ \t\n\r\x00\x1b\u2028é"
names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from(SPECIAL), max_size=14)
words = st.text("abcdefghijklmnopqrstuvwxyz" + SPECIAL, max_size=12)


# -- configs ---------------------------------------------------------------------------------

KEYS = ["name", "game", "map", "options", "players", "entrants", "design", "focus", "rotation", "games", "seed",
        "move_time_limit", "output", "backend", "workers", "records", "isolation", "params", "strategy"]
STRATEGIES = ["random", "greedy", "mcts", "ticket_planner", "nope", "x:y", "", "tests_support_strategy:Crashy"]
scalars = (st.none() | st.booleans() | st.integers(-10, 10**15) | st.floats(allow_nan=True, allow_infinity=True)
           | words | st.sampled_from(["usa", "legendary_asia", "round_robin", "one_vs_field", "serial", "all", ".inf"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | words, inner, max_size=4),
                      max_leaves=12)
entrant = st.fixed_dictionaries({"name": names | st.sampled_from(["a", "b", "c"]), "strategy": st.sampled_from(STRATEGIES)},
                                optional={"params": st.dictionaries(st.sampled_from(["steps", "ticket_bonus", "depth", "x"]), scalars, max_size=2)})
config_data = st.fixed_dictionaries(
    {"players": st.integers(-1, 6) | scalars, "entrants": st.lists(entrant, max_size=6) | values},
    optional={k: values for k in KEYS if k not in ("players", "entrants")},
)
GOOD_CONFIG = ("name: t\nplayers: 2\ngames: 4\nbackend: serial\nmove_time_limit: 2\n"
               "entrants: [{name: g, strategy: greedy, params: {ticket_bonus: 3.0}}, {name: r, strategy: random}]\n")


def _dump(data: Any) -> str:
    import yaml

    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def mutated(text: str, draw: Callable[..., Any]) -> str:
    """``text`` with a few characters inserted, deleted or replaced (a hand that slipped)."""
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "replace", "cut"]))
        piece = draw(st.text(st.sampled_from(SPECIAL + "abcxyz0123456789"), min_size=1, max_size=4))
        if how == "insert":
            text = text[:at] + piece + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + len(piece):]
        elif how == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        else:
            text = text[:at]
    return text


@st.composite
def config_texts(draw: Callable[..., Any]) -> str:
    kind = draw(st.sampled_from(["structured", "override", "mutated", "aliases"]))
    if kind == "structured":
        return _dump(draw(config_data))
    if kind == "override":  # a good config with one setting changed (often still good)
        import yaml

        data = yaml.safe_load(GOOD_CONFIG)
        key = draw(st.sampled_from(KEYS[:-2]))  # the settings of a tournament
        data[key] = draw(st.sampled_from([2, 3, 1.5, 1e400, "usa", "legendary_asia", "round_robin", "all", None, True, 0,
                                          -1, 10**9, 2**64, "x"]) | values)
        return _dump(data)
    if kind == "mutated":
        return mutated(GOOD_CONFIG, draw)
    depth, width = draw(st.integers(1, 12)), draw(st.integers(1, 12))  # an alias tree of width ** depth values
    rows = [f"a0: &a0 [{', '.join(['x'] * width)}]"]
    rows += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, depth)]
    key = draw(st.sampled_from(["entrants", "name", "options", "players"]))  # a setting that holds the tree
    base = "\n".join(line for line in GOOD_CONFIG.splitlines() if not line.startswith(f"{key}:"))
    return base + "\n" + "\n".join(rows) + f"\n{key}: *a{depth - 1}\n"


def config_target(text: str) -> None:
    from ttr_lab.tournament.config import load_config

    path = _FOLDER / f"cfg-{next(_SERIAL)}.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        load_config(path)
    finally:
        path.unlink()


# -- maps ------------------------------------------------------------------------------------

COLOURS = ["gray", "red", "blue", "green", "yellow", "black", "white", "orange", "pink", "purple", "", "1"]


city_names = st.text(st.sampled_from("ABCabc -<(=).'é"), min_size=1, max_size=8)


@st.composite
def map_files(draw: Callable[..., Any]) -> dict[str, str]:
    """A small map folder's files: cities with awkward names, tracks and tickets between them;
    often a map that loads, sometimes one edited by hand."""
    if draw(st.booleans()):  # the shape of a good map: distinct cities, tracks and tickets between them
        cities = draw(st.lists(city_names | st.sampled_from(["Winston-Salem", "x (y)", "a<b=c", "A-B", "B-C"]),
                               min_size=3, max_size=7, unique_by=lambda c: c.strip().lower()))
        pair = st.lists(st.integers(0, len(cities) - 1), min_size=2, max_size=2, unique=True).map(
            lambda ab: (cities[ab[0]], cities[ab[1]]))
        routes = [(a, b, length, colour, "0", "0") for (a, b), length, colour in draw(st.lists(
            st.tuples(pair, st.integers(1, 6), st.sampled_from(COLOURS[:10])), min_size=1, max_size=10))]
        tickets = [(a, b, points, "regular") for (a, b), points in draw(st.lists(
            st.tuples(pair, st.integers(1, 22)), min_size=6, max_size=12))]
    else:
        cities = draw(st.lists(names | st.sampled_from(["A", "B", "A-B", "B-C", "C", "Winston-Salem", "x (y)"]),
                               min_size=2, max_size=7))
        pick = st.integers(0, len(cities) - 1).map(lambda i: cities[i]) | names
        routes = draw(st.lists(st.tuples(pick, pick, st.integers(-1, 7).map(str) | words, st.sampled_from(COLOURS) | words,
                                         st.sampled_from(["0", "1", "", "x"]), st.sampled_from(["0", "1", ""])),
                               max_size=10))
        tickets = draw(st.lists(st.tuples(pick, pick, st.integers(-3, 30).map(str) | words,
                                          st.sampled_from(["regular", "long", "", "other"])), max_size=14))
    ruleset = draw(st.sampled_from(["", "", "", "initial_tickets = 2\n", "initial_tickets = 100\n", "ticket_draw = 40\n",
                                    "initial_long_tickets = 1\n", "route_scores = {1 = 1, 2 = 2}\n",
                                    "initial_keep_min = 0\n", "market_size = 0\n", "bogus = 1\n"]))
    files = {
        "map.toml": f'name = "fuzz-{next(_SERIAL)}"\nmin_players = 2\nmax_players = 3\n[ruleset]\n{ruleset}',
        "cities.csv": _csv(["city"], [[c] for c in cities]),
        "routes.csv": _csv(["city_a", "city_b", "length", "color", "ferry_locomotives", "mountain_spaces"], routes),
        "tickets.csv": _csv(["city_a", "city_b", "points", "deck"], tickets),
    }
    if draw(st.integers(0, 3)) == 0:
        name = draw(st.sampled_from(sorted(files)[1:]))  # a CSV file, edited by hand
        files[name] = mutated(files[name], draw)
    return files


def _csv(header: list[str], rows: list[Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def map_target(files: dict[str, str]) -> None:
    from ttr_lab.core.game import load_game
    from ttr_lab.games.ticket_to_ride.actions import all_actions, parse_action
    from ttr_lab.games.ticket_to_ride.board import load_board

    folder = _FOLDER / f"map-{next(_SERIAL)}"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    board = load_board(str(folder))
    for action in all_actions(board, board.ruleset):  # what a record holds, read back
        back = parse_action(str(action), board)
        if back != action:
            raise AssertionError(f"the map was accepted, but {str(action)!r} parses back as {str(back)!r}")
    game = load_game("ticket_to_ride", map=str(folder))
    state = game.new_game(2, 1)
    rng = random.Random(1)
    for _ in range(40):  # a few moves of a game on it, each as its text
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply(game.parse_action(state.action_text(action)))


# -- records ---------------------------------------------------------------------------------

_RECORD: list[dict[str, Any]] = []


def base_record() -> dict[str, Any]:
    if not _RECORD:
        from ttr_lab.strategies.random import Random
        from ttr_lab.core.play import play_game

        _RECORD.append(play_game("ticket_to_ride", [Random(), Random()], 3, map="usa").to_dict())
    return json.loads(json.dumps(_RECORD[0]))


json_values = st.recursive(st.none() | st.booleans() | st.integers(-5, 2**70) | st.floats() | words
                           | st.sampled_from([1e400, -1e400, 2**64, -1, 0, 1.5, "usa", "ticket_to_ride", "trans_orient"]),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(words, inner, max_size=3), max_leaves=8)


@st.composite
def record_texts(draw: Callable[..., Any]) -> str:
    data = base_record()
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(sorted(data) + ["format", "map", "ruleset"]))
        how = draw(st.sampled_from(["value", "delete", "action", "seat", "truncate"]))
        if how == "value":
            data[key] = draw(json_values)
        elif how == "delete":
            data.pop(key, None)
        elif how in ("action", "seat", "truncate") and isinstance(data.get("actions"), list) and data["actions"]:
            i = draw(st.integers(0, len(data["actions"]) - 1))
            if not (isinstance(data["actions"][i], list) and len(data["actions"][i]) == 2):
                continue  # an entry already replaced by another value
            if how == "action":
                data["actions"][i] = [data["actions"][i][0], mutated(str(data["actions"][i][1]), draw)]
            elif how == "seat":
                data["actions"][i] = [draw(st.integers(-1, 3) | json_values), data["actions"][i][1]]
            else:
                data["actions"] = data["actions"][:i]
    text = json.dumps(data)
    return mutated(text, draw) if draw(st.integers(0, 3)) == 0 else text


def record_target(text: str) -> None:
    from ttr_lab.core.record import GameRecord

    record = GameRecord.from_json(text)
    record.state_at()


# -- the action parser ---------------------------------------------------------------------

ACTIONS = ["draw blind", "draw market 2", "tickets", "keep 0,2", "pass", "claim Denver-Kansas City black with 4 black",
           "claim Atlanta-Raleigh gray#2 with 2 loco", "claim #57 with 1 red + 1 loco", "claim Seattle-Portland with 1 loco"]


@st.composite
def action_texts(draw: Callable[..., Any]) -> str:
    from ttr_lab.games.ticket_to_ride.actions import all_actions
    from ttr_lab.games.ticket_to_ride.board import load_board

    board = load_board("usa")
    kind = draw(st.sampled_from(["exact", "respelt", "mutated", "random"]))
    if kind in ("exact", "respelt", "mutated"):
        every = all_actions(board, board.ruleset)
        text = str(every[draw(st.integers(0, len(every) - 1))]) if draw(st.booleans()) else draw(st.sampled_from(ACTIONS))
        if kind == "respelt":  # as a person types it: other case, other spacing
            text = draw(st.sampled_from([str.upper, str.lower, str.title]))(text).replace(" ", draw(st.sampled_from([" ", "  ", "\t"])))
        return mutated(text, draw) if kind == "mutated" else text
    return draw(st.sampled_from(["", "claim ", "keep ", "draw market "])) + draw(names)


def action_target(text: str) -> None:
    from ttr_lab.games.ticket_to_ride.actions import parse_action
    from ttr_lab.games.ticket_to_ride.board import load_board

    board = load_board("usa")
    action = parse_action(text, board)
    assert parse_action(str(action), board) == action, text


TARGETS = {"config loader": (config_texts(), config_target), "map loader": (map_files(), map_target),
           "record loader": (record_texts(), record_target), "action parser": (action_texts(), action_target)}


def check(target: Callable[[Any], None], value: Any) -> str:
    """``"accepted"``, ``"refused"`` (a ttr-lab error: one line at the command line), or the
    crash: the exception's type, the line of ttr-lab code it came from and its text."""
    try:
        target(value)
    except TTRLabError:
        return "refused"
    except Exception as exc:  # noqa: BLE001 - a crash is what the campaign looks for
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if "ttr_lab" in f.filename] or \
            traceback.extract_tb(exc.__traceback__)
        where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
        return f"{type(exc).__name__} at {where}: {str(exc)[:120]}"
    return "accepted"


def campaign(examples: int, labels: Sequence[str] = ()) -> dict[str, Any]:
    """Every target (or those of ``labels``) on ``examples`` generated inputs: how many were
    tried, accepted, refused, and crashed (with each distinct crash and an input that gives it)."""
    from hypothesis import HealthCheck, given, settings

    summary: dict[str, Any] = {}
    for label, (strategy, target) in TARGETS.items():
        if labels and label not in labels:
            continue
        counts = {"inputs": 0, "accepted": 0, "refused": 0, "crashes": 0}
        crashes: dict[str, str] = {}

        @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(strategy)
        def run(value: Any) -> None:
            counts["inputs"] += 1
            verdict = check(target, value)
            if verdict in ("accepted", "refused"):
                counts[verdict] += 1
            else:  # counted, not raised: the campaign goes on past a crash
                counts["crashes"] += 1
                crashes.setdefault(verdict, repr(value)[:300])

        run()
        summary[label] = {**counts, "distinct crashes": crashes}
    return summary


if __name__ == "__main__":
    result = json.dumps(campaign(int(sys.argv[1]) if len(sys.argv) > 1 else 500, sys.argv[3:]), indent=1)
    if len(sys.argv) > 2:
        Path(sys.argv[2]).write_text(result + "\n")
    print(result)
