"""``reviewtui status FILE``: how far a review has got, read from its journal."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "status",
        help="print review progress, counts, pace and time spent, without opening the app",
        description=(
            "Read the set and its review journal (without locking or changing either) "
            "and say where the review stands."
        ),
    )
    parser.add_argument("file", help="the eval set under review")
    parser.add_argument("--journal", metavar="PATH", help="the review journal (default: <file>.reviewtui-journal)")
    parser.add_argument(
        "--input-format", metavar="FORMAT", help="reader for the input when the file type is not enough"
    )
    parser.add_argument("--all", action="store_true", help="count items already marked reviewed as part of the review")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from reviewtui.evalset.session import load_review, status_lines

    loaded = load_review(
        args.file, journal_path=args.journal, include_reviewed=args.all or None, format=args.input_format
    )
    for line in status_lines(loaded):
        print(line)
    return 0
