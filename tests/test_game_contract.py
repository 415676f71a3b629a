"""The game contract: one test of the core protocol (``ttr_lab.core.game``) run on every
registered game and every shipped variant, at every player count it allows.

In the spirit of OpenSpiel's random-simulation test and pgx's api_test: seeded random
play-outs, checking at each step that

- ``legal_actions()`` is non-empty while the game runs, the same list when asked twice, free
  of duplicates, and every action's text form (``str`` and ``action_text``) parses back to it;
- every legal action applies on a clone, and the original is untouched; a clone taken earlier is
  untouched by later play;
- an illegal action (one legal elsewhere in the game, or no action at all) raises
  ``IllegalActionError`` and leaves the state as it was;
- ``observation(p)`` is a value (picklable, the same when asked twice, unchanged by later play,
  no State inside it) and hides what ``p`` cannot know: the game's ``determinize(o, rng)``
  redraws every unknown from the observation ``o`` alone, and its twin gives ``p`` the same
  observation, tensor (from the observation, from the state, from a seat's writer) and legal
  actions, so whatever an observation or a tensor leaks differs in some twin;
- ``restore(snapshot())`` is the same state (same snapshot, same legal actions, plays on to the
  same end), mid-game and at the end;
- ``returns()`` is 0 per seat while the game runs and the win shares at the end; ``last_event()``
  is ``(player, public action, card or None)`` naming the player who just moved;
- ``views`` is a ``GameViews`` whose score parts are declared metrics;
- the same seed and choices give the same sequence of snapshots; states (mid-game and final),
  the game, records and outcomes survive ``pickle`` (and records JSON);
- ``observation_tensor(observation)`` is a float32 array of the game's fixed
  ``observation_shape`` (the same at every player count), finite, and unchanged for a hidden twin;
- every legal action has an integer id in ``game.action_space`` (distinct, below its size, and
  the id maps back to the action; its parsed text has the same id); a bad id is refused;
- ``outcome()`` at the end: one ``PlayerOutcome`` per player, competition ranks from 1 (ties
  share), a ``Termination``, and exactly the game's declared metrics, each of its declared kind.

A new game is covered by registering it: nothing here names a game.
"""

from __future__ import annotations

import json
import math
import pickle
import random
from typing import Any

import numpy as np
import pytest

from games import TTR_MAPS, VARIANTS, Hooks, Variant, hooks_for
from ttr_lab.core.actions import ActionSpace
from ttr_lab.core.errors import IllegalActionError
from ttr_lab.core.game import Game, State, available_games, load_game
from ttr_lab.core.outcome import Metric, Outcome, PlayerOutcome, Termination
from ttr_lab.core.play import play_game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.results import schema
from ttr_lab.core.testing import RandomPlayer
from ttr_lab.core.views import GameViews

SEED = 2024  # one play-out per (variant, player count) with each checked step, plus one bare replay
MAX_STEPS = 20_000
OBSERVE = 0.06  # share of steps at which every player's observation is checked (they are slower),
# besides the first step with each new kind of decision (a rare phase is checked at least once)
ILLEGAL_PROBES = 3  # actions legal elsewhere in the game tried at each step


class NotAnAction:
    """Something that is no action of any game."""

    def __str__(self) -> str:
        return "not an action"


CASES = [pytest.param(v, n, id=f"{v.id}-{n}p") for v in VARIANTS for n in v.player_counts]


def snap(state: State) -> str:
    return json.dumps(state.snapshot(), sort_keys=True)


# --- the game itself --------------------------------------------------------------------------

