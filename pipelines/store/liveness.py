"""Liveness: is a `running` run still being written, or did its writer die?

A run's row records who writes it (`host`, `pid`) and a heartbeat (`heartbeat_at`, UTC) that
the writer refreshes every HEARTBEAT_S seconds while it works (pipelines/run/execute.py).  A
run whose status is `running` is **stalled** when its heartbeat is older than STALL_AFTER_S, or
at once when it was written on this host and its process is gone (a SIGKILL, a crash); the
database keeps `running` (the contract's statuses), the state is read, not written.  A resumed
run has a new writer and a fresh heartbeat, a finished one is `done` or `failed`: neither is
ever shown as stalled.  A run written by an older Delve (no heartbeat) stays `running`.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from datetime import datetime, timezone

HEARTBEAT_S = 5.0        # how often the writer refreshes the heartbeat
STALL_AFTER_S = 60.0     # no heartbeat for this long: the run is stalled


def now_utc() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def this_host() -> str:
    return socket.gethostname()


def writer_identity() -> dict:
    """The columns a writer stamps on the run it writes: host, pid and a first heartbeat."""
    return {"host": this_host(), "pid": os.getpid(), "heartbeat_at": now_utc()}


def pid_alive(pid: int) -> bool:
    """Whether process `pid` exists on this host (a zombie, killed but not yet reaped, is gone)."""
    import psutil
    try:
        return psutil.Process(int(pid)).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:  # someone else's process: it exists
        return True


@dataclass(frozen=True)
class Liveness:
    state: str                   # running, stalled, done, failed (or the stored status)
    since: datetime | None = None  # stalled: the last heartbeat
    reason: str = ""             # stalled: why ("process 123 on host h is gone", ...)

    @property
    def stalled(self) -> bool:
        return self.state == "stalled"

    @property
    def status(self) -> str:
        """The `runs.status` this state was read from (running and stalled are both
        `running`: the state is read, never written)."""
        return "running" if self.state in ("running", "stalled") else self.state


def liveness(row: dict, *, now: datetime | None = None, host: str | None = None,
             stall_after_s: float = STALL_AFTER_S) -> Liveness:
    """The state of a run's row (a mapping with status, host, pid, heartbeat_at)."""
    status = row.get("status") or "running"
    beat = row.get("heartbeat_at")
    if status != "running" or beat is None:
        return Liveness(status)
    now = now or now_utc()
    host = host or this_host()
    pid, writer_host = row.get("pid"), row.get("host")
    if writer_host == host and pid is not None and not pid_alive(pid):
        return Liveness("stalled", beat, f"its writer, process {pid} on {host}, is gone")
    age = (now - beat).total_seconds()
    if age > stall_after_s:
        return Liveness("stalled", beat, f"no heartbeat for {age:.0f} s (more than "
                                         f"{stall_after_s:.0f} s) from process {pid} on "
                                         f"{writer_host}")
    return Liveness("running")


def resume_hint(run_id: str, db=None) -> str:
    extra = f" --db {db}" if db else ""
    return f"`delve simulate --resume {run_id}{extra}`"


def stalled_text(run_id: str, live: Liveness, db=None) -> str:
    """'stalled since ..., resume with `delve simulate --resume RUN`' (with the reason)."""
    since = f"{live.since:%Y-%m-%d %H:%M:%S} UTC" if live.since else "?"
    return f"stalled since {since} ({live.reason}), resume with {resume_hint(run_id, db)}"
