"""Ticket to Ride's searches: one budget (``ttr_lab.strategies.limit.Limit``), one result
(``result.SearchResult``), the shared parts in modules of their own (``root``: the root's moves and
their prior; ``leaf``: the play-outs below them), and the algorithms as sibling modules named after
their registered names (``mcts``, ``mcts_tree``, ``mcts_halving``) that never import each other
(an import-linter contract in pyproject.toml says so). Presets of them are data (``presets``).
"""
