"""``reviewtui adjudicate FILE``: the review app on the items a team's reviewers disagree on."""

from __future__ import annotations

import argparse

from reviewtui.cli.exits import EXIT_OK
from reviewtui.cli.options import add_corpus_options, add_input_format, add_reviewer, add_set_file, add_split, open_corpus, reviewer_for
from reviewtui.cli.output import say

NAME = "adjudicate"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="settle a team's disagreements: the app on the items reviewers decided differently",
        description=(
            "Open the review app on the items the team's reviewers decided differently (skips aside), and on those "
            "every reviewer they were given to skipped. Each reviewer's "
            "verdict, reason, note and edit are in the history pane; a digit takes that reviewer's decision, or "
            "decide afresh with the usual keys. The adjudication is a journal like any other "
            "(FILE.reviews/adjudicator.reviewtui-journal); export --consensus adjudicated uses it."
        ),
    )
    add_set_file(parser)
    add_reviewer(parser)
    # The review app says to open with --corpus to read a quote in its context: so does the adjudication.
    add_corpus_options(parser, corpus_help="folder of source documents, to show each quote in its context")
    add_input_format(parser)
    add_split(parser)
    parser.set_defaults(func=run, keeps_signals=True)  # the app quits on SIGTERM and SIGHUP itself, as in a review


def run(args: argparse.Namespace) -> int:
    from reviewtui.cli.output import refuse_a_terminal_without_the_app
    from reviewtui.evalset.io import open_evalset, require_questions
    from reviewtui.evalset.io.settings import load_config
    from reviewtui.evalset.model.errors import InputError
    from reviewtui.evalset.review.team import TeamPlan
    from reviewtui.evalset.review.teamwork import open_adjudication
    from reviewtui.tui.app import ReviewApp

    plan = TeamPlan.load(args.file, args.split)
    if plan is None:
        raise InputError(
            "adjudication settles a team's disagreements, and this set has no team plan (see reviewtui assign)", path=args.file
        )
    evalset = require_questions(open_evalset(args.file, format=args.input_format, split=args.split), args.file)
    corpus = open_corpus(args)
    config = load_config()
    from reviewtui.cli.exits import signals_stop

    seen: dict[str, int] = {}
    with signals_stop():  # until the app takes them: the journals read, the adjudicator's lock given back
        adjudication = open_adjudication(
            plan,
            evalset,
            args.file,
            reviewer=reviewer_for(args.reviewer, config),
            format=args.input_format,
            split=args.split,
            seen=seen,
            # "nothing to adjudicate" needs no app and is said anywhere; with something to adjudicate, no terminal
            # for the app is refused before the adjudicator's journal is made
            before_opening=refuse_a_terminal_without_the_app,
        )
    if adjudication is None:
        say(_nothing_to_adjudicate(seen))
        return EXIT_OK
    try:
        app = ReviewApp(
            adjudication.session,
            config=config,
            votes=adjudication.votes,
            vote_dismissals=adjudication.dismissed,
            corpus=corpus,
        )
        app.run()
    finally:
        adjudication.session.close()
    from reviewtui.cli.review import how_it_ended, say_settings_problems

    say_settings_problems(config.problems)  # as the review command does, which the app only began to show

    # A crash in the app, or steps the journal could not take, ended with exit code 0 here.
    return how_it_ended(app, adjudication.session)


def _nothing_to_adjudicate(seen: dict[str, int]) -> str:
    """Why there is nothing to adjudicate: "the reviewers agree" was said before anyone had decided anything."""
    from reviewtui.evalset.text.counts import count

    decided, compared = seen.get("decided", 0), seen.get("compared", 0)
    if not seen.get("shared", 1):  # "not decided by two reviewers yet" promised what an overlap of 1 never brings
        return (
            "the plan gives each item to one reviewer (reviewtui assign --overlap 2, or a share such as 0.2, gives some "
            "to two), so there is nothing to compare, and no item is left skipped by its reviewer: nothing to adjudicate"
        )
    if decided == 0:
        return "no reviewer has decided an item yet: nothing to adjudicate"
    if compared == 0:
        return (
            f"no item has been decided by two reviewers yet ({count(decided, 'item')} by one so far): "
            "nothing to adjudicate"
        )
    return (
        f"the reviewers agree on every item two or more of them decided ({compared:,}), and none is left skipped by "
        "all: nothing to adjudicate"
    )
