"""Setup (rulebook "Game Setup", "Player Board Setup", "Before You Start the 1st Round of the
Game"): what stays fixed for a rules object, player count and map (`Static`), the new state,
the starting cards kept, the starting octagons placed and rotated, the starting tunnel."""

from __future__ import annotations

from engine.core.cache import PerRulesCache
from engine.core.errors import SetupError
from engine.core.setup_checks import check_factions, check_map, check_player_count
from engine.core.protocol import Seat

from .board import MAP_ID, geometry, maps
from .rules import PLAYER_COUNTS
from .state import Player, UnderhavenState
from .tunnels import lay


NOT_IMPLEMENTED: tuple[str, ...] = ()     # advanced modules refused by check_setup


def factions(rules) -> list[str]:
    """The four corporations (the special abilities are a second, seat-level asymmetry)."""
    return sorted(rules.corporations)


def check_setup(rules, n_players: int, map_id: str | None, faction_ids) -> None:
    check_player_count(n_players, PLAYER_COUNTS, "Underhaven")
    if str(n_players) not in rules.board.layouts:
        raise SetupError(f"--players {n_players}: the rules have no board.layouts.\"{n_players}\"")
    known = maps(rules)
    if not known:
        raise SetupError("modules.crooked_caverns: the rules have no crooked_maps "
                         "(data/rules/underhaven/crooked.toml)")
    check_map(map_id, known)
    for m in known if rules.modules.crooked_caverns else ():
        if str(n_players) not in rules.crooked_maps[m].layouts:
            raise SetupError(f"--players {n_players}: crooked_maps.{m} has no layouts.\"{n_players}\"")
    check_factions(faction_ids, factions(rules), "corporation")
    _check_modules(rules)
    for m in NOT_IMPLEMENTED:
        if getattr(rules.modules, m):
            raise SetupError(f"modules.{m}: this advanced module is not implemented yet "
                             f"(see engine/games/underhaven/RULES.md, 'Not yet implemented')")


def _check_modules(rules) -> None:
    """Modules the rulebook couples (RULES.md "Advanced modules"): Energy "Add all buildings &
    Starting Cards with the advanced symbol" and the advanced buildings are "(Mandatory if
    Energy is used)": Energy without them is a setup error (its starting cards come with it
    automatically); the Coward's Loan is "Needed for Raw Start": Raw Start without the Corp
    board locations is a setup error.  Each coupling can be switched off in `readings`."""
    mods, rd = rules.modules, rules.readings
    if mods.energy and not mods.advanced_buildings and rd.energy_needs_advanced_buildings:
        raise SetupError("modules.energy: the Energy module brings the advanced buildings (\"Add "
                         "all buildings & Starting Cards with the advanced symbol\"; Advanced "
                         "Buildings \"(Mandatory if Energy is used)\"): also set "
                         "modules.advanced_buildings=true (or "
                         "readings.energy_needs_advanced_buildings=false)")
    if mods.raw_start and not mods.corp_locations and rd.raw_start_needs_corp_locations:
        raise SetupError("modules.raw_start: the Coward's Loan (Corp Board Locations) is "
                         "\"Needed for Raw Start\": also set modules.corp_locations=true (or "
                         "readings.raw_start_needs_corp_locations=false)")


def new_game(rules, seats, seed: int, *, map: str | None = None, log: bool = True):
    seats = [s if isinstance(s, Seat) else Seat(*s) for s in seats]
    check_setup(rules, len(seats), map, [s.faction for s in seats])
    return new_state(rules, seats, seed, map or maps(rules)[0], log=log)


