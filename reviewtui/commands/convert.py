"""``reviewtui convert IN OUT``: turn any readable eval set into native JSONL or CSV."""

from __future__ import annotations

import argparse

FORMAT_CHOICES = ("jsonl", "csv", "beir", "legalbench", "squad", "hotpotqa", "nq")  # = io FORMATS; kept here so --help stays fast (a test checks they agree)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "convert",
        help="convert an eval set (JSONL, CSV, BEIR folder, LegalBench-RAG, SQuAD, HotpotQA, Natural Questions) to .jsonl or .csv",
        description=(
            "Read IN with the reader its content calls for and write OUT as native JSONL "
            "(lossless) or CSV (one anchor per item), chosen by OUT's extension."
        ),
    )
    parser.add_argument("input", metavar="IN", help="eval set file, or a BEIR folder")
    parser.add_argument("output", metavar="OUT", help="file to write: .jsonl or .csv")
    parser.add_argument("--from", dest="format", choices=FORMAT_CHOICES, help="skip format detection")
    parser.add_argument("--id", dest="evalset_id", help="id to give the converted set")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from reviewtui.evalset.io import describe_skipped, open_evalset, write_csv, write_jsonl
    from reviewtui.evalset.model import EvalSetError

    target = Path(args.output)
    suffix = target.suffix.lower()
    if suffix not in (".jsonl", ".csv"):
        raise EvalSetError("the output must end in .jsonl or .csv", path=str(target))
    evalset = open_evalset(args.input, format=args.format)
    if args.evalset_id:
        evalset = evalset.replace(id=args.evalset_id)
    written = write_csv(evalset, target) if suffix == ".csv" else write_jsonl(evalset, target)
    print(f"wrote {written}: {len(evalset)} questions ({evalset.source} set {evalset.id!r})")
    skipped = describe_skipped(evalset)
    if skipped:
        print(skipped)
    return 0
