"""A fast random legal action for search rollouts (`Game.extra["rollout_action"]`).

A random rollout step otherwise lists every option of the decision to pick one: an excavation
card's first decision groups its ~125 distinct gains by anchor (`excavation.dig_groups`:
every placement of the shape tested, the gains deduplicated), and that listing is most of a
rollout's cost.  Here an excavation card's decision draws placements of the shape at random
instead and takes the first one `dig_options` would offer (its new spaces, not excavated and
not forbidden, include one in the player's reach; with the "Can skip" switch off it touches
no forbidden space):

- in the first decision (`excavate`), the option of that dig's anchor (its lowest frontier
  space): `("anchor", cell)` when another placement through the anchor gains other spaces,
  else the dig itself `("dig", placement & allowed)`, exactly as `dig_groups` offers them;
- in the second (`excavate_at`), a placement through the anchor whose anchor it is: the
  option `("dig", placement & allowed)`.

Each is in the decision's legal list by construction (tests/bots/test_search_fast_paths.py
checks it on many states).  The draws are uniform over placements rather than over the
options, and never skip: a rollout policy, not a rule.  Any other decision, a faction with
other shapes for the card (`alt_shapes`) or "at any time" abilities, and a card whose draws
keep missing return None: the bot lists the options.
"""

from __future__ import annotations

from .excavation import dig_question, dig_targets

TRIES = 24


def rollout_action(s, rng):
    """(action, legal) for `apply_legal`: a legal action drawn at random without listing the
    options, with `legal` = [action]; or None where this fast path does not apply."""
    frame = s.stack[-1] if s.stack else None
    if frame is None:
        return None
    kind = frame[0]
    if kind != "excavate" and kind != "excavate_at":
        return None
    p = s.players[frame[1]]
    hook = s.hooks[p.seat]
    if hook.alt_shapes(s, p, frame[2], frame[3]):
        return None
    if kind == "excavate" and frame[3] == "card" and hook.anytime_extras(s, p):
        return None
    masks = s.static.placements[frame[2]]
    table, keep, key = dig_question(s, p, masks)
    target, keep, avoid = dig_targets(s, key, keep)
    if kind == "excavate_at":   # a placement through the anchor, whose anchor it is
        low = 1 << frame[4]
        through = table.containing(frame[4])
        n = len(through)
        for _ in range(TRIES):
            m = through[rng.randrange(n)]
            hit = m & target
            if (hit & -hit) == low and not m & avoid:
                action = ("dig", m & keep)
                return action, [action]
        return None
    n = len(masks)
    if not n or not target:
        return None
    for _ in range(TRIES):
        m = masks[rng.randrange(n)]
        hit = m & target
        if hit and not m & avoid:
            low = hit & -hit
            gain = m & keep
            action = ("dig", gain)
            for other in table.containing(low.bit_length() - 1):
                hit2 = other & target
                if (hit2 & -hit2) == low and not other & avoid and (other & keep) != gain:
                    action = ("anchor", low.bit_length() - 1)   # a second dig through it
                    break
            return action, [action]
    return None
