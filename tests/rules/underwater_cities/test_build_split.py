"""A build of several kinds in two small decisions (issue 27; RULES.md "Small decisions"):
what (`("build_kind", kind)`, or the piece itself when its kind has one site), then where
(frame `build_at`).  The pieces a part allows are exactly those of the rulebook's one choice
("Cities", "Buildings", "Tunnels": a build effect places one piece of a kind it names on a
legal site), each reached by one path; the greedy bot values a kind at its best site."""

import random

from engine.games.underwater_cities import bots
from engine.games.underwater_cities.building import first_options, options
from engine.games.underwater_cities.rules import Part

from uwc_helpers import city, only, res, site, tunnel


def _walk(s):
    """Every piece the two decisions reach from the build frame on top of `s`, in order."""
    reached = []
    legal = s.legal_actions()
    for a in legal:
        if a[0] == "build":
            reached.append(a)
        elif a[0] == "build_kind":
            nxt = s.clone(log=False)
            nxt.apply(a)
            frame = nxt.stack[-1]
            assert frame[0] == "build_at" and frame[1] == s.stack[-1][1]
            second = nxt.legal_actions()
            assert len(second) >= 2                      # one site: no second decision
            assert all(b[0] == "build" and b[1] == a[1] for b in second)   # no stop
            reached += second
        else:
            assert a == ("stop",)
    return reached


def _build_states(make_state, games: int):
    """Every state at a build decision in `games` random 4-player games."""
    for g in range(games):
        s = make_state(n=4, seed=100 + g)
        rng = random.Random(g)
        while not s.over:
            if s.stack and s.stack[-1][0] == "build":
                yield s
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])


def test_both_decisions_reach_exactly_the_pieces_of_one_choice(make_state):
    seen = split = 0
    for s in _build_states(make_state, 6):
        frame = s.stack[-1]
        flat = options(s, s.players[frame[1]], frame[2])
        reached = _walk(s)
        assert sorted(reached) == sorted(flat)              # the same pieces ...
        assert len(reached) == len(set(reached))           # ... each by one path
        assert len(s.legal_actions()) <= len(flat) + 1
        seen += 1
        split += any(a[0] == "build_kind" for a in s.legal_actions())
    assert seen > 200 and split > 30      # the walk met many builds, some of several kinds


def _structure_build(make_state):
    """Seat 0 may build any structure (tunnel, farm, desal or lab) and can pay for each."""
    s = make_state(n=4, seed=3)
    city(s, 0, "c10")
    tunnel(s, 0, "t8")
    res(s, 0, credits=6, kelp=4, steelplast=4, science=2)
    return only(s, ("build", 0, Part(kind="build", what="structure"), 1, "slot"))


def test_a_structure_asks_what_then_where(make_state):
    s = _structure_build(make_state)
    legal = s.legal_actions()
    kinds = [a[1] for a in legal if a[0] == "build_kind"]
    assert kinds == ["tunnel", "farm", "desal", "lab"] and legal[-1] == ("stop",)
    s.apply(("build_kind", "lab"))
    where = s.legal_actions()
    assert ("build", "lab", site(s, "c10b2")) in where and ("stop",) not in where
    s.apply(("build", "lab", site(s, "c10b2")))
    assert s.players[0].bld[site(s, "c10b2")]


def test_one_kind_lists_its_sites_at_once(make_state):
    s = make_state(n=4, seed=3)
    res(s, 0, credits=6, kelp=4, steelplast=4)
    only(s, ("build", 0, Part(kind="build", what="tunnel"), 1, "slot"))
    p = s.players[0]
    assert s.legal_actions() == first_options(s, p, s.stack[-1][2]) + [("stop",)]
    assert all(a[0] == "build" for a in s.legal_actions()[:-1])


def test_greedy_values_a_kind_at_its_best_site(make_state):
    s = _structure_build(make_state)
    legal = s.legal_actions()
    values = bots.action_values(s, 0, legal)
    for a, v in zip(legal, values):
        if a[0] != "build_kind":
            continue
        nxt = s.clone(log=False)
        nxt.apply(a)
        assert v == max(bots.action_values(nxt, 0, nxt.legal_actions()))


def test_the_log_counts_each_piece_once(make_state):
    """The what-row names the kind and no cell; the where-row is the usual build row with the
    site's cell (the Map page and the play figures count "build" rows)."""
    s = _structure_build(make_state)
    n = s.log.n_moves()
    s.apply(("build_kind", "farm"))
    s.apply(("build", "farm", site(s, "c10b1")))
    m = s.log.moves()
    rows = list(zip(m["action"], m["detail"], m["cell"]))[n:]
    g = s.geo
    cell = g.cell_of_id["c10b1"]
    assert rows[:2] == [("build_kind", "farm", None), ("build", "farm c10b1", cell)]
