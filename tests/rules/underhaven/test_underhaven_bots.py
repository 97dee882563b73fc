"""The Underhaven bots' valuation (issue 27; audit turn 3, 7.4.1-7.4.3): the last seat of a round
values ending its turn at the same rounds left as keeping it open (no stalling), the "3
resources for 1 PT" ability (RB:292) is valued by what it buys and not a flat 0.2, and the
Starting player location (RB:389, RB:780-783) by the places it gains and what it costs, not
a flat 0.3."""

from __future__ import annotations

import pytest

from engine.core.play import play_game
from engine.core.protocol import Seat
from engine.games.underhaven import bot_terms
from engine.games.underhaven import bots as B

FACTIONS = ("deltas", "threecees", "tectonics", "enigmas")   # yellow, red, green, blue


def _last_seat(s) -> bool:
    return ("round_end",) in s.agenda and not any(t[0] == "turn" for t in s.agenda)


def _first_last_seat_again(game, rules):
    """The first decision of a greedy 4-player game (seed 7000) where the round's last seat
    may repeat an exchange ("again") or end it ("done"), as a copy."""
    found = []

    def watch(s):
        if not found and s.stack[-1][0] == "again" and _last_seat(s) \
                and ("again",) in s.legal_actions():
            found.append(s.clone(log=False))

    seats = [Seat(f, "greedy") for f in FACTIONS]
    play_game(game, rules, seats, 7000, log=False, watch=watch)
    assert found
    return found[0]


def test_the_last_seat_values_ending_its_turn_before_the_round_end(game, rules):
    """Greedy's lookahead stops at the round end: "done" (which ends the turn and, for the
    round's last seat, the round: the turn die rolls) is valued with the rounds left of the
    decision, as "again" is; a copy that plays the round end has one round fewer and a lower
    heuristic (audit 7.4.1: why the last seat kept paying to stay in its turn)."""
    s = _first_last_seat_again(game, rules)
    seat = s.to_move()
    obs = game.observe(s, seat)
    acts = obs.legal_actions()
    values = dict(zip(acts, B.action_values(obs, seat, acts)))
    cut = obs.clone(log=False)
    del cut.agenda[cut.agenda.index(("round_end",))]
    cut.apply(("done",))
    assert cut.die_left == s.die_left and cut.round == s.round and not cut.stack
    assert values[("done",)] == pytest.approx(B.evaluate(cut, seat))
    full = obs.clone(log=False)
    full.apply(("done",))
    assert full.die_left == s.die_left - 1 or full.over
    assert B.evaluate(full, seat) < values[("done",)]


def test_the_last_seat_does_not_repeat_exchanges_more_than_the_others(game, rules):
    """Four all-greedy games (seeds 7000-7003): at an "again" decision the round's last seat
    repeats the exchange no more often than the other seats (before the fix it repeated
    every time it could, 24 of 24, against 59% for the others)."""
    kept = {True: [0, 0], False: [0, 0]}

    def watch(s):
        if s.stack[-1][0] == "again" and ("again",) in s.legal_actions():
            seat = s.to_move()
            obs = game.observe(s, seat)
            acts = obs.legal_actions()
            values = B.action_values(obs, seat, acts)
            best = acts[max(range(len(acts)), key=values.__getitem__)]
            k = kept[_last_seat(s)]
            k[0] += best == ("again",)
            k[1] += 1

    for g in range(4):
        seats = [Seat(FACTIONS[(g + i) % 4], "greedy") for i in range(4)]
        play_game(game, rules, seats, 7000 + g, log=False, watch=watch)
    last, other = kept[True], kept[False]
    assert last[1] >= 10 and other[1] >= 10
    assert last[0] / last[1] < 0.8
    assert last[0] / last[1] < other[0] / other[1] + 0.2


def _pt_trade_order(make_state, total_extra=0):
    """Seat 1 with the "3 resources for 1 PT" ability at its first order decision, with 4 of
    each basic resource and trade goods so that the end scoring's resources step (one point
    a 5) does not change with the exchange (14 -> 12 counted)."""
    s = make_state()
    seat = s.to_move()
    p = s.players[seat]
    p.ability = "pt_trade"
    p.res, p.pt, p.tg, p.energy = [4, 4, 4], 0, 2 + total_extra, 0
    s.apply(s.legal_actions()[0])
    assert s.stack[-1][0] == "order" and ("pt_trade",) in s.legal_actions()
    return s, seat


