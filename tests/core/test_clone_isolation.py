"""A clone and its original never share anything one of them changes (issue 13, section 4:
copy-on-write players, log and chance stream).

At decisions of random games (a seeded 15% of them, each game played to its end; every
registered game, its rules variants, player counts and maps in turn): a full clone and a
lookahead clone (`clone(log=False)`) are taken; each is advanced by a few random legal actions, and the original's whole state (a deterministic
serialisation: every attribute, the players' records, the log's rows, the chance stream's
state) must be exactly what it was.  Then the original is advanced and a clone taken before
must be unchanged in turn (the original writing a record it still shares with a copy).
"""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from engine.core.events import EventLog, ScoreTally
from engine.core.protocol import Seat
from engine.core.registry import builtin_games, get_game
from engine.core.rng import game_seed

GAMES = sorted(builtin_games())
# Shared by design and never written during play: the rules, the static tables built from
# them, the faction hooks.  Caches keyed by value (`*_memo`) are shared on purpose too: an
# entry is only read back for a state whose compared fields are equal; Underwater Cities'
# network memo (`net`, immutable once built, its `sites` filled in by the first reader) too.
# The copy-on-write bookkeeping itself (who may share what) changes at a clone by design.
CHECKED = 0.15  # the share of decisions checked (the whole game is played, every phase met)
SKIP = {"rules", "static", "st", "hooks", "rng_shared", "players_own", "net"}


def snapshot(x, depth: int = 0):
    """A deterministic, comparable image of everything reachable from `x`."""
    assert depth < 40, "snapshot too deep (a cycle?)"
    if x is None or isinstance(x, (bool, int, float, str, bytes)):
        return x
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(snapshot(v, depth + 1) for v in x))
    if isinstance(x, (set, frozenset)):
        return ("set", tuple(sorted(repr(snapshot(v, depth + 1)) for v in x)))
    if isinstance(x, dict):
        return ("dict", tuple((repr(k), snapshot(v, depth + 1)) for k, v in x.items()))
    if isinstance(x, random.Random):
        return ("rng", x.getstate())
    if isinstance(x, (EventLog, ScoreTally)):
        return ("log", x.enabled, snapshot(x.moves(), depth + 1), snapshot(x.scores(), depth + 1))
    if isinstance(x, BaseModel):
        return ("model", type(x).__name__)
    names = list(getattr(x, "__dict__", {}))
    for cls in type(x).__mro__:
        names += [n for n in getattr(cls, "__slots__", ()) if hasattr(x, n)]
    return (type(x).__name__, tuple((n, snapshot(getattr(x, n), depth + 1)) for n in
                                    sorted(set(names)) if n not in SKIP and not n.endswith("_memo")))


def first_difference(a, b, path: str = "") -> str | None:
    """Where two snapshots first differ (an attribute path), for the failure message."""
    if a == b:
        return None
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            name = x[0] if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) \
                and isinstance(y, tuple) and x[0] == y[0] else str(i)
            d = first_difference(x, y, f"{path}.{name}")
            if d is not None:
                return d
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) != len(b):
        return f"{path}: {len(a)} entries != {len(b)}: {str(a)[:300]} != {str(b)[:300]}"
    return f"{path}: {str(a)[:300]} != {str(b)[:300]}"


def _same(before, after, what: str) -> None:
    assert before == after, f"{what}: {first_difference(before, after)}"


def _step(state, rng) -> None:
    legal = state.legal_actions()
    state.apply(legal[rng.randrange(len(legal))])


def _advance(state, rng, k: int) -> None:
    for _ in range(k):
        if state.is_over():
            return
        _step(state, rng)


def _configs(game):
    k = 0
    for sets in game.extra.get("fingerprint_sets", [()]):
        rules = game.load_rules(sets=tuple(sets)).model
        maps = game.maps(rules)
        for n in sorted(game.player_counts, reverse=True)[:2]:
            yield rules, n, maps[k % len(maps)]   # the maps in turn
            k += 1


@pytest.mark.parametrize("gid", GAMES)
def test_a_clone_changes_nothing_in_its_original_and_back(gid):
    game = get_game(gid)
    checked = 0
    for g, (rules, n, m) in enumerate(_configs(game)):
        factions = game.factions(rules)
        seats = [Seat(factions[(g + i) % len(factions)], "random") for i in range(n)]
        state = game.new_game(rules, seats, game_seed(13, g), map=m, log=True)
        rng = random.Random(g)
        while not state.is_over():
            if rng.random() > CHECKED:
                _step(state, rng)
                continue
            before = snapshot(state)
            full, look = state.clone(), state.clone(log=False)
            _advance(full, random.Random(rng.random()), 3)
            _advance(look, random.Random(rng.random()), 3)
            _same(before, snapshot(state), f"{gid}: advancing a clone changed its original")
            kept = state.clone()
            kept_look = state.clone(log=False)
            kept_before, kept_look_before = snapshot(kept), snapshot(kept_look)
            _step(state, rng)
            _same(kept_before, snapshot(kept), f"{gid}: advancing the original changed a clone")
            _same(kept_look_before, snapshot(kept_look),
                  f"{gid}: advancing the original changed a lookahead clone")
            checked += 1
    assert checked > 50


