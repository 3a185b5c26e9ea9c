"""Options several subcommands share, declared once so their names and help never drift apart."""

from __future__ import annotations

import argparse

SET_FILE_HELP = (
    "the eval set: .jsonl (native, HotpotQA or Natural Questions), .csv, a LegalBench-RAG or SQuAD .json, or a BEIR folder"
)


def add_review_source_options(parser: argparse.ArgumentParser, *, all_help: str) -> None:
    """Where the journal is, how to read the input, and whether already-reviewed items are in the review."""
    parser.add_argument("--journal", metavar="PATH", help="the review journal (default: <file>.reviewtui-journal)")
    parser.add_argument(
        "--input-format", metavar="FORMAT", help="reader for the input when the file type is not enough"
    )
    parser.add_argument("--all", action="store_true", help=all_help)


def add_corpus_options(parser: argparse.ArgumentParser, *, required: bool = False, corpus_help: str) -> None:
    """``--corpus DIR`` and ``--ext EXT`` (documents with other extensions than .txt and .md)."""
    parser.add_argument("--corpus", metavar="DIR", required=required, help=corpus_help)
    parser.add_argument(
        "--ext",
        action="append",
        default=[],
        metavar="EXT",
        help="with --corpus: also read documents with this extension (repeatable; .txt and .md always)",
    )


def open_corpus(args: argparse.Namespace):  # noqa: ANN201 - a Corpus, imported late to keep --help fast
    """The corpus the options name, or None without --corpus."""
    if not args.corpus:
        return None
    from reviewtui.evalset.corpus import DEFAULT_EXTENSIONS, Corpus

    return Corpus(args.corpus, extensions=(*DEFAULT_EXTENSIONS, *args.ext))
