"""The Europe board: its data against the invariants of the reference it was transcribed from,
its ruleset, the action space (tunnel decisions between the keeps and the claims, none on the
other maps), and its ferries, with one and with two locomotive icons, allowed and refused."""

from collections import Counter

import pytest

from helpers import act, legal_texts, make_state, track_id
from ttr_lab import BoardDataError, IllegalActionError
from ttr_lab.games.ticket_to_ride import (
    DECLINE, BuildStation, Claim, DeclineTunnel, KeepTickets, PayTunnel, TicketToRide, load_board, parse_action,
)
from ttr_lab.games.ticket_to_ride.actions import all_actions
from ttr_lab.games.ticket_to_ride.colours import TRACK_COLOUR_NAMES
from ttr_lab.games.ticket_to_ride.network import connected_components

BOARD = load_board("europe")


def test_the_board_holds_what_its_reference_states():
    tracks, tickets = BOARD.tracks, BOARD.tickets
    assert (len(BOARD.cities), len(tracks), len(tickets)) == (47, 101, 46)
    assert len(set(connected_components(len(BOARD.cities), ((t.a, t.b) for t in tracks)))) == 1
    pairs = Counter((min(t.a, t.b), max(t.a, t.b)) for t in tracks)
    assert (len(pairs), sum(1 for n in pairs.values() if n == 2)) == (90, 11)
    for t in tracks:
        if t.twin >= 0:
            twin = tracks[t.twin]
            assert (t.length, t.ferry_locomotives, t.tunnel) == (twin.length, twin.ferry_locomotives, twin.tunnel)
    assert Counter(t.length for t in tracks) == {1: 4, 2: 35, 3: 30, 4: 29, 6: 2, 8: 1}
    assert sum(t.length for t in tracks) == 300
    colours = Counter(TRACK_COLOUR_NAMES[t.colour] for t in tracks)
    assert colours.pop("gray") == 37 and set(colours.values()) == {8} and len(colours) == 8
    tunnels = [t for t in tracks if t.tunnel]
    ferries = [t for t in tracks if t.ferry_locomotives]
    assert (len(tunnels), len(ferries), sum(t.ferry_locomotives for t in ferries)) == (18, 13, 17)
    assert not [t for t in tunnels if t.ferry_locomotives] and all(t.is_gray for t in ferries)
    assert (sum(t.points for t in tickets), sum(1 for t in tickets if t.deck == "long")) == (444, 6)
    longs = {t.label for t in tickets if t.deck == "long"}
    assert longs == {"Brest-Petrograd (20)", "Cadiz-Stockholm (21)", "Edinburgh-Athina (21)",
                     "Kobenhavn-Erzurum (21)", "Lisboa-Danzig (20)", "Palermo-Moskva (20)"}
    assert all(5 <= t.points <= 13 for t in tickets if t.deck == "regular")


def test_the_ruleset_of_the_map():
    rules = BOARD.ruleset
    assert (rules.initial_long_tickets, rules.initial_tickets, rules.initial_keep_min) == (1, 3, 2)
    assert rules.initial_rejects == "box" and rules.longest_path_bonus == 10 and rules.tunnel_reveal == 3
    assert [rules.score_for_length(n) for n in (1, 2, 3, 4, 6, 8)] == [1, 2, 4, 7, 15, 21]
    assert (BOARD.min_players, BOARD.max_players) == (2, 5)


def test_the_other_maps_read_their_routes_without_a_tunnel_column():
    for name in ("usa", "legendary_asia"):
        assert not any(t.tunnel for t in load_board(name).tracks)


def test_tunnel_decisions_lie_between_the_keeps_and_the_station_builds_and_only_on_a_map_with_tunnels():
    actions = all_actions(BOARD, BOARD.ruleset)
    kinds = [type(a) for a in actions]
    last_keep = max(i for i, k in enumerate(kinds) if k is KeepTickets)
    first_station = kinds.index(BuildStation)
    first_claim = kinds.index(Claim)
    assert all(k is BuildStation for k in kinds[first_station:first_claim])
    assert [str(a) for a in actions[last_keep + 1:first_station]] == [
        "pay 1 card", "pay 1 loco", "pay 2 cards", "pay 1 card + 1 loco", "pay 2 loco",
        "pay 3 cards", "pay 2 cards + 1 loco", "pay 1 card + 2 loco", "pay 3 loco", "decline"]
    assert not any(k is Claim for k in kinds[:first_claim]) and all(k is Claim for k in kinds[first_claim:])
    for name in ("usa", "legendary_asia"):
        board = load_board(name)
        assert not any(type(a) in (PayTunnel, DeclineTunnel) for a in all_actions(board, board.ruleset))
    five = BOARD.ruleset.replace(tunnel_reveal=5)
    assert sum(type(a) is PayTunnel for a in all_actions(BOARD, five)) == 2 + 3 + 4 + 5 + 6


