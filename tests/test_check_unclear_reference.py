"""unclear-reference: speaks only when the question leans on something a reader cannot see."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import reviewtui as cg
from reviewtui.evalset.checks import check_unclear_reference as _module
from reviewtui.evalset.checks.check_unclear_reference import UNCLEAR_REFERENCE, unclear_reference
from reviewtui.evalset.checks.registry import FLAG, checks
from reviewtui.evalset.checks.scan import scan_flags
from tests.equivalence_helpers import TEXTS, random_texts, real_items, real_texts


@pytest.mark.parametrize(
    "question",
    [
        # the dangling-reference filter's misfires on real sets
        "What answer denotes that an algorithm has accepted an input string?",
        "It is generally assumed that what is the most efficient way to sort?",
        "Who identified themselves as the first settlers of the valley?",
        "Are alcoholic drinks reimbursed when they are bought with a client?",
        "What does it cost to replace a lost badge?",
        "MafA phosphorylation decreases its ubiquitination.",
        "Which record label signed this singer, who was born in Ohio in 1961?",
        "How is the quality of a startup's product defined in the context of the tech industry?",
        "Which example does the handbook give of a video call etiquette rule?",
        "Consider the Marketing Affiliate Agreement between Birch Inc. and Mount Holdings Inc.; What is the expiration date of this contract?",
        "How many tools can a Standard member have on loan at once?",
        # the "they" of people in general, as web queries ask (NQ)
        "When did they stop making the Ford Model T?",
        "why do they call it the big apple",
        "What do they speak in Brazil?",
        "Where did they film the Titanic movie?",
        "Why is it that the sky is blue?",  # a cleft "it"
        "IT security: how often should passwords be changed?",  # information technology
        # PrivacyQA's lb130: "this" at the end is the app the question names
        'Consider "TickTick: To Do List with Reminder, Day Planner"\'s privacy policy; who has access to whatever i create using this?',
    ],
)
def test_questions_that_say_what_they_mean_are_not_flagged(question):
    assert unclear_reference(cg.EvalItem(id="q", question=question)) is None


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("What is the main focus of this paper?", "this 'paper'"),
        ("List the important dates in this case.", "this 'case'"),
        ("According to the context provided, what does the agent need?", "'According to the context'"),
        ("What are the two inputs mentioned in the provided context?", "'in the provided context'"),
        ("What does that mean?", "'that'"),
        ("What about this?", "'this' at the end"),
        ("Can I delete this?", "'this' at the end"),  # "I" is no name (a name before it is: PrivacyQA's lb130)
        ("When was it built?", "'it' has nothing earlier"),
        ("What did they sign in 1990?", "'they' has nothing earlier"),  # a "they" of someone in particular
        ("Who is it that they trust?", "'they' has nothing earlier"),
        ("According to the artİcle, who won?", "'According to the artİcle'"),  # case-blind as the pattern is
        ("PER THE DOCUMENT ABOVE, WHAT CHANGED?", "'THE DOCUMENT ABOVE'"),
        # a set of talks that never says which one; an example the reader was never given
        ("According to the video, who will replace developers in the job market?", "'According to the video'"),
        ("How do you use the provided example to build a retriever?", "'the provided example'"),
    ],
)
def test_questions_that_lean_on_unseen_context_are_flagged_and_the_reason_names_the_words(question, said):
    reason = unclear_reference(cg.EvalItem(id="q", question=question))
    assert reason is not None and said in reason


def test_it_is_one_registered_module_that_the_scan_runs():
    assert UNCLEAR_REFERENCE in {c.name for c in checks(FLAG)}
    scan = scan_flags(cg.EvalSet(id="s", items=(cg.EvalItem(id="q1", question="What is the main focus of this paper?"),)))
    assert [f.check for f in scan.flags["q1"] if f.check == UNCLEAR_REFERENCE] == [UNCLEAR_REFERENCE]


# ---- the shortcuts (see _ASCII_LETTER_PIECES) give the answer of every regex on every question ----


def _reference_unclear_reference(item) -> str | None:
    """The check written plainly, as it was before its shortcuts: each pattern tried on the whole question."""
    m = _module
    question = item.question
    found = m._CONTEXT.search(question)
    if found is not None:
        said = found.group(0)
        if item.anchors or item.gold or item.meta.get("gold_documents"):
            return f"{said!r} refers to the passage the question was written from, which whoever is asked it does not see"
        if item.meta.get("contexts"):
            return (
                f"{said!r} refers to a context the set keeps only in meta['contexts'], with no source a "
                f"retriever could find: whoever is asked the question cannot see it"
            )
        in_meta = m._named_in_meta(said, item.meta)
        if in_meta is not None:
            return in_meta
        return f"{said!r} refers to a context the eval set does not carry: a reader cannot see it"
    last = question[-16:].rstrip(m._END_MARKS).rsplit(maxsplit=1)
    if len(last) == 2 and last[1] in m._ENDING_POINTERS:
        return f"{last[1]!r} at the end points at nothing in the question"
    if m._FR_MAYBE.search(question) is not None:
        french = m._french_reference(question)
        if french is not None:
            return french
    tokens = m._TOKEN.findall(question)
    lowered = [token.lower() for token in tokens]
    named = entity = False
    for position, token in enumerate(tokens):
        lower = lowered[position]
        if lower in m._TRIGGERS:
            following = lowered[position + 1 : position + 5]
            if lower in m._DEMONSTRATIVES and not entity and following and following[0] in m._OUTSIDE_NOUNS:
                if not any(word in ("who", "which", "that", "where") for word in following[1:3]):
                    return f"{token} {tokens[position + 1]!r} points at something outside the question: which one?"
            if lower in m._POINTERS and (not following or following[0] in (",", ";", ":")) and position > 0 and not entity:
                return f"{token!r} at the end points at nothing in the question"
            if lower == "that" and position <= 2 and following[:1] and following[0] in ("mean", "is", "was", "refer", "say"):
                return f"{token!r} points at nothing named earlier in the question"
            if lower in m._PRONOUNS:
                if named:
                    return None
                if m.needs_no_antecedent(tokens, lowered, position, question):
                    continue  # "it is likely that", "does it cost to", "why do they call it"
                return f"{token!r} has nothing earlier in the question it could stand for"
        if lower in m._ARTICLES:
            named = named or position + 1 < len(tokens)
        elif position > 0 and token[0].isupper():
            named = True
            entity = entity or token != "I"
        elif len(lower) >= 4 and lower not in m._NOT_NAMES:
            named = True
    return None


def _question(text: str, **fields):
    """An item with this question and nothing else unless given (the check reads only these fields)."""
    from types import SimpleNamespace

    return SimpleNamespace(question=text, **{"anchors": (), "gold": (), "meta": {}, **fields})


def _same_as_the_reference(texts) -> int:
    """Asserts the check answers as the reference on each text as a question, on its own and given the question's
    letter runs as the scan gives them (Needs.question_runs); how many it flagged."""
    from reviewtui.evalset.checks.registry import Needs
    from reviewtui.evalset.text.words import letter_runs

    flagged = 0
    for text in texts:
        for item in (_question(text), _question(text, anchors=("a quote",))):
            reason = unclear_reference(item)
            assert reason == _reference_unclear_reference(item), repr(text)
            assert unclear_reference(item, Needs(item, frozenset(letter_runs(text)))) == reason, repr(text)
            flagged += reason is not None
    return flagged


@settings(max_examples=1500, deadline=None)
@given(TEXTS)
def test_the_check_answers_as_its_plain_definition_on_any_question(text):
    _same_as_the_reference([text])


def test_the_check_answers_as_its_plain_definition_on_many_made_up_questions():
    pieces = [chr(code) for code in range(128)] + (
        "it its It ITS they them their he him his she her hers this These those that the then hit 5it x-it 'it it's "
        "_he -she it_ 9_'-this 9it ²it it² context CONTEXT passage texts excerpt document article above mentioned "
        "according to the provided given in from il Il IL elle ils Elles ce cet cette ces a-t-il qu'il 'il 2il il2 "
        "-elle ce' cet_ s'il cel ıl İl cEt İt ıt ſhe thıs artİcle paſſage \u212a ذلك cela ça das Das eso é ’"
    ).split()
    import random

    rng = random.Random(5)
    questions = ["".join(rng.choice(pieces) for _ in range(rng.randrange(0, 10))) for _ in range(40_000)]
    assert _same_as_the_reference(questions + random_texts(5, 20_000)) > 1000


def test_only_four_characters_outside_ascii_match_an_ascii_letter_case_blind():
    """The pieces stand for the patterns only where every letter they match case-blind is ASCII: outside
    _FOLDS_INTO_ASCII, no character matches one."""
    import re
    import sys

    letter = re.compile("[a-z]", re.IGNORECASE)
    folding = [chr(code) for code in range(128, sys.maxunicode + 1) if letter.fullmatch(chr(code))]
    assert folding == ["\u0130", "\u0131", "\u017f", "\u212a"]
    assert all(_module._FOLDS_INTO_ASCII.search(char) for char in folding)
    # and no character outside ASCII lower-cases to letters of a trigger word without a mark beside them
    assert [chr(code) for code in range(128, sys.maxunicode + 1) if chr(code).lower().isascii()] == ["\u212a"]
    assert not any("k" in word for word in _module._TRIGGERS)


@pytest.mark.parametrize(
    "question",
    ["Was İt there?", "Où est-il, that one?", "Квартира: it", "the paſſage above", "According to the artİcle, who?", "ıl est là", "Qu'a-t-ıl fait ?"],
)
def test_text_with_letters_that_fold_into_ascii_is_left_to_the_regexes(question):
    _same_as_the_reference([question])


def test_every_real_question_answer_and_quote_gets_the_plain_definitions_answer(realdata):
    items = real_items(realdata)
    for item in items:  # as they are, with their quotes, spans and meta
        assert unclear_reference(item) == _reference_unclear_reference(item), repr(item.question)
    texts = real_texts(realdata)
    flagged = _same_as_the_reference(texts)
    flagged += _same_as_the_reference(  # and some that are flagged, since real sets have few
        [
            "What is the main focus of this paper?",
            "According to the context provided, what does the agent need?",
            "What does that mean?",
            "Why did they leave the company?",
            "What about this?",
            "When was its first edition printed?",
        ]
    )
    assert len(items) > 3000 and len(texts) > 5000 and flagged >= 12


def test_the_reason_says_where_the_context_it_refers_to_is():
    """The langchain CSV keeps each row's context in meta['contexts'] (no source to anchor it): the reason said the
    set does not carry a context at all."""
    question = "What are the two required inputs, as mentioned in the provided context?"
    bare = cg.EvalItem(id="a", question=question)
    assert "the eval set does not carry" in unclear_reference(bare)
    beside = cg.EvalItem(id="b", question=question, meta={"contexts": ["The agent takes a prompt and a tool list."]})
    assert "keeps only in meta['contexts'], with no source a retriever could find" in unclear_reference(beside)
    quoted = cg.EvalItem(id="c", question=question, anchors=[cg.GoldAnchor("doc.md", "The agent takes a prompt and a tool list.")])
    assert "refers to the passage the question was written from, which whoever is asked it does not see" in unclear_reference(quoted)
    judged = cg.EvalItem(id="d", question=question, meta={"gold_documents": [["doc-1", 1]]})  # BEIR's relevant documents
    assert "refers to the passage the question was written from" in unclear_reference(judged)


def test_a_source_the_set_names_only_in_meta_is_said_to_be_there():
    """The Hinglish set's "According to the video, …" was said to refer to a context the set does not carry, though
    its `Video` column names the video: the set has it, the question does not say it."""
    question = "According to the video, who will replace developers in the job market?"
    named = cg.EvalItem(id="a", question=question, meta={"Video": "All About ML & Deep Learning", "Language": "Hinglish"})
    reason = unclear_reference(named)
    assert reason == (
        "'According to the video' refers to what the set names only in meta['Video'] ('All About ML & Deep Learning'), "
        "which whoever is asked the question is not told: name it in the question"
    )
    beside = cg.EvalItem(id="d", question=question, meta={"Video Duration": "00:42:10", "Video": "All About ML"})
    assert "meta['Video'] ('All About ML')" in unclear_reference(beside)  # the column named for it, not one beside it
    long_title = cg.EvalItem(id="b", question=question, meta={"video_title": "x" * 200})
    assert "('" + "x" * 59 + "…')" in unclear_reference(long_title)
    # a key named after something else, or a blank value, says nothing of the video
    for meta in ({"Language": "Hinglish"}, {"Video": "  "}, {"Video": 3}):
        assert "the eval set does not carry" in unclear_reference(cg.EvalItem(id="c", question=question, meta=meta))


def test_real_langchain_rows_say_their_context_is_kept_in_meta(realdata):
    from reviewtui.evalset.io import open_evalset

    with pytest.warns(UserWarning):
        evalset = open_evalset(realdata / "goldenset-aimakerspace" / "langchain_blog_test_data.csv")
    reasons = [unclear_reference(item) for item in evalset.items]
    flagged = [r for r in reasons if r is not None and "context" in r]
    assert flagged and all("meta['contexts']" in r for r in flagged)


@pytest.mark.parametrize(
    "question, said",
    [
        ("ماذا نتج عن ذلك؟", "'ذلك' at the end"),  # ARCD: "what resulted from that?"
        ("Que signifie cela ?", "'cela' at the end"),
        ("Qui a écrit ça ?", "'ça' at the end"),
        ("Was bedeutet das?", "'das' at the end"),
        ("¿Quién dijo eso?", "'eso' at the end"),
    ],
)
def test_a_demonstrative_that_ends_a_question_in_another_language_points_at_nothing(question, said):
    assert unclear_reference(cg.EvalItem(id="x", question=question)).startswith(said)


@pytest.mark.parametrize(
    "question",
    ["Who founded DAS?", "Das?", "Quelle est la capitale de la France ?", "ما هي عاصمة مصر؟", "Qu'est-ce que cela change pour les salariés ?"],
)
def test_a_name_a_lone_word_or_a_demonstrative_inside_the_question_is_not_that(question):
    assert unclear_reference(cg.EvalItem(id="x", question=question)) is None


@pytest.mark.parametrize(
    "question, said",
    [
        ("Quand a t il soutenu sa thèse ?", "'il' has nothing earlier"),  # PIAF, its words as written
        ("A quel âge obtient il son diplôme ?", "'il' has nothing earlier"),  # PIAF: "quel âge" names no one
        ("Qu'a-t-il fait en 1805 ?", "'il' has nothing earlier"),
        ("Quel âge a-t-elle ?", "'elle' has nothing earlier"),
        ("Il a été élu quand ?", "'Il' has nothing earlier"),
        ("Quel est le sujet de cet article ?", "cet 'article' points at something outside"),
    ],
)
def test_a_french_pronoun_or_demonstrative_with_no_one_named_is_flagged(question, said):
    assert unclear_reference(cg.EvalItem(id="x", question=question)).startswith(said)


@pytest.mark.parametrize(
    "question",
    [
        "Quand Marie est-elle née ?",  # a name before it
        "Pourquoi la ville a-t-elle été détruite ?",  # a determined noun before it
        "L'homme est-il mortel ?",
        "Combien de soldats sont-ils morts ?",
        "Combien y a-t-il de régions ?",  # impersonal
        "Il y a combien de pays ?",
        "Que se passe-t-il en 1789 ?",
        "Que faut-il faire pour résilier ?",
        "Est-il possible de supprimer mon compte ?",
        "Il est interdit de fumer où ?",
        "Selon le rapport annuel de Airbus, que dit cet article ?",  # a name says which article
        "PD-1 triggering on monocytes reduces IL-10 production by monocytes.",  # SciFact: an interleukin, not "il"
        "IL-6 signaling plays a major role in heart disease.",  # first, in capitals: still an interleukin (SciFact train)
        "IL-10 production by monocytes inhibits T cell response.",
        "ELLE publishes in how many countries?",  # a name in capitals
        "Qu'est-ce qu'un cookie ?",
        "Who founded Elle magazine?",  # capitalised after the first word: a name
        "When did Elle Macpherson start modelling?",
        "Who directed Il Postino?",
        "Quelle heure est-il à Paris quand Marie arrive ?",
        "Qu'en est-il de la politique de confidentialité ?",
        "Pouvez-vous indiquer, s'il vous plaît, la date ?",
        "Quel temps fait-il à Brest en mars ?",  # the weather's "il"
        "Combien coûte-t-il de renouveler un passeport ?",  # "il" of "coûter de" + an infinitive
        "Il est dit que Rollo a fondé quelle ville ?",  # "il est dit que"
    ],
)
def test_french_questions_that_say_who_or_are_impersonal_are_not_flagged(question):
    assert unclear_reference(cg.EvalItem(id="x", question=question)) is None


def test_a_french_pronoun_in_a_question_all_in_capitals_is_still_a_pronoun():
    assert unclear_reference(cg.EvalItem(id="x", question="IL A ÉTÉ FONDÉ EN QUELLE ANNÉE ?")) is not None
    assert unclear_reference(cg.EvalItem(id="x", question="Il a été fondé en quelle année ?")) is not None
