"""Rulebook "Collecting Gems", "Spend Gem (Colony Cards require you to spend 1 or more Gem)",
the colony card draw at the start of a turn and "After Completing 5 Colony Cards, you are the
winner and the game is over"."""

from cc_helpers import cell, kinds, lay, plain_worker
from engine.games.cave_colony import cards as C

BLUE, GREEN, YELLOW, WHITE = 3, 2, 1, 0


def _card(s, seat, card_id):
    k, i = s.st.cards.index[card_id]
    assert k == C.COLONY
    s.card[seat] = i
    return i


def test_gem_collection_as_many_times_as_energy_permits(at_actions):
    """"When a Worker is on the same tile as a Gem, they may collect that Gem at the cost of 1
    Energy ... You can do this as many times on a turn as long as Energy permits it"."""
    s = at_actions(energy=3)
    seat = s.cur
    here = lay(s, cell(s, 4, 2), "four_way", "NESW")
    s.pos[seat] = here
    s.cgem[here * 5 + BLUE] = 3
    s.gem_supply[BLUE] -= 3
    for _ in range(3):
        assert ("collect", BLUE) in s.legal_actions()
        s.apply(("collect", BLUE))
    assert s.carry[seat * 5 + BLUE] == 3 and s.cgem[here * 5 + BLUE] == 0 and s.energy == 0
    assert not kinds(s.legal_actions(), "collect")


def test_spending_fills_colour_slots_then_wildcards(at_actions):
    """"Wildcard is term used to describe a Gem that can be of any type": Air Scrubber costs
    blue, blue, wild; a third blue fills the wildcard, a green could too, a fourth gem cannot
    be spent."""
    s = at_actions(energy=6)
    seat = s.cur
    _card(s, seat, "col_air_scrubber")
    s.carry[seat * 5 + BLUE] = 2
    s.carry[seat * 5 + GREEN] = 1
    s.gem_supply[BLUE] -= 2
    s.gem_supply[GREEN] -= 1
    assert sorted(kinds(s.legal_actions(), "spend")) == [("spend", GREEN), ("spend", BLUE)]
    s.apply(("spend", GREEN))                        # the wildcard slot
    assert kinds(s.legal_actions(), "spend") == [("spend", BLUE)]
    s.apply(("spend", BLUE))
    assert s.card_up[seat]                           # a card with gems lies face up
    s.apply(("spend", BLUE))                         # complete
    assert s.card[seat] == -1 and len(s.done[seat]) == 1
    assert s.energy == 3                             # 1 energy per gem spent
    assert s.log.breakdown(seat) == {"colony": 1}
    assert s.gem_supply[BLUE] == 10 and s.gem_supply[GREEN] == 10   # back to the supply
    assert s.max_oxygen(seat) == s.rules.worker.max_oxygen + 1       # reward: max_oxygen +1


def test_spending_at_the_colony_switch(at_actions):
    """Switch `colony.spend_at_colony` (the rulebook names no place): gems only on the worker's
    own colony tile."""
    s = at_actions(energy=3, sets=("colony.spend_at_colony=true",))
    seat = s.cur
    _card(s, seat, "col_water_still")
    s.carry[seat * 5 + BLUE] = 1
    s.gem_supply[BLUE] -= 1
    s.pos[seat] = lay(s, cell(s, 4, 2), "four_way", "NESW")
    assert not kinds(s.legal_actions(), "spend")
    s.pos[seat] = s.home(seat)
    assert kinds(s.legal_actions(), "spend") == [("spend", BLUE)]


def test_colony_card_draw_two_keep_one(first_turn):
    """"If you do not have a Colony Card that hasn't been completed, draw 2 and look at both.
    Pick one card to keep and place it face down in front of you, placing the other one at the
    bottom of the deck"."""
    s = first_turn()
    seat = s.stack[-1][1]
    assert s.stack[-1][0] == "colony_pick" and seat == s.first_seat
    a, b = s.stack[-1][2]
    assert len(s.deck[C.COLONY]) == 34
    s.apply(("keep", b))
    assert s.card[seat] == b and not s.card_up[seat]
    assert s.deck[C.COLONY][0] == a and s.known[C.COLONY][0] == 1 << seat
    assert len(s.deck[C.COLONY]) == 35


def test_no_draw_while_a_card_is_unfinished(make_state):
    s = make_state()
    seat = s.stack[-1][1]
    s.apply(s.legal_actions()[0])
    while s.cur == seat:
        s.apply(("end",) if ("end",) in s.legal_actions() else s.legal_actions()[0])
    # play round the table back to the seat
    while s.cur != seat or s.stack[-1][1] != seat:
        s.apply(("end",) if ("end",) in s.legal_actions() else s.legal_actions()[0])
    assert s.stack[-1][0] != "colony_pick"


