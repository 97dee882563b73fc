"""Structural comparison of states and views (what a test can say two views are equal by)."""

from __future__ import annotations

import random

from pydantic import BaseModel

# The move log and the chance stream's object, and the copy-on-write bookkeeping (who may share
# a record or the stream with a clone): not part of a view.
SKIP = {"log", "rng", "rng_shared", "players_own"}


def first_difference(a, b, path="state", seen=None) -> str | None:
    """The path of the first difference between two states, or None when they are equal
    (objects: their attributes; lists, tuples, dicts, sets: their items)."""
    if a is b:
        return None
    seen = set() if seen is None else seen
    key = (id(a), id(b))
    if key in seen:
        return None
    seen.add(key)
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, (int, float, str, bool, bytes, type(None), random.Random)):
        return None if isinstance(a, random.Random) or a == b else f"{path}: {a!r} != {b!r}"
    if isinstance(a, BaseModel):
        return None if a == b else f"{path}: rules differ"
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]", seen)
            if d:
                return d
        return None
    if isinstance(a, (set, frozenset)):
        return None if a == b else f"{path}: {sorted(map(repr, a))} != {sorted(map(repr, b))}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path}: keys {list(a)} != {list(b)}"
        for k in a:
            d = first_difference(a[k], b[k], f"{path}[{k!r}]", seen)
            if d:
                return d
        return None
    names = []
    for cls in type(a).__mro__:
        names += [n for n in getattr(cls, "__slots__", ()) if n not in names]
    names += [n for n in getattr(a, "__dict__", {}) if n not in names]
    if not names:
        return None if a == b else f"{path}: {a!r} != {b!r}"
    for n in names:
        if n in SKIP or n.startswith("__"):
            continue
        d = first_difference(getattr(a, n, None), getattr(b, n, None), f"{path}.{n}", seen)
        if d:
            return d
    return None