class Static:
    """What does not change during a game with this rules object, player count and map
    (`key` = (player count, map id))."""

    __slots__ = ("rules", "n", "geo", "layout", "b", "tiles", "n_regular", "cards", "spaces",
                 "missions", "colour_corp", "abilities", "gaps", "board", "crooked", "placements",
                 "tunnel_ids", "touching", "social", "for_terrain", "starting_ids",
                 "space_of_kind", "said", "slot_options")

    def __init__(self, rules, key):
        n, map_id = key
        self.rules = rules
        self.n = n
        # Crooked Caverns: the map is one of the crooked layouts, with no outer edge.
        self.crooked = map_id != MAP_ID
        self.board = rules.crooked_maps[map_id] if self.crooked else rules.board
        self.layout = self.board.layouts[str(n)]
        if self.crooked:
            self.geo = geometry(self.board, self.layout.lines, self.layout, outer_edge=False)
        else:
            self.geo = geometry(rules.board, self.layout.lines)
        # Where each tile type can lie (tunnel types by id; "trapezoid": every face of a gap).
        self.tunnel_ids = [t.id for t in rules.tunnels]
        self.placements = {t.id: self.geo.placements(t.arms, t.span) for t in rules.tunnels}
        self.placements["trapezoid"] = self.geo.placements(("NW", "NE", "SE", "SW"), 1)
        # shape -> space -> indices of the placements connecting that space (in order).
        self.touching = {}
        for shape, pl in self.placements.items():
            idx: dict[int, list[int]] = {}
            for i, (_g, _r, _gaps, spaces) in enumerate(pl):
                for x in spaces:
                    idx.setdefault(x, []).append(i)
            self.touching[shape] = idx
        mods = rules.modules
        self.b = {b.id: b for b in rules.buildings
                  if not b.advanced or (mods.advanced_buildings and (mods.energy or not b.gain.energy))}
        self.tiles = list(rules.octagons) + list(rules.start_tiles)
        self.n_regular = len(rules.octagons)
        self.cards = {c.id: c for c in rules.market_cards}
        for corp in rules.corporations.values():
            for c in corp.cards:
                self.cards[c.id] = c
        self.spaces = {t.id: t for t in rules.trade_spaces
                       if t.module == "basic" or (t.module == "energy" and mods.energy)
                       or (t.module == "corp_locations" and mods.corp_locations)}
        # kind -> the first trade space of that kind (the starting-player location, the loan)
        self.space_of_kind: dict[str, str] = {}
        for sid, sp in self.spaces.items():
            self.space_of_kind.setdefault(sp.kind, sid)
        self.missions = {m.id: m for m in rules.missions}
        self.colour_corp = {c.colour: cid for cid, c in rules.corporations.items()}
        self.social = {bid for bid, bd in self.b.items() if bd.activation == "consultant"}
        # terrain -> the supply buildings (not starting, count > 0) that may stand on it, in order.
        self.for_terrain: dict[str, list] = {}
        for bid, bd in self.b.items():
            if not bd.starting and bd.count != 0:
                for terr in dict.fromkeys(bd.terrains):
                    self.for_terrain.setdefault(terr, []).append((bid, bd))
        self.abilities = [a.id for a in rules.abilities]
        # The starting buildings (the card icon "Starting"): drawn with a starting card, or
        # printed on a starting octagon.
        self.starting_ids = frozenset([b.id for b in rules.buildings if b.starting]
                                      + [t.start_building for t in rules.start_tiles
                                         if t.start_building])
        self.gaps = self.geo.useful_gaps()
        self.said: dict[tuple, tuple] = {}   # the move log's text remembered (describe.py)
        self.slot_options: dict[tuple, tuple] = {}   # orders.slot_options remembered


static_for = PerRulesCache(Static)  # (rules, (player count, map)) -> Static


