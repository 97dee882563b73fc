"""The speed-ups of engine/games/underhaven (issue 6) against the plain reading of the rule
they compute, at every decision of random games (base map, Crooked Caverns, advanced
buildings with energy; 2-4 players).  No timing: only that the answers are the same."""

import random

import pytest

from engine.core.protocol import Seat
from engine.games.underhaven import build, missions, orders, payment, specialists, tunnels
from engine.games.underhaven import describe as text

FACTIONS = ("deltas", "threecees", "tectonics", "enigmas")
VARIANTS = [(), ("modules.crooked_caverns=true",),
            ("modules.advanced_buildings=true", "modules.energy=true")]


def plain_tile_options(s, p):
    """Rulebook reading: every tunnel type left and every trapezoid held, every placement on
    free gaps connecting a space with one of the player's workers (anywhere with the ability)."""
    near = {c for c in p.workers if 0 <= c < s.st.geo.n_space}
    kinds = [(k, k) for k in s.st.tunnel_ids if s.tunnel_supply.get(k, 0) > 0]
    kinds += [(k, "trapezoid") for k in sorted(set(p.trapezoids))]
    return [("tile", kind, g, r) for kind, shape in kinds
            for g, r, gaps, spaces in s.st.placements[shape]
            if not any(x in s.gap for x in gaps)
            and (p.ability == "tunnel_anywhere" or any(x in near for x in spaces))]


def plain_build_plan(s, p, bd, extra_money=0, extra_pt=0, colours=None, pros_used=0,
                     skip=None, owed=None, used=(), free=None, memo=None):
    """`build._build_plan` read plainly: the fewest professionals over every way of sourcing
    each remaining specialist (each Super once, the skip ability once, a free hire once) that
    leaves the bill payable, or None; nothing remembered (`memo` unused), no shortcut."""
    colours = build.spec_need(s, p, bd) if colours is None else list(colours)
    if skip is None:
        skip = p.ability == "skip_specialist" and "skip_specialist" not in p.used
    plans = []

    def go(i, money, pt, pros, used, skip, free):
        if i == len(colours):
            cost = build._merge(build._build_cost(s, p, bd, money, pt), owed)
            if s.afford(p, *cost[:4], s.morale_steps(p, cost[4])) is not None:
                plans.append(pros)
            return
        for src, arg, m, t in specialists.source_options(s, p, colours[i], used, skip):
            if src == "pro":
                if p.pros_free - pros > 0:
                    go(i + 1, money, pt, pros + 1, used, skip, free)
            elif src in specialists.SUPERS:
                go(i + 1, money + m, pt + t, pros, used + (arg,), skip, free)
            elif src == "skip":
                go(i + 1, money, pt, pros, used, False, free)
            elif src == "hire" and free > 0:
                go(i + 1, money, pt, pros, used, skip, free - 1)
            else:
                go(i + 1, money + m, pt + t, pros, used, skip, free)

    go(0, extra_money, extra_pt, pros_used, tuple(used), skip,
       p.free_hires if free is None else free)
    return min(plans, default=None)


