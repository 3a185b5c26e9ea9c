"""``reviewtui status FILE``: how far a review has got, read from its journal."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from reviewtui.cli.exits import EXIT_OK, keep_until_exit
from reviewtui.cli.options import add_review_source_options, add_set_file, refuse_a_missing_journal
from reviewtui.cli.output import say, say_skipped

if TYPE_CHECKING:
    from reviewtui.evalset.model.items import EvalSet

NAME = "status"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="print review progress, counts, pace and time spent, without opening the app",
        description=(
            "Read the set and its review journal (without locking or changing either) "
            "and say where the review stands. A set a team reviews (one `reviewtui assign` planned) is reported "
            "for the whole team: each reviewer's progress, agreement so far, and the disagreements left."
        ),
    )
    add_set_file(parser, help="the eval set under review")
    add_review_source_options(parser, all_help="count items already marked reviewed as part of the review")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from reviewtui.cli.progress import REPLAYING, SHOW_AFTER, TerminalProgress
    from reviewtui.evalset.io import require_questions
    from reviewtui.evalset.review.session import load_review, status_lines
    from reviewtui.evalset.review.team import TeamPlan

    team = TeamPlan.load(args.file, args.split)
    if team is not None and args.journal is None:
        return _team_status(args, team)

    refuse_a_missing_journal(args)
    part = _team_part(args, team) if team is not None else None
    with TerminalProgress(f"reading {args.file}", show_after=SHOW_AFTER) as bar:
        loaded = load_review(
            args.file,
            journal_path=args.journal,
            include_reviewed=args.all or None,
            format=args.input_format,
            evalset=part[1] if part is not None else None,
            split=args.split,
            progress=bar,
            replay_progress=bar.step(REPLAYING),
            in_team=part is not None,
        )
    keep_until_exit(loaded)  # freed by the process's end, not by this return
    require_questions(loaded.evalset, args.file)  # as `review` would: a file without questions has no review
    if part is None:
        say_skipped(loaded.evalset, path=args.file, format=args.input_format)
    else:
        say(part[0])
    for line in status_lines(loaded, part_of=None if part is None else part[2]):
        say(line)
    return EXIT_OK


def _team_part(args: argparse.Namespace, team: object) -> tuple[str, EvalSet, int] | None:
    """For ``--journal`` naming a journal of the team's folder: a line saying whose part of the review it holds, and
    that part of the set (the reviewer's share, as their review holds it; the adjudicator's items, as
    ``reviewtui adjudicate`` opens on them), and the whole set's size. Counted against the whole set, a reviewer done with their share read
    "decided 16 of 24 (67%), 8 left", where their review and the team's status said 16 of 16.
    None: not a journal of the plan's reviewers or its adjudicator (read as a single review, as before)."""
    from pathlib import Path

    from reviewtui.evalset.io import open_evalset
    from reviewtui.evalset.io.teamfiles import journal_owner
    from reviewtui.evalset.review.replay import decided_in
    from reviewtui.evalset.review.team import ADJUDICATOR, TeamPlan
    from reviewtui.evalset.review.teamwork import adjudication_items
    from reviewtui.evalset.text.counts import count
    from reviewtui.evalset.text.words import in_quotes

    assert isinstance(team, TeamPlan)
    journal = Path(args.journal)
    owner = journal_owner(team.folder, journal)
    if owner is None or (owner != ADJUDICATOR and owner not in team.reviewers):
        return None
    evalset = open_evalset(args.file, format=args.input_format, split=args.split)
    say_skipped(evalset, path=args.file, format=args.input_format)
    if owner == ADJUDICATOR:
        wanted = frozenset(adjudication_items(team, evalset, args.file))
        part = evalset.replace(items=tuple(item for item in evalset.items if item.id in wanted))
        whose = "the adjudicator's part"
    else:
        mine = team.share_of(owner, decided_in(journal))
        part = evalset.replace(items=tuple(item for item in evalset.items if mine(item)))
        whose = f"the part given to {in_quotes(owner)}"
    line = (
        f"{args.journal}: {whose} of a team's review ({team.plan_path}): {len(part.items):,} of "
        f"{count(len(evalset.items), 'question')} (reviewtui status {args.file}: the whole team)"
    )
    return line, part, len(evalset.items)


