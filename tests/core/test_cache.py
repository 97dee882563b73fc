"""engine/core/cache.py: the bounded memos the games keep per rules (values are pure functions
of their keys, so a memo that empties itself when full changes no result, only speed)."""

from engine.core.cache import PerRulesCache, remember


def test_remember_stores_and_returns_the_value_and_empties_a_full_memo_first():
    memo: dict = {}
    assert remember(memo, "a", 1, size=2) == 1
    assert remember(memo, "b", 2, size=2) == 2
    assert memo == {"a": 1, "b": 2}
    assert remember(memo, "c", 3, size=2) == 3      # full: emptied, then stored
    assert memo == {"c": 3}


def test_per_rules_cache_builds_once_per_rules_object_and_key():
    built = []

    def build(rules, key):
        built.append((rules, key))
        return (rules["name"], key)

    cache = PerRulesCache(build, size=2)
    r1, r2 = {"name": "r1"}, {"name": "r2"}
    assert cache(r1, 4) == ("r1", 4)
    assert cache(r1, 4) == ("r1", 4)
    assert cache(r2, 4) == ("r2", 4)
    assert len(built) == 2
    cache(r1, 3)                                    # full: emptied, then built
    assert len(cache.entries) == 1
