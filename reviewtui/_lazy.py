"""Lazy attribute exports, so ``import reviewtui`` stays cheap and never pulls in the UI."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, names: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Build ``__getattr__``/``__dir__`` for a package whose names live in submodules.

    ``names`` maps an exported name to the module (relative to ``package``) that defines it.
    """

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module, package), name)

    def __dir__() -> list[str]:
        return sorted(names)

    return __getattr__, __dir__
