"""What a seat may see (rulebook: decks "shuffle them", colony cards and equipment kept "face
down", traits drawn "face down without looking at them"): the no-peeking test.  Two states that
differ only in what a seat cannot see give it the same observation and the same
determinisations; a determinisation holds only cards the seat could place there."""

import random
from collections import Counter

import pytest

from engine.core.protocol import Seat
from engine.games.cave_colony.view import _get, _set, determinize, hidden_slots, observe

SKIP = {"rules", "st", "log", "rng"}


def snapshot(s) -> dict:
    return {k: v for k, v in vars(s).items() if k not in SKIP}


def _mid_game(game, rules, seed, want="trait_pick"):
    """A random 4-player game played until a `want` decision of some seat is pending, with
    other seats holding unrevealed equipment and colony cards."""
    s = game.new_game(rules, [Seat(c) for c in ("red", "green", "blue", "yellow")], seed)
    rng = random.Random(seed)
    while not s.is_over():
        if s.stack[-1][0] == want and s.round > 3:
            return s
        a = s.legal_actions()
        s.apply(a[rng.randrange(len(a))])
    pytest.skip("no such decision in this game")


def _rearranged(s, seat, rng):
    """A copy of `s` in which, written out from the rulebook independently of view.py, every
    card `seat` cannot see has moved: the unknown part of each deck is reshuffled, and each
    other seat's face-down colony card, unused equipment card and the unseen trait of a
    pending draw is swapped with an unknown card of its deck."""
    t = s.clone()
    bit = 1 << seat
    unknown = {k: [p for p, m in enumerate(t.known[k]) if not m & bit] for k in range(5)}
    for k, pos in unknown.items():
        vals = [t.deck[k][p] for p in pos]
        if len(set(vals)) > 1:
            new = vals[:]
            while new == vals:
                rng.shuffle(new)
            for p, v in zip(pos, new):
                t.deck[k][p] = v

    def swap_with_deck(k, value):
        p = rng.choice(unknown[k])
        t.deck[k][p], value = value, t.deck[k][p]
        return value

    for o in range(t.n):
        if o == seat:
            continue
        if t.card[o] >= 0 and not t.card_up[o] and unknown[0]:
            t.card[o] = swap_with_deck(0, t.card[o])
        eq = list(t.equip[o])
        for slot in range(len(eq)):
            if not t.eq_up[o] >> slot & 1 and unknown[3]:
                eq[slot] = swap_with_deck(3, eq[slot])
        t.equip[o] = tuple(eq)
        t.refresh_mods(o)
    fr = t.stack[-1]
    if fr[0] == "trait_pick" and unknown[fr[2]]:
        t.stack[-1] = fr[:4] + (swap_with_deck(fr[2], fr[4]),)
    return t


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_states_differing_only_in_hidden_cards_look_the_same(game, rules, seed):
    s1 = _mid_game(game, rules, seed)
    mover = s1.to_move()
    for seat in (mover, (mover + 1) % s1.n):
        s2 = _rearranged(s1, seat, random.Random(seed))
        assert snapshot(s1) != snapshot(s2)          # the truths differ ...
        o1, o2 = observe(s1, seat), observe(s2, seat)
        assert snapshot(o1) == snapshot(o2)          # ... the views do not
        d1 = determinize(o1, seat, random.Random(99))
        d2 = determinize(o2, seat, random.Random(99))
        assert snapshot(d1) == snapshot(d2)          # nor the determinisations
        assert o1.legal_actions() == s1.legal_actions() if seat == mover else True


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_determinisation_holds_only_cards_the_seat_could_place(game, rules, seed):
    s = _mid_game(game, rules, seed)
    for seat in range(s.n):
        obs = observe(s, seat)
        det = determinize(obs, seat, random.Random(seed))
        hidden = hidden_slots(s, seat)
        hidden_refs = {r for refs in hidden.values() for r in refs}
        for kind, refs in hidden.items():
            # the hidden slots hold exactly the cards hidden from the seat, rearranged
            assert Counter(_get(det, r) for r in refs) == Counter(_get(s, r) for r in refs)
        # everything else is the truth: every visible deck position, card and equipment
        for k in range(5):
            for p in range(len(s.deck[k])):
                if ("deck", k, p) not in hidden_refs:
                    assert det.deck[k][p] == s.deck[k][p]
        for t in range(s.n):
            if ("card", t) not in hidden_refs:
                assert det.card[t] == s.card[t]
            for slot in range(len(s.equip[t])):
                if ("equip", t, slot) not in hidden_refs:
                    assert det.equip[t][slot] == s.equip[t][slot]
        keys = set(snapshot(s)) - {"deck", "card", "equip", "stack", "mods"}
        assert {k: getattr(det, k) for k in keys} == {k: getattr(s, k) for k in keys}
        assert det.to_move() == s.to_move() and det.legal_actions() == s.legal_actions()


def test_the_unseen_trait_is_hidden_even_from_the_drawer(game, rules):
    """"Choose whether you want to keep the card you looked at or the one that you didn't"."""
    s1 = _mid_game(game, rules, 5)
    frame = s1.stack[-1]
    drawer = frame[1]
    refs = hidden_slots(s1, drawer)[frame[2]]
    assert ("frame", len(s1.stack) - 1, 4) in refs       # the unseen card
    assert ("frame", len(s1.stack) - 1, 3) not in refs   # the card it looked at
    s2 = s1.clone()
    deck_ref = next(r for r in refs if r[0] == "deck" and _get(s2, r) != frame[4])
    a, b = _get(s2, deck_ref), frame[4]
    _set(s2, deck_ref, b)
    _set(s2, ("frame", len(s2.stack) - 1, 4), a)
    assert s2.stack[-1][4] != s1.stack[-1][4]
    assert snapshot(observe(s1, drawer)) == snapshot(observe(s2, drawer))


def test_others_colony_cards_and_equipment_are_hidden_until_shown(game, rules):
    s = _mid_game(game, rules, 8, want="act")
    me = s.to_move()
    other = (me + 1) % s.n
    refs = hidden_slots(s, me)
    if s.card[other] >= 0:
        assert (("card", other) in refs[0]) == (not s.card_up[other])
    for slot in range(len(s.equip[other])):
        assert (("equip", other, slot) in refs[3]) == (not s.eq_up[other] >> slot & 1)
    assert ("card", me) not in refs[0] and not any(r[:2] == ("equip", me) for r in refs[3])


def test_bots_choose_alike_on_states_that_look_alike(game, rules):
    from engine.bots import make_bot
    from engine.core.rng import bot_rng
    s1 = _mid_game(game, rules, 21, want="act")
    seat = s1.to_move()
    s2 = _rearranged(s1, seat, random.Random(1))
    b1, b2 = make_bot("greedy", game, bot_rng(7, 0)), make_bot("greedy", game, bot_rng(7, 0))
    assert b1.choose(observe(s1, seat), seat) == b2.choose(observe(s2, seat), seat)


def test_determinisations_redistribute_the_hidden_cards(game, rules):
    """Different generators give different arrangements of the hidden cards (and fresh chance
    streams), so a search bot samples the unknown, not one fixed guess."""
    s = _mid_game(game, rules, 8)
    seat = s.to_move()
    obs = observe(s, seat)
    arrangements = set()
    for k in range(6):
        det = determinize(obs, seat, random.Random(k))
        arrangements.add(tuple(tuple(_get(det, r) for r in refs)
                               for refs in hidden_slots(det, seat).values()))
        assert det.rng is not None and det.legal_actions() == s.legal_actions()
    assert len(arrangements) == 6
