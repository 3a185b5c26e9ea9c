"""What a team's journals say together: every reviewer's labels per item, read without locking or writing."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reviewtui.evalset.io.files import file_sha256, named, set_sha256
from reviewtui.evalset.io.journal import JOURNAL_SUFFIX, shown_value, split_record
from reviewtui.evalset.io.names import file_name_text
from reviewtui.evalset.model.items import EvalItem, EvalSet, QuestionType, is_marked_reviewed
from reviewtui.evalset.review.export import refuse_a_changed_set, tool_name, version_read
from reviewtui.evalset.review.queue import RejectReason
from reviewtui.evalset.review.replay import decided_in, fingerprint
from reviewtui.evalset.review.session import ReviewSession, load_review, not_restored, refuse_other_version
from reviewtui.evalset.review.team import ADJUDICATOR, TeamPlan, same_reviewer
from reviewtui.evalset.text.counts import count
from reviewtui.evalset.text.words import in_quotes

__all__ = ["Adjudication", "open_adjudication", "ratings_from", "team_decisions"]

#: The type label of an item a reviewer kept without a type (see ratings_from).
UNTYPED = "untyped"


def ratings_from(decisions: dict[str, dict[str, Any]], what: str = "verdict") -> dict[str, dict[str, str]]:
    """item id -> {reviewer: label} from :func:`team_decisions` (the adjudicator left out).

    ``what``: ``verdict`` (accepted, rejected, edited; a skip is no judgement and left out),
    ``reason`` (the reject reason of rejected items) or ``qtype`` (the type the reviewer left
    the item with, of the items they accepted or edited; ``untyped`` for one they left without a type).
    """
    ratings: dict[str, dict[str, str]] = {}
    for item_id, mine in decisions.items():
        for reviewer, decision in mine.items():
            if reviewer == ADJUDICATOR:
                continue
            label = _label(decision, what)
            if label is not None:
                ratings.setdefault(item_id, {})[reviewer] = label
    if what == "qtype" and all(label == UNTYPED for mine in ratings.values() for label in mine.values()):
        return {}  # nobody typed anything: there are no type judgements to compare, not a perfect agreement on none
    return ratings


def decided_by(plan: TeamPlan, decisions: dict[str, dict[str, Any]]) -> dict[str, int]:
    """Reviewer -> how many items they have decided (skips included)."""
    counts = dict.fromkeys(plan.reviewers, 0)
    for mine in decisions.values():
        for reviewer in mine:
            if reviewer in counts:
                counts[reviewer] += 1
    return counts


def label_scale(what: str) -> tuple[str, ...]:
    """Every label a rating of kind ``what`` (see :func:`ratings_from`) can take, used or not.

    The agreement statistics are given it, so that AC1's chance term counts the labels of the
    scale, not those some reviewer happened to use: a label used only on an item nobody else
    reviewed changed AC1 though it took no part in any comparison. A type outside the built-in
    vocabulary still joins the scale once someone uses it.
    """
    if what == "verdict":
        return ("accepted", "edited", "rejected")
    if what == "reason":
        return tuple(reason.value for reason in RejectReason)
    if what == "qtype":
        return QuestionType.ALL
    raise ValueError(f"unknown label kind {what!r}")


def _label(decision: Any, what: str) -> str | None:
    verdict = decision.verdict.value
    if verdict == "skipped":
        return None
    if what == "verdict":
        return str(verdict)
    if what == "reason":
        return decision.reason.value if verdict == "rejected" and decision.reason is not None else None
    if what == "qtype":
        item = decision.after or decision.before
        if verdict not in ("accepted", "edited") or item is None:
            return None
        # Left without a type is a label like the set's own type left as it is: dropped, a reviewer who typed an
        # item beside one who left it untyped made no comparison, and typing only some items read as full agreement.
        return item.qtype or UNTYPED
    raise ValueError(f"unknown label kind {what!r}")


CONSENSUS_RULES = ("unanimous", "majority", "adjudicated")


def team_decisions(
    plan: TeamPlan,
    evalset: EvalSet,
    input_path: str | os.PathLike[str],
    notes: list[str] | None = None,
    given_to: dict[str, tuple[str, ...]] | None = None,
    dismissed: dict[str, dict[str, list[str]]] | None = None,
    replayed: dict[str, int] | None = None,
    not_applied: dict[str, dict[str, str]] | None = None,
    drafts: dict[str, dict[str, str]] | None = None,
    judged: dict[tuple[str, str, str], str] | None = None,
) -> dict[str, dict[str, Any]]:
    """Item id -> {reviewer: Decision} from every journal in the team folder (the adjudicator's included), read only.

    ``dismissed``, when passed, is filled with item id -> {reviewer: the warnings they marked "not a problem"};
    ``replayed`` with reviewer -> how many bytes of their journal were replayed (whole records only);
    ``not_applied`` with reviewer -> {item id: why} of the decisions their journal holds on items changed
    ("changed") or gone ("vanished") since, and not decided again; ``drafts`` with item id -> {reviewer: note}
    of the notes written on items that reviewer has not decided; ``judged`` with (item id, check, reviewer) ->
    what that reviewer's word on the warning was (see ReviewQueue.warning_judgements), each word once.

    A reviewer's items are those the plan gives them and those their journal decided (a new plan
    may have given some to someone else). ``notes`` collects, one line each and naming the
    reviewer, what a journal held that could not be used (a decision on an item since changed
    or gone, a last record cut short), as ``status`` says it of a single review. ``given_to``, when
    passed, is filled with each item's reviewers under the plan (ranking an item costs a hash per
    reviewer: done once here, for whoever needs it next).
    """
    found: dict[str, dict[str, Any]] = {}
    if notes is not None:
        notes.extend(_journals_outside(plan))
    assigned: dict[str, list[EvalItem]] = {reviewer: [] for reviewer in plan.reviewers}
    for item in evalset.items:  # each item ranked once, not once per reviewer
        reviewers = plan.reviewers_of(item.id)
        if given_to is not None:
            given_to[item.id] = reviewers
        for reviewer in reviewers:
            assigned[reviewer].append(item)
    for reviewer in (*plan.reviewers, ADJUDICATOR):
        journal = plan.journal_for(reviewer)
        if not journal.exists():
            continue
        if reviewer == ADJUDICATOR:
            mine = evalset
        else:
            given = assigned[reviewer]
            ids = {item.id for item in given}
            moved = decided_in(journal).difference(ids)
            if moved:  # decided before a new plan gave them to someone else: still this reviewer's decisions
                ids |= moved
                given = [item for item in evalset.items if item.id in ids]
            mine = evalset.replace(items=tuple(given))
        loaded = load_review(input_path, journal_path=journal, evalset=mine, include_reviewed=True, in_team=True)
        refuse_other_version(loaded)
        if replayed is not None:
            replayed[reviewer] = loaded.contents.good_size
        if notes is not None:
            if not loaded.contents.records:
                # An emptied file (a sync or a merge gone wrong) read as a reviewer who had not begun, while their
                # own review refuses to write to it: said as a single review's status says it.
                notes.append(
                    f"{reviewer}: {journal.name} holds no complete journal record (an empty file, or something else), "
                    f"so none of its decisions count and {reviewer}'s review will not write to it: restore it, or remove it"
                )
            notes.extend(f"{reviewer}: {line}" for line in loaded.report.lines()[1:])
        if not_applied is not None and loaded.report.stale:
            not_applied[reviewer] = not_restored(loaded.report)
        if drafts is not None:
            for item_id, draft in loaded.queue.draft_notes().items():
                drafts.setdefault(item_id, {})[reviewer] = draft["note"]
        signed_apart: dict[str, int] = {}
        for item_id, decision in loaded.queue.decisions.items():
            signer = decision.reviewer
            if reviewer != ADJUDICATOR and signer and signer != reviewer and not same_reviewer(signer, reviewer):
                # A journal copied over another, or one file for "ana" and "Ana" on a disk that ignores case:
                # counted as its file's owner, another's decisions made a perfect agreement out of one review.
                signed_apart[signer] = signed_apart.get(signer, 0) + 1
                continue
            found.setdefault(item_id, {})[reviewer] = decision
            if dismissed is not None:
                marked = loaded.queue.dismissed_for(item_id)
                if marked:
                    dismissed.setdefault(item_id, {})[reviewer] = sorted(marked)
        if judged is not None:
            for item_id, check, what, whose in loaded.queue.warning_judgements():
                whose = whose or reviewer  # a dismissal from before they were signed: the journal's owner's
                if reviewer != ADJUDICATOR and whose != reviewer and not same_reviewer(whose, reviewer):
                    continue  # another's decision in this journal, left out above too
                judged.setdefault((item_id, check, whose), what)
        if signed_apart and notes is not None:
            who = ", ".join(f"{count(n, 'decision')} by {in_quotes(signer)}" for signer, n in signed_apart.items())
            notes.append(f"{reviewer}: the journal {journal.name} holds {who}, not counted as {reviewer}'s")
    return found


def warning_tally_of_team(judged: Mapping[tuple[str, str, str], str]) -> dict[str, dict[str, int]]:
    """Per check, what a team's reviewers said of its warnings (``judged`` from :func:`team_decisions`), as a single
    review's tally counts them: each reviewer's word once, an adjudicator's taken decision being the reviewer's."""
    from reviewtui.evalset.review.queue import tally_of

    return tally_of((check, what) for (_, check, _), what in judged.items())


#: What became of the decisions an adjudication settled (see adjudication_since).
OVERTAKEN = "overtaken"
WITHDRAWN = "withdrawn"
DROPPED = "dropped"


def _taken_note(taken: Sequence[tuple[str, str]], whose: tuple[str, str], since: str) -> str:
    """The merged export's note on adjudications that took a reviewer's decision now changed (see adjudication_since):
    ``taken`` (item id, reviewer), ``whose`` the decision(s) as said of one item and of several."""
    shown = ", ".join(f"{item_id!r} ({in_quotes(source)})" for item_id, source in taken[:5])
    more = f" and {len(taken) - 5} more" if len(taken) > 5 else ""
    one = len(taken) == 1
    return (
        f"{len(taken)} adjudicated {'item' if one else 'items'} ({shown}{more}): the adjudicator took "
        f"{whose[0] if one else whose[1]} {since}, and the adjudication stands (reviewtui adjudicate FILE to look again)"
    )


def adjudication_since(plan: TeamPlan, mine: Mapping[str, Any], adjudication: Any) -> str | None:
    """Whether the reviews an adjudication settled have changed since: OVERTAKEN when its reviewers now agree on
    another verdict (two or more, all of one mind: one verdict left beside a skip is no agreement), WITHDRAWN when
    it took a reviewer's decision with a digit that the reviewer has since undone or changed (the record still says
    "taken_from" that reviewer, beside their own different decision or none), DROPPED when it took the decision of a
    reviewer a later plan (``assign --force``) no longer names, whose journal is read no more, else None. The
    adjudication stands either way; the merged export and the team's status say so."""
    judging = [_vote(d) for r, d in mine.items() if r != ADJUDICATOR and d.verdict.value != "skipped"]
    if len(judging) >= 2 and len(set(judging)) == 1 and _vote(adjudication) not in judging:
        return OVERTAKEN
    source = adjudication.taken_from
    if source and source not in plan.reviewers:
        return DROPPED
    if source and (source not in mine or _vote(mine[source]) != _vote(adjudication)):
        return WITHDRAWN
    return None


