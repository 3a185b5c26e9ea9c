"""Several reviewers on one set: who reviews which items, where each one's decisions go, how far they agree.

A team's files live in a folder beside the set, ``quiz.jsonl.reviews/``:

* ``plan.json``: the reviewers and the overlap (written by ``reviewtui assign``);
* ``<reviewer>.reviewtui-journal`` and ``<reviewer>.reviewtui-lock``: each reviewer's own
  journal and lock, so two people review at once, on one machine or on clones of one git
  repository, and pulling each other's journals never conflicts (no file has two writers).

Which items a reviewer gets is worked out from the plan and each item's id alone
(rendezvous hashing): every item ranks the reviewers by a hash of (item id, reviewer)
and goes to the first ``overlap`` of them. So the split is deterministic, about even,
and stable: items added to the set later do not move the items already assigned, and
nothing but the two parameters has to be stored. A fractional overlap (``0.2``) gives
every item to one reviewer and a fifth of them, chosen by hash too, to a second, for
an estimate of agreement at a fifth of the cost.

Reviewers never see each other's decisions while reviewing: a session reads only its
own journal. Agreement is worked out from all the journals, read only
(:func:`~reviewtui.evalset.review.teamwork.team_decisions`, then :mod:`.agreement`).
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from reviewtui.evalset.io.files import RepeatedKeyError, json_error, loads_exact, named
from reviewtui.evalset.io.journal import JOURNAL_SUFFIX, shown_value, split_tag
from reviewtui.evalset.io.names import PLAN_NAME, TEAM_SUFFIX
from reviewtui.evalset.io.teamfiles import journal_names, read_plan, refuse_a_linked_team_folder, write_plan
from reviewtui.evalset.model.errors import InputError
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.safe import draws_nothing
from reviewtui.evalset.text.words import has_control_chars, in_quotes

__all__ = [
    "ADJUDICATOR",
    "PLAN_NAME",
    "TEAM_SUFFIX",
    "TeamPlan",
    "check_name_shows",
    "check_reviewer_name",
    "same_reviewer",
    "signed_by_others",
    "team_folder",
]

ADJUDICATOR = "adjudicator"  # the name an adjudication's journal is kept under, beside the reviewers' (reserved)
LOCK_SUFFIX = ".reviewtui-lock"
_UNSAFE_NAME = re.compile(r"[/\\\x00-\x1f\x7f]")


def team_folder(input_path: str | os.PathLike[str], split: str | None = None) -> Path:
    """The folder beside a set where its team's plan and journals live.

    A BEIR folder read with another qrels split than its default is another set of questions,
    with a team folder of its own (as a single review has a journal of its own).
    """
    path = named(input_path)
    return path.with_name(path.name + split_tag(split) + TEAM_SUFFIX)


#: The longest reviewer name, in bytes of UTF-8: it names files (name + ".reviewtui-journal"), and most
#: disks refuse a file name over 255 bytes; a name accepted by ``assign`` must never do that later.
MAX_NAME_BYTES = 200


def check_name_shows(name: str) -> str:
    """``name`` if every character of it shows as itself; else InputError. For a name given now (``assign``'s, a
    single review's ``--reviewer``): "ana" and "ana" + U+200B were two reviewers who looked the same everywhere,
    and a control in a name went into journals and exports. Any character the screen shows as a stand-in is refused."""
    if has_control_chars(name) or any(map(draws_nothing, name)):
        raise InputError(
            f"the reviewer name {in_quotes(name)} holds a character that does not show as itself (a control, "
            f"an invisible, a direction mark or a blank other than the space); name the reviewer with visible characters"
        )
    return name


def check_reviewer_name(name: str, *, new: bool = True) -> str:
    """A reviewer's name as it names their journal file: refused when it could not (InputError).

    ``new``: a name being given to a reviewer now (``assign``), held also to showing as itself. A name a
    saved plan already holds (or a journal in the team's folder) only has to name a file: a plan made
    before that rule must still open, and its reviewers' decisions still count.
    """
    if not isinstance(name, str):  # a hand-edited plan.json: {"reviewers": [1, null]}
        raise InputError(f"a reviewer's name is text, not {shown_value(name)}")
    stripped = name.strip()
    if not stripped:
        raise InputError("a reviewer needs a name (--reviewer NAME)")
    if _UNSAFE_NAME.search(stripped) or stripped in (".", "..") or stripped.startswith("."):
        raise InputError(
            f"the reviewer name {in_quotes(stripped)} cannot name a journal file: no slashes, control characters or leading dot"
        )
    if new:
        check_name_shows(stripped)
    if len(stripped.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        raise InputError(f"the reviewer name {stripped[:20]!r}… is too long to name a file: at most {MAX_NAME_BYTES} bytes")
    return stripped


def _reviewer_names(names: Iterable[str], *, known: Collection[str] | None = None) -> tuple[str, ...]:
    """A team's reviewer names, checked; the adjudicator's name is reserved for the adjudication's journal.

    ``known``: the names that are not new (see :func:`check_reviewer_name`); None: every name is a saved one.
    """
    checked = tuple(check_reviewer_name(name, new=known is not None and name.strip() not in known) for name in names)
    seen: set[str] = set()
    for name in checked:
        # A name given twice, to assign or in a plan edited by hand, is a typo for another reviewer, or one left out:
        # read as one, an item's "two reviewers" were the same person.
        if name in seen:
            raise InputError(f"the reviewer {in_quotes(name)} is named twice; name each reviewer once")
        seen.add(name)
    reserved = [name for name in checked if unicodedata.normalize("NFKC", name).casefold() == ADJUDICATOR]  # "ＡＤＪＵＤＩＣＡＴＯＲ" too
    if reserved:
        alike = "" if reserved[0] == ADJUDICATOR else f", which {reserved[0]!r} is taken for"
        raise InputError(f"{ADJUDICATOR!r} names the adjudication's journal{alike}; give that reviewer another name")
    return checked


def _refuse_names_one_file_could_hold(names: Sequence[str], known: Collection[str] = ()) -> None:
    """Refuse two names a disk that ignores case or Unicode form (macOS, Windows) would give one journal file,
    and two that look alike in every list (full width, "ａｎａ" and "ana"). Two ``known`` names (each with
    its journal already) are left as they are: a plan made before this rule keeps its reviewers."""
    on_disk: dict[str, str] = {}
    on_screen: dict[str, str] = {}
    for name in names:
        disk = on_disk.setdefault(unicodedata.normalize("NFC", name).lower(), name)
        screen = on_screen.setdefault(unicodedata.normalize("NFKC", name).casefold(), name)
        other = disk if disk != name else screen
        if other == name or (other in known and name in known):
            continue
        why = (
            "differ only in case or in how an accented letter is written: one journal file could hold both"
            if disk != name
            else "look alike (a full-width letter, a ligature, a different case): no list would tell them apart"
        )
        raise InputError(f"the reviewer names {in_quotes(other)} and {in_quotes(name)} {why}")


def same_reviewer(signer: str, reviewer: str) -> bool:
    """Whether a journal's signature names its file's reviewer as an earlier version wrote it: with the
    spaces it was typed with (" bo "), or an accent written another way (names were kept as typed)."""
    return unicodedata.normalize("NFC", signer.strip()) == unicodedata.normalize("NFC", reviewer)


def signed_by_others(records: Sequence[tuple[int, dict[str, Any]]], reviewer: str) -> dict[str, int]:
    """Signer -> how many of the journal ``records``' decisions another reviewer than ``reviewer`` signed:
    a journal copied over another's, or one file for "ana" and "Ana" on a disk that ignores case."""
    others: dict[str, int] = {}
    for _, payload in records[1:]:
        if payload.get("op") == "decide":
            signer = payload.get("by")
            if isinstance(signer, str) and signer and signer != reviewer and not same_reviewer(signer, reviewer):
                others[signer] = others.get(signer, 0) + 1
    return others


def _rank(item_id: str, reviewer: str) -> bytes:
    return hashlib.sha256(f"{item_id}\x00{reviewer}".encode()).digest()


@dataclass(frozen=True)
class TeamPlan:
    """Who reviews which items: the reviewers and how many review each item (see the module notes)."""

    folder: Path
    reviewers: tuple[str, ...]
    overlap: float  # a whole number of reviewers per item, or between 1 and 2 for a sampled second review

    # ---- files

    @property
    def plan_path(self) -> Path:
        return self.folder / PLAN_NAME

    def journal_for(self, reviewer: str) -> Path:
        return self.folder / (check_reviewer_name(reviewer, new=False) + JOURNAL_SUFFIX)

    def lock_for(self, reviewer: str) -> Path:
        return self.folder / (check_reviewer_name(reviewer, new=False) + LOCK_SUFFIX)

    @classmethod
    def create(
        cls, input_path: str | os.PathLike[str], reviewers: Sequence[str], overlap: float, split: str | None = None
    ) -> TeamPlan:
        folder = team_folder(input_path, split)
        known = journal_names(folder)
        names = _reviewer_names(reviewers, known=known)
        _refuse_names_one_file_could_hold(names, known)
        if len(names) < 1:
            raise InputError("name at least one reviewer")
        asked_for = overlap
        if 0 < overlap < 1:  # a share of the items reviewed twice
            overlap = 1 + overlap
        elif not (overlap >= 1 and float(overlap).is_integer()):
            raise InputError(f"--overlap must be a whole number of reviewers per item, or a share below 1; not {overlap:g}")
        if math.ceil(overlap) > len(names):
            # say it as it was given: "--overlap 0.5" asks for a second reviewer on half the items
            asked = f"an overlap of {asked_for:g}"
            if asked_for < 1:
                asked = f"--overlap {asked_for:g} (a second reviewer on {asked_for:.0%} of the items)"
            raise InputError(f"{asked} needs at least {math.ceil(overlap):,} reviewers; {len(names)} named")
        return cls(folder, names, float(overlap))

    def refuse_a_linked_folder(self) -> None:
        """Refuse to write in the team's folder when it is a symbolic link (see io.teamfiles)."""
        refuse_a_linked_team_folder(self.folder)

    def save(self) -> Path:
        """Write the plan into the team's folder (made if need be); OutputError naming the file when it cannot be."""
        data = {"reviewers": list(self.reviewers), "overlap": self.overlap, "assignment": "rendezvous sha256(item id, reviewer)"}
        return write_plan(self.plan_path, orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")

    @classmethod
    def load(cls, input_path: str | os.PathLike[str], split: str | None = None) -> TeamPlan | None:
        """The plan beside a set, or None when the set has none (one reviewer, the single journal).

        Raises InputError for a set that is not there: "no team plan" would send its reader looking for one.
        """
        folder = team_folder(input_path, split)
        path = folder / PLAN_NAME
        raw = read_plan(path, input_path, split)
        if raw is None:
            return None
        try:
            data: Any = loads_exact(raw)
        except RepeatedKeyError as exc:  # "overlap" given twice: which one the team meant cannot be known
            raise json_error(path, exc) from None
        except orjson.JSONDecodeError as exc:
            raise InputError(f"not a team plan reviewtui can read ({exc})", path=str(path)) from None
        names: Any = data.get("reviewers") if isinstance(data, dict) else None
        overlap: Any = data.get("overlap") if isinstance(data, dict) else None
        if not isinstance(names, list) or not names:
            raise InputError('a team plan lists its reviewers: "reviewers": ["ana", "bo"]', path=str(path))
        # A number: a float, or an int (not a bool); a whole number of reviewers per item, or from 1 to 2 (a share).
        number = type(overlap) in (int, float) and math.isfinite(overlap)
        if not number or overlap < 1 or (overlap > 2 and not float(overlap).is_integer()):
            raise InputError(
                'a team plan gives how many reviewers see each item: "overlap": 2 (or from 1 to 2 for a share), '
                f"not {shown_value(overlap)}",
                path=str(path),
            )
        try:
            reviewers = _reviewer_names(names)  # saved names: each only has to name a file; none named twice
            # A plan edited by hand is held to what `assign` refuses: more reviewers per item than it names.
            # (Two names that differ only in case are left to open: plans made before assign refused them do.)
            if math.ceil(overlap) > len(reviewers):
                raise InputError(f"an overlap of {overlap:g} needs at least {math.ceil(overlap)} reviewers; {len(reviewers)} named")
        except InputError as exc:
            raise InputError(exc.message, path=str(path)) from None
        return cls(folder, reviewers, float(overlap))

    # ---- assignment

    def reviewers_of(self, item_id: str) -> tuple[str, ...]:
        """The reviewers an item goes to, first choice first."""
        ranked = sorted(self.reviewers, key=lambda r: _rank(item_id, r))
        whole = int(self.overlap)
        extra = self.overlap - whole
        count = whole
        if extra > 0:
            # The hash of the item alone decides whether it gets a second review, so that share is stable too.
            share = int.from_bytes(hashlib.sha256(f"{item_id}\x00second".encode()).digest()[:8], "big") / 2**64
            count += share < extra
        return tuple(ranked[:count])

    def items_for(self, reviewer: str, items: Iterable[EvalItem]) -> list[EvalItem]:
        return list(filter(self.share_of(reviewer), items))

    def share_of(self, reviewer: str, decided: Collection[str] = ()) -> Callable[[EvalItem], bool]:
        """Whether an item is the reviewer's, one item at a time (a set read in batches is picked as it comes).

        ``decided``: the items the reviewer's journal holds decisions on. They stay the reviewer's
        when a new plan (``assign --force``) gives them to someone else: the decision was made and
        counts, and a journal whose items had all left the share was refused as another set's.
        Raises InputError for a name the plan does not hold.
        """
        name = check_reviewer_name(reviewer, new=False)  # the plan's names are the ones checked
        if name not in self.reviewers:
            if unicodedata.normalize("NFKC", name).casefold() == ADJUDICATOR:
                raise InputError(
                    f"{name!r} names the adjudication's journal, not a reviewer of this set "
                    f"({', '.join(self.reviewers)}); to adjudicate, run reviewtui adjudicate"
                )
            folded = unicodedata.normalize("NFC", name).casefold()
            alike = [r for r in self.reviewers if unicodedata.normalize("NFC", r).casefold() == folded]
            if alike:  # "José" typed with a combining accent, or "Ana" for "ana": they look the same in the list
                if unicodedata.normalize("NFC", name) == unicodedata.normalize("NFC", alike[0]):
                    # Drawn the same: only the escaped forms show the difference.
                    raise InputError(
                        f"{name!r} is not one of this set's reviewers as typed ({ascii(name)}), but the plan's "
                        f"{alike[0]!r} ({ascii(alike[0])}) is the same name with its accented letter written another "
                        "way; give the name as the plan has it"
                    )
                raise InputError(
                    f"{name!r} is not one of this set's reviewers, but {alike[0]!r} is: the names differ in case; "
                    f"give the name as the plan has it"
                )
            raise InputError(f"{name!r} is not one of this set's reviewers ({', '.join(self.reviewers)}); see reviewtui assign")

        def mine(item: EvalItem) -> bool:
            return name in self.reviewers_of(item.id) or item.id in decided

        return mine

    def assignment(self, items: Iterable[EvalItem]) -> dict[str, list[EvalItem]]:
        """Reviewer -> their items, in set order: every item ranked once (not once per reviewer)."""
        mine: dict[str, list[EvalItem]] = {reviewer: [] for reviewer in self.reviewers}
        for item in items:
            for reviewer in self.reviewers_of(item.id):
                mine[reviewer].append(item)
        return mine

    def workload(self, items: Iterable[EvalItem]) -> dict[str, int]:
        return {reviewer: len(assigned) for reviewer, assigned in self.assignment(items).items()}


def ratings_by_item(per_reviewer: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, str]]:
    """Reviewer -> {item: label} turned into item -> {reviewer: label}."""
    out: dict[str, dict[str, str]] = {}
    for reviewer, labels in per_reviewer.items():
        for item_id, label in labels.items():
            out.setdefault(item_id, {})[reviewer] = label
    return out
