"""``reviewtui overlap FILE OTHER``: the questions a set shares with another (a test split with its train split)."""

from __future__ import annotations

import argparse

from reviewtui.cli.exits import EXIT_FINDING, EXIT_OK
from reviewtui.cli.options import add_input_format, add_set_file, add_split, set_file
from reviewtui.cli.output import say

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
            "same order, case and punctuation aside, unless the two cite evidence from different documents (one "
            "question asked of two documents is two questions). A question in both measures memory, not retrieval. "
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
    import os

    from reviewtui.evalset.checks.overlap import shared_questions
    from reviewtui.evalset.io import open_evalset, require_questions
    from reviewtui.evalset.model.errors import InputError
    from reviewtui.evalset.text.counts import count
    from reviewtui.evalset.text.words import in_quotes

    same_file = os.path.realpath(args.file) == os.path.realpath(args.other)
    if same_file and (args.split or "test") == (args.other_split or "test"):
        raise InputError("FILE and OTHER are the same set: name another set, or another --other-split of a BEIR folder")
    evalset = require_questions(open_evalset(args.file, format=args.input_format, split=args.split), args.file)
    other = require_questions(open_evalset(args.other, format=args.input_format, split=args.other_split), args.other)
    shared = list(shared_questions(evalset, other))
    if args.output_format == "json":
        import sys

        import orjson

        report = {
            "file": str(args.file),
            "other": str(args.other),
            "questions": len(evalset),
            "other_questions": len(other),
            "shared": [{"id": s.item_id, "other_id": s.other_id, "same_answer": s.same_answer} for s in shared],
        }
        sys.stdout.buffer.write(orjson.dumps(report, option=orjson.OPT_INDENT_2) + b"\n")
        sys.stdout.flush()
        return EXIT_FINDING if shared else EXIT_OK
    mine, theirs = _named(args.file, args.split), _named(args.other, args.other_split)
    if not shared:
        say(f"{mine} and {theirs} share no question ({count(len(evalset), 'question')} against {len(other):,})")
        return EXIT_OK
    same = sum(1 for s in shared if s.same_answer)
    differ = sum(1 for s in shared if s.same_answer is False)
    answers = ""
    if same or differ:  # a set without answers (BEIR) has nothing to say here
        answers = f" ({same:,} with the same expected answer, {differ:,} with another"
        answers += f", {len(shared) - same - differ:,} where one has none)" if len(shared) - same - differ else ")"
    say(
        f"{len(shared):,} of the {count(len(evalset), 'question')} of {mine} {'is' if len(shared) == 1 else 'are'} "
        f"asked in {theirs} too{answers}:"
    )
    for s in shared[:NAMED]:
        say(f"  {in_quotes(s.item_id)} = {in_quotes(s.other_id)}")
    if len(shared) > NAMED:
        say(f"  and {len(shared) - NAMED:,} more (--to json lists every one)")
    return EXIT_FINDING


def _named(path: str, split: str | None) -> str:
    """A set as the report names it: its path, and the split read from a BEIR folder when one was named."""
    return f"{path} [{split}]" if split else path
