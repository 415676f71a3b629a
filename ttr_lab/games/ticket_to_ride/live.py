"""Ticket to Ride at a live table (``ttr-lab play --human``, ``ttr-lab serve``): what one seat
knows, from its observation alone, for the terminal in a few lines and for the browser as the
replay viewer's board (``replay_html``: the same markup and script), with each legal action tied
to what a click plays it on: a track claims it, a market card or the draw pile draws, the ticket
pile draws tickets, ticked offered tickets are kept, a free city builds a station there."""

from __future__ import annotations

from typing import Any, Sequence

from ttr_lab.core.live import LivePage, LiveView
from ttr_lab.core.replay_page import player_list
from ttr_lab.games.ticket_to_ride.actions import BuildStation, Claim, DrawBlind, DrawMarket, DrawTickets, KeepTickets
from ttr_lab.games.ticket_to_ride.board import TicketDeck
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES
from ttr_lab.games.ticket_to_ride.network import ticket_connected
from ttr_lab.games.ticket_to_ride.replay_html import borrowed_tracks, track_kind, tunnel_step

_PILES = ('<div class="piles"><span class="pile draw-pile" title="draw the top card">draw pile: <b class="n-draw"></b>'
          ' cards</span> <span class="pile ticket-pile" title="draw tickets">ticket pile: <b class="n-tickets"></b>'
          ' tickets</span></div><div class="offer"></div>')
# The waiting tunnel's box above the board on the live page, next to the buttons that answer it
# (the page's flex order; the replay viewer keeps it under the market).
_STYLE = """
#board.ttr-viewer{display:flex;flex-direction:column}
#board.ttr-viewer .tunnel-box{order:-1}
.ttr-viewer .pile{display:inline-block;border:1px solid #888;border-radius:4px;padding:2px 8px;margin:4px 4px 0 0;
  background:#f4f1e8}
"""
# The replay viewer's render, then the piles' counts (the page's own, not the replay's).
_SCRIPT = """function(ctx){ const render = (%s)(ctx);
return function(s){ render(s); ctx.q(".n-draw").textContent = s.draw_pile; ctx.q(".n-tickets").textContent = s.ticket_pile; };
}"""


