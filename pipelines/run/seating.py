"""Who sits with whom: a seeded, balanced design of the tables a run plays.

A run's games are played in *cycles* of tables.  Over one cycle every faction meets every
other faction equally often (a balanced incomplete block design, BIBD: b tables of P factions
out of k, each pair together in lambda tables) and sits in every seat equally often (each
table's seats oriented so that every faction takes every seat r/P times, or, where no such
orientation exists, every table played in its P cyclic seat rotations).

- The blocks are the smallest design found: for the smallest lambda with an integer number
  of tables (b = lambda k(k-1) / (P(P-1))) and of tables per faction (r = lambda (k-1)/(P-1)), a
  seeded local search looks for a BIBD (e.g. 14 tables for 8 factions at 4 seats, the
  affine geometry AG(3, 2), or the Fano plane for 7 at 3); when lambda reaches the complete
  design (every P-subset once, always balanced) it is used as it is.  Where no balanced
  design is found within the search budget (large k), the closest one found is kept, a
  seeded random design with near-balanced pair and seat counts (`Design.kind` says which).
- The factions are assigned to the design's labels by a permutation drawn from the run seed
  (a renamed faction changes nothing but its name), and the tables of every cycle are played
  in an order drawn from (run seed, cycle): game i's seating depends only on (seed, i), never
  on workers, chunks or backends.
- Neighbours (design "balanced-2", audit N6): each table's seat order is a cyclic order chosen
  so that over a cycle every faction sits right after every other faction equally often (a
  carry-over balanced, Williams-type design: a game's turn passes from seat s to seat s+1, so
  "right after" is whom a faction plays before).  With every faction at every table (P = k)
  that takes several cyclic orders of the same factions (all six at 4 players).  A faction's
  neighbours are then not aliased with its strength or its head-to-head cells.  The tables are
  then rotated so that every faction takes every seat equally often, or, where no choice of
  rotations does that, played in all their P seat rotations.  "balanced-1" (runs planned before
  commit a8e5974, 2026-12-03) balances pairs and seats only.
- The stored seating (`players` rows) stays the source of truth: paired runs, ablations and
  resumed runs read it back (`pipelines.run.pairing.base_specs`), and a stored run keeps the
  design version it was planned with (`config.seating`).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

from engine.core.rules import DATA_DIR

#: The design version written into a run's config; older runs ("rotate", "balanced-1") keep
#: theirs.
VERSION = "balanced-2"
#: Every balanced design version a run may be planned with, oldest first.
VERSIONS = ("balanced-1", "balanced-2")
#: Copies of the blocks tried for a neighbour-balanced cycle (the smallest cycle found wins).
MAX_COPIES = 12
#: Local-search steps per attempted design (deterministic, not a wall-clock budget).
SEARCH_STEPS = 20_000
#: Tables in a complete design above which it is not enumerated (a near-balanced design instead).
MAX_COMPLETE = 5_000


@dataclass(frozen=True)
class Design:
    factions: tuple[str, ...]
    n_seats: int
    tables: tuple[tuple[str, ...], ...]   # one cycle, seat by seat
    kind: str
    seed: int
    version: str = VERSION

    @property
    def cycle(self) -> int:
        return len(self.tables)

    def seating(self, index: int) -> tuple[str, ...]:
        """The factions seat by seat of game `index` (cycle index // cycle, in a seeded order;
        "balanced-2": an order whose every prefix stays near balanced)."""
        c, j = divmod(int(index), self.cycle)
        if self.version == "balanced-1":
            return self.tables[_order(self.seed, self.cycle, c)[j]]
        return self.tables[_prefix_order(self.tables, self.seed, c)[j]]


@lru_cache(maxsize=256)
def _order(seed: int, length: int, cycle: int) -> tuple[int, ...]:
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFFFFFFFFFF, 7, int(cycle)])
    rng = random.Random(int.from_bytes(ss.generate_state(4, dtype=np.uint32).tobytes(), "little"))
    order = list(range(length))
    rng.shuffle(order)
    return tuple(order)


@lru_cache(maxsize=64)
def _features(tables: tuple[tuple[str, ...], ...]) -> np.ndarray:
    """Which counts each table adds to (a 0/1 matrix, tables x features): its factions, its
    pairs, its factions' seats and (3+ seats) who sits right after whom."""
    index: dict[tuple, int] = {}
    rows = []
    for t in tables:
        keys = [("f", f) for f in t] + [("p", q) for q in itertools.combinations(sorted(t), 2)]
        keys += [("s", f, s) for s, f in enumerate(t)]
        keys += [("a", q) for q in _successors(t)] if len(t) >= 3 else []
        rows.append([index.setdefault(k, len(index)) for k in keys])
    m = np.zeros((len(tables), len(index)), dtype=np.int64)
    for i, cols in enumerate(rows):
        for c in cols:
            m[i, c] += 1
    return m


