"""Command line: ``reviewtui FILE`` opens the review app; subcommands work without it.

Exit codes: 0 ok, 1 a finding that fails (``audit``) or the review app stopping on an
internal error, 2 usage or input error.
Expected problems (a missing file, a malformed line, a locked set) print one line
on stderr, ``path:line: what is wrong``, and never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Sequence

from reviewtui import __version__

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_INTERNAL = 1  # the review app stopped on an unexpected error
EXIT_USAGE = 2

# Each name is a module in reviewtui.commands exposing ``register(subparsers)``;
# modules keep heavy imports inside their ``run`` so ``--help`` stays instant.
COMMANDS: tuple[str, ...] = (
    "review",
    "info",
    "convert",
    "resolve",
    "export",
    "status",
    "audit",
    "filter",
)
DEFAULT_COMMAND = "review"

DESCRIPTION = """\
Review an eval set one question at a time: accept, reject, skip, edit, mark the type, undo.
Decisions are journaled as you make them, so a review resumes where it stopped.

  reviewtui quiz.jsonl            open the review app (same as `reviewtui review quiz.jsonl`)
  reviewtui SUBCOMMAND --help     help for one subcommand
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reviewtui",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"reviewtui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="SUBCOMMAND")
    for name in COMMANDS:
        importlib.import_module(f"reviewtui.commands.{name}").register(sub)
    return parser


def _with_default_command(argv: list[str]) -> list[str]:
    """``reviewtui FILE …`` means ``reviewtui review FILE …``."""
    first = next((a for a in argv if not a.startswith("-")), None)
    if first is None or first in COMMANDS:
        return argv
    if argv and argv[0] in ("-h", "--help", "--version"):
        return argv
    return [DEFAULT_COMMAND, *argv]


def report_error(message: str) -> None:
    """Print an error as one line on stderr; data in it (a path, an id) cannot act on a terminal."""
    from reviewtui.evalset.text.safe import for_terminal

    print(for_terminal(message, sys.stderr, one_line=True), file=sys.stderr)


def _one_line_warning(message, category, filename, lineno, line=None) -> str:  # noqa: ANN001 - warnings' signature
    """A warning as a user reads it: what happened, without our file name, line number and source line.

    Warnings quote data (file names, ids, skipped rows), so they go through
    ``for_terminal`` like every other line the command line prints, and stay one line.
    """
    from reviewtui.evalset.text.safe import for_terminal

    return for_terminal(f"reviewtui: warning: {message}", sys.stderr, one_line=True) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; warnings (what an import skipped or renumbered) print as one line each."""
    saved = warnings.formatwarning
    warnings.formatwarning = _one_line_warning
    try:
        return _main(argv)
    finally:
        warnings.formatwarning = saved


def _main(argv: Sequence[str] | None) -> int:
    from reviewtui.evalset.model.items import EvalSetError

    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    args = parser.parse_args(_with_default_command(args_list))
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.func(args) or 0)
    except EvalSetError as exc:
        report_error(str(exc) if exc.path else f"reviewtui: {exc}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK
    except OSError as exc:
        # What the commands do not name themselves (standard output on a full disk, say): still one line.
        where = f"{exc.filename}: " if exc.filename else "reviewtui: "
        report_error(f"{where}{exc.strerror or exc}")
        return EXIT_USAGE


def entry() -> None:  # pragma: no cover - thin wrapper for the console script
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    entry()
