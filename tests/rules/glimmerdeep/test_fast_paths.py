"""The fast paths of Glimmerdeep's legal actions give exactly what the plain reading of the
rules gives (same options, same order: a random bot picks by index).

- Excavation options ("Excavating Rules"): every placement of the shape whose new spaces
  (not excavated, not forbidden: "Can skip") include one in the player's reach; placements
  gaining the same new spaces are one option, in the order of their first placement.  With
  `game.shapes_skip_unexcavatable = false`: every placement that touches the player's reach,
  covers no forbidden space and marks a new space.
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
    sampled = 0
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
            opts = plain_dig_options(s, p, s.static.placements[frame[2]])
            alts = s.hooks[p.seat].alt_shapes(s, p, frame[2], frame[3])
            if not alts:
                extras = s.hooks[p.seat].anytime_extras(s, p) if frame[3] == "card" else []
                assert legal == opts + extras + [("skip",)]
                sampled += 1
        s.apply(legal[rng.randrange(len(legal))])
    assert sampled > 50
