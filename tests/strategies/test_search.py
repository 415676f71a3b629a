"""The one search engine on tiny hand-built games: selection, availability, widening, back-up,
play-out seats and the paired root, each pinned so that breaking the rule fails a test."""

from __future__ import annotations

import math
import random
from typing import Any, NamedTuple

import pytest

from ttr_lab.core.errors import ConfigError
from ttr_lab.strategies.limit import Limit
from ttr_lab.strategies.search import Node, Search


class Obs(NamedTuple):
    player: int


class Decide(NamedTuple):
    """A decision in a toy game: who moves, and the position after each move (a ``Decide``, or a
    tuple of values per seat at an end)."""

    player: int
    moves: dict


class ToyState:
    """A game given as a tree of ``Decide`` nodes; everything a search asks of a state."""

    def __init__(self, node: Any, num_players: int = 2) -> None:
        self.node = node
        self.num_players = num_players

    def is_terminal(self) -> bool:
        return not isinstance(self.node, Decide)

    @property
    def current_player(self) -> int:
        return self.node.player

    def legal_actions(self) -> list:
        return list(self.node.moves)

    def apply(self, move: Any) -> None:
        self.node = self.node.moves[move]

    def clone(self) -> ToyState:
        return ToyState(self.node, self.num_players)

    def observation(self, player: int) -> Obs:
        return Obs(player)


class First:
    """A play-out policy: the first legal move; remembers who it played for."""

    def __init__(self, log: list | None = None, name: str = "") -> None:
        self.log, self.name = log, name

    def act(self, observation: Obs, legal: list, rng: random.Random) -> Any:
        if self.log is not None:
            self.log.append((self.name, observation.player))
        return legal[0]


def values(state: ToyState) -> tuple:
    return state.node if state.is_terminal() else (0.0,) * state.num_players


def engine(**settings: Any) -> Search:
    return Search(lambda obs, rng: None, values, First, **settings)


def node_with(**children: tuple[int, float, int]) -> Node:
    """A node whose children have (visits, total reward, availability)."""
    node = Node(-1)
    for move, (visits, reward, available) in children.items():
        child = node.children[move] = Node(0)
        child.visits, child.reward, child.available = visits, reward, available
    return node


def test_selection_adds_exploration_for_the_less_visited_child():
    node = node_with(often=(10, 6.0, 20), rarely=(1, 0.5, 20))  # means 0.6 and 0.5
    assert engine(exploration=1.0).select(node, ["often", "rarely"]) == "rarely"
    assert engine(exploration=0.0).select(node, ["often", "rarely"]) == "often"


def test_selection_explores_by_availability_not_by_the_parents_visits():
    # "rarely" was legal in 2 of the parent's 100 visits: its bonus is sqrt(ln 2 / 1), not sqrt(ln 100 / 1).
    node = node_with(often=(50, 40.0, 100), rarely=(1, 0.2, 2))
    node.visits = 100
    assert engine(exploration=1.0).select(node, ["often", "rarely"]) == "often"
    assert engine(exploration=1.2).select(node, ["often", "rarely"]) == "rarely"


def test_a_move_must_beat_the_floor_to_displace_the_first_listed():
    node = node_with(first=(4, -12.0, 4), second=(4, -8.0, 4))  # means -3 and -2
    assert engine(exploration=0.0).select(node, ["first", "second"]) == "second"
    assert engine(exploration=0.0, floor=-1.0).select(node, ["first", "second"]) == "first"


def test_availability_counts_the_samples_in_which_a_move_was_legal():
    search = engine(exploration=0.5)
    root = Node(-1)
    coins = [0, 0, 1, 0, 1, 1, 0, 1]  # "y" is legal in a sample only when its coin is 1
    for coin in coins:
        moves = {"x": (1.0, 0.0), "y": (0.0, 1.0)} if coin else {"x": (1.0, 0.0)}
        search.visit(root, ToyState(Decide(0, moves)), random.Random(0))
    x, y = root.children["x"], root.children["y"]
    assert (x.available, y.available) == (8, 4)  # "y" opened in the third sample, then legal in 3 more
    assert x.visits + y.visits == root.visits == 8


