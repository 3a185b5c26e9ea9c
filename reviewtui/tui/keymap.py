"""Checking a remapping of keys from the settings file before the app uses it.

A remap that silently takes a key from another action is worse than none: with
``"review.reject" = "n,x"`` Note and Whole document stop working and nothing says
why. So every entry is checked against every binding the app has:

* an id that names no binding is dropped and named (a typo would otherwise do nothing);
* a key another action keeps is not taken from it: the entry loses that key, and if
  it is left with none, the action keeps its own default key;
* a key two entries both ask for goes to neither.

Each problem is one line naming the settings file, the entry and the key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from textual.binding import Binding

__all__ = ["check_keymap"]


def _keys(spec: str) -> list[str]:
    return [key.strip() for key in spec.split(",") if key.strip()]


def check_keymap(
    keymap: Mapping[str, str], bindings: Iterable[Binding], source: Path | str | None = None
) -> tuple[dict[str, str], list[str]]:
    """(the entries that can be used as given or trimmed, a line for each problem)."""
    where = f"{source}: " if source is not None else ""
    known = {b.id: b for b in bindings if b.id}
    problems: list[str] = []
    wanted: dict[str, list[str]] = {}
    for binding_id, spec in keymap.items():
        if binding_id not in known:
            problems.append(f"{where}[keys] {binding_id!r} is not a key binding id (the help screen, ?, lists them); ignored")
            continue
        wanted[binding_id] = _keys(spec)

    def holders(key: str, keys_of: Mapping[str, list[str]]) -> list[str]:
        return [binding_id for binding_id, keys in keys_of.items() if key in keys]

    # Settle in rounds: an entry that gives up its keys falls back to its default key, which may
    # in turn collide with another entry; a few rounds always suffice (each round drops keys).
    for _ in range(len(known) + 1):
        final = {binding_id: wanted.get(binding_id, _keys(binding.key)) for binding_id, binding in known.items()}
        changed = False
        for binding_id in list(wanted):
            keep: list[str] = []
            for key in wanted[binding_id]:
                others = [other for other in holders(key, final) if other != binding_id]
                if not others:
                    keep.append(key)
                    continue
                names = ", ".join(f"{known[other].description or other} ({other})" for other in others)
                problems.append(f"{where}[keys] {binding_id!r}: {key!r} is already the key of {names}; not remapped to it")
                changed = True
            if keep:
                wanted[binding_id] = keep
            else:
                del wanted[binding_id]
                default = known[binding_id].key
                problems.append(f"{where}[keys] {binding_id!r} keeps its default key {default!r}")
        if not changed:
            break
    return {binding_id: ",".join(keys) for binding_id, keys in wanted.items()}, problems
