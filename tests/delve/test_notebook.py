"""Issue 18: examples/balance_walkthrough.ipynb runs top to bottom in a real Jupyter kernel
(nbclient, ipykernel) on a small batch, and its outputs say what the walkthrough promises."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "examples" / "balance_walkthrough.ipynb"


def _outputs(cell) -> tuple[str, set[str]]:
    """A cell's printed and displayed text, and the mime types it displayed."""
    text, mimes = [], set()
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            text.append(out.get("text", ""))
        for mime, value in (out.get("data") or {}).items():
            mimes.add(mime)
            if mime in ("text/plain", "text/html"):
                text.append(value if isinstance(value, str) else json.dumps(value))
    return "".join(text), mimes


def _cell(nb, starts: str):
    return next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith(starts))


def test_the_walkthrough_runs_in_a_real_kernel(tmp_path, monkeypatch):
    db = tmp_path / "walkthrough.duckdb"
    monkeypatch.setenv("DELVE_WALKTHROUGH_GAMES", "16")
    monkeypatch.setenv("DELVE_WALKTHROUGH_JOBS", "1")
    monkeypatch.setenv("DELVE_WALKTHROUGH_DB", str(db))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(REPO)}}).execute()
    assert all(o.get("output_type") != "error" for c in nb.cells if c.cell_type == "code"
               for o in c.outputs)

    text, mimes = _outputs(_cell(nb, "base = api.simulate("))
    assert "application/vnd.jupyter.widget-view+json" in mimes      # tqdm's notebook bar
    assert "Run('glimmerdeep-" in text

    text, _ = _outputs(_cell(nb, "rates = base.faction_rates()"))
    for faction in ("deepdelvers", "dustwhiskers", "forgeburrowers", "gemwardens", "gildtails",
                    "ironclads", "nightbarons", "shellwrights"):
        assert faction in text

    text, _ = _outputs(_cell(nb, "for sentence in base.findings()"))
    lines = [ln for ln in text.splitlines() if ln.startswith("- ")]
    assert lines and all("16 games" in ln or "games would" in ln for ln in lines), lines
    assert any("fair 25%" in ln for ln in lines)
    assert any("played by greedy bots" in ln for ln in lines), lines   # who played them

    text, _ = _outputs(_cell(nb, "cmp = api.compare(base, changed)"))
    assert "paired: True" in text and "ironclads" in text

    for starts in ('base.figure("faction_win_rates")', "api.diff_figure(cmp)"):
        assert "application/vnd.plotly.v1+json" in _outputs(_cell(nb, starts))[1], starts

    text, _ = _outputs(_cell(nb, 'players = base.table("players")'))
    assert "(64, " in text                                           # 16 games x 4 seats
    text, _ = _outputs(_cell(nb, "db.runs()"))
    assert "shape: (2, 6)" in text and text.count("&quot;done&quot;") == 2   # both runs, done

    text, _ = _outputs(_cell(nb, 'pid = db.import_playtests('))          # issue 30
    assert "pt-glimmerdeep-" in text and "look most like greedy" in text, text
