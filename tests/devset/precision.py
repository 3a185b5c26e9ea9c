"""How often each check's warning is right, measured on the labelled development set.

Runs the per-item scan the review app and ``reviewtui audit`` run (``scan_flags``), once per
labelled set, opened the way the command line opens it (``open_evalset`` with the reader it
recognises, the BEIR split where a label names one, and ``--corpus`` for the sets that have
one), and compares the flags with ``labels.jsonl`` in this folder. Prints, per check: flags at
LOW or above on labelled items, true positives, precision and recall against ``should_flag``;
then how many clean items carry any warning at LOW or above; then, for every published set,
the share of *all* its items (not only the labelled ones) that carry such a warning.

    python tests/devset/precision.py              # the tables
    python tests/devset/precision.py --misfires   # also every wrong flag, with the label's note
    python tests/devset/precision.py --missed     # also every labelled defect no flag caught
    python tests/devset/precision.py --labels tests/devset/heldout.jsonl   # the held-out labels instead
    python tests/devset/precision.py --labels tests/devset/unseen.jsonl    # the labels of sets no other file touches

The real sets are read from ``$REVIEWTUI_REALDATA`` (default ``<repo>/../shared/realdata``).
See README.md in this folder for how the labels were made.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LABELS = HERE / "labels.jsonl"
REPO_PREFIX = "repo:"  # a set inside this repository (the demo set), not under the real-data folder

# Sets read with a corpus, as `reviewtui audit SET --corpus FOLDER` would (keys as in the labels).
CORPORA = {
    "legalbenchrag-privacyqa/benchmarks/privacy_qa.json": "legalbenchrag-privacyqa/corpus",
    "repo:sample_sets/wrenfield_tools/wrenfield_tools.jsonl": "repo:sample_sets/wrenfield_tools/corpus",
    "beir-agentset-leaderboard/arcd": "beir-agentset-leaderboard/arcd",  # the BEIR folder's corpus.jsonl
    "beir-agentset-leaderboard/business-reports": "beir-agentset-leaderboard/business-reports",  # likewise (unseen.jsonl)
}

# The flags the scan can put on an item besides the registered checks: the evidence lookup's.
EVIDENCE_CHECKS = (
    "evidence-not-found",
    "evidence-unknown-document",
    "evidence-unreadable",
    "evidence-approximate",
    "evidence-normalised",
    "evidence-page-hint",
)

LABEL_KEYS = {"set", "format", "split", "id", "should_flag", "clean", "note", "tolerated"}
#: Checks made to replace another answer the same labels (the labels name the check as it was
#: when they were written): unclear-reference is the precise successor of dangling-reference,
#: thin-answer of weak-answer.
SUCCESSORS = {"dangling-reference": ("unclear-reference",), "weak-answer": ("thin-answer",)}


def _with_successors(checks: Iterable[str]) -> frozenset[str]:
    names = set(checks)
    for check in list(names):
        names.update(SUCCESSORS.get(check, ()))
    return frozenset(names)
REQUIRED_KEYS = {"set", "id", "should_flag", "clean", "note"}


def realdata_dir() -> Path:
    return Path(os.environ.get("REVIEWTUI_REALDATA", ROOT.parent / "shared" / "realdata")).resolve()


def resolve(name: str, realdata: Path) -> Path:
    """A label's set (or corpus) name -> the path on disk."""
    if name.startswith(REPO_PREFIX):
        return ROOT / name[len(REPO_PREFIX) :]
    return realdata / name


def known_checks() -> set[str]:
    """Every check name a per-item flag can carry."""
    from reviewtui.evalset.checks.registry import checks

    return {c.name for c in checks()} | set(EVIDENCE_CHECKS)


@dataclass(frozen=True)
class Label:
    set: str
    id: str
    should_flag: frozenset[str]
    clean: bool
    note: str
    format: str | None = None
    split: str | None = None
    tolerated: frozenset[str] = frozenset()  # flags that are not needed here but not wrong (the kept copy of a real duplicate)

    @property
    def key(self) -> tuple[str, str | None, str | None]:
        return (self.set, self.format, self.split)


def read_labels(path: Path = LABELS) -> list[Label]:
    labels = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            unknown = set(row) - LABEL_KEYS
            missing = REQUIRED_KEYS - set(row)
            if unknown or missing:
                raise ValueError(f"{path}:{n}: unknown keys {sorted(unknown)}, missing keys {sorted(missing)}")
            labels.append(
                Label(
                    set=row["set"],
                    id=str(row["id"]),
                    should_flag=_with_successors(row["should_flag"]),
                    clean=row["clean"],
                    note=row["note"],
                    format=row.get("format"),
                    split=row.get("split"),
                    tolerated=_with_successors(row.get("tolerated", ())),
                )
            )
    return labels


