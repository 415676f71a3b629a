"""The end of a game as values: ``GameResult`` with one ``PlayerResult`` per seat, and the core
``Outcome`` (score, rank and the declared metrics) derived from it."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from ttr_lab.core.outcome import Metric, Outcome, PlayerOutcome, Termination
from ttr_lab.games.trans_orient import scoring
from ttr_lab.games.trans_orient.cards import Effect, ObjectiveType
from ttr_lab.games.trans_orient.rules import CARD_TAKES, CARDS_GIVEN, K, PILE_TAKES, TOKENS_PAID, TOKENS_WASTED

if TYPE_CHECKING:
    from ttr_lab.games.trans_orient.slots import StateSlots


@dataclass(frozen=True)
class PlayerResult:
    player: int
    score: int
    rank: int  # 1 = winner; VP, then passports; still tied players share a rank
    vp_travel: int  # VP printed on the travel cards placed
    vp_colour_bonus: int  # "X VP per card of a colour" effects
    vp_luggage: int  # luggage cards: printed VP, per luggage card, per passport
    vp_visa: int
    vp_season: int
    vp_route: int
    objectives_met: int  # shared objectives that scored for this player
    passports: int  # the tie-break: travel and luggage cards
    longest_run: int  # destinations 1, 2, 3, ... held (wild numbers included)
    cards_played: int
    cards: tuple[int, ...]  # travel cards placed, in play order
    luggage: tuple[int, ...]  # luggage cards held (revealed at the end)
    wild_numbers: int
    wild_colours: int
    discounts: int  # discount effects placed
    capacity: int  # capacity effects placed
    card_takes: int  # mandatory actions that took a travel card
    pile_takes: int  # mandatory actions that took a token pile
    tokens_paid: int  # tokens paid for cards (after discounts)
    tokens_wasted: int  # tokens given back at the end of a turn (reserve limit)
    cards_given_back: int  # travel cards given back at the end of a turn (hand limit)
    cards_in_hand: int  # at the end
    tokens_left: int  # in the reserve at the end


@dataclass(frozen=True)
class GameResult:
    players: tuple[PlayerResult, ...]
    termination: Termination
    rounds: int
    turns: int
    objectives: tuple[int, ...]  # the shared visa, season and route objectives, in that order

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p.player for p in self.players if p.rank == 1)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.score for p in self.players)

    def to_dict(self) -> dict[str, Any]:
        players = []
        for p in self.players:
            row = {k: getattr(p, k) for k in _FIELDS}
            row["cards"], row["luggage"] = list(p.cards), list(p.luggage)
            players.append(row)
        return {"players": players, "termination": self.termination.value, "rounds": self.rounds,
                "turns": self.turns, "objectives": list(self.objectives)}


_FIELDS = tuple(f.name for f in fields(PlayerResult))

METRICS: tuple[Metric, ...] = (
    Metric("vp_travel", "VP printed on the travel cards placed"),
    Metric("vp_colour_bonus", "VP from 'X VP per card of a colour' effects"),
    Metric("vp_luggage", "VP from luggage cards (printed, per luggage card, per passport)"),
    Metric("vp_visa", "VP from the shared visa objective (passports)"),
    Metric("vp_season", "VP from the shared season objective (colours)"),
    Metric("vp_route", "VP from the shared route objective (run of destinations from 1)"),
    Metric("objectives_met", "shared objectives that scored for the player (0 to 3)"),
    Metric("passports", "passport icons on travel and luggage cards (the tie-break)"),
    Metric("longest_run", "run of destinations 1, 2, 3, ... held, wild numbers included"),
    Metric("cards_played", "travel cards placed in front of the player"),
    Metric("luggage_cards", "luggage cards held at the end"),
    Metric("discounts", "discount effects placed"),
    Metric("capacity", "capacity effects placed"),
    Metric("card_takes", "mandatory actions that took a travel card"),
    Metric("pile_takes", "mandatory actions that took a token pile"),
    Metric("tokens_paid", "tokens paid for travel cards, after discounts"),
    Metric("tokens_wasted", "tokens given back at the end of a turn (over the reserve limit)"),
    Metric("cards_given_back", "travel cards given back at the end of a turn (over the hand limit)"),
    Metric("cards_in_hand", "travel cards left in hand at the end"),
    Metric("tokens_left", "tokens left in the reserve at the end"),
    Metric("cards", "numbers of the travel cards placed, in play order", kind="ints", summarise=False),
)


def score_game(state: "StateSlots") -> GameResult:
    """Score a finished game: travel cards, luggage, the three shared objectives, the tie-break."""
    setup = state.tables
    deck, n, C = setup.deck, setup.num_players, setup.colours
    pass_counts, runs, colours, wild_n, wild_c, travel, luggage_vp = [], [], [], [], [], [], []
    for p in range(n):
        played, luggage = state.played[p], state.luggage[p]
        count = scoring.passports(deck, played, luggage)
        w_numbers, w_colours = scoring.wilds(deck, luggage)
        pass_counts.append(count)
        wild_n.append(w_numbers)
        wild_c.append(w_colours)
        runs.append(scoring.route_run({deck.travel[x - 1].destination for x in played}, w_numbers,
                                      deck.max_destination))
        colours.append(scoring.colour_counts(deck, played))
        travel.append(scoring.travel_points(deck, played))
        luggage_vp.append(scoring.luggage_points(deck, luggage, count))
    by_type = {}
    for number in state.objectives:
        objective = deck.objective(number)
        by_type[objective.type] = scoring.objective_points(objective, pass_counts, runs, colours, wild_c)
    totals = [travel[p][0] + travel[p][1] + luggage_vp[p] + sum(v[p] for v in by_type.values()) for p in range(n)]
    ranks = scoring.ranks([(totals[p], pass_counts[p]) for p in range(n)])
    zero = [0] * n
    visa, season, route = (by_type.get(t, zero) for t in ObjectiveType)
    players = []
    for p in range(n):
        counters = state.counters[p * K:(p + 1) * K]
        effects = [deck.travel[x - 1].effect for x in state.played[p]]
        players.append(PlayerResult(
            player=p, score=totals[p], rank=ranks[p], vp_travel=travel[p][0], vp_colour_bonus=travel[p][1],
            vp_luggage=luggage_vp[p], vp_visa=visa[p], vp_season=season[p], vp_route=route[p],
            objectives_met=sum(1 for v in by_type.values() if v[p] > 0), passports=pass_counts[p],
            longest_run=runs[p], cards_played=len(state.played[p]), cards=state.played[p],
            luggage=state.luggage[p], wild_numbers=wild_n[p], wild_colours=wild_c[p],
            discounts=effects.count(Effect.DISCOUNT), capacity=effects.count(Effect.CAPACITY),
            card_takes=counters[CARD_TAKES], pile_takes=counters[PILE_TAKES], tokens_paid=counters[TOKENS_PAID],
            tokens_wasted=counters[TOKENS_WASTED], cards_given_back=counters[CARDS_GIVEN],
            cards_in_hand=len(state.hands[p]), tokens_left=sum(state.reserves[p * C:(p + 1) * C]),
        ))
    termination = Termination.STALLED if state.stalled else Termination.NORMAL
    return GameResult(tuple(players), termination, state.round, state.turns, tuple(state.objectives))


def outcome_of(result: GameResult) -> Outcome:
    """The core ``Outcome``: score, rank and the declared metrics per player."""
    players = []
    for p in result.players:
        metrics = {m.name: getattr(p, m.name) for m in METRICS if m.name not in ("cards", "luggage_cards")}
        metrics["luggage_cards"] = len(p.luggage)
        metrics["cards"] = list(p.cards)
        players.append(PlayerOutcome(score=p.score, rank=p.rank, metrics=metrics))
    return Outcome(tuple(players), result.termination, result.turns)
