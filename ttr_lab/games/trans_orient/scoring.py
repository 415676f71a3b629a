"""Scoring as small pure functions of the cards a player placed and the luggage they hold.

Each function takes the deck and card numbers, never a state, so strategies can score
hypothetical tableaux with the same code the end of the game uses.
"""

from __future__ import annotations

from typing import Sequence, TypeVar

from ttr_lab.games.trans_orient.cards import Deck, Effect, LuggageEffect, Objective, ObjectiveType, Scoring


def passports(deck: Deck, played: Sequence[int], luggage: Sequence[int]) -> int:
    """Passport icons on a player's travel cards and luggage cards."""
    return (sum(1 for x in played if deck.travel[x - 1].passport)
            + sum(1 for x in luggage if deck.luggage[x - 1].passport))


def colour_counts(deck: Deck, played: Sequence[int]) -> list[int]:
    counts = [0] * deck.num_colours
    for x in played:
        counts[deck.travel[x - 1].colour] += 1
    return counts


def travel_points(deck: Deck, played: Sequence[int]) -> tuple[int, int]:
    """``(printed VP, VP from "X VP per card of a colour" effects)``; such an effect counts the
    card that carries it, and only travel cards (Further decision 8)."""
    printed = sum(deck.travel[x - 1].vp for x in played)
    counts = colour_counts(deck, played)
    bonus = 0
    for x in played:
        card = deck.travel[x - 1]
        if card.effect == Effect.VP_PER_COLOUR:
            bonus += card.effect_vp * counts[card.effect_colour]
    return printed, bonus


def luggage_points(deck: Deck, luggage: Sequence[int], passport_count: int) -> int:
    """Printed VP of the luggage cards plus their "per luggage card" (this one included) and
    "per passport" effects."""
    total = 0
    for x in luggage:
        card = deck.luggage[x - 1]
        total += card.vp
        if card.effect == LuggageEffect.VP_PER_LUGGAGE:
            total += card.effect_vp * len(luggage)
        elif card.effect == LuggageEffect.VP_PER_PASSPORT:
            total += card.effect_vp * passport_count
    return total


def wilds(deck: Deck, luggage: Sequence[int]) -> tuple[int, int]:
    """``(wild numbers, wild colours)`` among a player's luggage cards."""
    kinds = [deck.luggage[x - 1].effect for x in luggage]
    return kinds.count(LuggageEffect.WILD_NUMBER), kinds.count(LuggageEffect.WILD_COLOUR)


def route_run(destinations: Sequence[int] | set[int], wild_numbers: int, highest: int) -> int:
    """The longest run 1, 2, 3, ... a player holds; each wild number fills one gap, never past
    the deck's highest destination (Further decision 8)."""
    held = set(destinations)
    run, spare = 0, wild_numbers
    while run < highest:
        if run + 1 in held:
            run += 1
        elif spare:
            spare -= 1
            run += 1
        else:
            break
    return run


def season_points(objective: Objective, counts: Sequence[int], wild_colours: int) -> int:
    """The VP of the best combination held (not cumulative); each wild colour fills one gap."""
    best = 0
    for index, vp in objective.tiers:
        need = objective.combinations[index]
        missing = sum(k - counts[c] for c, k in enumerate(need) if k > counts[c])
        if missing <= wild_colours and vp > best:
            best = vp
    return best


def threshold_points(objective: Objective, value: int) -> int:
    """Only the highest threshold reached scores (Further decision 7)."""
    best = 0
    for threshold, vp in objective.tiers:  # sorted by threshold
        if value >= threshold:
            best = vp
    return best


_Rankable = TypeVar("_Rankable", float, tuple)  # all numbers or all sort keys


def ranks(values: Sequence[_Rankable]) -> list[int]:
    """Competition ranks, highest value first: 1, 1, 3 for two tied leaders (Further decision 7)."""
    return [1 + sum(1 for w in values if w > v) for v in values]


def rank_points(objective: Objective, values: Sequence[int]) -> list[int]:
    """Medals by rank; tied players each get their rank's medal, the rank after a tie is skipped,
    a count of 0 still ranks, ranks beyond the printed medals score nothing."""
    medals = dict(objective.tiers)
    return [medals.get(r, 0) for r in ranks(values)]


def objective_points(objective: Objective, passport_counts: Sequence[int], runs: Sequence[int],
                     colours: Sequence[Sequence[int]], wild_colours: Sequence[int]) -> list[int]:
    """Each player's VP from one shared objective (scored at most once per player)."""
    if objective.type == ObjectiveType.SEASON:
        return [season_points(objective, colours[p], wild_colours[p]) for p in range(len(colours))]
    values = passport_counts if objective.type == ObjectiveType.VISA else runs
    if objective.scoring == Scoring.RANK:
        return rank_points(objective, values)
    return [threshold_points(objective, v) for v in values]
