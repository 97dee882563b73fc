"""The cave-colony heuristic for the generic bots (engine/bots).

`evaluate(state, seat)` estimates how close the seat is to five colony cards: completed cards,
what its colony card still needs, the carried gems that fit it, how far the worker is from the
next useful gem (or from unexplored space, or from home when oxygen runs short), and what its
traits and equipment are worth.  Weights are assumed (hand-set; the paired checks of other
values are in RULES.md, "The heuristic").

Exploring: an empty space counts as a target at its distance plus the expected steps to a
wanted gem found by exploring (1 / the chance that a tile from the bag, whose contents are
public, brings a wanted colour), and a move onto an empty space is valued by the bag's odds
(`_discovery_value`) rather than by the one tile a lookahead copy would draw.

`action_values` is the greedy bot's fast path: a one-step lookahead on `evaluate` for every
decision, except where the next state hides the point of the decision behind chance: the
unseen trait (valued as the average hidden card of its deck), a fight and the energy added to
it (valued by the exact win chance of the event-die rolls).
"""

from __future__ import annotations

from engine.core.cache import LastState, PerRulesCache, remember
from engine.core.errors import RulesError
from engine.core.rules import DATA_DIR, read_toml

from . import cards as C
from .cards import CardTables
from .colony_cards import missing
from .rules import WILD
from .state import NC
from .view import hidden_slots, _get
from .zone import OPP

W_CARD = 12.0          # a completed colony card
W_SLOT = 2.0           # a colony-card slot still to fill
W_FIT = 1.5            # a carried gem that fits the card
W_GEM = 0.4            # any other carried gem
W_DIST = 0.2           # one step from the next target (the first MAX_DIST steps)
W_FAR = 0.05           # one step beyond MAX_DIST
MAX_DIST = 8
FAR = 40               # no target reachable
W_OPEN = 0.1           # an empty space the worker can reach (up to MAX_OPEN of them)
MAX_OPEN = 8
W_ALIVE = 2.0
W_RIVAL = 0.25         # share of the best other seat's progress taken off
W_DANGER = 2.5         # each turn of oxygen short of the way home
AVG_CARD = 2.5         # slots of a colony card not yet drawn
SAFETY = 0.7           # share of the expected steps counted on for the way home
# Exploring: an empty space the worker can reach is a target at its distance plus the
# expected steps to a wanted gem there (EXPLORE_MIN .. EXPLORE_MAX by the bag's odds)
EXPLORE_BAG = True     # False: an empty space is a target at its distance + 2
EXPLORE_MIN = 1.0
EXPLORE_MAX = 6.0

MOD_VALUE = {C.MAX_OXYGEN: 0.6, C.UPKEEP: -2.5, C.ENERGY: 1.2, C.MOVEMENT: 1.0,
             C.MOVE_COST: -2.0, C.COLLECT_COST: -0.8, C.SPEND_COST: -0.8, C.USE_COST: -0.3,
             C.ATTACK: 0.25, C.DEFEND: 0.3, C.DISCOVERY_DRAWS: 0.3, C.POSITIVE_TRAITS: 0.5,
             C.NEGATIVE_TRAITS: -0.3}
USE_VALUE = {"oxygen": 0.35, "energy": 0.45, "dash": 0.9, "magnet": 0.8, "recall": 1.0}


HEURISTIC_FILE = DATA_DIR / "bots" / "cave_colony.toml"


def _load_weights(path=HEURISTIC_FILE) -> dict:
    """The `[heuristic]` table of data/bots/cave_colony.toml: weights by their names here
    (the constants above are the defaults); an unknown name or a wrong type is an error
    naming the file and the field."""
    if not path.is_file():
        return {}
    table = read_toml(path).get("heuristic") or {}
    out = {}
    for key, value in table.items():
        if key == "source":
            continue
        cur = globals().get(key)
        if not key.isupper() or cur is None or isinstance(cur, dict):
            raise RulesError(str(path), f"heuristic.{key}", "a weight of "
                             "engine/games/cave_colony/bots.py (e.g. W_CARD)")
        if isinstance(cur, bool) != isinstance(value, bool) or \
                not isinstance(value, (int, float)):
            raise RulesError(str(path), f"heuristic.{key}", type(cur).__name__)
        out[key] = type(cur)(value)
    return out


