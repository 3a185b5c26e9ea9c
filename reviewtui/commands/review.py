"""``reviewtui FILE`` / ``reviewtui review FILE``: open the review app."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("review", help="review a set in the terminal app (the default)")
    parser.add_argument("file", help="eval set (.jsonl or .csv)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # The app lands with the review-app issue; until then show what the set holds.
    from reviewtui.commands import info

    return info.run(args)
