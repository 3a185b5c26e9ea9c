"""answer-unsupported: an expected answer that shares not one word or number with the item's quotes.

A quote is the evidence an answer is graded against; when the answer has no content word and no
number in common with any of them, either the quote is the wrong passage or the answer was written
from somewhere else. Words are Unicode word tokens, case-folded, with common function words left out,
after compatibility folding ("CO₂" is "CO2"); Chinese, Japanese, Thai and the other scripts written
without spaces are compared as pairs of characters found anywhere in the quote ("北京" in
"中国的首都是北京"). Numbers are compared as written, thousands separators aside ("1,200" is
"1200"), and English number words count as their numbers ("twenty" is 20, "tenth" and "10th" are 10).
Before an answer is flagged, looser readings are tried: a word two letters of ending away ("Goethe",
"Goethes"), Arabic's joined prefixes and article ("بالقاهرة" holds "القاهرة"), and an acronym spelt by
capitalised words in a row ("WHO", "the World Health Organization"). An answer that refuses ("not
present in the context") is said to be one.

Items without an answer or without quotes are not checked, nor are yes/no answers, which a quote
supports without repeating them. It was right on all 5 of its flags on the labelled real items
(tests/devset), few as they are, so it shows as a LOW warning.
"""

from __future__ import annotations

import re
import unicodedata

from reviewtui.evalset.checks.registry import FLAG, Check, Needs, register
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.words import AUDIT_STOPWORDS, has_any_word, in_quotes, unspaced_runs, words

__all__ = ["ANSWER_UNSUPPORTED", "answer_unsupported"]

ANSWER_UNSUPPORTED = "answer-unsupported"

# Function words that say nothing about where an answer came from (the audit's list, and a few more).
_STOPWORDS = AUDIT_STOPWORDS | frozenset("an as at be by from has have he her his its not she they their them was which who".split())
_YES_NO = frozenset(("yes", "no"))
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen"
).split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_ORDINAL_UNITS = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth"
).split()
_ORDINAL_TENS = {word[:-1] + "ieth": n for word, n in _TENS.items()}  # twentieth, thirtieth, ...
_WORD_VALUES = {
    **{word: n for n, word in enumerate(_UNITS)},
    **{word: n for n, word in enumerate(_ORDINAL_UNITS)},
    **_TENS,
    **_ORDINAL_TENS,
}
# "twenty-one", "thirty first": a tens word, then a unit (as a number or an ordinal); else a single number word.
_NUMBER_WORD = re.compile(
    rf"\b(?:({'|'.join(_TENS)})[- ]({'|'.join(_UNITS[1:10] + _ORDINAL_UNITS[1:10])})|({'|'.join(_WORD_VALUES)}))\b",
    re.IGNORECASE,
)


def _numbers(text: str) -> set[str]:
    """The numbers ``text`` gives, in digits: as written (thousands separators aside) and as English words."""
    found = {number.replace(",", "") for number in _NUMBER.findall(text)}
    for tens, unit, single in _NUMBER_WORD.findall(text):
        if single:
            found.add(str(_WORD_VALUES[single.lower()]))
        else:
            found.add(str(_TENS[tens.lower()] + _WORD_VALUES[unit.lower()]))
    return found


#: An answer saying the evidence does not answer the question, as generated sets write "no answer".
_REFUSAL = re.compile(
    r"\b(?:not (?:present|mentioned|provided|given|found|available|stated|specified|contained|included)"
    r"|no (?:information|mention|answer)|(?:does|do|did) ?n[o']t (?:contain|mention|provide|say|specify|include|state)"
    r"|(?:cannot|can ?not|can't) be (?:answered|determined|found)|(?:i|we) (?:do not|don't) know"
    r"|insufficient (?:information|context)|unanswerable)\b",
    re.IGNORECASE,
)
_REFUSAL_WORDS = 25  # longer answers that say "not mentioned" somewhere are answers, not refusals


def _content(answer: str) -> list[str]:
    """The answer's words that are not function words and not made only of digits (numbers are compared whole).

    Only asked whether one of them is in a quote: a list, in order, repeats and all, serves, and costs less than a set."""
    if answer.isascii() or _DIGIT.search(answer) is not None:
        # In ASCII a word all digits means the answer has a digit: the same words as asking the regex first.
        return [word for word in words(answer) if word not in _STOPWORDS and not word.isdigit()]
    # No decimal digit, yet a word may be all digits to isdigit() ("²"): kept, as a word.
    return [word for word in words(answer) if word not in _STOPWORDS]


_DIGIT = re.compile(r"\d")


