"""The four reference agents of the 2017 playtesting study: their characteristic moves on
hand-built positions, and whole games that finish, replay exactly and stay legal."""

from __future__ import annotations

import heapq
import inspect
import random

import pytest

from helpers import decide, make_state
from ttr_lab.games.ticket_to_ride import LOCOMOTIVE as LOCO
from helpers import ticket_id as tk
from helpers import track_id as tid
from ttr_lab.strategies.ticket_to_ride.destination_hungry import DestinationHungry
from ttr_lab.strategies.ticket_to_ride.long_route import LongRoute
from ttr_lab.strategies.ticket_to_ride.one_step_thinking import OneStepThinking
from ttr_lab.strategies.ticket_to_ride.planning import shortest_path, track_costs
from ttr_lab.strategies.random import Random
from ttr_lab.strategies.ticket_to_ride.route_focus import RouteFocus
from ttr_lab import play_game
from ttr_lab.games.ticket_to_ride import TicketToRide, Claim, DrawBlind, DrawMarket, DrawTickets, KeepTickets, load_board, new_game

BOARD = load_board("usa")
AGENTS = [DestinationHungry, RouteFocus, OneStepThinking, LongRoute]
NAMES = {DestinationHungry: "destination_hungry", RouteFocus: "route_focus", OneStepThinking: "one_step",
         LongRoute: "long_route"}


def claimed_track(action) -> int:
    assert type(action) is Claim, f"expected a claim, got {action}"
    return action.track


DENVER_EL_PASO = tk("Denver-El Paso")  # 4 points: Denver-Santa Fe (2) + Santa Fe-El Paso (2)
KC_HOUSTON = tk("Kansas City-Houston")  # 5 points: KC-Oklahoma City (2), -Dallas (2), -Houston (1)
CHICAGO_NEW_ORLEANS = tk("Chicago-New Orleans")  # 7 points
SHORT_DENVER_EL_PASO = {tid("Denver-Santa Fe gray"), tid("El Paso-Santa Fe gray")}


# --- the agents as strategies ------------------------------------------------------------------

@pytest.mark.parametrize("agent", AGENTS)
def test_registry_name_and_keyword_parameters_with_defaults(agent):
    assert agent.name == NAMES[agent]
    for p in list(inspect.signature(agent.__init__).parameters.values())[1:]:
        assert p.kind is p.KEYWORD_ONLY and p.default is not p.empty and p.annotation is not p.empty
    agent()  # every parameter has a default


# --- Long Route --------------------------------------------------------------------------------

def test_long_route_builds_its_ticket_with_long_routes_only():
    s = make_state(hands=[{"locomotive": 6}, {}], tickets_held=[[DENVER_EL_PASO], []])
    action = decide(LongRoute(), s)
    assert BOARD.tracks[claimed_track(action)].length >= 3 and action.track not in SHORT_DENVER_EL_PASO
    # the first step of a two-track path over long routes: Denver-Phoenix (5) + Phoenix-El Paso
    # (3), or Denver-Oklahoma City (4) + Oklahoma City-El Paso (5)
    assert action.track in (tid("Denver-Phoenix white"), tid("Denver-Oklahoma City red"))
    assert action.colour == LOCO  # no card of the track's colour: all locomotives


def test_one_step_follows_the_path_of_fewest_tracks_not_of_fewest_trains():
    # Chicago-Santa Fe: 9 trains over 4 tracks, or 10 over 3 (Chicago-Omaha, Omaha-Denver,
    # Denver-Santa Fe); the engine's paths count tracks.
    s = make_state(hands=[{"locomotive": 8}, {}], tickets_held=[[tk("Chicago-Santa Fe")], []])
    assert claimed_track(decide(OneStepThinking(), s)) == tid("Chicago-Omaha blue")


