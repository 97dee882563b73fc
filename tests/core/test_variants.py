"""The example variants in data/variants/ load and change what they say."""

from pathlib import Path

import pytest

from engine.core.registry import all_games
from engine.core.rules import REPO_ROOT, diff

VARIANTS = sorted((REPO_ROOT / "data" / "variants").glob("*/*.toml"))


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_variant_loads_and_changes_something(path: Path):
    game = all_games()[path.parent.name]
    lr = game.load_rules(variants=[path])
    assert diff(lr.base_doc, lr.doc)
    assert lr.hash != game.load_rules().hash
