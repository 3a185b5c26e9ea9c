"""What several subcommands share: options (declared once so their names and help never drift apart),
printing data safely, and the one check of where an output may go."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

SET_FILE_HELP = (
    "the eval set: .jsonl (native, HotpotQA or Natural Questions), .csv, a LegalBench-RAG or SQuAD .json, or a BEIR folder"
)


def add_review_source_options(parser: argparse.ArgumentParser, *, all_help: str) -> None:
    """Where the journal is, how to read the input, and whether already-reviewed items are in the review."""
    parser.add_argument("--journal", metavar="PATH", help="the review journal (default: <file>.reviewtui-journal)")
    parser.add_argument(
        "--input-format", metavar="FORMAT", help="reader for the input when the file type is not enough"
    )
    parser.add_argument("--all", action="store_true", help=all_help)


def add_corpus_options(parser: argparse.ArgumentParser, *, required: bool = False, corpus_help: str) -> None:
    """``--corpus DIR`` and ``--ext EXT`` (documents with other extensions than .txt and .md)."""
    parser.add_argument("--corpus", metavar="DIR", required=required, help=corpus_help)
    parser.add_argument(
        "--ext",
        action="append",
        default=[],
        metavar="EXT",
        help="with --corpus: also read documents with this extension (repeatable; .txt and .md always)",
    )


def open_corpus(args: argparse.Namespace):  # noqa: ANN201 - a Corpus, imported late to keep --help fast
    """The corpus the options name, or None without --corpus."""
    if not args.corpus:
        return None
    from reviewtui.evalset.evidence.corpus import DEFAULT_EXTENSIONS, Corpus

    return Corpus(args.corpus, extensions=(*DEFAULT_EXTENSIONS, *args.ext))


# --- output -------------------------------------------------------------------------------

def output_rule(*, default_name: bool = False, dash: str = "-o - writes to standard output") -> str:
    """The rule every command that writes a file follows, said the same way in each --help."""
    instead = " (without -o, the next free version is taken instead)" if default_name else ""
    return (
        f"An existing file is never replaced without --force{instead}, and never, even with --force, "
        f"the input set, its review journal or its lock. {dash}; a pipe or a device such as /dev/null "
        "is written to, never replaced; a symbolic link is refused."
    )


def add_force_option(parser: argparse.ArgumentParser, *, what: str = "OUT when it exists") -> None:
    """``--force``: replace an existing output file, which is otherwise refused."""
    parser.add_argument(
        "--force",
        action="store_true",
        help=f"replace {what} (never the input, its review journal or its lock)",
    )


def say(text: object = "", stream: TextIO | None = None) -> None:
    """Print one line that may hold data (ids, names, notes, paths) on ``stream`` (standard output by default).

    On a terminal, control and other unsafe characters are shown as visible
    stand-ins, so an id holding an escape sequence cannot act on the terminal; into
    a pipe or a file the text goes as it is.
    """
    from reviewtui.evalset.text.safe import for_terminal

    target = sys.stdout if stream is None else stream
    print(for_terminal(text, target), file=target)


def warn(text: object) -> None:
    """Print a message line on standard error, safely (see :func:`say`)."""
    say(text, sys.stderr)


def output_target(
    output: str | None,
    *,
    input_path: str | os.PathLike[str] | None,
    journal_path: str | os.PathLike[str] | None = None,
    force: bool = False,
) -> Path | None:
    """The path ``-o`` names, checked before any work is done; None without ``-o``.

    Refused (one line, exit 2): the input, its review journal or its lock; an
    existing file without ``--force``; a folder; a symbolic link. See
    :func:`reviewtui.evalset.io.outputs.check_output`.
    """
    if not output:
        return None
    from reviewtui.evalset.io.outputs import check_output

    return check_output(output, input_path=input_path, journal_path=journal_path, force=force)


def to_stdout(path: str | os.PathLike[str] | None) -> bool:
    """Whether an output path means standard output (``-o -``, or ``-o /dev/stdout``)."""
    from reviewtui.evalset.io.files import is_stdout

    return path is not None and is_stdout(path)


def shown_path(path: str | os.PathLike[str]) -> str:
    """An output path as a message names it."""
    return "standard output" if to_stdout(path) else str(path)


@contextlib.contextmanager
def writing(target: str | os.PathLike[str], what: str) -> Iterator[None]:
    """Turn a failed write (a full disk, a read-only folder, a parent that is a file) into one line naming ``target``."""
    from reviewtui.evalset.model.items import EvalSetError

    try:
        yield
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        raise EvalSetError(f"cannot write {what}: {exc.strerror or exc}", path=shown_path(target)) from None