def test_widening_opens_a_child_whenever_visits_to_the_power_allow_one_more():
    moves = {m: (float(m), 0.0) for m in range(10)}
    search = engine(exploration=1.0, widening=0.5)
    root = Node(-1)
    counts = []
    for _ in range(30):
        search.visit(root, ToyState(Decide(0, moves)), random.Random(0))
        counts.append(len(root.children))
    # A node visited v times may have max(1, int(v ** 0.5)) children: the 2nd opens at the 5th visit
    # (v = 4), the 3rd at the 10th (v = 9), the 4th at the 17th, the 5th at the 26th.
    assert counts == [1] * 4 + [2] * 5 + [3] * 7 + [4] * 9 + [5] * 5
    assert list(root.children) == [0, 1, 2, 3, 4]  # in the order the moves are listed


def test_without_widening_every_move_opens_the_first_time_it_is_met():
    moves = {m: (float(m), 0.0) for m in range(4)}
    search, root = engine(exploration=1.0), Node(-1)
    for visit in range(1, 5):
        search.visit(root, ToyState(Decide(0, moves)), random.Random(0))
        assert list(root.children) == list(range(visit))


def test_back_up_credits_each_node_with_the_reward_of_the_player_who_chose_its_move():
    # Player 0 picks a or b, then player 1 picks x or y.
    game = Decide(0, {"a": Decide(1, {"x": (5.0, 1.0), "y": (2.0, 6.0)}), "b": Decide(1, {"x": (3.0, 3.0), "y": (3.0, 3.0)})})
    search, root = engine(exploration=0.1), Node(-1)
    for _ in range(4):
        search.visit(root, ToyState(game), random.Random(0))
    a = root.children["a"]
    ax, ay = a.children["x"], a.children["y"]
    assert (a.player, ax.player, ay.player) == (0, 1, 1)
    # Visits: a (played out a-x: leads 4, -4), b (0, 0), a-x (4, -4), a-y (-4, 4).
    assert (a.visits, a.reward) == (3, 4.0)
    assert (ax.reward, ay.reward) == (-4.0, 4.0)
    assert root.children["b"].reward == 0.0


def test_a_reward_is_the_lead_over_the_best_other_seat_divided_by_scale():
    end = ToyState((5.0, 7.0, 1.0), num_players=3)
    assert engine().play_out(end.clone(), random.Random(0)) == [-2.0, 2.0, -6.0]
    assert engine(scale=2.0).play_out(end.clone(), random.Random(0)) == [-1.0, 1.0, -3.0]


def test_play_outs_use_the_policy_for_the_searcher_and_the_opponent_model_for_the_others():
    def chain(seats: list[int]) -> Any:
        return (1.0, 2.0, 3.0) if not seats else Decide(seats[0], {"go": chain(seats[1:]), "stay": chain(seats[1:])})

    log: list = []
    search = Search(lambda obs, rng: ToyState(chain([1, 2, 0, 1]), 3), values, lambda: First(log, "mine"),
                    opponent_model=lambda seat: First(log, "theirs"), limit=Limit(playouts=1))
    search.tree(Obs(1), ["go", "stay"], random.Random(0))
    assert log == [("theirs", 2), ("theirs", 0), ("mine", 1)]
    log.clear()
    search.rollout_depth = 2
    search.tree(Obs(1), ["go", "stay"], random.Random(0))
    assert log == [("theirs", 2), ("theirs", 0)]


def test_the_tree_root_finds_the_best_arm_of_a_bandit():
    chances = (0.2, 0.8, 0.5)

    def deal(obs: Obs, rng: random.Random) -> ToyState:  # the hidden part: which arms pay this time
        return ToyState(Decide(0, {arm: (float(rng.random() < p), 0.5) for arm, p in enumerate(chances)}))

    search = Search(deal, values, First, exploration=0.7, limit=Limit(playouts=300))
    assert all(search.tree(Obs(0), [0, 1, 2], random.Random(seed)) == 1 for seed in range(5))


def _paired_game(gain: float) -> Search:
    def deal(obs: Obs, rng: random.Random) -> ToyState:
        luck = rng.gauss(0.0, 5.0)  # shared by every candidate of a round (common random numbers)
        return ToyState(Decide(0, {"anchor": (luck, 0.0), "better": (luck + gain, 0.0), "worse": (luck - 10.0, 0.0)}))

    return Search(deal, values, First, limit=Limit(playouts=20))


def test_the_paired_root_switches_from_the_anchor_only_when_clearly_better():
    search = _paired_game(gain=1.0)
    assert search.paired(Obs(0), ["anchor", "better", "worse"], random.Random(3), confidence=2.0) == "better"
    assert search.switched
    even = _paired_game(gain=0.0)
    assert even.paired(Obs(0), ["anchor", "better", "worse"], random.Random(3), confidence=2.0) == "anchor"
    assert not even.switched


