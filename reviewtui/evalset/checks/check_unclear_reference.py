"""unclear-reference: a question that leans on something the reader of the eval set never sees.

The documented dangling-reference filter flags any pronoun before an article or a capitalised
word; on labelled real items it was right on 2 of 38 flags (a relative "that", the "its" of a
named subject, a reflexive, an expletive "it is ... that"). This check asks for more before it
speaks, and also catches what that filter misses:

* a pronoun (it, its, they, them, their, he, his, she, her) with no word before it that could
  name what it stands for: a capitalised word, a word after an article, or any other content
  word of four letters or more ("Are drinks reimbursed when they are bought?" has "drinks");
* not an expletive "it" ("It is assumed that ...", "What does it cost to ...", "Why is it that ..."),
  not a reflexive ("themselves"), not the "they" of people in general ("Why do they call it ...",
  "What do they speak in Brazil?") and not "IT" in a question not all in capitals (information
  technology), which need no antecedent;
* "that" only as a pronoun of its own ("What does that mean?"), never as a conjunction or a
  relative ("denotes that", "the form that");
* a demonstrative that points outside the question: "this paper", "this document", "these
  results", unless the question names it first ("Consider the Affiliate Agreement between ...;
  what is the term of this contract?") or a relative clause defines it ("this singer, who ...");
  a bare "this" or "that" at the end ("What about this?"), and its like in other languages, a
  demonstrative pronoun that ends the question ("ماذا نتج عن ذلك؟", "what resulted from that?", in
  ARCD; "Que signifie cela ?", "Was bedeutet das?"), written in lower case (an "DAS" is a name);
* in French, a subject pronoun (il, elle, ils, elles, joined to its verb or not: "Quand a-t-il
  soutenu sa thèse ?") with no name or determined noun before it ("Pourquoi la ville a-t-elle ..."),
  and not impersonal ("y a-t-il", "faut-il", "que se passe-t-il", "est-il possible de", "quel temps
  fait-il", "combien coûte-t-il de", "il est dit que"); and "cet
  article", "ce document" and their like, unless a name comes first;
* a phrase that names the generation context: "according to the context", "the passage above",
  "the provided document", "according to the video" (a set of several videos names none of them),
  "the provided example".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any

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
#: How much of a meta value naming the source (a video's title) a reason quotes.
_META_NAME_SHOWN = 60


def _named_in_meta(said: str, meta: Mapping[str, Any]) -> str | None:
    """The reason for "according to the video" where the item's meta names the video (a CSV's `Video` column):
    the set does carry it, only never with the question. None when no meta key is named after what is referred to."""
    nouns = [word for word in re.findall(r"[a-z]+", said.lower()) if word in _CONTEXT_KEYS]
    named = [(key, value) for key, value in meta.items() if isinstance(value, str) and value.strip()]
    # A key that is the noun itself ("Video") first, before one that only holds it ("Video Duration": '00:42:10').
    named.sort(key=lambda entry: entry[0].strip().lower() not in nouns)
    for key, value in named:
        lowered = key.lower()
        if any(noun in lowered for noun in nouns):
            name = value.strip()
            if len(name) > _META_NAME_SHOWN:
                name = name[: _META_NAME_SHOWN - 1] + "…"
            return (
                f"{said!r} refers to what the set names only in meta[{key!r}] ({name!r}), which whoever is asked "
                f"the question is not told: name it in the question"
            )
    return None


# One of these is in every match of _CONTEXT; matched the same way (IGNORECASE), so "artİcle" passes as there.
_CONTEXT_WORDS = re.compile(r"context|passage|text|excerpt|document|article|above|video|transcript|example", re.IGNORECASE)
_OUTSIDE_NOUNS = frozenset(
    "paper document article study case text passage report section chapter figure table excerpt author "
    "authors results result policy company contract agreement video talk speaker book".split()
)


# Most questions hold no word any rule below starts from, and the regexes that look for those words cost more
# than the rest of the check. Every such word is ASCII letters, so this table, read on the question's UTF-8,
# keeps ASCII letters (lower-cased) and makes every other byte a space: a character outside ASCII is bytes
# above 127 only, so the pieces it leaves are the question's runs of ASCII letters, in any script.
#
# Where a pattern below finds one of its words, that word stands between characters that are not ASCII
# letters (the patterns ask for \b, a space, a non-word character or an end on either side), so it is one of
# the pieces, lower-cased: the pieces can only say "none of these words", never miss one. Two provisos make
# that so: the words the patterns match case-blind must be spelt in ASCII letters, which holds unless the
# question has one of the four characters outside ASCII that a case-blind letter matches (_FOLDS_INTO_ASCII);
# and a token that lower-cases to a trigger word must be written in ASCII letters, which holds in any text:
# the one character outside ASCII that lower-cases to an ASCII letter, the Kelvin sign, gives a k, and no
# trigger word has a k.
_ASCII_LETTER_PIECES = bytes(ord(chr(code).lower()) if chr(code).isascii() and chr(code).isalpha() else 0x20 for code in range(256))
#: What re.IGNORECASE lets an ASCII letter match outside ASCII: "İ" and "ı" for i, "ſ" for s, the Kelvin sign for k.
_FOLDS_INTO_ASCII = re.compile("[\u0130\u0131\u017f\u212a]")
# Every match of _CONTEXT holds one of these as a word of its own.
_CONTEXT_KEYS = frozenset(("context", "passage", "text", "excerpt", "document", "article", "above", "video", "transcript", "example"))


# French: a subject pronoun (il, elle, ils, elles) as a word of its own or joined to its verb ("a-t-il",
# "est-elle"), and a demonstrative determiner before a noun for something outside the question ("cet article").
_FR_TOKEN = re.compile(r"[^\W\d_]+(?:['’](?=[^\W\d_]))?")  # words split at hyphens, an elided "l'" its own word
_FR_PRONOUNS = frozenset(("il", "elle", "ils", "elles"))
_FR_DEMONSTRATIVES = frozenset(("ce", "cet", "cette", "ces"))
_FR_WORDS = _FR_PRONOUNS | _FR_DEMONSTRATIVES
_FR_MAYBE = re.compile(r"(?:^|[^\w])(?:" + "|".join(sorted(_FR_WORDS, key=len, reverse=True)) + r")(?!\w)", re.IGNORECASE)
# The words the context, French and English rules start from (the ending pointer is looked at on its own).
_LOOKED_FOR = _CONTEXT_KEYS | _FR_WORDS | _TRIGGERS
#: Words that make the pronoun before or after them impersonal ("il y a", "faut-il", "s'agit-il", "que se passe-t-il").
_FR_IMPERSONAL = frozenset(
    "y faut fallait faudra agit agissait existe existait reste restait suffit semble semblait manque vaut pleut passe "
    "passait produit arrive arrivait "
    "heure en temps".split()  # "quelle heure est-il", "qu'en est-il de ...", "quel temps fait-il"
)
#: After "il est" / "est-il": the adjective of an impersonal "il est possible de ...".
_FR_IMPERSONAL_ADJ = frozenset(
    "possible impossible nécessaire obligatoire interdit vrai faux utile important conseillé recommandé légal "
    "permis normal difficile facile temps question prévu dit connu admis établi reconnu certain probable clair "
    "évident".split()  # "il est dit que ..."
)
#: Verbs of an impersonal "il" when "de" and an infinitive follow: "combien coûte-t-il de renouveler ...".
_FR_IMPERSONAL_BEFORE_DE = frozenset("coûte coûtait coûtera".split())
#: Words before a noun that could be what the pronoun stands for ("la ville a-t-elle ...", "combien de soldats sont-ils ...").
_FR_DETERMINERS = frozenset(
    "le la les l' l’ un une des du de d' d’ au aux son sa ses leur leurs mon ma mes ton ta tes notre nos votre vos".split()
)
_FR_OUTSIDE_NOUNS = frozenset(
    "article document étude texte passage rapport section chapitre figure tableau extrait auteur auteurs résultats "
    "résultat politique entreprise contrat accord vidéo livre paragraphe".split()
)


def _french_reference(question: str) -> str | None:
    """A French pronoun or demonstrative with nothing in the question to resolve it, as the English rules below ask."""
    tokens = _FR_TOKEN.findall(question)
    lowered = [token.lower() for token in tokens]
    named = entity = False  # as in the English rules: a word a pronoun could stand for; a name "cet article" could mean
    for position, lower in enumerate(lowered):
        if lower in _FR_DEMONSTRATIVES:
            following = lowered[position + 1 : position + 2]
            if following and following[0] in _FR_OUTSIDE_NOUNS and not entity:
                return f"{tokens[position]} {tokens[position + 1]!r} points at something outside the question: which one?"
        elif lower in _FR_PRONOUNS and (position == 0 or tokens[position].islower()) and not (
            tokens[position].isupper() and not question.isupper()
        ):
            # Capitalised after the first word, "Il" or "Elle" is a name ("Elle magazine", "Il Postino"); in capitals
            # where the rest is not, "IL" is an interleukin, even first ("IL-6 signaling plays a role in ...").
            if lowered[position - 1 : position] in (["s'"], ["s’"]) and lowered[position + 1 : position + 2] == ["vous"]:
                continue  # "s'il vous plaît"
            verb = position - 2 if position >= 2 and lowered[position - 1] == "t" else position - 1  # "a-t-il": a
            around = {*lowered[max(0, verb - 1) : max(0, verb + 1)], *lowered[position + 1 : position + 2]}
            if around & _FR_IMPERSONAL:
                continue  # "il y a", "y a-t-il", "faut-il", "que se passe-t-il"
            if "est" in around and not _FR_IMPERSONAL_ADJ.isdisjoint(lowered[position + 1 : position + 4]):
                continue  # "est-il possible de", "il est interdit de"
            if lowered[verb : verb + 1] and lowered[verb] in _FR_IMPERSONAL_BEFORE_DE and "de" in lowered[position + 1 : position + 2]:
                continue  # "combien coûte-t-il de ..."
            if not named:
                return f"{tokens[position]!r} has nothing earlier in the question it could stand for"
        if position > 0 and tokens[position][0].isupper():
            named = entity = True  # a name: "Quand Marie est-elle née ?", "Elle" of "Elle magazine"
        elif lower in _FR_DETERMINERS and position + 1 < len(tokens) and lowered[position + 1] not in _FR_PRONOUNS:
            named = True  # "la ville a-t-elle ...", "l'homme est-il ..."
    return None


def _pointer_at_the_end(question: str) -> str | None:
    """The reason to flag a question that ends on a demonstrative pronoun of its own, or None."""
    # The question's end only: splitting the whole of it copies it, on every item of the set. A pointer is a
    # short word, so two parts here are that word and the end of another before it.
    last = question[-_END_SEEN:].rstrip(_END_MARKS).rsplit(maxsplit=1)
    if len(last) == 2 and last[1] in _ENDING_POINTERS:  # as written: lower case, or a script without case
        return f"{last[1]!r} at the end points at nothing in the question"
    return None


def unclear_reference(item: EvalItem, needs: Needs | None = None) -> str | None:
    """The reason to flag ``item``'s question, or None."""
    question = item.question
    in_ascii = question.isascii()
    pieces: AbstractSet[str] | list[str]
    if in_ascii and needs is not None:
        # On ASCII text the pieces are the question's letter runs, which the scan has made for its wording checks.
        pieces = needs.question_runs
    else:
        pieces = question.encode().translate(_ASCII_LETTER_PIECES).decode().split()
    plain = in_ascii or _FOLDS_INTO_ASCII.search(question) is None  # the pieces show every word (see above)
    if plain and _LOOKED_FOR.isdisjoint(pieces):  # most questions: no other rule has a word to start from
        if in_ascii and _ENDING_POINTERS.isdisjoint(pieces):
            return None  # and in ASCII, an ending pointer is a piece too
        return _pointer_at_the_end(question)
    if not _CONTEXT_KEYS.isdisjoint(pieces) if plain else _CONTEXT_WORDS.search(question) is not None:
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
            in_meta = _named_in_meta(said, item.meta)
            if in_meta is not None:
                return in_meta
            return f"{said!r} refers to a context the eval set does not carry: a reader cannot see it"
    pointer = _pointer_at_the_end(question)
    if pointer is not None:
        return pointer
    if (not plain or not _FR_WORDS.isdisjoint(pieces)) and _FR_MAYBE.search(question) is not None:
        french = _french_reference(question)
        if french is not None:
            return french
    if _TRIGGERS.isdisjoint(pieces):
        return None  # no pronoun, demonstrative or "that": nothing below can fire
    tokens = _TOKEN.findall(question)
    lowered = [token.lower() for token in tokens]
    if _TRIGGERS.isdisjoint(lowered):
        return None  # "it's", "9-it-9": the piece is there, the token is not
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
                if needs_no_antecedent(tokens, lowered, position, question):
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