def check_definition(variant: Variant, game: Game) -> None:
    assert isinstance(game, Game)
    assert game.name == variant.name and game.name in available_games()
    assert isinstance(game.title, str) and game.title
    assert isinstance(game.variant, str) and game.variant
    assert 1 <= game.min_players <= game.max_players
    options = game.options
    assert json.loads(json.dumps(options)) == options, "options must be plain JSON"
    assert options == variant.options, "the variant listed is not the game built from its options"
    rebuilt = load_game(game.name, **options)
    assert rebuilt.options == options and rebuilt.variant == game.variant
    metrics = game.metrics
    assert isinstance(metrics, tuple) and all(isinstance(m, Metric) for m in metrics)
    assert len({m.name for m in metrics}) == len(metrics), "metric names repeat"
    schema(metrics)  # no clash with the fixed columns of a results table
    with pytest.raises(IllegalActionError):
        game.parse_action("\x00 no game has this action \x00")
    space = game.action_space
    assert isinstance(space, ActionSpace) and space.size == len(space) > 0
    assert load_game(game.name, **options).action_space.ids(list(space)) == list(range(space.size)), \
        "a game rebuilt from its options numbers its actions differently"
    for bad in (-1, space.size, 1.0, True, "0"):
        with pytest.raises(IllegalActionError):
            space.action_of(bad)
    with pytest.raises(IllegalActionError):
        space.id_of(NotAnAction())
    views = game.views
    assert isinstance(views, GameViews) and views.game is game
    assert set(views.score_parts) <= {m.name for m in metrics}, "a score part is no declared metric"
    assert views.summary_inputs is None or all(isinstance(c, str) for c in views.summary_inputs)


def check_game_pickles(game: Game) -> None:
    copy = pickle.loads(pickle.dumps(game))
    assert type(copy) is type(game)
    assert (copy.name, copy.options, copy.variant) == (game.name, game.options, game.variant)
    assert copy.metrics == game.metrics
    assert (copy.min_players, copy.max_players) == (game.min_players, game.max_players)
    assert snap(copy.new_game(game.min_players, 5)) == snap(game.new_game(game.min_players, 5))


# --- the end ----------------------------------------------------------------------------------

