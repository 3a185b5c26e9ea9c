"""Every option more than one subcommand takes, declared once, so that its name, spelling and help never drift.

Formats: ``--from FORMAT`` chooses the reader for a set in every command that reads
one, ``--to FORMAT`` chooses what a command writes; ``--split NAME`` chooses which
qrels file of a BEIR folder is read. Older spellings still work
(``--input-format`` everywhere; ``--format`` for the input of ``review`` and
``resolve``, for the output of ``export`` and ``audit``) but are left out of the
help, so that each idea has one name.

This module is read for ``reviewtui --help``: nothing of the core is imported here,
so the format lists are spelled out (tests check they match the core's).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

#: The readers ``--from`` can choose; the same as ``reviewtui.evalset.io.sniff.FORMATS``.
INPUT_FORMATS = ("jsonl", "csv", "beir", "legalbench", "squad", "hotpotqa", "nq", "dpr", "rows")

SET_FILE_HELP = (
    "the eval set: .jsonl (native, HotpotQA, Natural Questions, DPR, or question rows of ragas, deepeval or pandas), .csv, "
    "a LegalBench-RAG, SQuAD, DPR or question-rows .json, or a BEIR folder"
)


def set_file(value: str) -> str:
    """The ``FILE`` argument, with a name to call things after: ``.`` (inside a BEIR folder) becomes
    the folder's absolute path, so its journal, lock and exports are named after the folder."""
    from reviewtui.evalset.io.names import named  # light: this runs while the arguments are parsed

    return str(named(value))


def add_set_file(parser: argparse.ArgumentParser, *, help: str = SET_FILE_HELP) -> None:
    """The set a command works on: the positional ``FILE``."""
    parser.add_argument("file", type=set_file, help=help)


def add_input_format(parser: argparse.ArgumentParser, *, old_spellings: tuple[str, ...] = ("--input-format",)) -> None:
    """``--from FORMAT``: the reader for the set when its name and content are not enough.

    ``old_spellings`` are accepted for scripts written before the options had one
    name; they do not appear in the help.
    """
    parser.add_argument(
        "--from",
        dest="input_format",
        metavar="FORMAT",
        type=str.lower,
        choices=INPUT_FORMATS,
        help=f"read the set as this format instead of recognising it: {', '.join(INPUT_FORMATS)}",
    )
    if old_spellings:
        parser.add_argument(
            *old_spellings, dest="input_format", type=str.lower, choices=INPUT_FORMATS, help=argparse.SUPPRESS
        )


def add_split(parser: argparse.ArgumentParser) -> None:
    """``--split NAME``: the qrels file of a BEIR folder to read, ``qrels/NAME.tsv``.

    Declared apart from ``--from`` so that a command offers it only once it passes
    ``args.split`` on to ``open_evalset``: an option taken and then ignored would
    show one split while the user believes it is another.
    """
    parser.add_argument(
        "--split",
        metavar="NAME",
        help="with a BEIR folder that has several qrels files: read qrels/NAME.tsv (default: qrels/test.tsv, or the only qrels file)",
    )


def add_output_format(
    parser: argparse.ArgumentParser,
    *,
    choices: tuple[str, ...],
    help: str,
    default: str | None = None,
) -> None:
    """``--to FORMAT``: what a command writes; ``--format``, the older spelling, is still accepted."""
    parser.add_argument("--to", dest="output_format", metavar="FORMAT", choices=choices, default=default, help=help)
    parser.add_argument("--format", dest="output_format", choices=choices, default=default, help=argparse.SUPPRESS)


def add_journal(parser: argparse.ArgumentParser) -> None:
    """``--journal PATH``: where the review's decisions are kept."""
    parser.add_argument("--journal", metavar="PATH", help="the review journal (default: FILE.reviewtui-journal)")


def add_all(parser: argparse.ArgumentParser, *, help: str) -> None:
    """``--all``: items the file already marks reviewed take part too (by default they are left out)."""
    parser.add_argument("--all", action="store_true", help=help)


def add_review_source_options(
    parser: argparse.ArgumentParser, *, all_help: str, old_spellings: tuple[str, ...] = ("--input-format",)
) -> None:
    """Where the journal is, how to read the set (format, BEIR split), and whether already-reviewed items are in the review."""
    add_journal(parser)
    add_input_format(parser, old_spellings=old_spellings)
    add_split(parser)
    add_all(parser, help=all_help)


