"""Strategies for Trans-Orient Express (``ttr_lab.games.trans_orient``): ``greedy``, ``planner``
and ``mcts``; the shipped ``random`` plays any game. Registered per game in ``strategies/shipped.py``."""
