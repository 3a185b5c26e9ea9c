"""Classifier, classify_question, type_distribution, RecordingLLM and answerer_from."""

from __future__ import annotations

import pytest

import reviewtui as cg
import reviewtui.evalset as ev
from reviewtui.evalset.checks.classify import normalise_type
from reviewtui.evalset.checks.llm import LLMError, answerer_from

QUOTE = "Employees accrue 1.5 days of leave per month."


def with_anchor(id, q, **extra):
    return cg.EvalItem(id=id, question=q, anchors=(cg.GoldAnchor(source_id="handbook.pdf", quote=QUOTE),), **extra)


PAGE_ITEMS = [
    with_anchor("q1", "How much leave do employees accrue per month?"),
    with_anchor("q2", "Compare the leave policy in the US office and the UK office."),
    with_anchor("q3", "How many paid sick days does an employee get per year?"),
]


def test_page_example_labels():
    labeled = cg.Classifier().label_all(PAGE_ITEMS)
    assert [(it.id, it.qtype) for it in labeled] == [("q1", "tabular"), ("q2", "comparative"), ("q3", "numeric")]
    assert all(it.qtype is None for it in PAGE_ITEMS)  # the originals are untouched


def test_out_of_vocabulary_model_reply_falls_back_to_the_heuristic():
    clf = cg.Classifier(model=lambda q: "not-a-real-type")
    assert clf.label(PAGE_ITEMS[0]).qtype == "tabular"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("numeric", "numeric"),
        ("  Numeric.\n", "numeric"),
        ('"comparative"', "comparative"),
        ("multi-hop", "multi_hop"),
        ("Multi hop", "multi_hop"),
        ("summarization", "summarisation"),
        ("UNANSWERABLE", "unanswerable"),
        ("numeric question", None),
        ("", None),
    ],
)
def test_model_reply_is_normalised_and_validated_when_lenient(reply, expected):
    assert normalise_type(reply) == expected
    item = PAGE_ITEMS[2]
    got = cg.Classifier(model=lambda q: reply, lenient=True).label(item).qtype
    assert got == (expected or "numeric")


@pytest.mark.parametrize(
    ("reply", "taken"),
    [
        ("comparative", True),
        ("  Comparative\n", True),  # lower-cased and trimmed, as the page says
        ("Comparative.", False),  # the page: anything else is out of vocabulary and discarded
        ('"comparative"', False),
        ("multi-hop", False),
        ("summarization", False),
    ],
)
def test_the_documented_classifier_takes_a_reply_only_as_the_page_reads_it(reply, taken):
    """The page: the reply is lower-cased and stripped and taken only if it is in QuestionType.ALL; the
    heuristic answers otherwise. The reply was read leniently, so "Comparative." was taken."""
    item = PAGE_ITEMS[2]  # the heuristic says numeric
    assert cg.Classifier(model=lambda q: reply).label(item).qtype == ("comparative" if taken else "numeric")
    assert cg.Classifier(model=lambda q: reply, lenient=True).label(item).qtype == normalise_type(reply) != "numeric"


def test_model_is_asked_with_the_question():
    asked = []
    cg.Classifier(model=lambda q: asked.append(q) or "factoid").label(PAGE_ITEMS[1])
    assert asked == [PAGE_ITEMS[1].question]


def test_a_human_type_is_kept_unless_overwrite():
    human = PAGE_ITEMS[0].replace(qtype="factoid")
    assert cg.Classifier(model=lambda q: "numeric").label(human).qtype == "factoid"
    assert cg.Classifier(model=lambda q: "numeric", overwrite=True).label(human).qtype == "numeric"
    assert cg.Classifier(overwrite=True).label(human).qtype == "tabular"


def test_label_set_keeps_the_set_identity():
    evalset = cg.EvalSet(id="s", items=tuple(PAGE_ITEMS), version=3, source="generated")
    labelled = cg.Classifier().label_set(evalset)
    assert (labelled.id, labelled.version, labelled.source) == ("s", 3, "generated")
    assert [i.qtype for i in labelled] == ["tabular", "comparative", "numeric"]


@pytest.mark.parametrize(
    ("question", "qtype"),
    [
        ("Summarise the leave policy.", "summarisation"),
        ("Give an overview of the main points of the handbook.", "summarisation"),
        ("Which is older, the Eiffel Tower or Big Ben?", "comparative"),
        ("How does the US policy differ from the UK one?", "comparative"),
        ("Which column of the table lists the fees?", "tabular"),
        ("What percentage of staff work remotely?", "numeric"),
        ("In what year was the policy adopted?", "numeric"),
        ("Who directed the film whose lead actor was born in Ohio?", "multi_hop"),
        ("What is the capital of France?", "factoid"),
        # most specific first: a comparison that also asks "how many" is comparative
        ("Compare how many days each office gives.", "comparative"),
    ],
)
def test_heuristic_rules(question, qtype):
    assert ev.classify_question(question) == qtype


