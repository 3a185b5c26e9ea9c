"""What every subcommand prints and writes goes through here: data printed safely, and the one check of where
an output may go."""

from __future__ import annotations

import contextlib
import os
import shlex
import stat
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    import argparse

    from reviewtui.evalset.model.items import EvalSet


def say(text: object = "", stream: TextIO | None = None) -> None:
    """Print one line that may hold data (ids, names, notes, paths) on ``stream`` (standard output by default).

    On a terminal, control and other unsafe characters are shown as visible
    stand-ins, so an id holding an escape sequence cannot act on the terminal; into
    a pipe or a file, which reach a terminal later (``| head``, a log), the characters
    that act on a display are stand-ins too and the rest goes as it is (``for_message``).
    """
    from reviewtui.evalset.text.safe import for_message

    target = sys.stdout if stream is None else stream
    # One line: a line break inside the data (a set id, a file name) would print a line of its own,
    # one that could pass for a message of ours. Several lines are several calls.
    line = for_message(text, target, one_line=True)
    if len(line) > LONGEST_ERROR and _is_terminal(target):
        # An id or a question of megabytes is a screenful of nothing for a person; into a pipe or a file the line
        # goes whole, for whatever reads it.
        line = shortened(line)
    try:
        print(line, file=target)
    except BrokenPipeError:
        reader_left(target)
    except OSError as exc:
        raise stream_error(exc, target) from None


def reader_left(stream: TextIO) -> None:
    """The reader of ``stream`` went away (`| head`, a log reader closed): what is still said there goes nowhere,
    and the command goes on to write what it was asked to and to end with its own exit code. Raised instead, it
    ended `resolve` with exit 0 and nothing written, and an audit's or an overlap's failing finding with exit 0."""
    try:
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, stream.fileno())
        os.close(nowhere)
    except (OSError, ValueError):  # not a real file descriptor (a test's capture): nothing left to say there
        pass


#: A line longer than this (an id or a key of megabytes, quoted whole) keeps its start and its end: in an
#: error always, in other lines on a terminal (see say).
LONGEST_ERROR = 2000
_ERROR_HEAD, _ERROR_TAIL = 1400, 400


def shortened(line: str) -> str:
    """``line`` as it is, or, past LONGEST_ERROR characters, its start and its end with how much was left out."""
    if len(line) <= LONGEST_ERROR:
        return line
    left_out = len(line) - _ERROR_HEAD - _ERROR_TAIL
    return f"{line[:_ERROR_HEAD]}…[{left_out:,} characters left out]…{line[-_ERROR_TAIL:]}"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def stream_error(exc: OSError, stream: TextIO) -> Exception:
    """A failed write to standard output or error (a full disk under `> report.txt`) as the error a command
    reports, naming the stream: it said "reviewtui: No space left on device", naming nothing."""
    from reviewtui.evalset.model.errors import OutputError

    name = "standard error" if stream is sys.stderr else "standard output"
    return OutputError(f"cannot write: {exc.strerror or exc}", path=name)


def write_stdout(text: str, *, whole_lines: bool = False) -> None:
    """Write a whole report (lines that may hold data) to standard output, safely on a terminal, and flush it;
    a failed write names standard output, as :func:`say`'s do. On a terminal a very long line is cut as
    :func:`say` cuts one, unless ``whole_lines`` (JSON asked for by name: cut, it would be no JSON)."""
    from reviewtui.evalset.text.safe import for_message, for_terminal

    # A report for people is a message (its controls inert, piped or not); JSON goes whole, for a program.
    shown = for_terminal(text, sys.stdout) if whole_lines else for_message(text, sys.stdout)
    if not whole_lines and _is_terminal(sys.stdout) and len(shown) > LONGEST_ERROR:
        shown = "\n".join(map(shortened, shown.split("\n")))  # as say() does, line by line
    try:
        sys.stdout.write(shown)
        sys.stdout.flush()
    except BrokenPipeError:
        reader_left(sys.stdout)  # the rest of the report goes nowhere; the command's exit code stands
        return
    except OSError as exc:
        raise stream_error(exc, sys.stdout) from None
    flush_stdout()


