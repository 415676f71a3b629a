"""The numbers of the rules, in one value a map or an experiment can override.

Designers playtest a rule change by overriding a field, never by editing the engine::

    from ttr_lab.games.ticket_to_ride import load_board, new_game, Ruleset
    board = load_board("usa")
    rules = board.ruleset.replace(longest_path_bonus=15, trains_per_player=40)
    state = new_game(board, 4, seed=1, ruleset=rules)

A map's ``map.toml`` may carry a ``[ruleset]`` table with the same field names.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, Mapping

from ttr_lab.core.errors import ConfigError


class TieBreak(str, Enum):
    """How a tie on points is broken (see ``Ruleset.tie_breaks``)."""

    TICKETS = "tickets"  # more completed tickets
    LONGEST = "longest"  # holds the longest-trail bonus
    EXPLORER = "explorer"  # holds the explorer bonus
    MOUNTAINS = "mountains"  # more mountain routes claimed
    GLOBETROTTER = "globetrotter"  # holds the Globetrotter bonus
    STATIONS = "stations"  # fewer train stations built


class Rejects(str, Enum):
    """Where the tickets turned down at setup go."""

    BOTTOM = "bottom"  # the bottom of the ticket deck
    BOX = "box"  # out of the game


TIE_BREAKS = tuple(t.value for t in TieBreak)
# The most tickets on offer at once: every subset of an offer a player may keep is an action
# (2^N of them, listed in the action space), so a larger offer is refused, not enumerated.
MAX_OFFER = 10
# The most cards a tunnel claim may turn over: each extra payment (cards asked, locomotives
# among them) is an action, so the action space grows with its square.
MAX_TUNNEL_REVEAL = 10

# The most cards one station may cost: each payment of each cost at each city is an action.
MAX_STATION_COST = 10


@dataclass(frozen=True)
class Ruleset:
    """Every number the engine uses. Defaults are the USA base game (2004 rulebook)."""

    # Points for a claimed track, indexed by its length (index 0 unused).
    route_scores: tuple[int, ...] = (0, 1, 2, 4, 7, 10, 15)
    # Bonus to every player tied for the longest continuous trail (0 = no such bonus).
    longest_path_bonus: int = 10
    trains_per_player: int = 45
    cards_per_colour: int = 12
    locomotive_cards: int = 14
    initial_hand: int = 4
    # Setup: tickets dealt to each player and how many of them must be kept.
    initial_tickets: int = 3
    initial_keep_min: int = 2
    # A ticket draw during play: how many are offered and how many must be kept.
    ticket_draw: int = 3
    ticket_keep_min: int = 1
    market_size: int = 5
    # The market is redealt when it shows at least this many locomotives.
    market_locomotive_limit: int = 3
    # Loop guard of the redeal (see the rules' Decision): at most this many redeals in a row, and
    # none unless market, draw pile and discard hold this many non-locomotive cards together.
    max_redeals: int = 10
    redeal_min_non_locomotives: int = 3
    # The final round starts when a player ends a turn with this many trains or fewer.
    end_trains: int = 2
    # From this many players on, both tracks of a double route may be claimed (by different
    # players); below it, claiming one closes the other.
    double_routes_min_players: int = 4
    # Points scored at once for each mountain (X) space of a claimed track; each X also costs
    # one extra train. Only maps with mountain spaces use it.
    mountain_points_per_space: int = 2
    # Cards a tunnel claim turns over from the draw pile; each that matches the payment asks one
    # more card. Only maps with tunnels use it.
    tunnel_reveal: int = 3
    # Long tickets (deck "long") dealt to each player at setup besides the regular ones; long
    # tickets nobody is dealt leave the game.
    initial_long_tickets: int = 0
    # Where the tickets rejected at setup go: "bottom" of the ticket deck, or "box" (out of
    # the game). Tickets rejected later always go to the bottom.
    initial_rejects: Rejects = Rejects.BOTTOM
    # Bonus to every player tied for the most cities in one network of their own tracks
    # (Legendary Asia's Asian Explorer); 0 = no such bonus.
    explorer_bonus: int = 0
    # Bonus to every player tied for the most completed tickets, none of them with none (the
    # USA 1910 decks' Globetrotter); 0 = no such bonus.
    globetrotter_bonus: int = 0
    # How ties on points are broken, in order: "tickets" (more completed), "longest" (holds the
    # longest-trail bonus), "explorer" (holds the explorer bonus), "mountains" (more mountain
    # routes claimed), "globetrotter" (holds the Globetrotter bonus), "stations" (fewer train
    # stations built). Players still tied share the rank.
    tie_breaks: tuple[TieBreak, ...] = (TieBreak.TICKETS, TieBreak.LONGEST)
    # India's Grand Tour: the bonus by the number of a player's qualifying tickets (kept tickets
    # whose cities are joined by two paths of its own tracks with no track in common), indexed
    # by that number, the last entry for that many or more. Empty (or all zero): no such bonus.
    grand_tour_bonus: tuple[int, ...] = ()
    # Train stations (Europe): how many each player has (0 = none, the game has no station
    # action); the cards the 1st, 2nd, 3rd... station costs (one colour, locomotives replacing
    # any); points at the end for each station not built. At the end each built station lends
    # its owner one track of another player at its city, for tickets only.
    stations_per_player: int = 0
    station_costs: tuple[int, ...] = (1, 2, 3)
    station_points: int = 4

    def __post_init__(self) -> None:
        scores = self.route_scores
        if isinstance(scores, Mapping):  # {length: points}, as a TOML table gives it
            try:
                table = {int(k): int(v) for k, v in scores.items()}
            except (TypeError, ValueError):
                raise ConfigError(f"ruleset route_scores must map lengths to points, got {scores!r}") from None
            longest = max(table, default=0)
            scores = tuple(table.get(i, 0) for i in range(longest + 1))
        else:
            scores = tuple(int(v) for v in scores)
        object.__setattr__(self, "route_scores", scores)
        try:
            if isinstance(self.grand_tour_bonus, (str, bytes, Mapping)):
                raise TypeError
            tour = tuple(int(v) for v in self.grand_tour_bonus)
        except (TypeError, ValueError):
            raise ConfigError(f"ruleset grand_tour_bonus must list points by qualifying tickets, got {self.grand_tour_bonus!r}") from None
        if any(v < 0 for v in tour):
            raise ConfigError(f"ruleset grand_tour_bonus must hold non-negative points, got {list(tour)}")
        object.__setattr__(self, "grand_tour_bonus", tour)
        costs = self.station_costs
        if isinstance(costs, (str, bytes, Mapping)) or not isinstance(costs, (list, tuple)):
            raise ConfigError(f"ruleset station_costs must be a list of cards per station, e.g. [1, 2, 3], got {costs!r}")
        if any(not isinstance(c, int) or isinstance(c, bool) or not 1 <= c <= MAX_STATION_COST for c in costs):
            raise ConfigError(f"ruleset station_costs must be whole numbers of cards, 1..{MAX_STATION_COST} each, "
                              f"got {list(costs)!r}")
        object.__setattr__(self, "station_costs", tuple(costs))
        # Strings (from TOML, YAML, JSON) become the enum values here, once, so the engine
        # compares enum members, never text.
        breaks = tuple(self.tie_breaks) if not isinstance(self.tie_breaks, str) else (self.tie_breaks,)
        unknown = [t for t in breaks if t not in TIE_BREAKS]
        if unknown:
            raise ConfigError(f"ruleset tie_breaks: unknown {', '.join(map(repr, unknown))}; choose from {', '.join(TIE_BREAKS)}")
        object.__setattr__(self, "tie_breaks", tuple(TieBreak(t) for t in breaks))
        if self.initial_rejects not in ("bottom", "box"):
            raise ConfigError(f"ruleset initial_rejects must be 'bottom' or 'box', got {self.initial_rejects!r}")
        object.__setattr__(self, "initial_rejects", Rejects(self.initial_rejects))
        for f in fields(self):
            if f.name in ("route_scores", "tie_breaks", "initial_rejects", "grand_tour_bonus", "station_costs"):
                continue
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ConfigError(f"ruleset {f.name} must be a non-negative integer, got {value!r}")
        if self.market_size < 1 or self.ticket_draw < 1 or self.trains_per_player < 1:
            raise ConfigError("ruleset market_size, ticket_draw and trains_per_player must be at least 1")
        offer = max(self.initial_tickets + self.initial_long_tickets, self.ticket_draw)
        if offer > MAX_OFFER:
            raise ConfigError(f"ruleset offers {offer} tickets at once (initial_tickets + initial_long_tickets, "
                              f"ticket_draw); at most {MAX_OFFER}, as each subset kept is an action (2^{offer})")
        if self.tunnel_reveal > MAX_TUNNEL_REVEAL:
            raise ConfigError(f"ruleset tunnel_reveal is at most {MAX_TUNNEL_REVEAL} (each extra payment is an "
                              f"action), got {self.tunnel_reveal}")
        if len(self.station_costs) < self.stations_per_player:
            raise ConfigError(f"ruleset station_costs names {len(self.station_costs)} station cost(s), fewer than the "
                              f"{self.stations_per_player} stations_per_player")
        if len(self.tie_breaks) != len(set(self.tie_breaks)):
            raise ConfigError("ruleset tie_breaks names a tie-break twice")
        if not 1 <= self.ticket_keep_min <= self.ticket_draw:
            raise ConfigError(f"ruleset ticket_keep_min must be in 1..ticket_draw, got {self.ticket_keep_min}")
        if not 1 <= self.initial_keep_min <= max(1, self.initial_tickets):
            raise ConfigError(
                f"ruleset initial_keep_min must be in 1..initial_tickets, got {self.initial_keep_min}"
            )

    def score_for_length(self, length: int) -> int:
        """Points for claiming a track of ``length``."""
        if length >= len(self.route_scores):
            raise ConfigError(f"ruleset route_scores has no entry for length {length}")
        return self.route_scores[length]

    @property
    def grand_tour(self) -> bool:
        """Whether the Grand Tour bonus is played (some entry of ``grand_tour_bonus`` above 0)."""
        return any(self.grand_tour_bonus)

    def grand_tour_points(self, qualifying: int) -> int:
        """The Grand Tour bonus for ``qualifying`` tickets (the last entry for that many or more)."""
        table = self.grand_tour_bonus
        return table[min(qualifying, len(table) - 1)] if table else 0

    def replace(self, **changes: Any) -> "Ruleset":
        """A copy with some fields changed; unknown field names are a ConfigError."""
        _check_names(changes)
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], base: "Ruleset | None" = None) -> "Ruleset":
        """A ruleset from a mapping of overrides (e.g. a TOML/YAML table) on top of ``base``."""
        return (base or cls()).replace(**dict(values))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable form."""
        out = dataclasses.asdict(self)
        out["route_scores"] = list(self.route_scores)
        out["station_costs"] = list(self.station_costs)
        out["tie_breaks"] = [t.value for t in self.tie_breaks]
        out["initial_rejects"] = self.initial_rejects.value
        out["grand_tour_bonus"] = list(self.grand_tour_bonus)
        return out


def _check_names(values: Mapping[str, Any]) -> None:
    valid = {f.name for f in fields(Ruleset)}
    unknown = sorted(set(values) - valid)
    if unknown:
        raise ConfigError(f"unknown ruleset field(s) {', '.join(unknown)}; valid fields: {', '.join(sorted(valid))}")
