"""``reviewtui export FILE``: write the reviewed set (or the rejected questions) from the journal."""

from __future__ import annotations

import argparse

from reviewtui.commands.common import add_review_source_options


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "export",
        help="write the reviewed set as its next version, or the rejected questions",
        description=(
            "Write the set as reviewed so far: rejected and skipped questions dropped, accepted and edited "
            "ones marked reviewed, undecided ones unchanged. The default name is <stem>.v<N>.<format> "
            "beside the input; the input itself is only overwritten when -o names it. With --rejected, "
            "write the rejected questions with their reason codes and notes instead "
            "(default <stem>.rejected.<format>). Works while the review app is open."
        ),
    )
    parser.add_argument("file", help="the eval set that was reviewed (any format reviewtui reads)")
    parser.add_argument("-o", "--output", metavar="OUT", help="where to write (default: beside the input)")
    parser.add_argument("--format", choices=("jsonl", "csv"), default="jsonl", help="output format (default jsonl)")
    parser.add_argument("--rejected", action="store_true", help="write the rejected questions with their reasons")
    add_review_source_options(parser, all_help="include items already marked reviewed in the review")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import warnings

    from reviewtui.evalset.export import export_rejected, export_reviewed
    from reviewtui.evalset.session import load_review

    loaded = load_review(
        args.file, journal_path=args.journal, include_reviewed=args.all or None, format=args.input_format
    )
    for line in loaded.report.lines()[1:]:
        print(f"note: {line}")
    if not loaded.contents.records:  # the same test `status` uses for "not started"
        path = loaded.journal_path
        found = f"the review journal at {path} holds no decisions" if path.exists() else f"no review journal at {path}"
        print(
            f"note: {found}, so nothing has been decided yet: the export is the set as it stands "
            "(pass --journal if the review was saved elsewhere)"
        )
    write = export_rejected if args.rejected else export_reviewed
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        target = write(loaded.evalset, loaded.queue, loaded.input_path, args.output, args.format)
    for warning in caught:
        print(f"note: {warning.message}")
    queue = loaded.queue
    if args.rejected:
        print(f"wrote {len(queue.rejections())} rejected question(s) to {target}")
    else:
        stats = queue.stats()
        print(
            f"wrote {target}: version {loaded.evalset.version + 1}, "
            f"{stats.decided} of {stats.total} reviewed ({', '.join(f'{n} {v}' for v, n in stats.counts.items())})"
        )
    return 0
