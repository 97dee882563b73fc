"""Display names of a rules document's entries (cards, buildings, maps, factions...): the
`name` an entry carries beside its `id` in a list, or under its key in a table.  One reading
for every layer that names an entry: the dashboard's labels, the play checks' sentences and
the What-if form's labels."""

from __future__ import annotations

from typing import Any


def entry_node(doc: Any, path: str, entry: str) -> Any:
    """The node of `entry` in the collection at the dotted `path` of a rules document (a list
    of entries with ids, or a table keyed by id), else None."""
    node: Any = doc
    for part in path.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    if isinstance(node, list):
        return next((e for e in node if isinstance(e, dict) and str(e.get("id")) == entry), None)
    return node.get(entry) if isinstance(node, dict) else None


def entry_name(doc: Any, path: str, entry: str) -> str | None:
    """An entry's display name (its `name` field, e.g. "Oxygen Tank"), else None."""
    node = entry_node(doc, path, entry)
    return str(node["name"]) if isinstance(node, dict) and node.get("name") else None


def without_article(name: str) -> str:
    """A name as a sentence or an axis uses it: 'The Deepdelvers' -> 'Deepdelvers'."""
    return name[4:] if name.startswith("The ") else name


def entry_names(doc: Any) -> dict[str, str]:
    """The display name of every entry of a rules document, by id (the first met, depth
    first, where two collections use one id)."""
    found: dict[str, str] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, dict) and isinstance(v.get("name"), str) and v["name"]:
                    found.setdefault(str(k), v["name"])      # a table keyed by id (maps...)
                walk(v)
        elif isinstance(node, list):
            for e in node:
                if isinstance(e, dict) and "id" in e and isinstance(e.get("name"), str) \
                        and e["name"]:
                    found.setdefault(str(e["id"]), e["name"])   # a list of entries with ids
                walk(e)
    walk(doc)
    return found
