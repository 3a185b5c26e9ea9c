"""same-evidence: two questions that expect the same answer from the same quotes, worded differently.

Word overlap finds a repeated question only when the wording is repeated too. A generator that
writes two questions from one passage often asks the same thing twice in other words ("When was
the tower built?", "In what year was construction of the tower completed?"): the same answer,
graded against the same evidence. Those pairs count twice in every average, and no overlap
measure sees them. This check groups items by (expected answer, evidence) in a dict, so it
costs one pass over the set and memory per item, never per pair, whatever the data.

What it leaves alone, because there the shared answer and evidence say little:

* answers that any question can have: yes/no (also "Yes, it does."), true/false, a refusal
  ("not present in the context", "I don't know", NOT_ANSWERABLE), or an answer with no
  content word;
* evidence that is only the answer itself (a quote that is the answer, or a span no longer than
  it): two questions about one fact in one sentence are not the same question. Unless the answer
  is a passage of its own (WHOLE_ANSWER words or more): two questions that expect the same whole
  paragraph back ask the same thing (PIAF's four "what is a cookie" questions, one 60-word answer);
* a pair worded on one frame with one part swapped, each part naming something
  ("Communication complexity is an example of what type of measure?" / "Decision tree is an
  example of what type of measure?", SQuAD2): two questions about two things the same sentence
  covers, for the near-duplicate check to judge. Parts that differ only in how they ask
  ("When was …?" / "In which year was …?") do not make a swap: that is one question again;
* a pair that does not point at the same part of the quotes. A repeat uses some word of them
  in both questions, and the quote words one question uses are all among the other's (words
  of any script; Chinese and Japanese as pairs of characters). Each using its own ("Dans quel
  pays a étudié Yoweri Museveni ?" / "Où est Dar es Salaam ?", both "Tanzanie" from one
  sentence of PIAF), or no common one ("Qui a été témoin de miracles" / "Qui est voué à un
  avenir hors du commun", both "Böhme"), they ask about different things. With spans alone
  there is no quote text to read, and the two must share at least half the meaningful words
  of the shorter question;
* the same question twice (exact-duplicate) and a pair the near-duplicate check already names.

Answers and quotes are compared after NFC, case folding and spacing, without quote marks or
punctuation at their ends. Each item is compared only with the members of its group that share
a word with it, at most COMPARED of them, each member's words read once, so a group of
thousands costs time in proportion to its size.

Only the ``review`` profile runs it: goldensetauditor has no such check.
"""

from __future__ import annotations

import heapq
import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence

from reviewtui.evalset.checks.registry import SCAN, Check, register
from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop
from reviewtui.evalset.model.flag import Flag, Severity
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.words import AUDIT_STOPWORDS, in_quotes, normalise_question, script_tokens, unspaced, visible, words

__all__ = ["SAME_EVIDENCE", "same_evidence_flags", "same_evidence_groups"]

SAME_EVIDENCE = "same-evidence"

#: Partners named in one flag (its related ids); the reason counts the rest.
SHOWN = 20
#: Members of one group compared with an item, at most, among those that share a word with it: a
#: group of thousands (one passage, one answer, every question) costs time per item, not per pair.
COMPARED = 64

_STOCK = frozenset(("yes", "no", "true", "false", "none", "unknown", "n/a", "na", "i don't know", "not in context"))
_REFUSAL = re.compile(
    r"\b(?:(?:is )?not (?:present|found|mentioned|available|provided|given|stated|specified|answerable|included)|"
    r"cannot be (?:answered|determined|found)|can't be (?:answered|determined)|no answer|unanswerable|"
    r"not enough (?:information|context)|insufficient (?:information|context)|don't know|do not know|"
    r"(?:does|do|did) not (?:say|mention|contain|specify|provide|state|include|give))\b"
)
_YES_NO_LEAD = re.compile(r"(?:yes|no)\b[,;:]")  # "Yes, it does."
_SPAN_SLACK = 10  # characters a span must hold beyond the answer to be more than the answer
#: Words from which an answer is a passage, not a fact: a quote that is that answer is evidence enough.
WHOLE_ANSWER = 12
_ENDS = " .,;:!?\"'“”‘’«»„"


def _plain(text: str) -> str:
    """Text as compared: NFC, case-folded, each run of spaces one space, no punctuation or quote marks at either end."""
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    text = text.casefold()
    # Splitting every quote is most of this check's cost, and most quotes have no two spaces in a row
    # and no tab, newline or other space (none of them is printable).
    if "  " in text or not text.isprintable():
        text = " ".join(text.split())
    return text.strip(_ENDS)


