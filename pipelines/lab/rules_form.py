"""A form over a game's rules, generated from its pydantic rules model (the What-if page).

Pure functions, no Streamlit: the page asks for the sections of the rules, the entries of a
collection section (workshops by id, factions by key...) and the editable leaves under one of
them, each with a widget kind derived from the model's field type (int, float, bool, a choice
among Literal values, a string, or a TOML literal for lists and tables) and its constraints as
a hint.  The designer's changes become a TOML patch (the same format as data/variants/), which
is validated exactly like a variant file; errors name the dotted path.  Values typed by the
designer are parsed as TOML literals, never evaluated as code.
"""

from __future__ import annotations

import json
import re
import tomllib
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel

from engine.core.errors import DelveError, RulesError

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class Leaf:
    path: tuple[str, ...]     # tokens; list entries by id
    kind: str                 # int, float, bool, choice, str, toml
    value: Any
    choices: tuple = ()
    hint: str = ""
    optional: bool = False    # the model admits "not set" (None): shown as an empty field


    @property
    def dotted(self) -> str:
        return ".".join(self.path)


# -- model introspection -------------------------------------------------------------------------

def _admits_none(tp) -> bool:
    if get_origin(tp) is typing.Annotated:
        return _admits_none(get_args(tp)[0])
    return (get_origin(tp) in (typing.Union, types.UnionType)
            and any(a is type(None) for a in get_args(tp)))


def _strip_optional(tp):
    if get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    if get_origin(tp) is typing.Annotated:
        return get_args(tp)[0]
    return tp


def _is_model(tp) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _collection(tp):
    """('list', Model) for tuple[Model, ...] with an id field, ('dict', Model) for
    dict[str, Model]; else None."""
    tp = _strip_optional(tp)
    origin, args = get_origin(tp), get_args(tp)
    if origin in (tuple, list) and args and _is_model(args[0]) and "id" in args[0].model_fields:
        return "list", args[0]
    if origin is dict and len(args) == 2 and _is_model(args[1]):
        return "dict", args[1]
    return None


def _hint(info) -> str:
    parts = []
    for m in getattr(info, "metadata", []) or []:
        for attr, sym in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<"),
                          ("min_length", "min length"), ("max_length", "max length")):
            v = getattr(m, attr, None)
            if v is not None:
                parts.append(f"{sym} {v}")
    return ", ".join(parts)