globals().update(_load_weights())


def mods_value(v) -> float:
    return sum(w * v[i] for i, w in MOD_VALUE.items())


class _Values:
    """Per rules: what each trait and equipment card is worth to its holder."""

    def __init__(self, rules, _key=None):
        t = CardTables(rules)
        self.trait = (None, tuple(mods_value(v) for v in t.trait_mods[1]),
                      tuple(mods_value(v) for v in t.trait_mods[2]))
        self.equip_base = tuple(mods_value(v) for v in t.equip_mods)
        per = []
        for u in t.equip_use:
            per.append(0.0 if u is None else USE_VALUE[u.kind] * (u.amount or u.range or 2) / 4)
        self.equip_per_use = tuple(per)
        self.charges = t.equip_charges


values_for = PerRulesCache(_Values)


def equipment_value(s, card: int, uses: int = 0) -> float:
    val = values_for(s.rules, None)
    ch = val.charges[card]
    left = 4 if ch == 0 else max(0, min(4, ch - uses))
    return val.equip_base[card] + val.equip_per_use[card] * left


def trait_value(s, kind: int, card: int) -> float:
    return values_for(s.rules, None).trait[kind][card]


_DIST_MEMO: dict = {}       # (open sides of every cell, bag empty, start) -> distances


def distances(s, start: int) -> list[int]:
    """Steps from `start` along connected tiles; an empty space next to an open side is one
    step further (it would be discovered) and, while tiles are left, a dead end of the search;
    the worker's own cell counts as open on all sides if it has no tile yet.  Memoised on the
    board itself (the open sides of every cell), so every lookahead on one board shares it."""
    return _reach(s, start)[0]


def _reach(s, start: int) -> tuple[list[int], list[int]]:
    """`distances` and the cells reached, nearest first (the order of the search)."""
    empty_open = not any(s.bag)
    key = (bytes(s.mask), empty_open, start)
    hit = _DIST_MEMO.get(key)
    if hit is not None:
        return hit
    nbr = s.st.zone.nbr
    mask = s.mask
    dist = [-1] * len(mask)
    dist[start] = 0
    reach = [start]
    frontier = [start]
    k = 0
    while frontier:
        k += 1
        nxt = []
        for c in frontier:
            m = mask[c] or 15
            row = nbr[c]
            for d in (0, 1, 2, 3):
                if not m >> d & 1:
                    continue
                nb = row[d]
                if nb < 0 or dist[nb] >= 0:
                    continue
                mn = mask[nb]
                if not mn:
                    dist[nb] = k
                    reach.append(nb)
                    if empty_open:
                        nxt.append(nb)
                elif mn >> OPP[d] & 1:
                    dist[nb] = k
                    reach.append(nb)
                    nxt.append(nb)
        frontier = nxt
    return remember(_DIST_MEMO, key, (dist, reach), 20000)


def _progress(s, seat: int) -> float:
    """Completed cards, the card's slots still open, the carried gems that fit it (a gem beyond
    its colour's slots fits a wildcard slot) and the others.  One pass over the colours (the
    sums of `missing` and of the fits, in integers, then the weights as before)."""
    v = W_CARD * len(s.done[seat])
    base = seat * NC
    carry = s.carry
    card = s.card[seat]
    if card < 0:
        return v - W_SLOT * AVG_CARD + W_GEM * 2 * sum(carry[base: base + NC])
    cost = s.st.cards.colony_cost[card]
    on = s.oncard
    need = fit = spare = over = 0
    for c in range(NC):
        x = on[base + c]
        k = cost[c]
        if x < k:
            m = k - x
        else:
            m = 0
            over += x - k
        g = carry[base + c]
        f = g if g < m else m
        need += m
        fit += f
        spare += g - f
    wild = cost[WILD] - over
    need += wild
    wild_fit = spare if spare < wild else wild
    fit += wild_fit
    spare -= wild_fit
    return v - W_SLOT * need + W_FIT * fit + W_GEM * spare