def _vote(decision: Any) -> str:
    """What a decision says when set beside the others': its verdict, and for an edit the version it leaves.

    Two reviewers who both edited an item agree only if they left it the same: one who wrote
    the answer "1999" and one who wrote "2001" disagree, and neither edit may stand for both.
    """
    verdict = str(decision.verdict.value)
    if verdict == "edited" and decision.after is not None:
        return f"edited {fingerprint(decision.after)}"
    return verdict


def _edited_values(decision: Any) -> dict[str, Any]:
    """The fields an edit changed, with the values it wrote (as JSON has them); none for any other decision."""
    if not decision.changed:
        return {}
    old, new = decision.before.model_dump(mode="json"), decision.after.model_dump(mode="json")
    return {name: new[name] for name in new if old.get(name) != new[name]}


#: Characters of what edits wrote alike kept before the first that differs, when a message shows it cut.
_CONTEXT = 12


def _edit_text(decision: Any, alike: Mapping[str, int] | None = None) -> str:
    """An edit as a message names it: "edited (answer '1999')", the fields it changed and their new values.

    ``alike``: for a field several edits wrote, how many leading characters they share; the value is
    then shown from a little before where they part ("answer '…a written warning. Never.'"), so two
    long answers that differ only at their end do not both print as the same cut-short start."""
    changed = []
    for name, value in _edited_values(decision).items():
        start = max(0, (alike or {}).get(name, 0) - _CONTEXT)
        shown = shown_value(value[start:], 40) if isinstance(value, str) and start else shown_value(value, 40)
        changed.append(f"{name} {shown[0]}…{shown[1:]}" if isinstance(value, str) and start else f"{name} {shown}")
    return f"edited ({', '.join(changed)})" if changed else "edited"


