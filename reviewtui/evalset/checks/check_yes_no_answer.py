"""yes-no-answer: a question that asks what, how, when or why, answered "Yes." or "No." and more.

PIAF's FAQ rewrote yes/no questions as open ones and kept their answers: "Que faire si mon compte
Facebook a été piraté ?" is answered "Non. Le piratage ...", and "Comment supprimer le compte
Facebook d'une personne décédée ?" "Oui. La loi permet ...". The answer was written for another
question. A bare "yes" stays unflagged: "What answer denotes that an algorithm has accepted an input
string? yes" (SQuAD 2.0) asks for that very word; so does a "No" that starts a noun phrase ("No fee
is charged"), since only yes or no followed by a mark and more words is taken for a reply; and so
does a question that holds a yes/no question of its own: "What is the answer to whether Viber stores
messages?", "What did the committee say when asked if it would resign?" (not a bare "if": "Que faire
si mon compte a été piraté ?" asks what to do then).
"""

from __future__ import annotations

import re

from reviewtui.evalset.checks.registry import FLAG, Check, Needs, register
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem

__all__ = ["YES_NO_ANSWER", "yes_no_answer"]

YES_NO_ANSWER = "yes-no-answer"

# Yes or no, in the languages of the real sets and their neighbours, as a reply: a mark after it, then more
# words ("No. 5" is Chanel's perfume and "No. 9" a symphony: a number after the mark is no reply).
_REPLY = re.compile(r"\W*(yes|no|oui|non|sí|não|sim|ja|nein)\s*[.,;:!]\s*[^\d\s]", re.IGNORECASE)
# A question that asks for something other than yes or no, by its first word. Not German "was" (what): the
# English "Was Obama born in Hawaii?" asks yes or no.
_OPEN_QUESTION = re.compile(
    r"\W*(?:what|which|who|whom|whose|when|where|why|how|que|qu['’]|quoi|comment|quand|où|pourquoi|qui|quel|quelle|quels|"
    r"quelles|combien|qué|cómo|cuándo|dónde|por\s+qué|quién|cuál|cuánto|wie|wann|wo|warum|wer|welche[rsnm]?)(?!\w)",
    re.IGNORECASE,
)


#: A yes/no question held inside an open one: "... whether Viber stores messages?", "asked if it would resign".
#: Not a bare "if" or "si": "Que faire si mon compte a été piraté ?" asks what to do in that case (PIAF's FAQ).
_EMBEDDED_YES_NO = re.compile(
    r"\b(?:whether|ob|(?:asked|ask|asks|asking|wonder|wondered|wonders|know|knows|tell|check|see|demandé|demande|"
    r"demander|savoir|sait)\s+(?:if|si))\b",
    re.IGNORECASE,
)


def yes_no_answer(item: EvalItem, needs: Needs | None = None) -> str | None:
    """The reason to flag ``item``, or None."""
    answer = item.answer
    if not answer:
        return None
    reply = _REPLY.match(answer)
    if reply is None or _OPEN_QUESTION.match(item.question) is None or _EMBEDDED_YES_NO.search(item.question):
        return None
    return (
        f"the question does not ask yes or no, and the answer begins {reply.group(1)!r}: was it written for "
        "another question (one reworded from a yes/no question)?"
    )


register(
    Check(
        YES_NO_ANSWER,
        FLAG,
        Severity.LOW,
        "An open question (what, how, comment, ...) answered 'yes.' or 'no.' and more: the answer of another "
        "question; on the real sets it fires on PIAF's two FAQ items reworded from yes/no questions, and on none else",
        flag=yes_no_answer,
        module=__name__,
    )
)