@lru_cache(maxsize=256)
def _prefix_order(tables: tuple[tuple[str, ...], ...], seed: int, cycle: int) -> tuple[int, ...]:
    """The tables of one cycle in an order whose prefixes stay near balanced, so that a run
    stopped inside a cycle is too: each next table is the one whose factions, pairs, seats and
    neighbours have been played least so far (greedy), ties in a seeded order of (seed, cycle).
    """
    tie = _order(seed, len(tables), cycle)
    m = _features(tables)
    n = len(tables)
    rank = np.empty(n, dtype=np.int64)
    rank[list(tie)] = np.arange(n)
    counts = np.zeros(m.shape[1], dtype=np.int64)
    left = np.ones(n, dtype=bool)
    out = []
    for _ in range(n):
        score = (m @ counts) * n + rank          # the least played first, then the seeded order
        score[~left] = np.iinfo(np.int64).max
        best = int(np.argmin(score))
        out.append(best)
        left[best] = False
        counts += m[best]
    return tuple(out)


def _pair_cost(blocks, k: int, lam: int) -> int:
    counts = Counter(p for b in blocks for p in itertools.combinations(sorted(b), 2))
    return sum((counts.get(p, 0) - lam) ** 2 for p in itertools.combinations(range(k), 2))


def _search_bibd(k: int, p: int, b: int, lam: int, rng: random.Random):
    """Local search for b blocks of size p on k points with every pair in lam blocks (and every
    point in r blocks).  Returns (blocks, cost); cost 0 is a BIBD."""
    r = b * p // k
    # start with every point used r times (a random equireplicate arrangement)
    pts = [i for i in range(k) for _ in range(r)]
    rng.shuffle(pts)
    blocks = [set() for _ in range(b)]
    for x in pts:
        choices = [bl for bl in blocks if len(bl) < p and x not in bl]
        (rng.choice(choices) if choices else min(blocks, key=len)).add(x)
    blocks = [set(bl) for bl in blocks]
    pair = Counter(q for bl in blocks for q in itertools.combinations(sorted(bl), 2))

    def cost() -> int:
        return sum((pair.get(q, 0) - lam) ** 2 for q in itertools.combinations(range(k), 2))

    cur = cost()
    for _ in range(SEARCH_STEPS):
        if cur == 0:
            break
        # swap one point between two blocks (keeps every replication number)
        i, j = rng.sample(range(b), 2)
        x = rng.choice(sorted(blocks[i] - blocks[j]) or [None])
        y = rng.choice(sorted(blocks[j] - blocks[i]) or [None])
        if x is None or y is None:
            continue
        delta = Counter()
        for z in blocks[i] - {x}:
            delta[tuple(sorted((x, z)))] -= 1
            delta[tuple(sorted((y, z)))] += 1
        for z in blocks[j] - {y}:
            delta[tuple(sorted((y, z)))] -= 1
            delta[tuple(sorted((x, z)))] += 1
        change = sum((pair.get(q, 0) + d - lam) ** 2 - (pair.get(q, 0) - lam) ** 2
                     for q, d in delta.items() if d)
        if change <= 0 or rng.random() < 0.002:
            blocks[i].remove(x); blocks[i].add(y)
            blocks[j].remove(y); blocks[j].add(x)
            for q, d in delta.items():
                pair[q] = pair.get(q, 0) + d
            cur += change
    return [tuple(sorted(bl)) for bl in blocks], cur


