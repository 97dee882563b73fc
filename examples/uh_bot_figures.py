"""Underhaven: the bot figures of issue 27 (audit turn 3, 7.4.1-7.4.3), on all-greedy games.

    PYTHONPATH=. python examples/uh_bot_figures.py stall --games 100 --seed 7000
    PYTHONPATH=. python examples/uh_bot_figures.py options --games 100 --seed 7000
    PYTHONPATH=. python examples/uh_bot_figures.py place --games 200 --players 4 --seed 500
    PYTHONPATH=. python examples/uh_bot_figures.py stall --seat mcts:400 --vs greedy --games 24
    PYTHONPATH=. python examples/uh_bot_figures.py stall --seat oldmcts:400 --vs oldgreedy \
        --old a2f0569 --games 24          # the same on the bots.py of an older commit

With --seat, one seat plays SPEC (seat g % players in game g) against --vs in the others, and
the stall figure counts that seat's own choices (the action its bot returned).

stall: at each greedy decision where some options end the seat's turn (played out on a copy
of the true state: its end_turn task has run) and others keep it open, whether the option
greedy ranks first (argmax of the game's action_values on the seat's observation) keeps it
open, for the last seat of a round and for the others, per decision kind.  A stall is the last
seat keeping its turn open more often than the others do at the same decision (repeating an
exchange at "again": 99% against 61% before the fix).
options: how often the "3 resources for 1 PT" ability and the Starting player location are
offered and taken (at an order decision; the ability also at the payment decisions), the
bumps on the location, and the first_player placements in the last round.
place: what a place earlier in the turn order is worth, in `evaluate`'s units: a seat's
evaluate gain over a round (from one round start to the next) less the round's mean gain,
regressed on its place (0 = the starting player), one slope per game; the mean slope with a
95% t interval over games (data/bots/underhaven.toml [heuristic] PLACE_VALUE).
Games rotate the corporations (game g: corporations g, g+1, ... in seats 0, 1, ...), seed
SEED + g; intervals treat the game as the unit (a t interval over per-game figures, or a
bootstrap over games for a rate)."""

from __future__ import annotations

import argparse
import random
from collections import Counter

import numpy as np
from scipy import stats

import engine.games.underhaven  # noqa: F401
from engine.core.play import play_game
from engine.core.protocol import Seat
from engine.core.registry import get_game
from engine.games.underhaven import bots as UB
from engine.games.underhaven.state import UnderhavenState

GAME = get_game("underhaven")
RULES = GAME.load_rules().model
FACTIONS = ("deltas", "threecees", "tectonics", "enigmas")


def _play(g: int, n: int, seed: int, watch=None) -> None:
    seats = [Seat(FACTIONS[(g + i) % 4], "greedy") for i in range(n)]
    play_game(GAME, RULES, seats, seed + g, log=False, watch=watch)


def _boot(per_game: list[tuple[int, int]], reps: int = 2000) -> tuple[float, float]:
    """A 95% bootstrap interval (games resampled) of sum(k) / sum(m) over (k, m) per game."""
    rng = random.Random(1)
    arr = np.array(per_game, dtype=float)
    out = []
    for _ in range(reps):
        pick = arr[[rng.randrange(len(arr)) for _ in range(len(arr))]]
        out.append(pick[:, 0].sum() / max(pick[:, 1].sum(), 1))
    return float(np.percentile(out, 2.5)), float(np.percentile(out, 97.5))


def _ends(s, seat, a, acts) -> bool:
    nxt = s.clone(log=False)
    nxt.apply_legal(a, acts)
    UB._settle(nxt, seat)
    return nxt.over or ("end_turn", seat) not in nxt.agenda or nxt.round != s.round


def stall(games: int, n: int, seed: int) -> None:
    per = []
    for g in range(games):
        cnt = Counter()

        def watch(s):
            seat = s.to_move()
            acts = s.legal_actions()
            if len(acts) < 2:
                return
            e = [_ends(s, seat, a, acts) for a in acts]
            if all(e) or not any(e):
                return
            obs = GAME.observe(s, seat)
            vals = GAME.action_values(obs, seat, obs.legal_actions())
            best = max(range(len(acts)), key=lambda i: vals[i])
            who = "last" if ("round_end",) in s.agenda and not any(
                t[0] == "turn" for t in s.agenda) else "other"
            for kind in ("all", s.stack[-1][0]):
                cnt[(who, kind, "m")] += 1
                cnt[(who, kind, "k")] += not e[best]

        _play(g, n, seed, watch)
        per.append(cnt)
    _print_stall(per, f"stall: {games} all-greedy {n}-player games, seed {seed}: share of "
                      "decisions with an ending and an open option where greedy keeps the turn "
                      "open (bootstrap 95% over games)")


def stall_seat(games: int, n: int, seed: int, cand: str, vs: str) -> None:
    """The stall figure for the choices of one candidate seat (e.g. the search bot)."""
    from engine.bots.greedy import GreedyBot
    from engine.bots.mcts import MCTSBot
    per = []
    seat_of = [0]
    cnt = Counter()
    originals = {cls: cls.decide for cls in (GreedyBot, MCTSBot)}

    def wrap(orig):
        def decide(self, obs, seat):
            action, acts = orig(self, obs, seat)
            if seat == seat_of[0] and len(acts) > 1:
                e = [_ends(obs, seat, a, acts) for a in acts]
                if any(e) and not all(e):
                    who = "last" if _last(obs) else "other"
                    for kind in ("all", obs.stack[-1][0]):
                        cnt[(who, kind, "m")] += 1
                        cnt[(who, kind, "k")] += not e[acts.index(action)]
            return action, acts
        return decide

    for cls, orig in originals.items():
        cls.decide = wrap(orig)
    try:
        for g in range(games):
            before = cnt.copy()
            seat_of[0] = g % n
            seats = [Seat(FACTIONS[(g + i) % 4], cand if i == g % n else vs) for i in range(n)]
            play_game(GAME, RULES, seats, seed + g, log=False)
            per.append(cnt - before)
    finally:
        for cls, orig in originals.items():
            cls.decide = orig
    _print_stall(per, f"stall: {cand} in one seat against {vs}, {games} {n}-player games, "
                 f"seed {seed}: share of its decisions with an ending and an open option where "
                 "it keeps the turn open (bootstrap 95% over games)")


