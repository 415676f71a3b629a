"""Tournament configs: what is accepted, and a one-line error naming what is not."""

import pytest

from ttr_lab import ConfigError
from ttr_lab.tournament import load_config
from ttr_lab.tournament.config import parse_config
from ttr_lab.tournament.design import games_per_deal, plan_games, seatings, tables

BASE = {
    "players": 2,
    "entrants": [{"name": "a", "strategy": "random"}, {"name": "b", "strategy": "greedy"}],
    "games": 4,
}


def cfg(**changes):
    data = {**BASE, **changes}
    return parse_config(data, "test.yaml")


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"plyers": 2}, r"test.yaml: plyers: unknown key"),
        ({"players": 7}, r"players: .* is for 2-5 players, not 7"),
        ({"games": 0}, r"games: Input should be greater than or equal to 1"),
        ({"backend": "spark"}, r"backend: Input should be 'ray' or 'serial'"),
        ({"design": "fixed", "players": 3}, r"design 'fixed' seats every entrant at one table: 2 entrants for 3 players"),
        ({"design": "one_vs_field"}, r"needs 'focus'"),
        ({"entrants": [{"name": "a", "strategy": "wizard"}, {"name": "b", "strategy": "random"}]},
         r"entrants.0 \(a\): unknown strategy 'wizard'; registered: random, greedy"),
        ({"entrants": [{"name": "a", "strategy": "greedy", "params": {"bonus": 1}}, {"name": "b", "strategy": "random"}]},
         r"entrants.0 \(a\): strategy 'greedy' has no parameter 'bonus'; its parameters: ticket_bonus"),
        ({"entrants": [{"name": "a", "strategy": "random"}, {"name": "a", "strategy": "random"}]}, r"repeated: a"),
        ({"map": "mars"}, r"map: unknown map 'mars'"),
    ],
)
def test_bad_configs_are_one_line_errors(changes, message):
    with pytest.raises(ConfigError, match=message) as info:
        cfg(**changes)
    assert "\n" not in str(info.value)