def test_long_route_with_no_ticket_to_work_on_claims_a_longest_route():
    s = make_state(hands=[{"green": 6, "red": 1}, {}], tickets_held=[[], []])
    action = decide(LongRoute(), s)
    assert BOARD.tracks[claimed_track(action)].length == 6
    # among the 6s it prefers a gray one its hand pays in one colour
    assert claimed_track(action) == tid("Sault St. Marie-Winnipeg gray")


def test_long_route_keeps_its_two_lowest_tickets():
    # The engine's ticket evaluation fails on every ticket (it calls has_path on the graph), so
    # every offer counts as unreachable and it keeps the allowed offer worth fewest points.
    s = make_state(phase="initial_tickets", offered=[[KC_HOUSTON, tk("Dallas-New York"), tk("Los Angeles-Chicago")], []],
                   tickets_held=[[], []])
    assert decide(LongRoute(), s) == KeepTickets((0, 1))
    assert decide(OneStepThinking(), s) == KeepTickets((0, 1, 2))  # One Step keeps what it is dealt
    # Tickets drawn in play: One Step keeps the single ticket worth least
    s = make_state(phase="keep_tickets", offered=[[tk("Dallas-New York"), KC_HOUSTON, tk("Los Angeles-Chicago")], []],
                   tickets_held=[[DENVER_EL_PASO], []])
    assert decide(OneStepThinking(), s) == KeepTickets((1,))


def test_long_route_never_draws_tickets():
    done = {tid("Kansas City-Oklahoma City gray#1"): 0, tid("Dallas-Oklahoma City gray#1"): 0,
            tid("Dallas-Houston gray#1"): 0}
    s = make_state(hands=[{"red": 2}, {}], tickets_held=[[KC_HOUSTON], []], claimed=done)
    assert type(decide(LongRoute(), s)) is not DrawTickets


# --- One Step Thinking -------------------------------------------------------------------------

def test_one_step_takes_the_next_route_of_its_most_valuable_ticket():
    s = make_state(hands=[{"locomotive": 8}, {}], tickets_held=[[DENVER_EL_PASO, KC_HOUSTON], []])
    track = claimed_track(decide(OneStepThinking(), s))
    # Kansas City-Houston (5) is worth more than Denver-El Paso (4); its path starts at Kansas City
    assert BOARD.tracks[track].label.startswith("Kansas City-Oklahoma City")


def test_one_step_draws_its_target_colour_then_a_face_up_locomotive():
    # Chicago-New Orleans starts with Chicago-Saint Louis, green or white; it holds a white.
    s = make_state(hands=[{"white": 1}, {}], tickets_held=[[CHICAGO_NEW_ORLEANS], []],
                   market=("red", "white", "locomotive", "blue", "yellow"))
    assert decide(OneStepThinking(), s) == DrawMarket(1)
    s = make_state(hands=[{"white": 1}, {}], tickets_held=[[CHICAGO_NEW_ORLEANS], []],
                   market=("red", "orange", "locomotive", "blue", "yellow"))
    assert decide(OneStepThinking(), s) == DrawMarket(2)


def test_one_step_draws_tickets_when_its_tickets_are_done_and_the_game_is_young():
    done = {tid("Kansas City-Oklahoma City gray#1"): 0, tid("Dallas-Oklahoma City gray#1"): 0,
            tid("Dallas-Houston gray#1"): 0}
    s = make_state(hands=[{"red": 2}, {}], tickets_held=[[KC_HOUSTON], []], claimed=done)
    assert decide(OneStepThinking(), s) == DrawTickets()
    # an opponent close to the end (fewer than 8 trains): no new tickets
    s = make_state(hands=[{"red": 2}, {}], tickets_held=[[KC_HOUSTON], []], claimed=done, trains=[40, 7])
    assert type(decide(OneStepThinking(), s)) is not DrawTickets


# --- Route Focus -------------------------------------------------------------------------------