def new_state(rules, seats, seed: int, map_id: str, log: bool = True) -> UnderhavenState:
    s = UnderhavenState()
    g = rules.game
    s.rules = rules
    s.n = n = len(seats)
    s.st = st = static_for(rules, (n, map_id))
    s.map_id = map_id
    s.start(seed, log)  # rng, log, round 1, setup, empty stack (FrameMachine)
    rng = s.rng
    geo = st.geo
    rng = s.rng
    # Octagons face down (setup 1): a random regular tile on every octagon of the layout.
    regular = list(range(st.n_regular))
    rng.shuffle(regular)
    s.tile = [-1] * geo.n_oct
    for o in range(geo.n_oct):
        if geo.octagon_ok[o]:
            s.tile[o] = regular.pop()
    s.box = regular
    s.explored = [False] * geo.n_oct
    s.terr = [None] * geo.n_space
    s.bld = [None] * geo.n_space
    s.owner = [-1] * geo.n_space
    s.done = [False] * geo.n_space
    s.gap = {}
    s.supply = {bid: b.count for bid, b in st.b.items()}
    # Corp board (setup 3): missions, market, supers with dice at 1, turn die, start player.
    s.mission_deck = [m.id for m in rules.missions]
    rng.shuffle(s.mission_deck)
    s.mission_discard = []
    s.missions = [s.mission_deck.pop() if s.mission_deck else None
                  for _ in range(g.missions_face_up)]
    s.card_deck = [c.id for c in rules.market_cards]
    rng.shuffle(s.card_deck)
    s.market = [s.card_deck.pop() if s.card_deck else None for _ in range(g.market_cards)]
    s.super_die = [1] * g.super_specialists
    s.super_holder = [-1] * g.super_specialists
    s.occ = {}
    s.mission_memo = {}      # seat -> what its last mission check saw, see claim_missions
    s.owned_memo = ((), {})  # (owner, {seat: its spaces}), see `owned`
    s.social_memo = ((), (), [])   # (bld, done, social sites), see `social_sites`
    top = rng.randrange(6)
    north = rng.choice([f for f in range(6) if f not in (top, 5 - top)])
    side = min(f for f in range(6) if f not in (top, 5 - top, north, 5 - north))
    s.die_cycle = (top, side, 5 - top, 5 - side)
    s.die_idx = 0
    s.die_left = rules.turn_die.track_rounds[str(n)] - 1
    s.star_round = False
    s.first_seat = rng.randrange(n)
    s.next_first = -1
    # Unused specialists (setup 5): the reserve of colours no player uses.
    used = {rules.corporations[seat.faction].colour for seat in seats}
    per = g.specialists_per_player or n
    s.reserve = {}
    if n < 4:
        free = [c for c in ("yellow", "red", "green", "blue") if c not in used]
        for c in free:
            s.reserve[c] = 2 if n == 2 else 3
    # Players (setup 6 and "Player Board Setup").
    abilities = list(st.abilities)
    rng.shuffle(abilities)
    starts = list(range(st.n_regular, len(st.tiles)))
    rng.shuffle(starts)
    s.start_tile = []
    start_bld = [b for b in rules.buildings if b.starting and b.id in st.b]
    rng.shuffle(start_bld)
    s.start_bld_pool = [b.id for b in start_bld]
    deck = [c.id for c in rules.start_cards if not c.advanced or rules.modules.energy]
    rng.shuffle(deck)
    s.dealt = []
    s.players = []
    for i, seat in enumerate(seats):
        corp = rules.corporations[seat.faction]
        p = Player(i, seat.faction, corp.colour)
        p.ability = abilities[i % len(abilities)]
        p.pt = 0 if rules.modules.raw_start else g.start_pt
        p.consultants = p.cons_free = g.start_consultants
        p.pros_free = g.professionals
        p.spec_total = p.spec_home = per
        p.hand = [c.id for c in corp.cards]
        p.trapezoids = [t.id for t in corp.trapezoids][:rules.readings.trapezoids]
        p.rep = 0
        s.players.append(p)
        s.start_tile.append(starts.pop())
        s.dealt.append(tuple(deck.pop() for _ in range(g.start_cards_dealt) if deck))
    s.start_card_deck = deck
    if st.crooked:
        # Crooked Caverns: "For a larger setup, use the remaining Starting tiles": they lie
        # face down on random positions off the start slots (their regular octagons go
        # back to the box); whoever explores one claims its printed building.
        C = st.board.columns
        slots = {sl.line * C + sl.col for grp in st.layout.slot_sets for sl in grp}
        free = [o for o in range(geo.n_oct) if geo.octagon_ok[o] and o not in slots]
        for o in rng.sample(free, min(len(starts), len(free))):
            s.box.append(s.tile[o])
            s.tile[o] = starts.pop()
    # The tunnel tiles on the Corp board (setup 3 D), by type.
    s.tunnel_supply = {t.id: t.count for t in rules.tunnels}
    s.loan_cubes = [0] * len(g.loan_tiers)
    s.slot_sets_left = list(range(len(st.layout.slot_sets)))
    for p in s.players:
        s.score(p, "start", g.start_reputation)
    order = s.turn_order()
    tasks = [("keep", seat) for seat in order]
    tasks += [("place_start", seat) for seat in reversed(order)]
    tasks.append(("round_start",))
    s.agenda = tasks[::-1]
    s._advance()
    return s


def _t_keep(s, task) -> None:
    if s.dealt[task[1]]:
        s.stack.append(("keep", task[1]))


def _t_place_start(s, task) -> None:
    s.stack.append(("start", task[1]))


def _l_keep(s, frame):
    return [("return", c) for c in dict.fromkeys(s.dealt[frame[1]])]