def add_reviewer(parser: argparse.ArgumentParser) -> None:
    """``--reviewer NAME``: whose decisions these are."""
    parser.add_argument(
        "--reviewer", metavar="NAME", help="who is reviewing (default: config file, $REVIEWTUI_REVIEWER, login name)"
    )


def reviewer_for(given: str | None, config: Any) -> str:
    """The reviewer name a review begins under, checked to show as itself wherever it came from, since it
    signs every record of the journal and the export: ``--reviewer``, the settings file's ``reviewer``
    (``config``, an AppConfig), ``$REVIEWTUI_REVIEWER`` or the login name (one that is not UTF-8, or holds
    a control character, crashed the app or signed the journal with it)."""
    import os

    from reviewtui.evalset.model.errors import InputError
    from reviewtui.evalset.review.queue import default_reviewer
    from reviewtui.evalset.review.team import check_name_shows

    if given is not None:
        if not given.strip():  # an empty --reviewer fell back to the login name without a word
            raise InputError("--reviewer needs a name (leave it out for the settings file's, $REVIEWTUI_REVIEWER or the login name)")
        return check_name_shows(given.strip())
    named, where = config.reviewer, str(config.path) if config.path is not None else "the settings file"
    if not named:
        named, where = os.environ.get("REVIEWTUI_REVIEWER", "").strip(), "$REVIEWTUI_REVIEWER"
    if not named:
        named, where = default_reviewer(), "the login name"
    try:
        return check_name_shows(named)
    except InputError as exc:
        raise InputError(f"{exc.message} (the name comes from {where}; or give one with --reviewer)") from None


def add_corpus_options(parser: argparse.ArgumentParser, *, required: bool = False, corpus_help: str) -> None:
    """``--corpus PATH`` and ``--ext EXT`` (documents with other extensions than .txt and .md).

    Every command says what the corpus is for in ``corpus_help``; what it may be is said here, once.
    """
    parser.add_argument(
        "--corpus",
        metavar="PATH",
        type=corpus_name,
        required=required,
        help=f"{corpus_help}; or a BEIR corpus.jsonl, or the BEIR folder that holds one",
    )
    parser.add_argument(
        "--ext",
        action="append",
        default=[],
        metavar="EXT",
        type=extension_name,
        help="with --corpus: also read documents with this extension (repeatable; .txt and .md always)",
    )


#: A BEIR folder's own corpus.jsonl is used without --corpus up to this size. Its index is built first
#: (about a second per 100 MB on a slow machine); a larger one is used when --corpus names it, and the
#: command says so.
FOLDER_CORPUS_LIMIT = 200_000_000


def folder_corpus_file(args: argparse.Namespace, notices: list[str], without: str, advice: str):  # a Path or None
    """A BEIR folder's own ``corpus.jsonl``, for a command given the folder without --corpus; None when
    there is none, or it is too large or cannot be read, which adds a line to ``notices`` beginning
    ``without`` (what the command does without it) and naming ``advice`` + ``--corpus`` for a large one.

    The gold of a BEIR set names whole documents, and the folder holds them: the app shows them, and
    the audit checks that they are there, so that both say the same of the set.
    """
    from pathlib import Path

    from reviewtui.cli.exits import error_message
    from reviewtui.evalset.io.corpusfiles import beir_corpus_file
    from reviewtui.evalset.model.errors import EvalSetError

    folder = Path(args.file)
    if args.input_format not in (None, "beir") or not folder.is_dir():
        return None
    try:
        documents = beir_corpus_file(folder)  # the folder's corpus.jsonl, when it is a BEIR set that has one
    except EvalSetError as exc:  # as a BEIR set shared without its corpus always was
        if os.path.lexists(folder / "corpus.jsonl"):  # but one that is there (a pipe, a folder...) is not missing
            notices.append(f"{without}: the folder's corpus.jsonl cannot be read ({error_message(exc)})")
        return None
    if documents is None:
        return None
    try:
        size = documents.stat().st_size
    except OSError as exc:
        notices.append(f"{without}: the folder's corpus.jsonl cannot be read ({error_message(exc)})")
        return None
    if size > FOLDER_CORPUS_LIMIT:
        notices.append(
            f"the folder's corpus.jsonl ({size / 1e6:,.0f} MB) is not opened without being named: "
            f"{advice} --corpus {documents} to read the documents the gold names"
        )
        return None
    return documents