def _stock(plain: str) -> bool:
    """Whether an answer (as :func:`_plain` gives it) is one that many different questions share."""
    plain = plain.replace("_", " ")  # NOT_ANSWERABLE, no_answer
    if not plain or plain in _STOCK or _REFUSAL.search(plain) is not None or _YES_NO_LEAD.match(plain):
        return True
    return all(word in AUDIT_STOPWORDS for word in words(plain))


Evidence = tuple[tuple[str, str | int, int], ...]


def _evidence(item: EvalItem, answer: str) -> Evidence | None:
    """The item's quotes as compared, sorted, or its spans when it has no quote; None when they hold only the answer."""
    anchors = item.anchors
    # A quote that is only the answer adds nothing to what the item is graded by, unless that answer is a passage.
    passage = answer.count(" ") + 1 >= WHOLE_ANSWER and len(words(answer)) >= WHOLE_ANSWER
    if len(anchors) == 1:  # the common case, without building a set
        anchor = anchors[0]
        quote = _plain(anchor.quote)
        if quote:
            return None if quote == answer and not passage else ((anchor.source_id, quote, -1),)
    elif anchors:
        quotes = {
            (anchor.source_id, quote, -1) for anchor in anchors if (quote := _plain(anchor.quote)) and (passage or quote != answer)
        }
        if quotes:
            return tuple(sorted(quotes))
        if any(_plain(anchor.quote) for anchor in anchors):
            return None  # every quote is the answer
    spans = [(gold.span.doc_id, gold.span.start, gold.span.end) for gold in item.gold]
    if not spans or (not passage and all(end - start <= len(answer) + _SPAN_SLACK for _, start, end in spans)):
        return None
    return tuple(sorted(set(spans)))


def same_evidence_groups(items: Sequence[EvalItem]) -> list[list[int]]:
    """Positions of items with the same answer and evidence, groups of two or more, in set order.

    A first pass keeps, per item, only its answer as compared, so that the quotes are read only
    for items whose answer another item shares (and that is not a stock answer); those are
    grouped by their evidence, one answer at a time, so only one answer's evidence is held at once.
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
        by_evidence: dict[Evidence, list[int]] = {}
        for k in candidates:
            evidence = _evidence(items[k], answer)
            if evidence is not None:
                by_evidence.setdefault(evidence, []).append(k)
        groups.extend(group for group in by_evidence.values() if len(group) > 1)
    groups.sort()
    return groups


#: Words that say how a question asks, not what about: a pair that differs only in these ("When was
#: …?", "In which year was …?") asks the same thing.
_ASKING = AUDIT_STOPWORDS | frozenset(
    "what which who whom whose when where why how year years many much long date time day kind sort".split()
)


def _content(tokens: Iterable[str]) -> set[str]:
    """Tokens that carry meaning: not an asking or function word, and more than two letters unless from an unspaced script."""
    return {t for t in tokens if t not in _ASKING and (len(t) > 2 or unspaced(t))}


def one_part_swapped(a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether two questions (as word lists) share a frame of at least half the shorter one's words,
    around one part each that names something ("Communication complexity" / "Decision tree" is
    an example of what type of measure?). Parts that differ only in how they ask ("When" / "In
    which year") are not a swap: that is a question asked again.
    """
    if not a or not b:
        return False
    limit = min(len(a), len(b))
    head = 0
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    if 2 * (head + tail) < limit:
        return False
    return bool(_content(a[head : len(a) - tail])) and bool(_content(b[head : len(b) - tail]))


def _evidence_tokens(item: EvalItem) -> frozenset[str]:
    """The tokens of an item's quotes (empty for spans: their text is in the documents, not the item)."""
    found: set[str] = set()
    for anchor in item.anchors:
        found.update(script_tokens(anchor.quote))
    return frozenset(found)


class _Member:
    """What the comparisons read of one question, worked out once per group."""

    __slots__ = ("form", "pointed", "tokens", "words")

    def __init__(self, question: str, evidence: frozenset[str]) -> None:
        self.form = normalise_question(question)
        self.words = words(question)
        self.tokens = _content(script_tokens(question))
        self.pointed = self.tokens & evidence  # the words of the quotes it uses


def same_part(mine: frozenset[str] | set[str], theirs: frozenset[str] | set[str]) -> bool:
    """Whether two questions point at the same part of the quotes, given the quote words each uses:
    a word in common, and no quote word in one that the other lacks on both sides."""
    return bool(mine & theirs) and (mine <= theirs or theirs <= mine)


def same_subject(mine: set[str], theirs: set[str]) -> bool:
    """Without quote text (spans only): the two share at least half the meaningful words of the shorter."""
    shorter = min(len(mine), len(theirs))
    return shorter > 0 and 2 * len(mine & theirs) >= shorter


