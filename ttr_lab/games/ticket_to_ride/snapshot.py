"""``snapshot()``: the full state, hidden parts included, as a plain JSON-serialisable dict."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, NUM_CARD_KINDS

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.board import Board
    from ttr_lab.games.ticket_to_ride.state import GameState
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset


def snapshot(state: "GameState") -> dict[str, Any]:
    n = state.game.num_players
    k = NUM_CARD_KINDS
    names = CARD_NAMES
    discard = []
    for c, count in enumerate(state.discard):
        discard += [names[c]] * count
    return {
        "map": state.game.board.name,
        "num_players": n,
        "current_player": state.player,
        "phase": state.phase_name.name.lower(),
        "hands": [{names[c]: state.hands[p * k + c] for c in range(k)} for p in range(n)],
        "known_cards": [{names[c]: state.known[p * k + c] for c in range(k)} for p in range(n)],
        "market": [names[c] for c in state.market],
        "draw_pile": [names[c] for c in reversed(state.pile)],  # top first
        "discard": discard,  # a multiset: listed in colour order
        "tickets_held": [list(t) for t in state.tickets],
        "offered_tickets": [list(o) for o in state.offers],
        "ticket_deck": list(state.ticket_deck),  # top first
        "ticket_deck_returned_by": list(state.returned_by),  # per position: who put it back, or -1
        "boxed_tickets": list(state.boxed),  # out of the game
        "boxed_by": list(state.boxed_by),  # who rejected each at setup, or -1 (never dealt)
        "trains": list(state.trains),
        "claimed": {str(t): o for t, o in enumerate(state.owner) if o >= 0},
        "route_points": list(state.points),
        "final_round": state.final_turns >= 0,
        "final_turns_left": state.final_turns,
        "passes_in_a_row": state.passes,
        "turns": state.turns,
        "stalled": state.stalled,
        "terminal": state.is_terminal(),
        "rng_state": state.rng,
        "history_length": state.log_len,
    }


def restore(board: "Board", snap: dict[str, Any], ruleset: "Ruleset | None" = None) -> "GameState":
    """The state a ``snapshot()`` describes. A snapshot is the position, not the path: the public
    history is counted, not listed (a record lists it), so a restored state's ``history()``
    starts empty.

    For debugging, bug reports and hand-built test positions. Checks that cards and tickets are
    conserved, so a position cannot silently contain 111 cards.
    """
    from ttr_lab.games.ticket_to_ride.colours import card_index
    from ttr_lab.games.ticket_to_ride.game import Phase, game_for
    from ttr_lab.games.ticket_to_ride.state import assemble_state

    game = game_for(board, int(snap["num_players"]), ruleset)
    n = game.num_players

    def counts(named: dict[str, int]) -> list[int]:
        out = [0] * NUM_CARD_KINDS
        for name, count in named.items():
            out[card_index(name)] += int(count)
        return out

    phase = int(Phase[str(snap["phase"]).upper()])
    hands = [c for p in range(n) for c in counts(snap["hands"][p])]
    known = snap.get("known_cards") or [{}] * n
    discard = [0] * NUM_CARD_KINDS
    for c in snap["discard"]:
        discard[card_index(c)] += 1
    owner = [-1] * len(board.tracks)
    for t, p in snap["claimed"].items():
        owner[int(t)] = int(p)
    ticket_deck = tuple(int(t) for t in snap["ticket_deck"])
    returned_by = tuple(int(r) for r in snap.get("ticket_deck_returned_by") or [-1] * len(ticket_deck))
    if len(returned_by) != len(ticket_deck):
        raise ValueError("snapshot's ticket_deck_returned_by must have one entry per ticket in the deck")
    boxed = tuple(int(t) for t in snap.get("boxed_tickets") or ())
    s = assemble_state(
        game,
        phase=int(Phase.OVER) if snap.get("terminal") else phase,
        player=int(snap["current_player"]),
        hands=hands,
        known=[min(k, h) for k, h in zip((c for p in range(n) for c in counts(known[p])), hands)],
        pile=[card_index(c) for c in reversed(snap["draw_pile"])],
        discard=discard,
        market=[card_index(c) for c in snap["market"]],
        owner=owner,
        trains=[int(x) for x in snap["trains"]],
        points=[int(x) for x in snap["route_points"]],
        tickets=[tuple(int(t) for t in held) for held in snap["tickets_held"]],
        offers=[tuple(int(t) for t in o) for o in snap["offered_tickets"]],
        ticket_deck=ticket_deck,
        returned_by=returned_by,
        boxed=boxed,
        boxed_by=tuple(int(r) for r in snap.get("boxed_by") or [-1] * len(boxed)),
        rng=int(snap.get("rng_state", 0)),
        final_turns=int(snap.get("final_turns_left", 0 if snap.get("final_round") else -1)),
        passes=int(snap.get("passes_in_a_row", 0)),
        turns=int(snap.get("turns", 0)),
        stalled=bool(snap.get("stalled", False)),
        log_len=int(snap.get("history_length", 0)),  # the count, not the events
    )
    cards = sum(s.hands) + len(s.pile) + sum(s.discard) + len(s.market)
    if cards != len(game.deck):
        raise ValueError(f"snapshot holds {cards} train cards, the game has {len(game.deck)}")
    if not s.pile and any(s.discard):
        raise ValueError("snapshot has an empty draw pile beside a non-empty discard pile; the rules reshuffle at once")
    if len(s.market) < game.ruleset.market_size and s.pile:
        raise ValueError("snapshot has a short market while the draw pile holds cards; the rules refill at once")
    tickets = [t for held in s.tickets for t in held] + [t for o in s.offers for t in o] + list(s.ticket_deck) + list(s.boxed)
    if len(tickets) != len(set(tickets)):
        raise ValueError("snapshot lists a ticket twice")
    return s