def open_corpus(args: argparse.Namespace):  # a Corpus, imported late to keep --help fast
    """The corpus the options name, or None without --corpus."""
    if not args.corpus:
        return None
    from reviewtui.evalset.evidence.corpus import DEFAULT_EXTENSIONS, Corpus

    return Corpus(args.corpus, extensions=(*DEFAULT_EXTENSIONS, *args.ext))


def output_rule(*, default_name: bool = False, dash: str = "-o - writes to standard output", corpus: bool = False) -> str:
    """The rule every command that writes a file follows, said the same way in each --help (``corpus``: the
    command takes --corpus, which is never replaced either)."""
    instead = " (without -o, the next free version is taken instead, --force or not)" if default_name else ""
    read = ", or the --corpus read" if corpus else ""
    return (
        f"An existing file is never replaced without --force{instead}, and never, even with --force, "
        f"the input set (or any file in it, for a folder), its review journal or its lock{read}. "
        f"{dash}; a pipe or a device such as /dev/null "
        "is written to, never replaced; a symbolic link is refused, and so is a folder that does not exist "
        "(none is made)."
    )


def add_output(parser: argparse.ArgumentParser, *, help: str) -> None:
    """``-o/--output OUT``: where a command writes."""
    parser.add_argument("-o", "--output", metavar="OUT", type=output_name, help=help)


def number_where(holds: Callable[[float], bool], wanted: str) -> Callable[[str], float]:
    """An argparse type: a number for which ``holds`` is true, refused as the arguments are parsed (before the
    core is imported: a usage error said after the imports took 8-10x a bare interpreter) with what is ``wanted``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not holds(value):  # nan holds nothing a comparison asks
            raise argparse.ArgumentTypeError(f"{text} is not {wanted}")
        return value

    return parse


def corpus_name(text: str) -> str:
    """--corpus's PATH: any name but an empty one (resolve ended in a traceback on it, audit read no corpus)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name names no corpus: give the folder of documents or a corpus.jsonl")
    return text


def extension_name(text: str) -> str:
    """--ext's EXT: one extension (``pdf`` or ``.pdf``). A comma-separated list was read as one extension here and
    as several by the app's checks, which then found documents the app's own `x` did not; "", "." and "*" read nothing."""
    name = text.strip()
    bare = name.lstrip(".")
    if "," in name:
        raise argparse.ArgumentTypeError(f"{text!r} names several extensions: give each its own --ext (--ext htm --ext xml)")
    if not bare or any(char in bare for char in "*?/\\ "):
        raise argparse.ArgumentTypeError(f"{text!r} is not a file name extension (such as pdf or .html)")
    if "." in bare or name.startswith(".."):
        # A document's extension is what follows its last dot: tar.gz or ..xyz matched nothing, without a word.
        raise argparse.ArgumentTypeError(f"{text!r} is not one extension: give what follows a document's last dot (gz, xyz)")
    return name


def output_name(text: str) -> str:
    """-o's OUT: any name but an empty one, which each command read its own way (no -o, the current folder, ...)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty name names no file (- writes to standard output)")
    return text


def add_force_option(parser: argparse.ArgumentParser, *, what: str = "OUT when it exists") -> None:
    """``--force``: replace an existing output file, which is otherwise refused."""
    parser.add_argument(
        "--force",
        action="store_true",
        help=f"replace {what}; never the input, its review journal or its lock",
    )


def add_lossy_option(parser: argparse.ArgumentParser) -> None:
    """``--lossy``: write CSV even where it drops evidence (see ``cli.output.refuse_csv_losses``)."""
    parser.add_argument(
        "--lossy",
        action="store_true",
        help="write CSV even when items lose evidence CSV has no column for (a second quote, gold spans); "
        "without it such a CSV is refused and JSONL keeps everything",
    )


def refuse_a_missing_journal(args: argparse.Namespace) -> None:
    """A command that reads a review (export, status) refuses a --journal that names no file: a name mistyped read
    as a review not begun, and export wrote the set with nothing decided, exit 0, asking for --journal."""
    journal = getattr(args, "journal", None)
    if journal and not os.path.lexists(journal):
        from reviewtui.evalset.model.errors import InputError

        raise InputError("no such journal (--journal names the file a review was saved in)", path=journal)
