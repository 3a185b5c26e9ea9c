"""``reviewtui resolve FILE --corpus DIR [-o OUT]``: find every quote in its source document.

Gold spans without quotes are quoted from the corpus (so span-only sets such as
LegalBench-RAG become portable), then every anchor is looked up and items
without gold get spans from their anchors. A one-paragraph summary and the
anchors that need a look are printed; the set is written only when ``-o``
names a file (JSONL, atomically). An existing file is replaced only with
``--force``, and never the input, its review journal or its lock.
"""

from __future__ import annotations

import argparse

from reviewtui.cli.exits import EXIT_FINDING, EXIT_OK
from reviewtui.cli.options import (
    add_corpus_options,
    add_force_option,
    add_input_format,
    add_output,
    add_set_file,
    add_split,
    number_where,
    open_corpus,
    output_rule,
)

NAME = "resolve"

#: --threshold when not given (cli._options_that_clash tells it from one given beside --no-fuzzy).
DEFAULT_THRESHOLD = 85.0

HELP = "find each quote in its source document; fill gold spans, add quotes for spans"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help=HELP,
        description=HELP[0].upper()
        + HELP[1:]
        + ". Writes nothing without -o. "
        + output_rule(dash="-o - writes the set to standard output, and the messages go to standard error", corpus=True),
    )
    add_set_file(parser, help="eval set (.jsonl, .csv, LegalBench-RAG .json, ...)")
    add_corpus_options(parser, required=True, corpus_help="folder of source documents")
    add_output(parser, help="write the resolved set here (JSONL); - for standard output")
    add_force_option(parser)
    add_input_format(parser, old_spellings=("--format", "--input-format"))
    add_split(parser)
    parser.add_argument(
        "--threshold",
        type=_threshold,
        default=DEFAULT_THRESHOLD,
        help=f"lowest score (0-100) for an approximate match (default {DEFAULT_THRESHOLD:g})",
    )
    parser.add_argument("--no-fuzzy", action="store_true", help="accept exact and normalised matches only")
    parser.add_argument(
        "--overwrite-gold",
        action="store_true",
        help="replace existing gold spans with the resolved anchors (an item some of whose anchors are not found "
        "keeps its gold)",
    )
    parser.add_argument(
        "--requote", action="store_true", help="replace existing anchors of items that have gold with quotes of that gold"
    )
    parser.add_argument("--no-quotes", action="store_true", help="do not add anchors quoting gold spans")
    parser.add_argument("--show", type=_shown, default=20, metavar="N", help="list at most N anchors needing a look")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when any evidence cannot be resolved: an anchor not found or naming an unknown document, "
        "a gold span that could not be quoted (spans are not looked at with --no-quotes), or a relevant "
        "document (BEIR) the corpus does not hold",
    )
    parser.set_defaults(func=run)



#: --threshold: a score above 0 and at most 100.
_threshold = number_where(lambda value: 0 < value <= 100, "above 0 and at most 100")


def _shown(text: str) -> int:
    """--show's N: a whole number of 0 or more (-1 listed nothing and said nothing of it)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"{number} is below 0: N is how many anchors to list (0 for none)")
    return number

def run(args: argparse.Namespace) -> int:
    import sys

    from reviewtui.cli.output import is_stream, output_target, say, say_skipped, shown_path, to_stdout, writing
    from reviewtui.evalset.evidence.resolution import excerpt
    from reviewtui.evalset.evidence.resolve import AnchorResolver, evidence_flags, spans_to_anchors_with_report
    from reviewtui.evalset.io import open_evalset, require_questions, write_jsonl
    from reviewtui.evalset.io.outputs import names_a_folder
    from reviewtui.evalset.model.errors import EvalSetError
    from reviewtui.evalset.model.flag import Severity

    # A pipe or a device (/dev/null) takes JSONL whatever its name, as --help says and convert does.
    # "out.jsonl/" (or "/", "x/.") names a folder: output_target below says so, not that the suffix is wrong
    folder = names_a_folder(args.output) if args.output else False
    wrong_suffix = not args.output.lower().endswith(".jsonl") if args.output else False
    if args.output and not folder and wrong_suffix and not to_stdout(args.output) and not is_stream(args.output):
        raise EvalSetError(
            "resolve writes JSONL (the resolved set holds gold spans, which CSV cannot); "
            "name an output ending in .jsonl",
            path=args.output,
        )
    if not 0 < args.threshold <= 100:
        raise EvalSetError("--threshold must be above 0 and at most 100")
    output_target(args.output, input_path=args.file, force=args.force, reads=args.corpus)
    messages = sys.stderr if to_stdout(args.output) else sys.stdout

    evalset = require_questions(open_evalset(args.file, format=args.input_format, split=args.split), args.file)
    say_skipped(evalset, messages, args.file, args.input_format)
    corpus = open_corpus(args)

    span_problems: tuple = ()
    quoted_items = 0
    if not args.no_quotes:
        before = evalset
        evalset, span_problems = spans_to_anchors_with_report(evalset, corpus, replace_anchors=args.requote)
        quoted_items = sum(1 for old, new in zip(before.items, evalset.items) if old is not new)

    resolver = AnchorResolver(threshold=args.threshold, fuzzy=not args.no_fuzzy, overwrite_gold=args.overwrite_gold)
    resolved, report = resolver.resolve_with_report(evalset, corpus)

    say(report.summary(), messages)
    if quoted_items or span_problems:
        line = f"Quoted the gold spans of {quoted_items} item{'s' if quoted_items != 1 else ''} as anchors"
        if span_problems:
            line += f"; {len(span_problems)} span{'s' if len(span_problems) != 1 else ''} could not be quoted"
        say(line + ".", messages)
    for problem in corpus.problems:
        say(f"document {excerpt(problem.doc_id, 100)}: {problem.reason}", messages)

    flagged = [
        (item_id, flag)
        for item_id, flags in evidence_flags(report).items()
        for flag in flags
        if flag.severity >= Severity.MEDIUM
    ]
    for item_id, flag in flagged[: max(args.show, 0)]:
        say(f"  {excerpt(item_id, 40)} [{flag.severity.label}] {flag.reason}", messages)
    if len(flagged) > args.show > 0:
        say(f"  … and {len(flagged) - args.show} more", messages)
    for problem in span_problems[: max(args.show, 0)]:
        span = problem.span
        where = f"{excerpt(span.doc_id, 80)} [{span.start}, {span.end})"
        say(f"  {excerpt(problem.item_id, 40)} span {where}: {problem.reason}", messages)

    if args.output:
        output_target(args.output, input_path=args.file, force=args.force, reads=args.corpus)  # again: it may have appeared meanwhile
        with writing(args.output, "the resolved set"):
            write_jsonl(resolved, args.output)
        say(f"wrote {shown_path(args.output)}", messages)
    else:
        say("nothing written (use -o OUT to save the resolved set)", messages)

    # A span that names no document, or runs past its end, is evidence that cannot be found, as a quote not
    # found is: a span-only set (LegalBench-RAG) had no anchors to fail on, and passed --strict however broken.
    # So is a relevant document a BEIR question names that the corpus does not hold (it was listed, high, and
    # --strict passed).
    failed = bool(span_problems) or bool(report.missing_documents) or any(not r.found for r in report.resolutions)
    return EXIT_FINDING if args.strict and failed else EXIT_OK