def _orient(blocks, k: int, p: int, rng: random.Random):
    """Seat order of every block so that each point takes each seat r/p times, or None."""
    r = sum(len(b) for b in blocks) // k
    if r % p:
        return None
    want = r // p
    rows = [list(b) for b in blocks]
    for row in rows:
        rng.shuffle(row)
    seat = Counter((x, s) for row in rows for s, x in enumerate(row))

    def dev(x, s):
        return (seat[(x, s)] - want) ** 2

    cur = sum(dev(x, s) for x in range(k) for s in range(p))
    for _ in range(SEARCH_STEPS):
        if cur == 0:
            return [tuple(row) for row in rows]
        row = rows[rng.randrange(len(rows))]
        s, t = rng.sample(range(p), 2)
        x, y = row[s], row[t]
        before = dev(x, s) + dev(y, t) + dev(x, t) + dev(y, s)
        seat[(x, s)] -= 1; seat[(y, t)] -= 1; seat[(x, t)] += 1; seat[(y, s)] += 1
        after = dev(x, s) + dev(y, t) + dev(x, t) + dev(y, s)
        if after <= before or rng.random() < 0.002:
            row[s], row[t] = y, x
            cur += after - before
        else:
            seat[(x, s)] += 1; seat[(y, t)] += 1; seat[(x, t)] -= 1; seat[(y, s)] -= 1
    return None


@lru_cache(maxsize=64)
def base_design(k: int, p: int) -> tuple[tuple[tuple[int, ...], ...], str]:
    """One cycle of tables on the labels 0..k-1 (seat by seat) and what kind of design it is
    ("balanced-1": pairs and seats).  Deterministic: the search's random stream is fixed (the
    run seed only relabels and orders)."""
    rng = random.Random(f"delve-seating-{k}-{p}")
    if p >= k:
        # every faction at every table (p == k), or a table the game will refuse (p > k)
        base = [tuple(range(k))[:p] if p == k else tuple(i % k for i in range(p))]
        return tuple(tuple(base[0][(s + j) % p] for s in range(p)) for j in range(p)), \
            "every faction at every table, seats rotated"
    if p == 1:
        return tuple((i,) for i in range(k)), "one faction per game"
    blocks, kind = _blocks(k, p, rng)
    oriented = _orient(blocks, k, p, rng)
    if oriented is not None:
        return tuple(oriented), kind + ", seats balanced"
    rotated = [tuple(bl[(s + j) % p] for s in range(p)) for bl in blocks for j in range(p)]
    return tuple(rotated), kind + ", each table in its seat rotations"


def _blocks(k: int, p: int, rng: random.Random) -> tuple[list[tuple[int, ...]], str]:
    """The tables of one cycle as sets of labels (2 <= p < k): a BIBD if one is found, else the
    complete design, else the closest found; and what kind of design it is."""
    complete = math.comb(k, p)
    blocks, kind, best = None, "", None
    if p == 4 and k >= 8 and k & (k - 1) == 0:
        # the planes of the affine geometry AG(m, 2): the 4-subsets of F_2^m with XOR 0
        blocks = [q for q in itertools.combinations(range(k), 4) if q[0] ^ q[1] ^ q[2] ^ q[3] == 0]
        kind = (f"balanced incomplete block design (the {len(blocks)} planes of AG({k.bit_length() - 1}, 2), "
                f"every pair {k // 2 - 1}x)")
    lam, attempts = 1, 0
    while blocks is None and attempts < 4:
        if (lam * k * (k - 1)) % (p * (p - 1)) == 0 and (lam * (k - 1)) % (p - 1) == 0:
            b = lam * k * (k - 1) // (p * (p - 1))
            if b >= complete:
                break
            attempts += 1
            for _ in range(3):
                found, cost = _search_bibd(k, p, b, lam, rng)
                if cost == 0:
                    break
            if cost == 0:
                blocks, kind = found, f"balanced incomplete block design ({b} tables, every pair {lam}x)"
                break
            if best is None or cost / lam ** 2 < best[1]:
                best = (found, cost / lam ** 2, lam)
        lam += 1
    if blocks is None:
        if complete <= MAX_COMPLETE:
            blocks = list(itertools.combinations(range(k), p))
            kind = f"complete block design (all {complete} tables)"
        else:
            blocks = best[0]
            kind = f"seeded near-balanced design ({len(blocks)} tables; pairs within a few games)"
    return blocks, kind


