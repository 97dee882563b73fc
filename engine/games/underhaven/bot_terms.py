"""Two terms of the Underhaven bots' valuation (bots.py) kept apart: the lookahead's horizon
(a copy that stops at the end of the round) and the worth of the Starting player location,
with its measured number in data (data/bots/underhaven.toml `[heuristic]`, its evidence in
`source`; RULES.md "The bots").

The Starting player location (RB:389, RB:780-783) is an order and a Professional spent now for
places earlier in the turn order of the rounds still to come.  What it is worth is therefore
a function of the state: the places gained in each round left (the next round's first seat
and the rotation after it, against the seat's places if nobody moves the token), the rival it
bumps (who gains `bump_rep`: the bot plays to win, so a rival's point counts against it as it
does in `bots.relative`, spread over the rivals) and, where the turn still needs it, the
Professional it uses."""

from __future__ import annotations

from engine.core.errors import RulesError
from engine.core.rules import DATA_DIR, read_toml

#: What one place earlier in a round's turn order is worth, per round, in `evaluate`'s units.
PLACE_VALUE = 0.0

HEURISTIC_FILE = DATA_DIR / "bots" / "underhaven.toml"
ROUND_END = ("round_end",)


def _load(path=HEURISTIC_FILE) -> dict:
    """The `[heuristic]` table of data/bots/underhaven.toml by the names here (the constants
    above are the defaults); an unknown name or a wrong type is an error naming the field."""
    if not path.is_file():
        return {}
    out = {}
    for key, value in (read_toml(path).get("heuristic") or {}).items():
        if key == "source":
            continue
        cur = globals().get(key)
        if not key.isupper() or not isinstance(cur, float):
            raise RulesError(str(path), f"heuristic.{key}",
                             "a number of engine/games/underhaven/bot_terms.py (PLACE_VALUE)")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RulesError(str(path), f"heuristic.{key}", "float")
        out[key] = float(value)
    return out


globals().update(_load())


def ahead(s):
    """A lookahead copy that stops at the end of the round: the round end (the turn die rolled,
    the next round's first turn begun, or the final scoring) is cut from its agenda, so that an
    option ending the round's last turn is valued with the same rounds left as one keeping it
    open (audit turn 3, 7.4.1: the last seat otherwise stalled, every resource and building
    looking one round poorer once its turn ended)."""
    nxt = s.clone(log=False)
    ag = nxt.agenda
    if ag and ag[0] == ROUND_END:
        del ag[0]
    return nxt


def places_gained(s, seat: int) -> int:
    """How many places earlier `seat` plays, summed over the rounds left after this one, if it
    takes the starting player token now rather than leaving it where it is (the next round's
    first seat: whoever stands on the location, otherwise the next seat to the left)."""
    n = s.n
    now = s.next_first if s.next_first >= 0 else (s.first_seat + 1) % n
    gained = 0
    for j in range(max(0, s.die_left)):
        gained += (seat - now - j) % n - (-j) % n
    return gained


def start_player_worth(s, seat: int) -> float:
    """The places gained (`places_gained` x PLACE_VALUE) less the rival's bump (its
    `bump_rep` over the rivals, as `bots.relative` counts a rival's point)."""
    v = PLACE_VALUE * places_gained(s, seat)
    sid = s.st.space_of_kind.get("first_player")
    other = s.occ.get(sid) if sid is not None else None
    if other is not None and other != seat:
        v -= s.rules.game.bump_rep / (s.n - 1)
    return v
