"""India where a person meets it: the command line's play and tournament, and the browser's list
of games (both read the game's shipped variants, so the map is there without a list to edit)."""

from __future__ import annotations

from typer.testing import CliRunner

from ttr_lab.cli import app


def test_cli_play_india_shows_the_grand_tour_column():
    india = CliRunner().invoke(app, ["play", "--map", "india", "-p", "3", "--seed", "2"])
    usa = CliRunner().invoke(app, ["play", "-p", "3", "--seed", "2"])
    assert india.exit_code == usa.exit_code == 0, india.output
    assert "Ticket to Ride: India" in india.output and "grand tour" in india.output and "longest" in india.output
    assert "grand tour" not in usa.output


def test_cli_play_india_with_five_players_refused_in_one_line():
    result = CliRunner().invoke(app, ["play", "--map", "india", "-p", "5", "--seed", "2"])
    assert result.exit_code == 2
    assert result.output.strip() == "error: the india map is for 2-4 players, not 5"


def test_a_five_player_india_tournament_refused_in_one_line(tmp_path):
    config = tmp_path / "india-5p.yaml"
    entrants = "".join(f"  - {{name: s{i}, strategy: random}}\n" for i in range(5))
    config.write_text(f"name: india-5p\nmap: india\nplayers: 5\nentrants:\n{entrants}games: 5\nseed: 1\n"
                      f"output: {tmp_path / 'out'}\nbackend: serial\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["tournament", str(config), "--no-progress", "--no-report"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "India is for 2-4 players, not 5" in result.output
    assert not (tmp_path / "out").exists()


def test_the_browser_offers_india():
    from ttr_lab.human.server import shipped_variants

    india = [v for v in shipped_variants() if v.options == {"map": "india"}]
    assert [(v.game, v.label) for v in india] == [("ticket_to_ride", "Ticket to Ride: India")]
