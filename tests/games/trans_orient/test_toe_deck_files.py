"""Deck files: the stand-in loads, the template matches the format, and every mistake in a deck
folder gives one line naming the file, the line and the field."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from ttr_lab.core.game import load_game
from ttr_lab.core.play import play_game
from ttr_lab.core.testing import RandomPlayer
from ttr_lab.games.trans_orient import DeckDataError, Effect, LuggageEffect, available_decks, load_deck
from ttr_lab.games.trans_orient.deck import read_deck

DECKS = Path(str(resources.files("ttr_lab.games.trans_orient.decks")))
STANDIN = DECKS / "standin"
TEMPLATE = DECKS / "template"


@pytest.fixture
def folder(tmp_path):
    """A copy of the stand-in deck to spoil."""
    target = tmp_path / "mydeck"
    shutil.copytree(STANDIN, target)
    return target


def edit(folder: Path, name: str, starts: str, old: str, new: str) -> int:
    """Replace ``old`` by ``new`` in the first line of ``name`` starting with ``starts``; its line number."""
    path = folder / name
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        if line.startswith(starts):
            assert old in line, (old, line)
            lines[i] = line.replace(old, new, 1)
            path.write_text("\n".join(lines) + "\n")
            return i + 1
    raise AssertionError(f"no line of {name} starts with {starts!r}")


def line_of(folder: Path, name: str, starts: str) -> int | None:
    lines = (folder / name).read_text().splitlines()
    return next((i + 1 for i, line in enumerate(lines) if line.startswith(starts)), None)


TRAVEL = "travel.csv"
ALL = "blue, green, yellow, red, purple"
# (file, line start, old, new, expected message with {n} for the edited line and {first} for card 1's line)
CASES = [
    (TRAVEL, "1,", "1 blue", "1 bleu",
     "mydeck/travel.csv line {n}, field cost: cannot read '1 bleu'; write e.g. '2 green + 1 red' "
     f"(colours: {ALL}) or 'free'"),
    (TRAVEL, "2,", "1 blue + 1 yellow", "1 blue + 1 blue", "mydeck/travel.csv line {n}, field cost: blue appears twice"),
    (TRAVEL, "1,", ",1,no,", ",x,no,", "mydeck/travel.csv line {n}, field vp: 'x' is not a whole number"),
    (TRAVEL, "1,", ",1,no,", ",100,no,", "mydeck/travel.csv line {n}, field vp: 100 is out of range (must be from 0 to 99)"),
    (TRAVEL, "1,", ",no,", ",maybe,", "mydeck/travel.csv line {n}, field passport: 'maybe' is not yes or no"),
    (TRAVEL, "1,", ",blue,1 blue", ",orange,1 blue",
     f"mydeck/travel.csv line {{n}}, field colour: 'orange' is not one of {ALL}"),
    (TRAVEL, "2,", ",blue,1 blue", ",green,1 blue",
     "mydeck/travel.csv line {n}, field colour: destination 1 is blue on line {first}, not green"),
    (TRAVEL, "2,", "Western Europe", "Europe",
     "mydeck/travel.csv line {n}, field region: destination 1 is 'Western Europe' on line {first}, not 'Europe'"),
    (TRAVEL, "2,", "2,1,", "2,0,", "mydeck/travel.csv line {n}, field destination: 0 is out of range (must be at least 1)"),
    (TRAVEL, "1,", "discount,blue,", "teleport,blue,",
     "mydeck/travel.csv line {n}, field effect: 'teleport' is not one of none, discount, capacity, luggage, vp_per_colour"),
    (TRAVEL, "1,", "discount,blue,", "discount,,",
     f"mydeck/travel.csv line {{n}}, field effect_colour: a discount effect names a colour ({ALL})"),
    (TRAVEL, "5,", "capacity,,", "capacity,red,",
     "mydeck/travel.csv line {n}, field effect_colour: only discount and vp_per_colour effects name a colour, not capacity"),
    (TRAVEL, "9,", "vp_per_colour,blue,1", "vp_per_colour,blue,",
     "mydeck/travel.csv line {n}, field effect_vp: a whole number is required"),
    (TRAVEL, "2,", "none,,", "none,,2",
     "mydeck/travel.csv line {n}, field effect_vp: only vp_per_colour effects have VP per card, not none"),
    (TRAVEL, "2,", "2,1,", "1,1,", "mydeck/travel.csv line {n}, field card: card 1 is already on line {first}"),
    (TRAVEL, "5,", "5,1,", "73,1,", "mydeck/travel.csv: card numbers must run 1..72 without gaps; 5 is missing"),
    (TRAVEL, "2,", ",none,,", ",none,", "mydeck/travel.csv line {n}: 9 fields, the header has 10"),
    (TRAVEL, "card,", "effect_vp", "effect_points",
     "mydeck/travel.csv line {n}: the header must be card,destination,region,colour,cost,vp,passport,effect,"
     "effect_colour,effect_vp, not card,destination,region,colour,cost,vp,passport,effect,effect_colour,effect_points"),
    ("luggage.csv", "1,", "1,2,no,none,", "1,2,no,none,3",
     "mydeck/luggage.csv line {n}, field effect_vp: only vp_per_luggage and vp_per_passport have VP per item, not none"),
    ("luggage.csv", "11,", "wild_number", "wild_region",
     "mydeck/luggage.csv line {n}, field effect: 'wild_region' is not one of none, vp_per_luggage, vp_per_passport, "
     "wild_number, wild_colour"),
    ("luggage.csv", "7,", "vp_per_luggage,1", "vp_per_luggage,0",
     "mydeck/luggage.csv line {n}, field effect_vp: 0 is out of range (must be from 1 to 20)"),
    ("objectives.csv", "7,", "season,combination", "season,threshold",
     "mydeck/objectives.csv line {n}, field scoring: a season objective scores by combination, not threshold"),
    ("objectives.csv", "1,", "visa,threshold,2", "visa,combination,2",
     "mydeck/objectives.csv line {n}, field scoring: a visa objective scores by threshold or rank, not combination"),
    ("objectives.csv", "1,visa,threshold,4", "visa,threshold", "route,threshold",
     "mydeck/objectives.csv line {n}, field type: objective 1 is visa/threshold on line {first}; all its rows must agree"),
    ("objectives.csv", "1,visa,threshold,4", "threshold,4", "threshold,2",
     "mydeck/objectives.csv line {n}, field requirement: objective 1 already has threshold 2"),
    ("objectives.csv", "4,visa,rank,2", "rank,2", "rank,3",
     "mydeck/objectives.csv line {n}, field requirement: objective 4's ranks must be listed 1, 2, 3 in order; "
     "expected 2, got 3"),
    ("objectives.csv", "8,", "1 blue + 1 green + 1 yellow", "free",
     "mydeck/objectives.csv line {n}, field requirement: a combination needs at least one colour"),
    ("objectives.csv", "1,visa,threshold,2", "2,3", "2,lots",
     "mydeck/objectives.csv line {n}, field vp: 'lots' is not a whole number"),
    ("deck.toml", "colours", '"purple"]', '"blue"]', "mydeck/deck.toml, field colours: the 5 names must differ"),
    ("deck.toml", "colours", ', "purple"]', "]",
     "mydeck/deck.toml, field colours: a list of 5 colour names (letters only) is required"),
    ("deck.toml", "name", '"standin"', '""', "mydeck/deck.toml, field name: a non-empty text is required"),
    ("deck.toml", "status", "status", "state", "mydeck/deck.toml, field status: a non-empty text is required"),
]


@pytest.mark.parametrize("name,starts,old,new,message", CASES, ids=[f"{c[0]}:{c[4][len('mydeck/'):60]}" for c in CASES])
def test_a_mistake_gives_one_line_naming_file_line_and_field(folder, name, starts, old, new, message):
    first = line_of(folder, name, "1,")
    n = edit(folder, name, starts, old, new)
    with pytest.raises(DeckDataError) as info:
        read_deck(folder, "mydeck")
    text = str(info.value)
    assert text == message.format(n=n, first=first)
    assert "\n" not in text


def test_whole_file_mistakes(folder):
    (folder / "luggage.csv").unlink()
    with pytest.raises(DeckDataError, match="^mydeck: missing luggage.csv$"):
        read_deck(folder, "mydeck")
    shutil.copy(STANDIN / "luggage.csv", folder / "luggage.csv")
    lines = (folder / "objectives.csv").read_text().splitlines()
    (folder / "objectives.csv").write_text("\n".join(line for line in lines if ",route," not in line) + "\n")
    with pytest.raises(DeckDataError, match=r"^mydeck/objectives.csv: no route objective \(setup draws one of each type\)$"):
        read_deck(folder, "mydeck")
    shutil.copy(STANDIN / "objectives.csv", folder / "objectives.csv")
    lines = (folder / TRAVEL).read_text().splitlines()
    (folder / TRAVEL).write_text("\n".join(lines[:lines.index(next(x for x in lines if x.startswith("card,"))) + 6]) + "\n")
    with pytest.raises(DeckDataError, match=r"^mydeck/travel.csv: 5 travel cards; setup needs at least 10"):
        read_deck(folder, "mydeck")
    (folder / TRAVEL).write_text("# only a comment\n")
    with pytest.raises(DeckDataError, match="^mydeck/travel.csv: no header line"):
        read_deck(folder, "mydeck")
    (folder / "deck.toml").write_text("[deck\nname=")
    with pytest.raises(DeckDataError, match="^mydeck/deck.toml: not valid TOML"):
        read_deck(folder, "mydeck")


def test_the_standin_says_everywhere_that_it_is_not_the_published_deck():
    assert available_decks() == ["standin"]
    for name in ("deck.toml", "travel.csv", "luggage.csv", "objectives.csv"):
        head = (STANDIN / name).read_text().splitlines()[0]
        assert "STAND-IN DECK" in head and "NOT the published" in head, name


def test_the_template_has_every_field_and_its_examples_make_a_valid_deck(tmp_path):
    """Uncommented, the template's example rows (plus stand-in travel cards 6-72, to reach a
    playable count) load; every effect and objective kind appears in them."""
    target = tmp_path / "transcribed"
    target.mkdir()
    for name in ("deck.toml", "luggage.csv", "objectives.csv"):
        (target / name).write_text((TEMPLATE / name).read_text().replace("#> ", ""))
    travel = (TEMPLATE / TRAVEL).read_text().replace("#> ", "")
    rest = [line for line in (STANDIN / TRAVEL).read_text().splitlines()
            if line[:1].isdigit() and int(line.split(",")[0]) > 5]
    (target / TRAVEL).write_text(travel + "\n".join(rest) + "\n")
    deck = load_deck(str(target))
    assert deck.name == "published" and deck.status == "published"
    assert {c.effect for c in deck.travel[:5]} == set(Effect)
    assert {c.effect for c in deck.luggage} == set(LuggageEffect)
    assert {(o.type, o.scoring) for o in deck.objectives} == {(o.type, o.scoring) for o in load_deck().objectives}
    game = load_game("trans_orient", deck=str(target))
    assert game.options == {"deck": str(target)} and game.variant == "published"
    record = play_game(game, [RandomPlayer(), RandomPlayer()], 3)
    assert record.options == {"deck": str(target)}
    assert record.replay().result().to_dict() == record.result
    with pytest.raises(DeckDataError, match="^template/travel.csv: 0 travel cards"):
        load_deck(str(TEMPLATE))


def test_unknown_decks_are_refused_with_the_list_of_decks():
    with pytest.raises(DeckDataError, match=r"^unknown deck 'nope'; decks: standin \(or a folder path\)$"):
        load_game("trans_orient", deck="nope")
    with pytest.raises(DeckDataError, match="^unknown deck 'template'"):
        load_game("trans_orient", deck="template")
    with pytest.raises(DeckDataError, match="^deck folder '/no/such/deck' does not exist$"):
        load_game("trans_orient", deck="/no/such/deck")
