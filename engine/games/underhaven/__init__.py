"""Underhaven (../shared/rulebooks/underhaven.txt), registered as `underhaven`."""

from __future__ import annotations

from engine.core.errors import SetupError
from engine.core.protocol import Game, MapCell, Seat
from engine.core.registry import register

from . import bots, labels, scoring
from .board import geometry
from .play import MAP_ID, UnderhavenState
from .rules import UnderhavenRules
from .view import board_view

PLAYER_COUNTS = (2, 3, 4)
NOT_IMPLEMENTED: tuple[str, ...] = ()


def factions(rules) -> list[str]:
    """The four corporations (the special abilities are a second, seat-level asymmetry)."""
    return sorted(rules.corporations)


def maps(rules) -> list[str]:
    """`octagons` (the base layout), or with Crooked Caverns the crooked layouts (each a map
    with fixed geometry, so map_cells stays keyed by map and cell)."""
    if rules.modules.crooked_caverns:
        return list(rules.crooked_maps)
    return [MAP_ID]


def check_setup(rules, n_players: int, map_id: str | None, faction_ids) -> None:
    if n_players not in PLAYER_COUNTS:
        raise SetupError(f"--players {n_players}: Underhaven seats 2 to 4 players")
    if str(n_players) not in rules.board.layouts:
        raise SetupError(f"--players {n_players}: the rules have no board.layouts.\"{n_players}\"")
    known = maps(rules)
    if not known:
        raise SetupError("modules.crooked_caverns: the rules have no crooked_maps "
                         "(data/rules/underhaven/crooked.toml)")
    if map_id is not None and map_id not in known:
        raise SetupError(f"--map {map_id}: unknown map; expected one of {', '.join(known)}")
    for m in known if rules.modules.crooked_caverns else ():
        if str(n_players) not in rules.crooked_maps[m].layouts:
            raise SetupError(f"--players {n_players}: crooked_maps.{m} has no layouts.\"{n_players}\"")
    for f in faction_ids or ():
        if f not in rules.corporations:
            raise SetupError(f"--factions: unknown corporation '{f}'; expected one of "
                             f"{', '.join(factions(rules))}")
    if faction_ids is not None and len(faction_ids) != len(set(faction_ids)):
        raise SetupError("--factions: each player needs a different corporation")
    for m in NOT_IMPLEMENTED:
        if getattr(rules.modules, m):
            raise SetupError(f"modules.{m}: this advanced module is not implemented yet "
                             f"(see engine/games/underhaven/RULES.md, 'Not yet implemented')")


def new_game(rules, seats, seed: int, *, map: str | None = None, log: bool = True):
    seats = [s if isinstance(s, Seat) else Seat(*s) for s in seats]
    check_setup(rules, len(seats), map, [s.faction for s in seats])
    return UnderhavenState.new(rules, seats, seed, map or maps(rules)[0], log=log)


def observe(state, seat: int):
    """What `seat` may see: the table, but not the face-down octagons (which tile lies where),
    the order of the mission and activation decks, the starting octagons and starting cards
    dealt to others, nor the cards others drew unseen (draw 3 keep 1)."""
    obs = state.clone(log=False)
    hidden = [o for o, t in enumerate(obs.tile) if t >= 0 and not obs.explored[o]]
    pool = sorted([obs.tile[o] for o in hidden] + obs.box)
    for o, t in zip(hidden, pool):
        obs.tile[o] = t
    obs.box = pool[len(hidden):]
    others = [i for i in range(obs.n) if i != seat]
    placed = {obs.tile[o] for o in range(len(obs.tile)) if obs.explored[o]}
    unplaced = [i for i in others if obs.start_tile[i] not in placed]
    spool = sorted(obs.start_tile[i] for i in unplaced)
    for i, t in zip(unplaced, spool):
        obs.start_tile[i] = t
    pending = [i for i in others if obs.dealt[i]]
    cards = sorted([c for i in pending for c in obs.dealt[i]] + obs.start_card_deck)
    k = 0
    for i in pending:
        m = len(obs.dealt[i])
        obs.dealt[i] = tuple(cards[k:k + m])
        k += m
    obs.start_card_deck = cards[k:]
    obs.mission_deck = sorted(obs.mission_deck)
    secret = sorted(c for i in others for c in obs.players[i].secret)
    obs.card_deck = sorted(obs.card_deck + secret)
    for i in others:
        p = obs.players[i]
        if p.secret:
            p.hand = sorted(c for c in p.hand if c not in p.secret)
            p.bought = [c for c in p.bought if c not in p.secret]
            p.secret = set()
        p.hand = sorted(p.hand)
    obs.start_bld_pool = sorted(obs.start_bld_pool)
    return obs


