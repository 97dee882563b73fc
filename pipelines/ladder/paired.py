"""Paired duplicate-deal matches: several candidate bots, each in one seat (rotated as in
`match.match_seats`) against the same opponent in the others, on the *same* deals (game i has
seed `game_seed(seed, i)` for every candidate).  Prints each candidate's win share with its
Wilson interval, mean rank, turn-limit share and median rounds, and the paired difference of
every candidate from the first (t intervals on the per-deal differences).

    python -m pipelines.ladder.paired cave_colony --players 4 --games 40 --seed 101 \
        --vs greedy mcts:100 mcts:400

`--old REF` registers the bot names `oldgreedy` and `oldmcts:B` (the greedy and search bots
on the game heuristic of `engine/games/<game>/bots.py` at git commit REF, with the current
search parameters): the before-and-after comparison of a heuristic on the same deals.
`--seer` registers `seer:B`, a search that sees the true state and the chance to come
(`pipelines/ladder/seer.py`: a ceiling to measure against, never a player for balance runs).
One process, games played one after the other (no pool).  `--csv FILE` writes one row per
(candidate, game).  `--compare A.csv B.csv ...` plays nothing: it reads such files (say one
written on each of two commits, the same deals) and prints the same summary, every candidate
named `SPEC (FILE)` and paired deal by deal with the first:

    python -m pipelines.ladder.paired --compare before.csv after.csv"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import statistics
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from engine.core.play import play_game
from engine.core.registry import get_game
from engine.core.rng import game_seed
from pipelines.stats.differences import diff_ci
from pipelines.stats.rates import rate_ci

from .match import match_seats


def register_old_heuristic(game_id: str, ref: str) -> None:
    """Bots `oldgreedy` and `oldmcts` using the game's bots.py at git commit `ref`."""
    import engine.bots as B
    from engine.bots.greedy import GreedyBot
    from engine.bots.mcts import MCTSBot
    game = get_game(game_id)
    rel = f"engine/games/{game_id}/bots.py"
    root = Path(__file__).resolve().parents[2]
    text = subprocess.run(["git", "show", f"{ref}:{rel}"], cwd=root, check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "bots_old.py"
    path.write_text(text)
    name = f"engine.games.{game_id}._bots_old"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = f"engine.games.{game_id}"
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    old = replace(game, evaluate=mod.evaluate, action_values=mod.action_values)

    class OldGreedy(GreedyBot):
        name = "oldgreedy"

        def __init__(self, _game, rng):
            super().__init__(old, rng)

    class OldMCTS(MCTSBot):
        name = "oldmcts"

        def __init__(self, _game, rng, params=None):
            super().__init__(old, rng, params)

    B.BOTS["oldgreedy"] = OldGreedy
    register_search_bots({"oldmcts": OldMCTS})


def register_search_bots(kinds: dict) -> None:
    """Search bots known to this script only (`--old`, `--seer`): name -> class(game, rng,
    params); a spec `NAME:B/k=v` takes the parameters `mcts:B/k=v` would."""
    import engine.bots as B
    B.BOTS.update(kinds)
    B.SEARCH_BOTS = B.SEARCH_BOTS + tuple(k for k in kinds if k not in B.SEARCH_BOTS)
    make = B.make_bot

    def make_bot(spec, game_, rng):
        name = str(spec).split(":")[0].split("/")[0]
        if name in kinds:
            return kinds[name](game_, rng, B.bot_params("mcts" + str(spec)[len(name):], game_.id))
        return make(spec, game_, rng)

    B.make_bot = make_bot


def play(game_id: str, specs: list[str], opponent: str, players: int, seed: int,
         indices: list[int], echo=None, seer: bool = False) -> dict[str, list[dict]]:
    game = get_game(game_id)
    if seer:                     # observations carry the truth, which only `seer` bots read
        from .seer import seer_game
        game = seer_game(game)
    rules = game.load_rules().model
    factions = game.factions(rules)
    maps = game.maps(rules)
    out: dict[str, list[dict]] = {s: [] for s in specs}
    for i in indices:
        for spec in specs:
            seats, cand = match_seats(factions, i, players, spec, opponent)
            rec = play_game(game, rules, seats, game_seed(seed, i), log=False,
                            map=maps[(i // (players * len(factions))) % len(maps)])
            winners = [p["seat"] for p in rec.players if p["won"]]
            row = {"spec": spec, "game": i, "deal_seed": game_seed(seed, i), "seat": cand,
                   "won": 1.0 / len(winners) if cand in winners else 0.0,
                   "rank": next(p["rank"] for p in rec.players if p["seat"] == cand),
                   "ended_by": rec.game["ended_by"], "rounds": rec.game["rounds"],
                   "wall_s": rec.game["wall_ms"] / 1000.0}
            out[spec].append(row)
            if echo:
                echo(f"  game {i:3d} {spec:<40} won {row['won']:.2f} rank {row['rank']} "
                     f"{row['ended_by']} r{row['rounds']} {row['wall_s']:.1f}s")
    return out


def summary(rows_by: dict[str, list[dict]], echo=print) -> None:
    specs = list(rows_by)
    for spec in specs:
        rows = rows_by[spec]
        n = len(rows)
        wins = sum(r["won"] for r in rows)
        r = rate_ci(wins, n)
        tl = sum(1 for x in rows if x["ended_by"] == "turn_limit")
        t = rate_ci(tl, n)
        med = statistics.median(x["rounds"] for x in rows)
        rank = sum(x["rank"] for x in rows) / n
        secs = sum(x["wall_s"] for x in rows) / n
        echo(f"{spec:<44} win {wins:g}/{n} = {r.rate:.1%} [{r.low:.1%}, {r.high:.1%}]  "
             f"mean rank {rank:.2f}  turn limit {tl}/{n} [{t.low:.1%}, {t.high:.1%}]  "
             f"median rounds {med:g}  {secs:.1f} s/game")
    base = rows_by[specs[0]]
    for spec in specs[1:]:
        rows = rows_by[spec]
        a = [x["won"] for x in base]
        b = [x["won"] for x in rows]
        m, lo, hi, _p = diff_ci(a, b, paired=True)
        ra = [x["rank"] for x in base]
        rb = [x["rank"] for x in rows]
        mr, rlo, rhi, _ = diff_ci(ra, rb, paired=True)
        echo(f"paired {spec} - {specs[0]} ({len(a)} deals): win {m * 100:+.1f} points "
             f"[{lo * 100:+.1f}, {hi * 100:+.1f}], mean rank {mr:+.2f} [{rlo:+.2f}, {rhi:+.2f}]")


def read_csvs(paths: list[str]) -> dict[str, list[dict]]:
    """The rows of `--csv` files by candidate, `SPEC (FILE)`, each candidate's games in the
    order of the deals; a ValueError naming the file when the files' deals differ (game
    index, seat and, in files that have it, the deal's seed)."""
    out: dict[str, list[dict]] = {}
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                row = {"game": int(r["game"]), "seat": int(r["seat"]),
                       "deal_seed": int(r["deal_seed"]) if r.get("deal_seed") else None,
                       "won": float(r["won"]),
                       "rank": float(r["rank"]), "ended_by": r["ended_by"],
                       "rounds": int(r["rounds"]), "wall_s": float(r["wall_s"])}
                out.setdefault(f"{r['spec']} ({Path(path).name})", []).append(row)
    first = next(iter(out), None)
    for name, rows in out.items():
        rows.sort(key=lambda x: x["game"])
        if len({x["game"] for x in rows}) < len(rows):
            raise ValueError(f"{name}: a deal twice (is a file given twice?)")
        base = out[first]
        same = len(rows) == len(base) and all(
            (x["game"], x["seat"]) == (y["game"], y["seat"])
            and (None in (x["deal_seed"], y["deal_seed"]) or x["deal_seed"] == y["deal_seed"])
            for x, y in zip(rows, base))
        if not same:
            raise ValueError(f"{name}: its deals (game, seat, seed) are not those of {first}; "
                             f"compare files of the same --seed, --games and --players")
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="?")
    ap.add_argument("specs", nargs="*")
    ap.add_argument("--compare", nargs="+", metavar="CSV",
                    help="summarise --csv files of the same deals instead of playing")
    ap.add_argument("--vs", default="greedy")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--first", type=int, default=0, help="first game index")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--old", default=None, help="git commit of the old heuristic")
    ap.add_argument("--csv", default=None)
    ap.add_argument("--seer", action="store_true",
                    help="register seer:B, a clairvoyant MCTS for a ceiling (pipelines/ladder/seer.py)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    if a.compare:
        try:
            rows = read_csvs(a.compare)
        except (OSError, ValueError, KeyError) as exc:
            ap.error(f"--compare: {exc}")
        print(f"{len(next(iter(rows.values())))} deals, paired by deal with the first:")
        summary(rows)
        return
    if not a.game or not a.specs:
        ap.error("give GAME and one or more bot SPECS (or --compare CSV ...)")
    if a.old:
        register_old_heuristic(a.game, a.old)
    if a.seer:
        from .seer import register_seer
        register_seer()
    from pipelines.run.plan import parse_bots
    specs = [s if s.startswith("old") else parse_bots(s, 1)[0] for s in a.specs]
    echo = (lambda m: print(m, flush=True)) if a.verbose else None
    rows = play(a.game, specs, a.vs, a.players, a.seed,
                list(range(a.first, a.first + a.games)), echo, seer=a.seer)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(next(iter(rows.values()))[0]))
            w.writeheader()
            for spec in specs:
                w.writerows(rows[spec])
    print(f"{a.game}, {a.players} players, seed {a.seed}, games {a.first}.."
          f"{a.first + a.games - 1}, each candidate in one seat (rotated) vs {a.vs}:")
    summary(rows)


if __name__ == "__main__":
    main()
