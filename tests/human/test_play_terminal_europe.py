"""The terminal at a Europe table (``ttr-lab play --human`` on ``--map europe``): a claim of a
tunnel or a ferry says so in the list of actions, a tunnel waiting for its extra cards shows the
cards it turned over and the extra asked, long tickets are marked, and ``decline`` typed there is
the action played."""

from __future__ import annotations

import io
import random
import re

from ttr_lab.core.game import load_game
from ttr_lab.games.ticket_to_ride.actions import Claim, DeclineTunnel, KeepTickets
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES
from ttr_lab.human.terminal import Terminal, TerminalSeat

EUROPE = load_game("ticket_to_ride", map="europe")


def _seat(lines: str) -> tuple[TerminalSeat, io.StringIO]:
    out = io.StringIO()
    return TerminalSeat(EUROPE, 0, Terminal(io.StringIO(lines), out, ["you", "greedy"])), out


def _to(seed: int, stop) -> object:
    """A seeded game played by random choices, but every ticket offered kept and tunnel claims
    first, to the first position where ``stop(state)`` holds."""
    state, rng = EUROPE.new_game(2, seed), random.Random(seed)
    while not stop(state):
        legal = state.legal_actions()
        tunnels = [a for a in legal if isinstance(a, Claim) and EUROPE.board.tracks[a.track].tunnel]
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        state.apply(max(keeps, key=lambda a: len(a.indices)) if keeps else tunnels[0] if tunnels else rng.choice(legal))
    return state


def test_the_list_names_tunnels_and_ferries_and_the_waiting_tunnel_is_shown():
    state = _to(5, lambda s: s.phase_name.name == "TUNNEL" and s.current_player == 0)
    seat, out = _seat("decline\n")
    played = seat.act(state.observation(0), state.legal_actions(), random.Random(0))
    text = out.getvalue()
    assert isinstance(played, DeclineTunnel)
    revealed = ", ".join(CARD_NAMES[c] for c in state.revealed)
    assert f"tunnel: you {state.tunnel_pending}; turned over {revealed}: {state.tunnel_extra} extra card" in text
    assert re.search(r"^ +\d+ +decline$", text, re.M)
    assert re.search(r"your tickets: [^\n]*\(\d+\) long", text)  # the long ticket dealt at setup, kept


def test_the_offer_at_setup_marks_the_long_ticket():
    state = EUROPE.new_game(2, 3)
    seat, out = _seat("keep 0,1,2,3\n")
    seat.act(state.observation(state.current_player), state.legal_actions(), random.Random(0))
    offered = re.search(r"tickets offered: ([^\n]*)", out.getvalue())[1].split(", ")
    assert sum(t.endswith(" long") for t in offered) == 1 and len(offered) == 4


def test_claims_of_tunnels_and_ferries_say_so_and_ordinary_ones_do_not():
    live = EUROPE.views.live()
    state = _to(7, lambda s: s.phase_name.name == "TURN" and s.current_player == 0 and s.turns > 0)
    obs = state.observation(0)
    by_kind = {}
    for t in EUROPE.board.tracks:
        claim = Claim(t.id, t.colour if t.colour else 1, 0, t.length, t.label)  # any payment: only the text matters
        by_kind.setdefault("tunnel" if t.tunnel else "ferry" if t.ferry_locomotives else "plain", (t, live.action_line(obs, claim)))
    tunnel, ferry, plain = by_kind["tunnel"], by_kind["ferry"], by_kind["plain"]
    assert f"{tunnel[0].label} (tunnel) with " in tunnel[1]
    assert f"{ferry[0].label} (ferry, {ferry[0].ferry_locomotives} loco) with " in ferry[1]
    assert "(" not in plain[1].split(" with ")[0]
    # Typing the text shown without the note still plays the claim: the note is only shown.
    assert EUROPE.parse_action(tunnel[1].replace(" (tunnel)", "")).track == tunnel[0].id
