"""Issue 17: `delve dashboard` is safe to leave running.  Real processes, real signals, real
ports: a SIGTERM, SIGINT or SIGHUP to `delve dashboard` (what a service manager, a terminal or
a multiplexer sends) stops Streamlit with it and frees the port; a SIGKILL of the parent does
too (Linux: the child's parent-death signal); the exit status is Streamlit's; the server
listens on 127.0.0.1 unless --host says otherwise."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from servefix import (answers, dashboard, free_port, gone, listening, other_address, port_free,
                      streamlit_child)

STOP_WITHIN_S = 10


def _wait_gone(pids, within=STOP_WITHIN_S) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if all(gone(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def _wait_port_free(port, within=STOP_WITHIN_S) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if port_free(port):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP],
                         ids=["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_to_delve_dashboard_stops_streamlit_and_frees_the_port(tmp_path, sig):
    port = free_port()
    log = tmp_path / "dashboard.log"
    with dashboard(tmp_path / "x.duckdb", port, log=log) as proc:
        child = streamlit_child(proc)
        os.kill(proc.pid, sig)                 # the parent only, as a process manager does
        rc = proc.wait(timeout=STOP_WITHIN_S)
        assert _wait_gone([child.pid]), "Streamlit was left running without its parent"
        assert _wait_port_free(port), f"port {port} still taken"
        assert not answers("127.0.0.1", port)
    assert rc == 0, log.read_text()            # Streamlit's own status: a clean shutdown


def test_sigkill_of_delve_dashboard_takes_streamlit_down_too(tmp_path):
    port = free_port()
    log = tmp_path / "dashboard.log"
    with dashboard(tmp_path / "x.duckdb", port, log=log) as proc:
        child = streamlit_child(proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=STOP_WITHIN_S)
        assert _wait_gone([child.pid]), "Streamlit outlived its SIGKILLed parent"
        assert _wait_port_free(port)


def test_the_exit_status_is_the_childs(tmp_path):
    """serve_child forwards the signal and returns the child's own exit code (7 here)."""
    child = ("import signal, sys, time\n"
             "signal.signal(signal.SIGTERM, lambda *a: sys.exit(7))\n"
             "print('ready', flush=True)\n"
             "time.sleep(60)\n")
    parent = ("import sys; from delve.cli.serve import serve_child\n"
              f"sys.exit(serve_child([sys.executable, '-c', {child!r}], dict(__import__('os').environ)))")
    proc = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        os.kill(proc.pid, signal.SIGHUP)
        assert proc.wait(timeout=STOP_WITHIN_S) == 7
    finally:
        if proc.poll() is None:
            proc.kill()


def test_it_listens_on_loopback_by_default(tmp_path):
    port = free_port()
    log = tmp_path / "dashboard.log"
    with dashboard(tmp_path / "x.duckdb", port, log=log) as proc:
        child = streamlit_child(proc)
        assert listening(child.pid, port) == {"127.0.0.1"}
        other = other_address()
        if other:
            assert not answers(other, port), f"reachable on {other}"
    text = log.read_text()
    assert "http://127.0.0.1:" in text and "Network URL" not in text
    assert "launching runs from the pages is on" in text


def test_host_shares_it_on_the_network_with_launching_off(tmp_path):
    port = free_port()
    log = tmp_path / "dashboard.log"
    with dashboard(tmp_path / "x.duckdb", port, "--host", "0.0.0.0", log=log) as proc:
        child = streamlit_child(proc)
        assert listening(child.pid, port) == {"0.0.0.0"}
        other = other_address()
        if other:
            assert answers(other, port)
        env = child.environ()
        assert env["DELVE_HOST"] == "0.0.0.0" and env["DELVE_ALLOW_LAUNCH"] == "0"
    assert "launching runs from the pages is off (--allow-launch turns it on)" in log.read_text()


def test_dashboard_options_reach_the_pages(cli, tmp_path, monkeypatch):
    """--host, --allow-launch, --max-launches, --backend/--scheduler are passed to Streamlit
    and to the pages (the environment); a bad combination is a user error."""
    from delve.cli import serve
    calls = []
    monkeypatch.setattr(serve, "serve_child", lambda cmd, env: calls.append((cmd, env)) or 0)
    res = cli("dashboard", "--db", tmp_path / "x.duckdb", "--host", "0.0.0.0", "--allow-launch",
              "--max-launches", 3, "--backend", "dask", "--scheduler", "tcp://10.0.0.5:8786")
    assert res.exit_code == 0, res.output
    (cmd, env), = calls
    assert cmd[cmd.index("--server.address") + 1] == "0.0.0.0"
    assert (env["DELVE_ALLOW_LAUNCH"], env["DELVE_MAX_LAUNCHES"]) == ("1", "3")
    assert (env["DELVE_LAUNCH_BACKEND"], env["DELVE_LAUNCH_SCHEDULER"]) == (
        "dask", "tcp://10.0.0.5:8786")
    from dashboard.settings import serve_settings
    s = serve_settings(env)
    assert (s.host, s.allow_launch, s.max_launches, s.backend) == ("0.0.0.0", True, 3, "dask")
    assert s.launch_off_reason() is None
    assert serve_settings({"DELVE_HOST": "0.0.0.0", "DELVE_ALLOW_LAUNCH": "0"}).launch_off_reason()
    res = cli("dashboard", "--db", tmp_path / "x.duckdb", "--scheduler", "tcp://h:1")
    assert res.exit_code == 2 and "--backend dask" in res.stderr
