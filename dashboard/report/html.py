"""`delve report RUN [--vs RUN_B] -o FILE.html`: one self-contained HTML file per run.

The report holds a manifest (game, rules hash, variant and its diff against the base rules,
seed, bots, engine version, games) and the dashboard's figures, drawn by the same query
helpers (``dashboard.queries``) and figure builders (``dashboard.charts``). Plotly's JS bundle
is inlined and a Content-Security-Policy forbids every network request, so the file opens
offline. Every text from the database is HTML-escaped (and ``<``/``>``/``&`` are \\u-escaped
inside the figures' JSON), so a faction named ``</script><script>...`` stays text.

Deterministic: figures get fixed ids in a fixed order, nothing depends on the clock, and the
only timestamps are the ones stored in the database, so two exports of the same run are
byte-identical.
"""

from __future__ import annotations

import html
import json
import logging
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from dashboard.labels import game_labels, game_title, relabel
from engine.core.errors import DelveError


#: Streamlit's loggers that warn about "bare mode" only (cached helpers and widgets called
#: outside a Streamlit server); also silenced, for a while, by the dashboard benchmark.
BARE_MODE_LOGGERS = ("streamlit.runtime.caching.cache_data_api",
                     "streamlit.runtime.scriptrunner_utils.script_run_context")


def _quiet_streamlit() -> None:
    """The query helpers are Streamlit-cached; outside a Streamlit server that is a plain
    in-memory cache, which Streamlit announces with a warning per function. Silence it."""
    from streamlit import logger as st_logger

    for name in BARE_MODE_LOGGERS:
        st_logger.get_logger(name).setLevel(logging.ERROR)


@dataclass
class Section:
    title: str
    figures: list[tuple[str, Any]] = field(default_factory=list)   # (caption, go.Figure)
    notes: list[str] = field(default_factory=list)                 # plain text (escaped)
    tables: list[tuple[list[str], list[list[Any]]]] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)               # plain text (escaped)


# --- gathering the data -----------------------------------------------------------------------

def _version(run: dict[str, Any]) -> str:
    """The run's data version: the cache key of the dashboard's analyses (queries.py)."""
    return f"{run.get('games_stored', 0)}:{run.get('status')}"


def _variant_diff(run: dict[str, Any]) -> list[str]:
    """The run's stored rules against the game's current base rules, one line per change."""
    from engine.core.registry import all_games
    from engine.core.rules import canonical_json, diff

    game = all_games().get(run.get("game") or "")
    if game is None:
        return [f"(game '{run.get('game')}' is not registered here: no diff)"]
    try:
        base = json.loads(canonical_json(game.load_rules().model))
        new = json.loads(run.get("rules") or "{}")
    except (DelveError, ValueError) as exc:
        return [f"(the rules could not be compared: {exc})"]
    changes = diff(base, new)
    if not changes:
        return ["no differences from the base rules"]
    return [f"{path}: {json.dumps(old)} -> {json.dumps(new_)}" for path, old, new_ in changes]


def manifest(db: str, run: dict[str, Any]) -> list[tuple[str, str]]:
    from dashboard import queries

    from dashboard.labels import game_title, run_names
    from dashboard.table_words import word
    config = json.loads(run.get("config") or "{}")
    options = queries.filter_options(db, run["run_id"], _version(run))
    names = run_names(db, run)
    created = run.get("created_at")
    rows = [
        ("run", run["run_id"]),
        ("label", run.get("label") or ""),
        ("game", game_title(run.get("game")) or ""),
        ("created", created.strftime("%Y-%m-%d %H:%M:%S") if hasattr(created, "strftime")
         else str(created or "")[:19]),
        ("status", run.get("status") or ""),
        ("rules hash", run.get("rules_hash") or ""),
        ("variant", run.get("variant") or "base"),
        ("variant files", ", ".join(config.get("variants", [])) or "none"),
        ("--set overrides", ", ".join(config.get("sets", [])) or "none"),
        ("variant diff", "\n".join(_variant_diff(run))),
        ("run seed", str(run.get("seed"))),
        ("game seeds", "derived from the run seed and the game index (numpy SeedSequence)"),
        ("players", ", ".join(map(str, options["n_players"]))),
        ("bots", str(run.get("bots") or config.get("bots") or ", ".join(options["bots"]))),
        ("factions", ", ".join(word(names, f) for f in options["factions"])),
        ("maps", ", ".join(word(names, m) for m in options["maps"]) or "none"),
        ("engine version", str(run.get("engine_version") or "")),
        ("games", f"{run.get('games_stored', 0)} stored of {run.get('n_games')} planned"),
    ]
    return rows


