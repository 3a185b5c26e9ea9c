"""``reviewtui filter FILE``: run the default filters and write what they keep as the next version.

The output goes beside the input (``quiz.jsonl`` → ``quiz.v2.jsonl``, or the
first later version whose file does not exist yet) unless ``-o`` names a file.
No existing file is replaced without ``--force``, and never the input, its
review journal or its lock. Rejections are printed grouped by filter, the first
:data:`NAMED` of each by id (``--list-all``: every one), then the chain's cautions.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from pathlib import Path

from reviewtui.cli.exits import EXIT_OK, keep_until_exit
from reviewtui.cli.options import (
    add_force_option,
    add_input_format,
    add_lossy_option,
    add_output,
    add_set_file,
    add_split,
    output_rule,
)

NAME = "filter"

#: Removed items named per filter; the rest are counted (``--list-all`` names every one). A large set's
#: thousands of lines would scroll the summary, the cautions and where the set went out of sight.
NAMED = 20


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="remove too-short, unresolved and duplicate questions; write the rest as the next version",
        description="Run the filter chain (by default as the review profile weighs it: too-short questions, "
        "except short statements and sets of keyword queries; unresolved evidence; and repeats asked in the same "
        "words with the same expected answer; --profile goldensetauditor adds the dangling-reference filter "
        "and near-duplicates by word overlap; the baseline and general-knowledge filters need inputs the command "
        "line does not take and are reported as skipped). The kept items are written as the next version of the set. "
        + output_rule(default_name=True, dash="-o - writes JSONL to standard output, and the messages go to standard error"),
    )
    add_set_file(parser)
    add_output(
        parser,
        help="where to write the kept set (.jsonl or .csv; - for JSONL on standard output); default: beside FILE",
    )
    add_force_option(parser, what="OUT when it exists (without -o, a new version is written, never over an earlier one)")
    parser.add_argument(
        "--profile",
        choices=("review", "goldensetauditor"),
        default="review",
        help="review (the default): remove only on filters whose warnings are medium or above in the review "
        "profile, and repeats only when asked in the same words with the same expected answer; goldensetauditor: "
        "the whole documented chain",
    )
    parser.add_argument(
        "--list-all",
        action="store_true",
        help=f"name every removed question (default: the first {NAMED} of each filter, and how many more)",
    )
    add_lossy_option(parser)
    add_input_format(parser)
    add_split(parser)
    parser.set_defaults(func=run)


def default_output(source: Path, version: int, split: str | None = None) -> Path:
    """``name.jsonl`` → ``name.v2.jsonl``; a CSV stays CSV; other formats become JSONL. A BEIR folder's ``split``
    other than its default is named, as an export names it (``scifact.train.v2.jsonl``)."""
    from reviewtui.evalset.review.export import next_version_path

    return next_version_path(source, version, _format_of(source), split, made_by="filtered")


def _format_of(source: Path) -> str:
    """The format of the filtered set's default name: a CSV stays CSV, everything else becomes JSONL."""
    return "csv" if source.is_file() and source.suffix.lower() == ".csv" else "jsonl"