def _successors(row: Sequence[int]) -> list[tuple[int, int]]:
    """(faction, the faction seated right after it), cyclically: whom each plays before."""
    return [(row[s], row[(s + 1) % len(row)]) for s in range(len(row))]


def _cyclic_orders(blocks, k: int, p: int, copies: int, rng: random.Random):
    """`copies` copies of the blocks, each in a cyclic seat order such that every faction sits
    right after every other equally often; None when the count cannot be equal or the search
    finds no such orders.  (Counts are kept in a flat list indexed a * k + b: this search runs
    in every `delve simulate` process, so its speed is the command's start-up time.)"""
    total = copies * len(blocks) * p
    if total % (k * (k - 1)):
        return None
    target = total // (k * (k - 1))
    rows = [list(b) for _ in range(copies) for b in blocks]
    succ = [0] * (k * k)
    for row in rows:
        for q in _successor_keys(row, k):
            succ[q] += 1
    cur = sum((succ[a * k + b] - target) ** 2 for a in range(k) for b in range(k) if a != b)
    for _ in range(SEARCH_STEPS):
        if cur == 0:
            return [tuple(row) for row in rows]
        i = rng.randrange(len(rows))
        new = [rows[i][0], *rng.sample(rows[i][1:], p - 1)]    # another cyclic order of table i
        delta: dict[int, int] = {}
        for q in _successor_keys(new, k):
            delta[q] = delta.get(q, 0) + 1
        for q in _successor_keys(rows[i], k):
            delta[q] = delta.get(q, 0) - 1
        change = _move(succ, delta, target, rng)
        if change is not None:
            rows[i] = new
            cur += change
    return None


def _successor_keys(row: Sequence[int], k: int) -> list[int]:
    """`_successors` of a row of labels 0..k-1, each pair (a, b) as the index a * k + b."""
    n = len(row)
    return [row[s] * k + row[(s + 1) % n] for s in range(n)]


def _move(counts: list[int], delta: dict[int, int], target: int,
          rng: random.Random) -> int | None:
    """One local-search step on counts meant to equal `target`: the change `delta` makes to
    their sum of squared deviations; applied to `counts` (and returned) when it does not make
    it worse, or at random 0.2% of the time when it does (to leave a local minimum); else None."""
    change = 0
    for q, d in delta.items():
        if d:
            c = counts[q] - target
            change += (c + d) ** 2 - c * c
    if change <= 0 or rng.random() < 0.002:
        for q, d in delta.items():
            counts[q] += d
        return change
    return None


def _rotate_for_seats(rows, k: int, p: int, rng: random.Random):
    """One rotation of each (cyclic) row so that every faction takes every seat equally often
    (rotating keeps who sits right after whom), or None.  (Counts by faction x * p + seat.)"""
    r = sum(len(row) for row in rows) // k
    if r % p:
        return None
    want = r // p
    turn = [0] * len(rows)
    seat = [0] * (k * p)
    for row in rows:
        for s, x in enumerate(row):
            seat[x * p + s] += 1
    cur = sum((c - want) ** 2 for c in seat)
    for _ in range(SEARCH_STEPS):
        if cur == 0:
            return [tuple(row[(s + t) % p] for s in range(p)) for row, t in zip(rows, turn)]
        i = rng.randrange(len(rows))
        t = rng.randrange(p)
        if t == turn[i]:
            continue
        delta: dict[int, int] = {}
        for s in range(p):
            q = rows[i][(s + t) % p] * p + s
            delta[q] = delta.get(q, 0) + 1
        for s in range(p):
            q = rows[i][(s + turn[i]) % p] * p + s
            delta[q] = delta.get(q, 0) - 1
        change = _move(seat, delta, want, rng)
        if change is not None:
            turn[i] = t
            cur += change
    return None


