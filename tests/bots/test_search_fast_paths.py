"""The search bots' fast paths against the plain rule they stand for (issue 13, section 4:
"fast paths are checked against the plain rule by tests"): on states met along seeded games,
each remembered or precomputed value equals what the rule computes from scratch."""

from __future__ import annotations

import random

import pytest

from engine.core.protocol import Seat
from engine.core.registry import get_game
from engine.core.rng import game_seed


def _states(game_id: str, games: int = 2, every: int = 3, sets: tuple = ()):
    game = get_game(game_id)
    rules = game.load_rules(sets=sets).model
    f = game.factions(rules)
    out = []
    for g in range(games):
        s = game.new_game(rules, [Seat(f[(g + i) % len(f)], "random") for i in range(4)],
                          game_seed(5, g), log=False)
        rng = random.Random(g)
        while not s.is_over():
            if s.step % every == 0:
                out.append(s.clone(log=False))
            legal = s.legal_actions()
            s.apply_legal(legal[rng.randrange(len(legal))], legal)
        out.append(s)
    return game, out


def test_underhaven_end_points_equal_the_end_scoring_rule():
    """bots.end_points (the board's part remembered) = the sum of scoring.end_breakdown."""
    from engine.games.underhaven import bots, scoring
    _game, states = _states("underhaven")
    assert len(states) > 50
    for s in states:
        for seat in range(s.n):
            assert bots.end_points(s, seat) == sum(scoring.end_breakdown(s, seat).values())
    # and asked twice (the remembered board), the same again
    s = states[len(states) // 2]
    assert [bots.end_points(s, q) for q in range(s.n)] == \
        [sum(scoring.end_breakdown(s, q).values()) for q in range(s.n)]


def _plain_glimmerdeep_buildings(s, seat: int) -> float:
    """Glimmerdeep's building term of `evaluate`, card by card (as it was written before the
    per-card table)."""
    from engine.games.glimmerdeep.bots import RES_VALUE
    from engine.games.glimmerdeep.state import GEM, GOLD, IRON
    p = s.players[seat]
    rounds_left = (max(0, s.rules.game.rounds - s.round)
                   + (1 if s.phase in ("excavation", "construction") else 0))
    score = 0.0
    for kind, cid, _fp in p.buildings:
        card = s.static.cards[kind][cid]
        out = card.output
        gain = (out.vp + out.iron * RES_VALUE[IRON] + out.gold * RES_VALUE[GOLD]
                + out.gem * RES_VALUE[GEM] + 1.2 * len(out.excavate)
                + 0.8 * len(out.excavate_space))
        need = (card.input.iron * RES_VALUE[IRON] + card.input.gold * RES_VALUE[GOLD]
                + card.input.gem * RES_VALUE[GEM])
        score += card.vp + max(0.0, gain - need) * rounds_left
    return score


def test_glimmerdeep_card_worth_table_equals_the_card_by_card_sum():
    from engine.games.glimmerdeep.bots import _card_worth
    _game, states = _states("glimmerdeep")
    seen = 0
    for s in states:
        worth = _card_worth(s.static)
        rounds_left = (max(0, s.rules.game.rounds - s.round)
                       + (1 if s.phase in ("excavation", "construction") else 0))
        for seat in range(s.n):
            fast = 0.0
            for kind, cid, _fp in s.players[seat].buildings:
                vp, per = worth[kind, cid]
                fast += vp + per * rounds_left
                seen += 1
            assert fast == _plain_glimmerdeep_buildings(s, seat)
    assert seen > 20


@pytest.mark.parametrize("w,h", [(4, 4), (3, 5)])
def test_deepdelvers_sheet_lines_are_the_rows_and_columns(w, h):
    from engine.games.glimmerdeep.factions.deepdelvers import sheet_lines
    rows, cols = sheet_lines(w, h)
    cells = {(x, y) for x in range(w) for y in range(h)}
    assert [{c for c in cells if rows[y] >> (c[1] * w + c[0]) & 1} for y in range(h)] == \
        [{(x, y) for x in range(w)} for y in range(h)]
    assert [{c for c in cells if cols[x] >> (c[1] * w + c[0]) & 1} for x in range(w)] == \
        [{(x, y) for y in range(h)} for x in range(w)]


@pytest.mark.parametrize("earlier", [False, True])
def test_glimmerdeep_rollout_action_is_always_a_legal_option(earlier):
    """rollout.rollout_action: whatever it draws is in the decision's legal list (so applying
    it with `[action]` as the list is applying a legal action), it declines only where it
    must (not one of an excavation card's two decisions, or a faction with alternative shapes
    / "at any time" abilities), and it draws on most of both decisions (the anchor, or the
    dig of an anchor with one; the dig through an anchor); also with the earlier readings
    (shapes may not pass over unexcavatable spaces)."""
    from engine.games.glimmerdeep.rollout import rollout_action
    from engine.games.glimmerdeep.rules import EARLIER_READINGS
    game, states = _states("glimmerdeep", games=4, every=1,
                           sets=EARLIER_READINGS if earlier else ())
    rng = random.Random(7)
    kinds = ("excavate", "excavate_at")
    drawn = dict.fromkeys(kinds, 0)
    declined = dict.fromkeys(kinds, 0)
    anchors = 0
    for s in states:
        if s.is_over():
            continue
        got = rollout_action(s, rng)
        kind = s.stack[-1][0]
        if got is None:
            if kind in kinds:
                declined[kind] += 1
            continue
        action, legal = got
        assert legal == [action]
        assert kind in kinds
        assert action in s.legal_actions(), (action, s.stack[-1])
        anchors += action[0] == "anchor"
        nxt = s.clone(log=False)
        nxt.apply_legal(action, legal)    # the rule's own apply accepts it
        drawn[kind] += 1
    for kind in kinds:
        assert drawn[kind] > 100 and drawn[kind] > 3 * declined[kind], (drawn, declined)
    assert anchors > 100
