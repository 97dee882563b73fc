"""The What-if form over the rules model (pipelines.lab.rules_form): fields come from the pydantic
model with their types and constraints; changes become a TOML patch that loads like a variant
file; values are parsed as TOML, never evaluated; errors name the path."""

from __future__ import annotations

import tomllib

import pytest

import toygame
from engine.core.errors import RulesError
from engine.core.rules import diff
from pipelines.lab import rules_form as rf

from pipeline_helpers import glimmerdeep_ready


def _doc():
    return toygame.GAME.load_rules().model.model_dump(mode="json")


def test_fields_follow_the_model():
    doc = _doc()
    assert rf.sections(toygame.ToyRules) == ["game", "costs", "factions", "maps"]
    assert rf.entries(toygame.ToyRules, doc, "factions") == ["moles", "badgers", "voles"]
    assert rf.entries(toygame.ToyRules, doc, "costs") == []
    leaves = {l.dotted: l for l in rf.leaves(toygame.ToyRules, doc, "costs")}
    assert leaves["costs.build"].kind == "int" and leaves["costs.build"].value == 3
    assert leaves["costs.build"].hint == "≥ 0"
    bonus = rf.leaves(toygame.ToyRules, doc, "factions", "voles")
    assert [l.dotted for l in bonus] == ["factions.voles.bonus"]   # ids are not knobs


def test_patch_round_trips_through_the_variant_loader(tmp_path):
    doc = _doc()
    patch = rf.build_patch(doc, {("factions", "voles", "bonus"): 5, ("game", "rounds"): 6})
    text = rf.to_toml(patch, "test")
    assert tomllib.loads(text) == {"factions": [{"id": "voles", "bonus": 5}], "game": {"rounds": 6}}
    f = tmp_path / "v.toml"
    f.write_text(text)
    loaded = toygame.GAME.load_rules(variants=(str(f),))
    assert diff(loaded.base_doc, loaded.doc) == [("factions.voles.bonus", 0, 5), ("game.rounds", 4, 6)]


def test_invalid_patch_names_the_path(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text(rf.to_toml(rf.build_patch(_doc(), {("costs", "build"): -2})))
    with pytest.raises(RulesError) as err:
        toygame.GAME.load_rules(variants=(str(f),))
    assert err.value.field == "costs.build"


def test_text_values_are_parsed_as_toml_never_evaluated():
    leaf = rf.Leaf(("objectives", "table"), "toml", [1, 2])
    assert rf.parse_value(leaf, "[1, 2, 3]") == [1, 2, 3]
    with pytest.raises(RulesError) as err:
        rf.parse_value(leaf, "__import__('os').system('false')")
    assert err.value.field == "objectives.table"
    assert rf.toml_value({"a b": "x\"y"}) == '{ "a b" = "x\\"y" }'


@pytest.mark.skipif(not glimmerdeep_ready(), reason="glimmerdeep not registered")
def test_glimmerdeep_form_covers_nested_collections():
    from engine.core.registry import get_game
    g = get_game("glimmerdeep")
    doc = g.load_rules().model.model_dump(mode="json")
    leaves = {l.dotted: l for l in rf.leaves(g.rules_model, doc, "workshops", "w02")}
    assert leaves["workshops.w02.cost.iron"].kind == "int"
    market = {l.dotted: l for l in rf.leaves(g.rules_model, doc, "market")}
    assert market["market.extra_costs"].kind == "toml"
    facs = {l.dotted: l for l in rf.leaves(g.rules_model, doc, "factions", "ironclads")}
    assert "factions.ironclads.traits.ironclads_1r.params" in facs
    assert facs["factions.ironclads.traits.ironclads_1l.side"].kind == "choice"


GAMES = ("glimmerdeep", "underhaven", "underwater_cities", "cave_colony")


def _all_leaves(game, doc):
    for section in rf.sections(game.rules_model):
        for entry in rf.entries(game.rules_model, doc, section) or [None]:
            yield from rf.leaves(game.rules_model, doc, section, entry)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rules_value_of_every_game_round_trips_through_a_variant_file(game_id, tmp_path):
    """The What-if form shows every value of every game, empty ones included (issue 31: the page
    raised 'None: cannot be written as TOML' for Underwater Cities, Underhaven and the cave game):
    each field's text parses back to its value, and a variant file setting every value to itself
    loads to the same rules."""
    from engine.core.registry import get_game
    game = get_game(game_id)
    doc = game.load_rules().model.model_dump(mode="json")
    leaves = list(_all_leaves(game, doc))
    empty = [leaf for leaf in leaves if leaf.value is None]
    if game_id != "glimmerdeep":
        assert empty, "the game has no empty value: the test lost its subject"
    for leaf in leaves:
        if leaf.kind in ("toml", "str"):
            assert rf.parse_value(leaf, rf.text_of(leaf, leaf.value)) == leaf.value, leaf.dotted
        else:
            assert rf.parse_value(leaf, leaf.value) == leaf.value, leaf.dotted
    assert all(leaf.optional for leaf in empty)
    patch = rf.build_patch(doc, {leaf.path: leaf.value for leaf in leaves if leaf.value is not None})
    f = tmp_path / "all.toml"
    f.write_text(rf.to_toml(patch, f"every value of {game_id}"))
    loaded = game.load_rules(variants=(str(f),))
    assert diff(doc, loaded.model.model_dump(mode="json")) == []


def test_an_empty_value_stays_unset_and_cannot_be_unset_by_a_variant():
    leaf = rf.Leaf(("tiles", "four_way", "gem"), "choice", None, ("red", "blue"), optional=True)
    assert rf.parse_value(leaf, None) is None and rf.text_of(leaf, None) == ""
    with pytest.raises(RulesError) as err:
        rf.build_patch({"tiles": {"four_way": {"gem": "red"}}}, {("tiles", "four_way", "gem"): None})
    assert err.value.field == "tiles.four_way.gem"


def test_fields_are_labelled_in_words_and_display_names_are_not_knobs():
    """Issue 31 (M2): 'Oxygen Tank › mods › max oxygen', not
    'equipment.eq_oxygen_tank.mods.max_oxygen'; a card's display name is not a rule to tune."""
    from engine.core.registry import get_game
    g = get_game("cave_colony")
    doc = g.load_rules().model.model_dump(mode="json")
    leaves = {l.dotted: l for l in rf.leaves(g.rules_model, doc, "equipment", "eq_oxygen_tank")}
    assert "equipment.eq_oxygen_tank.name" not in leaves
    leaf = leaves["equipment.eq_oxygen_tank.mods.max_oxygen"]
    assert rf.label(leaf, doc, "eq_oxygen_tank") == "Oxygen Tank › mods › max oxygen"
    game = {l.dotted: l for l in rf.leaves(g.rules_model, doc, "game")}
    assert rf.label(game["game.turn_limit"], doc) == "turn limit"
    assert rf.entry_name(doc, "equipment", "eq_oxygen_tank") == "Oxygen Tank"
