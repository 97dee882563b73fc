"""What a decision offered: the distinct options of one decision, named as the move log names
the option chosen (issue 28's dead and forced options need "offered", not only "chosen").

A decision's options are described with the game's own `describe(action)` (the move log's
words) and reduced to distinct keys:

- the option's action name (`build`, `pt_trade`, `first_player`);
- `name:word` where the detail's first word is an id of the rules data (`play:e1_delegation`,
  `colony_card:col_rail_cart`, `excavate:ell4`): a word of letters, digits and `_` with a letter
  first and at least one `_` or digit (so `row`, `white` or `worker` are not taken for ids).

A move row's `offered` column holds its decision's keys, space-separated and sorted; it is
NULL where nothing was listed (a uniform random seat draws without listing the options, and
logs without moves keep nothing).  The keys of the option chosen are `offer_keys(action,
detail)`.
"""

from __future__ import annotations

import re

_ID = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def _entry_word(detail: str) -> str | None:
    word = detail.split(" ", 1)[0] if detail else ""
    if word and _ID.fullmatch(word) and any(c == "_" or c.isdigit() for c in word):
        return word
    return None


def offer_keys(action: str, detail: str) -> tuple[str, ...]:
    """The keys of one option: its action name, and `name:word` for an id-like first word."""
    word = _entry_word(detail)
    return (action,) if word is None else (action, f"{action}:{word}")


def offered(state, legal, one_per_kind: tuple = ()) -> str:
    """The space-separated sorted keys of the options `legal` of the decision `state` awaits.

    `one_per_kind`: the kinds (`action[0]`) whose options of one decision all have the same
    keys, which a game declares (`Game.extra["offer_one_per_kind"]`) so that only one of them
    is described (Glimmerdeep's ~500 placements of one excavation card are one key)."""
    describe = state.describe
    keys: set[str] = set()
    seen: set = set()
    for a in legal:
        if one_per_kind:
            kind = a[0]
            if kind in one_per_kind:
                if kind in seen:
                    continue
                seen.add(kind)
        name, detail, _cell = describe(a)
        keys.update(offer_keys(name, detail or ""))
    return " ".join(sorted(keys))
