"""Background `delve` subprocesses started from a page (a paired run, an ablation).

The command is a list of arguments (no shell); the values in it come from validated widgets.
The process handle lives in the session, its output in a log file next to the database.
"""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from engine.core.rules import REPO_ROOT


@dataclass
class Job:
    kind: str
    args: list[str]
    log: Path
    proc: subprocess.Popen
    started: datetime
    info: dict = field(default_factory=dict)

    def returncode(self) -> int | None:
        return self.proc.poll()

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


def launch(kind: str, args: list[str], db: Path, info: dict | None = None) -> Job:
    """Start `python -m delve.cli ARGS` in the background (output to a log file)."""
    log = work_dir(db) / f"{kind}-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}.log"
    started = datetime.now(timezone.utc).replace(tzinfo=None, microsecond=0)
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "delve", *args], cwd=REPO_ROOT,
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    return Job(kind, args, log, proc, started, dict(info or {}))
