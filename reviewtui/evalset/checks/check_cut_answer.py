"""cut-answer: an expected answer that stops on a word that only begins a phrase ("6,5 % dans").

An extractive answer is a span of its passage, and a span cut a word too late ends on "in", "of",
"the", "dans", "de": PIAF's "Quelle est la croissance moyenne de l'Ouganda ... ?" expects
"6,5 % dans". Only a word in lower case counts (a "(Subparagraph (A))" ends on a name, not on "a"),
and an answer ending in a full stop, a question or an exclamation mark is a sentence, left alone. So
is an answer a quote holds right before the end of a sentence or clause (a full stop, a colon, a closing
bracket or quotation mark, the quote's own end): there the clause ends on the preposition ("the people he
grew up with."), and the span is whole. A comma is no such end: one after "and" opens an aside.
"""

from __future__ import annotations

import re

from reviewtui.evalset.checks.registry import FLAG, Check, Needs, register
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem

__all__ = ["CUT_ANSWER", "cut_answer"]

CUT_ANSWER = "cut-answer"

# Words that begin a phrase and cannot end one, in the languages of the real sets: articles, prepositions, "and", "or".
_OPENERS = frozenset(
    "the a an of in on at to for with and or by from "
    "dans de du des le la les et à au aux un une en par pour sur "
    "del el los las y con por para".split()
)
# The last run of word characters, with nothing but other characters after it. Searched for as
# r"(\w+)\W*$", the regex tries a match from every position of the text; read on the text reversed, it is
# the first run, and one match from the start finds it (then reversed back). \w and \W are per character,
# so reversing changes none of them.
_FIRST_WORD = re.compile(r"\W*(\w+)")


def _last_word(text: str) -> str | None:
    r"""The last run of word characters in ``text`` (``re.search(r"(\w+)\W*$", text).group(1)``), None if it has none."""
    if text.isascii():
        # In ASCII the word characters are letters, digits and "_": every other byte made a space, the last piece.
        pieces = text.encode().translate(_ASCII_WORD_PIECES).rsplit(None, 1)
        return pieces[-1].decode() if pieces else None
    found = _FIRST_WORD.match(text[::-1])
    return None if found is None else found.group(1)[::-1]


_ASCII_WORD_PIECES = bytes(code if chr(code).isascii() and (chr(code).isalnum() or chr(code) == "_") else 0x20 for code in range(256))


def cut_answer(item: EvalItem, needs: Needs | None = None) -> str | None:
    """The reason to flag ``item``, or None."""
    answer = item.answer
    if not answer or answer.rstrip().endswith((".", "!", "?", "…")):
        return None
    word = _last_word(answer[-40:])
    if word not in _OPENERS or " " not in answer.strip():
        return None  # lower case only: a word as written, so "(A)" is no article
    if _ends_a_clause_in_a_quote(answer, item):
        return None
    reason = _REASONS.get(word)
    if reason is None:  # one string per word, shared by every item it ends (a generated set has thousands)
        reason = _REASONS[word] = f"the expected answer ends on {word!r}, a word that begins a phrase: was the span cut a word too late?"
    return reason


_REASONS: dict[str, str] = {}
#: Not a comma: after "and" or "from" one opens an aside, and the phrase goes on after it ("machine and, according to ...").
_CLAUSE_ENDS = frozenset(".;:!?…)]}")
#: Quotation marks close a clause only right after its last word: after a space one opens a title ('editor of "Scare Care"').
_CLOSING_QUOTES = frozenset("\"'»”’")


def _ends_a_clause_in_a_quote(answer: str, item: EvalItem) -> bool:
    """Whether a quote holds ``answer`` (spaces aside) with a clause's end (see _CLAUSE_ENDS) or the quote's own right after it."""
    wanted = " ".join(answer.split())
    for anchor in item.anchors:
        quote = " ".join(anchor.quote.split())
        at = quote.find(wanted)
        while at >= 0:
            after = quote[at + len(wanted) : at + len(wanted) + 2]
            if not after.strip() or after.lstrip()[0] in _CLAUSE_ENDS or after[0] in _CLOSING_QUOTES:
                return True
            at = quote.find(wanted, at + 1)
    return False


register(
    Check(
        CUT_ANSWER,
        FLAG,
        Severity.LOW,
        "An expected answer of several words ending on an article, a preposition or a conjunction (in lower case, not a "
        "sentence): a span cut a word too late; on the real sets it fires on PIAF's '6,5 % dans' alone",
        flag=cut_answer,
        module=__name__,
    )
)