def test_yaml_errors_and_missing_files(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [2\n")
    with pytest.raises(ConfigError, match=r"bad.yaml: not valid YAML at line 2"):
        load_config(bad)
    with pytest.raises(ConfigError, match=r"cannot read config .*nope.yaml"):
        load_config(tmp_path / "nope.yaml")
    (tmp_path / "list.yaml").write_text("- 1\n")
    with pytest.raises(ConfigError, match="expected a mapping"):
        load_config(tmp_path / "list.yaml")


def test_overrides_win_and_shipped_configs_load():
    c = parse_config(BASE, "x", {"games": 10, "backend": "serial", "workers": None})
    assert c.games == 10 and c.backend == "serial"
    for name in ("smoke", "4p", "2p"):
        assert load_config(f"configs/{name}.yaml").entrants


def test_designs_tables_and_seatings():
    four = [{"name": n, "strategy": "random"} for n in "abcd"]
    fixed = cfg(players=4, entrants=four, rotation="cyclic")
    assert tables(fixed) == [(0, 1, 2, 3)] and games_per_deal(fixed) == 4
    assert cfg(players=4, entrants=four, rotation="all").rotation == "all"
    assert games_per_deal(cfg(players=4, entrants=four, rotation="all")) == 24
    rr = cfg(players=2, entrants=four, design="round_robin")
    assert len(tables(rr)) == 6 and rr.rotation == "all" and games_per_deal(rr) == 12
    one = cfg(players=4, entrants=four[:3], design="one_vs_field", focus="a")
    assert tables(one) == [(0, 1, 1, 1), (0, 2, 2, 2)] and games_per_deal(one) == 8
    assert seatings((0, 1, 1), "all") == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]


def test_games_round_up_to_whole_deals_with_stable_ids_and_seeds():
    four = [{"name": n, "strategy": "random"} for n in "abcd"]
    c = cfg(players=4, entrants=four, games=10, rotation="cyclic")
    specs = plan_games(c)
    assert len(specs) == 12  # 3 deals x 4 seatings
    assert specs[0].game_id == "d0-t0-s0" and specs[-1].game_id == "d2-t0-s3"
    assert len({s.deal_seed for s in specs}) == 3
    again = plan_games(cfg(players=4, entrants=four, games=20, rotation="cyclic"))
    assert again[:12] == specs  # more games extend the same deals, never reshuffle them


def test_an_entrant_is_its_validated_parameters_with_defaults_filled_in():
    """greedy with {ticket_bonus: 3}, {ticket_bonus: 3.0} (its default) and {} is one strategy:
    one params_hash, one params column, one tournament."""
    from ttr_lab.tournament.match import entrant_specs

    spellings = [{"ticket_bonus": 3}, {"ticket_bonus": 3.0}, {}]
    configs = [cfg(entrants=[{"name": "a", "strategy": "greedy", "params": p}, {"name": "b", "strategy": "random"}])
               for p in spellings]
    entrants = [c.entrants[0] for c in configs]
    assert len({e.params_hash() for e in entrants}) == 1 and len({e.params_json() for e in entrants}) == 1
    assert entrants[0].params["ticket_bonus"] == 3.0 and isinstance(entrants[0].params["ticket_bonus"], float)
    assert set(entrants[0].params) == {"ticket_bonus", "min_points", "locomotive_weight", "stations"}
    assert len({c.identity_hash() for c in configs}) == 1
    assert entrants[0].name == "a"  # the name given stays the entrant's name
    game = configs[0].load_game()
    matched = entrant_specs([{"name": "a", "strategy": "greedy", "params": p} for p in spellings], game)
    assert {m.params_hash() for m in matched} == {entrants[0].params_hash()}
    other = cfg(entrants=[{"name": "a", "strategy": "greedy", "params": {"ticket_bonus": 4}}, {"name": "b", "strategy": "random"}])
    assert other.entrants[0].params_hash() != entrants[0].params_hash() and other.identity_hash() != configs[0].identity_hash()


def test_an_entrant_without_a_name_is_a_one_line_error():
    with pytest.raises(ConfigError, match=r"test.yaml: entrants: .*every entrant needs a name.*entrants 1 have none"):
        cfg(entrants=[{"name": "a", "strategy": "random"}, {"strategy": "random"}])


def test_tournament_tuning_and_envs_share_the_cores_strategy_spec():
    from ttr_lab.core.registry import StrategySpec
    from ttr_lab.tournament import EntrantConfig
    from ttr_lab.tournament.config import TournamentConfig

    assert EntrantConfig is StrategySpec
    assert TournamentConfig.model_fields["entrants"].annotation == list[StrategySpec]


def test_parameters_are_checked_once_on_their_way_from_the_config_to_the_constructor(tmp_path, monkeypatch):
    from ttr_lab.core import registry
    from ttr_lab.tournament import run_tournament

    checked = []
    real = registry.validate_parameters
    monkeypatch.setattr(registry, "validate_parameters", lambda name, *a: checked.append(name) or real(name, *a))
    c = cfg(backend="serial", output=str(tmp_path / "out"))
    assert sorted(checked) == ["greedy", "random"]
    assert run_tournament(c, show_progress=False).complete
    assert sorted(checked) == ["greedy", "random"]  # the games built their strategies from the checked values


# ---- the game a config plays, and the shorthands each game declares for its options -------------

class _Deck:
    """A test-only game factory declaring a shorthand of its own (``deck_size`` for ``size``)."""

    config_shorthands = {"deck_size": "size", "map": "board"}


@pytest.fixture
def deck_game(monkeypatch):
    from ttr_lab.core import game

    monkeypatch.setitem(game._GAMES, "deck_test", _Deck)
    return "deck_test"


def test_a_config_naming_no_game_plays_the_catalogues_house_game():
    from ttr_lab.games import DEFAULT

    assert cfg().game == DEFAULT and cfg().game_options() == {}


def test_a_shorthand_folds_into_the_options_of_the_game_declaring_it():
    config = cfg(map="legendary_asia")
    assert config.game == "ticket_to_ride" and config.game_options() == {"map": "legendary_asia"}
    # The identity reads the same as the written-out options': a rerun of either resumes the other.
    assert config.identity_hash() == cfg(game="ticket_to_ride", options={"map": "legendary_asia"}).identity_hash()


def test_a_shorthand_only_one_game_declares_names_that_game(deck_game):
    from ttr_lab.tournament.config import TournamentConfig
    from ttr_lab.tournament.config_files import with_game

    assert with_game(TournamentConfig, {"deck_size": 12, "options": {"x": 1}}) == \
        {"game": deck_game, "options": {"x": 1, "size": 12}}
    # Declared by two games, the house game's wins; another game's declaring it changes nothing.
    assert with_game(TournamentConfig, {"map": "usa"})["game"] == "ticket_to_ride"


def test_a_shorthand_the_game_does_not_declare_is_one_line_naming_both(deck_game):
    with pytest.raises(ConfigError) as info:
        cfg(game="trans_orient", players=3, map="usa")
    assert str(info.value).startswith("test.yaml: map: game 'trans_orient' declares no config shorthand 'map'")
    assert "\n" not in str(info.value)
    with pytest.raises(ConfigError, match=r"test.yaml: deck_size: game 'ticket_to_ride' declares no config shorthand"):
        cfg(game="ticket_to_ride", deck_size=3)


def test_a_shorthand_given_as_null_is_not_given():
    """As in the config.yaml an earlier ttr-lab wrote beside its results (``map: null`` for every game)."""
    config = cfg(game="trans_orient", players=2, map=None)
    assert config.game == "trans_orient" and config.game_options() == {}
    assert cfg(map=None, options={"map": "legendary_asia"}).game_options() == {"map": "legendary_asia"}
