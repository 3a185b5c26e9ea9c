"""``reviewtui assign FILE --reviewers a,b,c --overlap N``: split a set among reviewers, with overlap."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from reviewtui.cli.exits import EXIT_OK
from reviewtui.cli.options import add_force_option, add_input_format, add_set_file, add_split, number_where
from reviewtui.cli.output import say, say_skipped

if TYPE_CHECKING:
    from reviewtui.evalset.review.team import TeamPlan

NAME = "assign"

#: Reviewers left without an item named in the note; the rest are counted.
IDLE_NAMED = 20


# Checked as the arguments are parsed, before the core is imported: a usage error took 10x a bare interpreter.


def _names(text: str) -> str:
    """--reviewers: names apart by single commas, none of them empty ("ana,,bo" or "ana,bo,": one left out)."""
    if not all(name.strip() for name in text.split(",")):
        raise argparse.ArgumentTypeError(f"{text!r} holds an empty name; give the names apart by single commas")
    return text


#: --overlap: a whole number of reviewers per item, or a share below 1 (a second reviewer on that share).
_overlap = number_where(
    lambda value: 0 < value < 1 or (1 <= value < 2**31 and value.is_integer()),
    "a whole number of reviewers per item (1, 2, ...) nor a share between 0 and 1 (0.2 for a fifth)",
)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="give each item to reviewers (with overlap, for agreement); each then reviews only their items",
        description=(
            "Write a team plan beside the set (FILE.reviews/plan.json). From then on `reviewtui FILE --reviewer NAME` "
            "shows NAME only the items the plan gives them, in a journal of their own (FILE.reviews/NAME.reviewtui-journal), "
            "so several people review at once and their journals never conflict in git. Which reviewers get an item "
            "depends on its id alone: adding items later does not move the others."
        ),
    )
    add_set_file(parser)
    parser.add_argument("--reviewers", required=True, metavar="NAMES", type=_names, help="comma-separated reviewer names")
    parser.add_argument(
        "--overlap",
        type=_overlap,
        default=1.0,
        metavar="N",
        help="reviewers per item (1, 2, …), or a share between 0 and 1: every item to one reviewer and that share of them "
        "to a second as well (default: 1)",
    )
    add_force_option(parser, what="a plan that already exists, even when reviewers have started (their items may change)")
    add_input_format(parser)
    add_split(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from reviewtui.cli.exits import error_message
    from reviewtui.evalset.io import open_evalset, require_questions
    from reviewtui.evalset.io.files import refuse_no_folder
    from reviewtui.evalset.model.errors import EvalSetError, InputError
    from reviewtui.evalset.model.items import is_marked_reviewed
    from reviewtui.evalset.review.team import TeamPlan
    from reviewtui.evalset.text.counts import count
    from reviewtui.evalset.text.words import in_quotes

    refuse_no_folder(
        args.file, "a team plan is kept beside its set and every reviewer opens that set: "
        "save the set to a file and assign that"
    )
    evalset = require_questions(open_evalset(args.file, format=args.input_format, split=args.split), args.file)
    say_skipped(evalset, path=args.file, format=args.input_format)
    names = args.reviewers.split(",")
    if not all(name.strip() for name in names):  # "ana,,bo" or "ana,bo,": a name left out, or a stray comma
        raise InputError(f"--reviewers {in_quotes(args.reviewers)} holds an empty name; give the names apart by single commas")
    plan = TeamPlan.create(args.file, names, args.overlap, args.split)
    unreadable = ""
    try:
        existing = TeamPlan.load(args.file, args.split)
    except EvalSetError as exc:
        if not args.force:
            raise
        # A plan file edited by hand into one no command reads: --force replaces it, as it replaces a readable one
        # (it had to be deleted by hand), and says what it replaced.
        existing, unreadable = None, error_message(exc)
    if existing is not None and not args.force:
        started = [r for r in existing.reviewers if existing.journal_for(r).exists()]
        if started or (existing.reviewers, existing.overlap) != (plan.reviewers, plan.overlap):
            raise InputError(
                "this set has a team plan already" + (f" and {', '.join(started)} started reviewing" if started else "")
                + "; --force replaces it (items may move between reviewers)",
                path=str(existing.plan_path),
            )
    if existing is not None:
        _refuse_a_started_reviewer_renamed_by_case(existing, plan)
    path = plan.save()
    shares = plan.assignment(evalset.items)
    load = {reviewer: len(items) for reviewer, items in shares.items()}
    from collections import Counter

    # From the shares, not by ranking every item's reviewers a second time (a hash per item and reviewer).
    reviews = Counter(item.id for items in shares.values() for item in items)
    twice = sum(1 for n in reviews.values() if n > 1)
    say(
        f"wrote {path}: {count(len(evalset), 'item')}, {count(len(plan.reviewers), 'reviewer')}, "
        f"{count(twice, 'item')} reviewed more than once"
    )
    for reviewer, items in shares.items():
        # The app and `status` leave out the items the file marks reviewed (unless --all): said here, so the
        # counts agree with the ones a reviewer will see.
        marked = sum(1 for item in items if is_marked_reviewed(item.meta.get("reviewed")))
        told = f" ({marked:,} of them marked reviewed in the file: left out of the review unless --all)" if marked else ""
        say(f"  {reviewer}: {len(items):,} {'item' if len(items) == 1 else 'items'}{told}")
    idle = [reviewer for reviewer, count in load.items() if not count]
    if idle:
        named = ", ".join(idle[:IDLE_NAMED]) + (f" and {len(idle) - IDLE_NAMED:,} more" if len(idle) > IDLE_NAMED else "")
        if sum(load.values()) < len(plan.reviewers):
            why = "more reviewers than the items need"
        else:
            # There were reviews enough for everyone (items x overlap): the hash split, about even on a large
            # set, came out uneven on this small one. "More reviewers than the items need" was not true.
            why = (
                f"the split goes by a hash of each item's id, about even on a large set but not on "
                f"{count(len(evalset), 'item')}"
            )
        say(f"note: {named} {'gets' if len(idle) == 1 else 'get'} no item: {why}")
    _say_a_review_without_the_plan(args.file, args.split)
    if unreadable:
        say(f"note: it replaced a plan no command could read ({unreadable})")
    if existing is not None:
        left = [r for r in existing.reviewers if r not in plan.reviewers and existing.journal_for(r).exists()]
        if left:
            say(
                f"note: the new plan leaves out {', '.join(left)}, whose journal stays in the team's folder: "
                "those decisions are not counted unless the name is in the plan again"
            )
    return EXIT_OK


def _refuse_a_started_reviewer_renamed_by_case(existing: TeamPlan, plan: TeamPlan) -> None:
    """Refuse a new plan naming a reviewer who started as another case of the name ("Ana" for "ana"), --force or not.

    Accepted, the plan gave "Ana" a fresh journal and left ana's decisions uncounted, while a disk that ignores
    case holds the two journals as one file: either way the work looked lost.
    """
    import unicodedata

    from reviewtui.evalset.model.errors import InputError
    from reviewtui.evalset.text.words import in_quotes

    def folded(name: str) -> str:
        return unicodedata.normalize("NFKC", name).casefold()

    started = {folded(r): r for r in existing.reviewers if existing.journal_for(r).exists()}
    for name in plan.reviewers:
        before = started.get(folded(name))
        if before is not None and before != name and before not in plan.reviewers:
            raise InputError(
                f"{in_quotes(name)} differs only in case from {in_quotes(before)}, who has started reviewing: give the "
                f"name as before ({in_quotes(before)}), or their decisions stop counting",
                path=str(existing.plan_path),
            )


def _say_a_review_without_the_plan(path: str, split: str | None) -> None:
    """Name a review of the set begun without a plan (its journal beside the set): once the set has a plan, the
    team's reviews, `status` and `export --consensus` no longer count it, and nothing said so."""
    from reviewtui.evalset.io.journal import default_journal_path
    from reviewtui.evalset.model.errors import EvalSetError
    from reviewtui.evalset.review.replay import decided_in
    from reviewtui.evalset.text.counts import count

    journal = default_journal_path(path, split)
    if not journal.is_file():  # none, or a folder or a pipe of that name: no review to speak of
        return
    try:
        touched = decided_in(journal)
    except (EvalSetError, OSError):  # damaged or unreadable: named all the same, it is still someone's work
        touched = None
    if touched is None or touched:
        what = "this set" if touched is None else count(len(touched), "item")
        say(
            f"note: {journal} holds a review of {what} made without a team plan; the team's reviews, "
            "`status` and `export --consensus` do not count it"
        )

