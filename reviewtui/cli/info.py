"""``reviewtui info FILE``: what a set holds, without opening the app."""

from __future__ import annotations

import argparse

from reviewtui.cli.exits import EXIT_OK
from reviewtui.cli.options import add_input_format, add_set_file, add_split
from reviewtui.cli.output import say, skipped_text

NAME = "info"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="print a one-screen summary of an eval set",
        description=(
            "Read a set in any format reviewtui reads and say what it holds: its name and version, how many "
            "questions, how many have evidence and answers, the question types, and what a review of it should "
            "know first. Nothing is written. An empty set is described as empty (exit 0); the commands that "
            "review or check a set refuse one (exit 2)."
        ),
    )
    add_set_file(parser)
    add_input_format(parser)
    add_split(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from reviewtui.evalset.checks.classify import type_distribution
    from reviewtui.evalset.checks.quality import assess
    from reviewtui.evalset.io import open_evalset
    from reviewtui.evalset.review.export import version_read
    from reviewtui.evalset.text.counts import count

    evalset = open_evalset(args.file, format=args.input_format, split=args.split)
    quality = assess(evalset, text_markers=True)  # a spreadsheet's "false" is not reviewed
    version = version_read(evalset, args.file)  # a CSV's version is in its name, as the export counts it
    say(f"{evalset.id} v{version} ({evalset.source}): {count(len(evalset), 'question')}")
    say(quality.command_summary())
    if len(evalset):
        # The description promises how many have answers: "with evidence" counts quotes and spans, not expected
        # answers (SQuAD 2.0's impossible questions have neither; a BEIR set has evidence and no answer at all).
        answered = sum(1 for item in evalset.items if item.answer is not None)
        say(f"expected answers: {answered:,} of {count(len(evalset), 'question')}")
    types = ", ".join(f"{name} {count}" for name, count in type_distribution(evalset).items())
    say(f"types: {types or 'none'}")
    skipped = skipped_text(evalset, args.file, args.input_format)
    if skipped:
        say(skipped)
    for entry in quality.warnings(say_skipped=True).entries:
        say(str(entry))
    return EXIT_OK