@pytest.mark.parametrize("text", ["pay 1 card", "pay 2 cards + 1 loco", "pay 3 loco", "decline"])
def test_tunnel_decisions_read_back_from_their_text(text):
    action = parse_action(text, BOARD)
    assert str(action) == text and TicketToRide("europe").action_space.id_of(action) >= 0
    assert parse_action("Decline", BOARD) is DECLINE and parse_action("pay 2 card + 1 locos", BOARD) == PayTunnel(2, 1)


def test_a_two_icon_ferry_takes_two_locomotives():
    s = make_state(2, board=BOARD, hands=[{"red": 2, "locomotive": 1}, {}])
    assert not [t for t in legal_texts(s) if "Amsterdam-London" in t]
    with pytest.raises(IllegalActionError, match="'1 red \\+ 1 loco' is not a payment this track accepts"):
        act(s, "claim Amsterdam-London gray with 1 red + 1 loco")
    with pytest.raises(IllegalActionError, match="needs at least 2 locomotive"):
        s.apply(Claim(track_id("Amsterdam-London gray", BOARD), 0, 1, 1))
    s = make_state(2, board=BOARD, hands=[{"red": 2, "locomotive": 2}, {}])
    assert [t for t in legal_texts(s) if "Amsterdam-London" in t] == ["claim Amsterdam-London gray with 2 loco"]
    act(s, "claim Amsterdam-London gray with 2 loco")
    assert s.owner[next(t.id for t in BOARD.tracks if t.label == "Amsterdam-London gray")] == 0


def test_a_long_two_icon_ferry_takes_any_one_colour_for_the_rest():
    s = make_state(2, board=BOARD, hands=[{"red": 4, "blue": 3, "locomotive": 3}, {}])
    ferry = sorted(t for t in legal_texts(s) if "Palermo-Smyrna" in t)
    assert ferry == ["claim Palermo-Smyrna gray with 3 blue + 3 loco", "claim Palermo-Smyrna gray with 3 red + 3 loco",
                     "claim Palermo-Smyrna gray with 4 red + 2 loco"]
    act(s, "claim Palermo-Smyrna gray with 4 red + 2 loco")
    assert s.points[0] == 15 and s.trains[0] == 39


def test_a_one_icon_ferry_short_of_locomotives_is_refused():
    s = make_state(2, board=BOARD, hands=[{"red": 2}, {}])
    assert not [t for t in legal_texts(s) if "Dieppe-London" in t]
    with pytest.raises(IllegalActionError, match="'2 red' is not a payment this track accepts"):
        act(s, "claim Dieppe-London gray#1 with 2 red")
    with pytest.raises(IllegalActionError, match="needs at least 1 locomotive"):
        s.apply(Claim(track_id("Dieppe-London gray#1", BOARD), 0, 2, 0))
    s = make_state(2, board=BOARD, hands=[{"red": 1}, {}])
    with pytest.raises(IllegalActionError, match="has 0 locomotives, not 1"):
        act(s, "claim Dieppe-London gray#1 with 1 red + 1 loco")


def test_a_map_edit_may_add_a_tunnel():
    edit = {"add_track": {"a": "Denver", "b": "Chicago", "length": 2, "colour": "red", "tunnel": True}}
    game = TicketToRide("usa", edits=[edit])
    assert game.board.tracks[-1].tunnel
    assert sum(type(a) is DeclineTunnel for a in all_actions(game.board, game.ruleset)) == 1
    with pytest.raises(BoardDataError, match="inconsistent track"):
        TicketToRide("usa", edits=[{"add_track": {**edit["add_track"], "tunnel": "yes"}}])
