"""The game loop, strategies' errors, records, and the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from games import per_variant
from ttr_lab.strategies.random import Random
from ttr_lab.core.game import available_games
from ttr_lab.core.registry import build_strategies, resolve
from ttr_lab import ConfigError, GameRecord, StrategyError, play_game
from ttr_lab.games.ticket_to_ride import TicketToRide, load_board
from ttr_lab.cli import app

BOARD = load_board("usa")
ROOT = Path(__file__).resolve().parent.parent


class Crashes:
    name = "crashes"

    def act(self, observation, legal_actions, rng):
        raise ZeroDivisionError("boom")


class Cheats:
    def act(self, observation, legal_actions, rng):
        return "draw blind please"


class Watcher(Random):
    """Records what its hooks see."""

    def __init__(self):
        self.events, self.started, self.ended = [], None, None

    def on_game_start(self, observation):
        self.started = observation.player

    def on_event(self, player, action, card):
        self.events.append((player, str(action), card))

    def on_game_end(self, observation, result):
        self.ended = result


def test_record_holds_seed_seats_actions_result():
    record = play_game(TicketToRide(BOARD), [Random(), Random(), Random()], seed=5)
    assert record.seed == 5 and record.num_players == 3 and record.strategies == ("random",) * 3
    assert record.actions[0] == (0, record.actions[0][1]) and record.actions[0][1].startswith("keep")
    data = json.loads(record.to_json())
    assert data["result"]["turns"] == record.result["turns"] > 0
    assert GameRecord.from_json(record.to_json()) == record


def test_a_crashing_strategy_is_a_one_line_strategy_error():
    with pytest.raises(StrategyError) as info:
        play_game(TicketToRide(BOARD), [Random(), Crashes()], seed=1)
    message = str(info.value)
    assert "\n" not in message
    assert "seat 1 (crashes)" in message and "ZeroDivisionError" in message and "boom" in message
    assert info.value.seat == 1


def test_an_illegal_choice_is_named():
    with pytest.raises(StrategyError, match=r"seat 0 \(cheats\) chose an illegal action.*not an action"):
        play_game(TicketToRide(BOARD), [Cheats(), Random()], seed=1)


def test_hooks_see_public_events_only():
    watcher = Watcher()
    record = play_game(TicketToRide(BOARD), [watcher, Random()], seed=3)
    assert watcher.started == 0 and watcher.ended is not None
    assert len(watcher.events) == len(record.actions)
    for (seat, text), (player, public, card) in zip(record.actions, watcher.events):
        assert seat == player
        if text.startswith("keep"):
            assert public == f"kept {len(text.split()[1].split(','))}"  # which tickets stays hidden
        else:
            assert public == text
        assert (card is not None) == text.startswith("draw market")


def test_strategy_classes_are_built_fresh():
    a = play_game(TicketToRide(BOARD), [Random, Random], seed=9)
    b = play_game(TicketToRide(BOARD), [Random(), Random()], seed=9)
    assert a.to_json() == b.to_json()


def test_registry_names_and_import_paths():
    assert resolve("random") is Random
    assert resolve("ttr_lab.strategies.random:Random") is Random
    with pytest.raises(ConfigError, match="unknown strategy 'nope'; registered: .*greedy.*random"):
        resolve("nope")
    with pytest.raises(ConfigError, match="cannot import"):
        resolve("no_such_module:Thing")
    with pytest.raises(ConfigError, match="3 strategies given for 2 players"):
        build_strategies(["random,random,random"], 2)


def test_cli_play_prints_summary_and_saves_record(tmp_path):
    out = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "--players", "4", "--strategy", "random", "--seed", "7", "--record", str(out)])
    assert result.exit_code == 0, result.output
    assert "seed 7" in result.output and "total" in result.output and "longest" in result.output
    record = GameRecord.load(out)
    assert record.to_json() == play_game(TicketToRide(BOARD), [Random()] * 4, seed=7).to_json()


def test_cli_errors_are_one_line():
    result = CliRunner().invoke(app, ["play", "--players", "9"])
    assert result.exit_code == 2
    assert "error: the usa map is for 2-5 players, not 9" in result.output
    result = CliRunner().invoke(app, ["play", "--strategy", "wizard"])
    assert result.exit_code == 2 and "unknown strategy 'wizard'" in result.output


@pytest.mark.parametrize("args, message", [
    (["play", "--game", "chess"], "error: unknown game 'chess'; registered games: " + ", ".join(available_games())),
    (["play", "--game", "trans_orient", "--map", "usa"], "error: game 'trans_orient' takes the options deck, ruleset, not map"),
    (["play", "--option", "deck"], "error: --option takes key=value, not 'deck'"),
    (["play", "--game", "trans_orient", "-o", "deck=nowhere"], "error: "),
    (["play", "--game", "trans_orient", "-p", "5"], "error: "),
])
def test_cli_play_refuses_a_bad_game_or_option_in_one_line(args, message):
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.output.startswith(message) and result.output.count("\n") == 1, result.output


def test_cli_plays_and_replays_any_registered_game(tmp_path):
    out = tmp_path / "toe.json"
    result = CliRunner().invoke(app, ["play", "--game", "trans_orient", "-p", "3", "--seed", "4", "--record", str(out)])
    assert result.exit_code == 0, result.output
    record = GameRecord.load(out)
    assert record.game == "trans_orient" and record.num_players == 3
    winner = min(range(3), key=lambda s: (record.outcome().players[s].rank, s))
    assert f"{record.outcome().players[winner].score}" in result.output and "Trans-Orient Express" in result.output
    result = CliRunner().invoke(app, ["replay", str(out), "--action", "12"])
    assert result.exit_code == 0 and "after 12 actions" in result.output, result.output
    state, index = record.state_at(action=12)
    assert index == 12 and f"seat {state.current_player} to play" in result.output
    result = CliRunner().invoke(app, ["replay", str(out)])
    assert result.exit_code == 0 and "game over" in result.output
    result = CliRunner().invoke(app, ["replay", str(out), "--action", "-1"])
    assert result.exit_code == 2 and "0 or more" in result.output


def test_cli_play_shows_the_bonus_each_map_awards():
    asia = CliRunner().invoke(app, ["play", "--map", "legendary_asia", "-p", "3", "--seed", "2"])
    usa = CliRunner().invoke(app, ["play", "-p", "3", "--seed", "2"])
    assert asia.exit_code == usa.exit_code == 0
    assert "explorer" in asia.output and "longest" not in asia.output
    assert "longest" in usa.output and "explorer" not in usa.output


def test_readme_starts_with_the_two_commands_and_ci_runs_the_second():
    lines = [l for l in (ROOT / "README.md").read_text().splitlines() if l.strip()]
    assert lines[0].startswith("#") and lines[1] == "```sh"
    run_command, test_command = lines[2], lines[3]
    assert "ttr-lab" in run_command and "pytest" in test_command
    ci = [l for l in (ROOT / ".ci/run").read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert ci[-1] == test_command


def test_engine_benchmark_runs():
    # A process of its own: the benchmark pins itself to one core.
    proc = subprocess.run(
        [sys.executable, "-m", "ttr_lab", "bench", "engine", "--seconds", "0.05"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "games/s" in proc.stdout and "clone() per s" in proc.stdout


def test_cli_lists_strategies_with_parameters():
    result = CliRunner().invoke(app, ["strategies"])
    assert result.exit_code == 0
    assert "ticket_planner" in result.output and "plan_budget: PositiveFloat = 0.8" in result.output
    # Each description is a whole first sentence (a docstring's first line alone cut some mid-sentence).
    described = [line[21:] for line in result.output.splitlines() if line[:1].isalpha() and not line.endswith(":")]
    assert described and all(line.endswith((".", "!", "?")) for line in described), described
    assert "determinized UCT over every move the game offers, grown in compiled code, so that more time keeps " \
           "buying a better move." in result.output


def test_cli_maps_lists_each_games_variants_and_copies_one(tmp_path):
    from ttr_lab.core.game import available_games, load_game

    result = CliRunner().invoke(app, ["maps"])
    assert result.exit_code == 0, result.output
    for name in available_games():
        game = load_game(name)
        if not hasattr(game, "data_folders"):  # a game whose variants are options only (the tests' toy game)
            assert f"{name} ({game.title}): no data folders" in result.output
            continue
        option, folders, _ = game.data_folders()  # asked of the game: the command names no game
        assert f"{name} ({game.title}), variants by {option}:" in result.output
        for variant, folder in folders:
            assert Path(folder).is_dir() and f"  {variant:16s} {folder}" in result.output
    assert "ttr_lab/games/ticket_to_ride/maps/usa" in result.output
    copied = CliRunner().invoke(app, ["maps", "--copy", "usa", str(tmp_path / "mine")])
    assert copied.exit_code == 0, copied.output
    assert f"-o map={tmp_path / 'mine'}" in copied.output
    assert TicketToRide(str(tmp_path / "mine")).board.cities == BOARD.cities  # the copy loads as a map folder
    for args, message in ((["--copy", "usa", str(tmp_path / "mine")], "already exists"),
                          (["--copy", "atlantis", str(tmp_path / "x")], "no shipped variant 'atlantis'"),
                          (["--copy", "usa", str(tmp_path / "no" / "x")], "does not exist")):
        failed = CliRunner().invoke(app, ["maps", *args])
        assert failed.exit_code == 2 and message in failed.output and len(failed.output.strip().splitlines()) == 1


# ---- an action that lies about itself ---------------------------------------------------------

def _lies(action):
    """Copies of a legal ``action`` equal to it by ``==`` that say something else: each text field
    (one that takes no part in ``==``) changed, and a subclass whose ``str`` is another action's."""
    import dataclasses

    out = [dataclasses.replace(action, **{f.name: getattr(action, f.name) + " with 1 green"})
           for f in dataclasses.fields(action) if not f.compare and isinstance(getattr(action, f.name), str)]
    liar = type("Liar", (type(action),), {"__str__": lambda self: "pass", "__eq__": lambda self, other: True,
                                          "__hash__": type(action).__hash__, "__slots__": ()})
    out.append(liar(*(getattr(action, f.name) for f in dataclasses.fields(action))))
    return out