def evaluate(s, seat: int) -> float:
    if s.over:                             # the final rank, from 1000 (first) down to 0 (last)
        from .scoring import standing
        mine = standing(s, seat)
        rank = sum(1 for i in range(s.n) if standing(s, i) > mine)
        return 1000.0 * (s.n - 1 - rank) / max(1, s.n - 1) + _progress(s, seat)
    v = _progress(s, seat)
    others = [_progress(s, i) for i in range(s.n) if i != seat]
    if others:
        v -= W_RIVAL * max(others)
    if not s.alive[seat]:
        return v - W_ALIVE
    v += W_ALIVE
    for kind, card in s.traits[seat]:
        v += 0.3 * trait_value(s, kind, card)
    for slot, card in enumerate(s.equip[seat]):
        v += 0.3 * equipment_value(s, card, s.eq_uses[seat][slot])
    v += _position(s, seat)
    return v


def _position(s, seat: int) -> float:
    """The worker's position: distance to the next target and oxygen safety."""
    pos = s.pos[seat]
    dist, reach = _reach(s, pos)
    home = s.home(seat)
    d_home = dist[home] if dist[home] >= 0 else FAR
    oxy = s.oxy[seat]
    v = 0.15 * oxy
    short = _short_of_home(s, seat, d_home) if pos != home else 0.0
    if short > 0:
        return v - W_DANGER * short - _dist_cost(d_home)
    want = wanted(s, seat)
    if s.card[seat] >= 0 and not want:
        if s.rules.colony.spend_at_colony:
            return v - _dist_cost(d_home)
        return v
    cgem = s.cgem
    tile = s.tile
    # the cave left to explore: empty spaces the worker can reach (a closed cave strands
    # everyone once its gems are gone); only the first MAX_OPEN count
    open_spaces = 0
    for c in reach:
        if tile[c] < 0 and c != pos:
            open_spaces += 1
            if open_spaces == MAX_OPEN:
                break
    kind = s.st.tile_kind
    explore = _explore_steps(s, want) if EXPLORE_BAG else 2
    anomalies = s.rules.anomaly.draw_on == "enter"
    drawing = bool(s.stack) and s.stack[-1][0] == "anomaly" and s.stack[-1][1] == seat
    # the nearest target, nearest cells first: no cell at `best` steps or more can beat it
    best = FAR
    for c in reach:
        d = dist[c]
        if d >= best:
            break
        t = tile[c]
        if t < 0:
            if d + explore < best:
                best = d + explore     # unexplored: a gem may lie there
            continue
        b = c * NC
        for g in want:
            if cgem[b + g]:
                best = d
                break
        else:
            # an anomaly card may place gems: a target once drawn (the card pending), not after
            if anomalies and kind[t] == "anomaly" and (c != pos or drawing):
                best = min(best, d + 4)
    return v + W_OPEN * min(open_spaces, MAX_OPEN) - _dist_cost(best)


def wanted(s, seat: int) -> list[int]:
    """The gem colours the seat's worker still looks for: a colour its card needs more of than
    it carries, and every colour while a wildcard slot is left that the gems it carries beyond
    their colours' slots do not cover (no card: every colour)."""
    if s.card[seat] < 0:
        return list(range(NC))
    miss = missing(s, seat)
    carried = s.carry[seat * NC: seat * NC + NC]
    spare = sum(carried[c] - miss[c] for c in range(NC) if carried[c] > miss[c])
    wild_open = miss[NC] > spare
    return [c for c in range(NC) if miss[c] > carried[c] or wild_open]


