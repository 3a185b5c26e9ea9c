"""``reviewtui overlap FILE OTHER``: the questions a set shares with another (a test split with its train split)."""

from __future__ import annotations

import argparse
import re

from reviewtui.cli.exits import EXIT_FINDING, EXIT_OK
from reviewtui.cli.options import add_input_format, add_set_file, add_split, set_file
from reviewtui.cli.output import say, write_stdout

NAME = "overlap"
#: Shared questions the text report names one by one; the rest are counted (--to json lists every one).
NAMED = 20


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="list the questions a set shares with another (test leaking into train)",
        description=(
            "Compare the questions of FILE with those of OTHER (a test split with its train split, a new version with "
            "the set a model was tuned on) and list each question of FILE that OTHER asks too: the same words in the "
            "same order, case, punctuation, Unicode forms and invisible characters aside, unless the two cite evidence "
            "from different documents (one question asked of two documents is two questions, counted apart). A question "
            "in both measures memory, not retrieval. --from names the format of both sets. "
            "Exit status: 0 when they share none, 1 when they share some, 2 when a set cannot be read. Nothing is "
            "written. For the splits of one BEIR folder: reviewtui overlap FOLDER FOLDER --split test --other-split train."
        ),
    )
    add_set_file(parser)
    parser.add_argument("other", type=set_file, metavar="OTHER", help="the set to compare with, in any format reviewtui reads")
    add_input_format(parser)
    add_split(parser)
    parser.add_argument("--other-split", metavar="NAME", help="with a BEIR folder as OTHER: read its qrels/NAME.tsv")
    parser.add_argument("--to", dest="output_format", choices=("text", "json"), default="text", help="text (default) or json")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from reviewtui.cli.output import say_skipped
    from reviewtui.evalset.checks.overlap import shared_questions
    from reviewtui.evalset.io import open_evalset, require_questions
    from reviewtui.evalset.io.names import file_name_text
    from reviewtui.evalset.model.errors import InputError
    from reviewtui.evalset.text.counts import count
    from reviewtui.evalset.text.words import in_quotes

    messages = sys.stderr if args.output_format == "json" else sys.stdout  # the JSON on standard output stays JSON
    if _same_file(args.file, args.other):
        from reviewtui.evalset.io.files import refuse_read_once

        # Read for FILE, a pipe given twice was empty for OTHER, and said to be an empty file.
        refuse_read_once(args.other, "FILE and OTHER are the same input, which cannot be read twice (and would share every question)")
    evalset = require_questions(open_evalset(args.file, format=args.input_format, split=args.split), args.file)
    say_skipped(evalset, messages, args.file, args.input_format)
    try:
        other = require_questions(open_evalset(args.other, format=args.input_format, split=args.other_split), args.other)
    except InputError as exc:
        if args.other_split is None or "(--split)" not in exc.message:
            raise
        raise InputError(exc.message.replace("(--split)", "(--other-split)"), path=exc.path, line=exc.line) from None
    from reviewtui.cli.output import skipped_text

    skipped = skipped_text(other, args.other, args.input_format)
    if skipped:  # of OTHER, whose split this command takes as --other-split ("--split train reads it" was the wrong one)
        # The file named, as FILE's note names its own: two notes in a log said only one of them which set it was.
        say(f"note: {args.other}: " + re.sub(r"--split (?=\S)", "--other-split ", skipped), messages)
    # One set twice (another spelling, a link, a hard link): every question would be shared. Two splits of one
    # BEIR folder are two sets; which qrels file each was read with says so, whatever the default split is.
    if _same_file(args.file, args.other) and evalset.meta.get("qrels_file") == other.meta.get("qrels_file"):
        raise InputError("FILE and OTHER are the same set: name another set, or another --other-split of a BEIR folder", path=args.file)
    found = shared_questions(evalset, other)
    shared = found.pairs
    mine, theirs = _named(args.file, evalset), _named(args.other, other)
    if args.output_format == "json":
        import orjson

        report = {
            "file": file_name_text(args.file),
            "split": evalset.meta.get("qrels_file"),
            "other": file_name_text(args.other),
            "other_split": other.meta.get("qrels_file"),
            "questions": len(evalset),
            "other_questions": len(other),
            "asked_of_other_documents": found.other_documents,
            "shared": [{"id": s.item_id, "other_id": s.other_id, "same_answer": s.same_answer} for s in shared],
        }
        text = orjson.dumps(report, option=orjson.OPT_INDENT_2).decode()
        write_stdout(text + "\n", whole_lines=True)  # on a terminal, data shows inert; into a pipe, as it is
        return EXIT_FINDING if shared else EXIT_OK
    apart = ""
    if found.other_documents:
        apart = f"; {count(found.other_documents, 'more asks', 'more ask')} the same words of other documents, not counted"
    if not shared:
        say(f"{mine} and {theirs} share no question ({count(len(evalset), 'question')} against {len(other):,}){apart}")
        return EXIT_OK
    same = sum(1 for s in shared if s.same_answer)
    differ = sum(1 for s in shared if s.same_answer is False)
    answers = ""
    if same or differ:  # a set without answers (BEIR) has nothing to say here
        answers = f" ({same:,} with the same expected answer, {differ:,} with another"
        answers += f", {len(shared) - same - differ:,} where one has none)" if len(shared) - same - differ else ")"
    say(
        f"{len(shared):,} of the {count(len(evalset), 'question')} of {mine} {'is' if len(shared) == 1 else 'are'} "
        f"asked in {theirs} too{answers}{apart}:"
    )
    for s in shared[:NAMED]:
        say(f"  {in_quotes(s.item_id)} = {in_quotes(s.other_id)}")
    if len(shared) > NAMED:
        say(f"  and {len(shared) - NAMED:,} more (--to json lists every one)")
    return EXIT_FINDING


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file or folder (a link or a hard link included)."""
    import os

    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _named(path: str, evalset) -> str:  # an EvalSet, imported late
    """A set as the report names it: its path, and the qrels file a BEIR folder was read with."""
    qrels = evalset.meta.get("qrels_file")
    return f"{path} [{qrels}]" if isinstance(qrels, str) else path
