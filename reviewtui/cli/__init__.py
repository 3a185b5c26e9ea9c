"""Command line: ``reviewtui FILE`` opens the review app; subcommands work without it.

One module per subcommand, each with ``register(subparsers)`` and its heavy imports
inside its ``run``, so ``reviewtui --help`` reads the modules below and nothing of
the core. Options several commands share are declared in :mod:`reviewtui.cli.options`;
exit codes, and how each kind of error is reported, in :mod:`reviewtui.cli.exits`.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import warnings
from collections.abc import Sequence
from typing import IO, NoReturn

from reviewtui import __version__
from reviewtui.cli import adjudicate, agreement, assign, audit, convert, export, info, overlap, resolve, review, status
from reviewtui.cli import filter as filter_command
from reviewtui.cli.exits import (
    EXIT_FINDING,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    hold_until_exit,
    leave,
    report_error,
    run_command,
)

__all__ = ["EXIT_FINDING", "EXIT_INTERNAL", "EXIT_OK", "EXIT_USAGE", "build_parser", "entry", "main", "report_error"]

# In the order ``reviewtui --help`` lists them.
COMMANDS = (review, info, convert, resolve, export, status, audit, filter_command, overlap, assign, agreement, adjudicate)
COMMAND_NAMES = tuple(command.NAME for command in COMMANDS)
DEFAULT_COMMAND = "review"

DESCRIPTION = """\
Review an eval set one question at a time: accept, reject, skip, edit, mark the type, undo.
Decisions are journaled as you make them, so a review resumes where it stopped.

  reviewtui quiz.jsonl            open the review app (same as `reviewtui review quiz.jsonl`)
  reviewtui SUBCOMMAND --help     help for one subcommand

Every command that reads a set takes --from FORMAT when the file does not say its format;
export and audit take --to FORMAT, and convert and filter write what their output's name says.
"""


class _Parser(argparse.ArgumentParser):
    """argparse, with its error line made safe for a terminal.

    The error quotes what was typed, and a file name can hold escape sequences (a name made
    by a script, a download): on a terminal they are shown by the safe-text stand-ins, as in
    every other line the command line prints. Subcommands' parsers are of this class too.
    """

    def error(self, message: str) -> NoReturn:
        from reviewtui.evalset.text.safe import for_message

        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, for_message(f"{self.prog}: error: {message}", sys.stderr) + "\n")

    def _print_message(self, message: str, file: IO[str] | None = None) -> None:
        # argparse drops a failed write without a word, so `reviewtui --help > /dev/full` exited 0 having
        # written nothing. A reader that left (`--help | head -3`) is no failure; any other failed write is said.
        if not message:
            return
        stream = file or sys.stderr
        from reviewtui.cli.output import reader_left

        try:
            stream.write(message)
            stream.flush()
        except BrokenPipeError:
            reader_left(stream)
        except (OSError, ValueError) as exc:  # ValueError: a stream closed under the command
            from reviewtui.cli.exits import report_error
            from reviewtui.cli.output import stream_error

            if stream is not sys.stderr:
                report_error(str(stream_error(exc, stream)) if isinstance(exc, OSError) else "reviewtui: standard output is closed")
            reader_left(stream)  # what the stream still holds goes nowhere: the interpreter's last flush would fail again
            raise SystemExit(EXIT_USAGE) from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="reviewtui",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"reviewtui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="SUBCOMMAND")
    for command in COMMANDS:
        command.register(sub)
    return parser


def _first_word(argv: list[str]) -> str | None:
    """The first argument that is neither an option nor the value of one: in ``reviewtui --reviewer stats
    quiz.jsonl`` the value "stats" was read as a mistyped command, and "--reviewer info" as the command info."""
    takes_value = _review_value_options()
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in takes_value:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def _review_value_options() -> frozenset[str]:
    """The options of the default command (the review) that take a value, as given before the file."""
    global _VALUE_OPTIONS
    if _VALUE_OPTIONS is None:
        parser = argparse.ArgumentParser(add_help=False)
        review.register(parser.add_subparsers())
        (sub,) = (action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
        review_parser = sub.choices[review.NAME]
        _VALUE_OPTIONS = frozenset(
            option for action in review_parser._actions if action.nargs != 0 for option in action.option_strings
        )
    return _VALUE_OPTIONS


_VALUE_OPTIONS: frozenset[str] | None = None


def _with_default_command(argv: list[str]) -> list[str]:
    """``reviewtui FILE …`` means ``reviewtui review FILE …``; so does ``reviewtui -- -FILE`` (a name that
    starts with a dash: what follows ``--`` is a file, even one named like a command)."""
    if argv and argv[0] == "--":
        return [DEFAULT_COMMAND, *argv]
    first = _first_word(argv)
    if first is None and "--" in argv and argv[0] not in ("-h", "--help", "--version"):
        return [DEFAULT_COMMAND, *argv]  # `reviewtui --all -- -dash.jsonl`: review options, then the file
    if first is None or first in COMMAND_NAMES:
        return argv
    if argv and argv[0] in ("-h", "--help", "--version"):
        return argv
    return [DEFAULT_COMMAND, *argv]


def _mistyped_command(argv: list[str]) -> str | None:
    """What to say when the first word is neither a command nor a file but reads like a command.

    ``reviewtui stauts quiz.jsonl`` would otherwise open ``stauts`` as a set for review and
    refuse ``quiz.jsonl`` as an extra argument, which points at the wrong word.
    """
    first = _first_word(argv)
    if first is None or first in COMMAND_NAMES or os.path.lexists(first):
        return None
    close = difflib.get_close_matches(first, COMMAND_NAMES, n=1, cutoff=0.75)
    if not close:
        return None
    return f"{first!r} is neither a command nor a file; did you mean {close[0]!r}? (reviewtui --help lists the commands)"


def _one_line_warning(message, category, filename, lineno, line=None) -> str:  # warnings' signature
    """A warning as a user reads it: what happened, without our file name, line number and source line.

    Warnings quote data (file names, ids, skipped rows), so they go through
    ``for_message`` like every other line the command line prints, and stay one line.
    """
    from reviewtui.evalset.text.safe import for_message

    return for_message(f"reviewtui: warning: {message}", sys.stderr, one_line=True) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; warnings (what an import skipped or renumbered) print as one line each."""
    from reviewtui.cli.output import noting_reading_notes

    saved = warnings.formatwarning
    warnings.formatwarning = _one_line_warning
    try:
        with noting_reading_notes():
            return _main(argv)
    finally:
        warnings.formatwarning = saved