#: Letters Arabic writes joined to the front of a word: and, so, with/in, for/to, like; then the article.
_AR_PREFIXES = "وفبلك"
_AR_ARTICLE = "ال"
#: Words an acronym leaves out: "WHO" is the World Health Organization.
_ACRONYM_SKIPS = frozenset(("of", "the", "and", "for", "de", "du", "des", "la", "le", "et"))
_ACRONYM = re.compile(r"\b(?:[A-Z]\.){2,}|\b[A-Z]{2,6}s?\b")


def _stem_forms(word: str) -> set[str]:
    """``word`` with what inflection or Arabic's joined prefixes add taken off: "بالقاهرة" gives "القاهرة" and "قاهرة"."""
    forms = {word}
    if "\u0600" <= word[:1] <= "\u06ff":
        bare = word
        for _ in range(2):
            if len(bare) > 3 and bare[0] in _AR_PREFIXES:
                bare = bare[1:]
                forms.add(bare)
        for form in list(forms):
            if form.startswith(_AR_ARTICLE) and len(form) > 4:
                forms.add(form[2:])
    return forms


def _loosely_shared(answer: str, content: list[str], quote: str) -> bool:
    """Whether the answer shares a word with ``quote`` once endings, joined prefixes and acronyms are allowed for:
    "Goethe" in "Goethes Werk", "the Venetians" and "Venetian shipbuilders", "القاهرة" in "بالقاهرة", "WHO" and
    "the World Health Organization"."""
    quote_words = words(quote)
    mine = [form for word in content if not word.isdigit() for form in _stem_forms(word)]
    theirs = {form for word in quote_words for form in _stem_forms(word)}
    if not theirs.isdisjoint(mine):
        return True
    for word in mine:  # an ending of up to two letters on either side: a plural, a genitive, an adjective's ending
        if len(word) >= 4 and any(
            len(other) >= 4 and abs(len(other) - len(word)) <= 2 and (other.startswith(word) or word.startswith(other))
            for other in theirs
        ):
            return True
    return _spells(answer, quote) or _spells(quote, answer)


_LETTERS = re.compile(r"[^\W\d_]+")


def _spells(text: str, other: str) -> bool:
    """Whether an acronym written in ``text`` ("WHO", "U.S.A.") is the initials of capitalised words in a row in
    ``other`` ("the World Health Organization"; "of" and the like may come between them)."""
    acronyms = _ACRONYM.findall(text)
    if not acronyms:
        return False
    # One letter per capitalised word; any other word breaks the row, except the few an acronym leaves out.
    initials = "".join(
        word[0].lower() if word[0].isupper() else ("" if word in _ACRONYM_SKIPS else "|") for word in _LETTERS.findall(other)
    )
    for found in acronyms:
        letters = found.replace(".", "")
        letters = (letters[:-1] if letters.endswith("s") else letters).lower()  # "NGOs"
        if len(letters) >= 2 and letters in initials:
            return True
    return False


def _shortened(text: str, most: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= most else text[: most - 1] + "…"


def _folded(text: str) -> str:
    """``text`` with compatibility forms folded (subscript digits, full-width letters, ligatures); ASCII as it is."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def answer_unsupported(item: EvalItem, needs: Needs | None = None) -> str | None:
    """The reason to flag ``item``, or None when its answer shares a word or a number with a quote (or is not checked)."""
    answer = item.answer
    if not answer:
        return None
    anchors = item.anchors
    if not anchors:
        return None
    answer = _folded(answer)
    content = _content(answer)
    if _YES_NO.issuperset(content):  # yes/no, or nothing to compare
        return None
    # Words of the scripts written without spaces are runs as long as a clause: looked for as pairs of characters.
    pairs = [pair for word in content for pair in unspaced_runs(word)] if not answer.isascii() else []
    numbers: set[str] | None = None
    quotes_read: list[str] = []
    for anchor in anchors:
        quote = _folded(anchor.quote)
        quotes_read.append(quote)
        if has_any_word(quote, content):  # the answer's few words looked for: the quote's many are never made
            return None
        if pairs:
            folded = quote.casefold()
            if any(pair in folded for pair in pairs):
                return None
        if numbers is None:
            numbers = _numbers(answer)
        if numbers and not numbers.isdisjoint(_numbers(quote)):
            return None
    # Nothing in common as written: the looser readings, looked at only for an answer about to be flagged.
    if any(_loosely_shared(answer, content, quote) for quote in quotes_read):
        return None
    quotes = "its quote" if len(anchors) == 1 else f"any of its {len(anchors)} quotes"
    if len(content) <= _REFUSAL_WORDS and _REFUSAL.search(answer) is not None:
        return (
            f"the expected answer is a refusal ({in_quotes(_shortened(answer))}), yet the item cites evidence, which shares no "
            f"word with it: type the question unanswerable, or give the answer {quotes} supports"
        )
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
