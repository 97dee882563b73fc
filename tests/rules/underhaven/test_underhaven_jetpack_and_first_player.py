"""Two rules the turn-3 audit (E13) and the turn-4 re-audit found untested: the Jet Pack
Magnifier (RB:735-742) and the passing of the starting player (RB:389, RB:780-783).
RB:n = line n of shared/rulebooks/underhaven.txt."""

import random

from uh_helpers import magnifier_move, take, whole


def test_jet_pack_magnifier_moves_all_workers_anywhere_explored(make_state):
    """RB:742 "Jet Pack Magnifier. When a Consultant lands there, upon a MOVE activation, it
    enables ALL of his workers to move to ANY explored location on the board. Each move
    costs 1 movement action, a Max of 5 as 1 action was used to move the Consultant onto
    the Jet Pack Magnifier. The owner ... gains 2 rep."  Seat 0's workers stand on its
    starting octagon (0); seat 1 owns the Magnifier on octagon 2; octagon 4 is explored and
    not adjacent."""
    s = make_state()
    p, q = magnifier_move(s), s.players[1]
    far = [sp for sp in range(16, 20) if s.terr[sp] is not None]
    assert far and not any(a[0] in ("jump", "jump_from") for a in s.legal_actions())
    rep = q.rep
    s.apply(("fly", 8))
    assert q.rep == rep + 2 and p.mv_left == 5       # the owner's 2 rep; 1 move used
    assert s.legal_actions().count(("jump_from", 0)) == 1     # where: the next decisions
    jumps = {(a[1], a[2]) for a in whole(s) if a[0] == "jump"}
    assert {(0, far[0]), (1, far[0])} <= jumps       # ALL workers, ANY explored location
    take(s, ("jump", 0, far[0]))
    take(s, ("jump", 1, far[-1]))
    p = s.players[0]
    assert p.workers[:2] == [far[0], far[-1]] and p.mv_left == 3
    for _ in range(3):
        take(s, next(a for a in whole(s) if a[0] == "jump"))
    p = s.players[0]
    assert p.mv_left == 0 and s.legal_actions() == [("end",)]    # a max of 5


def _play_round(s, rng, takers=()):
    """Play the current round with seeded random decisions; the seats in `takers`, in that
    order, place a Professional on the Starting player location ("first_player") at their
    first chance; nobody else does."""
    rnd = s.round
    todo = list(takers)
    while s.round == rnd and not s.is_over():
        acts = s.legal_actions()
        seat = s.to_move()
        if todo and todo[0] == seat and ("first_player",) in acts:
            todo.pop(0)
            s.apply(("first_player",))
            continue
        s.apply(rng.choice([a for a in acts if a != ("first_player",)]))
    assert not todo


def test_the_starting_player_token_passes_to_the_left(make_state):
    """RB:389 "When all players have done their action, hand the starting player token to
    the next player to the left": with nobody on the Starting player location, each round
    starts with the next seat."""
    s = make_state(n=3)
    rng = random.Random(7)
    for _ in range(3):
        first = s.first_seat
        assert s.turn_order()[0] == first
        _play_round(s, rng)
        assert s.first_seat == (first + 1) % 3
        assert s.turn_order()[0] == s.first_seat


def test_the_last_player_on_the_starting_location_starts_the_next_round(make_state):
    """RB:780-783 "Any player can become the starting player, using any activation, by
    placing their Professional in the Starting player location ... During a round, the
    starting player cube can change multiple times. Only the last standing counts.
    Whenever the starting player order changes, the change takes place in the following
    round."  In a 3-player round the second and then the third seat to play take the
    location: the round's order is unchanged, and the next round starts with the third."""
    s = make_state(n=3)
    rng = random.Random(3)
    order = s.turn_order()
    second, third = order[1], order[2]
    _play_round(s, rng, takers=(second, third))
    assert s.first_seat == third != (order[0] + 1) % 3
    assert s.turn_order() == [third, order[0], second]
