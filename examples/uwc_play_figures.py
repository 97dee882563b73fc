"""Underwater Cities: does the bots' play look like play?  Per-game figures with 95% intervals.

Plays seeded games the way a ladder match seats them (pipelines.ladder.match: game i has seed
game_seed(SEED, i), the player boards rotated, the candidate seat rotated), keeps each game's
final state and prints, per player, the figures the turn-3 rules audit looked at (section 8):
score, winner's score, connected cities (the starting city included), tunnels, metropolises
connected, the brown metropolis connected, Special cards paid for, leftover resources
(credit-equivalents: biomatter 2) and their share of the score, and the points by category.
The unit of independence is the game: each figure is averaged over a game's seats first, and
its interval is a t interval over games.

    PYTHONPATH=. python examples/uwc_play_figures.py --bots greedy --players 4 --games 24 --seed 5
    PYTHONPATH=. python examples/uwc_play_figures.py --bots greedy --seat mcts:400 ...

With --seat, the figures are given for the candidate seat and for the other seats apart,
with the candidate's wins (a shared win counts 1/k) and a Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from scipy import stats

import engine.games.underwater_cities  # noqa: F401
from engine.core.play import play_game
from engine.core.registry import get_game
from engine.core.rng import game_seed
from engine.games.underwater_cities.network import net
from pipelines.ladder.match import match_seats, wilson

CATS = ("production", "cards", "cities", "metropolis", "resources", "federation", "other",
        "feeding", "contracts")


def seat_figures(s, seat: int, score: int, breakdown: dict) -> dict:
    g = s.geo
    p = s.players[seat]
    n = net(g, p)
    left = sum(p.res[:4]) + 2 * p.res[4]
    out = {"score": score, "cities": n.n_cities, "tunnels": n.tunnels, "metros": n.metros,
           "brown": int(bool(p.metro_on >> g.brown & 1)) if g.brown >= 0 else 0,
           "specials_paid": p.specials_paid, "leftover": left,
           "leftover_share": breakdown.get("resources", 0) / score if score > 0 else 0.0}
    for c in CATS:
        out["pts_" + c] = breakdown.get(c, 0)
    for name, k in zip(("credits", "kelp", "steelplast", "science", "biomatter"), p.res):
        out["left_" + name] = k
    return out


def play(spec_all: str, seat_spec: str | None, players: int, games: int, seed: int):
    game = get_game("underwater_cities")
    rules = game.load_rules().model
    factions = game.factions(rules)
    maps = game.maps(rules)
    for i in range(games):
        seats, cand = match_seats(factions, i, players, seat_spec or spec_all, spec_all)
        box = []
        t0 = time.process_time()
        rec = play_game(game, rules, seats, game_seed(seed, i), log=True,
                        map=maps[(i // (players * len(factions))) % len(maps)],
                        watch=lambda st: box.append(st) if not box else None)
        cpu = time.process_time() - t0
        s = box[0]
        res = s.result()
        figs = [seat_figures(s, r.seat, r.score, r.breakdown) for r in res]
        winners = [r.seat for r in res if r.won]
        yield {"game": i, "cand": cand if seat_spec else None, "cpu_s": round(cpu, 2),
               "win": (1.0 / len(winners) if cand in winners else 0.0) if seat_spec else None,
               "best": max(r.score for r in res), "seats": figs}


def mean_ci(xs):
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("nan"), float("nan")
    se = statistics.stdev(xs) / len(xs) ** 0.5
    h = stats.t.ppf(0.975, len(xs) - 1) * se
    return m, m - h, m + h


def summarise(rows, seat_mode: bool) -> None:
    keys = list(rows[0]["seats"][0])
    groups = [("all seats", lambda r: r["seats"])]
    if seat_mode:
        groups = [("candidate seat", lambda r: [r["seats"][r["cand"]]]),
                  ("other seats", lambda r: [f for k, f in enumerate(r["seats"]) if k != r["cand"]])]
    print(f"{len(rows)} games; CPU s per game {statistics.fmean(r['cpu_s'] for r in rows):.2f}")
    m, lo, hi = mean_ci([r["best"] for r in rows])
    print(f"  winner's score: {m:.1f} [{lo:.1f}, {hi:.1f}]")
    for name, pick in groups:
        print(f"  {name} (mean per player, 95% t interval over games):")
        for k in keys:
            per_game = [statistics.fmean(f[k] for f in pick(r)) for r in rows]
            m, lo, hi = mean_ci(per_game)
            print(f"    {k:18s} {m:7.2f} [{lo:.2f}, {hi:.2f}]")
    if seat_mode:
        w = sum(r["win"] for r in rows)
        lo, hi = wilson(w, len(rows))
        ranks = []
        for r in rows:
            c = r["seats"][r["cand"]]["score"]
            ranks.append(1 + sum(1 for f in r["seats"] if f["score"] > c))
        print(f"  candidate wins {w:g} of {len(rows)}: {w / len(rows):.1%} "
              f"[{lo:.1%}, {hi:.1%}] (Wilson); mean rank {statistics.fmean(ranks):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", default="greedy", help="the bot of every seat (or the others)")
    ap.add_argument("--seat", default=None, help="a candidate bot in one seat, rotated")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--jsonl", default=None, help="also write each game's figures here")
    a = ap.parse_args()
    rows = []
    out = open(a.jsonl, "w") if a.jsonl else None
    for row in play(a.bots, a.seat, a.players, a.games, a.seed):
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    summarise(rows, a.seat is not None)


if __name__ == "__main__":
    main()