def _ranked(game, s, seat):
    obs = game.observe(s, seat)
    acts = obs.legal_actions()
    return dict(zip(acts, B.action_values(obs, seat, acts)))


def test_pt_trade_is_taken_when_the_power_token_is_worth_more(game, make_state):
    """RB:292 "You can lose any 3 resources in exchange for 1 PT once per round": with 11
    rounds left a power token is worth more than three spare resources to the heuristic, and
    the exchange costs no order (the same decision comes back), so greedy ranks it first."""
    s, seat = _pt_trade_order(make_state)
    values = _ranked(game, s, seat)
    best = max(values, key=values.get)
    assert best == ("pt_trade",), values


def test_pt_trade_is_not_taken_in_the_last_round(game, make_state):
    """In the last round a power token counts 1 at the end scoring like each of the three
    resources it costs: the exchange loses value, and greedy ranks it below the best order."""
    s, seat = _pt_trade_order(make_state)
    s.die_left = 0
    values = _ranked(game, s, seat)
    assert values[("pt_trade",)] < max(v for a, v in values.items() if a != ("pt_trade",))


def test_places_gained_by_the_starting_player_token(make_state):
    """RB:389 (the token passes to the left) and RB:780-783 (a Professional on the Starting
    player location makes its owner start the next round): the places earlier a seat plays
    over the rounds left, taking the token against leaving it.  4 players, seat 0 starts this
    round, so seat 1 starts the next one."""
    s = make_state(n=4)
    s.first_seat, s.next_first = 0, -1
    s.die_left = 1
    assert bot_terms.places_gained(s, 1) == 0         # starts the next round anyway
    assert bot_terms.places_gained(s, 0) == 3         # last next round -> first
    assert bot_terms.places_gained(s, 3) == 2
    s.die_left = 2                                     # then seat 0 would be 3rd, now 4th
    assert bot_terms.places_gained(s, 0) == 3 + 2 - 3
    s.die_left = 4                                     # a whole rotation: every place once
    assert bot_terms.places_gained(s, 0) == 0
    s.die_left = 0                                     # the last round: no round to start
    assert bot_terms.places_gained(s, 0) == 0
    s.die_left, s.next_first = 1, 2                    # a rival on the location
    assert bot_terms.places_gained(s, 1) == 3


def test_the_starting_player_is_chosen_by_the_state(game, make_state, monkeypatch):
    """The location's worth is the places gained times PLACE_VALUE, less a bumped rival's 2
    reputation over the rivals: with a (patched) place worth 2 per round, greedy takes it
    when it would play last next round and there is one round left, not when it starts the
    next round anyway, not in the last round, and not when a rival stands there at a
    small place worth; with the measured PLACE_VALUE (0.0) it never outranks an order worth
    something."""
    s = make_state(n=4)
    seat = s.to_move()
    s.apply(s.legal_actions()[0])
    assert s.stack[-1][0] == "order" and ("first_player",) in s.legal_actions()
    s.first_seat, s.next_first = (seat + 1) % 4, -1   # the next round: seat + 2 first
    sid = s.st.space_of_kind["first_player"]

    def top(state):
        values = _ranked(game, state, seat)
        return max(values, key=values.get), values

    monkeypatch.setattr(bot_terms, "PLACE_VALUE", 2.0)
    s.die_left = 1                          # seat plays 3rd next round: 2 places, worth 4
    assert bot_terms.places_gained(s, seat) == 2
    assert top(s)[0] == ("first_player",)
    s.die_left = 0
    assert top(s)[0] != ("first_player",)
    s.die_left = 1
    s.first_seat = (seat - 1) % 4           # it starts the next round anyway
    assert top(s)[0] != ("first_player",)
    s.first_seat = (seat + 1) % 4
    monkeypatch.setattr(bot_terms, "PLACE_VALUE", 0.3)   # 2 places: 0.6 < a bump's 2/3
    s.occ[sid], s.next_first = (seat + 2) % 4, (seat + 2) % 4
    worth = bot_terms.start_player_worth(s, seat)
    assert worth == pytest.approx(0.3 * bot_terms.places_gained(s, seat) - 2 / 3)
    assert worth < 0 and top(s)[0] != ("first_player",)
    monkeypatch.setattr(bot_terms, "PLACE_VALUE", 0.0)
    del s.occ[sid]
    s.next_first = -1
    best, values = top(s)
    assert best != ("first_player",) and values[best] > 0
