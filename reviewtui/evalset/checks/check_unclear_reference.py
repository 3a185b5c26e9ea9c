"""unclear-reference: a question that leans on something the reader of the eval set never sees.

The documented dangling-reference filter flags any pronoun before an article or a capitalised
word; on labelled real items it was right on 2 of 38 flags (a relative "that", the "its" of a
named subject, a reflexive, an expletive "it is ... that"). This check asks for more before it
speaks, and also catches what that filter misses:

* a pronoun (it, its, they, them, their, he, his, she, her) with no word before it that could
  name what it stands for: a capitalised word, a word after an article, or any other content
  word of four letters or more ("Are drinks reimbursed when they are bought?" has "drinks");
* not an expletive "it" ("It is assumed that ...", "What does it cost to ...") and not a
  reflexive ("themselves"), which need no antecedent;
* "that" only as a pronoun of its own ("What does that mean?"), never as a conjunction or a
  relative ("denotes that", "the form that");
* a demonstrative that points outside the question: "this paper", "this document", "these
  results", unless the question names it first ("Consider the Affiliate Agreement between ...;
  what is the term of this contract?") or a relative clause defines it ("this singer, who ...");
  a bare "this" or "that" at the end ("What about this?"), and its like in other languages, a
  demonstrative pronoun that ends the question ("ماذا نتج عن ذلك؟", "what resulted from that?", in
  ARCD; "Que signifie cela ?", "Was bedeutet das?"), written in lower case (an "DAS" is a name);
* a phrase that names the generation context: "according to the context", "the passage above",
  "the provided document", "according to the video" (a set of several videos names none of them),
  "the provided example".
"""

from __future__ import annotations

import re

from reviewtui.evalset.checks.registry import FLAG, Check, Needs, register
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.words import AUDIT_STOPWORDS

__all__ = ["UNCLEAR_REFERENCE", "unclear_reference"]

UNCLEAR_REFERENCE = "unclear-reference"

_PRONOUNS = frozenset("it its they them their theirs he him his she her hers".split())
_DEMONSTRATIVES = frozenset("this these those".split())
_ARTICLES = frozenset(("the", "a", "an"))
_POINTERS = _DEMONSTRATIVES | {"that"}
_TRIGGERS = _PRONOUNS | _POINTERS  # the words a rule below starts from
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|[,;:]")
#: Demonstrative pronouns that stand for something named elsewhere, in the languages of the real sets and
#: their neighbours: Arabic, French, Spanish, Portuguese, German. Ending a question, they point at nothing in it.
_ENDING_POINTERS = frozenset("ذلك هذا هذه تلك ذاك هؤلاء cela ça ceci eso esto ello isso isto das dies".split())
_END_MARKS = " \t?？؟!.…\"'»”)"
_END_SEEN = 16  # characters at the end of a question looked at for one of them
# Words of four letters or more that never name anything a pronoun could point back to.
_NOT_NAMES = AUDIT_STOPWORDS | frozenset(
    "what which when where whom whose does were have been will would could should shall might must "
    "many much more most some such also there here about into onto upon with from than then them".split()
)
_CONTEXT = re.compile(
    r"\b(?:according to the (?:context|passage|text|document|article|video|transcript)|(?:in|from) the (?:given |provided |above )?"
    r"(?:context|passage|excerpt)(?!\s+of\b)|the (?:passage|text|excerpt|document) (?:above|provided|given)|"
    r"the (?:provided|given|above) (?:document|passage|text|context|excerpt|example|video|transcript)|mentioned above)\b",
    re.IGNORECASE,
)  # "in the context of the tech industry" is an idiom, not a reference
# One of these is in every match of _CONTEXT; matched the same way (IGNORECASE), so "artİcle" passes as there.
_CONTEXT_WORDS = re.compile(r"context|passage|text|excerpt|document|article|above|video|transcript|example", re.IGNORECASE)
_OUTSIDE_NOUNS = frozenset(
    "paper document article study case text passage report section chapter figure table excerpt author "
    "authors results result policy company contract agreement video talk speaker book".split()
)


# On ASCII text, _TOKEN's words are [A-Za-z][A-Za-z0-9_'-]*: in a run of the characters [A-Za-z0-9_'-]
# the first letter starts a word that takes the rest of the run. So the lower-cased words are each
# run with its leading digits, underscores, apostrophes and hyphens taken off (one C call splits the
# text into runs), which tells most questions, those without a trigger word, apart without the regex.
_ASCII_RUNS = bytes(
    (ord(chr(code).lower()) if chr(code).isalnum() or chr(code) in "_'-" else 0x20) if code < 128 else code for code in range(256)
)
_BEFORE_A_WORD = "0123456789_'-"
# = _CONTEXT_WORDS
_CONTEXT_KEYS = ("context", "passage", "text", "excerpt", "document", "article", "above", "video", "transcript", "example")


