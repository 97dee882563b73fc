"""Design checks on a run (`delve checks RUN`, the Checks page), each flag with its evidence.

- rarely chosen: actions, and catalogue entries (every `id` of a rules list other than factions
  and maps: cards, buildings, shapes...) that are never or almost never chosen.  An entry counts
  as chosen when its id is the action or a word of a move's detail.
- game length: games that hit a turn limit or stall (ended_by naming a limit, or far longer
  than the rest: more steps than Q3 + 3 IQR).
- dominant opening: each seat's first decision (action and first word of the detail); an
  opening whose win rate is far above the other openings' (two-proportion z test, Holm across
  openings, at least `min_count` uses and 10 points above the rest).
- deciding card (pipelines/lab/card_checks.py, runs whose players record `held_cards`): a card
  whose holders win far more or far less often than the other seats (logistic model clustered
  by game, Holm across cards).
- ablation (on request, `--ablate ID`): a paired run of the base games without catalogue entry
  ID, compared with the run; flags the factions whose win rate changes significantly (Holm).

Everything is counted in DuckDB; Python only applies the thresholds and the tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable

import click
import polars as pl

from engine.core.errors import DelveError

from pipelines.stats import holm, rate_ci
from pipelines.store import connect_read, resolve_run

RARE_SHARE = 0.25       # an entry chosen less than this times its collection's average: "almost never"
MIN_EXPECTED = 8        # ... flagged only once the average entry is chosen at least this often
ACTION_GAMES = 0.05     # an action chosen in fewer than this share of games: "almost never"
LIMIT_WORDS = ("limit", "stall", "timeout", "max_steps", "max_turns", "abort")


@dataclass
class Finding:
    check: str
    subject: str
    flagged: bool
    evidence: str
    tier: str = ""                  # the bot every seat played ("mixed"); "" for the whole run
    value: float | None = None      # the estimate, its 95% interval and the flag's threshold
    low: float | None = None
    high: float | None = None
    threshold: float | None = None
    certain: bool = False           # the whole interval is past the threshold


@dataclass
class ChecksReport:
    run: dict
    findings: list[Finding] = field(default_factory=list)
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)

    @property
    def flagged(self) -> list[Finding]:
        return [f for f in self.findings if f.flagged]


# -- catalogue ---------------------------------------------------------------------------------------

def catalogue(rules_doc: dict, skip: tuple[str, ...] = ("factions", "maps")) -> list[tuple[str, str]]:
    """(collection path, id) of every entry of every list of tables with ids in the rules,
    except the collections in `skip` (top-level keys)."""
    out: list[tuple[str, str]] = []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                if not path and k in skip:
                    continue
                walk(v, path + [str(k)])
        elif isinstance(node, list):
            if node and all(isinstance(e, dict) and "id" in e for e in node):
                for e in node:
                    out.append((".".join(path), str(e["id"])))
            for e in node:
                if isinstance(e, dict):
                    walk(e, path + [str(e.get("id", "?"))])
    walk(rules_doc, [])
    return out


def _chosen_counts(con, run_id: str, ids: list[str]) -> dict[str, tuple[int, int]]:
    """id -> (times chosen, games where chosen), matching the action or a word of the detail."""
    if not ids:
        return {}
    con.register("delve_ids", pl.DataFrame({"id": ids}).to_arrow())
    try:
        rows = con.execute(
            """WITH words AS (
                 SELECT game_id, action AS w FROM moves WHERE run_id = ?
                 UNION ALL
                 SELECT game_id, unnest(string_split(detail, ' ')) AS w FROM moves
                 WHERE run_id = ? AND detail IS NOT NULL AND detail <> '')
               SELECT i.id, count(w.w), count(DISTINCT w.game_id)
               FROM delve_ids i LEFT JOIN words w ON w.w = i.id GROUP BY i.id""",
            [run_id, run_id]).fetchall()
    finally:
        con.unregister("delve_ids")
    return {r[0]: (int(r[1]), int(r[2])) for r in rows}


# -- the checks ----------------------------------------------------------------------------------------

def check_rare(con, run: dict, n_games: int, rare_share: float,
               choices: list[tuple[str, str]] | None = None,
               judged: set[str] = frozenset()) -> tuple[list[Finding], pl.DataFrame]:
    """Entries chosen less than `rare_share` times the average entry of their collection (only
    once that average is at least MIN_EXPECTED, so a flag has evidence), and actions chosen in
    fewer than ACTION_GAMES of the games.  `choices`, when the game declares it, is the
    catalogue of entries players choose under the run's rules (else every id list); entries in
    `judged` are left to the dead-option check, which knows when each was offered."""
    run_id = run["run_id"]
    acts = con.execute("SELECT action, count(*), count(DISTINCT game_id) FROM moves "
                       "WHERE run_id = ? GROUP BY action ORDER BY 2", [run_id]).fetchall()
    doc = json.loads(run["rules"] or "{}")
    cat = choices if choices is not None else catalogue(doc)
    counts = _chosen_counts(con, run_id, sorted({i for _, i in cat}))
    per_coll: dict[str, list[str]] = {}
    for coll, i in cat:
        per_coll.setdefault(coll, []).append(i)
    rows, findings = [], []
    for action, n, g in acts:
        rows.append({"kind": "action", "collection": "", "id": action, "chosen": int(n),
                     "games": int(g), "share_of_games": g / n_games, "vs_average": None})
        if g / n_games < ACTION_GAMES:
            findings.append(Finding("rarely chosen", f"action {_words(action)}", True,
                                    f"chosen {n} times, in {g} of {n_games} games "
                                    f"({g / n_games:.1%} < {ACTION_GAMES:.0%})"))
    for coll, ids in per_coll.items():
        total = sum(counts.get(i, (0, 0))[0] for i in ids)
        mean = total / len(ids)
        if total == 0:
            findings.append(Finding("rarely chosen", _words(coll), False,
                                    f"no entry of {_words(coll)} ({len(ids)} entries) appears in the moves "
                                    f"of this run (not used in this setup, or not logged)"))
        for i in ids:
            n, g = counts.get(i, (0, 0))
            ratio = n / mean if mean else None
            rows.append({"kind": "entry", "collection": coll, "id": i, "chosen": n, "games": g,
                         "share_of_games": g / n_games, "vs_average": ratio})
            if total and mean >= MIN_EXPECTED and ratio < rare_share and i not in judged:
                word = "never" if n == 0 else "almost never"
                findings.append(Finding(
                    "rarely chosen", _entry_subject(doc, coll, i), True,
                    f"{word} chosen: {n} times in {n_games} games, {ratio:.0%} of the average "
                    f"{_words(coll)} entry ({mean:.1f} times; flag below {rare_share:.0%})"))
    if not any(f.flagged for f in findings):
        findings.append(Finding("rarely chosen", "all actions and entries", False,
                                f"every entry is chosen at least {rare_share:.0%} as often as the "
                                f"average of its collection"))
    return findings, pl.DataFrame(rows)


def _words(key: str) -> str:
    """An id in words: 'trade_spaces' -> 'trade spaces', 'sides.two.slots' -> 'sides two slots'."""
    return str(key).replace("_", " ").replace(".", " ")


def _entry_subject(doc: dict, coll: str, entry: str) -> str:
    """'equipment: Knuckles (eq_knuckles)': the entry's display name where the rules give one
    and its id (what `delve checks --ablate` takes; the dashboard leaves it out), else its id,
    after its collection in words."""
    from .rules_form import entry_name
    try:
        shown = entry_name(doc, coll, entry)
    except (AttributeError, TypeError):
        shown = entry
    return f"{_words(coll)}: {shown} ({entry})" if shown != entry else f"{_words(coll)}: {entry}"


ENDED_BY = {"game_end": "a win", "turn_limit": "the turn limit"}


def check_length(con, run: dict, max_rounds: int | None) -> tuple[list[Finding], pl.DataFrame]:
    run_id = run["run_id"]
    ended = con.execute("SELECT coalesce(ended_by, '(none)'), count(*), avg(steps), max(rounds), "
                        "count(*) FILTER (WHERE winner_seat IS NULL AND n_players > 1) "
                        "FROM games WHERE run_id = ? GROUP BY 1 ORDER BY 2 DESC", [run_id]).fetchall()
    q1, q3, n, mx = con.execute(
        "SELECT quantile_cont(steps, 0.25), quantile_cont(steps, 0.75), count(*), max(steps) "
        "FROM games WHERE run_id = ?", [run_id]).fetchone()
    cut = q3 + 3 * (q3 - q1)
    long_games = con.execute("SELECT game_id, steps, rounds, ended_by FROM games WHERE run_id = ? "
                             "AND steps > ? ORDER BY steps DESC LIMIT 20", [run_id, cut]).fetchall()
    findings = []
    for why, k, steps, rounds, no_winner in ended:
        limit = any(w in why.lower() for w in LIMIT_WORDS)
        note = ""
        if limit:
            note = (" — a turn limit, not a natural end" + (", and no winner" if no_winner == k
                    else f"; {no_winner} of them without a winner" if no_winner else ""))
        findings.append(Finding("game length", f"ended by {ENDED_BY.get(why, _words(why))}", limit,
                                f"{k} of {n} games ({k / n:.1%}), {steps:.0f} steps on average, "
                                f"up to round {rounds}{note}"))
    if max_rounds:
        over = con.execute("SELECT count(*) FROM games WHERE run_id = ? AND rounds > ?",
                           [run_id, max_rounds]).fetchone()[0]
        if over:
            findings.append(Finding("game length", "rounds beyond the limit", True,
                                    f"{over} games went past the rules' {max_rounds} rounds"))
    findings.append(Finding(
        "game length", "stalling games", bool(long_games),
        (f"{len(long_games)} game(s) longer than {cut:.0f} steps (Q3 + 3 IQR; longest {mx}), "
         f"e.g. game {long_games[0][0]}" if long_games else
         f"no game longer than {cut:.0f} steps (Q3 + 3 IQR; longest {mx})")))
    table = pl.DataFrame([{"ended_by": e, "games": k, "mean_steps": s, "max_round": r,
                           "without_a_winner": w} for e, k, s, r, w in ended])
    return findings, table


_OPENINGS = """
WITH first AS (
  SELECT game_id, seat, arg_min(action || CASE WHEN detail IS NULL OR detail = '' THEN ''
                                             ELSE ' ' || split_part(detail, ' ', 1) END, step) AS opening
  FROM moves WHERE run_id = ? GROUP BY game_id, seat)