def gem_odds(s, want) -> float:
    """The chance that a tile drawn from the bag (public: what is left of the box) holds a
    gem of one of the colours `want`."""
    st = s.st
    bag = s.bag
    total = 0
    hit = 0
    gem = st.tile_gem
    for t in range(st.n_regular):
        k = bag[t]
        if k:
            total += k
            if gem[t] >= 0 and gem[t] in want:
                hit += k
    return hit / total if total else 0.0


def _explore_steps(s, want) -> float:
    """Expected extra steps from an empty space to a wanted gem found by exploring: one tile
    in 1/p holds one (p: the bag's odds), from EXPLORE_MIN to EXPLORE_MAX."""
    p = gem_odds(s, want)
    if p <= 0:
        return EXPLORE_MAX
    return max(EXPLORE_MIN, min(EXPLORE_MAX, 1.0 / p))


def _short_of_home(s, seat: int, d_home: int) -> float:
    """How many turns of oxygen the worker is short of the way home: the steps it can still
    take this turn and, at the expected energy, on the turns its oxygen pays for (with a
    SAFETY margin), against the steps home.  A recall it can still use is the way home."""
    t = s.st.cards
    for slot, card in enumerate(s.equip[seat]):
        u = t.equip_use[card]
        if u is not None and u.kind == "recall" and (
                not t.equip_charges[card] or s.eq_uses[seat][slot] < t.equip_charges[card]):
            return 0.0
    cost = s.cost(seat, C.MOVE_COST)
    per_turn = (_mean_energy(s) + (0 if s.once else s.ecrys[seat])
                + min(0, s.mods[seat][C.ENERGY])) / cost + s.mcrys[seat]
    now = (s.available() // cost + s.free) if seat == s.cur and s.phase == "actions" else 0
    turns = s.oxy[seat] // max(1, s.upkeep(seat))
    reach = now + turns * max(0.5, per_turn) * SAFETY
    return max(0.0, (d_home - reach) / max(1.0, per_turn))


def _mean_energy(s) -> float:
    faces = s.st.energy_faces
    return sum(faces) / len(faces)


def _dist_cost(d: int) -> float:
    return W_DIST * min(d, MAX_DIST) + W_FAR * max(0, d - MAX_DIST)


# ---------------------------------------------------------------- the greedy fast path

def _win_chance(s, attacker: int, defender: int, k: int) -> float:
    faces = s.st.event_faces
    a_mod = k + s.mods[attacker][C.ATTACK]
    d_mod = s.mods[defender][C.DEFEND]
    wins = sum(1 for x in faces for y in faces if x + a_mod > y + d_mod)
    return wins / (len(faces) ** 2)


def _steal_value(s, winner: int, loser: int) -> float:
    """What the winner's best steal is worth to it (and costs the loser, roughly)."""
    best = 0.0
    if s.rules.fights.steal_oxygen and s.oxy[loser] > 0:
        best = 0.4
    base = loser * NC
    if s.card[winner] >= 0:
        miss = missing(s, winner)
        for c in range(NC):
            if s.carry[base + c]:
                best = max(best, W_FIT if miss[c] or miss[NC] else W_GEM)
    elif any(s.carry[base: base + NC]):
        best = max(best, W_GEM * 2)
    return best


def _attack_value(s, seat: int, target: int, k: int) -> float:
    p = _win_chance(s, seat, target, k)
    gain = _steal_value(s, seat, target) * 1.25        # also hurts a rival
    loss = _steal_value(s, target, seat) * 1.0
    return p * gain - (1 - p) * loss - 0.3 * k


def action_values(s, seat: int, actions: list) -> list[float]:
    frame = s.stack[-1]
    kind = frame[0]
    if kind == "trait_pick":
        k = frame[2]
        pool = [_get(s, r) for r in hidden_slots(s, seat)[k]]
        unseen = sum(trait_value(s, k, c) for c in pool) / len(pool) if pool else 0.0
        vals = {"seen": trait_value(s, k, frame[3]), "unseen": unseen}
        return [vals[a[1]] for a in actions]
    if kind == "attack":
        return [_attack_value(s, seat, frame[2], a[1]) for a in actions]
    base = evaluate(s, seat)
    out = []
    for a in actions:
        if a[0] == "fight":
            out.append(base + max(_attack_value(s, seat, a[1], k)
                                  for k in range(s.available() + 1)))
            continue
        if EXPLORE_BAG and a[0] == "move" and kind == "act":
            v = _discovery_value(s, seat, a[1])
            if v is not None:
                out.append(v)
                continue
        nxt = s.clone(log=False)
        nxt.apply(a)
        out.append(evaluate(nxt, seat))
    return out


def _discovery_value(s, seat: int, d: int) -> float | None:
    """A move onto an empty space, valued by what the bag may give (its public counts) rather
    than by one sampled tile: the worker there on an open tile, and with each colour's gems
    lying there weighted by the chance of drawing a tile that brings them.  None when the
    space is not empty (or the bag is: the move is certain)."""
    from .discovery import eligible
    st = s.st
    frm = s.pos[seat]
    cell = st.zone.nbr[frm][d]
    if cell < 0 or s.tile[cell] >= 0 or not any(s.bag):
        return None
    types, _exempt = eligible(s, cell, frm, OPP[d])
    total = sum(s.bag[t] for t in types)
    if not total:
        return None
    nxt = s.clone(log=False)
    if nxt.free:
        nxt.free -= 1
        if nxt.once:
            nxt.mcrys[seat] -= 1
            nxt.mcrys_supply += 1
    else:
        nxt.pay(nxt.cost(seat, C.MOVE_COST))
    nxt.pos[seat] = cell
    nxt.tile[cell] = st.OPEN
    nxt.mask[cell] = 15
    odds: dict = {}
    for t in types:
        g = st.tile_gem[t]
        if g >= 0 and s.bag[t]:
            k = min(st.tile_gems[t], s.gem_supply[g])
            if k:
                odds[(g, k)] = odds.get((g, k), 0) + s.bag[t]
    v = evaluate(nxt, seat)
    out = v
    b = cell * NC
    for (g, k), n in odds.items():
        nxt.cgem[b + g] += k
        out += n / total * (evaluate(nxt, seat) - v)
        nxt.cgem[b + g] -= k
    return out


# ---------------------------------------------------------------------------- search leaf
LEAF_STEPS = 40     # at most this many of a turn's decisions finished before a leaf is valued


def leaf_value(s, seat: int) -> float:
    """The search bot's leaf (`Game.extra["leaf_value"]`, MCTS `leaf = "game"`): `evaluate`
    once the turn in progress is finished by the greedy bot (`action_values`, the first best
    option), so that a leaf halfway through a turn (energy left, a gem not yet collected or
    spent, a worker away from a target it can still reach) is valued as the turn ends.  A
    finished game and an off-turn decision (the trade window) are valued as they stand.  The
    finished copy is built once for the seats' values of one leaf (`finished_turn`)."""
    if s.over or not s.stack or s.to_move() != s.cur:
        return evaluate(s, seat)
    return evaluate(finished_turn(s), seat)


def _finish_turn(s):
    """A copy of `s` with the turn in progress finished by the greedy bot."""
    cur = s.cur
    done = s.clone(log=False)
    for _ in range(LEAF_STEPS):
        if done.over or not done.stack or done.cur != cur or done.to_move() != cur:
            break
        actions = done.legal_actions()
        if len(actions) > 1:
            vals = action_values(done, cur, actions)
            a = actions[max(range(len(actions)), key=vals.__getitem__)]
        else:
            a = actions[0]
        done.apply_legal(a, actions)
    return done


finished_turn = LastState(_finish_turn)     # the last leaf's finished copy
