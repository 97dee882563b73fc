"""Runs launched from the pages (a paired run, an ablation, a resume): one queue per server.

Every launch goes through `launch_queue()`, one queue shared by every session of this Streamlit
server, with a limit on how many play at once (`delve dashboard --max-launches N`, default 1);
the others wait, in order.  A job is a background `python -m delve ARGS` process (a list of
arguments, no shell; the values come from validated widgets), in a session of its own, its
output in a log file next to the database.  Cancelling a queued job drops it; cancelling a
running one sends it SIGTERM, which a run handles like Ctrl-C: the games completed are written
(each whole), the run is marked failed "interrupted (resumable)", `delve simulate --resume`
finishes it.  When the server stops, its running jobs are stopped the same way.  With
`delve dashboard --backend dask --scheduler ADDR` the launched simulations play on that cluster.
"""

from __future__ import annotations

import atexit
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from engine.core.rules import REPO_ROOT

from .settings import serve_settings

STATES = ("queued", "running", "cancelling", "done", "failed", "cancelled")
STOP_TIMEOUT_S = 15.0


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None, microsecond=0)


@dataclass
class Job:
    kind: str
    args: list[str]
    log: Path
    db: Path
    info: dict = field(default_factory=dict)
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    submitted: datetime = field(default_factory=_now)
    started: datetime | None = None
    finished: datetime | None = None
    proc: subprocess.Popen | None = None
    state: str = "queued"
    rc: int | None = None

    def returncode(self) -> int | None:
        """The exit code once the job has ended (None while queued or running)."""
        return self.rc if self.state in ("done", "failed", "cancelled") else None

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running", "cancelling")

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def describe(self) -> str:
        return self.info.get("title") or f"{self.kind}: {' '.join(self.args[:3])}"

    def log_tail(self, n: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""


def work_dir(db: Path) -> Path:
    """Where the pages keep their variant files and logs: next to the database."""
    d = Path(db).resolve().parent / "whatif"
    d.mkdir(parents=True, exist_ok=True)
    return d


class LaunchQueue:
    """Jobs in submission order; at most `limit` run at once.  Thread-safe: the sessions of
    the server submit and cancel, a dispatcher thread starts and reaps."""

    def __init__(self, limit: int = 1, backend: str = "loky", scheduler: str = "",
                 poll_s: float = 0.25):
        self.limit = max(1, int(limit))
        self.backend, self.scheduler = backend, scheduler
        self._jobs: list[Job] = []
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._poll_s = poll_s
        self._thread = threading.Thread(target=self._loop, name="delve-launch-queue",
                                        daemon=True)
        self._thread.start()

    # -- the sessions' side ------------------------------------------------------------------
    def submit(self, kind: str, args: list[str], db: Path, info: dict | None = None) -> Job:
        log = work_dir(db) / f"{kind}-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}.log"
        job = Job(kind, self._with_backend(list(args)), log, Path(db), dict(info or {}))
        with self._lock:
            self._jobs.append(job)
            self._pump()
        return job

    def cancel(self, job_id: str) -> bool:
        """Drop a queued job, or stop a running one (SIGTERM: it keeps what it completed and
        is resumable).  False if the job is not active."""
        with self._lock:
            job = self.get(job_id)
            if job is None or not job.active:
                return False
            if job.state == "queued":
                job.state, job.finished = "cancelled", _now()
            elif job.state == "running":
                job.state = "cancelling"
                _signal(job.proc, signal.SIGTERM)
            self._pump()
            return True

    def jobs(self) -> list[Job]:
        with self._lock:
            self._pump()
            return list(self._jobs)

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return next((j for j in self._jobs if j.id == job_id), None)

    def position(self, job: Job) -> int:
        """1 for the next queued job to start, 2 for the one after..."""
        with self._lock:
            queued = [j for j in self._jobs if j.state == "queued"]
            return queued.index(job) + 1 if job in queued else 0

    def running(self) -> int:
        with self._lock:
            return sum(j.state in ("running", "cancelling") for j in self._jobs)

    # -- the dispatcher ----------------------------------------------------------------------
    def _with_backend(self, args: list[str]) -> list[str]:
        """Launched simulations play on the configured Dask cluster."""
        if self.backend == "dask" and args and args[0] == "simulate" and "--backend" not in args:
            args += ["--backend", "dask"]
            if self.scheduler:
                args += ["--scheduler", self.scheduler]
        return args

    def _loop(self) -> None:
        while not self._stop.wait(self._poll_s):
            with self._lock:
                self._pump()

    def _pump(self) -> None:
        for job in self._jobs:
            if job.state in ("running", "cancelling") and job.proc.poll() is not None:
                job.rc = job.proc.returncode
                job.finished = _now()
                job.state = ("cancelled" if job.state == "cancelling"
                             else "done" if job.rc == 0 else "failed")
        free = self.limit - sum(j.state in ("running", "cancelling") for j in self._jobs)
        for job in self._jobs:
            if free <= 0:
                break
            if job.state == "queued":
                self._start(job)
                free -= 1

    def _start(self, job: Job) -> None:
        job.started = _now()
        try:
            with open(job.log, "wb") as out:
                job.proc = subprocess.Popen(
                    [sys.executable, "-m", "delve", *job.args], cwd=REPO_ROOT, stdout=out,
                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    start_new_session=True)  # a terminal's Ctrl-C reaches the server, not it
            job.state = "running"
        except OSError as exc:
            job.state, job.rc, job.finished = "failed", -1, _now()
            with open(job.log, "a") as out:
                out.write(f"could not start: {exc}\n")

    def shutdown(self, timeout: float = STOP_TIMEOUT_S) -> None:
        """Stop the dispatcher, drop the queued jobs and stop the running ones (resumable)."""
        self._stop.set()
        with self._lock:
            procs = []
            for job in self._jobs:
                if job.state == "queued":
                    job.state, job.finished = "cancelled", _now()
                elif job.state in ("running", "cancelling"):
                    _signal(job.proc, signal.SIGTERM)
                    job.state = "cancelling"
                    procs.append(job.proc)
        deadline = time.monotonic() + timeout
        for proc in procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal(proc, signal.SIGKILL)
        with self._lock:
            self._pump()


def _signal(proc: subprocess.Popen | None, sig: int) -> None:
    if proc is not None and proc.poll() is None:
        try:
            proc.send_signal(sig)
        except ProcessLookupError:
            pass


_QUEUE: LaunchQueue | None = None
_QUEUE_LOCK = threading.Lock()


def launch_queue() -> LaunchQueue:
    """The server's one queue (created on first use from `delve dashboard`'s settings)."""
    global _QUEUE
    with _QUEUE_LOCK:
        if _QUEUE is None:
            s = serve_settings()
            _QUEUE = LaunchQueue(s.max_launches, s.backend, s.scheduler)
            atexit.register(_QUEUE.shutdown)
        return _QUEUE


def launch(kind: str, args: list[str], db: Path, info: dict | None = None) -> Job:
    """Queue `python -m delve ARGS` (it starts when a slot is free)."""
    return launch_queue().submit(kind, args, db, info)
