"""Excavation Phase (rulebook "Excavation Phase", "When Excavating", "Excavating Rules").

Each player flips the top card of their excavation deck three times and excavates its shape
(flipped or rotated, partly, overlapping excavated spaces), adjacent to an excavated space.
Excavations from activations and traits ("Excavate 1 gold space", a bonus shape) use the
same mechanism.  `Excavation` holds the state's methods; the `excavate`, `excavate_at` and
`space` frames are the decisions: a card is placed in two small ones, an anchor (a frontier
space the dig includes) and then the dig through it (RULES.md, "Small decisions: the
excavation in two steps")."""

from __future__ import annotations

from engine.core.rng import draw_index

from .board import bits, placement_table, settlement_component
from .state import GEM, GOLD, IRON, Player


class Excavation:
    """State methods: where a player may excavate, and marking excavated spaces."""

    def forbidden(self, p: Player) -> int:
        return self.static.board.blocked | self.hooks[p.seat].forbidden(self, p)

    def reach(self, p: Player) -> int:
        if self.hooks[p.seat].reach_anywhere(self, p):
            return self.static.board.full
        return self.static.board.grow(p.exc)

    def excavate(self, p: Player, new: int, source: str) -> None:
        """Mark new spaces excavated and gain their resources ("When Excavating")."""
        board = self.static.board
        new &= ~p.exc
        if not new:
            return
        p.exc |= new
        counts = ((new & board.iron).bit_count(), (new & board.gold).bit_count(),
                  (new & board.gem).bit_count())
        p.res[IRON] += counts[0]
        p.res[GOLD] += counts[1]
        p.res[GEM] += counts[2]
        if board.peak and p.peak is None and p.exc & board.peak:
            self._check_peak(p)
        self.hooks[p.seat].excavated(self, p, new, counts, source)

    def _check_peak(self, p: Player) -> None:
        """Snowy Summit: the Peak counts once a path from the settlement reaches it."""
        board = self.static.board
        comp = settlement_component(board, p.exc)
        if comp & board.peak:
            p.peak = 2 * p.flips + (1 if self.phase == "production" else 0)


# ====================================================================== tasks
def t_flip(s, task) -> None:
    """"Flip over the top card of the player's Excavation Deck" and excavate its shape."""
    s.phase = "excavation"
    p = s.players[task[1]]
    if p.deck_pos >= len(p.deck):
        return
    shape_id = p.deck[p.deck_pos]
    p.deck_pos += 1
    p.flips += 1
    s.stack.append(("excavate", p.seat, shape_id, "card"))
    s.hooks[p.seat].after_flip(s, p, shape_id, task[2])


def t_excavation_end(s, task) -> None:
    s.hooks[task[1]].excavation_end(s, s.players[task[1]])


# ====================================================================== frames
def dig_options(s, p: Player, masks) -> list[tuple]:
    """The placements of a shape whose new spaces (not yet excavated, not forbidden to this
    player) include one in the player's reach ("The first space must be adjacent to a space
    that has already been excavated"; the whole map with reach_anywhere); placements gaining
    the same new spaces are one decision.  A placement may pass over forbidden spaces (a
    Gemwarden's gems), as over excavated ones, and excavates the rest ("Can skip"); with the
    switch `game.shapes_skip_unexcavatable` off it may not touch them.

    The placements never hold the map's blocked spaces (board.placements_of drops them).  The
    options keep the order of their first placement (`dig_gains`).  The last answer per
    shape is remembered (a bot that looks before it moves asks twice)."""
    table, keep, firsts, known, key = dig_gains(s, p, masks)
    if known is not None:
        return list(known)
    objects = table.masks
    opts = [("dig", objects[i] & keep) for i in firsts.tolist()]
    table.last = (key, tuple(opts))  # a copy: callers extend their list
    return opts


def dig_gains(s, p: Player, masks):
    """(table, keep, firsts, known, key): the options of `dig_options` are `("dig", masks[i] &
    keep)` for `i` in `firsts`, in that order, where `firsts` are the positions of the first
    placement gaining each distinct set of new spaces among those that qualify
    (`MaskTable.first_gains`).  A placement qualifies when it covers a frontier space
    (reachable, not excavated, not forbidden, not blocked), i.e. when its new spaces include
    one in the reach, so no gain is empty.  `known` is the remembered tuple of options when
    the table last answered the same question `key` (the excavated, forbidden and reachable
    spaces; then `firsts` is None), else None."""
    table, keep, key = dig_question(s, p, masks)
    last = table.last  # read once: the table may be shared by threads
    if last[0] == key:
        return table, keep, None, last[1], key
    firsts = table.first_gains(*dig_targets(s, key, keep))
    return table, keep, firsts, None, key


