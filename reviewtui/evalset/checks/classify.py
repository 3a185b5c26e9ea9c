"""Question types: a regex heuristic, an optional model, and counts per type.

The heuristic tries the most specific pattern first — summarisation, comparative,
tabular, numeric, multi-hop — and calls everything else factoid. It reads
wording, not meaning: "per month" makes a question tabular even when it asks
for one number. Its output is a suggestion for a person to confirm.

Each guess carries a confidence (:func:`guess_confidence`): how often the rule that made it
agreed with the type people gave the question, on the real public sets that carry types
(``tests/devset/type_confidence.py`` measures it; a test checks the figures below against it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from math import sqrt

from reviewtui.evalset.model.items import EvalItem, EvalSet, QuestionType
from reviewtui.evalset.text.words import letter_runs

__all__ = [
    "GUESS_RECORD",
    "UNLABELLED",
    "Classifier",
    "GuessConfidence",
    "classify_question",
    "guess_confidence",
    "exact_type",
    "normalise_type",
    "type_distribution",
]

UNLABELLED = "unlabelled"

# (type, words one of which any match must contain, pattern). The words let a question skip a
# pattern without running it: most questions contain none of them, and a regex search costs
# far more than a set lookup. Patterns run on the lower-cased question.
_RULES: tuple[tuple[str, frozenset[str], re.Pattern[str]], ...] = tuple(
    (qtype, frozenset(triggers.split()), re.compile(pattern))
    for qtype, triggers, pattern in (
        (
            QuestionType.SUMMARISATION,
            "summarise summarize summary overview outline main key brief short general",
            r"\b(summari[sz]e|summary|overview|outline|main (points?|ideas?|themes?|arguments?)"
            r"|key (points?|takeaways?|findings?|themes?)|in (brief|short|general terms))\b",
        ),
        (
            QuestionType.COMPARATIVE,
            "compare compared compares comparing comparison versus vs differ differs difference differences "
            "contrast than which same both",
            r"\b(compare[sd]?|comparing|comparison|versus|vs\.?|differ(s|ence|ences)?|contrast"
            r"|(more|less|fewer|greater|better|worse|higher|lower|larger|smaller|older|younger|longer|shorter) than"
            r"|which (one|of the two)|same as)\b|\bwhich\b[^?]*\bor\b|\bboth\b[^?]*\band\b",
        ),
        (
            QuestionType.TABULAR,
            "table tables column columns row rows spreadsheet cell cells per monthly quarterly breakdown broken listed",
            r"\b(tables?|columns?|rows?|spreadsheet|cells?|per (month|quarter|week|day|hour|capita|employee|unit)"
            r"|monthly|quarterly|breakdown|broken down|listed in)\b",
        ),
        (
            QuestionType.NUMERIC,
            "many much long far old often big large tall high fast percentage percent proportion fraction "
            "number amount rate ratio total sum count average price cost year",
            r"\b(how (many|much|long|far|old|often|big|large|tall|high|fast)"
            r"|what (percentage|percent|proportion|fraction|number|amount|rate|ratio|total|sum|count|average|price|cost)"
            r"|(in )?(what|which) year|by how much)\b",
        ),
        (
            QuestionType.MULTI_HOP,
            "whose who that which well addition",
            r"\bwhose\b|\b(who|that|which)\b[^?]*\b(who|that|which)\b|\b(as well as|in addition to)\b",
        ),
    )
)


_ANY_TRIGGER = frozenset().union(*(triggers for _, triggers, _ in _RULES))


def _needs(*alternatives: str) -> tuple[tuple[frozenset[str], ...], ...]:
    """Alternatives, each a "|"-separated list of word groups: every group must give a word of the question."""
    return tuple(tuple(frozenset(group.split()) for group in alternative.split("|")) for alternative in alternatives)


#: Per type, what a match of its pattern needs among the question's letter runs: one of the alternatives,
#: each a list of word groups that must all give a word. A trigger word alone is often not enough ("which"
#: is in most questions; the comparative pattern needs "or", "one" or "two" after it), so without these a
#: question with such a word ran the pattern for nothing. Each word is one the pattern spells in lower-case
#: ASCII with no letter beside it (a space, \b or the end of the match), so it is one of the runs wherever
#: the pattern matches: these only skip searches that cannot match. The multi-hop rule has its own test.
_NEEDED: dict[str, tuple[tuple[frozenset[str], ...], ...]] = {
    QuestionType.SUMMARISATION: _needs(
        "summarise summarize summary overview outline",
        "main|point points idea ideas theme themes argument arguments",
        "key|point points takeaway takeaways finding findings theme themes",
        "in|brief short terms",
    ),
    QuestionType.COMPARATIVE: _needs(
        "compare compares compared comparing comparison versus vs differ differs difference differences contrast than",
        "which|one two or",
        "same|as",
        "both|and",
    ),
    QuestionType.TABULAR: _needs(
        "table tables column columns row rows spreadsheet cell cells monthly quarterly breakdown",
        "per|month quarter week day hour capita employee unit",
        "broken|down",
        "listed|in",
    ),
    QuestionType.NUMERIC: _needs(
        "how|many much long far old often big large tall high fast",
        "what|percentage percent proportion fraction number amount rate ratio total sum count average price cost",
        "year|what which",
    ),
}


def _may_match(qtype: str, lower: str, words: AbstractSet[str]) -> bool:
    """False only where the pattern of ``qtype`` cannot match ``lower``, whose letter runs are ``words``."""
    needed = _NEEDED.get(qtype)
    if needed is None:
        return _may_be_multi_hop(lower, words) if qtype == QuestionType.MULTI_HOP else True
    for groups in needed:
        for group in groups:
            if group.isdisjoint(words):
                break
        else:
            return True
    return False


# The multi-hop pattern's words that match alone ("whose", "as well as", "in addition to"); its others, who,
# that and which, match only two at a time.
_MULTI_HOP_ALONE = frozenset(("whose", "well", "addition"))


def _may_be_multi_hop(lower: str, words: AbstractSet[str]) -> bool:
    """False only where the multi-hop pattern cannot match ``lower``, whose letter runs are ``words``.

    Its "who ... which" needs two of who, that and which as words, so the text holds them at least twice
    between them; a question with one "which" (many have one) skips the search, which tries every later
    word after it.
    """
    return not _MULTI_HOP_ALONE.isdisjoint(words) or lower.count("who") + lower.count("that") + lower.count("which") >= 2


def classify_question(question: str, words: AbstractSet[str] | None = None) -> str:
    """The heuristic type of one question: the first rule that matches, else factoid.

    ``words``: ``set(letter_runs(question))`` when the caller has it already.
    """
    if words is None:
        words = set(letter_runs(question))  # the words of the lower-cased question, found faster
    if _ANY_TRIGGER.isdisjoint(words):
        return QuestionType.FACTOID  # most questions: no rule has a word to match on
    lower = question.lower()
    for qtype, triggers, pattern in _RULES:
        if not triggers.isdisjoint(words) and _may_match(qtype, lower, words) and pattern.search(lower):
            return qtype
    return QuestionType.FACTOID


#: Per guessed type: (questions where people's type agreed, questions with a type of people's,
#: published data sets they came from), over the real sets that carry types (see
#: tests/devset/type_confidence.py).
#: Only HotpotQA does, and every one of its questions is a multi-hop or a comparison question.
GUESS_RECORD: dict[str, tuple[int, int, int]] = {
    QuestionType.COMPARATIVE: (35, 40, 1),
    QuestionType.MULTI_HOP: (30, 30, 1),
    QuestionType.NUMERIC: (0, 24, 1),
    QuestionType.FACTOID: (0, 206, 1),
}
#: A guess is confident when the low end of its agreement's 95 % interval reaches this, measured
#: on at least CONFIDENT_SETS sets: one set whose questions are all of one kind cannot show that a
#: rule tells kinds apart (HotpotQA's 30 of 30 for multi-hop says that HotpotQA is multi-hop).
CONFIDENT_AT = 0.8
CONFIDENT_SETS = 2


@dataclass(frozen=True)
class GuessConfidence:
    """How far a type guess can be trusted: its rule's record against people's types on real sets."""

    agreed: int
    labelled: int
    sets: int

    @property
    def low(self) -> float:
        """The low end of the 95 % Wilson interval of the agreement (0 when nothing was measured)."""
        n = self.labelled
        if not n:
            return 0.0
        z = 1.959964
        share = self.agreed / n
        centre = share + z * z / (2 * n)
        margin = z * sqrt(share * (1 - share) / n + z * z / (4 * n * n))
        return (centre - margin) / (1 + z * z / n)

    @property
    def confident(self) -> bool:
        return self.sets >= CONFIDENT_SETS and self.low >= CONFIDENT_AT

    def describe(self) -> str:
        """The record in words, for a flag's reason."""
        if not self.labelled:
            return "never measured against people's types"
        said = f"matched people's types on {self.agreed} of {self.labelled} real questions"
        if self.sets < CONFIDENT_SETS:
            # "30 of 30" read as a strong record on a privacy-policy question; it was HotpotQA's, all multi-hop.
            return f"{said}, all from one set, which says little of other sets"
        return said