def _tally(votes: dict[str, list[str]], judged: dict[str, Any]) -> str:
    """The votes as "accepted by ana; edited (answer '2001') by bo", an edit named by what it changed."""
    edited = [judged[reviewers[0]] for vote, reviewers in votes.items() if vote.startswith("edited ")]
    alike: dict[str, int] = {}
    if len(edited) > 1:
        written = [_edited_values(decision) for decision in edited]
        for name in set().union(*written):
            values = [w.get(name) for w in written]
            texts = [v for v in values if isinstance(v, str)]
            if len(texts) == len(values):
                alike[name] = len(os.path.commonprefix(texts))
    parts = []
    for vote, reviewers in votes.items():
        # An edit set against other verdicts is named by what it wrote: "edited by ana; accepted by bo" left the
        # adjudicator to look up what ana changed.
        label = _edit_text(judged[reviewers[0]], alike) if vote.startswith("edited ") else vote.split(" ")[0]
        parts.append(f"{label} by {', '.join(reviewers)}")
    return "; ".join(parts)


def consensus(decisions: dict[str, Any], rule: str, assigned: Collection[str] | None = None) -> tuple[Any | None, str]:
    """The decision that stands for an item under ``rule``, and why (None: none stands, yet or at all).

    See :func:`settle`, which also says whether an item with none is waiting for a reviewer.
    """
    final, why, _ = settle(decisions, rule, assigned)
    return final, why


#: What :func:`settle` found: a decision stands, the item waits for an assigned reviewer, or none stands.
SETTLED, WAITING, UNSETTLED = "settled", "waiting", "unsettled"