def open_set(label_key: tuple[str, str | None, str | None], realdata: Path):
    """Open a labelled set as the command line would; quiet about the readers' notes (ids made up, …)."""
    from reviewtui.evalset.io import open_evalset

    name, fmt, split = label_key
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return open_evalset(resolve(name, realdata), format=fmt, split=split)


def scan_set(label_key: tuple[str, str | None, str | None], realdata: Path):
    """The evalset and its scan, with evidence flags when the set has a corpus (``audit --corpus``: the set is
    checked as read, its quotes' places in the corpus added as evidence flags)."""
    from reviewtui.evalset.checks.scan import scan_flags

    evalset = open_set(label_key, realdata)
    evidence = None
    corpus = CORPORA.get(label_key[0])
    if corpus is not None:
        from reviewtui.evalset.evidence.corpus import DEFAULT_EXTENSIONS, Corpus
        from reviewtui.evalset.evidence.resolve import AnchorResolver, evidence_flags

        _, resolution = AnchorResolver().resolve_with_report(
            evalset, Corpus(resolve(corpus, realdata), extensions=DEFAULT_EXTENSIONS)
        )
        evidence = evidence_flags(resolution)
    return evalset, scan_flags(evalset, evidence_flags=evidence)


@dataclass
class Tally:
    flags: int = 0  # flags at the severity looked at, on labelled items
    true: int = 0  # ... on an item labelled should_flag for this check
    tolerated: int = 0  # ... on an item where the label tolerates it
    should: int = 0  # labelled items that should carry this check
    caught: int = 0  # ... and do, at the severity looked at
    misfires: list[tuple[str, str, str]] = field(default_factory=list)  # (set, id, note)
    missed: list[tuple[str, str, str]] = field(default_factory=list)


def pct(num: int, den: int) -> str:
    return f"{100 * num / den:5.1f}%" if den else "    –"