#: The "balanced-2" designs already searched, k = 3..10 factions at 3..k seats, written by
#: `python -m pipelines.run.seating --write` (the search takes 0.3-0.8 s for the shipped games'
#: 4 and 8 factions, in every `delve simulate` process, and up to half a minute at 8-10).
STORED_DESIGNS = DATA_DIR / "seating" / "balanced-2.json"


@lru_cache(maxsize=1)
def stored_designs() -> dict[tuple[int, int], tuple[tuple[tuple[int, ...], ...], str]]:
    """(k, p) -> (tables, kind) of STORED_DESIGNS ({} when the file is absent)."""
    if not STORED_DESIGNS.exists():
        return {}
    raw = json.loads(STORED_DESIGNS.read_text())["designs"]
    return {tuple(int(x) for x in key.split(",")): (tuple(tuple(t) for t in d["tables"]),
                                                   d["kind"])
            for key, d in raw.items()}


@lru_cache(maxsize=64)
def neighbour_design(k: int, p: int) -> tuple[tuple[tuple[int, ...], ...], str]:
    """One cycle of tables on the labels 0..k-1 ("balanced-2"): the stored design of (k, p) if
    there is one (`STORED_DESIGNS`, the search's own result), else `search_neighbour_design`."""
    stored = stored_designs().get((int(k), int(p)))
    return stored if stored is not None else search_neighbour_design(k, p)


@lru_cache(maxsize=64)
def search_neighbour_design(k: int, p: int) -> tuple[tuple[tuple[int, ...], ...], str]:
    """One cycle of tables on the labels 0..k-1 ("balanced-2"): the blocks of `base_design`
    (pairs balanced), copied as few times as needed and each put in a cyclic seat order so that
    every faction sits right after every other equally often, then rotated so that seats are
    balanced (or every table played in all its seat rotations).  The smallest such cycle."""
    if p <= 2 or p > k:
        return base_design(k, p)     # two seats are each other's neighbours; p > k is refused
    rng = random.Random(f"delve-seating-{k}-{p}")
    if p == k:
        blocks, kind = [tuple(range(k))], "every faction at every table"
    else:
        blocks, kind = _blocks(k, p, rng)     # the same blocks as balanced-1
    options = sorted((copies * len(blocks) * (1 if fixed else p), copies, fixed)
                     for copies in range(1, MAX_COPIES + 1) for fixed in (True, False))
    for _, copies, fixed in options:
        if fixed and (copies * len(blocks) * p // k) % p:
            continue                                   # no rotations can balance the seats
        for _attempt in range(3):
            rows = _cyclic_orders(blocks, k, p, copies, rng)
            if rows is None:
                continue
            orders = (f"{len(set(rows))} cyclic seat orders" if p == k else
                      f"each of its tables {copies}x in cyclic seat orders" if copies > 1 else
                      "each table in a cyclic seat order")
            said = f"{kind}; {orders} seating every faction right after every other equally often"
            if not fixed:
                return (tuple(tuple(row[(s + j) % p] for s in range(p)) for row in rows
                              for j in range(p)), said + ", each in its seat rotations")
            rotated = _rotate_for_seats(rows, k, p, rng)
            if rotated is not None:
                return tuple(rotated), said + ", seats balanced"
    return base_design(k, p)


def make_design(factions: Sequence[str], n_seats: int, seed: int,
                version: str = VERSION) -> Design:
    """The balanced design of a run: the base design (of its version, `VERSIONS`) on labels,
    factions assigned to labels by a permutation drawn from the run seed."""
    flist = tuple(factions)
    if version not in VERSIONS:
        raise ValueError(f"seating design {version!r}: expected one of {', '.join(VERSIONS)}")
    build = base_design if version == "balanced-1" else neighbour_design
    tables, kind = build(len(flist), int(n_seats))
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFFFFFFFFFF, 6])
    rng = random.Random(int.from_bytes(ss.generate_state(4, dtype=np.uint32).tobytes(), "little"))
    names = list(flist)
    rng.shuffle(names)
    named = tuple(tuple(names[x] for x in t) for t in tables)
    return Design(flist, int(n_seats), named, kind, int(seed), version)