def guess_confidence(qtype: str) -> GuessConfidence:
    """The confidence of the heuristic's guess ``qtype`` (see :data:`GUESS_RECORD`)."""
    return GuessConfidence(*GUESS_RECORD.get(qtype, (0, 0, 0)))


_ALIASES = {"summarization": QuestionType.SUMMARISATION, "multihop": QuestionType.MULTI_HOP}


def normalise_type(reply: object) -> str | None:
    """A model's reply as a known type, or None when it is not one.

    Lower-cased and trimmed; surrounding quotes and a final full stop dropped;
    "multi-hop"/"multi hop" read as ``multi_hop`` and the American spelling of
    summarisation accepted.
    """
    if not isinstance(reply, str):
        return None
    text = reply.strip().strip("\"'`").strip().rstrip(".").strip().lower()
    text = re.sub(r"[\s-]+", "_", text)
    text = _ALIASES.get(text, text)
    return text if text in QuestionType.ALL else None


def exact_type(reply: object) -> str | None:
    """A model's reply read as the reference page reads it: lower-cased and trimmed, and a known type
    as it stands or nothing ("Numeric." and "multi-hop" are nothing)."""
    if not isinstance(reply, str):
        return None
    text = reply.strip().lower()
    return text if text in QuestionType.ALL else None


