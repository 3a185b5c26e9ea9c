"""same-evidence: two questions that expect the same answer from the same quotes, worded differently.

Word overlap finds a repeated question only when the wording is repeated too. A generator that
writes two questions from one passage often asks the same thing twice in other words ("When was
the tower built?", "In what year was construction of the tower completed?"): the same answer,
graded against the same evidence. Those pairs count twice in every average, and no overlap
measure sees them. This check groups items by (expected answer, evidence) with a hash, so it
costs one pass over the set and memory per item, never per pair, whatever the data.

What it leaves alone, because there the shared answer and evidence say little:

* answers that any question can have: yes/no, true/false, a refusal ("not present in the
  context"), or an answer with no content word;
* evidence that is only the answer itself (a quote that is the answer, or a span no longer than
  it): two questions about one fact in one sentence are not the same question;
* a pair worded on one frame with one part swapped ("Communication complexity is an example of
  what type of measure?" / "Decision tree is an example of what type of measure?", SQuAD2):
  two questions about two things the same sentence covers. A pair that close is the
  near-duplicate check's to judge;
* a pair that does not point at the same part of the quotes. A repeat uses some word of them
  in both questions, and the quote words one question uses are all among the other's. Each
  using its own ("Dans quel pays a étudié Yoweri Museveni ?" / "Où est Dar es Salaam ?", both
  "Tanzanie" from one sentence of PIAF), or no common one ("Qui a été témoin de miracles" /
  "Qui est voué à un avenir hors du commun", both "Böhme"), they ask about different things;
* the same question twice (exact-duplicate) and a pair the near-duplicate check already names.

Only the ``review`` profile runs it: goldensetauditor has no such check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from reviewtui.evalset.checks.registry import SCAN, Check, register
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.words import AUDIT_STOPWORDS, normalise_question, visible, words

__all__ = ["SAME_EVIDENCE", "evidence_key", "same_evidence_flags", "same_evidence_groups"]

SAME_EVIDENCE = "same-evidence"

#: Partners named in one flag (its related ids); the reason counts the rest.
SHOWN = 20
#: Members of one group compared with an item, at most: a group of thousands (one passage, one
#: answer, every question) is named by its first members and a count, at a cost per item, not per pair.
COMPARED = 64

_STOCK = frozenset(("yes", "no", "true", "false", "none", "unknown", "n/a", "na"))
_REFUSAL = re.compile(
    r"\b(?:not (?:present|found|mentioned|available|provided|given|stated|specified|answerable)|"
    r"cannot be (?:answered|determined|found)|can't be (?:answered|determined)|no answer|unanswerable|"
    r"insufficient (?:information|context)|does not (?:say|mention|contain|specify))\b"
)
_SPAN_SLACK = 10  # characters a span must hold beyond the answer to be more than the answer


def _plain(text: str) -> str:
    """Text as compared: case-folded, each run of spaces one space, no punctuation at either end."""
    text = text.casefold()
    # Splitting every quote is most of this check's cost, and most quotes have no two spaces in a row
    # and no tab, newline or other space (none of them is printable).
    if "  " in text or not text.isprintable():
        text = " ".join(text.split())
    return text.strip(" .,;:!?\"'")


def _stock(plain: str) -> bool:
    """Whether an answer (as :func:`_plain` gives it) is one that many different questions share."""
    if not plain or plain in _STOCK or _REFUSAL.search(plain) is not None:
        return True
    return all(word in AUDIT_STOPWORDS for word in words(plain))


Evidence = tuple[tuple[str, str | int, int], ...]


def _evidence(item: EvalItem, answer: str) -> Evidence | None:
    """The item's quotes as compared, sorted, or its spans when it has no quote; None when they hold only the answer."""
    anchors = item.anchors
    if len(anchors) == 1:  # the common case, without building a set
        anchor = anchors[0]
        quote = _plain(anchor.quote)
        if quote:
            return None if quote == answer else ((anchor.source_id, quote, -1),)
    elif anchors:
        quotes = {(anchor.source_id, _plain(anchor.quote), -1) for anchor in anchors}
        quotes = {entry for entry in quotes if entry[1]}
        if quotes:
            return None if all(quote == answer for _, quote, _ in quotes) else tuple(sorted(quotes))
    spans = [(gold.span.doc_id, gold.span.start, gold.span.end) for gold in item.gold]
    if all(end - start <= len(answer) + _SPAN_SLACK for _, start, end in spans):  # also: no span at all
        return None
    return tuple(sorted(set(spans)))


def evidence_key(item: EvalItem) -> tuple[str, Evidence] | None:
    """What ``item`` is graded by, as compared: (answer, its quotes, or its spans when it has no quote).

    None when the item is not checked: no answer, a stock answer, no evidence, or evidence that
    holds nothing but the answer.
    """
    answer = _plain(item.answer or "")
    if _stock(answer):
        return None
    evidence = _evidence(item, answer)
    return None if evidence is None else (answer, evidence)


