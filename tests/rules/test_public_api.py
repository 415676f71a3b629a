"""The rules package's public surface: the shared rule functions agree with the engine, and the
named state/observation readers say what the state holds."""

import itertools
import random

import pytest

from helpers import make_state
import ttr_lab.games.ticket_to_ride as rules
from ttr_lab.games.ticket_to_ride import (
    NUM_CARD_KINDS, Claim, Phase, load_board, new_game, player_components, ticket_connected, track_points,
    twin_blocks, twin_closes,
)

BOARD = load_board("usa")
ASIA = load_board("legendary_asia")


def test_every_public_name_is_importable_from_the_package():
    for name in rules.__all__:
        assert hasattr(rules, name), name


@pytest.mark.parametrize("shared", [False, True])
def test_double_route_rule(shared):
    for player, twin_owner in itertools.product(range(4), range(-1, 4)):
        blocks = twin_blocks(twin_owner, player, shared)
        assert blocks == (twin_owner == player or (twin_owner >= 0 and not shared))
        assert twin_closes(twin_owner, shared) == (twin_owner >= 0 and not shared)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_track_open_agrees_with_the_engine(players):
    rng = random.Random(players)
    for _ in range(10):
        claimed = {t: rng.randrange(players) for t in rng.sample(range(len(BOARD.tracks)), 30)}
        # The engine would not have let one seat hold both tracks of a pair, nor anyone the
        # second track below four players: keep the first claim of each pair.
        for t in sorted(claimed):
            tw = BOARD.tracks[t].twin
            if tw >= 0 and tw in claimed and tw > t and (players < 4 or claimed[tw] == claimed[t]):
                del claimed[tw]
        s = make_state(players, claimed=claimed)
        p = s.current_player
        open_to_me = {a.track for a in s.legal_actions() if type(a) is Claim}
        obs = s.observation(p)
        for t in range(len(BOARD.tracks)):
            if t in open_to_me:
                assert obs.track_open(t)
            if not obs.track_open(t):
                assert t not in open_to_me


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_tables_double_route_answers_agree_with_the_rule_and_the_engine(players):
    """``Tables.track_open`` / ``claimable`` / ``holds_route`` / ``spare_twin`` (what strategies ask)
    say what ``network.track_open`` and the engine's legal claims say, for every seat."""
    rng = random.Random(100 + players)
    shared = rules.doubles_shared(players, BOARD.ruleset)
    for _ in range(10):
        s = new_game(BOARD, players, rng.randrange(1000))
        for _ in range(rng.randrange(60, 400)):
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))
        owner, game = s.track_owners, s.tables
        claims = {a.track for a in s.legal_actions() if type(a) is Claim}
        for p in range(players):
            obs = s.observation(p)
            assert obs.tables is game
            for t in BOARD.tracks:
                twin = t.twin
                assert game.track_open(owner, t.id, p) == rules.track_open(owner, t.id, twin, p, shared) == obs.track_open(t.id)
                assert obs.claimable(t.id) == (obs.track_open(t.id) and t.trains <= s.trains_left(p))
                assert game.holds_route(owner, t.id, p) == (p in [owner[x] for x in (t.id, twin) if x >= 0])
                taken = list(owner)
                taken[t.id] = (p + 1) % players  # another player takes the track: is its twin still open to p?
                assert game.spare_twin(owner, t.id) == (twin >= 0 and rules.track_open(taken, twin, t.id, p, shared))
                if p == s.current_player and s.phase_name is Phase.TURN and t.id in claims:
                    assert obs.claimable(t.id)


def test_the_tables_hold_the_boards_track_tables():
    game = rules.tables_for(ASIA, 3)
    assert game.track_ends == tuple((t.a, t.b) for t in ASIA.tracks)
    for city in range(len(ASIA.cities)):
        assert game.adjacency[city] == tuple((t.id, t.b if t.a == city else t.a) for t in ASIA.tracks if city in (t.a, t.b))
    for t in ASIA.tracks:
        group = game.twin_group[t.id]
        assert group[0] == t.id and set(group) == {x.id for x in ASIA.tracks_between(t.a, t.b)}


def test_tables_for_gives_one_tables_per_board_player_count_and_ruleset_value():
    game = rules.tables_for(BOARD, 3)
    assert rules.tables_for(BOARD, 3, BOARD.ruleset) is game
    assert rules.tables_for(BOARD, 3, BOARD.ruleset.replace()) is game  # an equal ruleset: the same tables
    other = rules.tables_for(BOARD, 3, BOARD.ruleset.replace(trains_per_player=30))
    assert other is not game and other.ruleset.trains_per_player == 30
    assert rules.tables_for(BOARD, 4) is not game
    # An observation's tables follow its game, whichever game of the same board was observed last.
    states = [new_game(BOARD, 3, 1), new_game(BOARD, 4, 1), new_game(BOARD, 3, 1, other.ruleset)]
    for _ in range(2):
        for s in states:
            assert s.observation(0).tables is s.tables


def test_track_points_include_mountains():
    rules_ = ASIA.ruleset
    game = rules.tables_for(ASIA, 3)
    for t in ASIA.tracks:
        assert track_points(t, rules_) == rules_.route_scores[t.length] + rules_.mountain_points_per_space * t.mountain_spaces
        assert game.track_points[t.id] == track_points(t, rules_)
    assert new_game(ASIA, 3, 1).observation(0).track_points == game.track_points


def test_components_and_ticket_connected():
    names = ["Denver-Kansas City black", "Kansas City-Saint Louis blue", "Portland-Seattle gray#1"]
    s = make_state(2, claimed={n: 0 for n in names})
    roots = s.components(0)
    assert roots == s.observation(0).components() == player_components(BOARD, s.track_owners, 0)
    city = BOARD.city
    assert roots[city("Denver")] == roots[city("Saint Louis")] != roots[city("Seattle")]
    assert ticket_connected(rules.Ticket(0, city("Saint Louis"), city("Denver"), 6), roots)
    assert not ticket_connected(rules.Ticket(0, city("Seattle"), city("Denver"), 6), roots)
    other = s.components(1)
    assert len(set(other)) == len(BOARD.cities)  # player 1 holds nothing: every city alone


def test_state_readers():
    s = new_game(BOARD, 3, seed=5)
    while s.phase_name is Phase.INITIAL_TICKETS:
        s.apply(s.legal_actions()[0])
    snap = s.snapshot()
    for p in range(3):
        assert s.hand(p) == [snap["hands"][p][name] for name in rules.CARD_NAMES]
        assert len(s.hand(p)) == NUM_CARD_KINDS
        assert list(s.held_tickets(p)) == snap["tickets_held"][p]
        assert list(s.offered_tickets(p)) == snap["offered_tickets"][p]
        assert s.trains_left(p) == snap["trains"][p]
        assert s.route_points(p) == snap["route_points"][p]
    assert [rules.CARD_NAMES[s.market_card(i)] for i in range(5)] == snap["market"]
    assert s.track_owners == tuple(-1 for _ in BOARD.tracks)
    assert s.track_owner(0) == -1
    assert s.final_turns_left == -1 and not s.doubles_shared
    assert new_game(BOARD, 4, seed=5).doubles_shared
    hand = s.hand(0)
    hand[0] += 5  # a copy: the state is unchanged
    assert s.hand(0)[0] == hand[0] - 5