def test_a_copied_log_keeps_its_rows_whoever_writes_next():
    log = EventLog()
    for i in range(5):
        log.move(i, 1, "p", 0, "a", str(i), None)
        log.score(i, 1, i % 2, "c", i + 1)
    copies = []
    for i in range(12):                 # copies of copies, past the joining depth
        c = (copies[-1] if copies else log).copy()
        c.move(100 + i, 2, "q", 1, "b")
        c.score(100 + i, 2, 1, "d", 1)
        copies.append(c)
    log.move(99, 9, "z", 3, "late")     # the original writes after being copied
    assert log.m_step == [0, 1, 2, 3, 4, 99]
    for i, c in enumerate(copies):
        assert c.m_step == [0, 1, 2, 3, 4] + [100 + j for j in range(i + 1)]
        assert c.totals(2) == [1 + 3 + 5, 2 + 4 + i + 1]
        assert c.breakdown(1) == {"c": 6, "d": i + 1}
    assert log.totals(2) == [9, 6]


@pytest.mark.parametrize("gid", GAMES)
def test_a_full_clone_plays_on_exactly_as_its_original(gid):
    """`clone()` keeps the log and the position of the chance stream (shared until one of them
    draws): original and clone, played on with the same choices, give the same rows, whichever
    goes first, and a clone of the clone too."""
    game = get_game(gid)
    rules, n, m = next(_configs(game))
    factions = game.factions(rules)
    seats = [Seat(factions[i % len(factions)], "random") for i in range(n)]
    state = game.new_game(rules, seats, game_seed(14, 0), map=m, log=True)
    _advance(state, random.Random(1), 25)
    first = state.clone()
    second = first.clone()
    rows = []
    for s in (state, second, first):      # the original draws first, then the copies
        _advance(s, random.Random(2), 100_000)
        rows.append((s.log.moves(), s.log.scores()))
    assert rows[0] == rows[1] == rows[2]
    assert rows[0][0]["step"], "nothing logged"


@pytest.mark.parametrize("gid", GAMES)
def test_a_lookahead_clone_keeps_the_scores_to_the_end_of_the_game(gid):
    """A lookahead copy (`clone(log=False)`, what search plays on) keeps every score event but
    no move: its totals and breakdowns equal the original's at the copy, and a copy played on
    to the end of the game still scores it (it used to score every seat 0, so a search saw
    every finished game as a tie decided by the tie-breaks).  The games' own score counters
    must agree with the tally at every step (`invariants`)."""
    game = get_game(gid)
    rules, n, m = next(_configs(game))
    factions = game.factions(rules)
    seats = [Seat(factions[i % len(factions)], "random") for i in range(n)]
    state = game.new_game(rules, seats, game_seed(15, 0), map=m, log=True)
    rng = random.Random(3)
    ended = scored = 0
    while not state.is_over():
        if rng.random() < 0.05:
            look = state.clone(log=False)
            assert look.log.moves()["step"] == []
            assert look.log.totals(n) == state.log.totals(n)
            assert [look.log.breakdown(i) for i in range(n)] == \
                [state.log.breakdown(i) for i in range(n)]
            deeper = look.clone(log=False)               # a world of a world, as search makes
            play = random.Random(rng.random())
            while not deeper.is_over():
                _step(deeper, play)
                if game.invariants is not None:
                    assert game.invariants(deeper) == [], gid
            res = deeper.result()
            assert [r.score for r in res] == deeper.log.totals(n)
            scored += sum(r.score for r in res) > 0
            ended += 1
        _step(state, rng)
    assert ended >= 3
    # random play may end a cave game at the turn limit with nothing scored; some must score
    assert scored >= 1, f"{gid}: every searched game ended scoreless"
    final = state.result()
    assert [r.score for r in final] == state.log.totals(n)


def test_a_score_tally_shares_its_prefix_and_keeps_its_own_rows():
    log = EventLog()
    for i in range(4):
        log.score(i, 1, i % 2, "c", i + 1)           # seat 0: 1 + 3, seat 1: 2 + 4
    tally = log.lookahead_copy()
    log.score(9, 2, 0, "late", 100)                  # the original goes on after the copy
    tally.score(5, 2, 1, "d", 7)
    tallies = [tally]
    for i in range(12):                               # copies of copies, past the flat depth
        t = tallies[-1].copy()
        t.score(20 + i, 3, 0, "e", 1)
        tallies.append(t)
    assert tally.totals(2) == [4, 13] and tally.breakdown(1) == {"c": 6, "d": 7}
    for i, t in enumerate(tallies[1:]):
        assert t.totals(2) == [4 + i + 1, 13]
        assert t.breakdown(0) == {"c": 4, "e": i + 1}
    assert log.totals(2) == [104, 6]
    assert tallies[-1].scores()["points"] == [1, 2, 3, 4, 7] + [1] * 12