def _table(frame: Any, columns: list[str], formats: dict[str, str],
           names: Mapping[str, str] | None = None) -> tuple[list[str], list[list[Any]]]:
    """A table in a reader's words (issue 31, like the dashboard's: dashboard.table_words):
    plain column names, p-values as people write them, ids in words (`names`' for the id
    columns: factions, categories...)."""
    from dashboard.comparison_words import p_text
    from dashboard.table_words import COLUMNS, ID_CELLS, cell_words, label_of
    rows = []
    for r in frame.iter_rows(named=True):
        out = []
        for c in columns:
            v = r.get(c)
            if isinstance(v, float) and COLUMNS.get(c, ("", ""))[1] == "p":
                v = p_text(v)
            elif isinstance(v, float):
                v = "" if math.isnan(v) else format(v, formats.get(c, ".3g"))
            elif isinstance(v, str):
                v = cell_words(names or {} if c in ID_CELLS else {}, v)
            out.append("" if v is None else v)
        rows.append(out)
    return [label_of(c) for c in columns], rows


def tier_section(db: str, rid: str, v: str, prefix: str = "",
                 names: Mapping[str, str] | None = None) -> Section | None:
    """'By skill tier' (a run of a `delve simulate --tiers` group), None otherwise; `names`
    name the factions."""
    from dashboard import charts
    from dashboard.labels import rename
    from dashboard.queries import tiers as qt

    if qt.tier_runs(db, rid, version=v).height < 2:
        return None
    rates = qt.tier_rates(db, rid, version=v)
    shifts = qt.tier_shifts(db, rid, version=v)
    sec = Section(f"{prefix}By skill tier", notes=[
        "The same games (seeds, seats, factions) at every tier, every seat playing the tier's "
        "bot; 95% Wilson intervals. A flag marks a significant paired change of a faction's "
        "win rate between two tiers (Holm over the factions): 'grows' away from the fair share, "
        "'shrinks' towards it."])
    sec.figures.append(("Win rate by faction at each skill tier",
                        charts.tier_win_rates(rename(rates, names or {}))))
    sec.tables.append(_table(rates, ["tier", "faction", "games", "wins", "rate", "low", "high"],
                             {"rate": ".1%", "low": ".1%", "high": ".1%"}, names))
    sec.tables.append(_table(shifts, ["tier_a", "tier_b", "faction", "n", "rate_a", "rate_b",
                                      "diff", "low", "high", "p_holm", "flag"],
                             {"rate_a": ".1%", "rate_b": ".1%", "diff": "+.1%", "low": "+.1%",
                              "high": "+.1%"}, names))
    return sec


def checks_sections(db: str, run: dict[str, Any], prefix: str = ""
                    ) -> tuple[Section | None, Section | None]:
    """What the design checks found (pipelines.lab.play_checks): the flags in words, before the
    findings, and every check with its evidence, in a section of its own at the end."""
    if run.get("status") != "done":
        return None, None
    from pipelines.lab.design_checks import run_checks
    from pipelines.lab.play_checks import CHECKS, check_sentences
    rep = run_checks(db, run["run_id"])
    bullets = [b.replace("**", "") for b in check_sentences(rep.findings, limit=12)] or [
        "No design check flags this run."]
    lead = Section(f"{prefix}What the checks found", bullets=bullets, notes=[
        "Each check per skill tier with its 95% interval (the game is the unit), against a "
        "threshold in data/checks/checks.toml; 'not yet certain': the interval still reaches "
        "the threshold. Every check with its evidence: the section 'Design checks' below."])
    rows = [{"check": f.check, "tier": f.tier, "subject": f.subject,
             "flag": "flag" if f.flagged else "ok", "evidence": f.evidence}
            for f in rep.findings if f.check in CHECKS]
    detail = None
    if rows:
        import polars as pl
        detail = Section(f"{prefix}Design checks")
        detail.tables.append(_table(pl.DataFrame(rows), ["check", "tier", "flag", "subject",
                                                         "evidence"], {}))
    return lead, detail


