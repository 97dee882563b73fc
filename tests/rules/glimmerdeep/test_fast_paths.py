"""The fast paths of Glimmerdeep's legal actions give exactly what the plain reading of the
rules gives (same options, same order: a random bot picks by index).

- Excavation options ("Excavating Rules"): every placement of the shape whose new spaces
  (not excavated, not forbidden: "Can skip") include one in the player's reach; placements
  gaining the same new spaces are one option, in the order of their first placement.  With
  `game.shapes_skip_unexcavatable = false`: every placement that touches the player's reach,
  covers no forbidden space and marks a new space.
- The card's two decisions (RULES.md, "Small decisions: the excavation in two steps"): the
  dig options above (with a faction's other shapes merged in, the first kept) grouped by their
  lowest frontier space (reachable, not excavated, not forbidden, not blocked); the first
  decision offers one option per anchor, ascending, the dig itself where the anchor has one,
  then the "at any time" abilities and skip; the second the anchor's digs in order.
- Construction sites ("Construction Phase", "Not adjacent"): every footprint judged by the
  faction's `site_ok`, else by `standard_site_ok`.
"""

import random

import pytest

from engine.core.protocol import Seat
from engine.core.registry import get_game
from engine.games.glimmerdeep.board import build_board, footprints, rectangle_fit
from engine.games.glimmerdeep.construction import KINDS
from engine.games.glimmerdeep.excavation import dig_options as _dig_options


def plain_dig_options(s, p, masks):
    reach, forbid = s.reach(p), s.forbidden(p)
    if not s.static.skip:
        news = dict.fromkeys(m & ~p.exc for m in masks if m & reach and not m & forbid)
        news.pop(0, None)
        return [("dig", new) for new in news]
    news = dict.fromkeys(new for new in (m & ~p.exc & ~forbid for m in masks) if new & reach)
    return [("dig", new) for new in news]


def plain_card_digs(s, p, frame):
    """Every dig of the card in `frame` (its shape's, then a faction's other shapes'), as the
    single decision offered them before the two steps."""
    opts = plain_dig_options(s, p, s.static.placements[frame[2]])
    for alt in s.hooks[p.seat].alt_shapes(s, p, frame[2], frame[3]):
        opts += plain_dig_options(s, p, s.static.placements[alt])
    return [a[1] for a in dict.fromkeys(opts)]


def plain_groups(s, p, frame):
    """{anchor: [gains]}: each dig under its lowest frontier space."""
    front = s.reach(p) & ~p.exc & ~s.forbidden(p)
    groups = {}
    for g in plain_card_digs(s, p, frame):
        low = g & front
        groups.setdefault((low & -low).bit_length() - 1, []).append(g)
    return groups


def plain_first_decision(s, p, frame):
    groups = plain_groups(s, p, frame)
    opts = [("dig", groups[c][0]) if len(groups[c]) == 1 else ("anchor", c)
            for c in sorted(groups)]
    extras = s.hooks[p.seat].anytime_extras(s, p) if frame[3] == "card" else []
    return opts + extras + [("skip",)]


def plain_sites(s, p, kind):
    hook = s.hooks[p.seat]
    out = []
    for fp, tag in [(fp, "") for fp in s.static.footprint[kind]] + list(hook.sites(s, p, kind)):
        ok = hook.site_ok(s, p, kind, fp, tag)
        if ok is None:
            ok = s.standard_site_ok(p, fp)
        if ok:
            out.append((fp, tag))
    return out


def test_rectangle_fit_is_the_footprints_inside_a_mask(rules):
    rng = random.Random(7)
    for gmap in rules.maps:
        board = build_board(gmap)
        for size in ((2, 2), (2, 3), (1, 1), (1, 4), (3, 3)):
            fit, fps = rectangle_fit(board, size), footprints(board, size)
            for _ in range(300):
                free = rng.getrandbits(81) | rng.getrandbits(81)
                if rng.random() < 0.5:
                    free |= rng.getrandbits(81)
                assert fit.inside(free) == [fp for fp in fps if not fp & ~free]


def _random_games(first: int, skip: bool, base_seed: int):
    """(state, rng) at every decision of two random 4-player games from `first` (every map
    and faction in turn, the "Can skip" reading `skip`); the caller applies a move drawn with
    `rng` from the legal list before asking for the next."""
    g = get_game("glimmerdeep")
    rules = g.load_rules(sets=[f"game.shapes_skip_unexcavatable={str(skip).lower()}"]).model
    facs = sorted(rules.factions)
    maps = [m.id for m in rules.maps]
    for i in range(first, first + 2):
        seats = [Seat(facs[(i + k) % len(facs)], "random") for k in range(4)]
        s = g.new_game(rules, seats, base_seed + i, map=maps[i % len(maps)])
        rng = random.Random(i)
        while not s.is_over():
            yield s, rng


@pytest.mark.parametrize("first,skip", [(0, True), (2, True), (4, True), (6, True), (0, False)])
def test_fast_options_equal_the_plain_reading(first, skip):
    """Random 4-player games on every map and every faction (traits included); at every
    excavation and construction decision the fast paths equal the plain reading."""
    checked = {"dig": 0, "sites": 0}
    for s, rng in _random_games(first, skip, 4242):
        frame = s.stack[-1]
        p = s.players[frame[1]]
        if frame[0] == "excavate":
            for sid in (frame[2], *s.hooks[p.seat].alt_shapes(s, p, frame[2], frame[3])):
                masks = s.static.placements[sid]
                assert _dig_options(s, p, masks) == plain_dig_options(s, p, masks)
                checked["dig"] += 1
        if frame[0] in ("construct", "site"):
            for kind in KINDS:
                assert s.sites(p, kind) == plain_sites(s, p, kind)
                checked["sites"] += 1
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
    assert checked["dig"] > 50 and checked["sites"] > 20