SELECT f.game_id, f.seat, p.faction, f.opening, p.won::INT AS won
FROM first f JOIN players p ON p.run_id = ? AND p.game_id = f.game_id AND p.seat = f.seat
ORDER BY f.game_id, f.seat
"""


def opening_test(frame: pl.DataFrame, opening: str) -> tuple[float, str]:
    """One-sided p-value that `opening` wins more than the other openings of the same factions:
    a logistic regression won ~ opening + faction with standard errors
    clustered by game (statsmodels GLM, cov_type="cluster"; the seats of one game share it),
    issue 12 P12.  An opening used by one faction only is compared within that faction's
    seats; one whose effect cannot be told from the faction's (every game of the faction opens
    so) gets no p-value and a note.  (Seat is left out: with a fixed bot per seat it would
    absorb the bot, whose choice the opening is.)"""
    import numpy as np
    import statsmodels.api as sm
    from scipy import stats as sps

    is_op = (frame["opening"] == opening).cast(pl.Int64).to_numpy()
    factions = frame["faction"].to_list()
    op_factions = {f for f, x in zip(factions, is_op) if x}
    keep = np.array([f in op_factions for f in factions])
    sub = frame.filter(pl.Series(keep))
    x_op = is_op[keep].astype(float)
    if x_op.min() == x_op.max():
        return float("nan"), (f"always the opening of {', '.join(sorted(op_factions))}: "
                              f"confounded with the faction")
    cols = [x_op]
    for name in ("faction",):
        levels = sorted(set(sub[name].to_list()))
        vals = sub[name].to_list()
        cols += [np.array([v == lv for v in vals], dtype=float) for lv in levels[1:]]
    X = sm.add_constant(np.column_stack(cols), has_constant="add")
    y = sub["won"].to_numpy().astype(float)
    if y.min() == y.max():
        return float("nan"), "no variation in the outcome"
    try:
        fit = sm.GLM(y, X, family=sm.families.Binomial()).fit(
            cov_type="cluster", cov_kwds={"groups": sub["game_id"].to_numpy()})
        z = float(fit.params[1] / fit.bse[1])
    except Exception:  # noqa: BLE001 - separation or a singular design: no test, said so
        return float("nan"), "the model cannot be fitted (separation)"
    if not np.isfinite(z):
        return float("nan"), "the model cannot be fitted (separation)"
    return float(sps.norm.sf(z)), ""


def check_openings(con, run: dict, min_count: int, margin: float = 0.10
                   ) -> tuple[list[Finding], pl.DataFrame]:
    frame = con.execute(_OPENINGS, [run["run_id"], run["run_id"]]).pl()
    if frame.is_empty():
        return [Finding("dominant opening", "first decisions", False, "no moves logged")], \
            pl.DataFrame()
    by = (frame.group_by("opening").agg(pl.len().alias("n"), pl.col("won").sum().alias("wins"))
          .sort(["n", "opening"], descending=[True, False]))
    tot_n, tot_w = int(by["n"].sum()), int(by["wins"].sum())
    table_rows, pvals = [], []
    for opening, n, w in by.iter_rows():
        rest_n, rest_w = tot_n - n, tot_w - w
        r = rate_ci(w, n)
        rest = rest_w / rest_n if rest_n else float("nan")
        p, note = float("nan"), ""
        if n >= min_count and rest_n >= min_count and 0 < w + rest_w < n + rest_n:
            p, note = opening_test(frame, opening)
        pvals.append(p)
        table_rows.append({"opening": opening, "n": n, "wins": w, "win_rate": r.rate,
                           "low": r.low, "high": r.high, "rest_win_rate": rest, "note": note})
    reject, adj = holm(pvals)
    findings = []
    for row, rej, pa in zip(table_rows, reject, adj):
        row["p_holm"] = pa
        dominant = bool(rej) and row["win_rate"] - row["rest_win_rate"] >= margin
        row["dominant"] = dominant
        if dominant:
            findings.append(Finding(
                "dominant opening", row["opening"], True,
                f"wins {row['win_rate']:.1%} [{row['low']:.1%}, {row['high']:.1%}] of {row['n']} "
                f"games vs {row['rest_win_rate']:.1%} for the other openings; against the other "
                f"openings of the same factions (logistic model, errors clustered by game) "
                f"Holm p = {pa:.2g}"))
    if not findings:
        findings.append(Finding("dominant opening", "first decisions", False,
                                f"no opening (used at least {min_count} times) wins significantly "
                                f"more than {margin:.0%} above the others (faction held fixed, "
                                f"errors clustered by game)"))
    return findings, pl.DataFrame(table_rows)


def run_checks(db, run: str, *, rare_share: float = RARE_SHARE, min_count: int = 20,
               thresholds=None) -> ChecksReport:
    """Every check of RUN: the play checks per tier (pipelines/lab/play_checks.py) first, then
    the choices, length, openings and cards of the run as a whole."""
    row = resolve_run(db, run)
    from pipelines.run.plan import import_game
    cfg = json.loads(row["config"] or "{}")
    max_rounds = None
    choices = None
    try:
        game = import_game(row["game"], cfg.get("game_modules", ()))
        from pipelines.run.plan import stored_rules
        model = stored_rules(game, row["rules"]).model
        if game.max_rounds is not None:
            max_rounds = int(game.max_rounds(model))
        if game.extra.get("choice_catalogue"):
            # The game says which entries are players' choices available under these rules
            # (not dealt at random, not switched off by a module).
            choices = list(game.extra["choice_catalogue"](model))
    except Exception:  # a game no longer registered: the other checks still run
        max_rounds = None
    rep = ChecksReport(row)
    with connect_read(db) as con:
        n_games = con.execute("SELECT count(*) FROM games WHERE run_id = ?",
                              [row["run_id"]]).fetchone()[0]
        if n_games == 0:
            raise DelveError(f"Run '{row['run_id']}' has no games stored: nothing to check")
        n_moves = con.execute("SELECT count(*) FROM moves WHERE run_id = ?",
                              [row["run_id"]]).fetchone()[0]
        from pipelines.lab.checks_data import load_thresholds
        from pipelines.lab.play_checks import play_checks
        th = thresholds if thresholds is not None else load_thresholds(row["game"])
        f0, t0 = play_checks(con, [row["run_id"]], row["game"], row["rules"], th)
        # entries whose offers were logged are judged by the dead-option check (which knows
        # when they could be chosen); the count-only check keeps the others
        opts = t0.get("options")
        judged = ({k.split(":", 1)[1] for k in opts["option"].to_list() if ":" in k}
                  if opts is not None and opts.height else set())
        f1, t1 = check_rare(con, row, n_games, rare_share, choices, judged)
        f2, t2 = check_length(con, row, max_rounds)
        f3, t3 = check_openings(con, row, min_count)
        from pipelines.lab.card_checks import check_cards
        f4, t4 = check_cards(con, row, min_count)
    if n_moves == 0:
        f1 = [Finding("rarely chosen", "moves", False,
                      "the run recorded no moves (--no-log-moves): choices cannot be checked")]
        f3 = [Finding("dominant opening", "moves", False, "the run recorded no moves")]
    rep.findings = f0 + f1 + f2 + f3 + f4
    rep.tables = {"choices": t1, "length": t2, "openings": t3, **t0}
    if f4:
        rep.tables["cards"] = t4
    return rep


# -- ablation ------------------------------------------------------------------------------------------

def ablated_rules(game, rules_json: str, entry_id: str):
    """The run's effective rules without the catalogue entry `entry_id` (LoadedRules)."""
    from engine.core.rules import LoadedRules, validate
    doc = json.loads(rules_json)
    base = json.loads(rules_json)
    removed = []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, list) and v and all(isinstance(e, dict) and "id" in e for e in v):
                    keep = [e for e in v if str(e["id"]) != entry_id]
                    if len(keep) != len(v):
                        node[k] = keep
                        removed.append(".".join(path + [k]))
                walk(node[k], path + [k])
        elif isinstance(node, list):
            for e in node:
                walk(e, path)
    walk(doc, [])
    if not removed:
        ids = sorted({i for _, i in catalogue(base)})
        raise DelveError(f"--ablate {entry_id}: no rules entry has this id; expected one of "
                         f"{', '.join(ids[:20])}{'...' if len(ids) > 20 else ''}")
    from engine.core.errors import RulesError
    try:
        model = validate(game.rules_model, doc)
    except RulesError as exc:
        raise DelveError(f"--ablate {entry_id}: the rules without it are not valid: {exc}") from None
    return LoadedRules(model=model, doc=doc, base_doc=base, sources=[f"ablate {entry_id}"]), removed