def _unset_dropped(v):
    """`v` with the keys of its tables that are not set (None) left out, as TOML holds them."""
    if isinstance(v, dict):
        return {k: _unset_dropped(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_unset_dropped(x) for x in v]
    return v


def _leaf(path, tp, value, info) -> Leaf:
    optional = _admits_none(tp) or value is None
    value = _unset_dropped(value)
    tp = _strip_optional(tp)
    hint = _hint(info)
    if optional:
        hint = ", ".join(p for p in (hint, "may be left empty (not set)") if p)
    if get_origin(tp) is Literal:
        return Leaf(path, "choice", value, tuple(get_args(tp)), hint, optional)
    if tp is bool and optional:            # three states: not set, true, false
        return Leaf(path, "choice", value, (True, False), hint, optional)
    for kind, cls in (("bool", bool), ("int", int), ("float", float), ("str", str)):
        if tp is cls:
            return Leaf(path, kind, value, (), hint, optional)
    return Leaf(path, "toml", value, (), hint or "a TOML value, e.g. [1, 2, 3] or { iron = 1 }",
                optional)


def _walk(model_cls, node: dict, path: tuple, out: list[Leaf]) -> None:
    for name, info in model_cls.model_fields.items():
        if name not in node:
            continue
        value, tp = node[name], info.annotation
        sub = path + (name,)
        coll = _collection(tp)
        if _is_model(_strip_optional(tp)) and isinstance(value, dict):
            _walk(_strip_optional(tp), value, sub, out)
        elif coll and coll[0] == "list" and isinstance(value, list):
            for entry in value:
                _walk(coll[1], entry, sub + (str(entry["id"]),), out)
        elif coll and coll[0] == "dict" and isinstance(value, dict):
            for key, entry in value.items():
                _walk(coll[1], entry, sub + (str(key),), out)
        elif name in ("id", "source", "name"):
            continue  # identities, provenance and display names are not tuning knobs
        else:
            out.append(_leaf(sub, tp, value, info))


HIDDEN = ("FaultInjection",)   # test-only rules sections (engine.core.rules) are not design knobs


def sections(model_cls) -> list[str]:
    return [name for name, info in model_cls.model_fields.items()
            if getattr(_strip_optional(info.annotation), "__name__", "") not in HIDDEN]


def entries(model_cls, doc: dict, section: str) -> list[str]:
    """The entry keys of a collection section (ids or dict keys), [] for other sections."""
    coll = _collection(model_cls.model_fields[section].annotation)
    value = doc.get(section)
    if not coll:
        return []
    if coll[0] == "list":
        return [str(e["id"]) for e in value or []]
    return [str(k) for k in (value or {})]


def leaves(model_cls, doc: dict, section: str, entry: str | None = None) -> list[Leaf]:
    """The editable leaves of `section` (of one `entry` of a collection section)."""
    info = model_cls.model_fields[section]
    tp, value = info.annotation, doc.get(section)
    coll = _collection(tp)
    out: list[Leaf] = []
    if coll:
        if entry is None:
            return []
        if coll[0] == "list":
            node = next((e for e in value if str(e["id"]) == entry), None)
        else:
            node = value.get(entry)
        if node is None:
            raise DelveError(f"{section}: no entry '{entry}'")
        _walk(coll[1], node, (section, entry), out)
    elif _is_model(_strip_optional(tp)):
        _walk(_strip_optional(tp), value, (section,), out)
    else:
        out.append(_leaf((section,), tp, value, info))
    return out


def entry_name(doc: dict, section: str, entry: str) -> str:
    """An entry's display name (its `name` field, e.g. "Oxygen Tank"), else its id."""
    from engine.core.names import entry_name as name_of
    return name_of(doc, section, entry) or entry


def label(leaf: Leaf, doc: dict, entry: str | None = None) -> str:
    """The field's label in words: its path below the section (and the entry, named by its
    display name), underscores as spaces, e.g. "Oxygen Tank › mods › max oxygen"."""
    rest = list(leaf.path[2:] if entry is not None else leaf.path[1:])
    words = [t.replace("_", " ") for t in rest] or [leaf.path[-1].replace("_", " ")]
    head = [entry_name(doc, leaf.path[0], entry)] if entry is not None else []
    return " › ".join(head + words)


# -- values, patches --------------------------------------------------------------------------------

def text_of(leaf: Leaf, value: Any) -> str:
    """What a text field shows for `value`: an empty field for "not set", else TOML (a 'toml'
    leaf) or the plain string (a 'str' leaf)."""
    if value is None:
        return ""
    return toml_value(value) if leaf.kind == "toml" else str(value)


def parse_value(leaf: Leaf, raw: Any) -> Any:
    """A widget's value as a rules value.  Text of 'toml' leaves is parsed as a TOML literal
    (never evaluated); an empty text field of a leaf that may be unset is None (not set); a
    parse error names the path."""
    if leaf.optional and (raw is None or (isinstance(raw, str) and not raw.strip())):
        return None
    if leaf.kind != "toml":
        return raw
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError as exc:
        raise RulesError("the what-if form", leaf.dotted,
                         f"expected a TOML value such as [1, 2] or {{ iron = 1 }} ({exc})") from None


def build_patch(doc: dict, changes: dict[tuple[str, ...], Any]) -> dict:
    """A variant patch (same merge rules as data/variants) setting each changed path."""
    patch: dict = {}
    for path, value in changes.items():
        if value is None:
            raise RulesError("the what-if form", ".".join(path),
                             "a value: a variant file cannot unset one (TOML has no empty "
                             "value); give the value to use instead")
        _set(patch, doc, list(path), value)
    return patch


def _set(patch, doc, path, value):
    key, rest = path[0], path[1:]
    node = doc.get(key) if isinstance(doc, dict) else None
    if not rest:
        patch[key] = value
        return
    if isinstance(node, list) and node and all(isinstance(e, dict) and "id" in e for e in node):
        lst = patch.setdefault(key, [])
        eid = rest[0]
        target = next((e for e in lst if str(e["id"]) == eid), None)
        src = next((e for e in node if str(e["id"]) == eid), None)
        if src is None:
            raise DelveError(f"{'.'.join(path)}: no entry '{eid}'")
        if target is None:
            target = {"id": src["id"]}
            lst.append(target)
        if len(rest) == 1:
            raise DelveError(f"{'.'.join(path)}: a whole entry cannot be replaced")
        _set(target, src, rest[1:], value)
        return
    _set(patch.setdefault(key, {}), node if isinstance(node, dict) else {}, rest, value)


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k)


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
            raise DelveError(f"{v}: not a finite number")
        return json.dumps(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):   # a key that is not set (None) is left out, as a data file would
        return "{ " + ", ".join(f"{_key(str(k))} = {toml_value(x)}" for k, x in v.items()
                                if x is not None) + " }"
    raise DelveError(f"{v!r}: cannot be written as TOML")


def to_toml(patch: dict, comment: str = "") -> str:
    """The patch as TOML text (one `key = inline value` line per top-level key)."""
    lines = [f"# {line}" for line in comment.splitlines()] if comment else []
    for k, v in patch.items():
        lines.append(f"{_key(k)} = {toml_value(v)}")
    text = "\n".join(lines) + "\n"
    tomllib.loads(text)  # always valid TOML
    return text


def changed(doc_leaves: list[Leaf], values: dict[str, Any]) -> dict[tuple[str, ...], Any]:
    """The leaves whose new value (by dotted path, already parsed) differs from the current."""
    out = {}
    for leaf in doc_leaves:
        if leaf.dotted in values and values[leaf.dotted] != leaf.value:
            out[leaf.path] = values[leaf.dotted]
    return out