def _may_name_a_context(question: str) -> bool:
    """Whether ``_CONTEXT_WORDS`` finds one of its words in ``question`` (every match of _CONTEXT holds one)."""
    if question.isascii():  # the same answer without the regex: ASCII has no case folding surprises
        lowered = question.lower()
        return any(key in lowered for key in _CONTEXT_KEYS)
    return _CONTEXT_WORDS.search(question) is not None


def _has_no_trigger(question: str) -> bool:
    """True only when none of ``question``'s words is a trigger; False means "look closer" (never on ASCII text with one)."""
    if not question.isascii():
        return False
    runs = question.encode().translate(_ASCII_RUNS).decode().split()
    return _TRIGGERS.isdisjoint([run.lstrip(_BEFORE_A_WORD) for run in runs])


def unclear_reference(item: EvalItem, needs: Needs | None = None) -> str | None:
    """The reason to flag ``item``'s question, or None."""
    question = item.question
    if _may_name_a_context(question):  # the full pattern is slow, and most questions lack all these words
        found = _CONTEXT.search(question)
        if found is not None:
            said = found.group(0)
            if item.anchors or item.gold or item.meta.get("gold_documents"):  # quotes, spans, BEIR's relevant documents
                return f"{said!r} refers to the passage the question was written from, which whoever is asked it does not see"
            if item.meta.get("contexts"):
                # A CSV's context column with no source: kept beside the item, never shown with the question.
                return (
                    f"{said!r} refers to a context the set keeps only in meta['contexts'], with no source a "
                    f"retriever could find: whoever is asked the question cannot see it"
                )
            return f"{said!r} refers to a context the eval set does not carry: a reader cannot see it"
    # The question's end only: splitting the whole of it copies it, on every item of the set. A pointer is a
    # short word, so two parts here are that word and the end of another before it.
    last = question[-_END_SEEN:].rstrip(_END_MARKS).rsplit(maxsplit=1)
    if len(last) == 2 and last[1] in _ENDING_POINTERS:  # as written: lower case, or a script without case
        return f"{last[1]!r} at the end points at nothing in the question"
    if _has_no_trigger(question):
        return None  # most questions: see _ASCII_RUNS
    tokens = _TOKEN.findall(question)
    lowered = [token.lower() for token in tokens]
    if _TRIGGERS.isdisjoint(lowered):
        return None  # no pronoun, demonstrative or "that": nothing below can fire (most questions)
    named = False  # has a word that could be an antecedent been seen yet?
    entity = False  # ... and a name (a capitalised word after the first), which "this contract" can mean
    for position, token in enumerate(tokens):
        lower = lowered[position]
        if lower in _TRIGGERS:
            following = lowered[position + 1 : position + 5]
            if lower in _DEMONSTRATIVES and not entity and following and following[0] in _OUTSIDE_NOUNS:
                defined = any(word in ("who", "which", "that", "where") for word in following[1:3])
                if not defined:
                    return f"{token} {tokens[position + 1]!r} points at something outside the question: which one?"
            if lower in _POINTERS and (not following or following[0] in (",", ";", ":")) and position > 0 and not entity:
                # Not after a name: "Consider TickTick's privacy policy; what do I create using this?" names it.
                return f"{token!r} at the end points at nothing in the question"
            if lower == "that" and position <= 2 and following[:1] and following[0] in ("mean", "is", "was", "refer", "say"):
                return f"{token!r} points at nothing named earlier in the question"
            if lower in _PRONOUNS:
                if named:
                    return None
                if lower == "it" and (_expletive(lowered, position)):
                    continue
                return f"{token!r} has nothing earlier in the question it could stand for"
        # Any word, a trigger that did not fire included, may be something a later pronoun stands for.
        if lower in _ARTICLES:
            named = named or position + 1 < len(tokens)
        elif position > 0 and token[0].isupper():
            named = True
            entity = entity or token != "I"  # "Can I delete this?": "I" is no name "this" could stand for
        elif len(lower) >= 4 and lower not in _NOT_NAMES:
            named = True
    return None


def _expletive(lowered: list[str], position: int) -> bool:
    """Whether the "it" at ``position`` is a placeholder subject ("it is likely that", "does it cost to")."""
    after = lowered[position + 1 : position + 8]
    if after[:1] and after[0] in ("is", "was", "has", "takes", "costs", "cost", "take", "mean", "means", "possible"):
        return True
    return "to" in after or "that" in after[1:]


register(
    Check(
        UNCLEAR_REFERENCE,
        FLAG,
        Severity.LOW,
        "A pronoun, demonstrative or 'the context' with nothing in the question to resolve it: the precise "
        "successor of dangling-reference (see the module notes); measured on tests/devset",
        flag=unclear_reference,
        module=__name__,
    )
)
