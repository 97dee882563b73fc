"""Write the invented example playtest tables in this folder (never real results).

    python examples/playtests/invent.py            # all four games
    python examples/playtests/invent.py underhaven

Each "playtest" is a game played by Delve's own bots, standing in for people: three greedy
seats and one random seat (a newcomer at the table), factions drawn at random, categories
noted in the first two thirds of the games only, as a group that grew tired of noting them.
The first line of every file says that it is invented example data.
"""

from __future__ import annotations

import csv
import datetime as dt
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:
    sys.path.insert(0, str(HERE.parents[1]))

GAMES = {"glimmerdeep": 12, "underhaven": 12, "underwater_cities": 10, "cave_colony": 12}
PLAYERS = 4
FIRST_LINE = ("# INVENTED EXAMPLE DATA, not real playtests: games played by Delve's bots "
              "(three greedy seats, one random) to show the format. Do not quote as results.")


def invent(game_id: str, n_games: int) -> Path:
    from engine.core.play import play_game
    from engine.core.protocol import Seat
    from engine.core.registry import get_game
    from pipelines.playtests.table import POINTS_PREFIX, template_columns

    g = get_game(game_id)
    rules = g.load_rules().model
    factions = list(g.factions(rules))
    cats = list(g.score_categories)
    rng = random.Random(f"delve example playtests {game_id}")
    cols = template_columns(cats)
    rows = []
    day = dt.date(2026, 9, 5)
    for k in range(n_games):
        picked = rng.sample(factions, PLAYERS)
        newcomer = rng.randrange(PLAYERS)
        labels = rng.sample(range(1, 9), PLAYERS)
        seats = [Seat(f, "random" if s == newcomer else "greedy") for s, f in enumerate(picked)]
        maps = list(g.maps(rules))
        rec = play_game(g, rules, seats, seed=rng.randrange(2**31), map=rng.choice(maps), log=True)
        points = {}
        for seat, cat, pts in zip(rec.scores["seat"], rec.scores["category"], rec.scores["points"]):
            points.setdefault(seat, {}).setdefault(cat, 0)
            points[seat][cat] += pts
        noted = k < (2 * n_games) // 3
        for p in sorted(rec.players, key=lambda p: p["seat"]):
            s = p["seat"]
            winners = [q for q in rec.players if q["won"]]
            won = "tie" if p["won"] and len(winners) > 1 else "yes" if p["won"] else "no"
            row = {"game": game_id, "date": (day + dt.timedelta(days=7 * (k // 3))).isoformat(),
                   "event": "Example club night", "game_id": f"G{k + 1}",
                   "game_number": str(k % 3 + 1), "n_players": str(PLAYERS), "seat": str(s),
                   "faction": p["faction"], "player": f"P{labels[s]}",
                   "score": str(p["score"]), "rank": str(p["rank"]), "won": won,
                   "map": rec.game["map"] or "", "variant": "base",
                   "rounds": str(rec.game["rounds"]),
                   "notes": "first game" if s == newcomer else ""}
            for c in cats:
                row[POINTS_PREFIX + c] = str(points.get(s, {}).get(c, 0)) if noted else ""
            rows.append([row.get(c, "") for c in cols])
    out = HERE / f"{game_id}.csv"
    with out.open("w", newline="", encoding="utf-8") as fh:
        fh.write(FIRST_LINE + "\n")
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(cols)
        w.writerows(rows)
    return out


if __name__ == "__main__":
    for gid in sys.argv[1:] or list(GAMES):
        print(invent(gid, GAMES[gid]))
