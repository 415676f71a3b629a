"""The USA board data: the invariants the published board satisfies."""

from collections import Counter

import networkx as nx
import pytest

from ttr_lab import BoardDataError, ConfigError
from ttr_lab.games.ticket_to_ride import GRAY, COLOURS, Ruleset, load_board


@pytest.fixture(scope="module")
def board():
    return load_board("usa")


def test_counts(board):
    assert len(board.cities) == 36
    assert len(board.tracks) == 100
    assert len(board.tickets) == 30


def test_loaded_once(board):
    assert load_board("usa") is board


def test_graph_is_connected_and_every_city_has_a_track(board):
    g = board.graph
    assert g.number_of_nodes() == 36 and g.number_of_edges() == 100
    assert nx.is_connected(g)
    assert min(dict(g.degree()).values()) >= 1


def test_double_routes(board):
    pairs = Counter(frozenset((t.a, t.b)) for t in board.tracks)
    assert len(pairs) == 78
    assert sum(1 for n in pairs.values() if n == 1) == 56
    assert sum(1 for n in pairs.values() if n == 2) == 22
    doubles = [t for t in board.tracks if t.twin >= 0]
    gray_gray = {frozenset((t.id, t.twin)) for t in doubles if t.is_gray and board.tracks[t.twin].is_gray}
    assert len(gray_gray) == 10
    for t in doubles:
        twin = board.tracks[t.twin]
        assert twin.twin == t.id and twin.length == t.length and {twin.a, twin.b} == {t.a, t.b}
        if not t.is_gray and not twin.is_gray:
            assert t.colour != twin.colour
    coloured_pairs = {frozenset((t.id, t.twin)) for t in doubles if not t.is_gray and not board.tracks[t.twin].is_gray}
    assert len(coloured_pairs) == 12


def test_lengths_and_totals(board):
    assert all(1 <= t.length <= 6 for t in board.tracks)
    assert sum(t.length for t in board.tracks) == 309
    by_length = Counter(t.length for t in board.tracks)
    assert by_length == {1: 9, 2: 36, 3: 20, 4: 16, 5: 10, 6: 9}
    scores = board.ruleset.route_scores
    assert sum(scores[t.length] for t in board.tracks) == 508


def test_colours_are_balanced(board):
    for c in range(len(COLOURS)):
        mine = [t for t in board.tracks if t.colour == c]
        assert len(mine) == 7 and sum(t.length for t in mine) == 27, COLOURS[c]
    gray = [t for t in board.tracks if t.colour == GRAY]
    assert len(gray) == 44 and sum(t.length for t in gray) == 93


def test_tickets(board):
    assert sum(t.points for t in board.tickets) == 349
    assert min(t.points for t in board.tickets) == 4 and max(t.points for t in board.tickets) == 22
    named = {t.label for t in board.tickets}
    for label in ("Los Angeles-New York (21)", "Seattle-New York (22)", "Duluth-Houston (8)",
                  "Sault St. Marie-Nashville (8)", "New York-Atlanta (6)", "Portland-Nashville (17)",
                  "Denver-El Paso (4)"):
        assert label in named
    on_tickets = {c for t in board.tickets for c in (t.a, t.b)}
    off = sorted(board.cities[c] for c in set(range(36)) - on_tickets)
    assert off == ["Charleston", "Las Vegas", "Omaha", "Raleigh", "Saint Louis", "Washington"]


def test_usa_has_no_ferries_or_mountains_but_the_format_does(board):
    assert all(t.ferry_locomotives == 0 and t.mountain_spaces == 0 for t in board.tracks)
    assert {t.deck for t in board.tickets} == {"regular"}


def test_positions_for_every_city(board):
    assert set(board.positions) == set(board.cities)


def test_ruleset_defaults_are_the_rulebook(board):
    r = board.ruleset
    assert r.route_scores == (0, 1, 2, 4, 7, 10, 15)
    assert (r.longest_path_bonus, r.trains_per_player, r.initial_hand, r.market_size, r.end_trains) == (10, 45, 4, 5, 2)
    assert 8 * r.cards_per_colour + r.locomotive_cards == 110


def test_ruleset_override_and_errors():
    r = Ruleset().replace(longest_path_bonus=15)
    assert r.longest_path_bonus == 15
    assert Ruleset.from_mapping({"route_scores": {"1": 2, "2": 3}}).route_scores == (0, 2, 3)
    with pytest.raises(ConfigError, match="unknown ruleset field"):
        Ruleset().replace(longest_bonus=3)
    with pytest.raises(ConfigError, match="non-negative"):
        Ruleset(trains_per_player=-1)


def test_unknown_map():
    with pytest.raises(BoardDataError, match="unknown map 'mars'"):
        load_board("mars")


def test_custom_map_folder_with_ferry_mountain_and_decks(tmp_path):
    (tmp_path / "map.toml").write_text('name = "tiny"\nmin_players = 2\nmax_players = 3\n[ruleset]\nlongest_path_bonus = 0\n')
    (tmp_path / "cities.csv").write_text("city\nA\nB\nC\n")
    (tmp_path / "routes.csv").write_text(
        "city_a,city_b,length,color,ferry_locomotives,mountain_spaces\nA,B,3,gray,1,0\nB,C,2,red,0,1\nB,C,2,blue,0,0\n")
    (tmp_path / "tickets.csv").write_text("city_a,city_b,points,deck\nA,C,5,regular\nA,B,9,long\n")
    b = load_board(str(tmp_path))
    assert b.name == "tiny" and b.ruleset.longest_path_bonus == 0
    assert b.tracks[0].ferry_locomotives == 1 and b.tracks[1].mountain_spaces == 1
    assert b.tracks[1].twin == 2 and b.tracks[2].label == "B-C blue"
    assert [t.deck for t in b.tickets] == ["regular", "long"]


def test_bad_map_data_is_named(tmp_path):
    (tmp_path / "map.toml").write_text('name = "bad"\n')
    (tmp_path / "cities.csv").write_text("city\nA\nB\n")
    (tmp_path / "routes.csv").write_text("city_a,city_b,length,color\nA,Z,3,gray\n")
    (tmp_path / "tickets.csv").write_text("city_a,city_b,points\n")
    with pytest.raises(BoardDataError, match=r"routes.csv line 2: unknown city 'Z'"):
        load_board(str(tmp_path))


def test_a_folder_map_is_named_by_its_folder_even_with_a_shipped_name(tmp_path, monkeypatch):
    # A copy of the USA map, still called "usa" in its map.toml, with one ticket fewer: options,
    # snapshots and records must load the folder again, never the shipped map of that name.
    import shutil
    from importlib import resources

    from ttr_lab import load_game

    folder = tmp_path / "my map"
    shutil.copytree(str(resources.files("ttr_lab.games.ticket_to_ride.maps") / "usa"), folder)
    lines = (folder / "tickets.csv").read_text().splitlines()
    (folder / "tickets.csv").write_text("\n".join(lines[:-1]) + "\n")
    monkeypatch.chdir(tmp_path)
    game = load_game("ticket_to_ride", map="my map")
    assert game.board.name == "usa" and len(game.board.tickets) == len(load_board("usa").tickets) - 1
    assert game.options["map"] == str(folder.resolve())
    state = game.new_game(2, seed=3)
    assert state.snapshot()["map"] == str(folder.resolve())
    monkeypatch.chdir("/")  # read back from elsewhere, as a report or a replay does
    again = load_game("ticket_to_ride", **game.options)
    assert again.board is game.board and again.board.reference == str(folder.resolve())
    assert load_game("ticket_to_ride", map="usa").options == {"map": "usa"}  # shipped maps keep their name