def tolerate_narrow_encodings() -> None:
    """Standard output and error in a locale that is not UTF-8 (ISO-8859-1, ASCII) write what they cannot encode as
    escapes ("\\u2026"), not a traceback: the reports' own "…" ended `audit` with a UnicodeEncodeError. A JSON report
    reads such an escape as the character itself."""
    import codecs

    codecs.register_error(_JSON_ESCAPES, _json_escapes)
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        try:
            narrow = bool(encoding) and codecs.lookup(encoding).name != "utf-8"
        except LookupError:
            narrow = True
        if narrow and hasattr(stream, "reconfigure"):
            with contextlib.suppress(ValueError, OSError):  # a stream closed or of another kind: left as it is
                stream.reconfigure(errors=_JSON_ESCAPES)


_JSON_ESCAPES = "reviewtui-json-escapes"


def _json_escapes(error: UnicodeError) -> tuple[str, int]:
    """What a narrow stream writes for characters it cannot encode: JSON's escapes ("\\u00e9", a pair of them beyond
    the first plane), which a JSON report reads back as the characters; Python's own ("\\xe9") are no JSON."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    escaped = []
    for char in error.object[error.start : error.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            escaped.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            escaped.append(f"\\u{code:04x}")
    return "".join(escaped), error.end


def app_terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` is a terminal the review app can use (the test suite, which runs the app headless, says so)."""
    return stream is not None and _is_terminal(stream)


def refuse_a_terminal_without_the_app() -> None:
    """InputError (exit 2) when the terminal cannot show the review app: ``TERM=dumb`` (an editor's shell, a log),
    which takes the screen's escape codes as text, or a character set other than UTF-8, which cannot hold the app's
    frames or much of a set's text, so that a reviewer would judge text they cannot read."""
    import codecs

    from reviewtui.evalset.model.errors import InputError

    if os.environ.get("TERM") == "dumb":
        raise InputError(
            "this terminal (TERM=dumb) cannot show the review app; open it in a terminal emulator, or see where the "
            "review stands with `reviewtui status`"
        )
    missing = [name for name, stream in (("standard input", sys.stdin), ("standard error", sys.stderr)) if not app_terminal(stream)]
    if missing:
        # Without one the app started all the same: it spun a core for ever with no keys to read (a script, a CI
        # job: `reviewtui FILE </dev/null`), drew its screen into a file (`2>log`), or crashed (stdin closed).
        raise InputError(
            f"the review app needs a terminal: it reads keys from standard input and draws on standard error, and "
            f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not one here; open it in a terminal, or "
            "see where the review stands with `reviewtui status`"
        )
    # Textual draws on standard error (standard output may be piped): that stream's character set is the screen's.
    screen = sys.stderr
    encoding = getattr(screen, "encoding", None) or ""
    try:
        utf8 = codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        utf8 = False
    if not utf8 and _is_terminal(screen):
        raise InputError(
            f"the terminal's character set is {encoding or 'unknown'}, and the review app needs UTF-8 to show the "
            "set's text as it is: set a UTF-8 locale (for example LANG=C.UTF-8) and start it again"
        )


