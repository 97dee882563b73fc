"""Helpers of the service tests: a real `delve dashboard` process on a free port, its Streamlit
child, and what listens where."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_free(port: int, host: str = "0.0.0.0") -> bool:
    """Whether `port` can be bound again (nothing listens on it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def answers(host: str, port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/_stcore/health", timeout=2) as resp:
            return resp.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return False


def other_address() -> str | None:
    """An IPv4 address of this machine that is not loopback (None if it has none)."""
    for addrs in psutil.net_if_addrs().values():
        for a in addrs:
            if a.family == socket.AF_INET and not a.address.startswith("127."):
                return a.address
    return None


def start_dashboard(db: Path, port: int, *extra: str, log: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DELVE_")}
    with log.open("w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "delve", "dashboard", "--db", str(db), "--port", str(port),
             *extra], cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True)


def wait_healthy(proc: subprocess.Popen, port: int, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"delve dashboard exited {proc.returncode}:\n{log.read_text()}"
        if answers("127.0.0.1", port):
            return
        time.sleep(0.2)
    raise AssertionError(f"the dashboard did not answer within {START_TIMEOUT_S}s:\n"
                         f"{log.read_text()}")


def streamlit_child(proc: subprocess.Popen) -> psutil.Process:
    kids = [c for c in psutil.Process(proc.pid).children(recursive=True)
            if "streamlit" in " ".join(c.cmdline())]
    assert len(kids) == 1, kids
    return kids[0]


def listening(pid: int, port: int) -> set[str]:
    """The addresses process `pid` listens on at `port`."""
    return {c.laddr.ip for c in psutil.Process(pid).net_connections(kind="tcp")
            if c.status == psutil.CONN_LISTEN and c.laddr.port == port}


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


@contextmanager
def dashboard(db: Path, port: int, *extra: str, log: Path):
    """A running `delve dashboard`; stopped (its whole session) afterwards whatever happened."""
    proc = start_dashboard(db, port, *extra, log=log)
    try:
        wait_healthy(proc, port, log)
        yield proc
    finally:
        if proc.poll() is None:
            with _suppress():
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with _suppress():
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        with _suppress():
            os.killpg(proc.pid, signal.SIGKILL)  # anything left in its session


@contextmanager
def _suppress():
    try:
        yield
    except (ProcessLookupError, PermissionError):
        pass