def _main(argv: Sequence[str] | None) -> int:
    if sys.stderr is None:  # started with standard error closed (2>&-): its messages go nowhere, as asked
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # kept for the life of the process
    if sys.stdout is None:
        # Started with standard output closed (>&-, a daemon's descriptors): every command prints what it did or
        # the set itself there, and the first print was a traceback. Said in one line instead, before any work.
        from reviewtui.cli.exits import report_error

        report_error("reviewtui: standard output is closed; run the command with it open (> /dev/null to discard it)")
        return EXIT_USAGE
    from reviewtui.cli.output import tolerate_narrow_encodings

    tolerate_narrow_encodings()
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    mistyped = _mistyped_command(args_list)
    if mistyped is not None:
        parser.error(mistyped)
    args = parser.parse_args(_with_default_command(args_list))
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    clash = _options_that_clash(args)
    if clash is not None:
        _parser_of(parser, args.command).error(clash)  # with the command's usage line, as argparse's own errors
    return run_command(args.func, args)


def _parser_of(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of ``command``, the subcommand given (``parser`` itself when there is none by that name)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found = action.choices.get(command)
            if isinstance(found, argparse.ArgumentParser):
                return found
    return parser


def _options_that_clash(args: argparse.Namespace) -> str | None:
    """Options given together that cannot both be meant, said as the arguments are parsed (before the core is
    imported): each was left to do nothing, without a word."""
    given = vars(args)
    if given.get("ext") and not given.get("corpus"):
        return "--ext names the documents of a --corpus to read: give --corpus too"
    if given.get("requote") and given.get("no_quotes"):
        return "--requote replaces anchors with quotes of the gold, which --no-quotes does not write: give one of them"
    if given.get("no_fuzzy") and given.get("threshold") not in (None, resolve.DEFAULT_THRESHOLD):
        return "--threshold is the lowest score of an approximate match, which --no-fuzzy turns off: give one of them"
    evalset_id = given.get("evalset_id")
    if evalset_id is not None and (not evalset_id.strip() or evalset_id != evalset_id.strip() or "\n" in evalset_id):
        return f"--id {evalset_id!r} cannot be a set's id: give a name without spaces around it or line breaks"
    if args.command == "export" and given.get("consensus") and (given.get("journal") or given.get("all")):
        return "--consensus merges every journal of the team: it takes neither --journal nor --all"
    if args.command == "audit" and given.get("output") and given.get("output_format"):
        suffix = os.path.splitext(given["output"])[1].lower()
        named = audit._SUFFIX_FORMAT.get(suffix)
        if named is not None and named != given["output_format"] and suffix != ".txt":  # .txt holds any text
            return f"-o {given['output']} names the {named} format, and --to asks for {given['output_format']}: make them agree"
    return None


def entry() -> None:  # pragma: no cover - thin wrapper for the console script (tests run it as a process)
    hold_until_exit()
    leave(main())
