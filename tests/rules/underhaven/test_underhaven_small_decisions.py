"""Wide decisions asked in small parts (issue 27; RULES.md "Small decisions"): a tile (which
tile, then which gap, then which orientation: frame `tile_at`) and a jump (which worker, then which octagon, then which
space: frame `jump_to`).  The parts reach exactly the moves of the rulebook's one choice
(Trade: "a new Tunnel or Trapezoid" laid on a free gap next to a worker; RB:742 Jet Pack
Magnifier: "ALL of his workers to move to ANY explored location ... Each move costs 1
movement action"; Lava Crawler: "between 2 explored magma spaces, counts as 1 move action"),
each by one path; the greedy bot values a first part at its best completion.
RB:n = line n of shared/rulebooks/underhaven.txt."""

import random

from engine.games.underhaven import bots, tunnels
from engine.games.underhaven.decisions import FOLLOW_UPS, follow_up

from uh_helpers import explore, magnifier_move, only, whole

ADVANCED = ["modules.advanced_buildings=true"]      # the Lava Crawler


def _flat_jumps(s, p) -> list[tuple]:
    """The jumps of a Move as one list (the decision before it was split): every worker not
    stopped, the first on each space, to every space the Magnifier or the Crawler reaches."""
    geo, terr = s.st.geo, s.terr
    crawler = any(s.done[sp] and s.st.b[s.bld[sp]].magma_travel for sp in s.owned(p.seat))
    paid = p.mv_crawl or not s.rules.modules.energy or any(
        s.done[sp] and s.st.b[s.bld[sp]].magma_travel and p.energy >= s.st.b[s.bld[sp]].energy_cost
        for sp in s.owned(p.seat))
    out, seen = [], set()
    if p.mv_left <= 0:
        return out
    for w, cell in enumerate(p.workers):
        if cell < 0 or cell in seen or w in p.mv_stopped:
            continue
        seen.add(cell)
        for d in range(geo.n_space):
            if d == cell or d in geo.nb[cell]:
                continue
            if p.mv_jet and terr[d] is not None:
                out.append(("jump", w, d))
            elif (not p.mv_jet and crawler and paid and cell < geo.n_space
                  and terr[cell] == "magma" and terr[d] == "magma"):
                out.append(("jump", w, d))
    return out


def _decisions(game, sets, games: int):
    """Every state at a tile or move decision of `games` random 4-player games."""
    rules = game.load_rules(sets=sets).model
    from engine.core.protocol import Seat
    for g in range(games):
        s = game.new_game(rules, [Seat(f, "random") for f in
                                  ("deltas", "threecees", "tectonics", "enigmas")], 50 + g)
        rng = random.Random(g)
        while not s.over:
            if s.stack[-1][0] in ("tile", "move"):
                yield s
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])


def test_the_parts_reach_exactly_the_moves_of_one_choice(game):
    tiles = jumps = split_tiles = split_jumps = 0
    for sets in ([], ADVANCED):
        for s in _decisions(game, sets, 10):
            frame = s.stack[-1]
            p = s.players[frame[1]]
            reached = whole(s)
            assert len(reached) == len(set(reached))            # each by one path
            legal = s.legal_actions()
            if frame[0] == "tile":
                flat = tunnels.tile_options(s, p) or [("none",)]
                assert sorted(reached) == sorted(flat)
                tiles += 1
                split_tiles += any(a[0] == "tile_kind" for a in legal)
            else:
                plain = [a for a in legal if a[0] not in ("jump", "jump_from")]
                assert sorted(a for a in reached if a[0] == "jump") == sorted(_flat_jumps(s, p))
                assert [a for a in reached if a[0] != "jump"] == plain   # the rest unchanged
                jumps += any(a[0] == "jump" for a in reached)
                split_jumps += any(a[0] == "jump_from" for a in legal)
    assert tiles > 50 and split_tiles > 30 and jumps > 15 and split_jumps > 10


def test_every_later_part_has_two_options_or_more(game):
    """A part of one option is never asked: a group of one move is that move, and a decision
    with one group lists its moves at once."""
    seen = 0
    for s in _decisions(game, ADVANCED, 3):
        for a in s.legal_actions():
            if a[0] not in ("tile_kind", "jump_from"):
                continue
            nxt = s.clone(log=False)
            nxt.apply(a)
            while follow_up(nxt):
                legal = nxt.legal_actions()
                assert len(legal) >= 2 and nxt.stack[-1][0] in FOLLOW_UPS
                assert nxt.to_move() == s.to_move()
                seen += 1
                nxt.apply(legal[0])
    assert seen > 50