def dig_question(s, p: Player, masks):
    """(table, keep, key) of one shape's excavation for `p`: the shape's `MaskTable`, the
    spaces a dig gains (`keep`: not excavated, not forbidden to this player) and the key of
    the question (the excavated, forbidden and reachable spaces) its answers are remembered
    by (`dig_gains`, `dig_groups`)."""
    extra = s.hooks[p.seat].forbidden(s, p)
    return placement_table(masks), ~p.exc & ~extra, (p.exc, extra, s.reach(p))


def dig_targets(s, key, keep: int) -> tuple[int, int, int]:
    """(target, keep, avoid) for `MaskTable.first_gains`: the frontier a dig must gain one of
    (reachable, kept, not blocked), and the forbidden spaces a placement may not touch when
    the "Can skip" switch is off."""
    _exc, extra, reach = key
    avoid = extra if extra and not s.static.skip else 0
    return reach & keep & ~s.static.board.blocked, keep, avoid


class Groups:
    """The dig options of one excavation card grouped by their anchor (RULES.md, "Small
    decisions: the excavation in two steps"): `gains(cell)` are the gains (new-space masks, in
    the order of `dig_options`) whose lowest frontier space is `cell`; `cells` the anchors,
    ascending; `options` the first decision's dig options, one per anchor: `("dig", gain)`
    where the anchor has one gain (no second decision), else `("anchor", cell)`."""

    __slots__ = ("cells", "options", "_members")

    def __init__(self, members: dict[int, list[int]]):
        self._members = members
        self.cells = sorted(members)
        self.options = tuple(("dig", members[c][0]) if len(members[c]) == 1 else ("anchor", c)
                             for c in self.cells)

    def gains(self, cell: int) -> list[int]:
        return self._members.get(cell, [])


def grouped(masks, target: int, keep: int) -> Groups:
    """The `Groups` of the gains `m & keep` of `masks` (distinct, in order), each under the
    lowest space of `m & target` (a frontier space, given that `target` is the frontier)."""
    by_low: dict[int, list[int]] = {}     # keyed by the anchor's bit, its index taken once
    get = by_low.get
    for m in masks:
        hit = m & target
        low = hit & -hit
        group = get(low)
        if group is None:
            by_low[low] = [m & keep]
        else:
            group.append(m & keep)
    return Groups({low.bit_length() - 1: group for low, group in by_low.items()})


def frontier(s, p: Player) -> int:
    """The spaces a dig must gain one of: reachable, not excavated, not forbidden, not
    blocked."""
    return s.reach(p) & ~p.exc & ~s.forbidden(p)


def dig_groups(s, p: Player, masks) -> Groups:
    """`Groups` of one shape's `dig_options`: the anchor of a gain is its lowest frontier
    space (`frontier`), so each gain has exactly one.  The gains come from the numpy columns
    (`MaskTable.first_gains`, as in `dig_gains`); the answer is remembered per table, as
    `dig_options`' is."""
    table, keep, key = dig_question(s, p, masks)
    last = table.groups   # read once: the table may be shared by threads
    if last[0] == key:
        return last[1]
    target, keep, avoid = dig_targets(s, key, keep)
    groups = grouped(table.objects[table.first_gains(target, keep, avoid)].tolist(), target,
                     keep)
    table.groups = (key, groups)
    return groups


def excavation_groups(s, p: Player, frame) -> Groups:
    """The `Groups` of an excavation frame's card (`("excavate" or "excavate_at", seat, shape,
    source, ...)`): its shape's, or with a faction's other shapes (`alt_shapes`) the union of
    their dig options, the same spaces through another shape being the same decision (the
    first kept)."""
    hook = s.hooks[p.seat]
    alts = hook.alt_shapes(s, p, frame[2], frame[3])
    if not alts:
        return dig_groups(s, p, s.static.placements[frame[2]])
    opts = dig_options(s, p, s.static.placements[frame[2]])
    opts = list(dict.fromkeys(opts + [a for alt in alts
                                      for a in dig_options(s, p, s.static.placements[alt])]))
    return grouped([a[1] for a in opts], frontier(s, p), -1)   # the gains as they are


