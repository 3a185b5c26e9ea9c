"""unclear-reference: speaks only when the question leans on something a reader cannot see."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.checks.check_unclear_reference import UNCLEAR_REFERENCE, unclear_reference
from reviewtui.evalset.checks.registry import FLAG, checks
from reviewtui.evalset.checks.scan import scan_flags


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


# ---- the ASCII shortcuts (see _ASCII_RUNS) give the regexes' answers exactly ----

_PIECES = [chr(code) for code in range(128)] + (
    "it its It ITS they them their he him his she her hers this These those that the then hit 5it x-it 'it it's "
    "_he -she it_ 9_'-this context CONTEXT passage texts excerpt document article above "
    "il Il IL elle ils Elles ce cet cette ces a-t-il qu'il 'il 2il il2 -elle ce' cet_ s'il cel"
).split()


def test_the_ascii_shortcuts_answer_as_the_regexes_do():
    import random

    from reviewtui.evalset.checks import check_unclear_reference as module

    rng = random.Random(5)
    for _ in range(60_000):
        question = "".join(rng.choice(_PIECES) for _ in range(rng.randrange(0, 10)))
        has_none = module._TRIGGERS.isdisjoint(token.lower() for token in module._TOKEN.findall(question))
        assert module._has_no_trigger(question) == has_none, repr(question)
        assert module._may_name_a_context(question) == (module._CONTEXT_WORDS.search(question) is not None), repr(question)
        assert module._may_be_french(question) == (module._FR_MAYBE.search(question) is not None), repr(question)


def test_the_shortcuts_never_say_no_on_text_they_do_not_read():
    from reviewtui.evalset.checks import check_unclear_reference as module

    for question in ("Was İt there?", "Où est-il, that one?", "Квартира: it"):
        assert module._has_no_trigger(question) is False  # non-ASCII: the regexes decide
    assert module._may_name_a_context("the paſſage above") == (module._CONTEXT_WORDS.search("the paſſage above") is not None)


def test_every_real_question_gets_the_same_answer_with_and_without_the_shortcuts(realdata, monkeypatch):
    import warnings

    from reviewtui.evalset.checks import check_unclear_reference as module
    from reviewtui.evalset.io import open_evalset

    questions = []
    for name in (
        "qa-hotpotqa-megagon/dev.jsonl",
        "qa-squad2-haystack/small.json",
        "qa-piaf-french/small.json",
        "legalbenchrag-privacyqa/benchmarks/privacy_qa.json",
        "qa-csv-datasaur-legalbenchrag/cuad.csv",
        "goldenset-aimakerspace/testset.csv",
        "beir-agentset-leaderboard/arcd",
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            questions += [item.question for item in open_evalset(realdata / name).items]
    questions += [  # and some that are flagged, since real sets have few
        "What is the main focus of this paper?",
        "According to the context provided, what does the agent need?",
        "What does that mean?",
        "Why did they leave the company?",
        "What about this?",
        "When was its first edition printed?",
    ]
    items = [cg.EvalItem(id="q", question=question) for question in questions]
    fast = [unclear_reference(item) for item in items]
    monkeypatch.setattr(module, "_has_no_trigger", lambda question, runs=None: False)
    monkeypatch.setattr(module, "_may_be_french", lambda question, runs=None: module._FR_MAYBE.search(question) is not None)
    monkeypatch.setattr(module, "_may_name_a_context", lambda question: module._CONTEXT_WORDS.search(question) is not None)
    slow = [unclear_reference(item) for item in items]
    assert fast == slow and len(items) > 1000 and sum(reason is not None for reason in fast) >= 6


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
    ],
)
def test_french_questions_that_say_who_or_are_impersonal_are_not_flagged(question):
    assert unclear_reference(cg.EvalItem(id="x", question=question)) is None


def test_a_french_pronoun_in_a_question_all_in_capitals_is_still_a_pronoun():
    assert unclear_reference(cg.EvalItem(id="x", question="IL A ÉTÉ FONDÉ EN QUELLE ANNÉE ?")) is not None
    assert unclear_reference(cg.EvalItem(id="x", question="Il a été fondé en quelle année ?")) is not None
