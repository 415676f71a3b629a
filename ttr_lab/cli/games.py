"""Commands about single games and strategies: ``play``, ``replay``, ``strategies``, ``maps``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional, Tuple

import typer

from ttr_lab.cli.console import fail
from ttr_lab.core.errors import ConfigError, TTRLabError

if TYPE_CHECKING:
    from ttr_lab.core.registry import StrategySpec

_GAME_HELP = "Game name; ttr-lab games lists them."


def chosen_game(game: Optional[str], map_name: Optional[str]) -> str:
    """The game ``--game`` names; without it, the game declaring the ``map`` shorthand when
    ``--map`` is given, else the games catalogue's house game."""
    from ttr_lab.core.game import game_for_shorthands

    if game is not None:
        return game  # load_game names an unknown game, or an option the game does not take
    try:
        return game_for_shorthands(game, ["map"] if map_name is not None else [])
    except ConfigError as exc:
        raise ConfigError(f"--{exc}") from None


def game_options(game: str, map_name: Optional[str], option: List[str]) -> dict[str, Any]:
    """The options ``load_game`` gets from ``--map`` (the ``map`` config shorthand, for a game
    that declares it; without it, the game's own default) and ``--option key=value`` (values
    read as YAML: numbers and lists come out typed)."""
    import yaml

    from ttr_lab.core.game import config_shorthands, fold_shorthands

    # No default map here: the game has its own, and an option the user did not give must not
    # appear in an error about the ones they did.
    options: dict[str, Any] = {}
    if map_name is not None:
        # A game without the shorthand gets it as written, and load_game refuses it by name.
        options = fold_shorthands(game, {"map": map_name}, {}) if "map" in config_shorthands(game) else {"map": map_name}
    for item in option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--option takes key=value, not {item!r}")
        try:
            options[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError:
            raise ConfigError(f"--option {key.strip()}: cannot read the value {value!r}") from None
    return options


def seat_specs(values: List[str]) -> list[StrategySpec]:
    """``--strategy`` values as specs: ``NAME`` or ``NAME:key=value,key=value`` per seat, seats
    separated by commas or given by repeating the option (``-s mcts:steps=2000,c=1.4 -s random``).

    A comma-separated piece with ``=`` and no ``:`` is one more parameter of the seat before it;
    ``NAME`` may be ``module:Class`` (its parameters then follow a second colon)."""
    import yaml

    from ttr_lab.core.registry import StrategySpec

    seats: list[tuple[str, dict[str, Any]]] = []
    for value in values:
        for piece in (p.strip() for p in value.split(",")):
            if not piece:
                continue
            if "=" in piece and ":" not in piece:
                if not seats:
                    raise ConfigError(f"--strategy {value!r}: the parameter {piece!r} comes before any strategy name")
                seats[-1][1].update(_parameter(piece, value, yaml))
                continue
            parts = piece.split(":")
            name = ":".join(p for p in parts if "=" not in p and p.strip())
            params: dict[str, Any] = {}
            for part in (p for p in parts if "=" in p):
                params.update(_parameter(part, value, yaml))
            if not name:
                raise ConfigError(f"--strategy {value!r}: no strategy name before {piece!r}")
            seats.append((name, params))
    return [StrategySpec(strategy=name, params=params) for name, params in seats]


def _parameter(text: str, value: str, yaml: Any) -> dict[str, Any]:
    key, _, raw = text.partition("=")
    if not key.strip():
        raise ConfigError(f"--strategy {value!r}: {text!r} is not key=value")
    try:
        return {key.strip(): yaml.safe_load(raw)}
    except yaml.YAMLError:
        raise ConfigError(f"--strategy {value!r}: cannot read the value of {key.strip()!r}") from None


def build_seats(values: List[str], players: int, game: str) -> list[Any]:
    """One fresh strategy per seat from ``--strategy`` values: one for every seat, or one per seat."""
    specs = seat_specs(values)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ConfigError(f"{len(specs)} strategies given for {players} players; give one, or one per seat")
    return [spec.factory(game)() for spec in specs]


def _check_folder(path: Optional[Path], option: str) -> None:
    """Refuse an output path whose folder does not exist before any work is done."""
    if path is not None and not path.parent.is_dir():
        raise ConfigError(f"{option} {path}: the folder {path.parent} does not exist")


def play(
    players: int = typer.Option(4, "--players", "-p", help="Number of players."),
    strategy: List[str] = typer.Option(["random"], "--strategy", "-s", metavar="NAME[:KEY=VALUE,...]",
                                       help="Strategy per seat (repeat, or one for all seats), with parameters "
                                       "after a colon, e.g. -s mcts:steps=2000 -s random."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Game seed (default 0; with --human a fresh one, printed)."),
    game_name: Optional[str] = typer.Option(None, "--game", "-g", help=_GAME_HELP + " Default: the house game."),
    map_name: Optional[str] = typer.Option(None, "--map", help="The map, for a game with maps: a name or a map folder (default: the game's)."),
    option: List[str] = typer.Option([], "--option", "-o", help="A game option key=value (repeat), e.g. -o deck=standin."),
    record: Optional[Path] = typer.Option(None, "--record", help="Save the game record (JSON) here (with --human, "
                                          "by default game-DATE-TIME.json here)."),
    human: Optional[str] = typer.Option(None, "--human", metavar="SEATS", help="Play yourself at these seats (e.g. 0, "
                                        "or 0,2 to take turns at one terminal); -s then gives the other seats."),
    think: float = typer.Option(5.0, "--think", help="With --human: seconds an AI seat that searches by the clock "
                                "(mcts) thinks per decision."),
) -> None:
    """Play one game and print a summary: ranks, score parts, scores. With --human, play it yourself against the AI."""
    from ttr_lab.cli.record_path import generated_name, record_target, save_record
    from ttr_lab.cli.summary import print_game_summary
    from ttr_lab.core.game import load_game
    from ttr_lab.core.play import play_game

    try:
        if human is not None and record is None:
            record = generated_name(Path("."))
        record = record_target(record, typer.echo)
        name = chosen_game(game_name, map_name)
        game = load_game(name, **game_options(name, map_name, option))
        if human is not None:
            seed, record, seats = _human_table(game, human, strategy, players, seed, record, think)
        else:
            seats = build_seats(strategy, players, game.name)  # a game's own names first
        rec = play_game(game, seats, 0 if seed is None else seed)
    except TTRLabError as exc:
        fail(exc)
    except KeyboardInterrupt as exc:  # a person left the table
        from ttr_lab.human.seats import Quit

        if isinstance(exc, Quit):  # their choice, not an error; a record is a whole game, so none is written
            typer.echo(f"{exc}: the game ended there, unfinished, and no record was saved (a record is a whole game)")
            raise typer.Exit(code=0) from None
        fail(ValueError(str(exc) or "interrupted"))
    print_game_summary(game, rec)
    if record is not None:
        saved = save_record(rec, record, lambda line: typer.echo(f"error: {line}", err=True))
        if saved != record:
            raise typer.Exit(code=1)  # the game is kept (where the line says), not where it was asked
        typer.echo(f"record saved to {record}")


def _human_table(game: Any, human: str, strategy: List[str], players: int, seed: Optional[int], record: Optional[Path],
                 think: float) -> tuple[int, Optional[Path], list[Any]]:
    """The seed, the record's path and the seats of a game with people at the terminal."""
    import secrets
    import sys

    from ttr_lab.human.seats import ai_specs, human_seats, timed
    from ttr_lab.human.terminal import Terminal, TerminalSeat

    if not think > 0:
        raise ConfigError(f"--think is a number of seconds above 0, not {think}")
    people = human_seats(human, players)
    others = ai_specs(seat_specs(strategy), people, players)
    names = ["human" if s in people else others[s].label for s in range(players)]
    terminal = Terminal(sys.stdin, sys.stdout, names)
    seats = [TerminalSeat(game, s, terminal) if s in people else timed(others[s], game.name, think) for s in range(players)]
    seed = secrets.randbelow(2**31) if seed is None else seed
    typer.echo(f"{game.title}, {players} players, seed {seed}: you are seat {', '.join(map(str, people))}; "
               f"the game will be saved to {record}")
    return seed, record, seats


def replay(
    record: Path = typer.Argument(..., help="A game record (JSON), e.g. from ttr-lab play --record; or a "
                                           "tournament's results folder, with --game."),
    game_id: Optional[str] = typer.Option(None, "--game", help="With a results folder: the game to replay (its "
                                          "game_id, as the report's Upsets table lists them), or 'upset' for the "
                                          "biggest upset."),
    turn: Optional[int] = typer.Option(None, "--turn", help="Show the state after this many turns (default: the end)."),
    action: Optional[int] = typer.Option(None, "--action", help="Or after this many actions."),
    picture: Optional[Path] = typer.Option(None, "--picture", help="Save the board (PNG or SVG) here."),
    html_page: Optional[Path] = typer.Option(None, "--html", help="Write the whole game as one offline HTML viewer here."),
) -> None:
    """Replay a recorded game (of any game; a tournament's with RESULTS_DIR --game GAME_ID) to a turn: scores, hands, the last actions, and a picture."""
    from ttr_lab.core.record import GameRecord

    try:
        _check_folder(picture, "--picture")
        _check_folder(html_page, "--html")
    except TTRLabError as exc:
        fail(exc)
    try:
        if record.is_dir() or game_id is not None:
            from ttr_lab.analysis.records import stored_game

            if game_id is None:
                raise ConfigError("it is a folder: name the game to replay with --game GAME_ID (or --game upset)")
            game_id, rec = stored_game(record, game_id)
            typer.echo(f"game {game_id} of {record}")
        else:
            rec = GameRecord.load(record)
        game = rec.load_game()
        state, index = rec.state_at(turn=turn, action=action)
        views = game.views
        if picture is not None and not views.offers("draw_state"):
            raise ConfigError(f"{game.title} has no board picture (--picture)")
        if html_page is not None and not views.offers("replay_page"):
            raise ConfigError(f"{game.title} has no HTML replay viewer (--html)")
    except (OSError, ValueError) as exc:
        fail(ValueError(f"cannot replay {record}: {exc}"))
    except TTRLabError as exc:
        fail(exc)
    typer.echo(views.describe_state(state, rec, index))
    if rec.cut_short(state, index):
        typer.echo(f"note: the record is cut short: its {index} actions end before the game does"
                   + (" (the result stored in it is not this position's)" if rec.result else "")
                   + "; shown as of its last action, not finished", err=True)
    if picture is not None:
        views.draw_state(state, names=rec.strategies).savefig(picture, dpi=120)
        typer.echo(f"board picture saved to {picture}")
    if html_page is not None:
        try:
            html_page.write_text(views.replay_page(rec), encoding="utf-8")
        except OSError as exc:
            fail(ValueError(f"cannot write {html_page}: {exc.strerror or exc}"))
        typer.echo(f"replay viewer saved to {html_page} (open it in a browser; add #turn=N to the address to start there)")


def _plain(text: str) -> str:
    """A docstring line as plain text: no reStructuredText backticks (``x`` and `x` become x)."""
    return text.replace("``", "").replace("`", "")


def first_sentence(doc: str) -> str:
    """A docstring's first sentence, whole: its first line alone cut some mid-sentence (a summary
    that runs over two lines). Read from the first paragraph, up to a full stop before a capital
    or the paragraph's end."""
    import re

    paragraph = " ".join(doc.strip().split("\n\n")[0].split())
    found = re.match(r"(.+?[.!?])(?=\s+[A-Z(`]|$)", paragraph)
    return found[1] if found else paragraph


def games() -> None:
    """List the registered games and the options each takes (ttr-lab play --game NAME -o KEY=VALUE)."""
    import inspect

    from ttr_lab.core.game import available_games, load_game

    for name in available_games():
        try:
            game = load_game(name)
        except TTRLabError as exc:  # a plug-in game that needs options: list it all the same
            typer.echo(f"{name:20s} (needs options: {exc})")
            continue
        typer.echo(f"{name:20s} {game.title}")
        try:
            params = list(inspect.signature(type(game)).parameters.values())
        except (TypeError, ValueError):
            continue
        described = ", ".join(p.name if p.default is p.empty else f"{p.name} = {p.default!r}" for p in params)
        typer.echo(f"{'':20s} options: {described or 'none'}")


def strategies(
    game_name: Optional[str] = typer.Option(None, "--game", "-g", help="List this game's own strategies (ttr-lab games lists the games)."),
) -> None:
    """List the registered strategies and their tunable parameters."""
    import sys

    from ttr_lab.core.game import available_games
    from ttr_lab.core.registry import describe_parameters, game_strategies, resolve
    from ttr_lab.tuning.space import documented_ranges

    # Each game's own names (a name may be a different player in each game).
    listed = [(game_name, game_strategies(game_name))] if game_name else [(g, game_strategies(g)) for g in available_games()]
    for game, names in listed:
        if not game_name:
            typer.echo(f"{game}:")
        for name in names:
            cls = resolve(name, game)
            doc = cls.__doc__ or sys.modules[cls.__module__].__doc__ or ""
            typer.echo(f"{name:20s} {_plain(first_sentence(doc))}")
            typer.echo(f"{'':20s} parameters: {describe_parameters(cls)}")
            ranges = documented_ranges(cls)
            if ranges:
                typer.echo(f"{'':20s} worth tuning: {_plain('; '.join(r.describe() for r in ranges.values()))}")


def maps(
    game_name: Optional[str] = typer.Option(None, "--game", "-g", help="Only this game's variants."),
    copy: Optional[Tuple[str, Path]] = typer.Option(None, "--copy", metavar="NAME DIR",
                                                    help="Copy the shipped variant NAME's folder to DIR, to start a new one."),
) -> None:
    """List each game's shipped variants (maps, decks), where their data folders are, and how to start a new one (--copy)."""
    import shutil

    from ttr_lab.core.game import available_games, load_game

    try:
        names = [game_name] if game_name else available_games()
        shipped = []  # (game, option, variant, folder)
        for name in names:
            game = load_game(name)
            hook = getattr(game, "data_folders", None)  # a game without data folders has nothing to list
            if hook is None:
                if copy is None:
                    typer.echo(f"{name} ({game.title}): no data folders (its variants are options only)")
                continue
            option, folders, how = hook()
            if copy is None:
                typer.echo(f"{name} ({game.title}), variants by {option}:")
                for variant, folder in folders:
                    typer.echo(f"  {variant:16s} {folder}")
                typer.echo(f"  new one: {how}")
            shipped += [(name, option, variant, folder) for variant, folder in folders]
        if copy is None:
            return
        source, target = copy
        found = [s for s in shipped if s[2] == source]
        if not found:
            raise ConfigError(f"--copy: no shipped variant {source!r}; shipped: {', '.join(s[2] for s in shipped)}")
        if len(found) > 1:
            raise ConfigError(f"--copy: {source!r} is a variant of {', '.join(s[0] for s in found)}; choose with --game")
        if target.exists():
            raise ConfigError(f"--copy: {target} already exists (give a new folder)")
        if not target.parent.is_dir():
            raise ConfigError(f"--copy: the folder {target.parent} does not exist")
        name, option, _, folder = found[0]
        shutil.copytree(folder, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    except TTRLabError as exc:
        fail(exc)
    except OSError as exc:
        fail(ConfigError(f"--copy: cannot copy to {target}: {exc.strerror or exc}"))
    typer.echo(f"copied {source} ({name}) to {target}; edit its files, then play it with {option}={target} "
               f"(ttr-lab play --game {name} -o {option}={target})")
