"""engine.core.names: one reading of a rules document's display names for every layer."""

from __future__ import annotations

from engine.core.names import entry_name, entry_names, entry_node

DOC = {"maps": {"snowy_summit": {"name": "Snowy Summit", "cells": []}},
       "equipment": [{"id": "eq_oxygen_tank", "name": "Oxygen Tank"}, {"id": "eq_rope"}],
       "game": {"rounds": 5}}


def test_entries_are_named_from_lists_and_tables():
    assert entry_name(DOC, "maps", "snowy_summit") == "Snowy Summit"
    assert entry_name(DOC, "equipment", "eq_oxygen_tank") == "Oxygen Tank"
    assert entry_name(DOC, "equipment", "eq_rope") is None          # no name: the caller's id
    assert entry_name(DOC, "game.rounds", "x") is None and entry_node(DOC, "nope", "x") is None
    assert entry_names(DOC) == {"snowy_summit": "Snowy Summit", "eq_oxygen_tank": "Oxygen Tank"}