def test_the_paired_root_drops_a_clearly_worse_candidate_after_three_rounds():
    search = _paired_game(gain=1.0)
    search.paired(Obs(0), ["anchor", "better", "worse"], random.Random(3))
    # 3 rounds of 3 play-outs, then rounds of 2 until the next round would pass 20.
    assert (search.rounds, search.playouts) == (8, 19)


class Pick:
    """A play-out policy that picks at random (with the rng it is given)."""

    def act(self, observation: Obs, legal: list, rng: random.Random) -> Any:
        return legal[rng.randrange(len(legal))]


def test_the_paired_root_plays_every_candidate_out_with_the_same_seed():
    def after(gain: float) -> Decide:
        # The play-out's luck: which of five ends the policy picks, behind more forced moves than
        # the tree opens in the search, so only the play-outs ever reach it.
        position = Decide(1, {k: (gain + 3.0 * k, 0.0) for k in range(5)})
        for _ in range(12):
            position = Decide(1, {"on": position})
        return position

    game = Decide(0, {"anchor": after(0.0), "better": after(1.0)})
    search = Search(lambda obs, rng: ToyState(game), values, Pick, limit=Limit(playouts=20))
    assert search.paired(Obs(0), ["anchor", "better"], random.Random(5), confidence=2.0) == "better"


def test_a_native_play_out_replaces_the_policies_below_the_tree_and_its_batch_is_averaged():
    calls: list = []

    def native(state: ToyState, seeds: list) -> tuple:
        calls.append((state.node, list(seeds)))
        return [(4.0, 1.0), (0.0, 2.0)], 7  # leads (3, -3) and (-2, 2): means 0.5 and -0.5

    log: list = []
    search = Search(lambda obs, rng: ToyState(Decide(0, {"a": Decide(1, {"x": (9.0, 0.0)})})), values,
                    lambda: First(log, "mine"), native_playout=native, leaf_playouts=2, visit_cost=1)
    rewards = search.play_out(ToyState(Decide(1, {"x": (9.0, 0.0)})), random.Random(0))
    assert rewards == [0.5, -0.5] and log == []
    assert len(calls) == 1 and len(calls[0][1]) == 2
    assert (search.steps_used, search.simulations) == (8, 2)  # its decisions and the visit's cost


def test_every_candidate_of_a_paired_round_gets_the_same_native_seeds():
    seen: dict = {}

    def native(state: ToyState, seeds: list) -> tuple:
        seen.setdefault(state.node, []).append(tuple(seeds))
        return [state.node] * len(seeds), 0

    game = Decide(0, {"anchor": (1.0, 0.0), "other": (2.0, 0.0)})
    search = Search(lambda obs, rng: ToyState(game), values, First, native_playout=native, leaf_playouts=3,
                    limit=Limit(playouts=8))
    assert search.paired(Obs(0), ["anchor", "other"], random.Random(2)) == "other"
    assert seen[(1.0, 0.0)] == seen[(2.0, 0.0)] and len(seen[(1.0, 0.0)]) == 4
    assert len(set(seen[(1.0, 0.0)])) == 4 and (search.playouts, search.simulations) == (8, 24)


def test_the_cpu_budget_stops_the_paired_root_on_the_cpu_clock(monkeypatch):
    import types

    import ttr_lab.strategies.limit as engine_module

    def wall_clock() -> float:
        raise AssertionError("a CPU budget read the wall clock")

    ticks = iter(range(0, 1000))  # each reading of the CPU clock is 1 ms later than the last
    clocks = types.SimpleNamespace(thread_time=lambda: next(ticks) / 1000.0, perf_counter=wall_clock)
    monkeypatch.setattr(engine_module, "time", clocks)
    search = _paired_game(gain=1.0)
    search.limit = Limit(playouts=10**6, cpu_ms=5.0)
    search.paired(Obs(0), ["anchor", "better", "worse"], random.Random(3))
    assert search.rounds == 5  # read once at the start, then once after each round


def test_a_search_takes_one_clock_and_a_native_play_out_plays_to_the_end():
    import pytest

    with pytest.raises(ConfigError, match="one clock"):
        Limit(time_ms=5.0, cpu_ms=5.0)
    with pytest.raises(ValueError, match="rollout_depth"):
        engine(native_playout=lambda state, seeds: ([], 0), rollout_depth=3)


