"""High card, a tiny trick game with hidden hands and a shuffled deck.

Cards 1 to 12 are shuffled; each player is dealt three, face down. Three tricks follow: the
trick's leader plays a card face up, then each other player in seat order; the highest card
takes the trick, and its player leads the next. A trick is a point; the most points win (ties
share). The unseen rest of the deck stays hidden from everyone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from ttr_lab.core.actions import ActionSpace
from ttr_lab.core.errors import ConfigError, IllegalActionError
from ttr_lab.core.outcome import Metric, Outcome, PlayerOutcome, Termination
from ttr_lab.core.views import GameViews

CARDS, HAND, MAX_PLAYERS = 12, 3, 4


@dataclass(frozen=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


ACTIONS = tuple(Play(c) for c in range(1, CARDS + 1))


@dataclass(frozen=True)
class Observation:
    player: int
    num_players: int
    current_player: int  # -1 once over
    hand: tuple[int, ...]
    trick: tuple[int, ...]  # cards on the table, in the order played
    leader: int
    seen: tuple[int, ...]  # every card played so far, sorted
    points: tuple[int, ...]
    log: tuple[tuple[int, int], ...]  # (player, card) of every play


class HighCardViews(GameViews):
    score_parts = ("tricks",)


class HighCard:
    name = "high_card"
    min_players = 2
    max_players = MAX_PLAYERS
    title = "High card"
    variant = "standard"
    options: dict[str, Any] = {}
    metrics = (Metric("tricks", "tricks taken"), Metric("best_card", "the highest card dealt to the player"))
    action_space = ActionSpace(ACTIONS, "High card")
    observation_shape = (3 * CARDS + 2 * MAX_PLAYERS,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HighCard)

    def __hash__(self) -> int:
        return hash(self.name)

    def new_game(self, num_players: int, seed: int) -> "HighCardState":
        if not self.min_players <= num_players <= self.max_players:
            raise ConfigError(f"high card is for 2-{MAX_PLAYERS} players, not {num_players}")
        deck = list(range(1, CARDS + 1))
        random.Random(seed).shuffle(deck)
        hands = [tuple(sorted(deck[p * HAND:(p + 1) * HAND])) for p in range(num_players)]
        return HighCardState(hands, tuple(deck[num_players * HAND:]), [], 0, [0] * num_players, [])

    def parse_action(self, text: str) -> Play:
        word, _, number = text.partition(" ")
        if word != "play" or not number.isdigit() or not 1 <= int(number) <= CARDS:
            raise IllegalActionError(f"{text!r} is not 'play N' with N from 1 to {CARDS}")
        return ACTIONS[int(number) - 1]

    def determinize(self, observation: Observation, rng: random.Random) -> "HighCardState":
        obs = observation
        unseen = sorted(set(range(1, CARDS + 1)) - set(obs.hand) - set(obs.seen))
        rng.shuffle(unseen)
        played = [sum(1 for p, _ in obs.log if p == q) for q in range(obs.num_players)]
        hands = []
        for q in range(obs.num_players):
            if q == obs.player:
                hands.append(obs.hand)
            else:
                size = HAND - played[q]
                hands.append(tuple(sorted(unseen[:size])))
                unseen = unseen[size:]
        return HighCardState(hands, tuple(unseen), list(obs.trick), obs.leader, list(obs.points), list(obs.log))

    def restore(self, snapshot: dict[str, Any]) -> "HighCardState":
        s = snapshot
        return HighCardState([tuple(h) for h in s["hands"]], tuple(s["deck"]), list(s["trick"]), s["leader"],
                             list(s["points"]), [tuple(e) for e in s["log"]])

    @property
    def views(self) -> HighCardViews:
        return HighCardViews(self)

    def observation_tensor(self, obs: Observation) -> np.ndarray:
        """Own hand, cards seen, the trick (one-hot over cards), points and the player to move
        (by seat, counted from the observer)."""
        out = np.zeros(self.observation_shape, dtype=np.float32)
        for c in obs.hand:
            out[c - 1] = 1
        for c in obs.seen:
            out[CARDS + c - 1] = 1
        for c in obs.trick:
            out[2 * CARDS + c - 1] = 1
        n = obs.num_players
        for q in range(n):
            out[3 * CARDS + (q - obs.player) % n] = obs.points[q] / HAND
        if obs.current_player >= 0:
            out[3 * CARDS + MAX_PLAYERS + (obs.current_player - obs.player) % n] = 1
        return out


class HighCardState:
    def __init__(self, hands: list[tuple[int, ...]], deck: tuple[int, ...], trick: list[int], leader: int,
                 points: list[int], log: list[tuple[int, int]]) -> None:
        self.hands, self.deck, self.trick, self.leader, self.points, self.log = hands, deck, trick, leader, points, log

    @property
    def num_players(self) -> int:
        return len(self.hands)

    @property
    def current_player(self) -> int:
        return -1 if self.is_terminal() else (self.leader + len(self.trick)) % self.num_players

    def is_terminal(self) -> bool:
        return not any(self.hands)

    def legal_actions(self) -> list[Play]:
        return [] if self.is_terminal() else [ACTIONS[c - 1] for c in self.hands[self.current_player]]

    def apply(self, action: Any) -> None:
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if type(action) is not Play:  # a subclass may lie in its str(), the record's text
            raise IllegalActionError(f"{type(action).__name__} is not an action of high card")
        me = self.current_player
        if action.card not in self.hands[me]:
            raise IllegalActionError(f"seat {me} holds no card {action.card}")
        self.hands[me] = tuple(c for c in self.hands[me] if c != action.card)
        self.trick.append(action.card)
        self.log.append((me, action.card))
        if len(self.trick) == self.num_players:
            best = self.trick.index(max(self.trick))
            self.leader = (self.leader + best) % self.num_players
            self.points[self.leader] += 1
            self.trick = []

    def clone(self) -> "HighCardState":
        return HighCardState(list(self.hands), self.deck, list(self.trick), self.leader, list(self.points),
                             list(self.log))

    def observation(self, player: int) -> Observation:
        seen = tuple(sorted(c for _, c in self.log))
        return Observation(player, self.num_players, self.current_player, self.hands[player], tuple(self.trick),
                           self.leader, seen, tuple(self.points), tuple(self.log))

    def outcome(self) -> Outcome:
        best = [max([c for p, c in self.log if p == q], default=0) for q in range(self.num_players)]
        players = tuple(PlayerOutcome(score=t, rank=1 + sum(u > t for u in self.points),
                                      metrics={"tricks": t, "best_card": best[q]})
                        for q, t in enumerate(self.points))
        return Outcome(players, Termination.NORMAL, len(self.log))

    def returns(self) -> tuple[float, ...]:
        return self.outcome().win_shares() if self.is_terminal() else (0.0,) * self.num_players

    def snapshot(self) -> dict[str, Any]:
        return {"hands": [list(h) for h in self.hands], "deck": list(self.deck), "trick": list(self.trick),
                "leader": self.leader, "points": list(self.points), "log": [list(e) for e in self.log]}

    def result_data(self) -> dict[str, Any]:
        return {"points": list(self.points)}

    def action_text(self, action: Any) -> str:
        return str(action)

    def last_event(self) -> tuple[Any, ...]:
        if not self.log:
            return ()
        player, card = self.log[-1]
        return player, ACTIONS[card - 1], None


GAME = HighCard