def map_cells(rules) -> list[MapCell]:
    """Every cell of every map the rules can play: for `octagons` all spaces, gaps and
    entrances of the largest layout; for a crooked map the spaces of every octagon any of its
    layouts uses, the gaps facing them and its entrances."""
    if not rules.modules.crooked_caverns:
        geo = geometry(rules.board, rules.board.max_lines)
        return [MapCell(MAP_ID, c, geo.xy[c][0], geo.xy[c][1], geo.kind[c])
                for c in range(geo.n_cells)]
    out = []
    for m in maps(rules):
        geo = geometry(rules.crooked_maps[m], 0, "all", outer_edge=False)
        for c in range(geo.n_cells):
            k = geo.kind[c]
            if (k == "space" and geo.octagon_ok[c >> 2]) or (k == "gap" and geo.faces(c)) \
                    or k == "entrance":
                out.append(MapCell(m, c, geo.xy[c][0], geo.xy[c][1], k))
    return out


def invariants(state) -> list[str]:
    bad = []
    g = state.rules.game
    for p in state.players:
        if min(p.res) < 0 or max(p.res) >= g.pt_value or p.pt < 0 or p.tg < 0 or p.energy < 0:
            bad.append(f"seat {p.seat}: resources out of range {p.res} pt={p.pt} tg={p.tg}")
        if not 0 <= p.morale <= state.rules.morale.track:
            bad.append(f"seat {p.seat}: morale {p.morale}")
        if len(p.workers) > g.max_workers or p.consultants > g.max_consultants:
            bad.append(f"seat {p.seat}: too many workers or consultants")
        if not 0 <= p.cons_free <= p.consultants or not 0 <= p.pros_free <= g.professionals:
            bad.append(f"seat {p.seat}: consultants/professionals out of range")
        if p.spec_home < 0 or p.hired_out > g.hire_slots or p.hired_out < 0:
            bad.append(f"seat {p.seat}: specialists out of range")
        if len(p.perm) > g.blockers or len(set(p.perm)) != len(p.perm) or p.colour in p.perm:
            bad.append(f"seat {p.seat}: permanent specialists {p.perm}")
        if p.rep != sum(state.log.breakdown(p.seat).values()) and state.log.enabled:
            bad.append(f"seat {p.seat}: reputation {p.rep} != score events")
    for sp, bid in enumerate(state.bld):
        if bid is not None and (state.terr[sp] is None or state.owner[sp] < 0):
            bad.append(f"space {sp}: building {bid} off the explored board or without owner")
    if any(v < 0 for v in state.supply.values()):
        bad.append("building supply negative")
    if not 1 <= state.round <= max_rounds(state.rules):
        bad.append(f"round {state.round} out of range")
    if not all(1 <= d <= 6 for d in state.super_die):
        bad.append("super specialist die out of range")
    return bad


def max_rounds(rules) -> int:
    return max(rules.turn_die.track_rounds[str(n)] for n in PLAYER_COUNTS
               if str(n) in rules.turn_die.track_rounds)


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
             "goods_for_energy": rules.modules.energy}
    out += [("trade_spaces", t.id) for t in rules.trade_spaces if gated.get(t.kind, True)]
    out += [("start_cards", c.id) for c in rules.start_cards
            if not c.advanced or rules.modules.energy]
    out += [("tunnels", t.id) for t in rules.tunnels
            if t.span == 1 or not rules.modules.crooked_caverns]
    return out


GAME = register(Game(
    id="underhaven",
    title="Underhaven",
    player_counts=PLAYER_COUNTS,
    score_categories=scoring.CATEGORIES,
    rules_model=UnderhavenRules,
    new_game=new_game,
    observe=observe,
    factions=factions,
    maps=maps,
    map_cells=map_cells,
    check_setup=check_setup,
    evaluate=bots.evaluate,
    action_values=bots.action_values,
    max_rounds=max_rounds,
    invariants=invariants,
    board_view=board_view,
    labels=labels.LABELS,
    extra={"variable_length": True, "choice_catalogue": choice_catalogue,
           # rules variants `python -m engine.core.fingerprint` covers besides the base game
           "fingerprint_sets": [(), ("modules.crooked_caverns=true",),
                                ("modules.advanced_buildings=true", "modules.energy=true"),
                                tuple(f"modules.{m}=true" for m in (
                                    "corp_locations", "focus", "energy", "reputational_income",
                                    "advanced_buildings", "raw_start"))]},
))
