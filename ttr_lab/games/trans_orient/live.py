"""Trans-Orient Express at a live table (``ttr-lab play --human``, ``ttr-lab serve``): what one
seat knows, from its observation alone, for the terminal in a few lines and for the browser as the
replay viewer's station and players' table (``replay_html``: the same markup and script), with
each legal action tied to what a click plays it on: a column's card takes it, its pile takes the
tokens (or receives the station master), a card in your hand plays it (or gives it back), a
luggage card on offer keeps it."""

from __future__ import annotations

import random
from typing import Any, Sequence

from ttr_lab.core.live import LivePage, LiveView
from ttr_lab.core.replay_page import player_list
from ttr_lab.games.trans_orient.actions import GiveCard, KeepLuggage, PlaceMaster, Play, TakeCard, TakeTokens
from ttr_lab.games.trans_orient.cards import count_text

_OWN = 'tbody.players tr[data-seat="{seat}"]'
# The replay viewer's render, then the objectives (the replay writes them once into its markup).
_SCRIPT = """function(ctx){ const render = (%s)(ctx);
return function(s){ render(s); ctx.q(".objectives").innerHTML = s.objectives.map(o => `<li>${ctx.esc(o)}</li>`).join(""); };
}"""


class TransOrientLive(LiveView):
    def describe(self, observation: Any, names: Sequence[str]) -> list[str]:
        """The round and phase, the station, the objectives, your luggage and offer, every
        seat's hand, tableau, reserve and public score."""
        from ttr_lab.games.trans_orient.replay_html import luggage_text, public_step

        obs, deck = observation, observation.deck
        step = public_step(obs)
        lines = [f"{deck.title}: you are seat {obs.player}; round {obs.round}, turn {obs.turns}"
                 + (", the final round" if obs.final_round else "") + (f"; you {step['doing']}" if step["doing"] else "")]
        lines.append("objectives: " + "; ".join(deck.objective(n).describe(deck.colours) for n in obs.objectives))
        lines.append("station: " + "; ".join(
            f"{col}: card {low or '-'} over {count_text(obs.pile(col), deck.colours)}"
            + (" [station master]" if obs.master_column == col else "") + f" (next {up or '-'})"
            for col, (low, up) in enumerate(zip(obs.lower, obs.upper))))
        lines.append(f"bag: {count_text(obs.bag, deck.colours)}; draw deck {obs.deck_size} cards")
        lines.append("your luggage: " + ("; ".join(luggage_text(deck, n) for n in obs.luggage) or "none"))
        if obs.offer:
            lines.append("luggage offered: " + "; ".join(luggage_text(deck, n) for n in obs.offer))
        scores = self.scores(obs)
        for seat in range(obs.num_players):
            lines.append(f"seat {seat} ({'you' if seat == obs.player else names[seat]}): {scores[seat]} VP without luggage; "
                         f"hand {', '.join(deck.describe_card(n) for n in obs.hands[seat]) or 'none'}; "
                         f"played {', '.join(map(str, obs.played[seat])) or 'none'}; "
                         f"reserve {count_text(obs.reserve(seat), deck.colours)}; {obs.luggage_counts[seat]} luggage")
        return lines

    def event_text(self, player: int, action: Any, card: Any) -> str:
        # A history's detail is 0 where the action moved no card.
        return str(action) + (f" (card {card})" if card and isinstance(action, (TakeCard, TakeTokens)) else "")

    def scores(self, observation: Any) -> list[int]:
        """Each seat's score if the game ended now, luggage left out (secret until the end) and
        revealed at the end, as the replay viewer shows it: scored on a state the observation
        allows (``determinize``) whose unknowns the score does not read."""
        from ttr_lab.games.trans_orient.replay_html import _without_luggage
        from ttr_lab.games.trans_orient.result import score_game

        state: Any = self.game.determinize(observation, random.Random(0))
        return list(score_game(state if observation.is_over else _without_luggage(state)).scores)

    def page(self, names: Sequence[str]) -> LivePage:
        from ttr_lab.games.trans_orient.replay_html import PLAYER_COLOURS, SCRIPT, STYLE, catalogue, viewer_body

        deck = self.game.deck  # type: ignore[attr-defined]
        data = {"players": player_list(names, PLAYER_COLOURS), **catalogue(deck)}
        return LivePage(body=viewer_body(deck, [], '<div class="final"></div>', luggage="your luggage",
                                                   all_vp="VP with your luggage"), style=STYLE,
                        script=_SCRIPT % SCRIPT, data=data)

    def step(self, observation: Any, mark: dict[str, Any] | None) -> dict[str, Any]:
        from ttr_lab.games.trans_orient.replay_html import public_step

        obs = observation
        score = self.scores(obs)
        n = obs.num_players
        return {**public_step(obs), "score": score, "score_all": score,
                "luggage": [list(obs.luggage) if p == obs.player else [] for p in range(n)],
                "offer": list(obs.offer), "objectives": [obs.deck.objective(k).describe(obs.deck.colours)
                                                         for k in obs.objectives]}

    def target(self, observation: Any, action: Any) -> str | None:
        own = _OWN.format(seat=observation.player)
        if isinstance(action, TakeCard):
            return f'tbody.station tr.lower td[data-column="{action.column}"]'
        if isinstance(action, (TakeTokens, PlaceMaster)):
            return f'tbody.station tr.piles td[data-column="{action.column}"]'
        if isinstance(action, (Play, GiveCard)):
            return f'{own} td.hand [data-card="{action.card}"]'
        if isinstance(action, KeepLuggage):
            return f'{own} td.lug-cards [data-luggage="{action.card}"]'  # an offered card is none of those kept
        return None