def test_the_win_at_five_completed_colony_cards(at_actions):
    """"After Completing 5 Colony Cards, you are the winner and the game is over": the fifth
    card ends the game at once; the winner has 5 (one score event per card)."""
    s = at_actions(energy=6)
    seat = s.cur
    for name in ("col_lantern_post", "col_water_still", "col_moss_bed", "col_ember_pit"):
        s.done[seat] += (s.st.cards.index[name][1],)
        s.log.score(s.step, s.round, seat, "colony", 1)
    for i in s.done[seat]:
        s.deck[C.COLONY].remove(i)
        s.known[C.COLONY].pop()
    _card(s, seat, "col_tool_rack")                 # white + wild
    s.carry[seat * 5 + WHITE] = 2
    s.gem_supply[WHITE] -= 2
    s.apply(("spend", WHITE))
    assert not s.is_over()
    s.apply(("spend", WHITE))
    assert s.is_over() and s.ended_by == "game_end" and s.legal_actions() == []
    res = s.result()
    assert res[seat].score == 5 and res[seat].won and res[seat].rank == 1
    assert sum(r.won for r in res) == 1
    assert all(r.score < 5 for r in res if r.seat != seat)


def test_play_out_switch_continues_for_the_order_of_victory(at_actions):
    """"Optionally, the rest of the players may play out the game to see the order of
    Victory" (switch `game.play_out`): the first to five still wins; the game goes on."""
    s = at_actions(energy=6, sets=("game.play_out=true",))
    seat = s.cur
    s.done[seat] = tuple(s.st.cards.index[n][1] for n in
                         ("col_lantern_post", "col_water_still", "col_moss_bed", "col_ember_pit"))
    _card(s, seat, "col_tool_rack")
    s.carry[seat * 5 + WHITE] = 2
    s.apply(("spend", WHITE))
    s.apply(("spend", WHITE))
    assert not s.is_over() and s.finish == [seat] and s.cur != seat   # its turn ended
    for _ in range(200):
        if s.is_over():
            break
        assert s.stack[-1][1] != seat or s.stack[-1][0] == "steal"   # it never takes a turn
        s.apply(("end",) if ("end",) in s.legal_actions() else s.legal_actions()[0])


def test_ranking_at_the_turn_limit_has_no_winner_and_no_roll_off(at_actions):
    """RB:145: only 5 completed colony cards win.  At the turn limit nobody has won (D1 of the
    turn-3 audit: 097fdb9 ranked every seat with a roll-off and crowned the first); the standing
    (RULES.md "Score and ranking": completed cards, then gems on the unfinished card, then
    carried gems) still ranks the seats, and level seats share a rank."""
    from engine.games.cave_colony.scoring import result
    from engine.games.cave_colony.turn import end_game
    s = at_actions()
    end_game(s, "turn_limit")
    assert [r.rank for r in result(s)] == [1] * s.n           # all level: all share rank 1
    assert not any(r.won for r in result(s))
    s.carry[0 * 5] = 1
    assert [r.rank for r in result(s)] == [1] + [2] * (s.n - 1)
    s.oncard[1 * 5] = 1
    assert result(s)[1].rank == 1 and result(s)[0].rank == 2
    s.done[0] = (0,)
    assert result(s)[0].rank == 1 and not any(r.won for r in result(s))


def test_the_first_to_five_cards_is_the_only_winner(at_actions):
    """RB:145 "After Completing 5 Colony Cards, you are the winner and the game is over"."""
    from engine.games.cave_colony.colony_cards import win
    s = at_actions()
    seat = (s.cur + 1) % s.n
    s.done[seat] = (0, 1, 2, 3, 4)
    win(s, seat)
    res = s.result()
    assert s.is_over() and s.ended_by == "game_end"
    assert [r.won for r in res] == [i == seat for i in range(s.n)] and res[seat].rank == 1


def test_a_colony_reward_that_boosts_energy_is_collected_as_a_crystal(at_actions):
    """RB:111 "Collect Energy (silver crystal) if you have any boosts to your Energy": a worker
    whose colony completes the Generator (reward energy +1) collects the crystal at once, as a
    recruit would (turn-3 audit D9: on 097fdb9 it got none, yet the boost cancelled a negative
    energy trait at once).  With a Lazy -1 trait the boost only cancels it: no crystal."""
    from engine.games.cave_colony.colony_cards import complete
    for lazy, crystals in ((0, 1), (-1, 0)):
        s = at_actions()
        seat = s.cur
        s.colony_mods[seat] = tuple(0 for _ in C.MOD_FIELDS)
        s.refresh_mods(seat)
        m = list(s.mods[seat])
        m[C.MOD_FIELDS.index("energy")] = lazy
        s.mods[seat] = tuple(m)
        s.traits[seat] = ((C.NEGATIVE, s.st.cards.index["neg_lazy"][1]),) if lazy else ()
        s.refresh_mods(seat)
        assert s.mods[seat][C.MOD_FIELDS.index("energy")] == lazy
        supply = s.ecrys_supply
        s.card[seat] = s.st.cards.index["col_generator"][1]
        complete(s, seat)
        assert s.ecrys[seat] == crystals and s.ecrys_supply == supply - crystals
