"""``reviewtui filter FILE``: run the default filters and write what they keep as the next version.

The output goes beside the input (``quiz.jsonl`` → ``quiz.v2.jsonl``, or the
first later version whose file does not exist yet) unless ``-o`` names a file.
No existing file is replaced without ``--force``, and never the input, its
review journal or its lock. Rejections are printed grouped by filter, then the
chain's cautions.
"""

from __future__ import annotations

import argparse
import re
import sys
import warnings
from pathlib import Path

from reviewtui.cli.exits import EXIT_OK
from reviewtui.cli.options import add_force_option, add_input_format, add_output, add_set_file, add_split, output_rule

NAME = "filter"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="remove too-short, dangling, unresolved and near-duplicate questions; write the rest as the next version",
        description="Run the default filter chain (too-short, dangling reference, unresolved evidence, near-duplicate; "
        "the baseline and general-knowledge filters need inputs the command line does not take and are reported "
        "as skipped). The kept items are written as the next version of the set. "
        + output_rule(default_name=True, dash="-o - writes JSONL to standard output, and the messages go to standard error"),
    )
    add_set_file(parser)
    add_output(
        parser,
        help="where to write the kept set (.jsonl or .csv; - for JSONL on standard output); default: beside FILE",
    )
    add_force_option(parser, what="OUT when it exists; without -o, write the next version even over an earlier file of it")
    add_input_format(parser)
    add_split(parser)
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
    from reviewtui.cli.output import output_target, say, shown_path, to_stdout, warn, writing
    from reviewtui.evalset.checks.filters import default_filters
    from reviewtui.evalset.io import open_evalset, require_questions, write_csv, write_jsonl
    from reviewtui.evalset.io.outputs import check_output, free_output
    from reviewtui.evalset.text.counts import plural
    from reviewtui.evalset.text.words import visible

    source = Path(args.file)
    # Checked before the set is read: a refused -o should not wait for a large set to load.
    output_target(args.output, input_path=source, force=args.force)
    messages = sys.stderr if to_stdout(args.output) else sys.stdout
    evalset = require_questions(open_evalset(source, format=args.input_format, split=args.split), source)
    result = default_filters().run(evalset)
    filtered = result.as_evalset(evalset)
    if args.output:  # checked again: the file may have appeared while the filters ran
        target = check_output(args.output, input_path=source, force=args.force)
    else:
        target, version = free_output(
            lambda n: default_output(source, n), filtered.version, input_path=source, force=args.force
        )
        if version != filtered.version:
            filtered = filtered.model_copy(update={"version": version})

    for name, rejections in result.grouped().items():
        say(f"{name} ({len(rejections)}):", messages)
        for rejection in rejections:
            say(f"  {visible(rejection.item_id)}: {visible(rejection.reason)}", messages)
    say(result.summary(), messages)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with writing(target, "the filtered set"):
            if target.suffix.lower() == ".csv":
                write_csv(filtered, target)
            else:
                write_jsonl(filtered, target)
    for warning in caught:
        warn(f"reviewtui: {warning.message}")
    kept = f"{result.kept_count} {plural(result.kept_count, 'item', 'items')}"
    say(f"wrote version {filtered.version} ({kept}) to {shown_path(target)}", messages)
    for entry in result.warnings:
        say(visible(str(entry)), messages)
    return EXIT_OK