def same_evidence_flags(
    items: Sequence[EvalItem],
    groups: Iterable[list[int]],
    named: Mapping[str, Iterable[Flag]],
    duplicate_checks: frozenset[str],
    should_stop: ShouldStop | None = None,
) -> dict[str, Flag]:
    """One flag per item that has partners in its group: item id -> flag.

    ``named``: the flags already made per item id; a partner one of its ``duplicate_checks``
    names (exact or near duplicates) is not named again. A partner must share a word with the
    item (a quote word both use, or with spans a meaningful word), so each item is compared only
    with the members that do, read from a list per word, in set order: at most COMPARED of them.
    Only an item with more than that many such members can miss a partner, and its reason then
    says "at least".
    """
    found: dict[str, Flag] = {}
    done = 0
    for group in groups:
        head = items[group[0]]  # one evidence per group
        evidence = _evidence_tokens(head)
        quoted = any(_plain(anchor.quote) for anchor in head.anchors)  # else spans (see _evidence)
        members = {k: _Member(items[k].question, evidence) for k in group}
        position = {items[k].id: k for k in group}
        sharing: dict[str, list[int]] = {}  # word -> members using it, in set order
        for k in group:
            for word in members[k].pointed if quoted else members[k].tokens:
                sharing.setdefault(word, []).append(k)
        paired: list[tuple[int, list[int], bool, frozenset[str]]] = []  # member, partners, all compared, copies named
        first_of: dict[int, int] = {}  # union-find over the pairs found and the copies duplicate flags name
        for k in group:
            done += 1
            if done % 1024 == 0:
                check_stop(should_stop)
            item = items[k]
            mine = members[k]
            words_used = mine.pointed if quoted else mine.tokens
            if not words_used:
                continue  # shares no word with anyone: no partner can pass the tests below
            already = frozenset(
                i for flag in named.get(item.id, ()) if flag.check in duplicate_checks for i in flag.related_ids
            )
            lists = [sharing[word] for word in sorted(words_used)]
            candidates = heapq.merge(*lists) if len(lists) > 1 else iter(lists[0])
            partners: list[int] = []
            compared = 0
            complete = True
            last = -1
            for o in candidates:
                if o == k or o == last:  # a member sharing two words comes once from each list
                    continue
                last = o
                if compared == COMPARED:
                    complete = False
                    break
                compared += 1
                other_id = items[o].id
                if other_id in already or other_id == item.id:
                    continue
                theirs = members[o]
                if theirs.form == mine.form or one_part_swapped(mine.words, theirs.words):
                    continue
                if not (same_part(mine.pointed, theirs.pointed) if quoted else same_subject(mine.tokens, theirs.tokens)):
                    continue
                partners.append(o)
            if not partners:
                continue
            paired.append((k, partners, complete, already))
            for o in (*partners, *(position[i] for i in already if i in position)):
                _join(first_of, k, o)
        # The questions linked to one another, through partners of partners and the copies a duplicate flag names:
        # one question asked several ways, all expecting the same answer from the same evidence (which the issue
        # this check answers calls almost surely one question). The first of them is the one to keep. Each
        # member's reason names its own partners as such, and the rest of the group as linked through them: a
        # member linked only through a third question was not found to ask the same thing, and is not said to.
        linked: dict[int, dict[str, list[int]]] = {}  # component -> its members by question form, in set order
        partial: set[int] = set()  # components where some member's comparing stopped early
        for k, _, complete, _ in paired:
            if not complete:
                partial.add(_first(first_of, k))
        root_of: dict[int, int] = {}
        for m in sorted({*first_of, *first_of.values(), *(k for k, *_ in paired)}):  # roots are no key of their own
            root_of[m] = root = _first(first_of, m)
            linked.setdefault(root, {}).setdefault(members[m].form, []).append(m)
        sizes = {root: sum(map(len, forms.values())) for root, forms in linked.items()}
        for k, own, _, already in paired:  # its own partners: found by its comparing, in set order, none in already
            root = root_of[k]
            form = members[k].form
            forms = linked[root]
            # Its own copies are not other wordings (a duplicate flag names them), nor are those already named.
            named_here = 0
            for i in already:
                o = position.get(i, -1)
                if o >= 0 and members[o].form != form and root_of.get(o) == root:
                    named_here += 1
            total = sizes[root] - len(forms[form]) - named_here
            through = _others(forms, form, already, items, skip=set(own))
            # The first of the component, all its comparing done: the one to keep, as the first of repeated questions
            # is, so its reason is a hint and the later ones carry the warning. A reviewer following them keeps one.
            complete = root not in partial
            kept = complete and root == k
            keep = None if root == k else items[root].id
            shown = own[:SHOWN]
            if root != k and root not in shown and items[root].id not in already:
                shown = [root, *shown[: SHOWN - 1]]  # the one it is told to keep is always among those named
            shown += [o for o in through if o not in shown][: SHOWN - len(shown)]
            reason = _reason(items, k, own, through, total - len(own), complete, quoted, kept, keep, keep in already if keep else False)
            found[items[k].id] = Flag(SAME_EVIDENCE, Severity.HINT if kept else SEVERITY, reason, tuple(items[o].id for o in shown))
    return found


