"""``reviewtui FILE`` / ``reviewtui review FILE``: open the review app.

The lock is taken, the journal replayed and the set read up to the cursor's
place *before* the screen takes over, so a missing file, a malformed line
there, a journal of another set or a set open elsewhere ends with one line on
stderr and exit code 2, never a half-drawn screen. A large native JSONL set
shows its first question at once and reads the rest in a worker; a malformed
line further on closes the app and is reported the same way (one line, exit
code 2), with every decision made meanwhile kept in the journal. An app that
stops on an internal error (a bug) exits with code 1 and a line saying so; a review in which
the journal refused a step (a full disk) exits with code 2 and a line saying how many. Everything
derived from the set (the quality scan) runs inside the app, in a worker.

A file without questions is refused (one line, exit code 2) rather than opened as an
empty review: handing one to the app is almost always a mistake.

One exception to "before the screen takes over": a review whose journal is long (about
10,000 decisions or more) and ended in a clean close opens on the question it ended on,
found in the set file by its id, while the set is read and the journal replayed behind it
(seconds at 100k); keys wait until the review is open. An error found then closes the app
and is reported the same way.
"""

from __future__ import annotations

import argparse
import gc
from collections.abc import Callable
from typing import TYPE_CHECKING

from reviewtui.cli.exits import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, keep_until_exit, report_error, signals_stop
from reviewtui.cli.options import (
    add_all,
    add_corpus_options,
    add_input_format,
    add_journal,
    add_reviewer,
    add_set_file,
    add_split,
    open_corpus,
    reviewer_for,
)

if TYPE_CHECKING:
    from reviewtui.evalset.evidence.corpus import Corpus
    from reviewtui.evalset.io.settings import AppConfig
    from reviewtui.evalset.review.session import ReviewSession
    from reviewtui.tui.app import ReviewApp
    from reviewtui.tui.opening import Opening

#: What a session's opening reports as it goes: (done, total).
Progress = Callable[[int, int], None]

NAME = "review"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="review a set in the terminal app (the default: `reviewtui FILE`)",
        description="Open a set for review. Decisions are journaled beside the file as you make them "
        "(FILE.reviewtui-journal), so closing and reopening resumes where you stopped. A large JSONL set "
        "opens on its first questions and reads the rest while you work; a long review shows the question "
        "it ended on at once and takes keys once its journal has been replayed.",
    )
    add_set_file(parser)
    add_reviewer(parser)
    add_journal(parser)
    add_all(parser, help="also review items already marked reviewed in the file (by default they are left out)")
    add_corpus_options(
        parser,
        corpus_help=(
            "folder of source documents, to show each quote in its context "
            "(a BEIR folder under review uses its own corpus.jsonl, up to 200 MB)"
        ),
    )
    add_input_format(parser, old_spellings=("--format", "--input-format"))
    add_split(parser)
    parser.set_defaults(func=run, keeps_signals=True)  # the app quits on SIGTERM and SIGHUP itself (ReviewApp._stop_on_signals)




def run(args: argparse.Namespace) -> int:
    # Everything made before the app runs lives as long as it does (Textual, pydantic, our modules,
    # the items read so far) and none of it is garbage, so a collection meanwhile only walks it and
    # slows the launch. The collector stays off until the app is built; those objects are then frozen
    # out of its sight (``gc.freeze``) before it is switched back on. They stay frozen to the end:
    # thawed, the collection at interpreter exit would walk them all and make quitting a large review slow.
    gc.disable()
    try:
        return _run(args)
    finally:
        gc.enable()


def _run(args: argparse.Namespace) -> int:
    from reviewtui.cli.output import refuse_a_terminal_without_the_app
    from reviewtui.evalset.io.settings import load_config

    refuse_a_terminal_without_the_app()
    config = load_config()
    said: list[bool] = []
    try:
        return _review(args, config, said)
    except Exception:
        # Refused before the app could show them (a reviewer name the team's plan does not hold, a set that cannot
        # be read): a settings file that could not be read, or was not found, is often why (its reviewer was not
        # used, so the login name was), and went unsaid.
        if not said:
            say_settings_problems(config.problems)
        raise


