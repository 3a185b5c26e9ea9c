"""``reviewtui audit FILE``: the golden-set audit and per-item flags, as text, JSON, Markdown or HTML.

Exit codes: 0 nothing fails, 1 a FAIL finding (conflicting expected answers),
2 bad input, a file without questions included. A progress bar appears on stderr
only when stderr is a terminal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reviewtui.cli.exits import EXIT_FINDING, EXIT_OK, keep_until_exit
from reviewtui.cli.options import (
    add_corpus_options,
    add_force_option,
    add_input_format,
    add_output,
    add_output_format,
    add_set_file,
    add_split,
    open_corpus,
    output_rule,
)

NAME = "audit"

FORMATS = ("text", "json", "md", "html")  # = report.FORMATS; kept here so --help stays fast (a test checks they agree)
_SUFFIX_FORMAT = {".json": "json", ".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".txt": "text"}


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="audit a set: conflicting answers, duplicates, weak answers, ambiguity, coverage (+ per-item flags)",
        description="Run the seven golden-set checks and every filter on every item. Exit status: 0 when nothing "
        "fails, 1 when a question has conflicting expected answers, 2 when the input cannot be read or holds no questions. "
        + output_rule(dash="-o - writes the report to standard output, as without -o", corpus=True),
    )
    add_set_file(parser)
    add_output_format(
        parser,
        choices=FORMATS,
        help="report format: text, json, md or html (default: from the -o extension, else text); "
        "json also lists every item's flags",
    )
    add_output(parser, help="write the report here (atomically) instead of stdout")
    add_force_option(parser)
    parser.add_argument(
        "--category-key",
        metavar="KEY",
        help="meta key holding each item's category for the coverage check (default: the question type)",
    )
    add_corpus_options(
        parser,
        corpus_help="folder of source documents: locate every quote first and add evidence flags (not found, approximate); "
        "a BEIR folder audited without it is checked against its own corpus.jsonl",
    )
    parser.add_argument(
        "--profile",
        choices=PROFILE_NAMES,
        default=PROFILE_NAMES[0],
        help="what each per-item flag weighs: review (the default: checks not precise enough on labelled real "
        "items are hints) or goldensetauditor (every check as that tool weighs it, for comparison)",
    )
    add_input_format(parser)
    add_split(parser)
    parser.set_defaults(func=run)


#: The scan's profiles (registry.PROFILES), written out so that --help imports no core module;
#: a test keeps the two equal.
PROFILE_NAMES = ("review", "goldensetauditor")


def _use_the_folder_corpus(args: argparse.Namespace) -> None:
    """A BEIR folder audited without --corpus is checked against its own corpus.jsonl, as the app opens it for
    its review: the app warned of a relevant document missing from the corpus that the audit did not see."""
    from reviewtui.cli.options import folder_corpus_file
    from reviewtui.cli.output import say

    notices: list[str] = []
    found = folder_corpus_file(args, notices, "the relevant documents are not checked", "give")
    for notice in notices:
        say(f"note: {notice}", sys.stderr)
    if found is not None:
        args.corpus = found
        say(f"note: the relevant documents are checked against the folder's own {found} (as --corpus would)", sys.stderr)


def _format(args: argparse.Namespace) -> str:
    if args.output_format:
        return args.output_format
    if args.output:
        return _SUFFIX_FORMAT.get(Path(args.output).suffix.lower(), "text")
    return "text"


def run(args: argparse.Namespace) -> int:
    from reviewtui.cli.output import output_target, say_skipped, to_stdout, warn, write_stdout, writing
    from reviewtui.cli.progress import TerminalProgress
    from reviewtui.evalset.checks.report import findings_json_chunks, render, render_chunks
    from reviewtui.evalset.checks.scan import scan_flags
    from reviewtui.evalset.io import open_evalset, require_questions
    from reviewtui.evalset.io.files import atomic_write
    from reviewtui.evalset.jobs.collector import map_large_blocks_apart
    from reviewtui.evalset.review.export import version_read

    fmt = _format(args)
    if not args.corpus:
        _use_the_folder_corpus(args)
    # Checked before the audit runs: a refused -o should not wait for the whole scan.
    output_target(args.output, input_path=args.file, force=args.force, reads=args.corpus)
    map_large_blocks_apart()  # the scan's large temporaries go back to the system when dropped
    # Shared evidence strings: the set is held beside the scan, whose peak is the command's.
    evalset = open_evalset(args.file, format=args.input_format, split=args.split, share_strings=True)
    evalset = require_questions(evalset, args.file)
    say_skipped(evalset, sys.stderr, args.file, args.input_format)  # standard output may be the report
    evidence = None
    with TerminalProgress("reading") as bar:
        if args.corpus:
            from reviewtui.evalset.evidence.resolve import AnchorResolver, evidence_flags

            bar.stage("locating quotes")
            # The set is checked as read, its quotes' places in the corpus added as evidence flags, as the review
            # app does: the duplicate flags say what `reviewtui filter FILE` does, and that command takes no corpus.
            # Checked as resolved, a quote found in the corpus gave its item a gold span, so the flags said
            # `filter` removes the items whose quotes were not found, or keeps copies it drops.
            resolution = AnchorResolver().resolve_with_report(evalset, open_corpus(args), progress=bar)[1]
            evidence = evidence_flags(resolution)
        bar.stage("checking")
        scan = scan_flags(
            evalset,
            category_key=args.category_key,
            progress=bar,
            evidence_flags=evidence,
            profile=args.profile,
            findings_json=findings_json_chunks if fmt == "json" else None,  # the scan's child writes them, on its core
        )
    keep_until_exit(evalset, scan)  # freed by the process's end, not object by object on return
    version = version_read(evalset, args.file)  # a CSV's version is in its name, as info, status and export say it
    if version != scan.audit.set_version:
        import dataclasses  # here, not at the top: --help would pay for it (a tenth of the command's start)

        scan = dataclasses.replace(scan, audit=dataclasses.replace(scan.audit, set_version=version))
    failed = scan.audit.failed
    if args.output and not to_stdout(args.output):
        # JSON is made piece by piece as it is written, its per-item flags on the other core
        data = render_chunks(scan.audit, scan, fmt, flags_apart=True)
        output_target(args.output, input_path=args.file, force=args.force, reads=args.corpus)  # again: it may have appeared meanwhile
        try:
            with writing(args.output, "the report"):
                atomic_write(args.output, data)
        finally:
            # A write that failed part-way leaves the pieces unread: closing them ends the child making the flags
            # now, not when the failure's traceback lets go of them.
            close = getattr(data, "close", None)
            if close is not None:
                close()
        # What was written first, the status after it: a line led by the status would read as a warning about the write.
        said = f"wrote the {fmt} report to {args.output} (audit status {scan.audit.status.value})"
        if not args.output_format and Path(args.output).suffix.lower() not in _SUFFIX_FORMAT:
            # `-o audit.jsonl` read as asking for JSON, and got text under that name without a word.
            said += "; its name ends in no report format's extension, so it is text (--to json, md or html for another)"
        warn(said)
    else:
        write_stdout(render(scan.audit, scan, fmt), whole_lines=fmt == "json")
    return EXIT_FINDING if failed else EXIT_OK
