"""Underwater Cities (../shared/rulebooks/underwater_cities.txt), registered as
`underwater_cities`.  Factions are the player boards; the seat is the play order of round 1."""

from __future__ import annotations

from engine.core.errors import SetupError
from engine.core.setup_checks import check_factions, check_map, check_player_count
from engine.core.protocol import Game, MapCell, Seat
from engine.core.registry import register

# The modules that fill the decision tables (imported for their registrations).
from . import building, cards, effects, specials, turn, upgrades  # noqa: F401
from . import bots, scoring
from .building import follow_up
from .describe import ACTION_LABELS
from .network import geo
from .rules import UnderwaterCitiesRules
from .setup import new_state
from .view import board_view, determinize, observe

PLAYER_COUNTS = (2, 3, 4)
MAP_ID = "player_board"


def factions(rules) -> list[str]:
    """The player boards (each with its own site bonuses)."""
    return sorted(rules.boards)


def maps(rules) -> list[str]:
    """One map: the player board's sites (the same on every board), so that the Map page
    compares where the boards build."""
    return [MAP_ID]


def check_setup(rules, n_players: int, map_id: str | None, faction_ids) -> None:
    check_player_count(n_players, PLAYER_COUNTS, "Underwater Cities",
                       " (the solo game is not implemented)")
    if not any(n_players in side.players for side in rules.sides.values()):
        raise SetupError(f"--players {n_players}: no main-board side in `sides` is for "
                         f"{n_players} players")
    check_map(map_id, maps(rules))
    check_factions(faction_ids, factions(rules), "player board")
    if len(rules.start.federation) < n_players or len(rules.start.extra) < n_players:
        raise SetupError(f"--players {n_players}: start.federation and start.extra need an "
                         f"entry per player")


def new_game(rules, seats, seed: int, *, map: str | None = None, log: bool = True):
    seats = [s if isinstance(s, Seat) else Seat(*s) for s in seats]
    check_setup(rules, len(seats), map, [s.faction for s in seats])
    return new_state(rules, seats, seed, map or MAP_ID, log=log)


def map_cells(rules) -> list[MapCell]:
    g = geo(rules)
    return [MapCell(MAP_ID, c, g.xy[c][0], g.xy[c][1], g.kind[c]) for c in range(g.n_cells)]


def invariants(state) -> list[str]:
    """What must hold after every step (conformance tests and the soak check it)."""
    bad = []
    g = state.geo
    rules = state.rules
    st = state.st
    for p in state.players:
        if min(p.res) < 0:
            bad.append(f"seat {p.seat}: negative resources {p.res}")
        if p.points < 0:
            bad.append(f"seat {p.seat}: negative score")
        if p.points != state.log.totals(state.n)[p.seat]:   # every log keeps the scores
            bad.append(f"seat {p.seat}: points {p.points} differ from the score events")
        if len(p.actions) > rules.game.action_card_limit:
            bad.append(f"seat {p.seat}: {len(p.actions)} action cards")
        if not p.used <= set(p.actions):
            bad.append(f"seat {p.seat}: a used action card that is not claimed")
        if p.tun_up & ~p.tun or p.smask & ~p.cmask or not p.cmask >> g.start & 1:
            bad.append(f"seat {p.seat}: inconsistent board masks")
        for b, code in enumerate(p.bld):
            if p.bup >> b & 1 and not code:
                bad.append(f"seat {p.seat}: upgraded empty building site {b}")
        if p.hand != sorted(p.hand) or not p.public <= set(p.hand):
            bad.append(f"seat {p.seat}: hand not sorted or public cards not in hand")
        if not 0 <= p.fed <= len(rules.federation.spaces):
            bad.append(f"seat {p.seat}: Federation position {p.fed}")
    # Every card is in exactly one place.
    where = list(state.discard) + state.box_known + state.box_hidden + state.sdeck \
        + state.sface + state.sbox
    for d in state.decks.values():
        where += d
    for p in state.players:
        where += p.hand + list(p.claimed) + list(p.actions) + list(p.under)
    for frame in state.stack:
        if frame[0] == "special_keep":
            where += list(frame[2])
        elif frame[0] in ("pay_special", "limit"):
            where.append(frame[2])
        elif frame[0] == "use_dropped":
            pass   # already disposed of
    if state.turn[1] >= 0 and not state.turn[3] and any(f[0] == "slot" for f in state.stack):
        where.append(state.turn[1])
    if state.turn[1] >= 0 and state.turn[3] and not _card_resolved(state):
        where.append(state.turn[1])
    if sorted(where) != list(range(len(st.cards))):
        missing = sorted(set(range(len(st.cards))) - set(where))
        extra = sorted(i for i in set(where) if where.count(i) > 1)
        bad.append(f"cards lost or duplicated: missing {missing[:5]}, twice {extra[:5]}")
    if min(state.supply) < 0:
        bad.append(f"supply negative {state.supply}")
    if not 1 <= state.round <= st.rounds:
        bad.append(f"round {state.round} out of range")
    return bad


def _card_resolved(state) -> bool:
    """Whether the matched card of the current turn has left the "being played" limbo."""
    return not any(t[0] == "resolve_card" for t in state.agenda) \
        and not any(f[0] == "order" for f in state.stack)


def max_rounds(rules) -> int:
    return sum(rules.game.rounds_per_era)


def choice_catalogue(rules) -> list[tuple[str, str]]:
    """The rules entries players choose (design checks): the era cards and Special cards
    (played, taken), and the action slots of each main-board side.  Player boards are
    factions; metropolises and contracts are dealt, not chosen."""
    out = [(coll, c.id) for coll in ("era1", "era2", "era3", "specials")
           for c in getattr(rules, coll)]
    for sid, side in sorted(rules.sides.items()):
        out += [(f"sides.{sid}.slots", s.id) for s in side.slots]
    return out


LABELS = {**scoring.LABELS, **ACTION_LABELS,
          "setup": "Setup (opening hand)", "actions": "Action turns",
          "era_change": "Start of an era", "production": "Production",
          "final_scoring": "Final scoring"}

def categories_in_play(doc: dict) -> list[str]:
    """The score categories a run's rules document can score (design checks): government
    contracts only when they are switched on."""
    on = bool(doc.get("switches", {}).get("contracts", False))
    return [c for c in scoring.CATEGORIES if c != "contracts" or on]


GAME = register(Game(
    id="underwater_cities",
    title="Underwater Cities",
    player_counts=PLAYER_COUNTS,
    score_categories=scoring.CATEGORIES,
    rules_model=UnderwaterCitiesRules,
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
    determinize=determinize,
    labels=LABELS,
    extra={"choice_catalogue": choice_catalogue,
           "categories_in_play": categories_in_play,
           "leaf_value": bots.leaf_value,   # the search bot's leaf (MCTS leaf = "game")
           "follow_up": follow_up,          # where to build, after what (MCTS narrow)
           "fingerprint_sets": [(), ("switches.contracts=true",)]},
))
