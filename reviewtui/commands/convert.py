"""``reviewtui convert IN OUT``: turn any readable eval set into native JSONL or CSV."""

from __future__ import annotations

import argparse
import sys

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
    parser.add_argument(
        "--corpus-out",
        metavar="DIR",
        help="also write the documents a SQuAD, HotpotQA or Natural Questions file carries to DIR, one .txt each, "
        "so that `reviewtui FILE --corpus DIR` shows every quote in its context",
    )
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
    documents = _documents(args) if args.corpus_out else None
    written = write_csv(evalset, target) if suffix == ".csv" else write_jsonl(evalset, target)
    print(f"wrote {written}: {len(evalset)} questions ({evalset.source} set {evalset.id!r})")
    skipped = describe_skipped(evalset)
    if skipped:
        print(skipped)
    if documents is not None:
        _write_documents(documents, args.corpus_out)
    return 0


def _documents(args: argparse.Namespace) -> dict[str, str]:
    """The documents the input carries; a usage error for formats that carry none."""
    from reviewtui.evalset.io import hotpot_corpus, nq_corpus, sniff_format, squad_corpus
    from reviewtui.evalset.model import EvalSetError

    kind = args.format or sniff_format(args.input)
    readers = {"squad": squad_corpus, "nq": nq_corpus, "hotpotqa": hotpot_corpus}
    if kind not in readers:
        raise EvalSetError(
            f"--corpus-out needs a file that carries its documents (SQuAD, HotpotQA or Natural Questions), not {kind}",
            path=str(args.input),
        )
    return readers[kind](args.input)


def _write_documents(documents: dict[str, str], folder: str) -> None:
    from reviewtui.evalset.io.corpusfiles import write_corpus

    count, refused = write_corpus(documents, folder)
    print(f"wrote {count} documents to {folder}/ (open the set with --corpus {folder})")
    for doc_id, why in list(refused.items())[:5]:
        print(f"not written: document {doc_id!r}: {why}", file=sys.stderr)
    if len(refused) > 5:
        print(f"not written: {len(refused) - 5} more documents", file=sys.stderr)
