"""Greedy and the planner weigh a tunnel's expected extra cards: the payment colour the fewest
unseen cards match, the tunnel whose colour is scarcer among the unseen cards, and whether a
tunnel's extra cards are worth paying (a completed ticket: pay; else decline what is dear)."""

import numpy as np
import pytest

from helpers import act, decide, make_state, ticket_id
from ttr_lab.core.registry import build
from ttr_lab.games.ticket_to_ride import DECLINE, Claim, PayTunnel, Phase, load_board
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES
from ttr_lab.strategies.ticket_to_ride import greedy_kernel
from ttr_lab.strategies.ticket_to_ride.planning import choose_payment
from ttr_lab.strategies.ticket_to_ride.planner_toolkit import cheapest_claim
from ttr_lab.strategies.ticket_to_ride.tunnel_odds import expected_extra_from, unseen_cards, unseen_from

BOARD = load_board("europe")
COLOUR = {name: i for i, name in enumerate(CARD_NAMES)}


def _ids(state, track_labels):
    """The legal claims' ids of the tracks labelled ``track_labels``, in legal order."""
    tracks = {t.id for t in BOARD.tracks if t.label in track_labels}
    table = state.face.actions
    return np.array([table.index(a) for a in state.legal_actions() if type(a) is Claim and a.track in tracks],
                    dtype=np.int64)


@pytest.mark.parametrize("scarce", ["red", "blue"])
def test_a_gray_tunnel_is_paid_with_the_colour_fewest_unseen_cards_match(scarce):
    # Eight cards of the scarce colour are in the discard: fewer of them can turn up.
    s = make_state(2, board=BOARD, hands=[{"red": 2, "blue": 2}, {}], discard=[scarce] * 8)
    obs = s.observation(0)
    unseen = unseen_from(obs)
    kernel_unseen = np.zeros(len(unseen), dtype=np.int64)
    assert unseen_cards(s.face.g, s.s, 0, kernel_unseen) == sum(unseen) and list(kernel_unseen) == unseen
    other = "blue" if scarce == "red" else "red"
    assert expected_extra_from(obs, COLOUR[scarce]) < expected_extra_from(obs, COLOUR[other])
    claims = [a for a in s.legal_actions() if type(a) is Claim and BOARD.tracks[a.track].label.startswith("Angora-Constantinople")]
    assert {CARD_NAMES[a.colour] for a in claims if a.locomotives == 0} == {"red", "blue"}
    ids = _ids(s, {BOARD.tracks[claims[0].track].label})
    chosen = s.face.actions[cheapest_claim(s.face.g, s.s, 0, ids, len(ids), claims[0].track, np.empty(len(ids), np.int64))]
    assert CARD_NAMES[chosen.colour] == scarce
    # Greedy's Python payment weighs the same expectation.
    python = choose_payment(claims, obs.hand, extra=lambda c: expected_extra_from(obs, c, unseen))
    assert CARD_NAMES[python.colour] == scarce


@pytest.mark.parametrize("scarce,track", [("blue", "Munchen-Venezia blue"), ("yellow", "Munchen-Zurich yellow")])
def test_greedy_claims_the_tunnel_whose_colour_is_scarcer_among_unseen_cards(scarce, track):
    # Two tunnels alike (length 2, 2 points, off any ticket) but for their colour's cards seen.
    s = make_state(2, board=BOARD, hands=[{"blue": 2, "yellow": 2}, {}], discard=[scarce] * 8)
    labels = {"Munchen-Venezia blue", "Munchen-Zurich yellow"}
    ids = _ids(s, labels)
    g = s.face.g
    useful = np.zeros(g.shape[0], dtype=np.bool_)
    chosen = s.face.actions[greedy_kernel._claim(g, s.s, ids, len(ids), useful, np.empty(len(ids), np.int64))]
    assert BOARD.tracks[chosen.track].label == track
    legal = [a for a in s.legal_actions() if type(a) is Claim and BOARD.tracks[a.track].label in labels]
    python = build("greedy", None, "ticket_to_ride")._best_claim(s.observation(0), legal)
    assert BOARD.tracks[python.track].label == track


def _asked_three(owned: bool):
    """Angora-Smyrna (an orange tunnel) claimed by a seat holding Athina-Angora; the cards
    turned over ask three more. With ``owned`` the seat holds Athina-Smyrna, so the tunnel
    completes the ticket."""
    s = make_state(2, board=BOARD, hands=[{"orange": 6}, {"red": 3}], pile_top=["orange", "orange", "locomotive"],
                   tickets_held=[[ticket_id("Athina-Angora", BOARD)], []],
                   claimed={"Athina-Smyrna gray": 0} if owned else None)
    act(s, "claim Angora-Smyrna orange with 3 orange")
    assert s.phase == Phase.TUNNEL and s.legal_actions()[-1] is DECLINE
    return s


@pytest.mark.parametrize("name", ["greedy", "ticket_planner", "compiled_planner"])
def test_a_dear_tunnel_is_paid_only_when_it_completes_a_ticket(name):
    assert decide(build(name, None, "ticket_to_ride"), _asked_three(owned=True)) == PayTunnel(3, 0)
    assert decide(build(name, None, "ticket_to_ride"), _asked_three(owned=False)) is DECLINE


@pytest.mark.parametrize("name", ["greedy", "ticket_planner"])
def test_one_extra_card_is_always_paid(name):
    s = make_state(2, board=BOARD, hands=[{"orange": 5}, {"red": 3}], pile_top=["orange", "green", "green"])
    act(s, "claim Angora-Smyrna orange with 3 orange")
    assert decide(build(name, None, "ticket_to_ride"), s) == PayTunnel(1, 0)


@pytest.mark.parametrize("name", ["mcts", "mcts_halving", "mcts_tree"])
def test_the_search_weighs_pay_and_decline_by_play_outs(name):
    s = _asked_three(owned=False)
    search = build(name, {"iterations": 24}, "ticket_to_ride")
    legal = s.legal_actions()
    import random

    result = search.search(s.observation(0), legal, random.Random(3))
    assert result.action in (PayTunnel(3, 0), DECLINE)
    assert result.playouts > 0  # searched, not the planner's answer taken as it is


def test_the_compiled_greedy_picks_what_a_fresh_python_greedy_picks_on_europe():
    import random

    from ttr_lab.core.game import load_game
    from ttr_lab.strategies.ticket_to_ride.greedy import Greedy
    from ttr_lab.strategies.ticket_to_ride.planner_decisions import tables_of

    game = load_game("ticket_to_ride", map="europe")
    tunnels = 0
    for seed in (1, 2, 3):
        state = game.new_game(2, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            p = state.current_player
            action = Greedy().act(state.observation(p), legal, rng)
            pt, w = tables_of(state.face.g)
            compiled = greedy_kernel.greedy_choice(state.face.g, pt, state.s, greedy_kernel.PLAN_PARAMS, w)
            assert state.face.actions[compiled] == action, (seed, state.turns, action)
            tunnels += state.phase == Phase.TUNNEL
            state.apply(action)
    assert tunnels > 0  # the games asked for tunnels' extra cards