def short_set(label_key: tuple[str, str | None, str | None]) -> str:
    name, _fmt, split = label_key
    return name + (f" [{split}]" if split else "")


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", type=Path, default=LABELS, help="the label file (default: labels.jsonl here)")
    parser.add_argument("--misfires", action="store_true", help="list every flag that is not in should_flag")
    parser.add_argument("--missed", action="store_true", help="list every should_flag check that did not fire")
    args = parser.parse_args(list(argv) if argv is not None else None)

    realdata = realdata_dir()
    if not realdata.is_dir():
        print(f"precision: no real-data folder at {realdata} (set REVIEWTUI_REALDATA)", file=sys.stderr)
        return 2

    from reviewtui.evalset.checks.registry import severity_table
    from reviewtui.evalset.model.flag import Severity

    registered = severity_table()
    labels = read_labels(args.labels)
    by_set: dict[tuple, list[Label]] = defaultdict(list)
    for label in labels:
        by_set[label.key].append(label)

    low: dict[str, Tally] = defaultdict(Tally)  # flags at LOW or above
    by_severity: dict[tuple[str, str], Tally] = defaultdict(Tally)  # (check, severity) -> flags at LOW or above
    hint: dict[str, Tally] = defaultdict(Tally)  # flags below LOW (hints)
    clean_items = clean_warned = clean_warned_strict = clean_flagged = 0
    defective = defective_warned = defective_caught = 0
    set_rows = []
    for key, set_labels in by_set.items():
        evalset, scan = scan_set(key, realdata)
        present = {item.id for item in evalset.items}
        warned_all = sum(1 for item in evalset.items if scan.worst(item.id) is not None and scan.worst(item.id) >= Severity.LOW)
        set_rows.append((key, len(evalset), warned_all, len(set_labels)))
        for label in set_labels:
            if label.id not in present:
                raise SystemExit(f"precision: {short_set(key)}: no item {label.id!r} (labels out of date?)")
            flags = scan.for_item(label.id)
            at_low = {f.check for f in flags if f.severity >= Severity.LOW}
            hints = {f.check for f in flags if f.severity < Severity.LOW} - at_low
            where = short_set(key)
            for f in flags:
                if f.severity >= Severity.LOW:
                    t = by_severity[(f.check, f.severity.label)]
                    t.flags += 1
                    t.true += f.check in label.should_flag
                    t.tolerated += f.check in label.tolerated and f.check not in label.should_flag
            for table, fired in ((low, at_low), (hint, hints)):
                for check in fired:
                    t = table[check]
                    t.flags += 1
                    if check in label.should_flag:
                        t.true += 1
                    elif check in label.tolerated:
                        t.tolerated += 1
                    else:
                        t.misfires.append((where, label.id, label.note))
            for check in label.should_flag:
                # Counted where the check's flag shows: the hint table for a hint, else the warning table.
                if check in at_low:
                    t, caught = low[check], True
                elif check in hints:
                    t, caught = hint[check], True
                else:
                    t, caught = (hint if registered.get(check, Severity.LOW) < Severity.LOW else low)[check], False
                t.should += 1
                if caught:
                    t.caught += 1
                else:
                    t.missed.append((where, label.id, label.note))
            if label.clean:
                clean_items += 1
                if at_low - label.tolerated:
                    clean_warned += 1
                if at_low:
                    clean_warned_strict += 1
                if flags:
                    clean_flagged += 1  # as if every hint were a warning
            else:
                defective += 1
                if at_low:
                    defective_warned += 1
                if at_low & label.should_flag:
                    defective_caught += 1

    print(
        f"Development set ({args.labels.name}): {len(labels)} labelled items in {len(by_set)} sets "
        f"({clean_items} clean, {defective} with a defect); realdata: {realdata}\n"
    )

    def table(title: str, rows: dict[str, Tally]) -> None:
        print(title)
        print(f"  {'check':<28} {'flags':>5} {'TP':>4} {'tol':>4} {'precision':>9} {'(w/ tol)':>8} {'should':>6} {'recall':>7}")
        for check in sorted(rows, key=lambda c: (-rows[c].flags, c)):
            t = rows[check]
            if not t.flags and not t.should:
                continue
            print(
                f"  {check:<28} {t.flags:>5} {t.true:>4} {t.tolerated:>4} {pct(t.true, t.flags):>9} "
                f"{pct(t.true + t.tolerated, t.flags):>8} {t.should:>6} {pct(t.caught, t.should):>7}"
            )
        print()

    table("Flags at LOW or above (what the review pane shows as a warning):", low)
    table("Hints (severity HINT only; shown, never counted as a warning):", hint)
    severities = defaultdict(list)
    for (check, severity), t in by_severity.items():
        severities[check].append((severity, t))
    split = {check: rows for check, rows in severities.items() if len(rows) > 1}
    if split:
        print("Checks whose warning comes at more than one severity:")
        for check in sorted(split):
            for severity, t in sorted(split[check], key=lambda r: r[0]):
                print(
                    f"  {check + ' (' + severity + ')':<28} {t.flags:>5} {t.true:>4} {t.tolerated:>4} {pct(t.true, t.flags):>9} "
                    f"{pct(t.true + t.tolerated, t.flags):>8}"
                )
        print()
    print("tol = flags on the kept copy of a real duplicate pair: not needed there, not wrong either.")
    print("(w/ tol) counts those as right; recall counts an item as caught when its check fires at all.\n")

    print("Items:")
    print(
        f"  clean items with a warning at LOW or above: {clean_warned}/{clean_items} = {pct(clean_warned, clean_items).strip()}"
        f"  (counting tolerated flags too: {clean_warned_strict}/{clean_items} = {pct(clean_warned_strict, clean_items).strip()})"
    )
    print(f"  clean items with any flag, hints counted too:  {clean_flagged}/{clean_items} = {pct(clean_flagged, clean_items).strip()}")
    print(f"  items with a defect that carry any warning:   {defective_warned}/{defective} = {pct(defective_warned, defective).strip()}")
    print(
        f"  ... a warning naming a labelled defect:         {defective_caught}/{defective} = {pct(defective_caught, defective).strip()}\n"
    )

    print("All items of each set (labelled or not) with a warning at LOW or above:")
    for key, n, warned, n_labelled in sorted(set_rows, key=lambda r: short_set(r[0])):
        tag = "" if not key[0].startswith(REPO_PREFIX) else "   (demo set, not published)"
        print(f"  {short_set(key):<74} {warned:>4}/{n:<4} {pct(warned, n)}   labelled {n_labelled}{tag}")
    print()

    if args.misfires:
        print("Misfires (flag not in should_flag nor tolerated):")
        for name, rows in (("", low), (" [hint]", hint)):
            for check in sorted(rows):
                for where, item_id, note in rows[check].misfires:
                    print(f"  {check}{name}  {where}  {item_id}: {note}")
        print()
    if args.missed:
        print("Missed (labelled should_flag, no flag at any severity):")
        for name, rows in (("", low), (" [hint]", hint)):
            for check in sorted(rows):
                for where, item_id, note in rows[check].missed:
                    print(f"  {check}{name}  {where}  {item_id}: {note}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