class TicketToRideLive(LiveView):
    def describe(self, observation: Any, names: Sequence[str]) -> list[str]:
        """Hand, tickets (done or not), what is on offer, the market, every seat's public
        counts and the claims so far by seat."""
        obs, board = observation, observation.board
        me = obs.player
        components = obs.components()
        lines = [f"{board.title}: you are seat {me}; turn {obs.turns}"
                 + (f", final round ({obs.final_turns_left} turns left)" if obs.final_round else ""),
                 "your hand: " + (_hand(obs.hand) or "no cards"),
                 "your tickets: " + (", ".join(_ticket(board.tickets[t]) + (" done" if ticket_connected(board.tickets[t], components) else "")
                                               for t in obs.tickets) or "none")]
        if obs.offered:
            lines.append("tickets offered: " + ", ".join(f"{i}: {_ticket(board.tickets[t])}" for i, t in enumerate(obs.offered)))
        tunnel = tunnel_step(obs)
        if tunnel is not None:
            who = "you" if tunnel["seat"] == me else f"seat {tunnel['seat']}"
            lines.append(f"tunnel: {who} {tunnel['claim']}; turned over {', '.join(tunnel['revealed'])}: "
                         f"{tunnel['extra']} extra card{'s' if tunnel['extra'] != 1 else ''} to pay, or decline")
        lines.append("market: " + ", ".join(f"{i}: {CARD_NAMES[c]}" for i, c in enumerate(obs.market))
                     + f"; draw pile {obs.draw_pile_size} cards, ticket pile {obs.ticket_deck_size}")
        for seat in range(obs.num_players):
            tracks = [board.tracks[t].label.rsplit(" ", 1)[0] + (f" ({track_kind(board.tracks[t])})" if track_kind(board.tracks[t]) else "")
                      for t, o in enumerate(obs.owner) if o == seat]
            stations = ""
            if obs.stations:  # a map with train stations: each seat's, and how many it has left
                built = [board.cities[c] for c, o in enumerate(obs.stations) if o == seat]
                stations = f"; stations: {', '.join(built) or 'none'} ({obs.stations_left[seat]} left)"
            lines.append(f"seat {seat} ({'you' if seat == me else names[seat]}): {obs.route_points[seat]} points, "
                         f"{obs.trains[seat]} trains, {obs.hand_sizes[seat]} cards, {obs.ticket_counts[seat]} tickets; "
                         f"routes: {', '.join(tracks) or 'none'}{stations}")
        return lines

    def action_line(self, observation: Any, action: Any) -> str:
        """A claim of a tunnel or a ferry says so before its payment ("claim Madrid-Pamplona
        white (tunnel) with 2 white"); any other action is its text."""
        if isinstance(action, Claim):
            kind = track_kind(observation.board.tracks[action.track])
            if kind:
                head, sep, rest = str(action).rpartition(" with ")
                return f"{head} ({kind}){sep}{rest}"
        return str(action)

    def event_text(self, player: int, action: Any, card: Any) -> str:
        # A history's detail is -1 where the action moved no card into sight.
        return str(action) + ("" if card is None or card < 0 else f" ({CARD_NAMES[card]})")

    def scores(self, observation: Any) -> list[int]:
        return list(observation.route_points)

    def page(self, names: Sequence[str]) -> LivePage:
        from ttr_lab.games.ticket_to_ride.drawing import PLAYER_COLOURS
        from ttr_lab.games.ticket_to_ride.replay_html import CARD_COLOURS, SCRIPT, STYLE, viewer_body

        board = self.game.board  # type: ignore[attr-defined]
        body = viewer_body(board, "live", hand="your hand", held="your tickets") + _PILES
        data = {"players": player_list(names, PLAYER_COLOURS), "cardColours": CARD_COLOURS}
        return LivePage(body=body, style=STYLE + _STYLE, script=_SCRIPT % SCRIPT, data=data)

    def step(self, observation: Any, mark: dict[str, Any] | None) -> dict[str, Any]:
        from ttr_lab.games.ticket_to_ride.replay_html import _cards, public_step

        obs, board = observation, observation.board
        step = public_step(obs)
        before = mark["owner"] if mark else [-1] * len(obs.owner)
        n = obs.num_players
        step.update({
            "to_play": -1 if obs.phase.name == "OVER" else obs.current_player,
            "claimed": [t for t, (o, b) in enumerate(zip(obs.owner, before)) if o != b and o != obs.player],
            "hands": [_cards(obs.hand) if p == obs.player else {} for p in range(n)],
            "held": [[_ticket(board.tickets[t]) for t in obs.tickets] if p == obs.player else [] for p in range(n)],
            "held_ids": [list(obs.tickets) if p == obs.player else [] for p in range(n)],
            "offer": [_ticket(board.tickets[t]) for t in obs.offered],
            "draw_pile": obs.draw_pile_size, "ticket_pile": obs.ticket_deck_size,
        })
        return step

    def final(self, record: Any) -> dict[str, Any]:
        """At the end, the tracks the stations borrowed (the result's ``station_tracks``)."""
        borrowed = borrowed_tracks(record.result)
        return {"borrowed": borrowed} if borrowed else {}

    def target(self, observation: Any, action: Any) -> str | None:
        if isinstance(action, Claim):
            return f'line[data-track="{action.track}"]'
        if isinstance(action, BuildStation):  # a city's payments share its dot: the page asks which
            return f'circle[data-city="{action.city}"]'
        if isinstance(action, DrawMarket):
            return f".market .card:nth-of-type({action.slot + 1})"
        if isinstance(action, DrawBlind):
            return ".draw-pile"
        if isinstance(action, DrawTickets):
            return ".ticket-pile"
        return None

    def keep(self, action: Any) -> list[int] | None:
        return list(action.indices) if isinstance(action, KeepTickets) else None


def _ticket(ticket: Any) -> str:
    """A ticket as an offer lists it: a long one says so (it cannot be given back later)."""
    return ticket.label + (" long" if ticket.deck == TicketDeck.LONG else "")


def _hand(counts: Sequence[int]) -> str:
    return ", ".join(f"{n} {CARD_NAMES[k]}" for k, n in enumerate(counts) if n)
