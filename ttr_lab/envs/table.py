"""``Table``: one game in progress as learners see it, shared by the PettingZoo and the
Gymnasium environments (they differ only in who chooses the actions).

It turns the engine's values into what RL libraries expect: an action id in and out
(``game.action_space``), the observation tensor (``game.observation_tensor``), an int8 legal
mask, and rewards at the end of the game (``reward="rank"``: the state's ``returns()``, the
win share, 1 for a sole win, 1/k each for k tied winners, else 0; ``reward="margin"``: own score minus the best opponent's,
in points). An illegal action id ends the game as a forfeit by that seat: it gets
``illegal_reward`` and the others 0 (a learner that follows the mask never meets it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ttr_lab.core.errors import ConfigError, IllegalActionError
from ttr_lab.core.game import Game, State, TensorGame, default_game, has_tensor, load_game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.rng import STRATEGY_KEY, derive_seed

REWARDS = ("rank", "margin")


def check_ids(actions: Any, shape: tuple[int, ...] = ()) -> None:
    """The one rule for what every env takes as actions: integers in an array of ``shape`` (``()``
    for one action: an int, a numpy integer or a 0-d integer array), whatever their values (an id
    that is not legal is the mover's forfeit, not an error). A bool, a float (even 11.0: it is
    never truncated into another action), a string, None or another shape is a one-line
    ``ConfigError``: a policy that returns such a thing is broken, not playing a bad move."""
    if not shape and isinstance(actions, (int, np.integer)) and not isinstance(actions, bool):
        return  # the common case, without building an array
    try:
        a = np.asarray(actions)
    except ValueError:  # a ragged list
        a = np.asarray(None)
    if a.shape == shape and np.issubdtype(a.dtype, np.integer):
        return
    wanted = ("an action must be one integer id (an int, a numpy integer or a 0-d integer array)" if not shape
              else f"actions must be {shape[0]} integer ids (an integer array of shape {shape})")
    shown = " ".join(repr(actions).split())  # an array's repr spans lines
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    if isinstance(actions, (np.ndarray, list, tuple)) and a.dtype != object:
        what = f"shape {a.shape}, dtype {a.dtype}"
    else:
        what = type(actions).__name__
    raise ConfigError(f"{wanted}, not {shown} ({what})")


def make_game(game: str | Game | None, options: dict[str, Any], players: int) -> TensorGame:
    """The game by name with its options (None: the games catalogue's house game), checked
    against ``players``."""
    if game is None:
        game = default_game()
    built = load_game(game, **options) if isinstance(game, str) else load_game(game)
    if not has_tensor(built):
        raise ConfigError(f"game {built.name!r} has no observation tensor: it cannot be an RL environment")
    if isinstance(players, bool) or not isinstance(players, int) or not built.min_players <= players <= built.max_players:
        raise ConfigError(f"{built.title} is for {built.min_players}-{built.max_players} players, not {players!r}")
    return built


class Table:
    """A seeded game, its action ids, masks, tensors, rewards and drawings."""

    def __init__(self, game: TensorGame, players: int, reward: str = "rank", illegal_reward: float = -1.0) -> None:
        if reward not in REWARDS:
            raise ConfigError(f"reward {reward!r} is not one of {', '.join(REWARDS)}")
        self.game = game
        self.players = players
        self.reward = reward
        self.illegal_reward = float(illegal_reward)
        self.space = game.action_space
        self.size = self.space.size
        self.shape = tuple(game.observation_shape)
        # A writer per seat, when the game has them: the tensor of ``state.observation(seat)``
        # (the tests check) without building the Observation, rewriting only what changed.
        writer = getattr(game, "tensor_writer", None)
        self._writers = [writer(seat) for seat in range(players)] if writer is not None else None
        self._no_actions = bytes(self.size)
        self._state: State | None = None
        self.seed = 0
        self.actions: list[tuple[int, Any]] = []  # (seat, action): text only when rendered
        self.forfeit_by: int | None = None

    def new_game(self, seed: int) -> None:
        self.seed = int(seed)
        self._state = self.game.new_game(self.players, self.seed)
        self.actions = []
        self.forfeit_by = None

    @property
    def state(self) -> State:
        """The game in progress (there is one once ``new_game`` has dealt it)."""
        if self._state is None:
            raise RuntimeError("no game dealt yet: call new_game(seed) first")
        return self._state

    @property
    def over(self) -> bool:
        return self.forfeit_by is not None or self.state.is_terminal()

    @property
    def dealt(self) -> bool:
        """Whether a game has been dealt (the env was reset)."""
        return self._state is not None

    @property
    def to_move(self) -> int:
        return self.state.current_player

    def tensor(self, seat: int) -> np.ndarray:
        """The seat's observation tensor."""
        if self._writers is not None:
            return self._writers[seat](self.state)
        return self.game.observation_tensor(self.state.observation(seat))

    def mask(self, seat: int) -> np.ndarray:
        """int8, 1 at the ids of the legal actions when ``seat`` is to move, else all 0."""
        out = bytearray(self._no_actions)  # a byte loop beats numpy's fancy indexing at these sizes
        state = self.state
        if seat == state.current_player and self.forfeit_by is None and not state.is_terminal():
            for i in self.space.ids(state.legal_actions()):
                out[i] = 1
        return np.frombuffer(out, dtype=np.int8)

    def apply_id(self, action_id: Any) -> bool:
        """Plays the action with this id for the player to move; False (and a forfeit) if it is
        not a legal action id here. What is not an integer id at all is refused (``check_ids``)."""
        check_ids(action_id)
        seat = self.state.current_player
        try:
            action = self.space.action_of(action_id)
        except IllegalActionError:  # an integer, not an id of this game
            self.forfeit_by = seat
            return False
        try:
            self.state.apply(action)
        except IllegalActionError:  # an id of the game, not legal here
            self.forfeit_by = seat
            return False
        self.actions.append((seat, action))
        return True

    def apply(self, action: Any) -> None:
        """Plays an action value (an opponent strategy's choice)."""
        seat = self.state.current_player
        self.state.apply(action)
        self.actions.append((seat, action))

    def rewards(self) -> list[float]:
        """Each seat's reward for the finished game (see the module docstring)."""
        n = self.players
        if self.forfeit_by is not None:
            return [self.illegal_reward if s == self.forfeit_by else 0.0 for s in range(n)]
        if self.reward == "rank":
            return [float(x) for x in self.state.returns()]
        scores = [float(p.score or 0) for p in self.state.outcome().players]  # None only in a forfeit, handled above
        return [scores[s] - max(scores[:s] + scores[s + 1:]) for s in range(n)]

    def strategy_rng_seed(self, seat: int) -> int:
        """The seed of a seat's ``random.Random``, as ``play_game`` derives it."""
        return derive_seed(self.seed, STRATEGY_KEY, seat)

    # -- rendering ----------------------------------------------------------------------------

    def render_text(self, names: list[str]) -> str:
        record = GameRecord(game=self.game.name, options=self.game.options, num_players=self.players,
                            seed=self.seed, strategies=tuple(names),
                            actions=tuple((p, str(a)) for p, a in self.actions), result={})
        text = self.game.views.describe_state(self.state, record, len(self.actions))
        if self.forfeit_by is not None:
            text += f"\n  seat {self.forfeit_by} forfeited with an illegal action id"
        return text

    def render_rgb(self, names: list[str]) -> np.ndarray:
        views = self.game.views
        if not views.offers("draw_state"):
            raise ConfigError(f"{self.game.title} has no drawing: render_mode='rgb_array' is not available")
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        canvas = FigureCanvasAgg(views.draw_state(self.state, names))  # a bare Figure: no pyplot, no GUI
        canvas.draw()
        return np.asarray(canvas.buffer_rgba())[..., :3].copy()