def settle(decisions: dict[str, Any], rule: str, assigned: Collection[str] | None = None) -> tuple[Any | None, str, str]:
    """The decision that stands for an item under ``rule``, why, and which of SETTLED, WAITING, UNSETTLED that is.

    ``unanimous``: every reviewer who judged it (skips are no judgement) gave the same verdict,
    and edits left the item the same; ``majority``: more than half of them did; ``adjudicated``:
    the adjudicator's decision when there is one, else the unanimous rule. Of several reviewers
    with the winning vote, the first by name gives the item's final version (their edit).

    ``assigned``: the reviewers the item was given to. A rule is then settled only once each has
    come to it (a majority: once more than half of them agree): until then an item that could
    still go either way is waiting (see :func:`waiting_for`), not agreed by whoever came first.
    A reviewer who skipped it has come to it and left it to the others; the reason says so.
    """
    if rule not in CONSENSUS_RULES:
        raise ValueError(f"unknown consensus rule {rule!r}; choose one of: {', '.join(CONSENSUS_RULES)}")
    adjudged = decisions.get(ADJUDICATOR)
    if rule == "adjudicated" and adjudged is not None and adjudged.verdict.value != "skipped":
        return adjudged, "adjudicated", SETTLED  # an adjudicator's skip settles nothing: the reviewers' rule stands
    judged = {r: d for r, d in sorted(decisions.items()) if r != ADJUDICATOR and d.verdict.value != "skipped"}
    waiting = waiting_for(decisions, assigned)
    if not judged:
        if waiting:
            return None, f"waiting for {', '.join(waiting)}", WAITING
        # Only an adjudicator's verdict can settle it, and only the adjudicated rule takes one.
        return None, "no reviewer judged it (skipped; reviewtui adjudicate, then --consensus adjudicated)", UNSETTLED
    votes: dict[str, list[str]] = {}
    for reviewer, decision in judged.items():
        votes.setdefault(_vote(decision), []).append(reviewer)
    vote, backers = max(votes.items(), key=lambda kv: len(kv[1]))
    if rule in ("unanimous", "adjudicated") and len(votes) > 1:
        return None, "reviewers disagree: " + _tally(votes, judged), UNSETTLED
    if rule == "majority":
        voters = len(judged) + len(waiting)
        if len(backers) * 2 <= voters:
            if waiting:
                return None, f"waiting for {', '.join(waiting)} ({_tally(votes, judged)} so far)", WAITING
            return None, "no majority: " + _tally(votes, judged), UNSETTLED
    elif waiting:
        return None, f"waiting for {', '.join(waiting)} ({_tally(votes, judged)} so far)", WAITING
    # Without the adjudicator's word the adjudicated rule is the unanimous one, and the record says which applied.
    said = "unanimous, not adjudicated" if rule == "adjudicated" else rule
    skipped = sorted(r for r, d in decisions.items() if r != ADJUDICATOR and d.verdict.value == "skipped")
    aside = f" ({', '.join(skipped)} skipped)" if skipped else ""
    return judged[backers[0]], f"{said}: {vote.split(' ')[0]} by {', '.join(backers)}{aside}", SETTLED


def waiting_for(decisions: dict[str, Any], assigned: Collection[str] | None) -> list[str]:
    """The assigned reviewers who have not come to the item yet (no decision of theirs), by name.

    A skip is no judgement, but it is not waiting either: the reviewer has seen the item and left it
    to the others (or the adjudicator). Counted as waiting, an item skipped once could never settle.
    """
    if not assigned:
        return []
    return sorted(r for r in assigned if r not in decisions)


