"""thin-answer: a question that asks for an explanation or a course of action, answered in a word or two.

The audit's weak-answer check wants four content words from every answer, and so flags what
extractive QA looks like: a name, a number or a date, which is a complete answer to who, how
many or when (right on 6 of 113 labelled items). This check judges the answer by what the
question asks: "why", "what should/can/must ... do", "explain", "describe" ask for a reason or
a step, and an answer of fewer than three different content words ("Report.", "Subscribe", an
email address) does not give one. "How" is left out: "How can X be restated? As decision
problems" is a complete answer. Nor is a short answer its quote gives as a cause ("... scattered
because of Rayleigh scattering", "postponed due to rain", "à cause de la pluie"): an extractive
answer to "why" is the span after "because".
"""

from __future__ import annotations

import re

from reviewtui.evalset.checks.registry import FLAG, Check, Needs, register
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.words import AUDIT_STOPWORDS, words

__all__ = ["THIN_ANSWER", "thin_answer"]

THIN_ANSWER = "thin-answer"

_ASKS_FOR_MORE = re.compile(
    r"^\s*(?:why\b|explain\b|describe\b|what\s+(?:should|can|must|could|would)\b.*\b(?:do|happen|done)\b)",
    re.IGNORECASE,
)  # not "how": "How can X be restated? As decision problems" is a complete extractive answer
_MIN_CONTENT_WORDS = 3
_FUNCTION_WORDS = AUDIT_STOPWORDS | frozenset(
    "who whom whose which what when where why how is are was were be been being has have had do does did "
    "it its they them their this that these those with for from by as at".split()
)



def _one_word_addresses(text: str) -> str:
    """``text`` with each email address or link as the one word it is (split on spaces: linear on any input)."""
    if "@" not in text and "://" not in text:
        return text
    return " ".join("address" if "@" in token or "://" in token else token for token in text.split())


def thin_answer(item: EvalItem, needs: Needs | None = None) -> str | None:
    """The reason to flag ``item``, or None."""
    answer = item.answer
    if not answer or _ASKS_FOR_MORE.search(item.question) is None:
        return None
    content = {word for word in words(_one_word_addresses(answer)) if word not in _FUNCTION_WORDS}
    if len(content) >= _MIN_CONTENT_WORDS:
        return None
    if _given_as_a_cause(answer, item):
        return None
    said = f"{len(content)} content word{'' if len(content) == 1 else 's'}"
    return f"the question asks for a reason or a course of action, and the answer gives {said}: is it complete?"


#: What a quote says right before a span it gives as a reason.
_CAUSE_BEFORE = re.compile(
    r"(?:\bbecause(?:\s+of)?|\bdue\s+to|\bowing\s+to|\bthanks\s+to|\bcaused\s+by|\bas\s+a\s+result\s+of|\bsince"
    r"|\bà\s+cause\s+(?:de|du|des|d['’])|\bparce\s+que?|\bcar|\bgrâce\s+(?:à|au|aux)|\bwegen|\bweil)\s*$",
    re.IGNORECASE,
)
_LOOKED_BACK = 24  # characters before the answer in the quote: the longest cause phrase and its spaces


def _given_as_a_cause(answer: str, item: EvalItem) -> bool:
    """Whether a quote of ``item`` holds the answer right after a word that gives a cause ("because of")."""
    wanted = " ".join(answer.strip().rstrip(".!").split()).casefold()
    if not wanted:
        return False
    for anchor in item.anchors:
        quote = " ".join(anchor.quote.split()).casefold()
        at = quote.find(wanted)
        while at >= 0:
            before = quote[max(0, at - _LOOKED_BACK) : at]
            if _CAUSE_BEFORE.search(before) is not None:
                return True
            at = quote.find(wanted, at + 1)
    return False


register(
    Check(
        THIN_ANSWER,
        FLAG,
        Severity.LOW,
        "An explanation or action question answered in under three content words: the precise successor of "
        "weak-answer for the review profile; measured on tests/devset",
        flag=thin_answer,
        module=__name__,
    )
)
