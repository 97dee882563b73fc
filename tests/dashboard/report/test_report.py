"""`delve report RUN [--vs RUN_B] -o FILE.html`: self-contained, deterministic, escaped."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from dashfix import REPO, SIM_GAMES, XSS, sim_runs


def _report(db: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "delve", "report", *args, "--db", str(db)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def exported(sim_db: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same run exported twice, by two separate processes."""
    out = tmp_path_factory.mktemp("report")
    run = sim_runs(sim_db)["baseline"]
    first, second = out / "a.html", out / "b.html"
    for path in (first, second):
        done = _report(sim_db, run, "-o", str(path))
        assert done.returncode == 0, done.stderr
    return first, second


def test_two_exports_of_the_same_run_are_byte_identical(exported):
    first, second = exported
    assert first.read_bytes() == second.read_bytes()


def test_report_is_self_contained(exported):
    html = exported[0].read_text()
    from plotly.offline import get_plotlyjs

    bundle = get_plotlyjs()
    assert bundle in html                         # Plotly's bundle, inlined whole
    page = html.replace(bundle, "")
    # no external resource: no src/href to a URL outside Plotly's own code, and a CSP that
    # forbids every fetch (the browser test opens it with the network cut off)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "default-src 'none'" in page


def test_report_manifest_names_what_the_run_was(exported, sim_db: Path):
    html = exported[0].read_text()
    con = duckdb.connect(str(sim_db), read_only=True)
    run_id, rules_hash, engine = con.execute(
        "SELECT run_id, rules_hash, engine_version FROM runs WHERE label = 'baseline'").fetchone()
    con.close()
    manifest = html[html.index('<table class="manifest">'):]
    manifest = manifest[:manifest.index("</table>")]
    for text in (run_id, rules_hash, engine, "glimmerdeep", "greedy,random,random,random",
                 f"{SIM_GAMES} stored of {SIM_GAMES} planned", "no differences from the base rules",
                 "run seed"):
        assert text in manifest, text
    # the figures: the same builders as the pages, with fixed ids in a fixed order
    ids = re.findall(r'<div class="figure" id="(fig-\d+)">', html)
    assert ids == [f"fig-{i}" for i in range(1, len(ids) + 1)] and len(ids) >= 10


def test_report_names_the_factions(exported):
    """Issue 31 (audit ux m5): the report's tables and figures name a faction as the rules do
    ('The Deepdelvers' -> 'Deepdelvers'), never by its id."""
    from plotly.offline import get_plotlyjs
    page = exported[0].read_text().replace(get_plotlyjs(), "")
    assert "Deepdelvers" in page
    assert not re.search(r'(>|")deepdelvers(<|")', page), "a faction id is shown"


def test_report_escapes_every_database_text(sim_db_copy: Path, tmp_path: Path):
    con = duckdb.connect(str(sim_db_copy))
    con.execute("UPDATE players SET faction = ? WHERE faction = 'gildtails'", [XSS])
    con.close()
    out = tmp_path / "xss.html"
    runs = sim_runs(sim_db_copy)
    from pipelines.store import Store  # the raw rows changed behind the writer: their aggregates too
    for run_id in runs.values():
        Store(sim_db_copy).rebuild_aggregates(run_id)
    done = _report(sim_db_copy, runs[XSS], "--vs", runs["baseline"], "-o", str(out))
    assert done.returncode == 0, done.stderr
    html = out.read_text()
    assert XSS not in html                         # never raw, in the page or the figure JSON
    assert html.count("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;") >= 2
    assert "\\u003cscript\\u003ealert(1)" in html   # inside the figures' JSON
    assert "Run B" in html and "Comparison" in html


def test_report_bad_input_names_the_culprit_and_writes_nothing(sim_db: Path, tmp_path: Path):
    out = tmp_path / "r.html"
    done = _report(sim_db, "no-such-run", "-o", str(out))
    assert done.returncode == 2 and "Unknown run 'no-such-run'" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()
    done = _report(sim_db, "latest", "-o", str(tmp_path / "missing" / "r.html"))
    assert done.returncode == 2 and "does not exist" in done.stderr
    run = sim_runs(sim_db)["baseline"]
    done = _report(sim_db, run, "--vs", run, "-o", str(out))
    assert done.returncode == 2 and "--vs names the same run" in done.stderr
    done = _report(tmp_path / "none.duckdb", "latest", "-o", str(out))
    assert done.returncode == 2 and "does not exist" in done.stderr and not out.exists()


def test_report_does_not_depend_on_the_physical_row_order(sim_db: Path, tmp_path: Path):
    """Byte-identical exports need order-independent aggregates: the same rows stored in the
    opposite order give the same file (sums of floats, the strength model's fit...)."""
    from dashboard.report.html import build_report

    copy = tmp_path / "reordered.duckdb"
    copy.write_bytes(sim_db.read_bytes())
    con = duckdb.connect(str(copy))
    for table, order in [("players", "game_id DESC, seat DESC"),
                         ("score_events", "game_id DESC, step DESC, seat DESC, category DESC"),
                         ("moves", "game_id DESC, step DESC"), ("games", "game_id DESC")]:
        con.execute(f"CREATE TABLE shuffled AS SELECT * FROM {table} ORDER BY {order}")
        con.execute(f"DROP TABLE {table}")
        con.execute(f"ALTER TABLE shuffled RENAME TO {table}")
    con.close()
    run = sim_runs(sim_db)["baseline"]
    assert build_report(str(copy), run) == build_report(str(sim_db), run)