def _last(s) -> bool:
    return ("round_end",) in s.agenda and not any(t[0] == "turn" for t in s.agenda)


def _print_stall(per: list, title: str) -> None:
    kinds = ["all"] + sorted({k[1] for c in per for k in c if k[1] != "all"})
    print(title)
    for kind in kinds:
        row = []
        for who in ("last", "other"):
            pg = [(c[(who, kind, "k")], c[(who, kind, "m")]) for c in per]
            k, m = sum(x for x, _ in pg), sum(y for _, y in pg)
            lo, hi = _boot(pg) if m else (0.0, 0.0)
            row.append(f"{who} seat {k}/{m} = {100 * k / max(m, 1):.1f}% "
                       f"[{100 * lo:.1f}, {100 * hi:.1f}]")
        print(f"  at {kind:7s} " + "   ".join(row))


def options(games: int, n: int, seed: int) -> None:
    import engine.games.underhaven.orders as O
    import engine.games.underhaven.trade as T
    per = []
    cnt = Counter()
    orig = T.place_pro

    def place_pro(s, p, sid):
        if s.log.enabled and s.st.spaces[sid].kind == "first_player":
            cnt["first_player placed"] += 1
            cnt["first_player placed in the last round"] += s.die_left <= 0
            other = s.occ.get(sid)
            cnt["first_player bumps"] += other is not None and other != p.seat
        return orig(s, p, sid)

    O.place_pro = place_pro
    try:
        for g in range(games):
            before = cnt.copy()

            def watch(s):
                if s.stack[-1][0] == "order":
                    acts = s.legal_actions()
                    cnt["pt_trade offered at an order"] += ("pt_trade",) in acts
                    cnt["first_player offered"] += ("first_player",) in acts
                if s.stack[-1][0] == "pt_trade":
                    cnt["pt_trade taken"] += 1
                    cnt[f"pt_trade taken, {max(0, s.die_left) + 1:2d} rounds left"] += 1

            seats = [Seat(FACTIONS[(g + i) % 4], "greedy") for i in range(n)]
            rec = play_game(GAME, RULES, seats, seed + g, log=True, watch=watch)
            cnt["seats dealt pt_trade"] += sum(pl["ability"] == "pt_trade" for pl in rec.players)
            cnt["rounds of seats dealt pt_trade"] += rec.game["rounds"] * sum(
                pl["ability"] == "pt_trade" for pl in rec.players)
            per.append(cnt - before)
    finally:
        O.place_pro = orig
    print(f"options: {games} all-greedy {n}-player games, seed {seed}")
    for key in sorted(cnt):
        pg = np.array([c[key] for c in per], dtype=float)
        h = stats.t.ppf(0.975, len(pg) - 1) * pg.std(ddof=1) / np.sqrt(len(pg))
        print(f"  {key:40s} {cnt[key]:6d}   a game {pg.mean():.2f} [{pg.mean() - h:.2f}, "
              f"{pg.mean() + h:.2f}]")


def place(games: int, n: int, seed: int) -> None:
    orig = UnderhavenState.TASKS["round_start"]
    rec = []

    def round_start(s, task):
        rec.append((s.turn_order(), [UB.evaluate(s, q) for q in range(s.n)]))
        return orig(s, task)

    slopes = []
    UnderhavenState.TASKS["round_start"] = round_start
    try:
        for g in range(games):
            rec.clear()
            _play(g, n, seed)
            xs, ys = [], []
            for (order, e0), (_o, e1) in zip(rec, rec[1:]):
                gain = [e1[q] - e0[q] for q in range(n)]
                m = sum(gain) / n
                for k, q in enumerate(order):
                    xs.append(k)
                    ys.append(gain[q] - m)
            slopes.append(np.polyfit(xs, ys, 1)[0])
    finally:
        UnderhavenState.TASKS["round_start"] = orig
    sl = np.array(slopes)
    h = stats.t.ppf(0.975, len(sl) - 1) * sl.std(ddof=1) / np.sqrt(len(sl))
    print(f"place: {games} all-greedy {n}-player games, seed {seed}: a round's evaluate gain "
          f"per place later in the turn order {sl.mean():+.3f} [{sl.mean() - h:+.3f}, "
          f"{sl.mean() + h:+.3f}] (95% t interval over games)")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("figure", choices=["stall", "options", "place"])
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=7000)
    ap.add_argument("--seat", help="stall: one seat plays this bot (e.g. mcts:400)")
    ap.add_argument("--vs", default="greedy", help="stall --seat: the other seats' bot")
    ap.add_argument("--old", help="a git commit: registers oldgreedy / oldmcts on its bots.py")
    a = ap.parse_args(argv)
    if a.old:
        from pipelines.ladder.paired import register_old_heuristic
        register_old_heuristic("underhaven", a.old)
    if a.figure == "stall" and a.seat:
        stall_seat(a.games, a.players, a.seed, a.seat, a.vs)
        return
    {"stall": stall, "options": options, "place": place}[a.figure](a.games, a.players, a.seed)


if __name__ == "__main__":
    main()