def needs_no_antecedent(tokens: list[str], lowered: list[str], position: int, question: str) -> bool:
    """Whether the pronoun at ``position`` stands for nothing the question should have named: an expletive "it",
    the "they" of people in general, or "IT" (information technology) in a question not all in capitals."""
    token, lower = tokens[position], lowered[position]
    if len(token) > 1 and token.isupper() and not question.isupper():
        return True  # "IT security: how often ...", "HE funding" (higher education)
    if lower == "it":
        return _expletive(lowered, position)
    if lower == "they":
        return not _GENERIC_THEY.isdisjoint(lowered[position + 1 : position + 3])
    return False


#: Verbs whose "they" is people in general, as web queries ask: "why do they call it the big apple", "what do
#: they speak in Brazil", "when did they stop making the Model T", "where did they film Titanic".
_GENERIC_THEY = frozenset(
    "call calls called calling speak speaks spoke speaking say says said make makes made making sell sells sold "
    "selling use uses used grow grows grew growing build builds built celebrate celebrates celebrated wear wears "
    "wore eat eats ate drink drinks drank film films filmed filming shoot shot".split()
)


def _expletive(lowered: list[str], position: int) -> bool:
    """Whether the "it" at ``position`` is a placeholder subject ("it is likely that", "does it cost to", and
    the cleft "why is it that ...")."""
    after = lowered[position + 1 : position + 8]
    if after[:1] and after[0] in ("is", "was", "has", "takes", "costs", "cost", "take", "mean", "means", "possible"):
        return True
    if after[:1] == ["that"] and position > 0 and lowered[position - 1] in ("is", "was"):
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
