"""Texts to hold a check's fast path to the plain logic it replaced: made up ones, and every real one.

A fast path reads text another way than the regexes it stands in for (bytes, pieces, a reversed
string), so the texts that could tell them apart are the ones at the edges of what a word is:
apostrophes and hyphens inside and around words, digits and underscores before them, accented and
non-Latin letters beside ASCII ones, the few characters outside ASCII that case-blind matching or
lower-casing turns into ASCII letters, and the very words the checks look for, in every case.
"""

from __future__ import annotations

import functools
import string
import warnings
from pathlib import Path

from hypothesis import strategies as st

import reviewtui as cg
from reviewtui.evalset.io import open_evalset
from tests.test_realdata_quality import REAL_SETS

#: Characters one at a time: ASCII punctuation and digits, apostrophes, hyphens and spaces of several
#: kinds, accented Latin (precomposed and combining), Arabic (letters, a mark, its digit and question
#: mark), CJK, Devanagari with a vowel sign, and the letters outside ASCII that match or lower-case to
#: an ASCII one: İ and ı (i), ſ (s), the Kelvin sign (k).
CHARACTERS = (
    string.punctuation
    + string.digits
    + string.ascii_letters
    + " \t\n\x1c\u00a0\u2028"
    + "'’‘-‐–_…？؟»”«“"
    + "éèàçôûœÉÀÇßñü"
    + "e\u0301"
    + "ذلكهماعن\u064e٣،"
    + "中文字の。"
    + "हिंदी"
    + "İıſ\u212a²½"
)

#: Whole words the checks start from or stop on, as written in questions and answers.
WORDS = (
    # English pronouns, demonstratives, "that", and the words around them that the rules look at
    "it its It ITS they them their theirs he him his she her hers this these those that This That THIS "
    "themselves is was mean refer say to who which where I paper contract document Consider "
    # French pronouns and demonstratives, joined to their verb or elided, and what makes one impersonal
    "il Il IL elle Elle ils elles ce cet cette ces a-t-il a-t-elle qu'il s'il qu’il y faut est possible vous "
    # the generation context
    "context passage text excerpt document article video transcript example above according provided given "
    # demonstratives that end a question in other languages
    "ذلك هذا cela ça ceci das dies eso esto isso "
    # words that begin a phrase, in the languages of the real sets
    "the of in and or to a an with from dans de du des le la les et à au aux un une en par pour sur del el y con para "
    # the question-type rules' words
    "whose Whose WHO Which which or both same than per how many much year table rows summary overview vs vs. versus "
    "compare differ outline main key brief "
    # answers and the numbers in them
    "yes no Yes NO 1,200 1200 1.5 6,5 3rd 2010 % x² straße STRASSE"
).split()

#: Phrases whose words only count together: the context a question leans on, a pointer that ends it, a
#: French pronoun joined to its verb, a question type's wording; some with a letter outside ASCII that
#: matches an ASCII one case-blind.
PHRASES = [
    "according to the text",
    "According to the video,",
    "the passage above",
    "in the given context",
    "from the provided excerpt",
    "the provided example",
    "mentioned above",
    "in the context of",
    "According to the artİcle",
    "the paſſage above",
    "THE DOCUMENT ABOVE",
    "what does that mean?",
    "What about this?",
    "this paper",
    "these results, which",
    "Was bedeutet das?",
    "Que signifie cela ?",
    "ماذا نتج عن ذلك؟",
    "Quand a-t-il",
    "Combien y a-t-il",
    "Qu'a-t-ıl fait ?",
    "s'il vous plaît",
    "cet article",
    "6,5 % dans",
    "the north bank of",
    "as well as",
    "in addition to",
    "how many",
    "in what year",
    "more than",
    "which one",
    "per month",
    "broken down",
]

#: Word-like pieces glued together or apart, so words meet punctuation, digits and each other.
_PIECE = st.one_of(
    st.sampled_from(WORDS),
    st.sampled_from(PHRASES),
    st.text(alphabet=CHARACTERS, min_size=1, max_size=3),
    st.sampled_from([" ", " ", ", ", "; ", ": ", "-", "'", "’", "?", " ?", ".", "…", "\n", "2", "_"]),
)
TEXTS = st.lists(_PIECE, max_size=16).map("".join)


def random_texts(seed: int, count: int, *, longest: int = 12) -> list[str]:
    """``count`` texts made the way TEXTS makes them, from a seeded generator: many more than hypothesis tries."""
    import random

    rng = random.Random(seed)
    singles = list(CHARACTERS)
    separators = [" ", " ", ", ", "; ", ": ", "-", "'", "?", "\n"]
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randrange(longest + 1)):
            kind = rng.random()
            if kind < 0.4:
                parts.append(rng.choice(WORDS))
            elif kind < 0.5:
                parts.append(rng.choice(PHRASES))
            else:
                parts.append(rng.choice(separators) if kind < 0.75 else rng.choice(singles))
        texts.append("".join(parts))
    return texts


def _quiet(path: Path) -> cg.EvalSet:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the readers' notes about numbered rows and the like
        return open_evalset(path)


@functools.cache
def real_items(realdata: Path) -> tuple[cg.EvalItem, ...]:
    """Every item of every real set the readers accept, SciFact's training queries and the NQ samples too."""
    items: list[cg.EvalItem] = []
    for name in REAL_SETS:
        if (realdata / name).exists():
            items += _quiet(realdata / name).items
    scifact = realdata / "beir-scifact"
    if (scifact / "qrels" / "train.tsv").exists():
        items += cg.read_beir(scifact / "queries.jsonl", scifact / "qrels" / "train.tsv").items
    for name in ("dev_sample.jsonl", "train_sample.jsonl"):
        if (realdata / "qa-nq-farm" / name).exists():
            items += _quiet(realdata / "qa-nq-farm" / name).items
    return tuple(items)


@functools.cache
def real_texts(realdata: Path) -> tuple[str, ...]:
    """Every question, answer and quote of :func:`real_items`."""
    texts: list[str] = []
    for item in real_items(realdata):
        texts.append(item.question)
        if item.answer:
            texts.append(item.answer)
        texts += [anchor.quote for anchor in item.anchors]
    return tuple(texts)