def flush_stdout() -> None:
    """Write out what standard output still holds, so that a failure to is reported as :func:`say`'s are."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        reader_left(sys.stdout)  # what the reader did not take is no failure of the command's: its exit code stands
    except OSError as exc:
        raise stream_error(exc, sys.stdout) from None
    except ValueError:  # closed: nothing is left to write
        pass


@contextlib.contextmanager
def reader_may_leave(stream: TextIO) -> Iterator[None]:
    """Messages said in the block go to ``stream``; should its reader leave (``| head``), the rest of
    them go nowhere and the command goes on to write what it was asked to, instead of stopping with
    exit 0 and nothing written."""
    try:
        yield
    except BrokenPipeError:
        reader_left(stream)


def warn(text: object) -> None:
    """Print a message line on standard error, safely (see :func:`say`)."""
    say(text, sys.stderr)


#: (file name, meta key) of each reader's warning printed by this command: what its note need not say again.
_WARNED: set[tuple[str, str]] = set()


@contextlib.contextmanager
def noting_reading_notes() -> Iterator[None]:
    """Keep track, for this command, of the reader warnings printed (see :func:`say_skipped`)."""
    from reviewtui.evalset.io.readingnote import ReadingNote

    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):  # warnings' signature
        shown(message, category, filename, lineno, file, line)
        if isinstance(message, ReadingNote):
            _WARNED.add((message.source, message.kind))

    _WARNED.clear()  # one command's: a warning another call printed may be held back as a repeat in this one
    warnings.showwarning = show
    try:
        with warnings.catch_warnings():
            # Every one shown: two files of one name (overlap a/set.csv b/set.csv) give the same text, and the default
            # filter would show it once while both notes were left out, the second file's fact said nowhere. Warnings
            # the user turned off (PYTHONWARNINGS=ignore) stay off: the notes then say it.
            if _action_for(ReadingNote) in ("default", "module", "once"):
                warnings.simplefilter("always", ReadingNote)
            yield
    finally:
        warnings.showwarning = shown
        _WARNED.clear()


def _action_for(category: type[Warning]) -> str:
    """What the warning filters in force do with a warning of ``category`` (its first matching filter's action)."""
    for action, message, kind, module, _ in warnings.filters:
        if issubclass(category, kind) and (message is None or message.match("")) and (module is None or module.match("")):
            return str(action)
    return "default"


def say_skipped(
    evalset: object, stream: TextIO | None = None, path: str | os.PathLike[str] | None = None, format: str | None = None
) -> None:
    """A note of what reading the set left out or changed (an empty question, a row without an id), if anything:
    every command that reads a set says it, as ``info`` and ``convert`` do, so nothing is dropped unsaid.

    With ``path``, what a warning printed while that file was read has already said (with examples) is left
    out of the note: the same fact twice, in two wordings, was noise."""
    skipped = skipped_text(evalset, path, format)
    if skipped:
        # The file named: `overlap` reads two, and a note in a log said neither which nor where.
        say(f"note: {path}: {skipped}" if path is not None else f"note: {skipped}", stream)


def skipped_text(evalset: object, path: str | os.PathLike[str] | None = None, format: str | None = None) -> str:
    """``describe_skipped``'s line, less what the reader's warnings for ``path`` said already (see say_skipped);
    nothing for a native JSONL file, whose header's counts were said when the set it came from was read (every
    later version carries them, and "--split train reads it" said of a v2 file was advice it refused)."""
    from reviewtui.evalset.io import describe_skipped
    from reviewtui.evalset.io.sniff import is_native_jsonl

    if path is not None and is_native_jsonl(path, format):  # --from, when given, says how the file was read
        return ""
    name = Path(path).name if path is not None else None
    return describe_skipped(evalset, leave_out=[kind for source, kind in _WARNED if source == name])


def output_target(
    output: str | None,
    *,
    input_path: str | os.PathLike[str] | None,
    journal_path: str | os.PathLike[str] | None = None,
    force: bool = False,
    reads: str | os.PathLike[str] | None = None,
) -> Path | None:
    """The path ``-o`` names, checked before any work is done; None without ``-o``.

    Refused (one line, exit 2): the input (or, for a folder, a file in it), its review journal
    or its lock, and ``reads`` (another input the command reads: a corpus file or folder); an
    existing file without ``--force``; a folder; a symbolic link (see
    :func:`reviewtui.evalset.io.outputs.check_output`); and a path into a folder that does
    not exist. The library's writers make missing folders; a command does not, so that a
    mistyped path is said, not made (``-o /nonexistent/dir/x.jsonl`` made that tree at the root).
    """
    if not output:
        return None
    from reviewtui.evalset.io.outputs import check_output

    others = () if reads is None else (reads,)
    target = check_output(output, input_path=input_path, journal_path=journal_path, force=force, reads=others)
    if not to_stdout(output):
        folder = target.parent
        if not folder.is_dir():
            from reviewtui.evalset.model.errors import OutputError

            what = "is not a folder" if folder.exists() else "does not exist"
            raise OutputError(f"the folder it goes in {what}; make the folder first, or check the path", path=os.fspath(output))
    return target


def refuse_stdout_into_inputs(args: argparse.Namespace) -> None:
    """Refuse, before any work, a command whose standard output is redirected into its input, that input's journal
    or lock, or another file it reads: `reviewtui audit x.jsonl >> x.jsonl.reviewtui-journal` appended a report to
    the journal, and no command could read the review again. ``-o -`` is checked the same way (output_target)."""
    from reviewtui.evalset.io.outputs import stream_problem
    from reviewtui.evalset.model.errors import OutputError

    def named(name: str) -> str | None:
        value = getattr(args, name, None)
        return value if isinstance(value, str) and value else None

    first = named("file") or named("input")  # the set (convert calls it IN)
    journal = named("journal")
    reads = [path for path in (named("other"), named("corpus")) if path]
    problem = stream_problem(1, first, journal, reads)
    errors = stream_problem(2, first, journal, reads)
    if errors is not None:
        # Nothing more may go there, the refusal least of all (`2>> x.jsonl` appended it to the set): standard
        # error is pointed at standard output when that is a terminal, else at nothing, before it is said (into a
        # pipe it would have joined the data: `export -o - 2>> x.jsonl | jq`). The exit code says it anyway.
        sys.stderr.flush()
        target = 1 if problem is None and _on_a_terminal(1) else os.open(os.devnull, os.O_WRONLY)
        os.dup2(target, 2)
        if target != 1:
            os.close(target)
        raise OutputError(errors.removeprefix("standard error "), path="standard error")
    if problem is not None:
        raise OutputError(problem.removeprefix("standard output "), path="standard output")


def _on_a_terminal(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def to_stdout(path: str | os.PathLike[str] | None) -> bool:
    """Whether an output path means standard output: ``-o -``, ``-o /dev/stdout``, or another name of the pipe or
    device standard output is (``/dev/fd/1``, ``/proc/self/fd/1``), whose messages went into the data."""
    from reviewtui.evalset.io.files import is_stdout

    if path is None:
        return False
    if is_stdout(path):
        return True
    try:
        ours = os.fstat(sys.stdout.fileno())
        named = os.stat(path)
    except (OSError, ValueError, AttributeError):  # no such file, or standard output is no real descriptor
        return False
    # A regular file is not a stream: `-o out.jsonl >out.jsonl` is a file named twice, not standard output.
    return not stat.S_ISREG(ours.st_mode) and (named.st_dev, named.st_ino) == (ours.st_dev, ours.st_ino)


def is_stream(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a pipe or a character device (``/dev/null``), which are written to whatever their name."""
    from reviewtui.evalset.io.files import is_device

    try:
        return is_device(os.stat(path).st_mode)
    except OSError:
        return False


#: What a set written under each name takes, and the names a set's reader recognises it by again.
SET_SUFFIXES = {".jsonl": "jsonl", ".csv": "csv"}


def set_output_format(output: str | None, asked: str | None = None) -> str:
    """The format a command writes a set in to ``output`` (``-o``; None: beside the input), ``asked`` being ``--to``.

    A file's name must say what it holds, or reviewtui (and anything else) cannot read it back: JSON Lines
    written as ``reviewed.json`` read as one broken JSON document, and CSV in a ``.jsonl`` file as broken JSON.
    So a named file ends in .jsonl or .csv, and ``--to``, when given, agrees with it (EvalSetError otherwise).
    Standard output, a pipe or a device (``/dev/null``) take ``asked`` or JSONL, whatever their name.
    """
    from reviewtui.evalset.model.errors import EvalSetError

    if output is None or to_stdout(output) or is_stream(output):
        return asked or "jsonl"
    suffix = Path(output).suffix.lower()
    named = SET_SUFFIXES.get(suffix)
    if named is None:
        name = Path(output).name
        if name.lower() in SET_SUFFIXES:
            # ".jsonl" alone is a hidden file with no extension to Python and to file managers alike.
            raise EvalSetError(
                f"its name is only an extension; give the file a name before it, such as reviewed{name}",
                path=str(output),
            )
        ending = f"ends in {suffix}" if suffix else "has no extension"
        raise EvalSetError(
            f"its name {ending}, but a set is written as .jsonl (JSON Lines) or .csv; "
            f"name the file so it can be read back, such as {Path(output).stem or 'out'}.{asked or 'jsonl'}",
            path=str(output),
        )
    if asked is not None and asked != named:
        raise EvalSetError(
            f"--to {asked} writes {asked.upper()}, but the name ends in {suffix}, which is read back as {named.upper()}: "
            f"name the file .{asked}, or leave --to out",
            path=str(output),
        )
    return named


def shown_path(path: str | os.PathLike[str]) -> str:
    """An output path as a message names it."""
    return "standard output" if to_stdout(path) else str(path)


@contextlib.contextmanager
def writing(target: str | os.PathLike[str], what: str) -> Iterator[None]:
    """Turn a failed write (a full disk, a read-only folder, a parent that is a file) into one line naming ``target``."""
    from reviewtui.evalset.model.errors import OutputError

    try:
        yield
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            if to_stdout(target):
                # The reader of the data left (`resolve -o - --strict | true`): the command's exit code stands.
                reader_left(sys.stdout)
                return
            raise
        raise OutputError(f"cannot write {what}: {exc.strerror or exc}", path=shown_path(target)) from None


def refuse_csv_losses(
    evalset: EvalSet, output: str | os.PathLike[str] | None, lossy: bool, *, has_to: bool = False, named_by: str = "-o "
) -> None:
    """Refuse (exit 2) to write ``evalset`` as CSV when CSV would drop some of its evidence, unless ``lossy``.

    The library's CSV writer warns and writes (its documented behaviour); a command's output is the
    next version of someone's set, and one missing quotes has lost data in all but name.
    """
    from reviewtui.evalset.io.csvfile import csv_leaves_out, csv_loss_kinds, csv_losses
    from reviewtui.evalset.model.errors import OutputError

    kinds = csv_loss_kinds(evalset, spans_beside_quotes=True)
    losses = [sentence for sentence, _ in kinds]
    if not losses or lossy:
        # Not evidence, and said rather than refused: what reading the file back will not give again.
        for note in csv_leaves_out(evalset, None if output is None or to_stdout(output) else output):
            warn(f"reviewtui: {note}")
    if losses and lossy:
        # Said here: write_csv warns of the losses the reference page lists (the command prints those),
        # not of gold spans beside quotes.
        for loss in set(losses) - set(csv_losses(evalset)):
            warn(f"reviewtui: {loss}")
        return
    if losses:
        # Each other kind named: "(and 1 more kind of loss)" left the reader to pass --lossy to find out which.
        more = f" (and besides: {'; '.join(name for _, name in kinds[1:])})" if len(kinds) > 1 else ""
        how = ""
        if output is not None and not to_stdout(output):
            # The command to type: "write JSONL" left the reader to find out that -o and a .jsonl name do it.
            without = ", without --to csv" if has_to else ""  # a command that takes --to: "--to csv -o x.jsonl" is refused
            # named_by: how the command takes its output's name (convert takes OUT as its second argument, no -o)
            suggested = shlex.quote(os.fspath(Path(output).with_suffix(".jsonl")))
            how = f" ({named_by}{suggested}{without})"
            if os.path.lexists(Path(output).with_suffix(".jsonl")):
                # quiz.jsonl converted to quiz.csv: the name to type was the input's own, which no command writes
                how = f" ({named_by}a .jsonl name other than {suggested}, which exists{without})"
        raise OutputError(
            f"{losses[0]}{more}; write JSONL{how}, which keeps everything, or pass --lossy to write the CSV all the same",
            path=None if output is None else os.fspath(output),
        )