def _a_keep(s, frame, action):
    p = s.players[frame[1]]
    cards = list(s.dealt[frame[1]])
    cards.remove(action[1])
    s.dealt[frame[1]] = ()
    s.start_card_deck.insert(0, action[1])
    by_id = {c.id: c for c in s.rules.start_cards}
    for cid in cards[: s.rules.game.start_cards_kept]:
        c = by_id[cid]
        s.gain(p, c.gain, "start")
        if c.workers:                   # "Gained starting worker can be an additional Consultant"
            s.stack.append(("unit", p.seat, c.workers, -1))   # a worker: at the entrance
        if c.start_building and s.start_bld_pool:
            p.start_buildings.append(s.start_bld_pool.pop())


def _l_start(s, frame):
    out = []
    for k in s.slot_sets_left:
        for j, _sl in enumerate(s.st.layout.slot_sets[k]):
            out.append(("slot", k, j))
    return out


def _a_start(s, frame, action):
    sl = s.st.layout.slot_sets[action[1]][action[2]]
    o = sl.line * s.st.board.columns + sl.col
    s.slot_sets_left.remove(action[1])
    s.box.append(s.tile[o])        # the replaced octagon goes back to the box unseen
    s.tile[o] = s.start_tile[frame[1]]
    s.explored[o] = True            # face up: the player looks at it while rotating
    s.stack.append(("start_rot", frame[1], o, s.st.geo.entrance_cell(sl.col, sl.line, sl.edge)))


def _l_start_rot(s, frame):
    return [("rot", r) for r in range(4)]


def _a_start_rot(s, frame, action):
    seat, o, ent = frame[1], frame[2], frame[3]
    p = s.players[seat]
    g = s.rules.game
    tile = s.st.tiles[s.tile[o]]
    s.explore(o, action[1])
    sp = 4 * o + (tile.start_space + action[1]) % 4
    s.bld[sp] = tile.start_building
    s.owner[sp] = seat
    s.done[sp] = True
    p.entrance = ent
    p.workers = [ent] * (g.start_workers + len(p.workers))
    if s.rules.start_tunnel.reading == "setup":
        s.stack.append(("start_tunnel", seat, o))


def _l_start_tunnel(s, frame):
    """The starting tunnel tile (setup 6, assumed reading): laid free right after the
    starting octagon, connecting one of its spaces."""
    kind = s.rules.start_tunnel.tile
    mine = range(4 * frame[2], 4 * frame[2] + 4)
    return [("tile", kind, g, r) for g, r, gaps, spaces in s.st.placements[kind]
            if any(x in mine for x in spaces) and not any(x in s.gap for x in gaps)] or [("none",)]


def _a_start_tunnel(s, frame, action):
    if action[0] == "tile":
        lay(s, frame[1], action[1], action[1], action[2], action[3])

def choice_catalogue(rules) -> list[tuple[str, str]]:
    """The rules entries players choose (for design checks): buildings in the supply (not the
    starting buildings, which are claimed at setup; advanced ones only with that module), market
    cards, trade spaces, starting cards (deal 3, keep 2; advanced ones
    only with energy) and tunnel types (long ones need the outer edge: not with Crooked
    Caverns).  Abilities, octagons and missions are dealt or drawn, not chosen."""
    out = [("buildings", b.id) for b in rules.buildings
           if b.count > 0 and (not b.advanced or rules.modules.advanced_buildings)]
    out += [("market_cards", c.id) for c in rules.market_cards]
    gated = {"loan": rules.modules.corp_locations, "upgrade": rules.modules.corp_locations,
             "corp_energy": rules.modules.energy, "energy_for_goods": rules.modules.energy,
             "goods_for_energy": rules.modules.energy, "energy_for_pt": rules.modules.energy}
    out += [("trade_spaces", t.id) for t in rules.trade_spaces if gated.get(t.kind, True)]
    out += [("start_cards", c.id) for c in rules.start_cards
            if not c.advanced or rules.modules.energy]
    out += [("tunnels", t.id) for t in rules.tunnels
            if t.span == 1 or not rules.modules.crooked_caverns]
    return out


TASKS = {"keep": _t_keep, "place_start": _t_place_start}
LEGAL = {"keep": _l_keep, "start": _l_start, "start_rot": _l_start_rot,
         "start_tunnel": _l_start_tunnel}
APPLY = {"keep": _a_keep, "start": _a_start, "start_rot": _a_start_rot,
         "start_tunnel": _a_start_tunnel}