def _review(args: argparse.Namespace, config: AppConfig, said: list[bool]) -> int:
    from reviewtui.cli.progress import REPLAYING, SHOW_AFTER, TerminalProgress
    from reviewtui.evalset.review.session import ReviewSession

    corpus = open_corpus(args)
    notices: list[str] = []
    if corpus is None:
        corpus = _folder_corpus(args, notices)
    from reviewtui.evalset.io.files import refuse_no_folder

    # The app reads its set while the quality scan reads it again.
    refuse_no_folder(
        args.file, "the review app reads its set more than once and keeps the journal beside it: "
        "save the set to a file and review that"
    )
    _refuse_an_empty_jsonl(args.file, args.input_format)
    _refuse_a_journal_folder_that_is_not_there(args.journal)
    from reviewtui.evalset.review.team import TeamPlan

    reviewer = reviewer_for(args.reviewer, config)  # it goes into the journal and the export: it must show as itself
    team = TeamPlan.load(args.file, args.split)  # a team's set: this reviewer's items, in their own journal

    def open_session(progress: Progress, replay_progress: Progress) -> ReviewSession:
        return ReviewSession.open(
            args.file,
            reviewer=reviewer,
            journal_path=args.journal,
            include_reviewed=args.all,
            format=args.input_format,
            progress=progress,
            replay_progress=replay_progress,
            progressive=True,
            require_questions=True,
            split=args.split,
            team=team,
        )

    from reviewtui.evalset.jobs.collector import freeze_for_good

    opening = _opening(args, open_session) if team is None else None
    if opening is not None:
        # A long review: its last question is shown at once, the review opens behind it (see tui/opening.py).
        from reviewtui.tui.app import ReviewApp

        app = ReviewApp(None, config=config, corpus=corpus, opening=opening, notices=notices)
        freeze_for_good()
        gc.enable()
        try:
            app.run()
        finally:
            session = _close_once_open(opening)  # also when the app was quit before the review was open
        if session is None and opening.error is not None and app.load_error is None and not app.return_code:
            raise opening.error  # quit while the opening was failing: its error still goes to the terminal
    else:
        # SIGTERM and SIGHUP end the opening as Ctrl+C does, until the app takes them: left to their default
        # action while a resumed review was read, they left the cursor hidden in the shell and the set locked.
        with signals_stop(), TerminalProgress(f"reading {args.file}", show_after=SHOW_AFTER) as progress:
            session = open_session(progress, progress.step(REPLAYING))
        try:
            from reviewtui.tui.app import ReviewApp

            app = ReviewApp(session, config=config, corpus=corpus, notices=notices)
            freeze_for_good()
            gc.enable()
            app.run()
        finally:
            session.close()
    keep_until_exit(session, app)  # a large review is freed by the process's end, not object by object
    said.append(True)
    say_settings_problems(config.problems)  # the app showed a few as it opened, for seconds: here they are to read
    if app.keys_not_used:  # quit while a long review opened: what was typed meanwhile never reached it
        typed = app.keys_not_used
        report_error(
            f"reviewtui: {typed} {'key' if typed == 1 else 'keys'} typed while the review was opening "
            f"{'was' if typed == 1 else 'were'} not used: the app was quit before the review opened"
        )
    return how_it_ended(app, session)


def __getattr__(name: str) -> object:
    # SETTINGS_PRINTED: settings problems printed as the app closes; past these, a count (a file of 30,000 unknown ids
    # printed 30,000 lines). The settings module holds the number, which the app's count says too; read from it when
    # asked, so that `reviewtui --help` does not import the settings module (and pydantic) to list the commands.
    if name == "SETTINGS_PRINTED":
        from reviewtui.evalset.io.settings import PROBLEMS_PRINTED

        return PROBLEMS_PRINTED
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def say_settings_problems(problems: list[str]) -> None:
    from reviewtui.evalset.io.settings import PROBLEMS_PRINTED as SETTINGS_PRINTED

    for problem in problems[:SETTINGS_PRINTED]:
        report_error(f"reviewtui: settings: {problem}")
    if len(problems) > SETTINGS_PRINTED:
        rest = len(problems) - SETTINGS_PRINTED
        report_error(f"reviewtui: settings: and {rest:,} more problem{'s' if rest != 1 else ''} of the same file")


def how_it_ended(app: ReviewApp, session: ReviewSession | None) -> int:
    """The exit code once the app has closed, with a line on the terminal for what went wrong in it
    (a review command's and an adjudication's alike); raises the error a set's later reading met."""
    unsaved = _unsaved_steps(session)
    if unsaved:
        report_error(unsaved)
    if app.load_error is not None:
        raise app.load_error
    if app.return_code:
        # The app stopped on an error of its own. The shell must not see success: a script
        # that exports after a review would go on.
        error = app.crash
        what = f" ({type(error).__name__}: {error})" if error is not None else ""
        details = f"; the traceback is in {app.crash_report}" if app.crash_report is not None else ""
        where = f" at {session.journal_path}" if session is not None else ""
        report_error(
            f"reviewtui: the review app stopped on an internal error{what}; "
            f"every decision made until then is in the journal{where}{details}"
        )
        return EXIT_INTERNAL
    if app.stopped_by is not None:  # ended by a signal: the shell hears it, as of a command a signal stopped
        return 128 + app.stopped_by
    # Steps the journal refused were not made, and the app said so as each happened; the shell hears it
    # too, so that a script exporting after the review does not take it for a review that went as typed.
    return EXIT_USAGE if unsaved else EXIT_OK


