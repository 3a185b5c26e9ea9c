"""``reviewtui export FILE``: write the reviewed set (or the rejected questions) from the journal."""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from reviewtui.cli.exits import EXIT_OK, keep_until_exit
from reviewtui.cli.options import (
    add_force_option,
    add_lossy_option,
    add_output,
    add_output_format,
    add_review_source_options,
    add_set_file,
    output_rule,
    refuse_a_missing_journal,
)

if TYPE_CHECKING:
    from reviewtui.evalset.model.items import EvalSet

NAME = "export"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="write the reviewed set as its next version, or the rejected questions",
        description=(
            "Write the set as reviewed so far: rejected and skipped questions dropped, accepted and edited "
            "ones marked reviewed, undecided ones unchanged. The default name is <stem>.v<N>.<format> "
            "beside the input (the format is jsonl unless --to or -o says csv), N being the next version whose file "
            "does not exist yet (past the version the input's own name carries, quiz.v2.csv giving version 3, "
            "quiz.v3.jsonl: a CSV file keeps no version in it). With --rejected, "
            "write the rejected questions with their reason codes and notes instead "
            "(default <stem>.rejected.<format>, then <stem>.rejected-2.<format>, ...). "
            "Works while the review app is open. "
            + output_rule(default_name=True, dash="-o - writes to standard output, and the messages go to standard error")
        ),
    )
    add_set_file(parser, help="the eval set that was reviewed (any format reviewtui reads)")
    add_output(parser, help="where to write, a .jsonl or .csv file (default: beside the input); - for standard output")
    add_output_format(
        parser,
        choices=("jsonl", "csv"),
        help="write this format: jsonl, or csv (the default: what the -o file's name ends in, else jsonl); "
        "a file named otherwise is refused",
    )
    parser.add_argument("--rejected", action="store_true", help="write the rejected questions with their reasons")
    parser.add_argument(
        "--consensus",
        choices=("unanimous", "majority", "adjudicated"),
        help="a team's set (see assign): merge every reviewer's journal; an item stands where its reviewers agree "
        "(unanimous), where most do (majority), or as the adjudicator decided (adjudicated, else unanimous); items "
        "without consensus are left out and listed, items some reviewer they were given to has not come to yet are "
        "written as they were and listed; with --rejected, the items the rule rejects, with every reviewer's decision",
    )
    add_force_option(parser, what="OUT when it exists (without -o, a new version is written, never over an earlier export)")
    add_lossy_option(parser)
    add_review_source_options(parser, all_help="include items already marked reviewed in the review")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import warnings

    from reviewtui.cli.output import (
        output_target,
        refuse_csv_losses,
        say,
        say_skipped,
        set_output_format,
        shown_path,
        to_stdout,
    )
    from reviewtui.cli.progress import REPLAYING, SHOW_AFTER, TerminalProgress
    from reviewtui.evalset.io import require_questions
    from reviewtui.evalset.review.export import (
        accepted_past_warnings,
        decided_before_checks,
        export_rejected,
        own_values_replaced,
        rejected_set,
        replaced_line,
        write_reviewed,
    )
    from reviewtui.evalset.review.session import load_review, not_restored

    # Checked before the set is read: a refused -o should not wait for a large set to load.
    output_target(args.output, input_path=args.file, journal_path=args.journal, force=args.force)
    # -o out.csv once wrote JSON Lines into a file named .csv, and -o reviewed.json a file nothing could read back
    args.output_format = set_output_format(args.output, args.output_format)
    if args.output is None:
        from reviewtui.evalset.io.outputs import refuse_output_beside

        refuse_output_beside(args.file)
    if args.consensus:
        return _merged(args)
    if args.journal is not None:
        _refuse_a_share(args)
    # With the data on standard output, what is said about it goes to standard error.
    messages = sys.stderr if to_stdout(args.output) else sys.stdout
    refuse_a_missing_journal(args)
    with TerminalProgress(f"reading {args.file}", show_after=SHOW_AFTER) as bar:
        loaded = load_review(
            args.file,
            journal_path=args.journal,
            include_reviewed=args.all or None,
            format=args.input_format,
            split=args.split,
            progress=bar,
            replay_progress=bar.step(REPLAYING),
        )
    keep_until_exit(loaded)  # freed by the process's end, not by this return
    require_questions(loaded.evalset, args.file)
    say_skipped(loaded.evalset, messages, args.file, args.input_format)
    for line in loaded.report.lines()[1:]:
        say(f"note: {line}", messages)
    if not loaded.queue.decided:  # as the app says it of an export with no decision in it
        path = loaded.journal_path
        if not path.exists():
            found = f"no review journal at {path}"
        elif not any(payload.get("op") == "decide" for _, payload in loaded.contents.records):
            found = f"the review journal at {path} holds no decisions"  # sessions opened, notes written, nothing decided
        else:
            found = f"no decision in the review journal at {path} stands (each was taken back, or its item has changed)"
        from reviewtui.evalset.review.team import TeamPlan

        team = TeamPlan.load(args.file, args.split) if args.journal is None else None
        hint = (
            f"this set is reviewed by a team ({team.plan_path}): --consensus unanimous, majority or adjudicated "
            "merges their journals"
            if team is not None
            else "pass --journal if the review was saved elsewhere"
            if args.journal is None
            # --journal named it already: "pass --journal" read as if the option had not been taken
            else "check that --journal names the file the review was saved in"
        )
        say(f"note: {found}, so nothing has been decided yet: the export is the set as it stands ({hint})", messages)
    if args.output_format == "csv":
        from reviewtui.evalset.model.review import REVIEW_KEY
        from reviewtui.evalset.review.export import default_name, rejected_set, skipped_notes, version_read

        queue = loaded.queue
        written_set = rejected_set(loaded.evalset, queue) if args.rejected else queue.result(loaded.evalset, records=True)
        # The header either export writes holds its lineage too, which a CSV file has no place for: counted
        # among what the file leaves out (its value is made as the file is written, after this check).
        notes = {"skipped_notes": skipped_notes(queue), "undecided_notes": queue.draft_notes()}
        written_set = written_set.replace(meta={**written_set.meta, REVIEW_KEY: notes})
        named = args.output
        if named is None:
            # The name the export will take, with the version in it that the file is written as: a CSV's version and
            # id are read from its name. Without it the note said "does not keep version 2 (read back as 1)" of
            # quiz.v6.csv, which reads back as the version 6 it is.
            source = loaded.input_path if loaded.input_path is not None else Path(args.file)
            version = version_read(loaded.evalset, source) + (0 if args.rejected else 1)
            named, version = default_name(
                source, version, "csv", split=args.split, journal_path=loaded.journal_path, rejected=args.rejected
            )
            written_set = written_set.model_copy(update={"version": version})
        refuse_csv_losses(written_set, named, args.lossy, has_to=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        source = loaded.input_path if loaded.input_path is not None else Path(args.file)  # a set read from a file
        # The lineage (in either file's header) hashes the journal as it was replayed (a review still open may
        # append meanwhile; a last record cut short is not in it) and refuses a set file changed since it was read.
        replayed = loaded.contents.good_size if loaded.contents.exists else 0
        what = (loaded.evalset, loaded.queue, source, args.output, args.output_format)
        how: dict[str, Any] = {
            "force": args.force,
            "journal_path": loaded.journal_path,
            "journal_bytes": replayed,
            "read_as": loaded.input_identity,
            "split": args.split,
            "not_restored": not_restored(loaded.report),
        }
        if args.rejected:
            target = export_rejected(*what, **how)
        else:
            target, written = write_reviewed(*what, **how)
    for warning in caught:
        say(f"note: {warning.message}", messages)
    queue = loaded.queue
    if args.rejected:
        count = len(queue.rejections())
        say(f"wrote {count} rejected {'question' if count == 1 else 'questions'} to {shown_path(target)}", messages)
        replaced = own_values_replaced(rejected_set(loaded.evalset, queue))
        if replaced:
            say(replaced_line(replaced), messages)
    else:
        stats = queue.stats()
        say(
            f"wrote {shown_path(target)}: version {written.version}, "
            f"{stats.decided} of {stats.total} reviewed ({', '.join(f'{n} {v}' for v, n in stats.counts.items())})",
            messages,
        )
        past = accepted_past_warnings(queue)
        if past:
            say(past_warnings_line(past), messages)
        unchecked = decided_before_checks(queue)
        if unchecked:
            say(unchecked_line(unchecked), messages)
        replaced = own_values_replaced(written, queue.decisions)
        if replaced:
            say(replaced_line(replaced), messages)
        unlocated = spans_dropped_line(loaded.evalset, written, target)
        if unlocated:
            say(unlocated, messages)
        if args.output_format == "jsonl" and not to_stdout(args.output):
            from reviewtui.evalset.review.export import earlier_copy, version_read

            same = earlier_copy(source, target, written.version, version_read(loaded.evalset, source) + 1, args.split)
            if same is not None:
                say(f"note: {shown_path(same)} holds these same items: the same decisions were exported before", messages)
    return EXIT_OK


def spans_dropped_line(before: EvalSet, written: EvalSet, path: object, limit: int = 10) -> str | None:
    """The items whose edited quote took its located span with it (see queue.gold_of_kept_quotes): written with
    fewer gold spans than the set read has, and a quote changed; with how to locate the new quotes. None when
    there are none. Compared item by item, so that a team's merged export, whose records keep each reviewer's
    ``original`` apart, is told too."""
    from reviewtui.cli.output import to_stdout

    read = {item.id: item for item in before.items if item.gold and item.anchors}
    ids = [
        item.id
        for item in written.items
        if (was := read.get(item.id)) is not None
        and len(item.gold) < len(was.gold)
        and [anchor.quote for anchor in item.anchors[: len(was.anchors)]] != [anchor.quote for anchor in was.anchors]
    ]
    if not ids:
        return None
    shown = ", ".join(repr(item_id) for item_id in ids[:limit]) + (f" and {len(ids) - limit} more" if len(ids) > limit else "")
    noun = "item's edited quote" if len(ids) == 1 else "items' edited quotes"
    out = Path(str(path))
    if to_stdout(str(path)):
        how = "resolving the exported set with --corpus locates the new quotes"
    else:
        resolved = out.with_name(f"{out.stem}.resolved.jsonl")
        how = f"reviewtui resolve {shlex.quote(str(out))} --corpus DIR -o {shlex.quote(str(resolved))} locates the new quotes"
    return (
        f"{len(ids)} {noun} no longer {'has its' if len(ids) == 1 else 'have their'} located span (it was of the old "
        f"words; the record's original keeps it): {shown}; {how}"
    )


def past_warnings_line(past: Mapping[str, Sequence[str]], limit: int = 10) -> str:
    """One line naming the items accepted or edited past a high-severity warning, and the checks they passed."""
    shown = [f"{item_id!r} ({', '.join(checks)})" for item_id, checks in list(past.items())[:limit]]
    more = f" and {len(past) - limit} more" if len(past) > limit else ""
    noun = "item" if len(past) == 1 else "items"
    return f"{len(past)} {noun} accepted or edited while a high-severity warning was open: {', '.join(shown)}{more}"



def unchecked_line(item_ids: Sequence[str], limit: int = 10) -> str:
    """One line naming the items decided before the quality checks had finished (see decided_before_checks)."""
    shown = ", ".join(repr(item_id) for item_id in item_ids[:limit])
    more = f" and {len(item_ids) - limit} more" if len(item_ids) > limit else ""
    noun = "item was" if len(item_ids) == 1 else "items were"
    return (
        f"{len(item_ids)} {noun} decided before the quality checks had finished, so no warning was recorded with "
        f"{'it' if len(item_ids) == 1 else 'them'}: {shown}{more} (review them again to record what the checks say)"
    )


def _team_rejected(
    args: argparse.Namespace, plan: Any, evalset: Any, notes: list[str], messages: TextIO, read_as: tuple[object, ...] | None
) -> int:
    """The items a team's consensus rejects, with every reviewer's reasons, as ``--rejected`` writes a single review's.
    ``read_as``: the set file as it was before it was read, which the header's hash must still be of."""
    from reviewtui.cli.output import refuse_csv_losses, say, shown_path
    from reviewtui.evalset.io.outputs import check_output, claimed_output
    from reviewtui.evalset.review.export import rejected_names, write_evalset
    from reviewtui.evalset.review.teamwork import rejected_by_team

    open_items: dict[str, dict[str, str]] = {}
    rejected = rejected_by_team(plan, evalset, args.file, args.consensus, notes, open_items, read_as=read_as, split=args.split)
    for note in notes:
        say(f"note: {note}", messages)
    guard = {"input_path": args.file, "force": args.force}
    with contextlib.ExitStack() as claim:
        if args.output is not None:
            target = check_output(args.output, **guard)
        else:
            name_for = rejected_names(args.file, args.output_format, args.split)
            target, _ = claim.enter_context(claimed_output(name_for, 1, input_path=args.file))  # a new file, --force or not
        if args.output_format == "csv":
            refuse_csv_losses(rejected, target, args.lossy, has_to=True)
        target = write_evalset(rejected, target, args.output_format)
    count = len(rejected)
    say(
        f"wrote {count} rejected {'question' if count == 1 else 'questions'} ({args.consensus} consensus) to {shown_path(target)}",
        messages,
    )
    # Items the rule has not settled may yet be rejected: named, as the merged export names them.
    unsettled, pending = open_items.get("no_consensus", {}), open_items.get("pending", {})
    if unsettled:
        one = len(unsettled) == 1
        said = f"{'has' if one else 'have'} no consensus, so {'it is' if one else 'they are'} not among them"
        _listed(unsettled, said, "no_consensus", messages, csv=args.output_format == "csv")
    if pending:
        one = len(pending) == 1
        waiting = f"{'is' if one else 'are'} still waiting for an assigned reviewer"
        _listed(pending, waiting, "pending", messages, csv=args.output_format == "csv")
    return EXIT_OK


def _refuse_a_share(args: argparse.Namespace) -> None:
    """A journal of a team's folder holds one reviewer's part of the review (or the adjudicator's): exported alone it
    would make the next version from that part, its rejections dropping items no one else judged and the rest passed
    as reviewed. The app refuses that export of a share; so does the command."""
    from reviewtui.evalset.io.teamfiles import journal_owner
    from reviewtui.evalset.model.errors import InputError
    from reviewtui.evalset.review.team import ADJUDICATOR, TeamPlan

    team = TeamPlan.load(args.file, args.split)
    if team is None:
        return
    journal = Path(args.journal)
    owner = journal_owner(team.folder, journal)
    if owner is not None:
        part = "the adjudicator's part" if owner == ADJUDICATOR else f"the part given to {owner!r}"
        raise InputError(
            f"this journal holds {part} of a team's review ({team.plan_path}), not a review of the whole set; "
            "a team's result is one export of every journal: --consensus unanimous, majority or adjudicated "
            "(with --rejected for the items it rejects)",
            path=str(journal),
        )




def _merged(args: argparse.Namespace) -> int:
    """A team's journals merged under a consensus rule, written as the next version."""
    from reviewtui.cli.output import refuse_csv_losses, say, say_skipped, shown_path, to_stdout
    from reviewtui.evalset.io import open_evalset, require_questions
    from reviewtui.evalset.io.outputs import check_output, claimed_output
    from reviewtui.evalset.model.errors import InputError
    from reviewtui.evalset.model.review import REVIEW_KEY
    from reviewtui.evalset.review.export import (
        next_version_path,
        own_values_replaced,
        replaced_line,
        version_siblings,
        write_evalset,
    )
    from reviewtui.evalset.review.team import TeamPlan
    from reviewtui.evalset.review.teamwork import merged_set
    from reviewtui.evalset.text.counts import count

    messages = sys.stderr if to_stdout(args.output) else sys.stdout
    # --journal and --all beside --consensus are refused as the arguments are parsed (cli._options_that_clash).
    plan = TeamPlan.load(args.file, args.split)
    if plan is None:
        raise InputError("--consensus merges a team's journals, and this set has no team plan (see reviewtui assign)", path=args.file)
    if args.output is not None and not to_stdout(args.output):
        from reviewtui.evalset.model.errors import OutputError

        if Path(os.path.realpath(args.output)).parent == Path(os.path.realpath(plan.folder)):
            raise OutputError("the team's folder holds its plan and journals; write the export elsewhere", path=args.output)
    from reviewtui.evalset.io.files import set_identity

    read_as = set_identity(args.file)  # before reading: a set replaced meanwhile is refused, as a single export does
    evalset = require_questions(open_evalset(args.file, format=args.input_format, split=args.split), args.file)
    say_skipped(evalset, messages, args.file, args.input_format)
    notes: list[str] = []
    if args.rejected:
        return _team_rejected(args, plan, evalset, notes, messages, read_as)
    merged, unsettled = merged_set(plan, evalset, args.file, args.consensus, notes, read_as=read_as, split=args.split)
    for note in notes:
        say(f"note: {note}", messages)
    guard = {"input_path": args.file, "force": args.force}
    with contextlib.ExitStack() as claim:  # a default name is this command's until it is written
        if args.output is not None:
            target = check_output(args.output, **guard)
        else:
            name_for = lambda n: next_version_path(args.file, n, args.output_format, args.split)  # noqa: E731
            siblings = version_siblings(args.file, args.output_format, args.split)
            target, version = claim.enter_context(claimed_output(name_for, merged.version, input_path=args.file, siblings=siblings))
            if version != merged.version:
                merged = merged.model_copy(update={"version": version})
        if args.output_format == "csv":
            refuse_csv_losses(merged, target, args.lossy, has_to=True)
        target = write_evalset(merged, target, args.output_format)
    say(f"wrote {shown_path(target)}: version {merged.version}, {count(len(merged), 'item')} ({args.consensus} consensus)", messages)
    # Only the items this merge decided: one passed through keeps an earlier export's record of what it replaced.
    before = {item.id: item.meta.get(REVIEW_KEY) for item in evalset.items}
    decided_here = {item.id for item in merged.items if item.meta.get(REVIEW_KEY) != before.get(item.id)}
    replaced = own_values_replaced(merged, decided_here)
    if replaced:
        say(replaced_line(replaced), messages)
    unlocated = spans_dropped_line(evalset, merged, target)
    if unlocated:
        say(unlocated, messages)
    counts = dict(merged.meta[REVIEW_KEY])["counts"]
    # As a single export says it: a version with no review in it (items marked reviewed were in no one's review).
    if counts["untouched"] + counts.get("marked_reviewed", 0) == counts["items"]:
        say(f"note: no reviewer's decision stands yet ({plan.folder}), so the export is the set as it stands", messages)
    if unsettled:
        left_out = f"{'has' if len(unsettled) == 1 else 'have'} no consensus and {'was' if len(unsettled) == 1 else 'were'} left out"
        _listed(unsettled, left_out, "no_consensus", messages, csv=args.output_format == "csv")
    pending = dict(merged.meta[REVIEW_KEY])["pending"]
    if pending:
        one = len(pending) == 1
        waiting = (
            f"{'is' if one else 'are'} still waiting for an assigned reviewer and {'was' if one else 'were'} written "
            f"as {'it was' if one else 'they were'} in the set"
        )
        _listed(pending, waiting, "pending", messages, csv=args.output_format == "csv")
    past = dict(merged.meta[REVIEW_KEY])["accepted_past_warnings"]
    if past:
        say(past_warnings_line(past), messages)
    return EXIT_OK


def _listed(why: dict[str, str], said: str, key: str, messages: TextIO, limit: int = 50, *, csv: bool = False) -> None:
    """Items the merge did not settle, a line each (``limit`` of them), after a line counting them; a JSONL file
    written lists them all in its header's meta (the merged export's and its --rejected one's alike). A CSV file
    has no header, so there every one is listed here."""
    from reviewtui.cli.output import say

    shown = len(why) if csv else limit
    say(f"{len(why):,} {'item' if len(why) == 1 else 'items'} {said}:", messages)
    for item_id, reason in list(why.items())[:shown]:
        say(f"  {item_id!r}: {reason}", messages)
    if len(why) > shown:
        say(f"  and {len(why) - shown:,} more (all are listed in the header's meta.review.{key})", messages)
