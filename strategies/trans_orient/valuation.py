"""How much a player's tableau is worth, counted now and projected: the planner's yardstick.

``Projection`` scores a tableau with the game's own scoring functions
(``ttr_lab.games.trans_orient.scoring``) and adds partial credit for objectives under way: a
route run or a visa count part of the way to its next threshold, a season combination part
held, each worth that share of the VP still to win, times ``progress``. Rank objectives are
scored against the opponents' tableaux as they stand (their luggage is secret: only their
travel cards' passports count). The marginal value of a card is the projection with it less
the projection without it: the objectives in play and the run of destinations from 1 enter
every decision through that one number.
"""

from __future__ import annotations

from typing import Sequence

from ttr_lab.games.trans_orient import Observation, ObjectiveType, Scoring, scoring


class Projection:
    """The projected worth of ``seat``'s tableau in the position ``obs`` (built once per decision)."""

    def __init__(self, obs: Observation, seat: int, progress: float = 0.5) -> None:
        self.obs, self.deck, self.seat, self.progress = obs, obs.deck, seat, progress
        deck = obs.deck
        self.objectives = [deck.objective(n) for n in obs.objectives]
        others = [p for p in range(obs.num_players) if p != seat]
        self.other_passports = [scoring.passports(deck, obs.played[p], ()) for p in others]
        self.other_runs = [scoring.route_run({deck.travel[x - 1].destination for x in obs.played[p]}, 0,
                                             deck.max_destination) for p in others]
        self.luggage = obs.luggage if obs.player == seat else ()
        self.base = self.worth(obs.played[seat])

    def worth(self, played: Sequence[int], luggage: Sequence[int] | None = None) -> float:
        """Score of ``played`` (with the seat's known luggage) plus the partial credits."""
        deck = self.deck
        luggage = self.luggage if luggage is None else luggage
        passports = scoring.passports(deck, played, luggage)
        wild_numbers, wild_colours = scoring.wilds(deck, luggage)
        destinations = {deck.travel[x - 1].destination for x in played}
        run = scoring.route_run(destinations, wild_numbers, deck.max_destination)
        counts = scoring.colour_counts(deck, played)
        printed, bonus = scoring.travel_points(deck, played)
        total = float(printed + bonus + scoring.luggage_points(deck, luggage, passports))
        for o in self.objectives:
            if o.type == ObjectiveType.SEASON:
                total += self._season(o, counts, wild_colours)
                continue
            value = passports if o.type == ObjectiveType.VISA else run
            if o.scoring == Scoring.RANK:
                others = self.other_passports if o.type == ObjectiveType.VISA else self.other_runs
                total += scoring.rank_points(o, [value, *others])[0]
                continue
            now = scoring.threshold_points(o, value)
            total += now
            ahead = [(t, vp) for t, vp in o.tiers if t > value]
            if ahead:
                t, vp = ahead[0]
                have = value if o.type == ObjectiveType.VISA else self._toward(destinations, wild_numbers, t)
                total += self.progress * (vp - now) * have / t
        return total

    def _season(self, objective, counts: Sequence[int], wild_colours: int) -> float:
        best = 0.0
        for index, vp in objective.tiers:
            need = objective.combinations[index]
            size = sum(need)
            missing = sum(k - counts[c] for c, k in enumerate(need) if k > counts[c])
            missing = max(0, missing - wild_colours)
            share = 1.0 if not missing else self.progress * (size - missing) / size
            best = max(best, vp * share)
        return best

    @staticmethod
    def _toward(destinations: set[int], wild_numbers: int, length: int) -> float:
        """How much of the run 1..``length`` is held (wild numbers fill gaps)."""
        held = sum(1 for d in range(1, length + 1) if d in destinations)
        return min(length, held + wild_numbers)

    def gain(self, card: int) -> float:
        """What placing ``card`` adds to the projection."""
        return self.worth(self.obs.played[self.seat] + (card,)) - self.base
