"""`delve bench` prints a table with ratios; `delve dashboard` launches Streamlit on the db."""

from __future__ import annotations

import sys


def test_bench_prints_costs_and_ratios(cli):
    res = cli("bench", "--game", "toy", "--games", 4, "--players", 3)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "us/decision" in out and "games/s" in out
    rows = [line for line in out.splitlines() if line.startswith(("random ", "greedy "))]
    assert len(rows) == 8  # 2 bots x logging on/off x 1 and 2 workers
    for needle in ("greedy / random", "logging on / off", "2 workers / 1 worker"):
        assert needle in out
    assert "x  " in out


def test_bench_unknown_game_is_a_user_error(cli):
    res = cli("bench", "--game", "nope")
    assert res.exit_code == 2 and "nope" in res.stderr


def test_dashboard_runs_streamlit_with_the_db(cli, tmp_path, monkeypatch):
    calls = []

    def fake_serve(cmd, env):
        calls.append((cmd, env))
        return 0
    from delve.cli import serve
    monkeypatch.setattr(serve, "serve_child", fake_serve)
    from engine.core.rules import REPO_ROOT
    if not (REPO_ROOT / "dashboard" / "app.py").is_file():
        import pytest
        pytest.skip("dashboard/app.py is not written yet")
    db = tmp_path / "x.duckdb"
    res = cli("dashboard", "--db", db, "--port", 8599)
    assert res.exit_code == 0, res.output
    (cmd, env), = calls
    assert cmd[:4] == [sys.executable, "-m", "streamlit", "run"]
    assert cmd[4].endswith("dashboard/app.py")
    assert cmd[cmd.index("--server.port") + 1] == "8599"
    assert cmd[cmd.index("--server.headless") + 1] == "true"
    assert cmd[-3:] == ["--", "--db", str(db.resolve())]
    assert env["DELVE_DB"] == str(db.resolve())
    assert cmd[cmd.index("--server.address") + 1] == "127.0.0.1"  # this machine only
