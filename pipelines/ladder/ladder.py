"""The skill ladder (`delve ladder`): rungs random < greedy < mcts:B < mcts:2B < ..., each
rung in one seat against the rung below in every other seat (or, with `vs`, against that one
bot in every rung above it; the `vs` rung itself plays the rung below it).

- **Runs.**  Every rung is played as one run per seat (the rung's seat fixed within a run, so
  the bots stay fixed to seats as in any run); the runs are ordinary runs in the database,
  found again by their label `ladder <id>` and their config's `ladder` entry: {"id", "rung"
  (1 = greedy over random), "spec", "below", "seat", "vs", "deals"}.
- **Duplicate deals.**  Seat s's run has the seed `seed + s` in every rung, so game j of that
  run is the same deal (seed, map, factions at every seat) in every rung: the rungs are paired
  game by game (`deals = "duplicate"`; ladders played before 2026-12-04 drew other seeds per
  rung and are read unpaired).
- **Balanced factions.**  A seat's run is rounded up to whole cycles of the seating design,
  so the rung's seat holds every faction equally often (`per_seat_games`).
- **Rates.**  A rung's win rate is its seat's share of the wins (a win shared by k seats counts
  1/k), with a 95% Wilson interval; the fair share is 1 / players.
- **Validation.**  A rung is validated when it beats the rung below, significant after Holm's
  correction over the ladder's rungs (the family: one ladder):
  - against the rung below in the other seats: its share above the fair share (exact binomial
    test, two-sided, of share = fair);
  - with `vs` (every rung above that bot against it): the first such rung's share above the
    fair share, and every later rung's share above the share of the rung before it *on the
    same deals* (paired: Newcombe's interval and the exact McNemar test,
    `pipelines.stats.paired`); the rungs up to the `vs` bot as without it.
  The strongest validated rung is the top of the unbroken chain of validated rungs from the
  bottom: a rung counts only where every rung below it counts too.
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass, field

from .match import wilson

ALPHA = 0.05


def ladder_rungs(start_budget: int, n_search: int) -> list[str]:
    """random, greedy, then `n_search` MCTS rungs with budgets doubling from `start_budget`."""
    return ["random", "greedy"] + [f"mcts:{start_budget * 2 ** k}" for k in range(n_search)]


def per_seat_games(game_id: str, games: int, players: int, seating: str | None = None) -> int:
    """Games of one seat's run: `games` split over the seats, rounded up to whole cycles of the
    seating design, so the rung's seat holds every faction equally often."""
    from engine.core.registry import get_game
    from pipelines.run import seating as design
    game = get_game(game_id)
    factions = list(game.factions(game.load_rules().model))
    cycle = design.make_design(factions, players, 0, seating or design.VERSION).cycle
    per_seat = -(-games // players)
    return -(-per_seat // cycle) * cycle


@dataclass
class Rung:
    index: int
    spec: str
    below: str
    games: int = 0
    wins: float = 0.0
    run_ids: list[str] = field(default_factory=list)
    credits: dict = field(default_factory=dict)   # (seat, game_id, seed) -> the seat's credit
    # the test that validates the rung: against the fair share or, paired, the rung before it
    against: str = "fair share"
    diff: float = math.nan           # paired share minus the rung before it (vs mode)
    diff_low: float = math.nan
    diff_high: float = math.nan
    pairs: int = 0
    p_value: float = math.nan
    p_holm: float = math.nan
    validated: bool = False
    undecided: int = 0               # games no seat won (a turn limit the rulebook does not score)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def seat_credits(store, run_id: str, seat: int) -> dict:
    """{(seat, game_id, seed): credit} of `seat` in a run; a win shared by k seats counts 1/k."""
    with store.read() as con:
        rows = con.execute(
            "SELECT p.game_id, g.seed, CASE WHEN p.won THEN 1.0 / w.k ELSE 0 END "
            "FROM players p JOIN games g USING (run_id, game_id) JOIN (SELECT game_id, "
            "count(*) FILTER (WHERE won) AS k FROM players WHERE run_id = ? GROUP BY game_id) w "
            "USING (game_id) WHERE p.run_id = ? AND p.seat = ?",
            [run_id, run_id, seat]).fetchall()
    return {(seat, int(g), int(s)): float(c) for g, s, c in rows}


def undecided_games(store, run_id: str) -> int:
    """The games of a run that no seat won (stopped by a turn limit; DESIGN.md: `winner_seat`
    NULL), which the ladder counts as a loss for every seat."""
    with store.read() as con:
        return int(con.execute("SELECT count(*) FROM games WHERE run_id = ? AND n_players > 1 "
                               "AND winner_seat IS NULL", [run_id]).fetchone()[0])


def paired_gain(before: dict, after: dict):
    """(pairs, diff, low, high, p) of after's share minus before's on the deals both played:
    Newcombe's interval and the exact McNemar test on the win credits."""
    from pipelines.stats.paired import paired_proportions
    keys = sorted(before.keys() & after.keys())
    n = len(keys)
    if n == 0:
        return 0, math.nan, math.nan, math.nan, math.nan
    a = [before[k] for k in keys]
    b = [after[k] for k in keys]
    n11 = sum(min(x, y) for x, y in zip(a, b))
    n10 = sum(max(x - y, 0.0) for x, y in zip(a, b))
    n01 = sum(max(y - x, 0.0) for x, y in zip(a, b))
    n00 = n - n11 - n10 - n01
    up = sum(1 for x, y in zip(a, b) if y > x)
    down = sum(1 for x, y in zip(a, b) if y < x)
    d, lo, hi, p, _note = paired_proportions(n, sum(a) / n, sum(b) / n, up, down, n11, n10,
                                             n01, n00)
    return n, d, lo, hi, p


def validate(rungs: list[Rung], fair: float, vs: str | None, alpha: float = ALPHA) -> None:
    """Test every rung against the one below (module doc), Holm over the ladder's rungs, and
    mark the validated chain from the bottom."""
    from pipelines.stats import rate_test
    from pipelines.stats.multiplicity import holm
    previous = None
    for r in rungs:
        if (vs and previous is not None and previous.credits and r.credits
                and previous.below == r.below):
            r.against = f"{previous.spec} (paired)"
            r.pairs, r.diff, r.diff_low, r.diff_high, r.p_value = paired_gain(
                previous.credits, r.credits)
            r.p_value = r.p_value if r.diff > 0 else 1.0   # only a gain validates
        else:
            r.against = "fair share"
            r.p_value = rate_test(r.wins, r.games, fair) if r.rate > fair else 1.0
        previous = r
    reject, adjusted = holm([r.p_value for r in rungs], alpha)
    chain = True
    for r, ok, adj in zip(rungs, reject, adjusted):
        r.p_holm = adj
        chain = chain and bool(ok)
        r.validated = chain


def strongest(rungs: list[Rung]) -> str | None:
    """The top of the validated chain (None when the bottom rung is not validated)."""
    best = None
    for r in rungs:
        if not r.validated:
            break
        best = r.spec
    return best


def run_ladder(game_id: str, store, *, players: int, games: int, rungs: list[str],
               seed: int = 0, jobs: int = 1, vs: str | None = None, label: str = "",
               progress: bool = False, echo=print,
               seating: str | None = None) -> tuple[str, list[Rung]]:
    """Play the ladder; `vs` fixes the other seats' bot for every rung (e.g. greedy) instead
    of the rung below.  Returns the ladder id and its rungs (from rung 1 up), validated."""
    ladder_id = uuid.uuid4().hex[:8]
    per_seat = per_seat_games(game_id, games, players, seating)
    out = _play(game_id, store, ladder_id, players=players, per_seat=per_seat, rungs=rungs,
                seed=seed, jobs=jobs, vs=vs, label=label or f"ladder {ladder_id}",
                progress=progress, echo=echo, seating=seating, stored={})
    validate(out, 1.0 / players, vs)
    return ladder_id, out


def _play(game_id, store, ladder_id, *, players, per_seat, rungs, seed, jobs, vs, label,
          progress, echo, seating, stored) -> list[Rung]:
    """Play the ladder's runs, one per rung and seat; a run in `stored` ((rung, seat) -> its
    runs row) is taken as it is when done and resumed (its missing games played) when not."""
    from pipelines.run.execute import run_plan
    from pipelines.run.plan import make_plan, parse_bots, plan_from_run

    out = []
    for k in range(1, len(rungs)):
        spec = parse_bots(rungs[k], 1)[0]
        below = parse_bots(rungs[k - 1], 1)[0]
        if vs and spec != parse_bots(vs, 1)[0]:
            below = parse_bots(vs, 1)[0]     # the rung itself: against the rung below
        if spec == below:
            continue
        rung = Rung(k, spec, below)
        for s in range(players):
            row = stored.get((k, s))
            if row is not None and row["status"] == "done":
                run_id = row["run_id"]
            elif row is not None:            # cut short: play the games it does not have
                _not_live(row)
                echo(f"  resuming {row['run_id']} (rung {k}, seat {s}: {row['games_done']} "
                     f"of {row['n_games']} games)")
                run_id = run_plan(plan_from_run(row), store, jobs=jobs, log_moves=False,
                                  progress=progress, run_id=row["run_id"], resume=True).run_id
            else:
                bots = ",".join(spec if j == s else below for j in range(players))
                run_seed = seed + s          # the same deals at this seat in every rung
                plan = make_plan(game_id, n_games=per_seat, n_players=players, bots=bots,
                                 seed=run_seed, seating=seating)
                config = {"game": game_id, "games": per_seat, "players": players, "bots": bots,
                          "seed": run_seed, "jobs": jobs, "log_moves": False,
                          "game_modules": list(plan.game_modules),
                          "ladder": {"id": ladder_id, "rung": k, "spec": spec, "below": below,
                                     "seat": s, "vs": vs, "deals": "duplicate",
                                     "rungs": list(rungs)}}
                run_id = run_plan(plan, store, jobs=jobs, log_moves=False, label=label,
                                  config=config, progress=progress).run_id
            credits = seat_credits(store, run_id, s)
            rung.credits.update(credits)
            rung.games += len(credits)
            rung.wins += sum(credits.values())
            rung.undecided += undecided_games(store, run_id)
            rung.run_ids.append(run_id)
        out.append(rung)
        lo, hi = rung.interval()
        echo(f"  rung {k}: {spec} vs {below}: {rung.rate:.1%} [{lo:.1%}, {hi:.1%}] over "
             f"{rung.games} games")
    return out


def _not_live(row: dict) -> None:
    from engine.core.errors import DelveError
    from pipelines.store.liveness import liveness
    if row["status"] == "running" and row.get("heartbeat_at") is not None \
            and not liveness(row).stalled:
        raise DelveError(f"Run '{row['run_id']}' of the ladder is still being written by "
                         f"process {row.get('pid')} on {row.get('host')}: stop that process "
                         f"first, or wait until the run is stalled (no heartbeat for a minute)")


def resume_ladder(store, ladder_id: str, *, game: str | None = None, jobs: int | None = None,
                  specs: list[str] | None = None, progress: bool = False,
                  echo=print) -> tuple[dict, list[Rung]]:
    """Finish a ladder that was cut short: its done runs are kept, a run cut short plays the
    games it does not have, and the runs never started are played with the ladder's own game,
    players, games per seat, seeds, `vs`, seating and label.  The rungs come from the ladder's
    runs (a ladder played since 2026-12-05 stores them all); for an older ladder whose top
    rungs never started, `specs` names the rungs from the bottom.  Returns (what the ladder
    is: game, players, rungs, vs, per_seat, seed) and its rungs, validated."""
    import json

    from engine.core.errors import DelveError

    with store.read() as con:
        cur = con.execute(
            "SELECT * FROM runs WHERE json_extract_string(config, '$.ladder.id') = ? "
            "ORDER BY json_extract(config, '$.ladder.rung')::INTEGER, "
            "json_extract(config, '$.ladder.seat')::INTEGER", [ladder_id])
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, r)) for r in cur.fetchall()]
    if not rows:
        raise DelveError(f"No run of '{store.path}' belongs to ladder '{ladder_id}' (--resume): "
                         f"expected the id `delve ladder` printed (runs labelled 'ladder ID')")
    stored, info = {}, None
    for row in rows:
        cfg = json.loads(row["config"] or "{}")
        lad = cfg["ladder"]
        stored[(int(lad["rung"]), int(lad["seat"]))] = row
        if info is None or lad.get("rungs"):
            info = {"game": row["game"], "players": int(cfg["players"]), "vs": lad.get("vs"),
                    "per_seat": int(row["n_games"]), "seed": int(row["seed"]) - int(lad["seat"]),
                    "seating": cfg.get("seating"), "label": row["label"],
                    "rungs": lad.get("rungs"), "deals": lad.get("deals")}
    if game is not None and info["game"] != game:
        raise DelveError(f"Ladder '{ladder_id}' is a ladder of {info['game']}, not {game} "
                         f"(GAME)")
    if info["deals"] != "duplicate":
        raise DelveError(f"Ladder '{ladder_id}' was played before rungs shared their deals "
                         f"(2026-12-04): it cannot be resumed; play it again")
    known = info["rungs"]
    if known is None:               # an older ladder: its rungs from its runs
        by_rung = {}
        for (k, _), row in stored.items():
            lad = json.loads(row["config"])["ladder"]
            by_rung[k] = (lad["spec"], lad["below"])
        top = max(by_rung)
        if 1 in by_rung:
            known = [by_rung[1][1]] + [by_rung.get(k, (None,))[0] for k in range(1, top + 1)]
        if specs is None and (known is None or None in known):
            raise DelveError(f"Ladder '{ladder_id}' does not store its rungs and some never "
                             f"started: give them with --specs (the bottom rung first)")
    if specs is not None:
        if known is not None and [x for x in specs[:len(known)]] != known[:len(specs)]:
            raise DelveError(f"--specs {','.join(specs)} does not match ladder '{ladder_id}', "
                             f"whose rungs are {','.join(str(x) for x in known)}")
        known = specs
    info["rungs"] = known
    cfg_jobs = json.loads(rows[0]["config"]).get("jobs", 1)
    out = _play(info["game"], store, ladder_id, players=info["players"],
                per_seat=info["per_seat"], rungs=known, seed=info["seed"],
                jobs=jobs or int(cfg_jobs), vs=info["vs"], label=info["label"],
                progress=progress, echo=echo, seating=info["seating"], stored=stored)
    validate(out, 1.0 / info["players"], info["vs"])
    return info, out


