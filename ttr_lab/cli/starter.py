"""``ttr-lab init DIR``: the example configs and notebooks copied into a folder of the user's, from
a checkout or from a wheel install (which puts them under ``PREFIX/share/ttr-lab``)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import typer

from ttr_lab.cli.console import fail
from ttr_lab.core.errors import ConfigError

_KINDS = {"configs": "**/*.yaml", "notebooks": "*.ipynb"}  # configs: in folders by command


def examples_folder() -> Path:
    """Where the shipped configs and notebooks are: the checkout's root, else the install's share folder."""
    checkout = Path(__file__).resolve().parents[2]
    candidates = [checkout, Path(sys.prefix) / "share" / "ttr-lab", Path(sys.base_prefix) / "share" / "ttr-lab"]
    for folder in candidates:
        if (folder / "configs").is_dir():
            return folder
    raise ConfigError("the example configs are not installed (looked in " + ", ".join(map(str, candidates)) + ")")


def copy_examples(target: Path) -> list[Path]:
    """Copy the configs and notebooks into ``target/configs`` and ``target/notebooks``; refuse to
    write over a file that is already there. The notebooks find the configs as ``../configs``."""
    source = examples_folder()
    pairs = [(path, target / kind / path.relative_to(source / kind)) for kind, pattern in _KINDS.items()
             for path in sorted((source / kind).glob(pattern))]
    clashes = [str(dest) for _, dest in pairs if dest.exists()]
    if clashes:
        raise ConfigError(f"{target}: would write over {', '.join(clashes)}; give a new or empty folder")
    for path, dest in pairs:
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
    return [dest for _, dest in pairs]


def init(
    folder: Path = typer.Argument(..., help="The folder to write into (created if it does not exist)."),
) -> None:
    """Start a project folder: the example tournament and tuning configs, and the notebooks."""
    try:
        written = copy_examples(folder)
    except (ConfigError, OSError) as exc:
        fail(exc)
    typer.echo(f"wrote {len(written)} files into {folder}/configs and {folder}/notebooks; try:")
    typer.echo(f"  cd {folder} && ttr-lab tournament configs/smoke.yaml")