@pytest.mark.parametrize("first,skip", [(0, True), (3, True), (6, True), (1, False)])
def test_sample_legal_is_the_random_pick_from_the_legal_list(first, skip):
    """`sample_legal(rng)` (the random bot's fast path: an excavation card's options counted,
    only the one drawn built) gives `legal[rng.randrange(len(legal))]` for the plain legal list
    and leaves `rng` where that draw leaves it, at every decision of random games on every map
    and faction (traits and "at any time" abilities included)."""
    sampled = second = 0
    for s, rng in _random_games(first, skip, 777):
        frame = s.stack[-1]
        p = s.players[frame[1]]
        draws = []
        for _ in range(2):   # before the options are listed, then from the remembered ones
            mine = random.Random()
            mine.setstate(rng.getstate())
            draws.append((s.sample_legal(mine), mine.getstate()))
            legal = s.legal_actions()
        plain = random.Random()
        plain.setstate(rng.getstate())
        want = (legal[plain.randrange(len(legal))], plain.getstate())
        assert draws == [want, want]
        if frame[0] == "excavate":   # the plain reading of the options, as above
            assert legal == plain_first_decision(s, p, frame)
            sampled += 1
        elif frame[0] == "excavate_at":
            assert legal == [("dig", g) for g in plain_groups(s, p, frame)[frame[4]]]
            second += 1
        s.apply(legal[rng.randrange(len(legal))])
    assert sampled > 50 and second > 20


def _check_two_decisions(s, frame) -> int:
    """With `frame` on top of `s`: the digs reached through the first decision and the second
    behind each anchor are the card's digs, each once; every anchor is a frontier space in each
    of its digs and leads to two or more digs and nothing else.  Returns the anchors seen."""
    p = s.players[frame[1]]
    front = s.reach(p) & ~p.exc & ~s.forbidden(p)
    reached = []
    anchors = 0
    for a in s.legal_actions():
        if a[0] == "dig":
            reached.append(a[1])
        elif a[0] == "anchor":
            s.stack.append(("excavate_at", frame[1], frame[2], frame[3], a[1]))
            second = s.legal_actions()
            s.stack.pop()
            assert len(second) >= 2 and all(b[0] == "dig" for b in second)
            for b in second:
                assert b[1] >> a[1] & 1 and front >> a[1] & 1
            reached += [b[1] for b in second]
            anchors += 1
    assert len(reached) == len(set(reached))
    assert set(reached) == set(plain_card_digs(s, p, frame))
    return anchors


@pytest.mark.parametrize("first,skip", [(0, True), (2, True), (4, True), (6, True), (0, False)])
def test_the_two_decisions_reach_exactly_the_cards_digs(first, skip):
    """Excavating Rules, through the two small decisions (RULES.md, "Small decisions: the
    excavation in two steps"): at every excavation card of random games (every map and faction,
    traits and "at any time" abilities included), the digs of the first decision and of the
    second decision behind each anchor are exactly the card's digs (the plain reading), each
    reached by one path only; every anchor is a frontier space in each of its digs, and leads
    to two or more digs (none offered empty, nothing but digs)."""
    cards = anchors = 0
    for s, rng in _random_games(first, skip, 9090):
        frame = s.stack[-1]
        if frame[0] == "excavate":
            anchors += _check_two_decisions(s, frame)
            cards += 1
        acts = s.legal_actions()
        s.apply(acts[rng.randrange(len(acts))])
    assert cards > 50 and anchors > 200


@pytest.mark.parametrize("skip", [True, False])
def test_the_two_decisions_keep_the_factions_other_shapes_and_reach(skip):
    """The same with the faction hooks that change what a card may dig, taken from the start:
    the Dustwhiskers' level 3 right ("When a player would excavate 1 space of any kind, they may
    excavate a 2x1 space instead": a 1x1 card's digs are the 1x1's and the 2x1's, the same
    spaces once), the Deepdelvers' level 2 right ("Excavations do not have to be adjacent":
    every space is reachable) and the Gemwardens' forbidden gems, at every decision of their
    seats, for the card on top and for a 1x1 card."""
    g = get_game("glimmerdeep")
    rules = g.load_rules(sets=[f"game.shapes_skip_unexcavatable={str(skip).lower()}"]).model
    maps = [m.id for m in rules.maps]
    boost = {"dustwhiskers": "dustwhiskers_3r", "deepdelvers": "deepdelvers_2r"}
    seen = {"dustwhiskers": 0, "deepdelvers": 0, "gemwardens": 0}
    for i in range(2):
        facs = ["dustwhiskers", "deepdelvers", "gemwardens", "gildtails"]
        s = g.new_game(rules, [Seat(f, "random") for f in facs], 6060 + i, map=maps[i % 4])
        for p in s.players:
            if p.faction in boost:
                p.traits.append(boost[p.faction])
        rng = random.Random(i)
        while not s.is_over():
            frame = s.stack[-1]
            p = s.players[frame[1]]
            if p.faction in seen and frame[0] in ("excavate", "produce", "construct"):
                for f in ((frame,) if frame[0] == "excavate" else ()) + \
                        (("excavate", p.seat, "1x1", "trait"),):
                    s.stack.append(f)
                    _check_two_decisions(s, f)
                    s.stack.pop()
                seen[p.faction] += 1
            acts = s.legal_actions()
            s.apply(acts[rng.randrange(len(acts))])
    assert min(seen.values()) > 20, seen
