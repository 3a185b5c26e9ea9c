"""The import graph is the architecture: ARCHITECTURE.md draws it, this test keeps it true.

Every ``import`` statement counts, those inside functions too (a lazy import is
still a dependency, it only happens later).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "reviewtui"
CORE = "reviewtui.evalset"

# What each part of the core may import besides itself (third-party libraries aside).
# The order is the layering: a part may only lean on parts listed before it.
ALLOWED: dict[str, set[str]] = {
    "model": set(),
    "text": set(),
    "jobs": set(),
    "io": {"model", "text", "jobs"},
    "evidence": {"model", "text", "jobs", "io"},
    "checks": {"model", "text", "jobs", "io", "evidence"},
    "review": {"model", "text", "jobs", "io"},
}
# The spec's documented module paths, kept as thin re-exports.
FACADES = {"filters": {"checks"}, "llm": {"checks"}}
UI_AND_CLI = ("reviewtui.tui", "reviewtui.cli", "textual", "rich")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    """Every module an import statement in ``path`` names, with its line."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.level:
                raise AssertionError(f"{path}:{node.lineno}: relative import; the tree uses absolute imports")
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def _own_module(name: str) -> str | None:
    """The reviewtui module a dotted name refers to (``pkg.mod.func`` -> ``pkg.mod``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _part(module: str) -> str | None:
    """The part of the core a module belongs to (``reviewtui.evalset.io.jsonl`` -> ``io``)."""
    if not module.startswith(CORE + "."):
        return None
    return module[len(CORE) + 1 :].split(".")[0]


def _edges() -> Iterator[tuple[str, int, str]]:
    for module, path in sorted(MODULES.items()):
        for line, target in _imports(path):
            yield module, line, target


def test_every_core_module_belongs_to_a_known_part() -> None:
    parts = {_part(m) for m in MODULES if _part(m) is not None}
    assert parts <= set(ALLOWED) | set(FACADES), parts - set(ALLOWED) - set(FACADES)


def test_the_core_imports_no_ui_and_no_command_line() -> None:
    bad = [
        f"{module}:{line} imports {target}"
        for module, line, target in _edges()
        if module.startswith(CORE) and target.startswith(UI_AND_CLI)
    ]
    assert not bad, "\n".join(bad)


def test_each_part_of_the_core_imports_only_the_parts_below_it() -> None:
    bad = []
    for module, line, target in _edges():
        mine, theirs = _part(module), _part(_own_module(target) or "")
        if mine is None or theirs is None or mine == theirs:
            continue
        allowed = ALLOWED.get(mine, FACADES.get(mine, set()))
        if theirs not in allowed:
            bad.append(f"{module}:{line} ({mine}) imports {target} ({theirs})")
    assert not bad, "\n".join(bad)


def test_the_ui_does_not_import_the_command_line() -> None:
    bad = [
        f"{module}:{line} imports {target}"
        for module, line, target in _edges()
        if module.startswith("reviewtui.tui") and target.startswith("reviewtui.cli")
    ]
    assert not bad, "\n".join(bad)


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for module, _line, target in _edges():
        own = _own_module(target)
        # A module importing its own package's ``__init__`` is how Python loads it, not a loop.
        if own and own != module and not module.startswith(own + "."):
            graph[module].add(own)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return _tarjan(graph)
    finally:
        sys.setrecursionlimit(limit)  # left raised, it changed what later tests saw (a settings file nested deep)


def _tarjan(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles_lazy_imports_included() -> None:
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    # The check above must be able to fail.
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_architecture_md_names_every_part(part: str) -> None:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert f"evalset/{part}/" in text