def test_type_distribution_counts_unlabelled():
    items = (
        with_anchor("a", "x?", qtype="numeric"),
        with_anchor("b", "y?", qtype="factoid"),
        with_anchor("c", "z?"),
        with_anchor("d", "w?", qtype="policy"),
        with_anchor("e", "v?", qtype="factoid"),
    )
    dist = ev.type_distribution(cg.EvalSet(id="s", items=items))
    assert dist == {"factoid": 2, "numeric": 1, "policy": 1, "unlabelled": 1}
    assert list(dist) == ["factoid", "numeric", "policy", "unlabelled"]


def test_recording_llm_replays_in_order_and_records_prompts():
    llm = cg.RecordingLLM(replies=["one", "two"])
    assert llm("first?") == "one"
    assert llm.complete("second?") == "two"
    assert llm.prompts == ["first?", "second?"]
    with pytest.raises(LLMError, match="3 times but holds 2"):
        llm("third?")


def test_answerer_from_accepts_functions_and_objects():
    class Client:
        def invoke(self, prompt):
            class Reply:
                content = "Paris"

            return Reply()

    assert answerer_from(lambda p: "Lyon")("Where?") == "Lyon"
    assert answerer_from(Client())("Where?") == "Paris"
    with pytest.raises(LLMError):
        answerer_from(object())
    with pytest.raises(ValueError):
        answerer_from(lambda p: p, prompt="no placeholder")
    echo = answerer_from(lambda p: p, prompt="Q: {question}")
    assert echo("What is {this}?") == "Q: What is {this}?"


# ---- the shortcuts (a set of every rule's words, the multi-hop pair count) change no guess ----

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.equivalence_helpers import TEXTS, random_texts, real_texts  # noqa: E402


def _reference_classify_question(question: str) -> str:
    """classify_question written plainly: each rule's pattern tried on the lower-cased question, in order."""
    from reviewtui.evalset.checks.classify import _RULES

    lower = question.lower()
    for qtype, _, pattern in _RULES:
        if pattern.search(lower):
            return qtype
    return cg.QuestionType.FACTOID


def _same_as_the_reference(questions) -> set[str]:
    """Asserts classify_question guesses as the reference, with its words given or not; the types guessed."""
    from reviewtui.evalset.text.words import letter_runs, runs_and_content_tokens

    guessed = set()
    for question in questions:
        expected = _reference_classify_question(question)
        assert ev.classify_question(question) == expected, repr(question)
        assert ev.classify_question(question, runs_and_content_tokens(question)[0]) == expected, repr(question)
        assert ev.classify_question(question, frozenset(letter_runs(question))) == expected, repr(question)
        guessed.add(expected)
    return guessed


@settings(max_examples=1000, deadline=None)
@given(st.one_of(TEXTS, st.text(max_size=60)))
def test_the_guess_is_the_plain_rules_guess_on_any_question(question):
    _same_as_the_reference([question])


def test_the_guess_is_the_plain_rules_guess_on_many_made_up_and_every_real_question(realdata):
    made_up = random_texts(23, 40_000) + [f"{text} who {text[:5]} which" for text in random_texts(29, 5000)]
    assert len(_same_as_the_reference(made_up)) == 6
    real = real_texts(realdata)
    assert len(real) > 5000 and len(_same_as_the_reference(real)) >= 4


def test_the_guess_is_the_plain_rules_guess_on_questions_made_of_the_rules_own_words():
    """Each rule's pattern is skipped where the question lacks the words a match needs (classify._NEEDED): on
    questions made of the words the patterns spell (written out here, not read from that table), and what
    stands between them, the guess is the plain rules' own."""
    import random

    spelt = (
        "summarise summarize summary overview outline main point points idea ideas theme themes argument arguments "
        "key takeaway takeaways finding findings in brief short general terms "
        "compare compares compared comparing comparison versus vs differ differs difference differences contrast "
        "more less fewer greater better worse higher lower larger smaller older younger longer shorter than "
        "which one of the two same as or both and "
        "table tables column columns row rows spreadsheet cell cells per month quarter week day hour capita employee "
        "unit monthly quarterly breakdown broken down listed "
        "how many much long far old often big large tall high fast what percentage percent proportion fraction "
        "number amount rate ratio total sum count average price cost year by "
        "whose who that well addition"
    ).split()
    # and the phrases they spell, whose words count only together
    spelt += [
        "in general terms", "in brief", "in short", "main points", "key findings", "more than", "which one",
        "of the two", "same as", "per month", "per capita", "broken down", "listed in", "how many", "by how much",
        "what percentage", "in what year", "which year", "as well as", "in addition to",
    ] * 4
    between = [" ", " ", " ", " ", " ", " ", "  ", "?", " ? ", "-", "_", "2", ".", ". ", ", ", "'", "é", "\n"]
    rng = random.Random(11)

    def written(word: str) -> str:
        return rng.choice((word, word, word, word.capitalize(), word.upper()))

    questions = [
        "".join(written(rng.choice(spelt)) + rng.choice(between) for _ in range(rng.randrange(1, 5))) for _ in range(100_000)
    ]
    assert len(_same_as_the_reference(questions)) == 6
