"""``reviewtui filter FILE``: run the default filters and write what they keep as the next version.

The output goes beside the input (``quiz.jsonl`` → ``quiz.v2.jsonl``) unless
``-o`` names a file; the input is never overwritten unless ``-o`` names it.
Rejections are printed grouped by filter, then the chain's cautions.
"""

from __future__ import annotations

import argparse
import re
import sys
import warnings
from pathlib import Path

from reviewtui.commands.common import SET_FILE_HELP


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "filter",
        help="remove too-short, dangling, unresolved and near-duplicate questions; write the rest as the next version",
        description="Run the default filter chain (too-short, dangling reference, unresolved evidence, near-duplicate; "
        "the baseline and general-knowledge filters need inputs the command line does not take and are reported "
        "as skipped). The kept items are written as the next version of the set.",
    )
    parser.add_argument("file", help=SET_FILE_HELP)
    parser.add_argument("-o", "--output", metavar="OUT", help="where to write the kept set (.jsonl or .csv); default: beside FILE")
    parser.add_argument("--input-format", metavar="FMT", help="read FILE as this format instead of guessing")
    parser.set_defaults(func=run)


def default_output(source: Path, version: int) -> Path:
    """``name.jsonl`` → ``name.v2.jsonl``; a CSV stays CSV; other formats become JSONL."""
    suffix = source.suffix.lower() if source.is_file() and source.suffix.lower() in (".jsonl", ".csv") else ".jsonl"
    stem = source.stem if source.is_file() else source.name
    stem = re.sub(r"\.v\d+$", "", stem)
    target = source.parent / f"{stem}.v{version}{suffix}"
    if target.resolve() == source.resolve():  # only possible with odd names; never overwrite the input
        target = source.parent / f"{stem}.v{version}.filtered{suffix}"
    return target


def run(args: argparse.Namespace) -> int:
    from reviewtui.cli import EXIT_OK
    from reviewtui.evalset.filters import default_filters
    from reviewtui.evalset.io import open_evalset, write_csv, write_jsonl
    from reviewtui.evalset.model import EvalSetError
    from reviewtui.evalset.text import visible

    source = Path(args.file)
    evalset = open_evalset(source, format=args.input_format)
    result = default_filters().run(evalset)
    filtered = result.as_evalset(evalset)
    target = Path(args.output) if args.output else default_output(source, filtered.version)

    for name, rejections in result.grouped().items():
        print(f"{name} ({len(rejections)}):")
        for rejection in rejections:
            print(f"  {visible(rejection.item_id)}: {visible(rejection.reason)}")
    print(result.summary())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if target.suffix.lower() == ".csv":
                write_csv(filtered, target)
            else:
                write_jsonl(filtered, target)
        except OSError as exc:
            raise EvalSetError(f"cannot write the filtered set: {exc.strerror or exc}", path=str(target)) from None
    for warning in caught:
        print(f"reviewtui: {warning.message}", file=sys.stderr)
    print(f"wrote version {filtered.version} ({result.kept_count} items) to {target}")
    for entry in result.warnings:
        print(visible(str(entry)))
    return EXIT_OK