def test_route_focus_claims_a_route_of_its_ticket_not_a_richer_one_elsewhere():
    # It could claim Helena-Seattle yellow (6 trains, 15 points) but works on its ticket, on one
    # of the two-track paths of Denver-El Paso (through Santa Fe, Phoenix or Oklahoma City).
    s = make_state(hands=[{"yellow": 6, "red": 2}, {}], tickets_held=[[DENVER_EL_PASO], []])
    two_tracks = SHORT_DENVER_EL_PASO | {tid("El Paso-Phoenix gray"), tid("El Paso-Oklahoma City yellow")}
    assert claimed_track(decide(RouteFocus(), s)) in two_tracks


def test_route_focus_ranks_routes_by_points_plus_twice_the_ticket():
    # Chicago-New Orleans: Chicago-Saint Louis (2), Saint Louis-Little Rock (2), Little
    # Rock-New Orleans green (3) ranks first (4 + 2 x 7). It means to draw green face up, but the
    # engine compares colour names in different cases: it always draws blind.
    s = make_state(hands=[{}, {}], tickets_held=[[CHICAGO_NEW_ORLEANS], []],
                   market=("red", "white", "locomotive", "green", "yellow"))
    assert decide(RouteFocus(), s) == DrawBlind()
    s = make_state(hands=[{}, {}], tickets_held=[[CHICAGO_NEW_ORLEANS], []],
                   market=("red", "white", "locomotive", "blue", "yellow"))
    assert decide(RouteFocus(), s) == DrawBlind()
    s = make_state(hands=[{"green": 3}, {}], tickets_held=[[CHICAGO_NEW_ORLEANS], []])
    assert claimed_track(decide(RouteFocus(), s)) == tid("Little Rock-New Orleans green")


def test_route_focus_keeps_everything_and_never_draws_tickets():
    s = make_state(phase="initial_tickets", offered=[[0, 1, 2], []], tickets_held=[[], []])
    assert decide(RouteFocus(), s) == KeepTickets((0, 1, 2))
    done = {tid("Kansas City-Oklahoma City gray#1"): 0, tid("Dallas-Oklahoma City gray#1"): 0,
            tid("Dallas-Houston gray#1"): 0}
    s = make_state(hands=[{"red": 2}, {}], tickets_held=[[KC_HOUSTON], []], claimed=done)
    action = decide(RouteFocus(), s)  # its ticket done, the engine's queue pops the least valuable route
    assert BOARD.tracks[claimed_track(action)].length == 1


# --- Destination Hungry ------------------------------------------------------------------------

def kept_then(agent, offer, trains, turn):
    """``agent`` after choosing among ``offer`` with ``trains`` trains; its decision in ``turn``."""
    keep = make_state(phase="keep_tickets", offered=[offer, []], tickets_held=[[], []], trains=[trains, 45])
    decide(agent, keep)
    return decide(agent, turn)


def test_destination_hungry_draws_tickets_while_trains_exceed_the_need_it_stored_at_its_keep():
    offer = [DENVER_EL_PASO, KC_HOUSTON, tk("Duluth-Houston")]
    turn = make_state(hands=[{"red": 2}, {}], tickets_held=[[DENVER_EL_PASO], []], trains=[30, 45])
    # Keeping all three takes some 4 + 5 + 8 trains: fewer than 30 - 8, so it asks for more.
    assert kept_then(DestinationHungry(), offer, 30, turn) == DrawTickets()
    # The stored need is the last offer's (all three) even when it keeps fewer, and it is not
    # updated as it builds: with 20 trains, 20 - 8 is below it, and it builds instead.
    turn = make_state(hands=[{"red": 2}, {}], tickets_held=[[DENVER_EL_PASO], []], trains=[20, 45])
    assert claimed_track(kept_then(DestinationHungry(), offer, 30, turn)) in SHORT_DENVER_EL_PASO
    assert type(kept_then(DestinationHungry(draw_margin=2), offer, 30, turn)) is DrawTickets