def l_excavate(s, frame):
    """The card's first decision: an anchor (or the one dig of an anchor that has only one),
    the "at any time" abilities in the excavation phase, or skip."""
    p = s.players[frame[1]]
    opts = list(excavation_groups(s, p, frame).options)
    if frame[3] == "card":  # the excavation phase: "at any time" abilities come before the card
        opts.extend(s.hooks[p.seat].anytime_extras(s, p))
    opts.append(("skip",))
    return opts


def s_excavate(s, frame, rng):
    """`legal = l_excavate(s, frame); legal[rng.randrange(len(legal))]` from the remembered
    groups (`dig_groups`): the same single draw from `rng`, the same action.  None, before
    drawing anything, where a faction's other shapes merge into the card's options
    (`alt_shapes`): then the caller lists them."""
    p = s.players[frame[1]]
    hook = s.hooks[p.seat]
    if hook.alt_shapes(s, p, frame[2], frame[3]):
        return None
    opts = dig_groups(s, p, s.static.placements[frame[2]]).options
    extras = hook.anytime_extras(s, p) if frame[3] == "card" else []
    k = draw_index(rng, len(opts) + len(extras) + 1)   # the digs, the extras, then ("skip",)
    if k < len(opts):
        return opts[k]
    k -= len(opts)
    return extras[k] if k < len(extras) else ("skip",)


def a_excavate(s, frame, action):
    if action[0] == "dig":
        s.excavate(s.players[frame[1]], action[1], frame[3])
    elif action[0] == "anchor":   # the second decision: which dig through that space
        s.stack.append(("excavate_at", frame[1], frame[2], frame[3], action[1]))
    elif action[0] != "skip":  # an "at any time" ability: the card waits for it
        s.stack.append(frame)
        s.hooks[frame[1]].apply_extra(s, s.players[frame[1]], action)


def l_excavate_at(s, frame):
    """The card's second decision, `("excavate_at", seat, shape, source, anchor)`: the digs
    whose anchor is that space (two or more, every one legal; no skip)."""
    p = s.players[frame[1]]
    return [("dig", g) for g in excavation_groups(s, p, frame).gains(frame[4])]


def s_excavate_at(s, frame, rng):
    """`legal = l_excavate_at(s, frame); legal[rng.randrange(len(legal))]`, from the
    remembered groups; None where a faction's other shapes merge in (the caller lists)."""
    p = s.players[frame[1]]
    if s.hooks[p.seat].alt_shapes(s, p, frame[2], frame[3]):
        return None
    gains = dig_groups(s, p, s.static.placements[frame[2]]).gains(frame[4])
    return ("dig", gains[draw_index(rng, len(gains))])


def follow_up(s) -> bool:
    """Whether the decision is a card's second one (the dig through the anchor chosen): the
    search widens it narrowly (`MCTSParams.narrow`), the two decisions being one move."""
    return bool(s.stack) and s.stack[-1][0] == "excavate_at"


def a_excavate_at(s, frame, action):
    s.excavate(s.players[frame[1]], action[1], frame[3])


def l_space(s, frame):
    """"Excavate 1 <kind> space": one space of that kind, by the usual adjacency rule."""
    p = s.players[frame[1]]
    board = s.static.board
    cand = board.kind_mask(frame[2]) & s.reach(p) & ~p.exc & ~s.forbidden(p)
    opts = [("dig", 1 << c) for c in bits(cand)]
    hook = s.hooks[p.seat]
    for alt in hook.alt_shapes(s, p, "1x1:" + frame[2], frame[3]):
        for a in dig_options(s, p, s.static.placements[alt]):
            if a not in opts and a[1] & cand:
                opts.append(a)
    opts.append(("skip",))
    return opts


a_space = a_excavate

LEGAL = {"excavate": l_excavate, "excavate_at": l_excavate_at, "space": l_space}
APPLY = {"excavate": a_excavate, "excavate_at": a_excavate_at, "space": a_space}
TASKS = {"flip": t_flip, "excavation_end": t_excavation_end}
SAMPLE = {"excavate": s_excavate, "excavate_at": s_excavate_at}
