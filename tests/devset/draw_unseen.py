"""Draw the items to label blind for the unseen-sets file (unseen.jsonl), as a shuffled list of ids only.

``heldout.jsonl`` drew from the sets ``labels.jsonl`` covers, and those had almost no warned items
left. This draw takes sets that no label file touches at all (``UNSEEN``), from two draws joined:

* a seeded random sample of up to ``PER_SET`` items of each set (all of them where it has fewer),
  so that clean items and defects no check targets are measured too;
* every item of those sets that the ``review`` profile warns on at LOW or above (what
  precision.py counts as a check firing), a seeded random ``MAX_WARNED`` of them when there are more.

Items already labelled under another set key are left out (``ALREADY_LABELLED``): the agentset
leaderboard's SciFact subset reuses BEIR SciFact's query ids, and a few of those claims are in
the label files under ``beir-scifact``.

The list is written shuffled, one ``{"set", "split", "id"}`` per line, and nothing else: not which
draw an item came from, not a check's name or message. Whoever labels the items must not know
which ones a check warns on; the script prints only how many items it wrote.

    python tests/devset/draw_unseen.py     # writes unseen_candidates.jsonl here
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import blind  # noqa: E402  (this folder's modules, not a package)
import precision  # noqa: E402

SEED = 20261213
PER_SET = 15
MAX_WARNED = 80
OUT = HERE / "unseen_candidates.jsonl"
LABEL_FILES = (HERE / "labels.jsonl", HERE / "heldout.jsonl")

#: Sets under the real-data folder that no label file names and that ``open_evalset`` reads, as
#: (set, format, split) keys. Left out, and why, in README.md here ("The unseen-sets labels").
UNSEEN: tuple[tuple[str, str | None, str | None], ...] = (
    ("goldenset-aimakerspace/mlops_world_conference/ensemble_qa_ragas_dataset.csv", None, None),
    ("goldenset-aimakerspace/mlops_world_conference/pdr_qa_ragas_dataset.csv", None, None),
    ("beir-agentset-leaderboard/fiqa", None, None),
    ("beir-agentset-leaderboard/scifact", None, None),
    ("beir-agentset-leaderboard/business-reports", None, None),
    ("qa-piaf-french/duplicate_answers.json", None, None),
)

#: An unseen set whose ids name the same items as a labelled set's: (unseen set, labelled set).
ALREADY_LABELLED = {"beir-agentset-leaderboard/scifact": "beir-scifact"}


def labelled_ids() -> dict[str, set[str]]:
    """Set name -> the ids labelled in any label file (every split)."""
    ids: dict[str, set[str]] = {}
    for path in LABEL_FILES:
        for label in precision.read_labels(path):
            ids.setdefault(label.set, set()).add(label.id)
    return ids


def main() -> int:
    realdata = precision.realdata_dir()
    if not realdata.is_dir():
        print(f"draw_unseen: no real-data folder at {realdata} (set REVIEWTUI_REALDATA)", file=sys.stderr)
        return 2
    done = labelled_ids()
    touched = [key[0] for key in UNSEEN if key[0] in done]
    if touched:
        print(f"draw_unseen: sets already labelled: {touched}", file=sys.stderr)
        return 1
    sets = ((key, done.get(ALREADY_LABELLED.get(key[0], ""), set())) for key in UNSEEN)
    chosen = blind.draw(sets, realdata, random.Random(SEED), PER_SET, MAX_WARNED)
    blind.write_candidates(chosen, OUT)
    print(f"draw_unseen: {len(chosen)} candidates written to {OUT.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
