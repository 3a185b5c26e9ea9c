"""``reviewtui info FILE``: what a set holds, without opening the app."""

from __future__ import annotations

import argparse

from reviewtui.commands.common import SET_FILE_HELP, say


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("info", help="print a one-screen summary of an eval set")
    parser.add_argument("file", help=SET_FILE_HELP)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from reviewtui.evalset.checks.classify import type_distribution
    from reviewtui.evalset.io import describe_skipped, open_evalset
    from reviewtui.evalset.checks.quality import assess

    evalset = open_evalset(args.file)
    quality = assess(evalset)
    say(f"{evalset.id} v{evalset.version} ({evalset.source}): {len(evalset)} questions")
    say(quality.summary())
    types = ", ".join(f"{name} {count}" for name, count in type_distribution(evalset).items())
    say(f"types: {types or 'none'}")
    skipped = describe_skipped(evalset)
    if skipped:
        say(skipped)
    for entry in quality.warnings().entries:
        say(str(entry))
    return 0