def same_evidence_groups(items: Sequence[EvalItem]) -> list[list[int]]:
    """Positions of items with the same answer and evidence, groups of two or more, in set order.

    A first pass keeps, per item, only its answer as compared, so that the quotes are read only
    for items whose answer another item shares (and that is not a stock answer). Those are
    bucketed by the hash of their evidence, and a bucket's members are compared in full before
    they count as a group.
    """
    first: dict[str, int] = {}
    shared: dict[str, list[int]] = {}
    for k, item in enumerate(items):
        answer = item.answer
        if not answer:
            continue
        plain = _plain(answer)
        seen = first.setdefault(plain, k)
        if seen != k:
            more = shared.get(plain)
            if more is None:
                shared[plain] = [seen, k]
            else:
                more.append(k)
    del first
    groups: list[list[int]] = []
    for answer, candidates in shared.items():
        if _stock(answer):
            continue
        buckets: dict[int, list[int]] = {}
        for k in candidates:
            evidence = _evidence(items[k], answer)
            if evidence is not None:
                buckets.setdefault(hash(evidence), []).append(k)
        for positions in buckets.values():
            if len(positions) < 2:
                continue
            by_evidence: dict[object, list[int]] = {}
            for k in positions:
                by_evidence.setdefault(_evidence(items[k], answer), []).append(k)
            groups.extend(group for group in by_evidence.values() if len(group) > 1)
    groups.sort()
    return groups


def one_part_swapped(a: str, b: str) -> bool:
    """Whether two questions share a frame of at least half the shorter one's words, around one part each.

    "X is an example of what type of measure?" asked of two different X: the words they share at
    the start and the end carry most of the shorter question.
    """
    wa, wb = words(a), words(b)
    if not wa or not wb:
        return False
    limit = min(len(wa), len(wb))
    head = 0
    while head < limit and wa[head] == wb[head]:
        head += 1
    tail = 0
    while tail < limit - head and wa[-1 - tail] == wb[-1 - tail]:
        tail += 1
    return 2 * (head + tail) >= limit


def _evidence_words(item: EvalItem) -> frozenset[str]:
    """The words of an item's quotes (empty for spans: their text is in the documents, not the item)."""
    found: set[str] = set()
    for anchor in item.anchors:
        found.update(words(anchor.quote))
    return frozenset(found)


def _pointed_at(question: str, evidence: frozenset[str]) -> frozenset[str]:
    """The words of the evidence a question uses, short and common words aside ("de", "the", "un")."""
    return frozenset(w for w in evidence.intersection(words(question)) if len(w) > 2 and w not in AUDIT_STOPWORDS)


def same_part(a: str, b: str, evidence: frozenset[str]) -> bool:
    """Whether two questions point at the same part of the evidence: a word of it in common, and
    none of it in one question that the other lacks on both sides."""
    mine, theirs = _pointed_at(a, evidence), _pointed_at(b, evidence)
    return bool(mine & theirs) and (mine <= theirs or theirs <= mine)


def same_evidence_flags(
    items: Sequence[EvalItem],
    groups: Iterable[list[int]],
    named: Mapping[str, Iterable[Flag]],
    duplicate_checks: frozenset[str],
) -> dict[str, Flag]:
    """One flag per item that has partners in its group: item id -> flag.

    ``named``: the flags already made per item id; a partner one of its ``duplicate_checks``
    names (exact or near duplicates) is not named again.
    """
    found: dict[str, Flag] = {}
    for group in groups:
        evidence = _evidence_words(items[group[0]])  # one evidence per group
        for k in group:
            item = items[k]
            already = {i for flag in named.get(item.id, ()) if flag.check in duplicate_checks for i in flag.related_ids}
            mine = normalise_question(item.question)
            partners: list[int] = []
            compared = 0
            for o in group:
                if o == k:
                    continue
                if compared == COMPARED:
                    break
                compared += 1
                other = items[o]
                if other.id in already or other.id == item.id:
                    continue
                if normalise_question(other.question) == mine or one_part_swapped(item.question, other.question):
                    continue
                if evidence and not same_part(item.question, other.question, evidence):
                    continue
                partners.append(o)
            if not partners:
                continue
            complete = compared == len(group) - 1
            related = tuple(items[o].id for o in partners[:SHOWN])
            found[item.id] = Flag(SAME_EVIDENCE, SEVERITY, _reason(items, k, partners, complete), related)
    return found


def _reason(items: Sequence[EvalItem], k: int, partners: list[int], complete: bool) -> str:
    item = items[k]
    first = items[partners[0]]
    rest = len(partners) - 1
    others = ""
    if not complete:
        others = f" and at least {rest:,} other{'s' if rest != 1 else ''}"
    elif rest:
        others = f" and {rest:,} other{'s' if rest > 1 else ''}"
    evidence = "quote" if len(item.anchors) == 1 else "quotes" if item.anchors else "evidence"
    answer = visible(" ".join((item.answer or "").split()))
    if len(answer) > 60:
        answer = answer[:59] + "…"
    return (
        f"probably the question {visible(first.id)!r}{others} asks in other words: both expect {answer!r} "
        f"from the same {evidence}. Keep one, or make each ask something the other does not"
    )


SEVERITY = Severity.LOW

register(
    Check(
        SAME_EVIDENCE,
        SCAN,
        SEVERITY,
        "The same answer from the same quotes, in other words: a repeat that word overlap misses. Fires on no "
        "real set we have: its three candidates there (a SQuAD2 pair, two PIAF pairs: each two questions about "
        "two things in one sentence) are what its rules leave out, so its precision is unmeasured. A low "
        "warning, which filter does not act on",
        module=__name__,
    )
)
