"""``reviewtui convert IN OUT``: turn any readable eval set into native JSONL or CSV."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from reviewtui.cli.exits import EXIT_OK, EXIT_USAGE
from reviewtui.cli.options import add_force_option, add_input_format, add_lossy_option, add_split, output_name, output_rule

if TYPE_CHECKING:
    from reviewtui.evalset.model.items import EvalSet

NAME = "convert"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="convert an eval set (JSONL, CSV, BEIR folder, LegalBench-RAG, SQuAD, HotpotQA, Natural Questions, DPR, "
        "other tools' question rows) to .jsonl or .csv",
        description=(
            "Read IN with the reader its content calls for and write OUT as native JSONL "
            "(lossless) or CSV (one anchor per item), chosen by OUT's extension. "
            + output_rule(dash="An OUT of - writes JSONL to standard output, and the messages go to standard error")
        ),
    )
    parser.add_argument("input", metavar="IN", help="eval set file, or a BEIR folder")
    parser.add_argument(
        "output",
        metavar="OUT",
        type=output_name,
        help="file to write: .jsonl or .csv; - for JSONL on standard output (a pipe or a device is written JSONL too)",
    )
    add_force_option(parser, what="OUT when it exists, and write into a --corpus-out folder that already holds files")
    add_lossy_option(parser)
    add_input_format(parser)
    add_split(parser)
    parser.add_argument("--id", dest="evalset_id", help="id to give the converted set")
    parser.add_argument(
        "--corpus-out",
        metavar="DIR",
        help="also write the documents a SQuAD, HotpotQA, Natural Questions or DPR file carries to DIR, one .txt each "
        "named after its title (a / in a title written as %%2F), so that `reviewtui FILE --corpus DIR` shows every "
        "quote in its context; DIR is made if need be, in a folder that exists; a DIR that already holds files is "
        "refused without --force",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from reviewtui.cli.output import (
        is_stream,
        output_target,
        refuse_csv_losses,
        say,
        set_output_format,
        shown_path,
        skipped_text,
        to_stdout,
        writing,
    )
    from reviewtui.evalset.io import open_evalset, require_questions, write_csv, write_jsonl
    from reviewtui.evalset.review.export import version_read
    from reviewtui.evalset.text.counts import count

    target = Path(args.output)
    suffix = target.suffix.lower()
    if to_stdout(target) or (suffix not in (".jsonl", ".csv") and is_stream(target)):
        suffix = ".jsonl"  # standard output, a pipe or a device (/dev/null): JSONL, as for `-`
    if suffix not in (".jsonl", ".csv"):
        set_output_format(args.output)  # refuses the name, saying what to call the file, as export and filter do
    output_target(args.output, input_path=args.input, force=args.force)
    if args.corpus_out:
        from reviewtui.evalset.io.files import refuse_read_once

        refuse_read_once(args.input, "--corpus-out reads the input a second time for its documents: save it to a file first")
        _check_corpus_folder(Path(args.corpus_out), force=args.force)
        if not to_stdout(target) and _one_path(Path(args.corpus_out), target):
            from reviewtui.evalset.model.errors import EvalSetError

            # Neither there yet: OUT was written as a file, then every document failed ("Not a directory").
            raise EvalSetError(
                "--corpus-out names the same path as OUT: it is the folder the documents go in, OUT the file the "
                "set is written to; name another folder",
                path=str(args.corpus_out),
            )
    messages = sys.stderr if to_stdout(target) else sys.stdout
    # No question at all (an empty file, every row left out): the wrong file, or a failed export, as
    # `status` and `export` say of it; an empty set written out would pass for a conversion.
    evalset = require_questions(open_evalset(args.input, format=args.input_format, split=args.split), args.input)
    if args.evalset_id:
        evalset = evalset.replace(id=args.evalset_id)
    # A CSV file has no place for its version, which its name keeps (quiz.v2.csv, an export's): the version info,
    # status, filter and export read there is the one the converted set has, or its review would export a second v2.
    version = version_read(evalset, args.input)
    if version != evalset.version:
        evalset = evalset.replace(version=version)
    if suffix == ".csv":
        refuse_csv_losses(evalset, args.output, args.lossy, named_by="as ")
    documents = _documents(args) if args.corpus_out else None
    output_target(args.output, input_path=args.input, force=args.force)  # again: it may have appeared meanwhile
    with writing(target, "the converted set"):
        written = write_csv(evalset, target) if suffix == ".csv" else write_jsonl(evalset, target)
    say(f"wrote {shown_path(written)}: {count(len(evalset), 'question')} ({evalset.source} set {evalset.id!r})", messages)
    skipped = skipped_text(evalset, args.input, args.input_format)
    if skipped:
        say(skipped, messages)
    if documents is not None and not _write_documents(documents, args, messages, _cited(evalset)):
        return EXIT_USAGE  # the set is written, but not every document its evidence is in: not a success
    return EXIT_OK


def _one_path(a: Path, b: Path) -> bool:
    """Whether two paths name one place: the same file when one is there, else the same name once made absolute and
    the links on the way followed ("docs/up/set.jsonl", up a link to "..", is "set.jsonl")."""
    import os

    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _check_corpus_folder(folder: Path, *, force: bool) -> None:
    """Refuse a --corpus-out that is a link, a file, or (without --force) a folder that already holds files.

    Writing the documents replaces any file of the same name, and a folder in use
    may hold documents edited by hand: like every other output, not without --force.
    """
    from reviewtui.evalset.model.errors import EvalSetError

    if folder.is_symlink():
        raise EvalSetError("is a symbolic link; reviewtui does not write through links", path=str(folder))
    if folder.exists() and not folder.is_dir():
        raise EvalSetError("is not a folder: --corpus-out names the folder the documents go in", path=str(folder))
    parent = folder.absolute().parent
    if not folder.exists() and not parent.is_dir():
        # The folder itself is made; a missing folder above it is most often a typo, as for -o, where none is made.
        raise EvalSetError(
            f"the folder it would be made in, {parent}, does not exist (only the last folder is made)", path=str(folder)
        )
    if not force and folder.is_dir() and any(folder.iterdir()):
        raise EvalSetError(
            "already holds files, which documents of the same name would replace; "
            "pass --force to write into it anyway, or name a new folder",
            path=str(folder),
        )


def _documents(args: argparse.Namespace) -> dict[str, str]:
    """The documents the input carries; a usage error for formats that carry none."""
    from reviewtui.evalset.io import dpr_corpus, hotpot_corpus, nq_corpus, sniff_format, squad_corpus
    from reviewtui.evalset.model.errors import EvalSetError

    # A folder is a BEIR set, which carries no documents; sniffing one with several splits would refuse it instead.
    kind = args.input_format or ("beir" if Path(args.input).is_dir() else sniff_format(args.input))
    readers = {"squad": squad_corpus, "nq": nq_corpus, "hotpotqa": hotpot_corpus, "dpr": dpr_corpus}
    if kind not in readers:
        raise EvalSetError(
            f"--corpus-out needs a file that carries its documents (SQuAD, HotpotQA, Natural Questions or DPR), not {kind}",
            path=str(args.input),
        )
    return readers[kind](args.input)


def _cited(evalset: EvalSet) -> set[str]:
    """The documents the set's evidence is in: each quote's source, each span's document."""
    return {anchor.source_id for item in evalset for anchor in item.anchors} | {
        gold.span.doc_id for item in evalset for gold in item.gold
    }


