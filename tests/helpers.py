"""Hand-built positions for rule tests: say only what matters, the helper fills in the rest."""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from ttr_lab.games.ticket_to_ride import CARD_NAMES, GameState, load_board, parse_action, restore_state
from ttr_lab.games.ticket_to_ride.tables import tables_for


def make_state(
    num_players: int = 2,
    *,
    hands: Sequence[dict[str, int]] | None = None,
    market: Sequence[str] = ("red", "orange", "yellow", "green", "blue"),
    discard: Iterable[str] = (),
    pile_top: Sequence[str] = (),
    pile_rest: bool = True,
    claimed: dict[str, int] | dict[int, int] | None = None,
    trains: Sequence[int] | None = None,
    route_points: Sequence[int] | None = None,
    tickets_held: Sequence[Sequence[int]] | None = None,
    offered: Sequence[Sequence[int]] | None = None,
    phase: str = "turn",
    current_player: int = 0,
    final_turns_left: int = -1,
    passes_in_a_row: int = 0,
    board=None,
    ruleset=None,
) -> GameState:
    """A position with the given parts. Cards not placed anywhere go to the draw pile below
    ``pile_top`` (top first) in colour order, or to the discard pile if ``pile_rest`` is False;
    regular tickets not held or offered form the ticket deck in id order (other decks' tickets go
    to the box). ``claimed`` maps track ids or
    track labels ("Atlanta-Miami blue") to seats; trains and route points follow from it unless given."""
    board = board or load_board("usa")
    game = tables_for(board, num_players, ruleset)
    hands = list(hands or [{} for _ in range(num_players)])
    by_label = {t.label: t.id for t in board.tracks}
    owner = {int(by_label.get(k, k)): p for k, p in (claimed or {}).items()}
    placed = Counter()
    for h in hands:
        placed.update({c: n for c, n in h.items()})
    placed.update(market)
    placed.update(discard)
    placed.update(pile_top)
    rest = []
    full = Counter(CARD_NAMES[c] for c in game.deck)
    for name in CARD_NAMES:
        extra = full[name] - placed[name]
        if extra < 0:
            raise ValueError(f"position uses {placed[name]} {name} cards, the deck has {full[name]}")
        rest += [name] * extra
    pile = list(pile_top) + (rest if pile_rest else [])
    discard = list(discard) + ([] if pile_rest else rest)
    held = [list(t) for t in (tickets_held or [[] for _ in range(num_players)])]
    offers = [list(o) for o in (offered or [[] for _ in range(num_players)])]
    used = {t for group in held + offers for t in group}
    spent = [sum(game.track_trains[t] for t, p in owner.items() if p == seat) for seat in range(num_players)]
    snap = {
        "num_players": num_players,
        "current_player": current_player,
        "phase": phase,
        "hands": [dict(h) for h in hands],
        "market": list(market),
        "draw_pile": pile,
        "discard": discard,
        "tickets_held": held,
        "offered_tickets": offers,
        "ticket_deck": [t.id for t in board.tickets if t.id not in used and t.deck == "regular"],
        # Long tickets not in play are out of the game, as after a real setup.
        "boxed_tickets": [t.id for t in board.tickets if t.id not in used and t.deck != "regular"],
        "trains": list(trains) if trains is not None else [game.ruleset.trains_per_player - s for s in spent],
        "claimed": {str(t): p for t, p in owner.items()},
        "route_points": list(route_points) if route_points is not None else [
            sum(game.track_points[t] for t, p in owner.items() if p == seat) for seat in range(num_players)],
        "final_turns_left": final_turns_left,
        "passes_in_a_row": passes_in_a_row,
        "rng_state": 12345,
    }
    return restore_state(board, snap, ruleset)


def act(state: GameState, *texts: str) -> GameState:
    """Apply actions given in the action language; returns the state for chaining."""
    for text in texts:
        state.apply(parse_action(text, state.board))
    return state


def legal_texts(state: GameState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def track_id(label: str, board=None) -> int:
    """A track's id from its label, e.g. ``"Denver-Kansas City black"``."""
    board = board or load_board("usa")
    return next(t.id for t in board.tracks if t.label == label)


def ticket_id(cities: str, board=None) -> int:
    """A ticket's id from its cities, e.g. ``"Denver-El Paso"``."""
    board = board or load_board("usa")
    return next(t.id for t in board.tickets if t.label.startswith(cities + " ("))


def decide(strategy, state, player: int = 0, seed: int = 0):
    """The strategy's choice for ``player`` in ``state``; checks it is one of the legal actions."""
    import random

    legal = state.legal_actions()
    action = strategy.act(state.observation(player), legal, random.Random(seed))
    assert any(action is a for a in legal) or action in legal, f"{action} is not one of the legal actions"
    return action


def planner_turn(seed: int = 5, after: int = 30):
    """The observation and legal moves of the first turn after ``after`` decisions of a 2-player
    USA game between ticket planners (seed 5: well before the final round, with many moves)."""
    import random

    from ttr_lab.games.ticket_to_ride import Phase, TicketToRide
    from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

    state = TicketToRide("usa").new_game(2, seed=seed)
    planner, rng = TicketPlanner(), random.Random(0)
    decisions = 0
    while decisions < after or state.observation(state.current_player).phase != Phase.TURN:
        state.apply(planner.act(state.observation(state.current_player), state.legal_actions(), rng))
        decisions += 1
    return state.observation(state.current_player), state.legal_actions()


def root_group(market, action, board=None):
    """The group a search's root move stands for, from the board's own data (as the kernels'
    ``group_of`` names it): a route's claims are one move, a face-up card kind is one."""
    from ttr_lab.games.ticket_to_ride import Claim, DrawMarket

    board = board or load_board("usa")
    if isinstance(action, Claim):
        track = board.tracks[action.track]
        return ("claim", min(track.a, track.b), max(track.a, track.b), track.colour)
    if isinstance(action, DrawMarket):
        return ("market", market[action.slot])
    return str(action)


def policy_ranking(obs, legal, logits) -> list:
    """The groups of ``legal`` by their best logit, highest first (the order a policy prior races
    or opens them in)."""
    best: dict = {}
    for action, z in zip(legal, logits):
        group = root_group(obs.market, action)
        best[group] = max(best.get(group, float("-inf")), float(z))
    return sorted(best, key=lambda g: -best[g])


def check_policy_orders_root(make) -> None:
    """``make(policy)`` builds a search; with ``policy="learned"`` the root it reports
    (its result's ``root``, in the order it opened or raced the moves) must be the planner's move, then
    the groups the shipped network scores highest, in that order, and differ from the hand
    prior's (``policy=None``)."""
    import random

    from ttr_lab.strategies.ticket_to_ride.learned import Learned
    from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

    obs, legal = planner_turn()
    by_text = {str(a): a for a in legal}
    roots = {}
    for policy in ("learned", None):
        search = make(policy)
        found = search.search(obs, legal, random.Random(3))
        assert found.action in legal
        roots[policy] = [root_group(obs.market, by_text[row.move]) for row in found.root]
    anchor, *rivals = roots["learned"]
    assert anchor == roots[None][0] == root_group(obs.market, TicketPlanner().act(obs, legal, random.Random(0)))
    ranked = [g for g in policy_ranking(obs, legal, Learned().logits(obs, legal)) if g != anchor]
    assert len(rivals) >= 3 and rivals == ranked[:len(rivals)]
    assert roots[None][1:] != rivals
