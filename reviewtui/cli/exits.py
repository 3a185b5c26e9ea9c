"""Exit codes, and the one place that turns an error reaching the command line into a message and a code.

0 ok; 1 a finding that fails (``audit``, ``resolve --strict``) or the review app
stopping on an internal error; 2 a usage or input error. Expected problems (a
missing file, a malformed line, a locked set, a refused output) print one line on
stderr, ``path:line: what is wrong``, and never a traceback; an unexpected error
keeps its traceback, since it is a bug to report.

Nothing here imports the core at module level: ``reviewtui --help`` reads this
module and must stay free of pydantic.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_INTERNAL = 1  # the review app stopped on an unexpected error
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # what a shell reports for a command stopped by Ctrl+C


def report_error(message: str) -> None:
    """Print an error as one line on stderr; data in it (a path, an id) cannot act on a terminal."""
    from reviewtui.evalset.text.safe import for_terminal

    print(for_terminal(message, sys.stderr, one_line=True), file=sys.stderr)


def error_exits() -> tuple[tuple[type[Exception], int], ...]:
    """Each kind of error the command line expects, with its exit code; the first kind that matches wins.

    Every kind the core raises is the user's to fix (a file, a journal, a lock held
    elsewhere, an output path), so each ends the command with a usage or input error.
    A :class:`ReviewError` cannot arise outside the app, but if it ever does it is
    reported like the rest rather than as a crash. ``OSError`` comes last: what a
    command does not name itself (standard output on a full disk, say) is still one line.
    """
    from reviewtui.evalset.model.errors import (
        EvalSetError,
        InputError,
        JournalError,
        JournalWriteError,
        OutputError,
        ReviewError,
        SetLocked,
    )

    return (
        (InputError, EXIT_USAGE),
        (JournalWriteError, EXIT_USAGE),
        (JournalError, EXIT_USAGE),
        (SetLocked, EXIT_USAGE),
        (OutputError, EXIT_USAGE),
        (ReviewError, EXIT_USAGE),
        (EvalSetError, EXIT_USAGE),
        (OSError, EXIT_USAGE),
    )


def error_message(exc: BaseException) -> str:
    """The one line an expected error prints: the place it names, or ``reviewtui:`` when it names none."""
    from reviewtui.evalset.model.errors import EvalSetError

    if isinstance(exc, EvalSetError):
        return str(exc) if exc.path else f"reviewtui: {exc}"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else "reviewtui: "
        return f"{where}{exc.strerror or exc}"
    return f"reviewtui: {exc}"


def run_command(func: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    """Run one subcommand and turn what it raises into an exit code (and one line on stderr)."""
    try:
        return int(func(args) or EXIT_OK)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK
    except Exception as exc:
        for kind, code in error_exits():
            if isinstance(exc, kind):
                report_error(error_message(exc))
                return code
        raise