def ablation(db, run: str, entry_id: str, *, jobs: int = 1, progress: bool = False,
             echo: Callable[[str], None] = lambda s: None):
    """Play the run's games again without `entry_id` (paired) and compare; returns
    (ablation run id, Comparison, findings)."""
    from pipelines.lab.compare import compare
    from pipelines.run.pairing import base_specs, start_run
    from pipelines.run.plan import import_game, make_plan
    from pipelines.store import Store
    row = resolve_run(db, run)
    cfg = json.loads(row["config"] or "{}")
    game = import_game(row["game"], cfg.get("game_modules", ()))
    rules, removed = ablated_rules(game, row["rules"], entry_id)
    specs = base_specs(db, row["run_id"])
    plan = make_plan(game.id, n_games=1, n_players=len(specs[0].seats),
                     bots=cfg.get("bots", "random"), seed=int(row["seed"]), map=cfg.get("map"),
                     factions=cfg.get("factions", "rotate"), rules=rules)
    plan.specs = specs
    plan.variants = (f"ablate-{entry_id}",)
    config = dict(cfg, ablate=entry_id, paired_with=row["run_id"], jobs=jobs, games=len(specs))
    s = start_run(plan, Store(db), label=f"ablation: without {entry_id}", config=config,
                  paired_with=row["run_id"], jobs=jobs, progress=progress,
                  log_moves=cfg.get("log_moves", True))
    echo(f"ablation run {s.run_id}: {len(specs)} games without {entry_id} ({', '.join(removed)})")
    c = compare(db, row["run_id"], s.run_id, heatmap=False)
    sig = c.table.filter((pl.col("kind") == "faction") & (pl.col("metric") == "win_rate")
                         & pl.col("significant"))
    findings = []
    for r in sig.iter_rows(named=True):
        findings.append(Finding("ablation", f"without {entry_id}: {r['key']}", True,
                                f"win rate {r['a']:.1%} -> {r['b']:.1%} ({r['diff']:+.1%}, 95% "
                                f"[{r['low']:+.1%}, {r['high']:+.1%}], Holm p = {r['p_holm']:.2g})"))
    if not findings:
        findings.append(Finding("ablation", f"without {entry_id}", False,
                                f"no faction's win rate changes significantly over {c.n_pairs} "
                                f"paired games (Holm-corrected)"))
    return s.run_id, c, findings


def format_report(rep: ChecksReport) -> str:
    lines = [f"checks of {rep.run['run_id']} ({rep.run['game']}, {rep.run['variant']})"]
    for f in rep.findings:
        tier = f" [{f.tier}]" if f.tier else ""
        lines.append(f"{'FLAG' if f.flagged else 'ok  '} {f.check:<17}{tier} {f.subject}: "
                     f"{f.evidence}")
    return "\n".join(lines)