def run_sections(db: str, run: dict[str, Any], prefix: str = "") -> list[Section]:
    """The dashboard's figures for one run, in page order."""
    from dashboard import charts, queries
    from dashboard.findings import sentences

    from pipelines.stats.verdicts import margin_for, run_alpha, with_verdicts

    rid = run["run_id"]
    v = _version(run)
    margin, alpha = margin_for(run.get("game")), run_alpha(run.get("config"))
    options = queries.filter_options(db, rid, v)   # the run's maps and the bots that played
    games = queries.games_count(db, rid, version=v)
    rates = queries.faction_rates(db, rid, version=v)
    undecided = queries.undecided_share(db, rid, version=v)
    pg = int(rates["games"].sum()) if rates.height else 0
    decided = games - undecided["undecided"]
    rests = (f"Based on {decided:,} decided games ({pg:,} player-games); 95% Wilson intervals; a coloured "
             f"mark: the exact binomial test rejects the fair share after Holm's correction; a "
             f"tied win counts 1/k; turn order from the starting player; the matrix is head to "
             f"head (share of shared games finished above the opponent, against 1/2).")
    notes = [rests]
    if undecided["undecided"]:
        from dashboard.findings import undecided_sentence
        notes.insert(0, undecided_sentence(undecided))
    factions = Section(f"{prefix}Factions", notes=notes)
    by_map = None
    if len(options["maps"]) > 1:
        from pipelines.stats.heterogeneity import map_heterogeneity
        by_map = map_heterogeneity({m: queries.faction_rates(db, rid, map_id=m, version=v)
                                    for m in options["maps"]})
    findings = Section(f"{prefix}Findings", bullets=sentences(
        rates, queries.seat_rates(db, rid, version=v), n_games=games,
        labels=game_labels(run), categories=queries.category_by_faction(db, rid, version=v),
        bots=options["bots"], undecided=undecided, margin=margin, alpha=alpha, by_map=by_map))
    factions.figures += [
        ("Win rate by faction against the fair share 1/P", charts.faction_win_rates(relabel(rates, run))),
        ("Final score by faction", charts.score_boxes(relabel(queries.score_quantiles(db, rid, version=v), run))),
        ("Seat and first-player advantage", charts.seat_win_rates(queries.seat_rates(db, rid, version=v))),
        ("Head to head", charts.faction_matrix(relabel(queries.faction_matrix(db, rid, version=v), run))),
    ]
    terms, fitted = queries.strength_model(db, rid, version=v)
    terms = relabel(terms, run, ("level",))     # a faction term named
    factions.figures.append((f"Finishing-order strength (Plackett-Luce over the whole finishing order, not only the win; with seat "
                             f"terms; {fitted:,} games)", charts.strength_forest(terms)))
    factions.notes.append(f"Verdicts: 'balanced' = the equivalence test (two one-sided exact "
                          f"tests, Holm over the factions) shows the win rate within ±"
                          f"{100 * margin:g} points of the fair share (the game's margin, "
                          f"data/balance/margins.toml); 'not yet known' = neither that nor a "
                          f"difference, with the games that would settle it at 80% power.")
    factions.tables.append(_table(
        with_verdicts(rates, margin=margin, alpha=alpha, total_games=decided),
        ["faction", "verdict", "games", "wins", "win_rate", "low", "high", "low_sim", "high_sim",
         "fair_share", "p_holm", "p_tost_holm", "more_games", "mean_score"],
        {"wins": ".1f", "win_rate": ".1%", "low": ".1%", "high": ".1%", "low_sim": ".1%",
         "high_sim": ".1%", "fair_share": ".1%", "mean_score": ".1f", "p_tost_holm": ".3g",
         "more_games": ".0f"}, game_labels(run)))

    scoring = Section(f"{prefix}Scoring", notes=[f"Based on {games:,} games."])
    by_cat = relabel(queries.category_by_faction(db, rid, version=v), run)  # display names
    rounds = relabel(queries.points_by_round(db, rid, version=v), run)
    scoring.figures += [
        ("Points by category and faction", charts.category_stacked(by_cat)),
        ("Distributions", charts.category_boxes(by_cat)),
        ("Cumulative points by round", charts.round_curves(rounds, "faction")),
        ("Winners and losers by round", charts.round_curves(rounds, "outcome",
                                                            "Cumulative points: winners and losers")),
        ("What separates winners from losers", charts.winners_losers(relabel(queries.winners_vs_losers(db, rid, version=v), run))),
    ]

    checks_lead, checks_detail = checks_sections(db, run, prefix)
    sections = [s for s in (checks_lead, findings, factions) if s is not None]
    tiers = tier_section(db, rid, v, prefix, game_labels(run))
    if tiers is not None:
        sections.append(tiers)
    from .playtests import playtest_section
    humans = playtest_section(db, run, prefix)
    if humans is not None:
        sections.append(humans)
    sections.append(scoring)
    maps = options["maps"]
    map_section = Section(f"{prefix}Map", notes=["Moves per player-game on each cell, all players."])
    from dashboard.labels import run_names
    from dashboard.table_words import word
    names = run_names(db, run)
    for m in maps:
        cells = queries.map_cells(db, run.get("game") or "", m)
        if cells.is_empty():
            continue
        counts = queries.cell_counts(db, rid, m, version=v)
        pgs = int(counts["player_games"][0]) if counts.height else 1
        values = [{"cell": r["cell"], "value": r["moves"] / max(pgs, 1)}
                  for r in counts.iter_rows(named=True)]
        map_section.figures.append((f"Map {word(names, m)}", charts.map_heatmap(
            cells, values, "value", f"Moves per player-game — {word(names, m)}",
            value_label="moves")))
    if not map_section.figures:
        map_section.notes = ["This game declares no map cells: no heatmap."]
    sections.append(map_section)
    if checks_detail is not None:
        sections.append(checks_detail)
    return sections