def stored_rungs(store, ladder_id: str) -> tuple[list[Rung], int, str | None]:
    """(rungs, players, vs) of a stored ladder, validated again from its runs (paired only
    where the ladder's deals are duplicates); no rung when no run holds the id."""
    with store.read() as con:
        rows = con.execute(
            "SELECT run_id, json_extract(config, '$.ladder.rung')::INTEGER AS rung, "
            "json_extract_string(config, '$.ladder.spec') AS spec, "
            "json_extract_string(config, '$.ladder.below') AS below, "
            "json_extract(config, '$.ladder.seat')::INTEGER AS seat, "
            "json_extract_string(config, '$.ladder.vs') AS vs, "
            "json_extract_string(config, '$.ladder.deals') AS deals, "
            "json_extract(config, '$.players')::INTEGER AS players FROM runs "
            "WHERE json_extract_string(config, '$.ladder.id') = ? ORDER BY rung, seat",
            [ladder_id]).fetchall()
    rungs: dict[int, Rung] = {}
    players, vs, duplicate = 0, None, True
    for run_id, k, spec, below, seat, vs_, deals, n_players in rows:
        credits = seat_credits(store, run_id, seat)
        r = rungs.setdefault(k, Rung(k, spec, below))
        r.credits.update(credits)
        r.games += len(credits)
        r.wins += sum(credits.values())
        r.undecided += undecided_games(store, run_id)
        r.run_ids.append(run_id)
        players, vs, duplicate = n_players, vs_, duplicate and deals == "duplicate"
    out = [rungs[k] for k in sorted(rungs)]
    if not duplicate:   # other deals in every rung: nothing to pair
        for r in out:
            r.credits = {}
    if out and players:
        validate(out, 1.0 / players, vs)
    return out, players, vs


def stored_ladder(store, ladder_id: str) -> list[dict]:
    """A stored ladder's rungs from its runs: rung, spec, below, games, wins (by seat share),
    the validation of `validate` (`stored_rungs`), the games no seat won."""
    return [{"rung": r.index, "spec": r.spec, "below": r.below, "games": r.games,
             "wins": r.wins, "against": r.against, "diff": r.diff, "p_holm": r.p_holm,
             "validated": r.validated, "undecided": r.undecided}
            for r in stored_rungs(store, ladder_id)[0]]