def plain_buildable(s, p):
    """Every building of the supply (and the player's starting buildings) on every site where
    `build_feasible` says it can be completed (its plan read plainly: `plain_build_plan`)."""
    out = []
    for site in build.build_sites(s, p):
        terr = s.terr[site]
        for bid, bd in s.st.b.items():
            if bd.starting or bd.count == 0 or s.supply[bid] <= 0 or terr not in bd.terrains:
                continue
            if bd.one_per_player and any(s.bld[x] == bid and s.owner[x] == p.seat
                                         for x in range(len(s.bld))):
                continue
            if build.build_feasible(s, p, bd, site):
                out.append(("b", bid, site))
        for bid in dict.fromkeys(p.start_buildings):
            bd = s.st.b[bid]
            if terr in bd.terrains and build.build_feasible(s, p, bd, site):
                out.append(("b", bid, site))
    return out


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_fast_paths_give_the_plain_answers(game, variant, monkeypatch):
    rules = game.load_rules(sets=list(VARIANTS[variant])).model
    maps = game.maps(rules)
    checked = {"tile": 0, "build": 0, "claim": 0, "spec": 0}
    for i in range(3):
        n = 2 + (i + variant) % 3
        s = game.new_game(rules, [Seat(f, "random") for f in FACTIONS[:n]], 40 + i,
                          map=maps[i % len(maps)])
        r = random.Random(i)
        while not s.is_over():
            seat = s.to_move()
            p = s.players[seat]
            for q in s.players:
                assert s.owned(q.seat) == [sp for sp, o in enumerate(s.owner) if o == q.seat]
            assert s.social_sites() == [sp for sp, bid in enumerate(s.bld) if bid is not None
                                        and s.done[sp] and s.st.b[bid].activation == "consultant"]
            assert tunnels.tile_options(s, p) == plain_tile_options(s, p)
            assert tunnels.has_tile_option(s, p) == bool(plain_tile_options(s, p))
            checked["tile"] += 1
            if s.stack[-1][0] == "build" or r.random() < 0.2:
                fast = build.buildable(s, p)
                with monkeypatch.context() as m:
                    m.setattr(build, "_build_plan", plain_build_plan)
                    assert fast == plain_buildable(s, p)
                checked["build"] += 1
            if s.stack[-1][0] == "order":    # the orders remembered = worked out afresh
                fast = orders._l_order(s, s.stack[-1])
                known = s.st.slot_options.copy()
                s.st.slot_options.clear()
                assert fast == orders._l_order(s, s.stack[-1])
                s.st.slot_options.update(known)
                checked["order"] = checked.get("order", 0) + 1
            if s.stack[-1][0] == "spec":     # each source offered keeps the build completable
                fast = build._l_spec(s, s.stack[-1])
                with monkeypatch.context() as m:
                    m.setattr(build, "_build_plan", plain_build_plan)
                    assert fast == build._l_spec(s, s.stack[-1])
                checked["spec"] += 1
            # Claiming with the remembered checks = claiming with none remembered.
            a, b = s.clone(), s.clone()
            b.mission_memo = {}
            a.claim_missions(a.players[seat])
            b.claim_missions(b.players[seat])
            assert (a.missions, a.players[seat].rep) == (b.missions, b.players[seat].rep)
            left = [m for m in a.missions if m is not None]
            assert not any(missions.mission_done(a, seat, a.st.missions[m]) for m in left)
            checked["claim"] += 1
            mine = s.owned(seat)              # a layout's count check = trying every way
            have = missions.octagons_by_terrain(s, mine)
            for m in s.st.missions.values():
                if m.kind == "layout":
                    assert missions.layout_done(s, seat, m.pattern, mine) == \
                        missions.layout_fits(s, have, m.pattern)
                    checked["layout"] = checked.get("layout", 0) + 1
            acts = s.legal_actions()
            # the random bot's draw (FrameMachine.sample_legal) = the pick from the list
            mine, plain = random.Random(len(acts)), random.Random(len(acts))
            assert s.sample_legal(mine) == acts[plain.randrange(len(acts))]
            assert mine.getstate() == plain.getstate()
            for a in acts:                   # the move log's text, remembered = worked out
                assert text.describe(s, a, s.stack[-1]) == text.said(s, a, s.stack[-1])
            checked["text"] = checked.get("text", 0) + len(acts)
            s.apply(acts[r.randrange(len(acts))])
    spec = checked.pop("spec")           # the rarer decision (a build's specialists)
    assert min(checked.values()) > 50 and spec > 10, (checked, spec)


def test_largest_track_is_the_first_largest():
    for res in ([0, 0, 0], [1, 2, 2], [3, 1, 3], [0, 5, 1], [2, 1, 4], [5, 5, 0]):
        assert payment.largest_track(res) == max(range(3), key=lambda j: res[j])