def _magnifier(make_state):
    """Seat 0's consultant has landed on a Jet Pack Magnifier with 5 moves left; two workers
    on octagon 0, octagons 2 and 4 explored."""
    s = make_state()
    magnifier_move(s)
    explore(s, 4, ("greenery", "mine", "magma", "water"))
    s.apply(("fly", 8))
    return s


def test_a_jump_asks_worker_then_octagon_then_space(make_state):
    s = _magnifier(make_state)
    legal = s.legal_actions()
    assert ("jump_from", 0) in legal and ("jump_from", 1) in legal
    assert not any(a[0] == "jump" for a in legal)
    s.apply(("jump_from", 0))
    assert s.stack[-1] == ("jump_to", 0, 0, -1) and s.stack[-2] == ("move", 0)
    octagons = s.legal_actions()
    assert ("jump_oct", 4) in octagons and ("jump_oct", 2) in octagons
    assert ("jump", 0, 2) in octagons            # octagon 0's one other space: the jump itself
    assert s.players[0].mv_left == 5                         # choosing where costs nothing
    s.apply(("jump_oct", 4))
    spaces = s.legal_actions()
    assert spaces == [("jump", 0, d) for d in range(16, 20)]
    s.apply(("jump", 0, 18))
    p = s.players[0]
    assert p.workers[0] == 18 and p.mv_left == 4 and s.stack[-1] == ("move", 0)


def test_the_log_writes_each_part_and_one_jump(make_state):
    """The parts' rows name the worker and the octagon, with no cell; the jump's row is the
    usual `move_jump` with the space it lands on (the Map page counts cells)."""
    s = _magnifier(make_state)
    n = s.log.n_moves()
    s.apply(("jump_from", 1))
    s.apply(("jump_oct", 4))
    s.apply(("jump", 1, 17))
    m = s.log.moves()
    rows = list(zip(m["action"], m["detail"], m["cell"]))[n:]
    assert rows == [("move_jump_from", "worker 1", None),
                    ("move_jump_octagon", "worker 1 to octagon 4", None),
                    ("move_jump", "worker 1 to 17", 17)]


def test_a_tile_anywhere_asks_tile_then_gap_then_orientation(make_state):
    """With "Tunnel tile requirement skipped" every free gap takes a tile: dozens of
    placements of one kind, asked as a gap and then an orientation."""
    s = make_state(n=4)
    p = s.players[0]
    p.ability = "tunnel_anywhere"
    p.trapezoids = []
    only(s, ("tile", 0))
    flat = tunnels.tile_options(s, p)
    first = s.legal_actions()
    assert first == [("tile_kind", k) for k in s.st.tunnel_ids if s.tunnel_supply[k] > 0]
    s.apply(("tile_kind", "bend"))
    gaps = s.legal_actions()
    bends = [a for a in flat if a[1] == "bend"]
    assert len(bends) > 30 and len(gaps) <= 30
    g = next(a[2] for a in gaps if a[0] == "tile_gap")
    s.apply(("tile_gap", "bend", g))
    assert s.legal_actions() == [a for a in bends if a[2] == g]
    s.apply(s.legal_actions()[-1])
    assert g in s.gap and not s.stack                # laid: nothing left to ask


def test_one_tile_kind_left_asks_its_gap_first(make_state):
    """With one kind that can be laid (the other types run out, no trapezoid), the first
    decision is that kind's gaps, not its every placement."""
    s = make_state(n=4)
    p = s.players[0]
    p.ability = "tunnel_anywhere"
    p.trapezoids = []
    for k in s.st.tunnel_ids:
        s.tunnel_supply[k] = 1 if k == "bend" else 0
    only(s, ("tile", 0))
    bends = tunnels.tile_options(s, p)
    first = s.legal_actions()
    assert len(bends) > 30 and len(first) <= 30
    assert {a[0] for a in first} <= {"tile_gap", "tile"} and any(a[0] == "tile_gap" for a in first)
    assert sorted(whole(s)) == sorted(bends)


def test_greedy_values_a_first_part_at_its_best_completion(game):
    checked, kinds = 0, set()
    for s in _decisions(game, ADVANCED, 6):
        legal = s.legal_actions()
        seat = s.to_move()
        values = bots.action_values(s, seat, legal)
        for a, v in zip(legal, values):
            if a[0] not in ("tile_kind", "jump_from"):
                continue
            nxt = s.clone(log=False)
            nxt.apply(a)
            best = max(bots.action_values(nxt, seat, nxt.legal_actions()))
            assert abs(v - best) < 1e-9, (a, v, best)
            checked += 1
            kinds.add(a[0])
        if checked > 40 and len(kinds) == 2:
            break
    assert checked > 40 and kinds == {"tile_kind", "jump_from"}