def _team_status(args: argparse.Namespace, team: object) -> int:
    """Each reviewer's progress on their own items, and how often double-reviewed items agree."""
    from collections import Counter

    from reviewtui.evalset.io import open_evalset, require_questions
    from reviewtui.evalset.review.agreement import agreement_report
    from reviewtui.evalset.review.export import version_read
    from reviewtui.evalset.review.queue import stays_in_review
    from reviewtui.evalset.review.team import ADJUDICATOR, TeamPlan
    from reviewtui.evalset.review.teamwork import (
        DROPPED,
        OVERTAKEN,
        WITHDRAWN,
        adjudication_since,
        decided_by,
        disagreements,
        edited_apart,
        ratings_from,
        skipped_by_all,
        team_decisions,
        warning_tally_of_team,
    )
    from reviewtui.evalset.text.counts import count

    assert isinstance(team, TeamPlan)
    evalset = require_questions(open_evalset(args.file, format=args.input_format, split=args.split), args.file)
    say_skipped(evalset, path=args.file, format=args.input_format)
    notes: list[str] = []
    given_to: dict[str, tuple[str, ...]] = {}  # each item ranked once, while the journals are read
    judged: dict[tuple[str, str, str], str] = {}
    decisions = team_decisions(team, evalset, args.file, notes, given_to, judged=judged)
    ratings, decided = ratings_from(decisions), decided_by(team, decisions)
    # Each reviewer's share as their review holds it: items the file marks reviewed are left out (unless --all)
    # or counted when a journal decided them, as the app counts them; an item a reviewer decided before a new
    # plan gave it to someone else stays theirs.
    # Each reviewer's own decisions, skips included: the items one reviewer decided, or another, said nothing
    # of whether a third one's review holds an item the file marks reviewed ("decided 3 of 2").
    own: dict[str, set[str]] = {reviewer: set() for reviewer in team.reviewers}
    for item_id, by in decisions.items():
        for reviewer in by:
            if reviewer in own:
                own[reviewer].add(item_id)
    load = dict.fromkeys(team.reviewers, 0)
    # Items the file marks reviewed that another reviewer decided (with --all): a consensus waits for this
    # reviewer on them, while their review, without --all, leaves them out ("decided 1 of 1" and a wait for ever).
    hidden = dict.fromkeys(team.reviewers, 0)
    for item in evalset.items:
        by = decisions.get(item.id, {})
        for reviewer in {*given_to[item.id], *by}:
            if reviewer in load and (args.all or stays_in_review(item, own[reviewer])):
                load[reviewer] += 1
            elif reviewer in hidden and reviewer not in by and any(other != ADJUDICATOR for other in by):
                hidden[reviewer] += 1
    version = version_read(evalset, args.file)  # a CSV's version is in its name, as the export counts it
    say(f"{args.file}: set {evalset.id!r} v{version}, {count(len(evalset), 'item')}, {count(len(team.reviewers), 'reviewer')}")
    for reviewer in team.reviewers:
        done, total = decided.get(reviewer, 0), load[reviewer]
        waits = hidden[reviewer]
        also = (
            f"; {count(waits, 'item')} marked reviewed in the file, which another reviewer decided, "
            f"{'waits' if waits == 1 else 'wait'} for them in a consensus: their review shows "
            f"{'it' if waits == 1 else 'them'} with --all"
            if waits
            else ""
        )
        say(f"  {reviewer}: decided {done:,} of {total:,}{also}")
    for note in notes:
        say(f"  note: {note}")
    report = agreement_report(ratings, resamples=0)
    if report.compared_items:
        value = report.percent_agreement.value
        # The mean over items of the share of each item's reviewer pairs that agree, as `agreement` reports it, and
        # written as it writes it ("62% of pairs" here once read as the share of all pairs, a different figure with
        # three reviewers or more).
        say(
            f"items judged by more than one reviewer so far (skips aside): {report.compared_items:,}; "
            f"percent agreement on verdicts {value:.1%} (reviewtui agreement: kappa and intervals)"
        )
    disputed = disagreements(decisions)
    if disputed:
        # An adjudicator's skip settles nothing (see teamwork.consensus): only a verdict counts.
        settled = sum(
            1 for item_id in disputed if (taken := decisions[item_id].get(ADJUDICATOR)) is not None and taken.verdict.value != "skipped"
        )
        apart = len(edited_apart(decisions, disputed))
        edits = f" ({apart:,} of them edited by every reviewer, not all into the same version)" if apart else ""
        say(f"disagreements: {len(disputed):,}{edits}; adjudicated so far: {settled:,} (reviewtui adjudicate FILE)")
    changed = Counter(
        since
        for mine in decisions.values()
        if (taken := mine.get(ADJUDICATOR)) is not None
        and taken.verdict.value != "skipped"
        and (since := adjudication_since(team, mine, taken)) is not None
    )
    if changed:
        # The merged export says these item by item; the status, which counted them among neither the disagreements
        # nor anything else, said nothing of them.
        said = [f"{changed[OVERTAKEN]:,} whose reviewers have since come to agree on another verdict"] if changed[OVERTAKEN] else []
        if changed[WITHDRAWN]:
            said.append(f"{changed[WITHDRAWN]:,} that took a reviewer's decision the reviewer has since changed or taken back")
        if changed[DROPPED]:
            said.append(f"{changed[DROPPED]:,} that took the decision of a reviewer the plan no longer names")
        say(f"adjudications that stand on reviews changed since: {'; '.join(said)} (reviewtui adjudicate FILE to look again)")
    skipped = skipped_by_all(decisions, given_to)
    if skipped:
        # No consensus rule settles these; the adjudicator is offered them beside the disagreements.
        settled = sum(
            1 for item_id in skipped if (taken := decisions[item_id].get(ADJUDICATOR)) is not None and taken.verdict.value != "skipped"
        )
        say(f"skipped by every reviewer who came to them: {len(skipped):,}; adjudicated so far: {settled:,} (reviewtui adjudicate FILE)")
    from reviewtui.evalset.review.session import tally_lines

    for line in tally_lines(warning_tally_of_team(judged)):  # as a single review's status counts them
        say(line)
    return EXIT_OK