def _write_documents(documents: dict[str, str], args: argparse.Namespace, messages: TextIO, cited: set[str]) -> bool:
    """Write the documents into ``--corpus-out``; False (each refusal said) when one the set's evidence
    is in could not be written. HotpotQA rows carry distractor paragraphs no quote is from: one of
    those with an odd title is said, and is no failure."""
    from reviewtui.cli.output import say, to_stdout, warn
    from reviewtui.evalset.io.corpusfiles import write_corpus
    from reviewtui.evalset.io.files import read_once_kind
    from reviewtui.evalset.io.outputs import output_problem
    from reviewtui.evalset.text.counts import count

    folder = args.corpus_out
    written = () if to_stdout(args.output) else (args.output,)

    def refuse(target: Path) -> str | None:
        # A document named like the set being converted, the set just written or a review file: never over those.
        problem = output_problem(target, input_path=args.input, force=True, reads=written)
        if problem is None:
            # Fine for an output the user named, not for a document file: a pipe there waited for a reader for
            # ever (the command hung), and a device would take the document away.
            once = read_once_kind(target)
            problem = None if once is None else f"is {once}, not a file to hold a document"
        return None if problem is None else problem.split(" (name another")[0]

    # Every id these formats carry is a title (HotpotQA's "ISS A/S", a SQuAD "AC/DC#0"), never a path:
    # each becomes one file, so that a slash in a title does not make a folder.
    done, refused = write_corpus(documents, folder, flat=True, refuse=refuse)
    if done:
        say(f"wrote {count(done, 'document')} to {folder}/ (open the set with --corpus {folder})", messages)
    else:
        say(f"wrote no document to {folder}/", messages)
    for doc_id, why in list(refused.items())[:5]:
        warn(f"{folder}: not written: document {doc_id!r}: {why}")
    if len(refused) > 5:
        warn(f"{folder}: not written: {count(len(refused) - 5, 'more document', 'more documents')}")
    needed = [doc_id for doc_id in refused if doc_id in cited]
    if needed:
        warn(f"{len(needed):,} of the documents not written hold evidence of the set; its quotes from them will not be found")
    elif refused:
        warn(f"{count(len(refused), 'document')} not written, none of them holding any of the set's evidence")
    return not needed