def comparison_section(db: str, run_a: dict[str, Any], run_b: dict[str, Any]) -> Section:
    """B - A per faction and seat, the same comparison as `delve compare` and the What-if page
    (pipelines.lab.compare: paired game by game when the pair is paired, Welch otherwise; Holm
    within declared families), so the report, the CLI and the page agree (issue 12, P4)."""
    from dashboard import charts
    from pipelines.lab.compare import compare

    c = compare(db, run_a["run_id"], run_b["run_id"], heatmap=False)
    names = game_labels(run_a)
    named = relabel(c.table, run_a, ("key",))       # a faction row's key named
    how = ("paired game by game (exact McNemar p, Newcombe's paired score interval)" if c.paired
           else "independent runs (Welch intervals)")
    win = charts.diff_forest(named, "win_rate", f"Win rate: B − A (simultaneous 95% intervals; {how})")
    score = charts.diff_forest(named, "score", "Mean score: B − A (simultaneous 95% intervals)")
    cols = ["family", "kind", "key", "metric", "a", "b", "diff", "low", "high", "p", "p_holm",
            "significant", "note"]
    fmt = {"a": ".3f", "b": ".3f", "diff": "+.3f", "low": "+.3f", "high": "+.3f", "p": ".4f",
           "p_holm": ".4f"}
    label_a = run_a.get("label") or run_a["run_id"]
    label_b = run_b.get("label") or run_b["run_id"]
    section = Section("Comparison", figures=[("Win rate difference by faction and seat", win),
                                             ("Score difference by faction and seat", score)],
                      notes=[f"Run A: {label_a} ({run_a['run_id']}); run B: {label_b} "
                             f"({run_b['run_id']}). {'PAIRED' if c.paired else 'NOT PAIRED'}: "
                             f"{c.why}. The same comparison as `delve compare`: p-values "
                             f"Holm-corrected within each family (named in the table); red "
                             f"marks differ after that correction."])
    section.tables.append(_table(c.table, cols, fmt, names))
    section.tables.append(_table(c.categories, ["family", "category", "a", "b", "diff", "low",
                                                "high", "p", "p_holm", "significant"], fmt, names))
    section.tables.append(_table(c.length, ["family", "metric", "a", "b", "diff", "low", "high",
                                            "p", "p_holm", "significant"], fmt))
    return section


# --- rendering --------------------------------------------------------------------------------

_CSP = ("default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval'; "
        "style-src 'unsafe-inline'; img-src data: blob:; font-src data:")

