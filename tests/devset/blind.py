"""The blind draw both held-out label files were made with: ids only, shuffled, warned items mixed in.

From each set, a seeded random sample of its unlabelled items (clean ones and defects no check targets
are measured too), joined with the unlabelled items the ``review`` profile warns on at LOW or above
(what precision.py counts as a check firing; a seeded ``max_warned`` of them when there are more). The
list is written shuffled, one ``{"set", "split", "id"}`` per line, and nothing else: whoever labels the
items must not know which ones a check warns on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection, Iterable
from pathlib import Path

import precision  # this folder's script (the callers put the folder on sys.path)

Key = tuple[str, str | None, str | None]


def draw(
    sets: Iterable[tuple[Key, Collection[str]]], realdata: Path, rng: random.Random, per_set: int, max_warned: int
) -> list[tuple[Key, str]]:
    """The candidates, shuffled: ``sets`` gives each set's key and the ids already labelled in it."""
    from reviewtui.evalset.model.flag import Severity

    sampled: set[tuple[Key, str]] = set()
    warned: list[tuple[Key, str]] = []
    for key, labelled in sets:
        evalset, scan = precision.scan_set(key, realdata)
        free = [item.id for item in evalset.items if item.id not in labelled]
        for item_id in rng.sample(free, min(per_set, len(free))):
            sampled.add((key, item_id))
        for item_id in free:
            worst = scan.worst(item_id)
            if worst is not None and worst >= Severity.LOW:
                warned.append((key, item_id))
    if len(warned) > max_warned:
        warned = rng.sample(warned, max_warned)
    chosen = sorted(sampled | set(warned), key=lambda row: (tuple(str(part) for part in row[0]), row[1]))
    rng.shuffle(chosen)
    return chosen


def write_candidates(chosen: list[tuple[Key, str]], out: Path) -> None:
    with open(out, "w", encoding="utf-8") as f:
        for (name, _fmt, split), item_id in chosen:
            f.write(json.dumps({"set": name, "split": split, "id": item_id}, ensure_ascii=False) + "\n")
