"""What `delve games` lists (id, title, player counts, factions, maps) for the built-in games,
kept in a small cache file so that listing the games does not import and validate them all.

Importing the four game packages costs about 0.75 s (their pydantic rules models, numpy); the
listing they produce depends only on Delve's own source and rules data.  The cache entry is keyed
by a hash of every file that can change it (`engine/**/*.py`, `data/rules/**/*.toml`, their
paths) and the Python version, so any edit recomputes it; a missing, unreadable or corrupt cache
file is recomputed too, and a cache directory that cannot be written is simply not used.

Where: `$DELVE_CACHE_DIR`, else `$XDG_CACHE_HOME/delve`, else `~/.cache/delve`."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable

# the checkout's root, as engine.core.rules.REPO_ROOT (not imported: it loads pydantic)
REPO_ROOT = Path(__file__).resolve().parents[2]

CACHE_FILE = "games-listing.json"
FORMAT = 1


@dataclass(frozen=True)
class GameListing:
    id: str
    title: str
    player_counts: tuple[int, ...]
    factions: tuple[str, ...]
    maps: tuple[str, ...]
    error: str | None = None      # the rules do not load: the error's text


def cache_dir() -> Path:
    if os.environ.get("DELVE_CACHE_DIR"):
        return Path(os.environ["DELVE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "delve"


def source_files(root: Path = REPO_ROOT) -> list[Path]:
    """The files a listing depends on: the engine's code and the rules data."""
    return sorted([*(root / "engine").rglob("*.py"), *(root / "data" / "rules").rglob("*.toml")])


def source_key(files: Iterable[Path], root: Path = REPO_ROOT) -> str:
    """A hash of the files' relative paths and contents and of the Python version."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{FORMAT}|{sys.version}".encode())
    for path in files:
        h.update(b"\0" + str(path.relative_to(root)).encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def _listed(games: dict) -> list[GameListing]:
    from .errors import DelveError
    rows = []
    for gid, game in sorted(games.items()):
        try:
            rules = game.load_rules().model
            factions, maps, error = tuple(game.factions(rules)), tuple(game.maps(rules)), None
        except DelveError as exc:
            factions, maps, error = (), (), str(exc)
        rows.append(GameListing(gid, game.title, tuple(game.player_counts), factions, maps, error))
    return rows


def compute_listing() -> list[GameListing]:
    """Import every built-in game and read its rules (the slow path)."""
    from .registry import builtin_games
    return _listed(builtin_games())


def _read(path: Path, key: str) -> list[GameListing] | None:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("key") != key:
            return None
        return [GameListing(r["id"], r["title"], tuple(r["player_counts"]), tuple(r["factions"]),
                            tuple(r["maps"]), r.get("error")) for r in doc["games"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write(path: Path, key: str, rows: list[GameListing]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".listing-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"key": key, "games": [asdict(r) for r in rows]}, fh)
        os.replace(tmp, path)       # atomic: a reader sees the old file or the new one
    except OSError:
        pass                        # no writable cache: list without one


def game_listing(*, use_cache: bool = True) -> list[GameListing]:
    """Every registered game's listing, by id: the built-in games from the cache when Delve's
    source and rules are unchanged, and any other game registered in this process (a
    plug-in's, a test's) read live."""
    from .registry import registered_elsewhere
    if use_cache:
        key = source_key(source_files())
        path = cache_dir() / CACHE_FILE
        rows = _read(path, key)
        if rows is None:
            rows = compute_listing()
            _write(path, key, rows)
    else:
        rows = compute_listing()
    return sorted(rows + _listed(registered_elsewhere()), key=lambda r: r.id)
