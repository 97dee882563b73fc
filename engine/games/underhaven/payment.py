"""Resources and payment (rulebook "The Resources - Overview", "Payment for Building"): 0-5
tracks that overflow into power tokens, power tokens paying a whole single resource payment
with change, morale steps bought with resources the player chooses (the building example's
step 4)."""

from __future__ import annotations

from itertools import combinations_with_replacement

MONEY, FOOD, MATERIAL = 0, 1, 2
TRACKS = ("money", "food", "material")


def gain_track(track: int, pt: int, amount: int, pt_value: int) -> tuple[int, int]:
    """Gain `amount` on a 0-5 track: every time it reaches `pt_value` (6) it becomes a power
    token and the track continues from 0 ("As soon as ANY of the basic resources becomes a 6,
    you get a Power Token, then continue to count up from 0")."""
    track += amount
    if track >= pt_value:
        pt += track // pt_value
        track %= pt_value
    return track, pt


def pay_track(track: int, pt: int, amount: int, pt_value: int) -> tuple[int, int] | None:
    """Pay `amount` of one basic resource, individually ("Payment for Building").  The track
    pays when it covers the amount; otherwise one power token pays it: worth 6, the change
    (6 - amount) goes back onto the track; an amount of 6 or more is paid whole by one token
    ("an infinite value ABOVE 5").  None if it cannot be paid."""
    if amount <= 0:
        return track, pt
    if track >= amount:
        return track - amount, pt
    if pt <= 0:
        return None
    pt -= 1
    if amount < pt_value:
        return gain_track(track, pt, pt_value - amount, pt_value)
    return track, pt


def afford(s, p, money: int, food: int, material: int, pt: int, steps: int) -> tuple | None:
    """The resources after paying (money, food, material individually, then power tokens,
    then `steps` morale steps), or None.  Pure: `p` is not changed."""
    pv = s.rules.game.pt_value
    res = p.res.copy()
    tok = p.pt
    for i, amt in ((MONEY, money), (FOOD, food), (MATERIAL, material)):
        r = pay_track(res[i], tok, amt, pv)
        if r is None:
            return None
        res[i], tok = r
    if tok < pt:
        return None
    tok -= pt
    cost = s.rules.morale.step_cost
    for _ in range(steps):
        for _k in range(cost):
            i = largest_track(res)
            if res[i] > 0:
                res[i] -= 1
            elif tok > 0:   # a power token pays a whole morale step (assumed)
                tok -= 1
                break
            else:
                return None
    return res, tok


def morale_steps(s, p, level: int) -> int:
    """Morale steps to buy to meet a building's requirement (0-3): the track position the
    level needs less the current one.  The ability "Build 1 morale higher: ... you can build
    1 step higher than your current morale status indicates" lowers the position needed by
    one step (a step is what "The cost to increase morale 1 step are any 2 resources" buys)."""
    if level <= 0:
        return 0
    need = s.rules.morale.levels[min(level, 3)]
    if p.ability == "morale_plus":
        need -= s.ability_value("morale_plus")
    return max(0, need - p.morale)


def largest_track(res) -> int:
    """The index of the largest of the three resource tracks, the first one on a tie (what
    `max(range(3), key=res.__getitem__)` gives, without a call per track)."""
    a, b, c = res
    if a >= b and a >= c:
        return 0
    return 1 if b >= c else 2


def pay(s, p, cost) -> None:
    """Pay resource by resource; the missing morale steps are then the player's decisions
    (`morale`, one per step)."""
    steps = s.morale_steps(p, cost[4])
    if s.afford(p, *cost[:4], steps) is None:   # a build is offered only when it can be paid
        raise RuntimeError(f"seat {p.seat} cannot pay {cost}")
    paid = s.afford(p, *cost[:4], 0)
    p.res, p.pt = list(paid[0]), paid[1]
    if steps:
        s.stack.append(("morale", p.seat, steps))


def steps_payable(res, pt: int, steps: int, step_cost: int) -> bool:
    """Whether `steps` morale steps can still be bought (each `step_cost` track resources, or
    one power token): what `afford` checks."""
    return sum(res) // step_cost + pt >= steps


def _l_morale(s, frame):
    """"The cost to increase morale 1 step are any 2 resources" (RB:891; RB:595 "either
    resources or power tokens"): which two of the basic tracks (the Building Example lowers
    one slider by 2; any two, from one track or two), or one power token for the whole step
    (assumed); only choices that leave the steps still due payable."""
    p = s.players[frame[1]]
    cost = s.rules.morale.step_cost
    left = frame[2] - 1
    out = []
    for combo in combinations_with_replacement(range(3), cost):
        res = p.res.copy()
        for i in combo:
            res[i] -= 1
        if min(res) >= 0 and steps_payable(res, p.pt, left, cost):
            out.append(("pay",) + tuple(TRACKS[i] for i in combo))
    if p.pt > 0 and steps_payable(p.res, p.pt - 1, left, cost):
        out.append(("pay", "pt"))
    return out


def _a_morale(s, frame, action):
    p = s.players[frame[1]]
    if action[1] == "pt":
        p.pt -= 1
    else:
        for k in action[1:]:
            p.res[TRACKS.index(k)] -= 1
    p.morale += 1
    if frame[2] > 1:
        s.stack.append(("morale", p.seat, frame[2] - 1))


def fullest_first(s, p, options: list) -> tuple:
    """Of the `morale` options, the one that takes from the fullest tracks (a power token
    only when the tracks cannot pay): the bots' quick settlement in a lookahead."""
    res = p.res.copy()
    picked = []
    for _ in range(s.rules.morale.step_cost):
        i = largest_track(res)
        if res[i] <= 0:
            break
        res[i] -= 1
        picked.append(TRACKS[i])
    want = ("pay",) + tuple(sorted(picked, key=TRACKS.index))
    return want if want in options else ("pay", "pt") if ("pay", "pt") in options else options[0]


LEGAL = {"morale": _l_morale}
APPLY = {"morale": _a_morale}


def pt_trade_ok(s, p) -> bool:
    """Whether the "3 resources for 1 PT" ability (RB:292, once per round) can be used now."""
    return p.ability == "pt_trade" and "pt_trade" not in p.used \
        and sum(p.res) + p.tg + p.energy >= s.ability_value("pt_trade")
