"""Options several subcommands share, declared once so their names and help never drift apart."""

from __future__ import annotations

import argparse


def add_review_source_options(parser: argparse.ArgumentParser, *, all_help: str) -> None:
    """Where the journal is, how to read the input, and whether already-reviewed items are in the review."""
    parser.add_argument("--journal", metavar="PATH", help="the review journal (default: <file>.reviewtui-journal)")
    parser.add_argument(
        "--input-format", metavar="FORMAT", help="reader for the input when the file type is not enough"
    )
    parser.add_argument("--all", action="store_true", help=all_help)