class Classifier:
    """Labels question types, by a model when one is given and it answers with a known type.

    A type already on an item (set by a person, for instance) is kept unless
    ``overwrite=True``. A reply is taken as the reference page documents, lower-cased and
    trimmed and nothing more, so a reply with a full stop or in other words falls to the
    heuristic; ``lenient=True`` reads it as :func:`normalise_type` does instead ("Numeric.",
    "multi-hop", "summarization").
    """

    def __init__(
        self, model: Callable[[str], str] | None = None, overwrite: bool = False, *, lenient: bool = False
    ) -> None:
        self.model = model
        self.overwrite = overwrite
        self.lenient = lenient

    def suggest(self, question: str) -> str:
        """The type this classifier would give a question, ignoring any current label."""
        if self.model is not None:
            reply = self.model(question)
            qtype = normalise_type(reply) if self.lenient else exact_type(reply)
            if qtype is not None:
                return qtype
        return classify_question(question)

    def label(self, item: EvalItem) -> EvalItem:
        if item.qtype is not None and not self.overwrite:
            return item
        qtype = self.suggest(item.question)
        return item if qtype == item.qtype else item.model_copy(update={"qtype": qtype})

    def label_all(self, items: Sequence[EvalItem]) -> list[EvalItem]:
        return [self.label(item) for item in items]

    def label_set(self, evalset: EvalSet) -> EvalSet:
        """The same set (id, version, source) with its items labelled."""
        return evalset.with_items(self.label_all(evalset.items))


def type_distribution(evalset: EvalSet | Iterable[EvalItem]) -> dict[str, int]:
    """Items per type, known types first in their usual order, then others, then ``"unlabelled"``."""
    counts: dict[str, int] = {}
    for item in evalset:
        key = UNLABELLED if item.qtype is None else item.qtype
        counts[key] = counts.get(key, 0) + 1
    known = [t for t in QuestionType.ALL if t in counts]
    others = sorted(k for k in counts if k not in QuestionType.ALL and k != UNLABELLED)
    order = known + others + ([UNLABELLED] if UNLABELLED in counts else [])
    return {key: counts[key] for key in order}
