"""Issue 16: `delve games` answers at once.  The listing is cached by a hash of the engine's
code and the rules data, so a warm `delve games` imports no game (no pydantic, no numpy) and a
change to any source or rules file recomputes it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.core import listing
from engine.core.listing import GameListing, compute_listing, game_listing, source_key

PROBE = """
import json, sys, time
t0 = time.process_time()
from delve.cli import main
try:
    main(["games"], standalone_mode=False)
except SystemExit:
    pass
cpu = time.process_time() - t0
print(json.dumps({"cpu": cpu, "modules": sorted(sys.modules)}))
"""


def _delve_games(cache: Path) -> tuple[list[str], dict]:
    env = {**os.environ, "DELVE_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    *lines, probe = done.stdout.strip().splitlines()
    return lines, json.loads(probe)


def test_the_listing_names_every_builtin_game_with_its_factions_and_maps():
    rows = {r.id: r for r in compute_listing()}
    assert set(rows) == {"glimmerdeep", "underhaven", "underwater_cities", "cave_colony"}
    gd = rows["glimmerdeep"]
    assert gd.title == "Glimmerdeep" and gd.player_counts == (1, 2, 3, 4) and gd.error is None
    assert "ironclads" in gd.factions and "trade_routes" in gd.maps


def test_a_warm_delve_games_imports_no_game_and_prints_the_same_table(tmp_path):
    cold_lines, cold = _delve_games(tmp_path)
    assert "engine.games.glimmerdeep" in cold["modules"]        # the first call computes
    assert (tmp_path / listing.CACHE_FILE).is_file()
    warm_lines, warm = _delve_games(tmp_path)
    assert warm_lines == cold_lines
    loaded = set(warm["modules"])
    assert not {m for m in loaded if m.startswith("engine.games")}, "a game was imported"
    assert not {"pydantic", "numpy"} & loaded
    assert warm["cpu"] < 0.3, warm["cpu"]


def test_a_changed_source_or_rules_file_changes_the_key(tmp_path):
    (tmp_path / "engine").mkdir()
    (tmp_path / "data" / "rules" / "g").mkdir(parents=True)
    code, data = tmp_path / "engine" / "a.py", tmp_path / "data" / "rules" / "g" / "r.toml"
    code.write_text("x = 1\n")
    data.write_text("rounds = 5\n")
    key = source_key(listing.source_files(tmp_path), tmp_path)
    data.write_text("rounds = 6\n")
    assert source_key(listing.source_files(tmp_path), tmp_path) != key
    data.write_text("rounds = 5\n")
    assert source_key(listing.source_files(tmp_path), tmp_path) == key
    code.rename(tmp_path / "engine" / "b.py")                   # a renamed module counts too
    assert source_key(listing.source_files(tmp_path), tmp_path) != key


def test_a_stale_or_corrupt_cache_is_recomputed_and_rewritten(tmp_path, monkeypatch):
    monkeypatch.setenv("DELVE_CACHE_DIR", str(tmp_path))
    path = tmp_path / listing.CACHE_FILE
    path.write_text("{not json")
    fresh = game_listing()
    builtin = compute_listing()
    assert [r for r in fresh if r in builtin] == builtin   # (a test may register more games)
    assert json.loads(path.read_text())["key"] == source_key(listing.source_files())
    stale = {"key": "old", "games": [{"id": "ghost", "title": "Ghost", "player_counts": [2],
                                      "factions": [], "maps": []}]}
    path.write_text(json.dumps(stale))
    assert [r.id for r in game_listing()] == [r.id for r in fresh]   # never the stale entry


def test_an_unwritable_cache_directory_still_lists(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("DELVE_CACHE_DIR", str(blocker / "sub"))    # cannot be created
    rows = game_listing()
    assert rows and all(isinstance(r, GameListing) for r in rows)


def test_a_game_registered_in_the_process_is_listed_beside_the_cached_ones(tmp_path, monkeypatch):
    from dataclasses import replace

    from engine.core import registry
    monkeypatch.setenv("DELVE_CACHE_DIR", str(tmp_path))
    game_listing()                                   # the cache holds the built-in games
    gd = registry.get_game("glimmerdeep")

    def new_game(*a, **k):                           # not a built-in module
        return gd.new_game(*a, **k)
    plugin = replace(gd, id="plugin_game", title="Plug-in", new_game=new_game)
    monkeypatch.setitem(registry._GAMES, "plugin_game", plugin)
    rows = {r.id: r for r in game_listing()}
    assert rows["plugin_game"].title == "Plug-in"     # (no rules data: listed with its error)
    assert "plugin_game" in rows["plugin_game"].error
    assert "glimmerdeep" in rows and list(rows) == sorted(rows)