def test_destination_hungry_keeps_only_tickets_its_trains_can_build():
    offer = [tk("Los Angeles-New York"), DENVER_EL_PASO, KC_HOUSTON]
    s = make_state(phase="keep_tickets", offered=[offer, []], tickets_held=[[], []], trains=[12, 45])
    kept = decide(DestinationHungry(), s)
    assert 0 not in kept.indices  # Los Angeles-New York needs 20 trains
    s = make_state(phase="keep_tickets", offered=[offer, []], tickets_held=[[], []])
    assert 0 in decide(DestinationHungry(), s).indices  # with 45 trains it is the best value


def test_destination_hungry_draws_the_colour_showing_most_if_its_network_needs_it():
    # (A fresh agent has stored a need of 0 trains: with 8 trains it does not draw tickets.)
    s = make_state(hands=[{}, {}], tickets_held=[[CHICAGO_NEW_ORLEANS], []], trains=[8, 45],
                   market=("blue", "green", "locomotive", "green", "yellow"))
    assert decide(DestinationHungry(), s) == DrawMarket(1)
    # one green among single cards: the first of the most shown (blue) is not needed: blind
    s = make_state(hands=[{}, {}], tickets_held=[[CHICAGO_NEW_ORLEANS], []], trains=[8, 45],
                   market=("blue", "green", "locomotive", "orange", "yellow"))
    assert decide(DestinationHungry(), s) == DrawBlind()
    s = make_state(hands=[{}, {}], tickets_held=[[CHICAGO_NEW_ORLEANS], []], trains=[8, 45],
                   market=("blue", "locomotive", "locomotive", "orange", "yellow"))
    assert decide(DestinationHungry(), s) == DrawBlind()


def test_destination_hungry_pays_without_spending_cards_its_network_still_needs():
    # Network for Calgary-Salt Lake City: Calgary-Helena (gray 4) and Helena-Salt Lake City
    # (pink 3). It pays the gray track only with a colour no coloured planned track needs (white
    # and locomotives), keeping the three pinks.
    s = make_state(hands=[{"pink": 3, "white": 2, "locomotive": 2}, {}],
                   tickets_held=[[tk("Calgary-Salt Lake City")], []], trains=[8, 45])
    action = decide(DestinationHungry(), s)
    assert claimed_track(action) == tid("Calgary-Helena gray")
    assert (action.colour, action.cards, action.locomotives) == (7, 2, 2)  # 2 white + 2 loco
    # One Step Thinking pays the engine's way: the first colour of its list that pays (pink + 1 loco)
    plain = decide(OneStepThinking(), s)
    assert claimed_track(plain) == tid("Calgary-Helena gray") and plain.locomotives == 1


# --- paths and remembered plans --------------------------------------------------------------

def plain_shortest_path(costs, tables, a, b):
    """The straightforward Dijkstra ``planning.shortest_path`` must agree with exactly: keys
    (cost, tracks to claim) in dicts, ties to the lower city on the heap."""
    if a == b:
        return 0, []
    best, back, heap = {a: (0, 0)}, {}, [(0, 0, a)]
    while heap:
        cost, hops, city = heapq.heappop(heap)
        if city == b:
            path = []
            while city != a:
                t, city = back[city]
                path.append(t)
            return cost, path[::-1]
        if best.get(city, (cost, hops)) < (cost, hops):
            continue
        for t, other in tables.adjacency[city]:
            c = costs[t]
            if c is None:
                continue
            key = (cost + c, hops + (1 if c else 0))
            if key < best.get(other, (1 << 30, 0)):
                best[other], back[other] = key, (t, city)
                heapq.heappush(heap, (key[0], key[1], other))
    return None


def test_shortest_path_gives_exactly_the_plain_dijkstra_answer_for_int_and_float_costs():
    for seed in (3, 4):
        state, rng = new_game(BOARD, 3, seed), random.Random(seed)
        for _ in range(120):  # some way into a game, with tracks held and closed
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        assert any(o >= 0 for o in state.owner)
        obs = state.observation(0)
        tables = obs.tables
        for card_weight in (0.0, 0.3):  # int trains; float costs that add card shortfalls
            costs = track_costs(obs, card_weight=card_weight)
            assert any(type(c) is (float if card_weight else int) for c in costs)
            for a in range(len(BOARD.cities)):
                for b in range(len(BOARD.cities)):
                    ours, plain = shortest_path(costs, tables, a, b), plain_shortest_path(costs, tables, a, b)
                    assert ours == plain, (card_weight, a, b)
                    if ours is not None:
                        assert type(ours[0]) is type(plain[0])
                        assert sum(costs[t] for t in ours[1]) == pytest.approx(ours[0])


