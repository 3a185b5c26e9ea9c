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

The warned draw follows the checks as they are when it runs, so the file it writes is the labelled one
only with the code of that day: since the fix to unclear-reference that these labels found, two SciFact
claims are no longer warned and it draws 157 items, not the 159 ``heldout.jsonl`` holds. The draw itself
is in ``blind.py``, shared with draw_unseen.py.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import blind  # noqa: E402  (this folder's modules, not a package)
import precision  # noqa: E402

SEED = 20261206
PER_SET = 10
MAX_WARNED = 80
OUT = HERE / "heldout_candidates.jsonl"


def main() -> int:
    realdata = precision.realdata_dir()
    if not realdata.is_dir():
        print(f"draw_heldout: no real-data folder at {realdata} (set REVIEWTUI_REALDATA)", file=sys.stderr)
        return 2
    labelled: dict[tuple, set[str]] = {}
    for label in precision.read_labels(precision.LABELS):
        labelled.setdefault(label.key, set()).add(label.id)
    keys = sorted(labelled, key=lambda k: tuple(str(part) for part in k))
    chosen = blind.draw(((key, labelled[key]) for key in keys), realdata, random.Random(SEED), PER_SET, MAX_WARNED)
    blind.write_candidates(chosen, OUT)
    print(f"draw_heldout: {len(chosen)} candidates written to {OUT.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