def _adjudicators(decisions: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Who adjudicated, as they signed (the adjudicator's journal is one, shared by whoever takes that role)."""
    return sorted({by[ADJUDICATOR].reviewer or ADJUDICATOR for by in decisions.values() if ADJUDICATOR in by})


def _team_rejection(final: Any, mine: Mapping[str, Any], why: str) -> tuple[str | None, str, str, dict[str, int]]:
    """The reason, note and reviewer a team's rejected item shows in the single review's fields: the adjudicator's
    own when the adjudication decided it (a note it took with a reviewer's decision named by its author); else
    those of every reviewer who rejected it: who they are, the reason most of them gave (ties: the standing
    decision's), and each one's note, named when there are several. The
    first rejecter's alone read as if the others had agreed with their reason and said nothing.

    Last, each reason the rejecters gave and how many gave it, when they gave more than one (else empty): a
    reason chosen from a tie read as the team's one reason."""
    if why == "adjudicated":
        note = final.note
        if note and final.note_by and final.note_by != final.reviewer:
            # A decision taken with a digit keeps its reviewer's note: beside the adjudicator's name alone, it read
            # as the adjudicator's words.
            note = f"{final.note_by}: {note}"
        return (final.reason.value if final.reason else None), note, final.reviewer, {}
    rejecters = {r: d for r, d in sorted(mine.items()) if r != ADJUDICATOR and d.verdict.value == "rejected"}
    counted = Counter(d.reason.value for d in rejecters.values() if d.reason is not None)
    reason = final.reason.value if final.reason else None
    if counted:
        most = max(counted.values())
        if counted.get(reason or "", 0) != most:
            reason = next(code for code, n in counted.items() if n == most)
    notes = [(r, d.note) for r, d in rejecters.items() if d.note]
    # Named whenever several rejected it: one note beside "ana, bo" read as both reviewers' words.
    note = notes[0][1] if len(notes) == 1 and len(rejecters) == 1 else "; ".join(f"{r}: {text}" for r, text in notes)
    split = dict(sorted(counted.items(), key=lambda entry: -entry[1])) if len(counted) > 1 else {}
    return reason, note, ", ".join(d.reviewer or r for r, d in rejecters.items()), split


@dataclass
class _Merge:
    """A team's journals settled item by item under one rule: what the merged export and its ``--rejected``
    both write from, so that their headers record the same lineage."""

    marked: dict[str, dict[str, list[str]]]  # item id -> {reviewer: the warnings they marked "not a problem"}
    #: item id -> (every reviewer's decision, the decision that stands or None, why, SETTLED/WAITING/UNSETTLED),
    #: for each item some reviewer has decided
    outcomes: dict[str, tuple[dict[str, Any], Any | None, str, str]]
    unsettled: dict[str, str]  # item id -> why no decision stands
    pending: dict[str, str]  # item id -> whom it is waiting for
    record: dict[str, Any]  # the lineage, for a header's meta["review"]


def _merge(
    plan: TeamPlan,
    evalset: EvalSet,
    input_path: str | os.PathLike[str],
    rule: str,
    notes: list[str] | None,
    read_as: tuple[object, ...] | None,
    split: str | None,
) -> _Merge:
    """Every journal read and every decided item settled under ``rule``, with the record of where it all came from."""
    from reviewtui.evalset.review.queue import iso_time

    given_to: dict[str, tuple[str, ...]] = {}
    marked: dict[str, dict[str, list[str]]] = {}
    replayed: dict[str, int] = {}
    not_applied: dict[str, dict[str, str]] = {}
    drafts: dict[str, dict[str, str]] = {}
    judged: dict[tuple[str, str, str], str] = {}
    decisions = team_decisions(plan, evalset, input_path, notes, given_to, marked, replayed, not_applied, drafts, judged)
    outcomes: dict[str, tuple[dict[str, Any], Any | None, str, str]] = {}
    unsettled: dict[str, str] = {}
    pending: dict[str, str] = {}
    settled: dict[str, int] = {"accepted": 0, "edited": 0, "rejected": 0}
    overtaken: list[str] = []  # adjudicated, and the reviewers have since come to agree on another verdict
    withdrawn: list[tuple[str, str]] = []  # adjudicated by taking a reviewer's decision they have since changed or undone
    dropped: list[tuple[str, str]] = []  # adjudicated by taking the decision of a reviewer the plan no longer names
    past: dict[str, list[str]] = {}  # kept items accepted past a high-severity warning -> those checks
    for item in evalset.items:
        mine = decisions.get(item.id)
        if not mine:
            continue
        final, why, status = settle(mine, rule, given_to[item.id])
        outcomes[item.id] = (mine, final, why, status)
        if why == "adjudicated" and final is not None:
            since = adjudication_since(plan, mine, final)
            if since == OVERTAKEN:
                overtaken.append(item.id)
            elif since == WITHDRAWN:
                withdrawn.append((item.id, final.taken_from))
            elif since == DROPPED:
                dropped.append((item.id, final.taken_from))
        if final is None:
            if status == WAITING:
                if is_marked_reviewed(item.meta.get("reviewed")):
                    # Their review leaves it out unless --all: waiting, with nothing to tell them why, it waited for ever.
                    why += "; it is marked reviewed in the file, so their review shows it only with --all"
                pending[item.id] = why  # an assigned reviewer has not come to it: it passes through as it was
            else:
                unsettled[item.id] = why
            continue
        settled[final.verdict.value] = settled.get(final.verdict.value, 0) + 1
        if final.verdict.value not in ("accepted", "edited"):
            continue
        # As a single export names them: a kept item that someone accepted or edited past a high-severity warning.
        # A warning the reviewer has since marked "not a problem" is not one they waved through.
        waived = marked.get(item.id, {})
        passed = sorted(
            {
                check
                for reviewer, d in mine.items()
                if d.verdict.value in ("accepted", "edited")
                for check in d.warnings
                if check not in waived.get(reviewer, ())
            }
        )
        if passed:
            past[item.id] = passed
    if overtaken and notes is not None:
        shown = ", ".join(repr(item_id) for item_id in overtaken[:5]) + (f" and {len(overtaken) - 5} more" if len(overtaken) > 5 else "")
        notes.append(
            f"{len(overtaken)} adjudicated {'item' if len(overtaken) == 1 else 'items'} ({shown}): its reviewers have "
            "since come to agree on another verdict, and the adjudication stands (reviewtui adjudicate FILE to look again)"
        )
    if notes is not None and withdrawn:
        whose = ("the decision of the reviewer named, who has", "the decisions of the reviewers named, who have")
        notes.append(_taken_note(withdrawn, whose, "since changed or taken it back"))
    if notes is not None and dropped:  # its record still names that reviewer, whose journal the header no longer lists
        unnamed = ("the decision of a reviewer", "the decisions of reviewers")
        notes.append(_taken_note(dropped, unnamed, "the plan no longer names (assign --force), whose journal this export does not read"))
    times = [d.decided_at for by in decisions.values() for d in by.values() if d.decided_at]
    # No reviewer has come to it: given to someone, or marked reviewed in the file and so in nobody's review (without
    # --all), which a single export counts apart, as marked_reviewed; here they read as items nobody had got to yet.
    undecided = [item for item in evalset.items if item.id not in decisions]
    marked_reviewed = sum(1 for item in undecided if is_marked_reviewed(item.meta.get("reviewed")))
    untouched = len(undecided) - marked_reviewed
    record: dict[str, Any] = {
        "from_version": version_read(evalset, input_path),  # a CSV file's version is in its name only
        "from_file": file_name_text(named(input_path).name),
        "from_sha256": set_sha256(input_path),
        **split_record(split),
        "tool": tool_name(),
        "consensus": rule,
        "reviewers": list(plan.reviewers),
        "adjudicators": _adjudicators(decisions),
        # each journal merged, as a single export names its one: the file, and the hash of the bytes read
        "journals": _journal_records(plan, replayed),
        # as a single export's header: when the first and the last of the decisions merged were made
        "first_decision_at": iso_time(min(times)) if times else None,
        "last_decision_at": iso_time(max(times)) if times else None,
        "counts": {
            "items": len(evalset),
            # the merged export's items: those nobody decided and those still waiting pass through as they were
            "kept": untouched + marked_reviewed + len(pending) + settled["accepted"] + settled["edited"],
            **settled,
            "pending": len(pending),
            "no_consensus": len(unsettled),
            "untouched": untouched,
            **({"marked_reviewed": marked_reviewed} if marked_reviewed else {}),
        },
        "no_consensus": unsettled,
        "pending": pending,
        "accepted_past_warnings": past,
        # as a single export's header counts them, per check: every reviewer's word on its warnings
        "warnings": warning_tally_of_team(judged),
        # as a single export keeps them: each reviewer's note on an item they skipped, which no item carries
        "skipped_notes": {
            item_id: {reviewer: d.note for reviewer, d in sorted(by.items()) if d.verdict.value == "skipped" and d.note}
            for item_id, by in decisions.items()
            if any(d.verdict.value == "skipped" and d.note for d in by.values())
        },
        # and their notes on items they have not decided, which pass through with no record of them
        "undecided_notes": {item_id: dict(sorted(by.items())) for item_id, by in drafts.items()},
    }
    if not_applied:  # as a single export's header lists them: decisions on items changed or gone since
        record["decisions_not_restored"] = {reviewer: not_applied[reviewer] for reviewer in sorted(not_applied)}
    unchecked: dict[str, list[str]] = {}  # as a single export's header lists them, per reviewer
    for item_id, by in decisions.items():
        for reviewer, decision in by.items():
            if decision.unchecked:
                unchecked.setdefault(reviewer, []).append(item_id)
    if unchecked:
        record["decided_before_checks"] = {reviewer: unchecked[reviewer] for reviewer in sorted(unchecked)}
    refuse_a_changed_set(input_path, read_as)
    return _Merge(marked, outcomes, unsettled, pending, record)


def rejected_by_team(
    plan: TeamPlan,
    evalset: EvalSet,
    input_path: str | os.PathLike[str],
    rule: str,
    notes: list[str] | None = None,
    open_items: dict[str, dict[str, str]] | None = None,
    *,
    read_as: tuple[object, ...] | None = None,
    split: str | None = None,
) -> EvalSet:
    """The items the team's decisions reject under ``rule``, as a single review's ``export --rejected`` writes
    its own: each with the verdict, the reason, note and reviewer of the rejection (see _team_rejection), and
    every reviewer's decision and the rule under ``meta["review"]`` (feedback for whatever wrote the set).

    The header's ``meta["review"]`` holds the merged export's record of the same merge (see :func:`merged_set`):
    the set file and its hash, each journal and the hash of the bytes read, the counts. ``read_as`` and
    ``split``: as :func:`merged_set` takes them.

    ``open_items``, when given, gets the decided items the rule settles neither way, as the merged export
    names them: ``"no_consensus"`` and ``"pending"`` (waiting for an assigned reviewer), each id -> why.
    Some of them may yet be rejected.
    """
    from reviewtui.evalset.model.items import FrozenDict
    from reviewtui.evalset.model.review import REVIEW_KEY, keep_earlier, keep_replaced
    from reviewtui.evalset.review.queue import iso_time

    merge = _merge(plan, evalset, input_path, rule, notes, read_as, split)
    if open_items is not None:
        for key, found in (("no_consensus", merge.unsettled), ("pending", merge.pending)):
            if found:
                open_items.setdefault(key, {}).update(found)
    items: list[EvalItem] = []
    for item in evalset.items:
        outcome = merge.outcomes.get(item.id)
        if outcome is None:
            continue
        mine, final, why, _ = outcome
        if final is None or final.verdict.value != "rejected":
            continue
        shown = final.after if final.after is not None else item
        reason, note, by, reasons_given = _team_rejection(final, mine, why)
        stamped: dict[str, Any] = {
            "verdict": "rejected",
            "reject_reason": reason,
            "review_note": note,
            "reviewer": by,
            "decided_at": iso_time(final.decided_at),
        }
        if reasons_given:
            stamped["reject_reasons"] = reasons_given  # the rejecters did not agree on why: reject_reason is one of these
        record = keep_earlier(
            {
                "verdict": "rejected",
                "rule": why,
                "decisions": {
                    reviewer: _team_record(d, merge.marked.get(item.id, {}).get(reviewer)) for reviewer, d in sorted(mine.items())
                },
            },
            shown.meta,
        )
        meta = {**shown.meta, **stamped, REVIEW_KEY: keep_replaced(record, shown.meta, stamped)}
        items.append(shown.with_meta(FrozenDict(meta)))
    header = {
        "rejected_from": evalset.id,
        "rejected_from_version": merge.record["from_version"],
        "consensus": rule,
        "reviewers": list(plan.reviewers),
        "adjudicators": merge.record["adjudicators"],
        # where the rejections came from, as the merged export's header records it: without it this file named
        # neither the set file nor the journals, nor their hashes
        REVIEW_KEY: keep_earlier(merge.record, evalset.meta),
    }
    version = merge.record["from_version"]
    return EvalSet(id=f"{evalset.id}.rejected", items=tuple(items), version=version, source="review-rejections", meta=header)


def merged_set(
    plan: TeamPlan,
    evalset: EvalSet,
    input_path: str | os.PathLike[str],
    rule: str,
    notes: list[str] | None = None,
    *,
    read_as: tuple[object, ...] | None = None,
    split: str | None = None,
) -> tuple[EvalSet, dict[str, str]]:
    """The set as the team's decisions leave it under ``rule``, and the items with no consensus (id -> why).

    Items no reviewer has decided pass through as they were. A decided item that is kept carries
    every reviewer's decision and the rule that chose the final one under ``meta["review"]``;
    an item without consensus is left out of the set and named in the header (and the result).
    ``read_as`` and ``split``: as a single export's lineage takes them (see export.lineage).
    """
    from reviewtui.evalset.model.items import FrozenDict
    from reviewtui.evalset.model.review import REVIEW_KEY, keep_earlier, keep_replaced

    merge = _merge(plan, evalset, input_path, rule, notes, read_as, split)
    kept = []
    for item in evalset.items:
        outcome = merge.outcomes.get(item.id)
        if outcome is None:
            kept.append(item)
            continue
        mine, final, why, status = outcome
        if final is None:
            if status == WAITING:
                kept.append(item)
            continue
        if final.verdict.value not in ("accepted", "edited"):
            continue
        shown = final.after if final.after is not None else item
        made = {
            "verdict": final.verdict.value,
            "rule": why,
            "decisions": {
                reviewer: _team_record(d, merge.marked.get(item.id, {}).get(reviewer)) for reviewer, d in sorted(mine.items())
            },
        }
        stamped = {"reviewed": True, "verdict": final.verdict.value}
        meta = {**shown.meta, **stamped, REVIEW_KEY: keep_replaced(keep_earlier(made, shown.meta), shown.meta, stamped)}
        kept.append(shown.with_meta(FrozenDict(meta)))
    header = {**evalset.meta, REVIEW_KEY: keep_earlier(merge.record, evalset.meta)}  # as a single export keeps it
    return evalset.replace(items=tuple(kept), version=merge.record["from_version"] + 1, meta=header), merge.unsettled


def _journals_outside(plan: TeamPlan) -> list[str]:
    """A line for each journal in the team's folder that the plan names no reviewer for (a new plan left them out)."""
    named = {plan.journal_for(reviewer).name for reviewer in (*plan.reviewers, ADJUDICATOR)}
    try:
        journals = sorted(path for path in plan.folder.iterdir() if path.name.endswith(JOURNAL_SUFFIX) and path.name not in named)
    except OSError:
        return []
    return [
        f"{shown_value(path.name, 80)} is in the team's folder, but the plan has no reviewer of that name: "
        f"its decisions are not counted (reviewtui assign --force with the name again counts them)"
        for path in journals
    ]


def _journal_records(plan: TeamPlan, replayed: dict[str, int]) -> dict[str, dict[str, Any]]:
    """Each journal merged, as a single export names its one: the file and the hash of the bytes replayed."""
    found: dict[str, dict[str, Any]] = {}
    for reviewer in (*plan.reviewers, ADJUDICATOR):
        journal = plan.journal_for(reviewer)
        if reviewer in replayed and journal.is_file():  # a journal begun after the merge read them is not in it
            hashed: list[int] = []
            digest = file_sha256(journal, hashed, limit=replayed.get(reviewer))
            found[reviewer] = {"file": file_name_text(journal.name), "sha256": digest, "bytes": hashed[0] if hashed else None}
    return found


def _team_record(decision: Any, dismissed: list[str] | None = None) -> dict[str, Any]:
    """A reviewer's decision as the merged export records it: the single export's record, for an edit the
    values it wrote (``edited``), so that an edit other than the one that stands is not lost, and the
    warnings the reviewer marked "not a problem" (``dismissed``), as a single export writes them."""
    record = decision.record_meta()
    if decision.changed:
        record["edited"] = _edited_values(decision)
    if dismissed:
        record["dismissed"] = list(dismissed)
        if record.get("open_warnings"):  # a warning dismissed as it stands is not open, as in a single export
            record["open_warnings"] = [c for c in record["open_warnings"] if c not in dismissed]
    return record


def disagreements(decisions: dict[str, dict[str, Any]]) -> list[str]:
    """Ids of the items whose reviewers (the adjudicator aside) gave different verdicts, or edited them into
    different versions; skips are no verdict."""
    found = []
    for item_id, mine in decisions.items():
        verdicts = {_vote(d) for r, d in mine.items() if r != ADJUDICATOR and d.verdict.value != "skipped"}
        if len(verdicts) > 1:
            found.append(item_id)
    return found


def edited_apart(decisions: dict[str, dict[str, Any]], disputed: Iterable[str] | None = None) -> list[str]:
    """Ids of the disagreements in which every reviewer edited the item, not all into the same version.

    The agreement statistics compare verdicts, and "edited" beside "edited" agrees there; these
    items are disagreements all the same (:func:`disagreements`), for an adjudicator to settle.
    """
    found = []
    for item_id in disagreements(decisions) if disputed is None else disputed:  # given: already worked out
        votes = [d for r, d in decisions[item_id].items() if r != ADJUDICATOR and d.verdict.value != "skipped"]
        if all(d.verdict.value == "edited" for d in votes):
            found.append(item_id)
    return found


def skipped_by_all(decisions: dict[str, dict[str, Any]], given_to: Mapping[str, Collection[str]]) -> list[str]:
    """Ids of the items every reviewer they were given to (``given_to``: item id -> reviewers, as the plan
    gives them) has come to and skipped, the adjudicator aside: there is no verdict to agree or disagree
    on, so no consensus rule can keep or reject them; an adjudicator can. An item still waiting for one
    of its reviewers is not among them: that reviewer's verdict may settle it."""
    found = []
    for item_id, mine in decisions.items():
        votes = [d for r, d in mine.items() if r != ADJUDICATOR]
        if votes and all(d.verdict.value == "skipped" for d in votes) and not waiting_for(mine, given_to.get(item_id)):
            found.append(item_id)
    return found


def to_adjudicate(decisions: dict[str, dict[str, Any]], given_to: Mapping[str, Collection[str]] | None = None) -> list[str]:
    """The items an adjudication covers: the disagreements, the items every reviewer they were given to
    skipped (with ``given_to``, see :func:`skipped_by_all`), and every item it has decided before.

    An item adjudicated earlier stays even when its reviewers have since come to agree: the
    adjudication's journal must find every item it decided. (In the order the journals were read;
    the session shows them in the set's.)
    """
    chosen = {*disagreements(decisions), *(skipped_by_all(decisions, given_to) if given_to is not None else ())}
    return [item_id for item_id, mine in decisions.items() if item_id in chosen or ADJUDICATOR in mine]


def _adjudicated_items(
    plan: TeamPlan, evalset: EvalSet, decisions: dict[str, dict[str, Any]], given_to: Mapping[str, Collection[str]]
) -> list[str]:
    """The items an adjudication's review holds: the disagreements and the items every reviewer skipped, and every
    item the adjudication's journal names, not only those it still holds a decision on: one it annotated, or decided
    and took back, must be in its review too, or its journal's steps on it are not restored. So too when every such
    item is agreed now: its notes and decisions stay within the adjudicator's reach."""
    covered = to_adjudicate(decisions, given_to)
    touched = decided_in(plan.journal_for(ADJUDICATOR)).difference(covered)
    if touched:
        covered = covered + [item.id for item in evalset if item.id in touched]
    return covered


def adjudication_items(plan: TeamPlan, evalset: EvalSet, input_path: str | os.PathLike[str]) -> list[str]:
    """The ids ``reviewtui adjudicate`` would open on now (see :func:`open_adjudication`), for ``status`` of the
    adjudicator's journal: counted against the whole set, it said "7 of 24 decided, 17 left"."""
    given_to: dict[str, tuple[str, ...]] = {}
    decisions = team_decisions(plan, evalset, input_path, given_to=given_to)
    return _adjudicated_items(plan, evalset, decisions, given_to)


@dataclass
class Adjudication:
    """An adjudicator's review, ready for the app: the session on the disputed items and each reviewer's decision."""

    session: ReviewSession
    votes: dict[str, dict[str, Any]]  # item id -> {reviewer: Decision}, reviewers by name (the digits' order)
    #: item id -> {reviewer: the warnings they marked "not a problem" on it}, for the items with some
    dismissed: dict[str, dict[str, list[str]]] = field(default_factory=dict)


def open_adjudication(
    plan: TeamPlan,
    evalset: EvalSet,
    input_path: str | os.PathLike[str],
    *,
    reviewer: str | None = None,
    format: str | None = None,
    split: str | None = None,
    clock: Callable[[], float] | None = None,
    seen: dict[str, int] | None = None,
    before_opening: Callable[[], None] | None = None,
) -> Adjudication | None:
    """The adjudicator's session on what the reviewers disagree on and what all of them skipped, in its own
    journal; None when there is no such item and the adjudication has touched nothing yet.

    ``seen``, when given, is filled with how far the reviewers have got: ``decided``, the items any reviewer
    decided, ``compared``, those two or more did (where a disagreement could be), and ``shared``, those the plan
    gives two or more reviewers, so that "nothing to adjudicate" can say whether the reviewers agree, have not yet
    come to the same items, or never will. ``before_opening`` is called once there is something to adjudicate,
    before the session (and its journal) is made: what may refuse to go on (no terminal for the app) refuses then."""
    given_to: dict[str, tuple[str, ...]] = {}
    marked: dict[str, dict[str, list[str]]] = {}
    decisions = team_decisions(plan, evalset, input_path, given_to=given_to, dismissed=marked)
    if seen is not None:
        by = [sum(reviewer != ADJUDICATOR for reviewer in mine) for mine in decisions.values()]
        seen.update(
            decided=sum(n > 0 for n in by),
            compared=sum(n > 1 for n in by),
            shared=sum(len(reviewers) > 1 for reviewers in given_to.values()),
        )
    covered = _adjudicated_items(plan, evalset, decisions, given_to)
    if not covered:
        return None
    plan.refuse_a_linked_folder()  # the adjudicator's journal is written there
    if before_opening is not None:
        before_opening()
    session = ReviewSession.open(
        input_path,
        reviewer=reviewer,
        format=format,
        split=split,
        team=plan,
        journal_path=plan.journal_for(ADJUDICATOR),
        only_ids=covered,
        include_reviewed=True,
        clock=clock,
    )
    votes = {item_id: {r: d for r, d in sorted(decisions.get(item_id, {}).items()) if r != ADJUDICATOR} for item_id in covered}
    dismissed = {
        item_id: {r: checks for r, checks in marked[item_id].items() if r != ADJUDICATOR}
        for item_id in covered
        if item_id in marked
    }
    return Adjudication(session, votes, {item_id: by for item_id, by in dismissed.items() if by})

