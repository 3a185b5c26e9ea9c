"""How often each type guess agrees with the type people gave a question, on the real sets.

The heuristic's guesses (``classify_question``) carry a confidence, ``GUESS_RECORD`` in
``reviewtui/evalset/checks/classify.py``; this script measures it. Every file of the real-data
folder that ``open_evalset`` reads is opened as the command line opens it; a question counts
when it has one of the known types other than unanswerable (a type wording cannot show). Sets
are counted by their folder under the real-data folder (one published data set each), not by
file: a folder may hold a data set twice (an older copy, a sample of it).

    python tests/devset/type_confidence.py     # the table: the figures GUESS_RECORD must hold

The real sets are read from ``$REVIEWTUI_REALDATA`` (default ``<repo>/../shared/realdata``).
"""

from __future__ import annotations

import os
import sys
import warnings
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SUFFIXES = (".jsonl", ".json", ".csv")


def realdata_dir() -> Path:
    return Path(os.environ.get("REVIEWTUI_REALDATA", ROOT.parent / "shared" / "realdata")).resolve()


def measure(realdata: Path) -> dict[str, tuple[int, int, int]]:
    """Guessed type -> (agreed, with a type of people's, sets), over every readable real file."""
    from reviewtui.evalset.checks.classify import classify_question
    from reviewtui.evalset.io import open_evalset
    from reviewtui.evalset.model.errors import EvalSetError
    from reviewtui.evalset.model.items import QuestionType

    known = set(QuestionType.ALL) - {QuestionType.UNANSWERABLE}
    agreed: dict[str, int] = defaultdict(int)
    labelled: dict[str, int] = defaultdict(int)
    sets: dict[str, set[str]] = defaultdict(set)
    for path in sorted(realdata.rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file():
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                evalset = open_evalset(path)
        except EvalSetError:
            continue  # not an eval set (a BEIR queries file, a retriever's sample)
        for item in evalset.items:
            if item.qtype not in known:
                continue
            guess = classify_question(item.question)
            labelled[guess] += 1
            agreed[guess] += guess == item.qtype
            sets[guess].add(path.relative_to(realdata).parts[0])
    return {guess: (agreed[guess], labelled[guess], len(sets[guess])) for guess in labelled}


def main() -> int:
    realdata = realdata_dir()
    if not realdata.is_dir():
        print(f"real data folder not found at {realdata}", file=sys.stderr)
        return 2
    record = measure(realdata)
    print(f"{'guess':<15} {'agreed':>6} {'of':>5} {'sets':>4}")
    for guess, (agreed, labelled, sets) in sorted(record.items(), key=lambda kv: -kv[1][1]):
        print(f"{guess:<15} {agreed:>6} {labelled:>5} {sets:>4}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
