"""Train stations in whole random games (USA map, stations on), at 2-5 players: the invariants at
every step, legal_actions() and apply() agreeing, the compiled play-outs playing the face's games,
the batched views matching the writers, snapshots and determinizations keeping the stations, and
the final scoring's choice of borrowed tracks against every assignment tried by brute force."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from invariants import check_invariants
from rules_common import assert_legal_agrees
from ttr_lab.games.ticket_to_ride import BuildStation, TicketToRide, load_board, new_game
from ttr_lab.games.ticket_to_ride.batch import Batch
from ttr_lab.games.ticket_to_ride.kernels.canonical import canonical
from ttr_lab.games.ticket_to_ride.kernels.playout import random_playouts
from ttr_lab.games.ticket_to_ride.network import connected_components
from ttr_lab.games.ticket_to_ride.restore import restore_state
from ttr_lab.games.ticket_to_ride.state import assemble_state
from ttr_lab.core.rng import GOLDEN, MASK, mix64

BOARD = load_board("usa")
RULES = BOARD.ruleset.replace(stations_per_player=3, tie_breaks=("tickets", "stations", "longest"))
GAME = TicketToRide(BOARD, RULES)


def check_stations(state) -> None:
    n = state.num_players
    stations, built = state.stations, state.stations_built
    assert len(stations) == len(BOARD.cities) and len(built) == n
    assert built == [stations.count(p) for p in range(n)]
    assert max(built) <= RULES.stations_per_player and all(-1 <= o < n for o in stations)
    for p in range(n):
        obs = state.observation(p)
        assert obs.stations == tuple(stations)
        assert obs.stations_left == tuple(RULES.stations_per_player - b for b in built)


def brute_force(result_player, state, p):
    """The best (ticket points, completed) over every assignment of p's stations to tracks of
    other players at their cities (or none), tried one by one."""
    owner = state.owner
    mine = [t for t, o in enumerate(owner) if o == p]
    cities = [c for c, o in enumerate(state.stations) if o == p]
    options = [[None] + [t.id for t in BOARD.tracks if owner[t.id] >= 0 and owner[t.id] != p and c in (t.a, t.b)]
               for c in cities]
    best = None
    for pick in itertools.product(*options):
        tracks = mine + [t for t in pick if t is not None]
        labels = connected_components(len(BOARD.cities), [(BOARD.tracks[t].a, BOARD.tracks[t].b) for t in tracks])
        points = done = 0
        for tid in state.tickets[p]:
            ticket = BOARD.tickets[tid]
            ok = labels[ticket.a] == labels[ticket.b]
            points += ticket.points if ok else -ticket.points
            done += ok
        if best is None or (points, done) > best:
            best = (points, done)
    return best


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_stations_keep_the_rules(players):
    rng = random.Random(players)
    built_any = borrowed_any = 0
    for seed in range(2):
        state = new_game(BOARD, players, seed, RULES)
        step = 0
        while not state.is_terminal():
            check_invariants(state)
            check_stations(state)
            if step % 25 == 7:
                assert_legal_agrees(state)
                snap = state.snapshot()
                back = restore_state(BOARD, snap, RULES)
                assert back.snapshot() == snap and back.legal_actions() == state.legal_actions()
                rebuilt = assemble_state(state.tables, state.log, state.log_len, rng=state.rng, **vars(state.fields()))
                assert np.array_equal(canonical(state.face.g, rebuilt.s), canonical(state.face.g, state.s))
                viewer = state.current_player
                twin = GAME.determinize(state.observation(viewer), random.Random(step))
                assert twin.stations == state.stations and twin.stations_built == state.stations_built
            legal = state.legal_actions()
            # Stations outnumber every other action: play one now and then, so the rest of the
            # game is played too.
            builds = [a for a in legal if type(a) is BuildStation]
            others = [a for a in legal if type(a) is not BuildStation] or builds
            action = rng.choice(builds if builds and rng.random() < 0.08 else others)
            state.apply(action)
            step += 1
        result = state.result()
        for p, row in enumerate(result.players):
            built_any += row.stations_built
            assert row.stations_built == state.stations_built[p]
            assert row.station_points == (3 - row.stations_built) * 4
            assert row.total == (row.route_points + row.ticket_points + row.longest_bonus + row.station_points)
            assert (row.ticket_points, row.tickets_completed) == brute_force(row, state, p)
            assert [c for c, _ in row.station_tracks] == [c for c, o in enumerate(state.stations) if o == p]
            for city, track in row.station_tracks:
                if track >= 0:
                    borrowed_any += 1
                    t = BOARD.tracks[track]
                    assert city in (t.a, t.b) and state.owner[track] not in (-1, p)
    assert built_any > 0 and borrowed_any > 0


def _next_below(state: int, bound: int) -> tuple[int, int]:
    state = (state + GOLDEN) & MASK
    return state, (mix64(state) * bound) >> 64


@pytest.mark.parametrize("players", [2, 4])
def test_compiled_playouts_play_the_faces_games_with_stations(players):
    start = GAME.new_game(players, 3)
    seeds = [5, 2**63 + 9]
    scores = np.zeros((len(seeds), players), dtype=np.int64)
    random_playouts(start.face.g, start.s, np.array(seeds, dtype=np.uint64), scores)
    for i, seed in enumerate(seeds):
        state, rng = start.clone(), seed
        while not state.is_terminal():
            legal = state.legal_actions()
            rng, pick = _next_below(rng, len(legal))
            state.apply(legal[pick])
        assert sum(state.stations_built) > 0
        assert [p.total for p in state.result().players] == list(scores[i])


@pytest.mark.parametrize("players", [2, 5])
def test_batched_views_are_the_writers_with_stations(players):
    batch = Batch(GAME, players)
    writers = [GAME.tensor_writer(seat) for seat in range(players)]
    layout = GAME.observation_layout
    assert layout.offsets["stations"] + len(BOARD.cities) * BOARD.max_players == layout.size
    state = GAME.new_game(players, 1)
    assert np.array_equal(batch.new_states([1])[0], state.s)
    rng = random.Random(players)
    seats = np.arange(players)
    while not state.is_terminal():
        tensors, masks = batch.views(np.repeat(state.s[None, :], players, axis=0), seats)
        for seat in seats:
            assert np.array_equal(tensors[seat], writers[seat](state))
            assert np.array_equal(tensors[seat], GAME.observation_tensor(state.observation(seat)))
        ids = state.legal_action_ids()
        assert np.flatnonzero(masks[state.current_player]).tolist() == sorted(ids)
        builds = [i for i in ids if type(GAME.action_space.action_of(i)) is BuildStation]
        pick = rng.choice(builds if builds and rng.random() < 0.2 else ids)
        state.apply(GAME.action_space.action_of(pick))
    stations = tensors[0][layout.offsets["stations"]:]
    assert stations.sum() == sum(state.stations_built) > 0


def test_usa_tensor_and_state_have_no_station_parts():
    usa = TicketToRide("usa")
    assert "stations" not in usa.observation_layout.offsets
    state = usa.new_game(3, 1)
    assert state.stations == [] and state.stations_built == []
    assert state.observation(0).stations == () and "stations" not in state.observation(0).to_dict()


def test_a_record_with_stations_replays_to_its_result():
    from ttr_lab import GameRecord, play_game
    from ttr_lab.strategies.random import Random

    record = play_game(GAME, [Random() for _ in range(3)], 12)
    assert any(text.startswith("station ") for _, text in record.actions)
    again = GameRecord.from_json(record.to_json())
    assert again.replay().result().to_dict() == again.result == record.result
    assert all("station_tracks" in p for p in record.result["players"])


def test_the_play_summary_adds_up_with_the_stations_kept():
    from ttr_lab import play_game
    from ttr_lab.strategies.random import Random

    record = play_game(GAME, [Random() for _ in range(2)], 4)
    _, headers, rows, lines = GAME.views.result_summary(record)
    assert "stations kept" in headers
    for row in rows:
        parts = dict(zip(headers, row))
        tickets = int(parts["tickets"].split(" ")[0])
        assert int(parts["routes"]) + tickets + int(parts["longest"]) + int(parts["stations kept"]) == int(parts["total"])
    assert any(line.startswith("seat 0 stations:") for line in lines)
