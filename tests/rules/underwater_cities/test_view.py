"""What a seat may see (DESIGN.md "Bots see what the seat may see"): hands and decks are
hidden; `observe` hides them, `determinize` redistributes exactly the hidden cards."""

import random

from engine.bots import make_bot
from engine.core.rng import bot_rng


def _hidden_view(s, seat):
    """Everything the observation holds about cards, in a comparable form."""
    return ([list(p.hand) for p in s.players], {e: list(d) for e, d in s.decks.items()},
            list(s.sdeck), list(s.box_hidden), list(s.discard), list(s.sface),
            [sorted(p.public) for p in s.players])


def _midgame(make_state, seed=3, steps=120, n=4):
    s = make_state(n=n, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        a = s.legal_actions()
        s.apply(a[rng.randrange(len(a))])
    return s


def _swap_hidden(s, seat):
    """The same game except what `seat` cannot see: another player's hidden card swapped
    with a card of the same era in the deck, and the deck reordered."""
    t = s.clone()
    other = next(p for p in t.players if p.seat != seat and
                 any(i not in p.public and t.st.era_of[i] == t.era for i in p.hand))
    mine = next(i for i in other.hand if i not in other.public and t.st.era_of[i] == t.era)
    deck = t.decks[t.era]
    j = 0
    other.hand.remove(mine)
    other.hand.append(deck[j])
    other.hand.sort()
    deck[j] = mine
    deck.reverse()
    t.sdeck[:-1] = t.sdeck[:-1][::-1]
    return t


def test_two_states_differing_only_in_hidden_cards_look_the_same(make_state, game):
    s = _midgame(make_state)
    seat = s.to_move()
    t = _swap_hidden(s, seat)
    assert _hidden_view(s, seat) != _hidden_view(t, seat)
    o1, o2 = game.observe(s, seat), game.observe(t, seat)
    assert _hidden_view(o1, seat) == _hidden_view(o2, seat)
    assert o1.legal_actions() == o2.legal_actions() == s.legal_actions()
    d1 = game.determinize(o1, seat, random.Random(9))
    d2 = game.determinize(o2, seat, random.Random(9))
    assert _hidden_view(d1, seat) == _hidden_view(d2, seat)
    b1, b2 = make_bot("greedy", game, bot_rng(1, seat)), make_bot("greedy", game, bot_rng(1, seat))
    assert b1.choose(o1, seat) == b2.choose(o2, seat)


def test_the_seat_keeps_what_it_knows(make_state, game):
    s = _midgame(make_state, seed=5)
    seat = s.to_move()
    o = game.observe(s, seat)
    assert o.players[seat].hand == s.players[seat].hand
    for p, q in zip(s.players, o.players):
        assert q.public <= set(q.hand) and p.public == q.public
        assert q.claimed == p.claimed and q.actions == p.actions
        assert [s.st.era_of[i] for i in sorted(p.hand)].count(1) == \
            [s.st.era_of[i] for i in q.hand].count(1)      # the backs show the era
    assert o.discard == s.discard and o.sface == s.sface and o.sdeck[-1] == s.sdeck[-1]


def test_a_determinisation_holds_only_cards_the_seat_could_not_place(make_state, game):
    s = _midgame(make_state, seed=7, steps=200)
    seat = s.to_move()
    o = game.observe(s, seat)
    d = game.determinize(o, seat, random.Random(4))
    known = set(o.players[seat].hand) | set(o.discard) | set(o.sface) | set(o.box_known) \
        | set(o.sbox) | {o.sdeck[-1]}
    for p in o.players:
        known |= set(p.claimed) | set(p.actions) | set(p.under) | p.public

    def hidden(x):
        out = []
        for p in x.players:
            if p.seat != seat:
                out += [i for i in p.hand if i not in p.public]
        for dk in x.decks.values():
            out += dk
        return sorted(out + x.box_hidden + x.sdeck[:-1])

    assert hidden(d) == hidden(o) == hidden(s)        # the same cards, redistributed
    assert not set(hidden(d)) & known
    for p, q in zip(o.players, d.players):
        assert len(p.hand) == len(q.hand)
        assert [o.st.era_of[i] for i in sorted(p.hand)].count(2) == \
            [d.st.era_of[i] for i in q.hand].count(2)
    assert d.players[seat].hand == s.players[seat].hand
    d.apply(d.legal_actions()[0])                      # a playable state


def test_determinisations_differ_with_the_rng(make_state, game):
    s = _midgame(make_state, seed=8)
    seat = s.to_move()
    o = game.observe(s, seat)
    views = {str(_hidden_view(game.determinize(o, seat, random.Random(k)), seat))
             for k in range(4)}
    assert len(views) > 1


def test_special_cards_being_looked_at_are_hidden_from_others(make_state, game):
    from uwc_helpers import only
    s = make_state()
    only(s, ("special", 0))
    s.apply(("look",))
    seen = s.stack[-1][2]
    o = game.observe(s, 1)
    t = s.clone()
    t.stack[-1] = ("special_keep", 0, tuple(t.sdeck[:len(seen)]))
    t.sdeck[:len(seen)] = list(seen)
    assert game.observe(t, 1).stack[-1] == o.stack[-1]
    assert game.observe(s, 0).stack[-1][2] == seen
