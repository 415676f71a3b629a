"""Writes ``layout_constants.py`` from the declarations of ``layout.py`` (``--check``: only says
whether it is up to date, exit status 1 when not).

    python -m ttr_lab.games.ticket_to_ride.kernels.regenerate [--check]

Run it right after editing a declaration and before a module imports a new name by itself
(``from ...kernels.layout import S_BONUS``): the package must import for this to run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ttr_lab.games.ticket_to_ride.kernels.layout import constants_source

TARGET = Path(__file__).with_name("layout_constants.py")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ttr_lab.games.ticket_to_ride.kernels.regenerate",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the file is up to date")
    args = parser.parse_args(argv)
    wanted = constants_source()
    current = TARGET.read_text() if TARGET.exists() else ""
    if args.check:
        if current != wanted:
            print(f"{TARGET.name} differs from the declarations in layout.py: run without --check to rewrite it",
                  file=sys.stderr)
            return 1
        return 0
    if current != wanted:
        TARGET.write_text(wanted)
        print(f"wrote {TARGET.name}")
    else:
        print(f"{TARGET.name} is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