def test_without_growing_every_visit_plays_out_straight_from_its_candidate():
    game = Decide(0, {m: Decide(1, {"x": (1.0, 0.0), "y": (0.0, 1.0)}) for m in ("anchor", "other")})
    for grow, grown in ((True, True), (False, False)):
        search = Search(lambda obs, rng: ToyState(game), values, First, limit=Limit(playouts=12), grow=grow)
        children: dict = {}
        original = search.visit

        def spy(node: Node, state: ToyState, rng: random.Random, *, descend: bool = True) -> list:
            children[id(node)] = node
            return original(node, state, rng, descend=descend)

        search.visit = spy  # type: ignore[method-assign]
        search.paired(Obs(0), ["anchor", "other"], random.Random(1))
        assert any(node.children for node in children.values()) is grown


def test_elimination_drops_a_move_more_than_two_standard_errors_behind_the_leader():
    from ttr_lab.strategies.search import _survivors

    results = {
        "anchor": [-5.0] * 5,  # far behind, but the anchor is never dropped
        "leader": [1.0] * 5,
        "trailing": [0.0, 1.0, -1.0, 0.5, -0.5],  # paired t of the leader over it: 2.83
        "near": [0.5, 1.5, -0.5, 1.0, 0.0],  # 1.41
    }
    assert _survivors(list(results), results, "anchor") == ["anchor", "leader", "near"]


def test_the_paired_t_statistic_divides_the_squares_by_n_minus_one():
    from ttr_lab.strategies.search import _t_statistic

    # Differences 1, 2, 3 over the base's last three rounds: mean 2, sample variance 1.
    assert _t_statistic([3.0, 5.0, 7.0], [9.0, 2.0, 3.0, 4.0]) == pytest.approx(2.0 * math.sqrt(3.0))
    assert _t_statistic([3.0], [2.0]) == 0.0  # one pair tells nothing


def test_a_candidate_only_as_good_as_the_anchor_does_not_displace_it():
    game = Decide(0, {"anchor": (1.0, 0.0), "twin": (1.0, 0.0)})
    search = Search(lambda obs, rng: ToyState(game), values, First, limit=Limit(playouts=6))
    assert search.paired(Obs(0), ["anchor", "twin"], random.Random(1), confidence=0.0) == "anchor"
    assert search.rounds == 3 and not search.switched


def test_one_round_is_never_enough_to_leave_the_anchor():
    game = Decide(0, {"anchor": (0.0, 0.0), "better": (1.0, 0.0)})
    search = Search(lambda obs, rng: ToyState(game), values, First, limit=Limit(playouts=2))
    assert search.paired(Obs(0), ["anchor", "better"], random.Random(1), confidence=0.0) == "anchor"
    assert search.rounds == 1 and not search.switched
    longer = Search(lambda obs, rng: ToyState(game), values, First, limit=Limit(playouts=4))
    assert longer.paired(Obs(0), ["anchor", "better"], random.Random(1), confidence=0.0) == "better"


def test_spend_runs_batches_at_the_measured_pace_until_the_clock_is_spent():
    """The clock's loop, written once (the tree's batches, the race's timed rounds): a first batch,
    then each aimed at ``fraction`` of the time left at the pace so far; on an injected clock."""
    from ttr_lab.strategies.limit import spend

    now = [0.0]
    batches: list[int] = []

    def run(n: int) -> None:
        batches.append(n)
        now[0] += 0.001 * n  # one unit of work takes 1 ms

    spend(run, lambda: sum(batches), lambda: now[0], 0.1, 4, 0.25)
    assert batches[0] == 4 and sum(batches) >= 100 and all(b >= 1 for b in batches)
    assert batches[1] == int((0.1 - 0.004) * 0.25 / 0.001)
    stalled: list[int] = []
    ticks = iter([0.0, 0.0, 0.5])  # a clock that did not move: the batch doubles
    spend(stalled.append, lambda: sum(stalled), lambda: next(ticks), 0.1, 3, 0.5)
    assert stalled == [3, 6]


def test_a_result_is_its_rows_with_their_share_of_the_samples_as_the_policy():
    from ttr_lab.strategies.ticket_to_ride.search.result import RootRow, SearchResult

    found = SearchResult.of_rows("b", [("a", 3, 0.0), ("b", 1, 2.5)], playouts=4)
    assert found.policy == {"a": 0.75, "b": 0.25} and found.root == (RootRow("a", 3, 0.0), RootRow("b", 1, 2.5))
    assert SearchResult("a").policy == {} and SearchResult("a").playouts == 0
