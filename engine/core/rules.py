"""Rules as data: TOML files -> typed, frozen, validated models; variants and overrides.

A game's rules live in `data/rules/<game>/*.toml`.  The files are merged at top level (a
top-level key may appear in one file only).  Variant patches (TOML) are deep-merged over them:
tables merge key by key, arrays of tables whose entries all have an `id` merge entry by entry
(a new id is appended), any other array is replaced.  `--set dotted.path=value` overrides come
last; list entries are addressed by index or by `id`.  The merged document is validated by the
game's pydantic model (unknown keys are errors), serialised canonically and hashed.
"""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import RulesError

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = REPO_ROOT / "data"


class RulesModel(BaseModel):
    """Base of every typed rules model: frozen, unknown keys forbidden, strict types."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


@dataclass
class LoadedRules:
    model: Any
    doc: dict
    base_doc: dict
    sources: list[str] = field(default_factory=list)

    @property
    def canonical(self) -> str:
        return canonical_json(self.model)

    @property
    def hash(self) -> str:
        return rules_hash(self.model)


class FaultInjection(RulesModel):
    """TEST-ONLY fault injection, off by default (a game's rules model may declare it as
    `testing: FaultInjection = FaultInjection()`).  The games whose index in the run is listed
    in `raise_in_games` raise `InjectedFault` after `after_steps` decisions, so the pipeline's
    fault tests can prove that one failing game loses nothing else.  Never set in real rules;
    left at its default it is not part of the canonical rules, so it changes no rules hash."""

    raise_in_games: tuple[int, ...] = ()
    after_steps: int = 5


def canonical_json(model: BaseModel) -> str:
    doc = model.model_dump(mode="json")
    if doc.get("testing") == _NO_FAULTS:  # the test-only block at its default is not a rule
        del doc["testing"]
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


_NO_FAULTS = FaultInjection().model_dump(mode="json")


def rules_hash(model: BaseModel) -> str:
    return hashlib.sha256(canonical_json(model).encode()).hexdigest()[:16]


def read_toml(path: Path) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesError(str(path), "", "the file does not exist") from None
    except OSError as exc:
        raise RulesError(str(path), "", f"the file cannot be read ({exc.strerror})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        if "line" not in msg:  # e.g. "(at end of document)": name the last line
            msg += f" (line {text.count(chr(10)) + 1})"
        raise RulesError(str(path), "", f"TOML syntax error: {msg}") from None


class _Provenance:
    """Which file or argument each part of the document came from, to name it in errors."""

    def __init__(self):
        self.entries: list[tuple[tuple, str]] = []

    def add(self, path: tuple, source: str):
        self.entries.append((path, source))

    def source_for(self, loc: tuple) -> str:
        best, best_len = "rules", -1
        for path, source in self.entries:  # later entries (overrides) win ties
            if len(path) <= len(loc) and tuple(loc[: len(path)]) == path and len(path) >= best_len:
                best, best_len = source, len(path)
        return best


def _fmt_path(loc) -> str:
    return ".".join(str(p) for p in loc)


def _merge(base: Any, patch: Any, path: tuple, prov: _Provenance, source: str) -> Any:
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for key, val in patch.items():
            if key in out:
                out[key] = _merge(out[key], val, path + (key,), prov, source)
            else:
                out[key] = copy.deepcopy(val)
                prov.add(path + (key,), source)
        return out
    if (isinstance(base, list) and isinstance(patch, list) and patch
            and all(isinstance(e, dict) and "id" in e for e in base + patch)):
        out = list(base)
        index = {e["id"]: i for i, e in enumerate(out)}
        for entry in patch:
            i = index.get(entry["id"])
            if i is None:
                out.append(copy.deepcopy(entry))
                prov.add(path + (len(out) - 1,), source)
            else:
                out[i] = _merge(out[i], entry, path + (i,), prov, source)
        return out
    prov.add(path, source)
    return copy.deepcopy(patch)


def parse_set(arg: str) -> tuple[list[str], Any]:
    if "=" not in arg:
        raise RulesError(f"--set {arg}", "", "expected the form dotted.path=value")
    path, raw = arg.split("=", 1)
    path = path.strip()
    if not path or any(not p for p in path.split(".")):
        raise RulesError(f"--set {arg}", path, "expected a dotted path such as game.rounds")
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()  # a bare word is taken as a string
    return path.split("."), value


def _apply_set(doc: dict, arg: str, prov: _Provenance) -> None:
    keys, value = parse_set(arg)
    node: Any = doc
    loc: list = []
    for i, key in enumerate(keys):
        last = i == len(keys) - 1
        if isinstance(node, dict):
            if key not in node:
                known = ", ".join(sorted(map(str, node))[:12])
                raise RulesError(f"--set {arg}", ".".join(keys[: i + 1]),
                                 f"unknown path; known keys here: {known}")
            idx: Any = key
        elif isinstance(node, list):
            if key.lstrip("-").isdigit():
                idx = int(key)
                if not -len(node) <= idx < len(node):
                    raise RulesError(f"--set {arg}", ".".join(keys[: i + 1]),
                                     f"index out of range (the list has {len(node)} entries)")
                idx %= len(node)
            else:
                ids = [e.get("id") if isinstance(e, dict) else None for e in node]
                if key not in ids:
                    raise RulesError(f"--set {arg}", ".".join(keys[: i + 1]),
                                     "unknown path; expected a list index or an entry id")
                idx = ids.index(key)
        else:
            raise RulesError(f"--set {arg}", ".".join(keys[: i + 1]),
                             "unknown path; the value above it is not a table or list")
        loc.append(idx)
        if last:
            node[idx] = value
        else:
            node = node[idx]
    prov.add(tuple(loc), f"--set {arg}")


def load_rules(game_id: str, model_cls: type[BaseModel], variants=(), sets=(),
               rules_dir: Path | None = None) -> LoadedRules:
    rules_dir = Path(rules_dir) if rules_dir else DATA_DIR / "rules" / game_id
    files = sorted(rules_dir.glob("*.toml"))
    if not files:
        raise RulesError(str(rules_dir), "", "expected at least one .toml rules file")
    prov = _Provenance()
    doc: dict = {}
    for path in files:
        part = read_toml(path)
        for key, val in part.items():
            if key in doc:
                # Tables may be spread over several files (one faction per file), keys disjoint.
                if not (isinstance(doc[key], dict) and isinstance(val, dict)):
                    raise RulesError(str(path), key,
                                     f"top-level key also defined in {prov.source_for((key,))}")
                for sub, subval in val.items():
                    if sub in doc[key]:
                        raise RulesError(str(path), f"{key}.{sub}",
                                         f"also defined in {prov.source_for((key, sub))}")
                    doc[key][sub] = subval
                    prov.add((key, sub), str(path))
                continue
            doc[key] = val
            prov.add((key,), str(path))
    base_doc = copy.deepcopy(doc)
    sources = [str(p) for p in files]
    for vpath in variants:
        patch = read_toml(Path(vpath))

        doc = _merge(doc, patch, (), prov, str(vpath))
        sources.append(str(vpath))
    for arg in sets:
        _apply_set(doc, arg, prov)
        sources.append(f"--set {arg}")
    model = validate(model_cls, doc, prov)
    return LoadedRules(model=model, doc=doc, base_doc=base_doc, sources=sources)


def validate(model_cls: type[BaseModel], doc: dict, prov: _Provenance | None = None):
    prov = prov or _Provenance()
    try:
        return model_cls.model_validate_json(json.dumps(doc), strict=True)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        loc = tuple(err["loc"])
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key (not part of the rules model; check its spelling)"
        elif "input" in err and err["type"] not in ("missing",):
            msg = f"{msg} (got {json.dumps(err['input'])[:60]})"
        more = len(exc.errors()) - 1
        if more:
            msg += f"; and {more} more problem(s)"
        raise RulesError(prov.source_for(loc), _fmt_path(loc), msg) from None


def diff(base: Any, new: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Leaf-level differences between two documents: (path, old, new)."""
    out: list[tuple[str, Any, Any]] = []
    if isinstance(base, dict) and isinstance(new, dict):
        for key in sorted(set(base) | set(new), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in base:
                out.append((sub, None, new[key]))
            elif key not in new:
                out.append((sub, base[key], None))
            else:
                out.extend(diff(base[key], new[key], sub))
    elif isinstance(base, list) and isinstance(new, list) and len(base) == len(new):
        for i, (a, b) in enumerate(zip(base, new)):
            label = a.get("id", i) if isinstance(a, dict) else i
            out.extend(diff(a, b, f"{path}.{label}"))
    elif base != new:
        out.append((path, base, new))
    return out
