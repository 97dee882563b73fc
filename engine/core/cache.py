"""What a game precomputes once per (rules, setup) and shares across its games."""

from __future__ import annotations

from typing import Any, Callable


def remember(cache: dict, key, value, size: int):
    """Store `value` under `key` in a bounded memo (emptied first when it holds `size`
    entries: values are pure functions of their keys, so forgetting them changes no result)
    and return it.  For a miss path: `hit = cache.get(key)` stays at the call site."""
    if len(cache) >= size:
        cache.clear()
    cache[key] = value
    return value


class PerRulesCache:
    """Caches `build(rules, key)` per rules object (by identity, kept alive with the entry, so
    a new rules object never hits a stale entry) and key; bounded, cleared when full."""

    def __init__(self, build: Callable[[Any, Any], Any], size: int = 64):
        self.build = build
        self.size = size
        self.entries: dict = {}

    def __call__(self, rules, key):
        hit = self.entries.get((id(rules), key))
        if hit is None or hit[0] is not rules:
            if len(self.entries) >= self.size:
                self.entries.clear()
            hit = self.entries[(id(rules), key)] = (rules, self.build(rules, key))
        return hit[1]


class LastState:
    """`build(state)` for the last state asked about, while it is that object at that step
    (`state.step`): a search values one leaf for every seat in turn, so what the leaf's value
    is built on (a turn finished on a copy) is built once.  The state is kept alive with its
    entry, so a new state never hits a stale one."""

    def __init__(self, build: Callable[[Any], Any]):
        self.build = build
        self.state = None
        self.step = -1
        self.value = None

    def __call__(self, state):
        if self.state is not state or self.step != state.step:
            self.value = self.build(state)
            self.state, self.step = state, state.step
        return self.value
