"""``reviewtui status FILE``: how far a review has got, read from its journal."""

from __future__ import annotations

import argparse

from reviewtui.cli.exits import EXIT_OK
from reviewtui.cli.options import add_review_source_options, add_set_file
from reviewtui.cli.output import say

NAME = "status"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="print review progress, counts, pace and time spent, without opening the app",
        description=(
            "Read the set and its review journal (without locking or changing either) "
            "and say where the review stands."
        ),
    )
    add_set_file(parser, help="the eval set under review")
    add_review_source_options(parser, all_help="count items already marked reviewed as part of the review")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from reviewtui.evalset.io import require_questions
    from reviewtui.evalset.review.session import load_review, status_lines

    loaded = load_review(
        args.file, journal_path=args.journal, include_reviewed=args.all or None, format=args.input_format, split=args.split
    )
    require_questions(loaded.evalset, args.file)  # as `review` would: a file without questions has no review
    for line in status_lines(loaded):
        say(line)
    return EXIT_OK
