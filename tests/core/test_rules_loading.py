"""Rules loading: typed, frozen, validated models; variants; --set overrides; hashing."""

import pytest
from pydantic import ValidationError

from engine.core.errors import RulesError
from engine.core.registry import get_game
from engine.core.rules import diff, parse_set


@pytest.fixture(scope="module")
def game():
    return get_game("glimmerdeep")


def test_base_rules_load_and_are_frozen(game):
    lr = game.load_rules()
    assert lr.model.game.rounds == 5
    with pytest.raises(ValidationError):
        lr.model.game.rounds = 6  # frozen


def test_hash_is_stable_and_changes_with_a_rule(game):
    a = game.load_rules().hash
    b = game.load_rules().hash
    c = game.load_rules(sets=["game.rounds=6"]).hash
    assert a == b and a != c and len(a) == 16


def test_set_override_is_typed(game):
    lr = game.load_rules(sets=["scoring.resources_per_vp.iron=4", "workshops.w01.vp=9"])
    assert lr.model.scoring.resources_per_vp["iron"] == 4
    assert lr.model.workshops[0].vp == 9
    changed = {p for p, _a, _b in diff(lr.base_doc, lr.doc)}
    assert changed == {"scoring.resources_per_vp.iron", "workshops.w01.vp"}


def test_set_unknown_path_names_the_argument(game):
    with pytest.raises(RulesError) as e:
        game.load_rules(sets=["game.roundz=6"])
    assert "--set game.roundz=6" in str(e.value) and "unknown path" in str(e.value)


def test_set_wrong_type_is_an_error(game):
    with pytest.raises(RulesError) as e:
        game.load_rules(sets=["game.rounds=\"five\""])
    assert "game.rounds" in str(e.value) and "--set" in str(e.value)


def test_negative_cost_is_an_error(game):
    with pytest.raises(RulesError) as e:
        game.load_rules(sets=["workshops.0.cost.iron=-1"])
    msg = str(e.value)
    assert "workshops.0.cost.iron" in msg and "greater than or equal to 0" in msg


def test_variant_patch_merges_by_id(game, tmp_path):
    v = tmp_path / "cheap.toml"
    v.write_text('[[workshops]]\nid = "w02"\nvp = 7\n\n[game]\nrounds = 4\n')
    lr = game.load_rules(variants=[v])
    assert lr.model.game.rounds == 4
    w02 = next(w for w in lr.model.workshops if w.id == "w02")
    assert w02.vp == 7 and len(lr.model.workshops) == 35


def test_variant_unknown_key_names_file_and_field(game, tmp_path):
    v = tmp_path / "typo.toml"
    v.write_text("[game]\nroundz = 4\n")
    with pytest.raises(RulesError) as e:
        game.load_rules(variants=[v])
    assert str(v) in str(e.value) and "game.roundz" in str(e.value) and "unknown key" in str(e.value)


def test_variant_toml_syntax_error_has_line(game, tmp_path):
    v = tmp_path / "broken.toml"
    v.write_text("[game]\nrounds = 4\nbroken = = 3\n")
    with pytest.raises(RulesError) as e:
        game.load_rules(variants=[v])
    assert str(v) in str(e.value) and "line 3" in str(e.value)


def test_variant_wrong_type_names_file(game, tmp_path):
    v = tmp_path / "wrong.toml"
    v.write_text('[market]\nslots = "four"\n')
    with pytest.raises(RulesError) as e:
        game.load_rules(variants=[v])
    assert str(v) in str(e.value) and "market.slots" in str(e.value)


def test_parse_set_values():
    assert parse_set("a.b=3") == (["a", "b"], 3)
    assert parse_set("a=[1, 2]") == (["a"], [1, 2])
    assert parse_set("a=word") == (["a"], "word")
    with pytest.raises(RulesError):
        parse_set("novalue")


def test_every_entry_says_where_it_came_from(game):
    """DESIGN.md: every entry is marked source = "rulebook" or "assumed"."""
    rules = game.load_rules().model
    for group in (rules.workshops, rules.forges, rules.maps, rules.shapes, rules.solo_cards):
        assert all(e.source in ("rulebook", "assumed") for e in group)
    assert len(rules.workshops) == 35 and len(rules.forges) == 35  # Components
    assert len(rules.solo_cards) == 16


def test_a_rules_error_survives_pickling_as_in_a_worker_process():
    """A rules error raised in a joblib/Dask worker is pickled back to the parent: it must
    arrive as itself, naming the file and field (it used to fail to unpickle)."""
    import pickle
    from engine.core.errors import RulesError
    err = pickle.loads(pickle.dumps(RulesError("game.toml", "fights.loss", "a boolean")))
    assert isinstance(err, RulesError)
    assert (err.source, err.field, err.expected) == ("game.toml", "fights.loss", "a boolean")
    assert str(err) == "Invalid rules in game.toml, field 'fights.loss': a boolean"