def _of_kind(value: Any, kind: str) -> bool:
    if value is None:  # a metric the variant does not use is left empty
        return True
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "ints":
        return isinstance(value, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    raise AssertionError(f"unknown metric kind {kind!r}")


def check_outcome(game: Game, n: int, outcome: Outcome) -> None:
    assert isinstance(outcome, Outcome)
    assert isinstance(outcome.termination, Termination)
    assert outcome.termination is not Termination.FORFEIT and outcome.forfeited_by is None, "nobody forfeited"
    assert outcome.turns is None or (isinstance(outcome.turns, int) and outcome.turns >= 0)
    assert len(outcome.players) == n and all(isinstance(p, PlayerOutcome) for p in outcome.players)
    ranks = [p.rank for p in outcome.players]
    assert min(ranks) == 1
    for r in ranks:  # competition ranking: 1, 1, 3
        assert r == 1 + sum(q < r for q in ranks), f"ranks {ranks} are not competition ranks"
    for a in outcome.players:
        assert isinstance(a.score, (int, float)) and math.isfinite(a.score)
        for b in outcome.players:
            if a.score > b.score:
                assert a.rank <= b.rank, f"score {a.score} ranks below score {b.score}"
    assert math.isclose(sum(outcome.win_shares()), 1.0)
    declared = {m.name: m.kind for m in game.metrics}
    for seat, p in enumerate(outcome.players):
        assert set(p.metrics) == set(declared), (
            f"seat {seat}: metrics {sorted(set(p.metrics) ^ set(declared))} are not exactly the declared ones")
        for name, kind in declared.items():
            assert _of_kind(p.metrics[name], kind), f"seat {seat}: metric {name}={p.metrics[name]!r} is not {kind}"


def check_record(game: Game, n: int, seed: int) -> None:
    record = play_game(game, [RandomPlayer() for _ in range(n)], seed)
    assert (record.game, record.options, record.num_players, record.seed) == (game.name, game.options, n, seed)
    assert pickle.loads(pickle.dumps(record)) == record
    for pretty in (False, True):
        loaded = GameRecord.from_json(record.to_json(pretty=pretty))
        assert loaded == record
        assert loaded.to_json() == record.to_json()
    loaded = GameRecord.from_json(record.to_json())
    final = loaded.replay()  # the outcome rebuilt from the text of the record alone
    assert final.is_terminal()
    assert final.result_data() == record.result
    outcome = loaded.outcome()
    assert outcome == record.outcome()
    check_outcome(game, n, outcome)
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    assert pickle.loads(pickle.dumps(record)).outcome() == outcome


# --- the play-out -----------------------------------------------------------------------------

def same(a: Any, b: Any) -> bool:
    """Equal values: by ``==`` where the type defines it, else by their pickles."""
    if type(a).__eq__ is not object.__eq__:
        return type(a) is type(b) and a == b
    return pickle.dumps(a) == pickle.dumps(b)


def check_tensor(game: Game, obs: Any) -> Any:
    """The observation's tensor: float32, the game's fixed shape, finite; returned for comparison."""
    import numpy as np

    tensor = game.observation_tensor(obs)
    assert isinstance(tensor, np.ndarray) and tensor.dtype == np.float32, "an observation tensor is not float32"
    assert tensor.shape == tuple(game.observation_shape), f"tensor shape {tensor.shape} is not {game.observation_shape}"
    assert np.isfinite(tensor).all(), "an observation tensor holds NaN or infinity"
    assert np.array_equal(game.observation_tensor(obs), tensor), "the tensor differs when asked twice"
    return tensor


def check_observations(state: State, game: Game, rng: random.Random, before: str, seen_hidden: list[bool],
                       unpickle: bool = False) -> Any:
    """Checks every seat's observation, its tensor and its determinized twin; returns the
    current player's observation with its pickle."""
    state_class = type(state).__name__.encode()
    writer = getattr(game, "tensor_writer", None)
    legal = [str(a) for a in state.legal_actions()]
    mine = None  # the player to move has none once the game is over
    for viewer in range(state.num_players):
        obs = state.observation(viewer)
        data = pickle.dumps(obs)
        assert state_class not in data, f"the observation of seat {viewer} carries a {state_class.decode()}"
        if unpickle:
            assert same(pickle.loads(data), obs), "an observation does not survive pickle"
        assert same(state.observation(viewer), obs), "observation differs when asked twice"
        tensor = check_tensor(game, obs)
        direct = getattr(state, "observation_tensor", None)
        if direct is not None:  # the fast path from the state is the same tensor, not another
            assert np.array_equal(direct(viewer), tensor), (
                f"state.observation_tensor({viewer}) differs from the tensor of seat {viewer}'s observation")

        # The twin shares only what the observation says: anything else an observation, a
        # tensor or the legal actions showed would differ in it.
        twin = game.determinize(obs, rng)
        assert isinstance(twin, State) and twin.num_players == state.num_players
        if snap(twin) != before:
            seen_hidden[0] = True
        assert same(twin.observation(viewer), obs), (
            f"seat {viewer}'s observation of a state determinized from it differs: it shows something "
            "the observation does not determine (hidden information), or determinize drops something")
        assert (twin.is_terminal(), twin.current_player) == (state.is_terminal(), state.current_player)
        if viewer == state.current_player:
            assert [str(a) for a in twin.legal_actions()] == legal, (
                f"seat {viewer}'s legal actions differ in a state it cannot tell apart")
        assert np.array_equal(game.observation_tensor(twin.observation(viewer)), tensor), (
            f"seat {viewer}'s observation tensor differs in a state it cannot tell apart")
        if direct is not None:
            assert np.array_equal(twin.observation_tensor(viewer), tensor), (
                f"state.observation_tensor of seat {viewer} differs in a state it cannot tell apart")
        if writer is not None:  # a seat's writer that wrote this state, then the twin: what it keeps is right
            seat_writer = writer(viewer)
            assert np.array_equal(seat_writer(state), tensor)
            assert np.array_equal(seat_writer(twin), tensor), (
                f"seat {viewer}'s tensor writer differs in a state it cannot tell apart")
        if viewer == state.current_player:
            mine = (obs, data)
    assert snap(state) == before, "observing changed the state"
    return mine


def check_restore(game: Game, state: State, before: str) -> State:
    """``game.restore(snapshot)`` is the same state: same snapshot, same legal actions."""
    restored = game.restore(json.loads(before))
    assert isinstance(restored, State)
    assert snap(restored) == before, "restore(snapshot()) has another snapshot"
    assert [str(a) for a in restored.legal_actions()] == [str(a) for a in state.legal_actions()]
    assert (restored.is_terminal(), restored.current_player) == (state.is_terminal(), state.current_player)
    return restored


def check_returns(state: State) -> None:
    returns = state.returns()
    assert isinstance(returns, tuple) and len(returns) == state.num_players
    assert all(isinstance(r, float) for r in returns), "returns are floats"
    if state.is_terminal():
        assert returns == tuple(state.outcome().win_shares()), "returns at the end are not the win shares"
    else:
        assert returns == (0.0,) * state.num_players, "returns before the end are not 0"


def play_out(game: Game, n: int, seed: int, hooks: Hooks) -> tuple[list[str], State, list[int]]:
    """A seeded random game with every check at each step; returns the snapshots, the final
    state and the choices made (indices into legal_actions)."""
    state = game.new_game(n, seed)
    assert state.num_players == n
    assert state.last_event() == (), "last_event() before any action is not ()"
    space = game.action_space
    choose, probe = random.Random(seed), random.Random(seed + 1)
    snaps, choices = [snap(state)], []
    pool: dict[str, Any] = {}  # every action seen legal so far, by text
    parsed: dict[str, Any] = {}  # text -> game.parse_action(text) (a function of the text)
    stashed: list[tuple[State, str]] = []  # clones taken along the way, with their snapshot then
    pickled_at: tuple[int, State] | None = None
    restored_at: tuple[int, State] | None = None
    observed_kinds: set[frozenset[str]] = set()
    seen_hidden = [False]
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"
        before = snaps[-1]
        assert 0 <= state.current_player < n
        legal = list(state.legal_actions())
        assert legal, "a running game offers an action"
        assert list(state.legal_actions()) == legal, "legal_actions() changes when asked again"
        assert list(state.clone().legal_actions()) == legal, "a clone offers other actions"
        texts = [str(a) for a in legal]
        assert len(set(texts)) == len(texts), "duplicate legal actions"
        ids = space.ids(legal)
        assert len(set(ids)) == len(ids) and all(0 <= i < space.size for i in ids), "action ids clash or overflow"
        assert [space.action_of(i) for i in ids] == legal, "an action id maps back to another action"
        assert [i for i, on in enumerate(space.mask(legal)) if on] == sorted(ids)
        for a, text in zip(legal, texts):
            for form in {text, state.action_text(a)}:
                if form not in parsed:
                    parsed[form] = game.parse_action(form)
                assert parsed[form] == a, f"{form!r} parses to {parsed[form]!r}, not {a!r}"
                assert space.id_of(parsed[form]) == space.id_of(a)
            child = state.clone()
            child.apply(a)
            assert child.is_terminal() or 0 <= child.current_player < n
            pool.setdefault(text, a)
        assert snap(state) == before, "applying actions to clones changed the original"
        if hooks.invariants is not None and steps % 5 == 1:
            hooks.invariants(state)

        offered = set(texts)
        illegal = [a for t, a in pool.items() if t not in offered]
        refused = probe.sample(illegal, min(ILLEGAL_PROBES, len(illegal))) + [NotAnAction()]
        for bad in refused:
            with pytest.raises(IllegalActionError):
                state.apply(bad)
        assert snap(state) == before, f"one of the refused actions {[str(a) for a in refused]} changed the state"
        assert list(state.legal_actions()) == legal

        mine = None
        kinds = frozenset(type(a).__name__ for a in legal)  # a decision of a kind not yet observed
        if steps == 1 or kinds not in observed_kinds or probe.random() < OBSERVE:
            observed_kinds.add(kinds)
            mine = check_observations(state, game, probe, before, seen_hidden, unpickle=steps == 1)
            check_returns(state)
        if steps % 40 == 0:
            stashed.append((state.clone(), before))
        if restored_at is None and steps >= 20 or steps == 1:  # one restored state plays on
            restored = check_restore(game, state, before)
            if steps > 1:
                restored_at = (len(choices), restored)
        if pickled_at is None and steps >= 30:  # one mid-game state goes through pickle
            copy = pickle.loads(pickle.dumps(state))
            assert snap(copy) == before and [str(a) for a in copy.legal_actions()] == texts
            pickled_at = (len(choices), copy)

        i = choose.randrange(len(legal))
        choices.append(i)
        mover = state.current_player
        state.apply(legal[i])
        event = state.last_event()
        assert isinstance(event, tuple) and len(event) == 3 and event[0] == mover, (
            f"last_event() {event!r} is not (player, public action, card) of seat {mover}'s move")
        assert event[2] is None or (isinstance(event[2], int) and not isinstance(event[2], bool)), (
            f"last_event()'s card {event[2]!r} is neither a card nor None")
        snaps.append(snap(state))
        if mine is not None:
            assert pickle.dumps(mine[0]) == mine[1], "an observation changed when the game went on (a live view)"

    assert not state.legal_actions(), "a finished game offers no action"
    for bad in [*list(pool.values())[:5], NotAnAction()]:
        with pytest.raises(IllegalActionError):
            state.apply(bad)
        assert snap(state) == snaps[-1]
    for clone, then in stashed:
        assert snap(clone) == then, "a clone changed when the original played on"
    for kept in (pickled_at, restored_at):  # the unpickled and the restored state play on to the same end
        if kept is not None:
            start, copy = kept
            for i in choices[start:]:
                copy.apply(copy.legal_actions()[i])
            assert snap(copy) == snaps[-1]
    check_restore(game, state, snaps[-1])
    check_returns(state)
    check_observations(state, game, probe, snaps[-1], seen_hidden)
    assert seen_hidden[0], "determinize never redrew anything hidden"
    return snaps, state, choices


def replay_choices(game: Game, n: int, seed: int, choices: list[int]) -> list[str]:
    state = game.new_game(n, seed)
    out = [snap(state)]
    for i in choices:
        state.apply(state.legal_actions()[i])
        out.append(snap(state))
    assert state.is_terminal()
    return out


@pytest.mark.parametrize("variant, n", CASES)
def test_game_contract(variant, n):
    game = variant.game
    check_definition(variant, game)
    check_game_pickles(game)
    seed = SEED + n

    snaps, final, choices = play_out(game, n, seed, hooks_for(game.name))
    # Determinism: the same seed and the same choices, the same states, from a fresh game object.
    fresh = load_game(game.name, **game.options)
    assert replay_choices(fresh, n, seed, choices) == snaps
    assert snap(game.new_game(n, seed)) == snaps[0]

    outcome = final.outcome()
    check_outcome(game, n, outcome)
    assert final.outcome() == outcome
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    copy = pickle.loads(pickle.dumps(final))
    assert copy.is_terminal() and snap(copy) == snaps[-1] and copy.outcome() == outcome
    data = final.result_data()
    assert json.loads(json.dumps(data)) == data, "result_data() must be plain JSON"

    check_record(game, n, seed)


def test_every_game_and_map_is_listed():
    listed = {v.name for v in VARIANTS}
    assert listed == set(available_games())
    assert len({v.id for v in VARIANTS}) == len(VARIANTS), "two variants share a test id"
    maps = {v.options.get("map") for v in VARIANTS if v.name == "ticket_to_ride"}
    assert maps == set(TTR_MAPS) and {"usa", "legendary_asia"} <= maps


def test_a_forfeit_outcome_survives_pickle():
    """A forfeit has no scores (None, not NaN, which would never equal itself)."""
    outcome = Outcome.forfeit(3, 1, "seat 1 crashed")
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    assert [p.score for p in outcome.players] == [None, None, None] and [p.rank for p in outcome.players] == [1, 3, 1]


def test_observation_tensor_shape_is_one_per_game():
    """One shape for every player count (a policy trained at 4 players reads a 2-player game),
    and the tensor sees the difference between two seats' views."""
    for variant in VARIANTS:
        game = variant.game
        shapes = set()
        for n in variant.player_counts:
            state = game.new_game(n, 11)
            tensors = [check_tensor(game, state.observation(p)) for p in range(n)]
            shapes.update(t.shape for t in tensors)
            assert not all((t == tensors[0]).all() for t in tensors[1:]), f"{variant} {n}p: every seat sees the same tensor"
        assert shapes == {tuple(game.observation_shape)}, f"{variant}: shapes {shapes}"


def test_action_ids_are_pinned():
    """Ids are part of the interface (trained policies store them): a change here breaks them."""
    usa, asia = load_game("ticket_to_ride", map="usa"), load_game("ticket_to_ride", map="legendary_asia")
    toe = load_game("trans_orient")
    assert (usa.action_space.size, asia.action_space.size, toe.action_space.size) == (1076, 804, 181)
    assert [str(usa.action_space.action_of(i)) for i in range(9)] == [
        "draw blind", "draw market 0", "draw market 1", "draw market 2", "draw market 3", "draw market 4",
        "tickets", "pass", "keep none"]
    assert usa.action_space.id_of(usa.parse_action("keep 0,2")) == 8 + 0b101
    assert usa.action_space.id_of(usa.parse_action("claim Atlanta-Charleston gray with 2 yellow")) == 20
    assert str(toe.action_space.action_of(16)) == "play 1"
