"""A wide decision asked in parts (issue 27, DESIGN.md "decisions are small").

A decision of many options is split by a grouping of its options (a kind, a worker, an
octagon): first which group, then which option of that group, in a follow-up frame the game
pushes when a group is chosen.  `in_parts` lists the first part; it is the one rule every game
splits by, so that a random seat, the greedy bot and the search see the same shapes
everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


def in_parts(groups: Iterable[tuple[tuple, list[tuple]]]) -> list[tuple]:
    """The first part of a decision among `groups` of (group action, its options), in order:
    each group as its group action, or as its option when it has one; with one group, that
    group's options at once (no decision of one option).  Empty groups are left out."""
    groups = [(key, acts) for key, acts in groups if acts]
    if len(groups) == 1:
        return list(groups[0][1])
    return [acts[0] if len(acts) == 1 else key for key, acts in groups]


def in_parts_by(options: Iterable[tuple], group: Callable[[tuple], tuple]) -> list[tuple]:
    """`in_parts` of `options` grouped by `group(option)`, the action that chooses its group
    (groups in the order their first option comes): e.g. jumps by octagon, tile placements by
    gap."""
    groups: dict = {}
    for a in options:
        groups.setdefault(group(a), []).append(a)
    return in_parts(groups.items())
