"""The dashboard's one background-query mechanism: a small pool of worker threads with two
lanes.  The *page* lane runs the independent queries a page starts before it draws (so they
overlap with its own work); the *prefetch* lane warms the cache with the analyses of the
other pages while the designer reads this one, and only runs when no page query is waiting.

DuckDB releases the GIL, so queries in these threads overlap with the page's Python work.
A job's error is kept in its future; the callers (``core.start``, ``ui.prefetch``) drop it on
purpose: the page's own call reruns the query and reports the problem kindly.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

#: Worker threads shared by both lanes.
WORKERS = 2
PAGE, PREFETCH = 0, 1          # lanes: lower runs first

_jobs: queue.PriorityQueue = queue.PriorityQueue()
_order = itertools.count()
_threads: list[threading.Thread] = []
_lock = threading.Lock()
_idle = threading.Condition(_lock)
_pending = 0


def submit(lane: int, fn: Callable[..., Any], *args: Any) -> Future:
    """Run ``fn(*args)`` in the background in ``lane`` (PAGE or PREFETCH); FIFO within a lane."""
    global _pending
    future: Future = Future()
    with _lock:
        _pending += 1
        while len(_threads) < WORKERS:
            t = threading.Thread(target=_work, daemon=True, name=f"delve-query-{len(_threads)}")
            _threads.append(t)
            t.start()
    _jobs.put((lane, next(_order), fn, args, future))
    return future


def _work() -> None:
    global _pending
    while True:
        _lane, _n, fn, args, future = _jobs.get()
        try:
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args))
                except Exception as exc:  # noqa: BLE001 - see the module docstring
                    future.set_exception(exc)
        finally:
            with _lock:
                _pending -= 1
                if _pending == 0:
                    _idle.notify_all()


def wait_idle(timeout: float | None = None) -> bool:
    """Wait until no job is queued or running (tests, benchmarks); True when idle."""
    with _lock:
        return _idle.wait_for(lambda: _pending == 0, timeout)
