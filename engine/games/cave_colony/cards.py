"""The cards as tables (rulebook "Components": Colony, Positive Trait, Negative Trait,
Equipment and Anomaly Cards) and the passive-modifier vocabulary they share.

A worker's modifiers are one tuple of ints (`MOD_FIELDS` order, rules.py `Mods`): the sum of
its traits, its equipment's passive mods and its colony's completed cards' rewards.
"""

from __future__ import annotations

from .rules import COLOURS, WILD, Mods

COLONY, POSITIVE, NEGATIVE, EQUIPMENT, ANOMALY = range(5)
DECKS = ("colony_cards", "positive_traits", "negative_traits", "equipment", "anomaly_cards")
KIND_NAMES = ("colony", "positive_trait", "negative_trait", "equipment", "anomaly")

MOD_FIELDS = tuple(Mods.model_fields)
(MAX_OXYGEN, UPKEEP, ENERGY, MOVEMENT, MOVE_COST, COLLECT_COST, SPEND_COST, USE_COST, ATTACK,
 DEFEND, DISCOVERY_DRAWS, POSITIVE_TRAITS, NEGATIVE_TRAITS) = range(len(MOD_FIELDS))
ZERO = (0,) * len(MOD_FIELDS)
assert MOD_FIELDS[DEFEND] == "defend" and MOD_FIELDS[NEGATIVE_TRAITS] == "negative_traits"


def vector(m: Mods) -> tuple[int, ...]:
    return tuple(getattr(m, f) for f in MOD_FIELDS)


def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b))


def cost_vector(cost) -> tuple[int, ...]:
    """A colony card's cost as counts: five colours, then wildcard slots."""
    out = [0] * (len(COLOURS) + 1)
    for g in cost:
        out[WILD if g == "wild" else COLOURS.index(g)] += 1
    return tuple(out)


class CardTables:
    """Per rules: every card of every deck by index, with what the engine needs of it."""

    __slots__ = ("ids", "index", "colony_cost", "colony_total", "colony_reward", "trait_mods",
                 "equip_mods", "equip_use", "equip_charges", "anomaly")

    def __init__(self, rules):
        decks = [getattr(rules, name) for name in DECKS]
        self.ids = tuple(tuple(c.id for c in deck) for deck in decks)
        self.index = {cid: (k, i) for k, ids in enumerate(self.ids) for i, cid in enumerate(ids)}
        self.colony_cost = tuple(cost_vector(c.cost) for c in rules.colony_cards)
        self.colony_total = tuple(len(c.cost) for c in rules.colony_cards)
        self.colony_reward = tuple(vector(c.reward) for c in rules.colony_cards)
        self.trait_mods = (None, tuple(vector(c.mods) for c in rules.positive_traits),
                           tuple(vector(c.mods) for c in rules.negative_traits))
        self.equip_mods = tuple(vector(c.mods) for c in rules.equipment)
        self.equip_use = tuple(c.use for c in rules.equipment)
        self.equip_charges = tuple(c.charges for c in rules.equipment)
        self.anomaly = tuple(c.effect for c in rules.anomaly_cards)

    def card_id(self, kind: int, idx: int) -> str:
        return self.ids[kind][idx]
