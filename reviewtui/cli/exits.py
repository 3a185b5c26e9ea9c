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
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import NoReturn

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_INTERNAL = 1  # the review app stopped on an unexpected error
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # what a shell reports for a command stopped by Ctrl+C


#: What the command holds until the process ends (see keep_until_exit); None: free things as usual.
_held: list[object] | None = None


def hold_until_exit() -> None:
    """From now on, :func:`keep_until_exit` keeps what it is given until :func:`leave` ends the process.

    Only the console script calls this. A caller of :func:`reviewtui.cli.main` in its own
    process (a test, a notebook) gets every object freed as usual when the command returns.
    """
    global _held
    _held = []


def keep_until_exit(*objects: object) -> None:
    """Leave ``objects`` for the end of the process to reclaim, instead of freeing them on return.

    Freeing a large set and its replayed review, object by object, takes a noticeable
    part of a second after the command's work and output are done (a fifth of a second
    for 100,000 items), and the shell prompt waits for it. :func:`leave` ends the
    process without that walk.
    """
    if _held is not None:
        _held.extend(objects)


def leave(code: int) -> NoReturn:
    """End the process with ``code``, skipping the freeing of what the command kept, when that is safe.

    Safe means: the output is flushed, no other thread is left (a thread the command left
    running could be in the middle of something), and no profiler or coverage tracer is
    attached (it writes its results as the interpreter exits). Otherwise the ordinary exit
    runs. The commands close their files, journals and locks themselves before they return,
    and reviewtui registers no exit handlers.
    """
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`reviewtui status FILE | head`): what it did not read is no error, as in
        # run_command. Standard output now leads nowhere, so the interpreter's last flush cannot fail either.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            sys.exit(code)
    except (OSError, ValueError, AttributeError):  # a closed or broken stream (None: closed at start): the ordinary exit
        sys.exit(code)
    try:
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        sys.exit(code)
    if _held is None or threading.active_count() > 1 or sys.gettrace() is not None or sys.getprofile() is not None:
        sys.exit(code)
    os._exit(code)




def report_error(message: str) -> None:
    """Print an error as one line on stderr; data in it (a path, an id) cannot act on a terminal, and a very
    long one keeps its start (where, and the start of what it quotes) and its end (what is wrong), saying how
    much was left out between. Cutting each long run instead cut long paths and missed long data with spaces."""
    from reviewtui.cli.output import reader_left, shortened
    from reviewtui.evalset.text.safe import for_message

    message = shortened(message)
    try:
        print(for_message(message, sys.stderr, one_line=True), file=sys.stderr)
    except BrokenPipeError:
        reader_left(sys.stderr)  # nobody reads the messages (`2>&1 | true`): the error's exit code (2) stands
    except (OSError, ValueError):
        # Standard error cannot take it (2>/dev/full): the exit code is all that can still tell. What its buffer
        # holds goes nowhere, or the interpreter's last flush fails again and ends the process with 120.
        reader_left(sys.stderr)


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


class Stopped(BaseException):
    """The command was told to stop by a signal (SIGTERM from ``timeout`` or a scheduler, SIGHUP from a
    closed terminal): raised where it was, so that what it holds is given back on the way out (an
    output name it claimed, a temporary file), as Ctrl+C's KeyboardInterrupt is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, _frame: object) -> None:
    raise Stopped(signum)


#: The signals a command turns into :class:`Stopped`; the review app quits on them itself once it runs
#: (ReviewApp._stop_on_signals), and its command takes them until then (:func:`signals_stop`).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def signals_stop() -> Iterator[None]:
    """Within it, STOP_SIGNALS raise :class:`Stopped` where the command is (in the main thread: elsewhere a
    handler cannot be set); the handlers before it are put back after."""
    previous: dict[int, object] = {}
    if threading.current_thread() is threading.main_thread():
        for signum in STOP_SIGNALS:
            previous[signum] = signal.signal(signum, _stop)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]


def run_command(func: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    """Run one subcommand and turn what it raises into an exit code (and one line on stderr)."""
    try:
        with contextlib.nullcontext() if getattr(args, "keeps_signals", False) else signals_stop():
            return _run(func, args)
    except Stopped as stopped:
        return 128 + stopped.signum  # what a shell reports for a command a signal stopped


def _run(func: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    from reviewtui.cli.output import flush_stdout, refuse_stdout_into_inputs

    try:
        refuse_stdout_into_inputs(args)
        code = int(func(args) or EXIT_OK)
        flush_stdout()  # a report that did not reach its file (a full disk) is no success
        return code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        sys.stderr.close()
        return EXIT_OK
    except MemoryError:
        # A traceback and exit 1 (an audit's failing finding) said no more than this line does; writing it
        # needs next to no memory of its own.
        report_error(
            "reviewtui: ran out of memory: the input (or one line or field of it) is too large to hold in this "
            "machine's memory"
        )
        return EXIT_USAGE
    except Exception as exc:
        if isinstance(exc.__cause__, MemoryError):
            # Out of memory in the scan's worker process, which sends its error back to be raised here.
            report_error(
                "reviewtui: ran out of memory while checking the set: it needs more memory than this machine has free"
            )
            return EXIT_USAGE
        from reviewtui.evalset.jobs.channel import WorkerEnded

        if isinstance(exc, WorkerEnded):
            # The child died without a word (a traceback said no more). A SIGKILL is most often the system's
            # out-of-memory killer: the machine's limit, as a MemoryError is. Any other end (a crash, an abort)
            # is an error of ours.
            if exc.signal == signal.SIGKILL:
                report_error(f"reviewtui: checking the set stopped: {exc}: the system stops a process that way when memory runs out")
                return EXIT_USAGE
            report_error(f"reviewtui: checking the set stopped on an internal error: {exc}")
            return EXIT_INTERNAL
        for kind, code in error_exits():
            if isinstance(exc, kind):
                report_error(error_message(exc))
                return code
        from reviewtui.evalset.io.readingnote import ReadingNote

        if isinstance(exc, ReadingNote):
            # Warnings turned into errors (PYTHONWARNINGS=error, as some CI runs set): what an import skipped
            # or changed is then a problem with the input, said in one line, not a traceback and exit 1.
            report_error(f"{exc} (warnings are errors here: PYTHONWARNINGS or -W error)")
            return EXIT_USAGE
        raise
