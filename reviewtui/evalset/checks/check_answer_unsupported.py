"""answer-unsupported: an expected answer that shares not one word or number with the item's quotes.

A quote is the evidence an answer is graded against; when the answer has no content word and no
number in common with any of them, either the quote is the wrong passage or the answer was written
from somewhere else. Words are Unicode word tokens, case-folded, with common function words left out;
numbers are compared as written, thousands separators aside ("1,200" is "1200").

Items without an answer or without quotes are not checked, nor are yes/no answers, which a quote
supports without repeating them. It was right on all 5 of its flags on the labelled real items
(tests/devset), few as they are, so it shows as a LOW warning.
"""

from __future__ import annotations

import re

from reviewtui.evalset.checks.registry import FLAG, Check, Needs, register
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.words import AUDIT_STOPWORDS, has_any_word, words

__all__ = ["ANSWER_UNSUPPORTED", "answer_unsupported"]

ANSWER_UNSUPPORTED = "answer-unsupported"

# Function words that say nothing about where an answer came from (the audit's list, and a few more).
_STOPWORDS = AUDIT_STOPWORDS | frozenset("an as at be by from has have he her his its not she they their them was which who".split())
_YES_NO = frozenset(("yes", "no"))
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _numbers(text: str) -> set[str]:
    return {number.replace(",", "") for number in _NUMBER.findall(text)}


def _content(answer: str) -> list[str]:
    """The answer's words that are not function words and not made only of digits (numbers are compared whole).

    Only asked whether one of them is in a quote: a list, in order, repeats and all, serves, and costs less than a set."""
    if answer.isascii() or _DIGIT.search(answer) is not None:
        # In ASCII a word all digits means the answer has a digit: the same words as asking the regex first.
        return [word for word in words(answer) if word not in _STOPWORDS and not word.isdigit()]
    # No decimal digit, yet a word may be all digits to isdigit() ("²"): kept, as a word.
    return [word for word in words(answer) if word not in _STOPWORDS]


_DIGIT = re.compile(r"\d")


def answer_unsupported(item: EvalItem, needs: Needs | None = None) -> str | None:
    """The reason to flag ``item``, or None when its answer shares a word or a number with a quote (or is not checked)."""
    answer = item.answer
    if not answer:
        return None
    anchors = item.anchors
    if not anchors:
        return None
    content = _content(answer)
    if _YES_NO.issuperset(content):  # yes/no, or nothing to compare
        return None
    numbers: set[str] | None = None
    for anchor in anchors:
        quote = anchor.quote
        if has_any_word(quote, content):  # the answer's few words looked for: the quote's many are never made
            return None
        if numbers is None:
            numbers = _numbers(answer)
        if numbers and not numbers.isdisjoint(_numbers(quote)):
            return None
    quotes = "its quote" if len(anchors) == 1 else f"any of its {len(anchors)} quotes"
    return f"the expected answer shares no word or number with {quotes}: check the answer or the evidence"


register(
    Check(
        ANSWER_UNSUPPORTED,
        FLAG,
        Severity.LOW,
        "Right on 5 of 5 flags on the labelled real items (tests/devset): refusals given as answers, an answer "
        "from another passage",
        flag=answer_unsupported,
        module=__name__,
    )
)