def run(args: argparse.Namespace) -> int:
    from reviewtui.cli.output import (
        output_target,
        reader_may_leave,
        refuse_csv_losses,
        say,
        say_skipped,
        set_output_format,
        shown_path,
        to_stdout,
        warn,
        writing,
    )
    from reviewtui.evalset.checks.filters import default_filters
    from reviewtui.evalset.checks.review_filters import review_chain
    from reviewtui.evalset.io import open_evalset, require_questions, write_csv, write_jsonl
    from reviewtui.evalset.io.outputs import check_output, claimed_output, refuse_output_beside
    from reviewtui.evalset.jobs.collector import map_large_blocks_apart
    from reviewtui.evalset.review.export import version_siblings
    from reviewtui.evalset.text.counts import plural
    from reviewtui.evalset.text.words import visible, visible_id

    source = Path(args.file)
    # Checked before the set is read: a refused -o should not wait for a large set to load.
    output_target(args.output, input_path=source, force=args.force)
    set_output_format(args.output)  # a name that could not be read back as a set (kept.json) is refused
    if not args.output:
        refuse_output_beside(source)
    messages = sys.stderr if to_stdout(args.output) else sys.stdout
    map_large_blocks_apart()  # as in audit: the scan's large temporaries go back to the system when dropped
    evalset = open_evalset(source, format=args.input_format, split=args.split, share_strings=True)  # see audit
    evalset = require_questions(evalset, source)
    say_skipped(evalset, messages, args.file, args.input_format)
    if args.profile == "goldensetauditor":
        chain, rarely_right, notes = default_filters(), [], []
    else:
        review = review_chain(evalset)
        chain, rarely_right, notes = review.chain, review.rarely_right, review.notes
    result = chain.run(evalset, say_stood_down=True)  # the library's bare chain is silent on them, as documented
    filtered = _with_filter_record(result.as_evalset(evalset), evalset, source, args.profile, result, args.split)
    if filtered.meta[FILTER_KEY]["from_version"] != evalset.version:  # a CSV's version, kept in its name only
        filtered = filtered.model_copy(update={"version": filtered.meta[FILTER_KEY]["from_version"] + 1})
    keep_until_exit(evalset, result, filtered)  # freed by the process's end, not object by object on return
    if args.output:
        named = Path(args.output)
    else:
        # The name the set will take now, with the version in it (as export's default_name): a CSV's id and version
        # are read back from its name, so the note of what it leaves out named quiz.v2 of a file written as quiz.v5.
        from reviewtui.evalset.io.outputs import free_output

        named, version = free_output(
            lambda n: default_output(source, n, args.split),
            filtered.version,
            input_path=source,
            siblings=version_siblings(source, _format_of(source), args.split),
        )
        if version != filtered.version:
            filtered = filtered.model_copy(update={"version": version})
    as_csv = named.suffix.lower() == ".csv"
    if as_csv and result.kept_count:  # refused before anything else is said (nothing is written when none is kept)
        refuse_csv_losses(filtered, named, args.lossy)
    with reader_may_leave(messages):  # `reviewtui filter quiz.jsonl | head`: the set is written all the same
        for name, rejections in result.grouped().items():
            say(f"{name} ({len(rejections)}):", messages)
            named = rejections if args.list_all else rejections[:NAMED]
            for rejection in named:
                say(f"  {visible_id(rejection.item_id)}: {visible(rejection.reason)}", messages)
            if len(rejections) > len(named):
                say(f"  and {len(rejections) - len(named)} more (--list-all names every one)", messages)
        say(result.summary(), messages)
        for note in notes:
            say(note, messages)
        if args.profile != "goldensetauditor":
            say(
                f"not used ({args.profile} profile: rarely right on real sets): {', '.join(rarely_right)}; "
                "repeats removed only when asked in the same words with the same expected answer; "
                "--profile goldensetauditor runs every filter",
                messages,
            )
    if not result.kept_count:
        # Written, it was a file that `audit`, `status` and the app refuse ("no questions in this file"), after an
        # exit 0 and a caution about "only 0 questions" left: a pipeline went on with nothing.
        from reviewtui.evalset.model.errors import InputError
        from reviewtui.evalset.text.counts import count

        raise InputError(
            f"the filters removed every one of its {count(result.rejected_count, 'question')}, so nothing was written: "
            "a set without questions is one no command opens",
            path=args.file,
        )
    # Named last, just before the write: a name claimed is an empty file until then (see claimed_output).
    with contextlib.ExitStack() as claim:
        if args.output:  # checked again: the file may have appeared while the filters ran
            target = check_output(args.output, input_path=source, force=args.force)
        else:
            name_for = lambda n: default_output(source, n, args.split)  # noqa: E731
            siblings = version_siblings(source, _format_of(source), args.split)  # a version is one set, in either format
            target, version = claim.enter_context(claimed_output(name_for, filtered.version, input_path=source, siblings=siblings))
            if version != filtered.version:
                filtered = filtered.model_copy(update={"version": version})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with writing(target, "the filtered set"):
                if as_csv:
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


def _with_filter_record(filtered, evalset, source: Path, profile: str, result, split=None):  # EvalSet, FilterResult: late
    """``filtered`` with a record of this filtering in its header's ``meta["filter"]``: what it was made from, with
    which profile, and how many items each filter removed. Without it, the next version carried only the header of
    the review before (``meta["review"]``, kept as it was), and read as that review's export.
    An earlier filtering's record, when the set was itself filtered, is kept under ``previous``."""
    from reviewtui.evalset.io.files import set_sha256
    from reviewtui.evalset.io.journal import split_record
    from reviewtui.evalset.io.names import file_name_text
    from reviewtui.evalset.review.export import tool_name, version_read

    record = {
        "from_version": version_read(evalset, source),  # quiz.v2.csv is version 2 though a CSV reads back as 1
        "from_file": file_name_text(source.name),
        "from_sha256": set_sha256(source),
        **split_record(split),  # as an export's record names it
        "profile": profile,
        "tool": tool_name(),
        "kept": result.kept_count,
        "removed": {name: len(rejections) for name, rejections in result.grouped().items()},
    }
    if FILTER_KEY in evalset.meta:
        record["previous"] = evalset.meta[FILTER_KEY]
    return filtered.model_copy(update={"meta": {**filtered.meta, FILTER_KEY: record}})


#: Where a filtered set's header records the filtering (see _with_filter_record).
FILTER_KEY = "filter"