def _unsaved_steps(session: ReviewSession | None) -> str:
    """The line saying how many steps of the review the journal could not take; "" when it took every one."""
    if session is None:
        return ""
    from reviewtui.evalset.io.journal import JOURNAL_REMOVED, JOURNAL_REPLACED
    from reviewtui.evalset.text.counts import count, plural

    n = session.unsaved_steps
    if session.journal_kept is not None:
        where = (
            f"the journal this review wrote, its steps with it, is kept as {session.journal_kept}: the file under the "
            "journal's name now does not hold them; compare the two before resuming, and put the kept one in its place to "
            "go on from this review"
        )
    else:
        where = "the steps this review made went to the file that had the journal's name until then"
    if not n:
        if session.journal_moved is None:
            return ""
        # Replaced after the last step (a `git pull` and then the quit key): no step was refused, yet the ones made
        # went to the file that had the journal's name, not to the one there now.
        return f"{session.journal_path}: {session.journal_moved} while the review was open; {where}"
    if session.last_unsaved in (JOURNAL_REPLACED, JOURNAL_REMOVED):
        # The steps shown as made went to the file the name had until then, which may hold more than the file there now.
        kept = where
    else:
        kept = "every step the review showed as made is in the journal"
    return (
        f"{session.journal_path}: {count(n, 'step')} of this review {plural(n, 'was', 'were')} not made, as the "
        f"journal could not take {plural(n, 'it', 'them')} ({session.last_unsaved}); {kept}"
    )


def _folder_corpus(args: argparse.Namespace, notices: list[str]) -> Corpus | None:
    """The corpus a BEIR folder under review carries (its ``corpus.jsonl``), for a review without --corpus.

    The gold of a BEIR set names whole documents, which a reviewer has to read to judge it, and
    the folder holds them. A corpus that is too large or cannot be read leaves the review without
    documents and adds a line saying why to ``notices``: the review itself does not depend on it.
    """
    from reviewtui.cli.exits import error_message
    from reviewtui.cli.options import folder_corpus_file
    from reviewtui.evalset.model.errors import EvalSetError

    documents = folder_corpus_file(args, notices, "the documents are not shown", "start with")
    if documents is None:
        return None
    from reviewtui.evalset.evidence.corpus import Corpus

    try:
        return Corpus(documents)
    except (EvalSetError, OSError) as exc:
        notices.append(f"the documents are not shown: the folder's corpus.jsonl cannot be read ({error_message(exc)})")
        return None


def _close_once_open(opening: Opening) -> ReviewSession | None:
    """Wait for the opening's thread and close the session it opened (None if it opened none).

    Quit while the review opens, the wait can take seconds. A Ctrl+C meanwhile does not cut it
    short: left open, the session would leave its lock file behind. The command says so, closes
    the session once it is open and only then stops as interrupted; a second Ctrl+C stops at
    once, and the next review of the set takes the lock over (saying so).
    """
    if not opening.done:
        report_error("reviewtui: closing the review once it has finished opening…")
    interrupted = False
    while True:
        try:
            session = opening.wait()
            break
        except KeyboardInterrupt:
            if interrupted:
                raise
            interrupted = True
            report_error(
                "reviewtui: still closing the review so that its lock is released; "
                "Ctrl+C again stops now and leaves the lock for the next review to take over"
            )
    if session is not None:
        session.close()
    if interrupted:
        raise KeyboardInterrupt
    return session


def _opening(args: argparse.Namespace, open_session: Callable[[Progress, Progress], ReviewSession]) -> Opening | None:
    """A long review to open behind a preview of the question it ended on; None to open it first, as usual."""
    from pathlib import Path

    from reviewtui.evalset.io.journal import default_journal_path
    from reviewtui.evalset.review.loading import resume_preview

    set_path = Path(args.file)
    journal = Path(args.journal) if args.journal else default_journal_path(set_path, args.split)
    preview = resume_preview(set_path, journal, format=args.input_format)
    if preview is None:
        return None
    from reviewtui.tui.opening import Opening

    return Opening(open_session, preview, set_path.name)


def _refuse_a_journal_folder_that_is_not_there(journal: str | None) -> None:
    """A --journal into a folder that does not exist is a mistyped path: made, it started a new review in a
    stray tree and the review the user meant to resume looked lost. Said, as -o says it."""
    from pathlib import Path

    if not journal or Path(journal).parent.is_dir():
        return
    from reviewtui.evalset.model.errors import EvalSetError

    parent = Path(journal).parent
    what = "is not a folder" if parent.exists() else "does not exist"
    raise EvalSetError(f"the folder the journal goes in {what}; make the folder first, or check the path", path=journal)


def _refuse_an_empty_jsonl(path: str, format: str | None) -> None:
    """Refuse a native JSONL file without items before the set is locked and a journal made for it.

    Its first lines say so at no cost (the session opens a JSONL set on its first lines and
    reads the rest later). A set in another format is read whole, and refused by the session
    before it makes a journal.
    """
    from pathlib import Path

    from reviewtui.evalset.io import require_questions
    from reviewtui.evalset.io.jsonl import JsonlReader
    from reviewtui.evalset.io.sniff import sniff_format

    p = Path(path)
    if not p.is_file():  # missing, a folder, a pipe: opening the session says what it is
        return
    if format is None and p.suffix.lower() != ".json":  # as the session chooses: .json is never native JSONL
        format = sniff_format(p)
    if format == "jsonl":
        with JsonlReader(p) as reader:
            if not reader.items:  # the first line was the header (or there was none): one line more says
                reader.read(1)
            if not reader.items:
                require_questions(reader.finish(), path)