@per_variant
def test_an_action_that_lies_about_itself_is_refused_and_every_record_replays(variant):
    from ttr_lab.core.errors import IllegalActionError
    from ttr_lab.core.testing import RandomPlayer

    class Forger(RandomPlayer):
        """Plays at random, and now and then sends a lying copy of its choice."""
        name = "forger"

        def act(self, observation, legal, rng):
            action = super().act(observation, legal, rng)
            lies = _lies(action) if rng.random() < 0.1 else []
            return lies[rng.randrange(len(lies))] if lies else action

    game, refused, played = variant.game, 0, 0
    state = game.new_game(game.min_players, 3)
    while not state.is_terminal():  # each lie of each legal action is refused, the state untouched
        before = json.dumps(state.snapshot(), sort_keys=True)
        for action in state.legal_actions():
            for lie in _lies(action):
                with pytest.raises(IllegalActionError):
                    state.apply(lie)
                assert json.dumps(state.snapshot(), sort_keys=True) == before
        state.apply(random.Random(len(before)).choice(state.legal_actions()))
    for seed in range(6):
        try:
            record = play_game(game, [Forger, RandomPlayer], seed)
        except StrategyError as exc:
            assert "seat 0 (forger) chose an illegal action" in str(exc) and "not the game's" in str(exc)
            refused += 1
            continue
        played += 1
        GameRecord.from_json(record.to_json()).replay()  # replays to the stored result, or raises
    assert refused > 0


@pytest.mark.parametrize("game", ["ticket_to_ride", "trans_orient"])
def test_replay_of_a_record_cut_short_says_so_and_does_not_show_it_finished(tmp_path, game):
    import dataclasses

    from ttr_lab.core.testing import RandomPlayer

    record = play_game(game, [RandomPlayer(), RandomPlayer()], seed=5)
    short = dataclasses.replace(record, actions=record.actions[:len(record.actions) // 2])  # its result kept
    short.save(tmp_path / "short.json")
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "short.json")])
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.stderr.startswith(f"note: the record is cut short: its {len(short.actions)} actions end before the "
                                    "game does (the result stored in it is not this position's)"), result.stderr
    assert "final:" not in result.stdout
    record.save(tmp_path / "whole.json")
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "whole.json")])
    assert result.exit_code == 0 and "cut short" not in result.output