def _first(first_of: dict[int, int], k: int) -> int:
    """The earliest member linked to ``k`` (union-find whose root is its component's smallest position)."""
    root = k
    while (up := first_of.get(root, root)) != root:
        root = up
    while k != root:  # shorten the path for the next look
        first_of[k], k = root, first_of[k]
    return root


def _join(first_of: dict[int, int], a: int, b: int) -> None:
    ra, rb = _first(first_of, a), _first(first_of, b)
    if ra != rb:
        first_of[max(ra, rb)] = min(ra, rb)


def _others(
    forms: dict[str, list[int]], form: str, already: Collection[str], items: Sequence[EvalItem], skip: Collection[int] = ()
) -> list[int]:
    """The first SHOWN members of a component, worded otherwise than ``form``, not in ``already`` nor ``skip``, in
    set order.

    Taken form by form, so an item with thousands of copies of its own wording in the component costs no more to
    name than one without: the steps are bounded by SHOWN and the sizes of ``already`` and ``skip``, not by the
    component. (Each form's members come in set order; the forms in the order their first member comes.)"""
    shown: list[int] = []
    for other, ms in forms.items():
        if other == form:
            continue
        for o in ms:
            if o not in skip and items[o].id not in already:
                shown.append(o)
                if len(shown) == SHOWN:
                    return sorted(shown)
    return sorted(shown)


def _reason(
    items: Sequence[EvalItem],
    k: int,
    own: list[int],
    through: list[int],
    through_total: int,
    complete: bool,
    quoted: bool,
    kept: bool = False,
    keep: str | None = None,
    keep_named_elsewhere: bool = False,
) -> str:
    """``own``: the partners found for ``k``; ``through``: the first of the group's other members, linked to it only
    through others (``through_total`` in all); ``kept``: this item is the one to keep; ``keep``: the id of the one
    to keep, when it is another (``keep_named_elsewhere``: named by the item's duplicate warning, not here)."""
    item = items[k]
    first = items[own[0]]
    rest = len(own) - 1
    others = ""
    if not complete:  # the comparing stopped early: there may be more ("at least 0 others" said so badly)
        others = f" and at least {rest:,} other{'s' if rest != 1 else ''}" if rest else " and perhaps others"
    elif rest:
        others = f" and {rest:,} other{'s' if rest > 1 else ''}"
    if quoted:
        evidence = "quote" if len(item.anchors) == 1 else "quotes"
    else:
        evidence = "span" if len(item.gold) == 1 else "spans"
    answer = " ".join((item.answer or "").split())
    if len(answer) > 60:
        answer = answer[:59] + "…"  # cut before escaping, so no escape is cut in half
    answer = visible(answer)
    several = bool(others)
    asked = f"the questions {in_quotes(first.id)}{others} ask" if several else f"the question {in_quotes(first.id)} asks"
    linked = ""
    if through_total > 0 and through:
        more = f" and {through_total - 1:,} more" if through_total > 1 else ""
        linked = f" (and, through {'them' if several else 'it'}, {in_quotes(items[through[0]].id)}{more})"
    every = "all" if several or linked else "both"
    said = f"probably {asked} in other words{linked}: {every} expect {answer!r} from the same {evidence}. "
    if kept:
        later, each = ("the later ones", "each") if several or linked else ("the later one", "it")
        return said + f"This one comes first: keep it, and drop {later} or make {each} ask something this one does not"
    if keep is None:
        which = "one"
    elif keep_named_elsewhere:
        which = f"{in_quotes(keep)}, the first of them (its duplicate warning names it)"
    else:
        which = f"{in_quotes(keep)}, the first of them"
    return said + f"Keep {which}, or make each ask something the {'others do' if several or linked else 'other does'} not"


SEVERITY = Severity.LOW

register(
    Check(
        SAME_EVIDENCE,
        SCAN,
        SEVERITY,
        "The same answer from the same quotes, in other words: a repeat that word overlap misses. On the real "
        "sets it fires only on PIAF's four ways of asking what a cookie is (one paragraph as the answer of each); "
        "its three other candidates there (a SQuAD2 pair, two PIAF pairs: each two questions about two things "
        "in one sentence) are what its rules leave out, so its precision is barely measured. A low warning "
        "on the later questions (the first, the one to keep, has it as a hint), which filter does not act on",
        module=__name__,
    )
)
