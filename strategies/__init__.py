"""The shipped strategies: a folder per game (``ticket_to_ride/``, ``trans_orient/``) and, at the
top, what plays any game (``random``, ``policy``, the one ``search``); their registered names are
in ``strategies/shipped.py``."""

if __name__ == "strategies":
    # This folder on the path (a source checkout's root) under its old import name: the shipped
    # strategies are one package, ttr_lab.strategies, never a second copy named strategies.
    raise ImportError("the shipped strategies are ttr_lab.strategies now (strategies.x is ttr_lab.strategies.x; "
                      "strategies.registry is ttr_lab.core.registry)", name="strategies")