@dataclass(frozen=True)
class Balance:
    games: int
    pair_min: int
    pair_max: int
    pair_mean: float
    seat_min: int
    seat_max: int
    seat_mean: float
    pairs_never: int
    next_min: int | None = None      # a faction seated right after another (3+ seats), min / max
    next_max: int | None = None

    def describe(self) -> str:
        after = (f"; a faction right after another min {self.next_min} / max {self.next_max}"
                 if self.next_min is not None else "")
        return (f"seating balance over {self.games} games: pairs of factions together "
                f"min {self.pair_min} / max {self.pair_max} (mean {self.pair_mean:.1f}"
                f"{', %d pair(s) never meet' % self.pairs_never if self.pairs_never else ''}); "
                f"faction-in-seat min {self.seat_min} / max {self.seat_max} "
                f"(mean {self.seat_mean:.1f}){after}")


def balance(seatings: Sequence[Sequence[str]], factions: Sequence[str]) -> Balance:
    """Pair co-occurrence, faction-by-seat and (3+ seats) faction-right-after-faction counts
    of a list of seatings (min, max, mean)."""
    flist = sorted(set(factions))
    pairs = Counter(q for t in seatings for q in itertools.combinations(sorted(t), 2))
    n_seats = max((len(t) for t in seatings), default=0)
    seats = Counter((f, s) for t in seatings for s, f in enumerate(t))
    pc = [pairs.get(q, 0) for q in itertools.combinations(flist, 2)] or [0]
    sc = [seats.get((f, s), 0) for f in flist for s in range(n_seats)] or [0]
    nxt = None
    if n_seats >= 3:
        after = Counter(q for t in seatings for q in _successors(t))
        nxt = [after.get((a, b), 0) for a in flist for b in flist if a != b]
    return Balance(len(seatings), min(pc), max(pc), sum(pc) / len(pc), min(sc), max(sc),
                   sum(sc) / len(sc), sum(1 for c in pc if c == 0),
                   min(nxt) if nxt else None, max(nxt) if nxt else None)


def write_stored_designs(path: Path = STORED_DESIGNS, max_factions: int = 10) -> Path:
    """Search every "balanced-2" design of 3..max_factions factions at 3..k seats and write them
    (two seats need no search: `base_design`)."""
    designs = {}
    for k in range(3, max_factions + 1):
        for p in range(3, k + 1):
            tables, kind = search_neighbour_design(k, p)
            designs[f"{k},{p}"] = {"kind": kind, "tables": [list(t) for t in tables]}
    path.parent.mkdir(parents=True, exist_ok=True)
    note = ("The seating designs \"balanced-2\" of pipelines/run/seating.py, as its search finds "
            "them (k factions, p seats -> one cycle of tables on the labels 0..k-1).  Written by "
            "`python -m pipelines.run.seating --write`; tests/pipelines/run/test_seating_design.py "
            "checks them against the search and their balance.")
    path.write_text(json.dumps({"note": note, "version": VERSION, "designs": designs},
                               separators=(",", ":")) + "\n")
    return path


if __name__ == "__main__":  # pragma: no cover - the maintainers' command
    import sys
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m pipelines.run.seating --write")
    print(f"wrote {write_stored_designs()}")
