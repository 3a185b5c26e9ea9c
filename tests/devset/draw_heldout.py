"""Draw the items to label blind for the held-out file (heldout.jsonl), as a shuffled list of ids only.

The candidates are items of the sets labels.jsonl covers (the same set keys, readers and splits)
that labels.jsonl does not hold, from two draws joined together:

* a seeded random sample of up to ``PER_SET`` unlabelled items of each set, so that clean items
  and defects no check targets are measured too;
* the unlabelled items the ``review`` profile warns on at LOW or above (what precision.py counts
  as a check firing), a seeded random ``MAX_WARNED`` of them when there are more.

The list is written shuffled, one ``{"set", "split", "id"}`` per line, and nothing else: not which
draw an item came from, not a check's name or message. Whoever labels the items must not know
which ones a check warns on, or the labels would lean towards the checks; the script prints only
how many items it wrote.

    python tests/devset/draw_heldout.py     # writes heldout_candidates.jsonl here
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import precision  # noqa: E402  (this folder's script, not a package)

SEED = 20261206
PER_SET = 10
MAX_WARNED = 80
OUT = HERE / "heldout_candidates.jsonl"


def main() -> int:
    from reviewtui.evalset.model.flag import Severity

    realdata = precision.realdata_dir()
    if not realdata.is_dir():
        print(f"draw_heldout: no real-data folder at {realdata} (set REVIEWTUI_REALDATA)", file=sys.stderr)
        return 2
    rng = random.Random(SEED)
    labelled: dict[tuple, set[str]] = {}
    for label in precision.read_labels(precision.LABELS):
        labelled.setdefault(label.key, set()).add(label.id)
    sampled: set[tuple] = set()
    warned: list[tuple] = []
    for key in sorted(labelled, key=lambda k: tuple(str(part) for part in k)):
        evalset, scan = precision.scan_set(key, realdata)
        free = [item.id for item in evalset.items if item.id not in labelled[key]]
        for item_id in rng.sample(free, min(PER_SET, len(free))):
            sampled.add((key, item_id))
        for item_id in free:
            worst = scan.worst(item_id)
            if worst is not None and worst >= Severity.LOW:
                warned.append((key, item_id))
    if len(warned) > MAX_WARNED:
        warned = rng.sample(warned, MAX_WARNED)
    chosen = sorted(sampled | set(warned), key=lambda row: (tuple(str(part) for part in row[0]), row[1]))
    rng.shuffle(chosen)
    with open(OUT, "w", encoding="utf-8") as f:
        for (name, _fmt, split), item_id in chosen:
            f.write(json.dumps({"set": name, "split": split, "id": item_id}, ensure_ascii=False) + "\n")
    print(f"draw_heldout: {len(chosen)} candidates written to {OUT.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
