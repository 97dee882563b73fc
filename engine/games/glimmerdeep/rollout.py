"""A fast random legal action for search rollouts (`Game.extra["rollout_action"]`).

A random rollout step otherwise lists every option of the decision to pick one: an excavation
card offers about 125 placements, listed by `excavation.dig_options` (every placement of the
shape tested, the gains deduplicated), and that listing is most of a rollout's cost.  Here an
excavation card's decision draws placements of the shape at random instead and takes the first
one `dig_options` would offer (its new spaces, not excavated and not forbidden, include one
in the player's reach; with the "Can skip" switch off it touches no forbidden space): the
option `("dig", placement & allowed)`, which is in the decision's legal list by construction
(tests/bots/test_fast_paths.py checks it on many states).  The draw is uniform over
placements rather than over distinct gains, and never skips: a rollout policy, not a rule.
Any other decision, a faction with other shapes for the card (`alt_shapes`) or "at any time"
abilities, and a card whose draws keep missing return None: the bot lists the options.
"""

from __future__ import annotations

TRIES = 24


def rollout_action(s, rng):
    """(action, legal) for `apply_legal`: a legal action drawn at random without listing the
    options, with `legal` = [action]; or None where this fast path does not apply."""
    frame = s.stack[-1] if s.stack else None
    if frame is None or frame[0] != "excavate":
        return None
    p = s.players[frame[1]]
    hook = s.hooks[p.seat]
    if hook.alt_shapes(s, p, frame[2], frame[3]):
        return None
    if frame[3] == "card" and hook.anytime_extras(s, p):
        return None
    extra = hook.forbidden(s, p)
    keep = ~p.exc & ~extra
    target = s.reach(p) & keep & ~s.static.board.blocked
    avoid = extra if extra and not s.static.skip else 0
    masks = s.static.placements[frame[2]]
    n = len(masks)
    if not n or not target:
        return None
    for _ in range(TRIES):
        m = masks[rng.randrange(n)]
        if m & target and not m & avoid:
            action = ("dig", m & keep)
            return action, [action]
    return None
