"""``python -m ttr_lab.cli``: the same as the ``ttr-lab`` command."""

from ttr_lab.cli import app

if __name__ == "__main__":
    app()