_STYLE = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1200px;
padding:1.5rem;color:#222}h1{margin-bottom:.2rem}h2{border-bottom:1px solid #ddd;
padding-bottom:.3rem;margin-top:2.5rem}table{border-collapse:collapse;margin:.8rem 0;font-size:.9rem}
td,th{border:1px solid #ddd;padding:.25rem .6rem;text-align:left;vertical-align:top}
th{background:#f5f5f5}td pre{margin:0;white-space:pre-wrap;font-size:.8rem}
.figure{min-height:420px;margin:1rem 0}.note{color:#555;font-size:.9rem}
"""


def _esc(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _json_for_script(obj: Any) -> str:
    """JSON safe inside a <script> element: no '<', '>' or '&' survives literally."""
    text = obj if isinstance(obj, str) else json.dumps(obj, sort_keys=True)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def render(title: str, manifests: list[tuple[str, list[tuple[str, str]]]],
           sections: list[Section]) -> str:
    import plotly.io as pio
    from plotly.offline import get_plotlyjs

    parts = ["<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
             f"<meta http-equiv=\"Content-Security-Policy\" content=\"{_CSP}\">\n",
             f"<title>{_esc(title)}</title>\n<style>{_STYLE}</style>\n",
             "<script>", get_plotlyjs(), "</script>\n</head>\n<body>\n",
             f"<h1>{_esc(title)}</h1>\n",
             "<p class=\"note\">A Delve report: self-contained (no network), every rate with its "
             "95% interval.</p>\n"]
    for heading, rows in manifests:
        parts.append(f"<h2>{_esc(heading)}</h2>\n<table class=\"manifest\">\n")
        for key, value in rows:
            parts.append(f"<tr><th>{_esc(key)}</th><td><pre>{_esc(value)}</pre></td></tr>\n")
        parts.append("</table>\n")
    n = 0
    for section in sections:
        parts.append(f"<h2>{_esc(section.title)}</h2>\n")
        for note in section.notes:
            parts.append(f"<p class=\"note\">{_esc(note)}</p>\n")
        if section.bullets:
            parts.append("<ul class=\"findings\">" + "".join(
                f"<li>{_esc(b)}</li>" for b in section.bullets) + "</ul>\n")
        for columns, rows in section.tables:
            parts.append("<table><tr>" + "".join(f"<th>{_esc(c)}</th>" for c in columns) + "</tr>\n")
            for row in rows:
                parts.append("<tr>" + "".join(f"<td>{_esc(v)}</td>" for v in row) + "</tr>\n")
            parts.append("</table>\n")
        for caption, fig in section.figures:
            n += 1
            fid = f"fig-{n}"
            spec = pio.to_json(fig, validate=False, pretty=False)
            parts.append(f"<h3>{_esc(caption)}</h3>\n<div class=\"figure\" id=\"{fid}\"></div>\n"
                         f"<script type=\"application/json\" id=\"{fid}-data\">"
                         f"{_json_for_script(spec)}</script>\n")
    parts.append(
        "<script>\n"
        "document.querySelectorAll('div.figure').forEach(function (el) {\n"
        "  var spec = JSON.parse(document.getElementById(el.id + '-data').textContent);\n"
        "  Plotly.newPlot(el, spec.data, spec.layout || {}, {displaylogo: false, responsive: true});\n"
        "});\n</script>\n</body>\n</html>\n")
    return "".join(parts)


def build_report(db: str | Path, run: str, vs: str | None = None) -> str:
    """The report of RUN (an id, unique prefix or 'latest'), optionally compared with VS."""
    _quiet_streamlit()
    from dashboard import queries
    from pipelines.store import resolve_run

    db = str(db)
    run_id = resolve_run(db, run)["run_id"]
    run_a = queries.run_details(db, run_id)
    manifests = [("Manifest" if vs is None else "Manifest: run A", manifest(db, run_a))]
    if vs is None:
        sections = run_sections(db, run_a)
        title = f"Delve report: {run_a.get('label') or run_id} ({game_title(run_a.get('game'))})"
    else:
        vs_id = resolve_run(db, vs)["run_id"]
        if vs_id == run_id:
            raise DelveError(f"--vs names the same run as RUN ('{run_id}'): pick another run")
        run_b = queries.run_details(db, vs_id)
        manifests.append(("Manifest: run B", manifest(db, run_b)))
        sections = [comparison_section(db, run_a, run_b)]
        sections += run_sections(db, run_a, "Run A — ") + run_sections(db, run_b, "Run B — ")
        title = (f"Delve report: {run_b.get('label') or vs_id} against "
                 f"{run_a.get('label') or run_id} ({game_title(run_a.get('game'))})")
    return render(title, manifests, sections)


def write_report(db: str | Path, run: str, out: str | Path, vs: str | None = None) -> Path:
    """Build the report and write it to ``out``; errors name the culprit (DelveError)."""
    _quiet_streamlit()
    from dashboard import queries

    out = Path(out)
    if out.is_dir():
        raise DelveError(f"Output '{out}' (-o) is a directory: expected a file such as report.html")
    if not out.parent.is_dir():
        raise DelveError(f"Output '{out}' (-o): the directory '{out.parent}' does not exist")
    try:
        text = build_report(db, run, vs)
    except queries.DashboardDataError as exc:
        raise DelveError(f"Database '{db}' (--db) cannot be read for the report: {exc}") from None
    out.write_text(text, encoding="utf-8")
    return out