@pytest.mark.parametrize("agent", AGENTS)
def test_agents_remember_only_what_the_engine_remembers(agent):
    """Route Focus remembers nothing: a fresh instance decides the same everywhere. One Step and
    Long Route keep their target until somebody claims a track (or their tickets change): a
    fresh instance decides the same wherever that just happened. Destination Hungry remembers
    the need stored at its last keep, but its plan is remade the same way: a fresh instance
    plans the same everywhere."""
    for seed, players in ((11, 3), (12, 4)):
        state = new_game(BOARD, players, seed)
        seats = [agent() for _ in range(players)]
        rngs = [random.Random(seed * 10 + i) for i in range(players)]
        seen: dict[int, tuple] = {}
        checked = 0
        while not state.is_terminal():
            p = state.player
            obs, legal = state.observation(p), state.legal_actions()
            if agent is DestinationHungry and obs.tickets:
                assert seats[p]._replan(obs) == DestinationHungry()._replan(obs)
                checked += 1
            action = seats[p].act(obs, legal, rngs[p])
            board_now = (obs.owner, obs.tickets)
            random_draw = getattr(seats[p], "_target", 0) is None  # nothing to aim at: a random card
            if agent is RouteFocus or (agent is not DestinationHungry and seen.get(p) != board_now and not random_draw):
                assert agent().act(obs, legal, random.Random(0)) == action, (seed, state.turns, str(action))
                checked += 1
            seen[p] = board_now
            state.apply(action)
        assert checked > 20


# --- whole games -------------------------------------------------------------------------------

class Checked:
    """Wraps an agent: every action must be one of the legal actions, and neither the legal list
    nor the observation may be changed."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.decisions = 0

    def act(self, observation, legal_actions, rng):
        before = list(legal_actions)
        snapshot = observation.to_dict()
        action = self.inner.act(observation, legal_actions, rng)
        assert list(legal_actions) == before and observation.to_dict() == snapshot
        assert any(action is a for a in legal_actions), f"{self.name} chose {action}, not offered"
        self.decisions += 1
        return action


def finished(record) -> bool:
    players = record.result["players"]
    return record.result["stalled"] or min(p["trains_left"] for p in players) <= BOARD.ruleset.end_trains


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("agent", AGENTS)
def test_self_play_finishes_replays_and_stays_legal(agent, players):
    seed = 100 + players
    first = play_game(TicketToRide(BOARD), [Checked(agent()) for _ in range(players)], seed)
    again = play_game(TicketToRide(BOARD), [agent() for _ in range(players)], seed)
    assert finished(first)
    assert first.strategies == (agent.name,) * players
    assert first.to_json() == again.to_json()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mixed_tables_finish_replay_and_stay_legal(players):
    line_up = (AGENTS + [Random])[:players]
    for seed in (0, 1):
        seats = line_up[seed % players:] + line_up[:seed % players]
        checked = [Checked(a()) for a in seats]
        first = play_game(TicketToRide(BOARD), checked, seed)
        again = play_game(TicketToRide(BOARD), [a() for a in seats], seed)
        assert finished(first) and first.to_json() == again.to_json()
        assert all(c.decisions > 0 for c in checked)


def test_the_agents_beat_random_play():
    for seed in range(4):
        for agent in AGENTS:
            record = play_game(TicketToRide(BOARD), [agent(), Random()], seed)
            agent_score, random_score = (p["total"] for p in record.result["players"])
            assert agent_score > random_score, (agent.name, seed)
