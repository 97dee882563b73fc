"""Imports every faction module of this package so that each registers itself."""

import importlib
import pkgutil

from . import __name__ as _pkg, __path__ as _path

for _mod in sorted(m.name for m in pkgutil.iter_modules(_path)):
    if not _mod.startswith("_"):
        importlib.import_module(f"{_pkg}.{_mod}")
