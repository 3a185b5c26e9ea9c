"""The six filters, default_filters() and FilterChain, as the quality page shows them, plus edge cases."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reviewtui as cg
from reviewtui.evalset.checks.filters import (
    DanglingReferenceFilter,
    DuplicateFilter,
    FilterChain,
    GeneralKnowledgeFilter,
    NonDiscriminatingFilter,
    Rejection,
    ShortQuestionFilter,
    UnresolvedEvidenceFilter,
    duplicate_clusters,
    duplicate_pairs,
)
from reviewtui.evalset.checks.llm import answerer_from
from reviewtui.evalset.text.words import word_set
from tests.equivalence_helpers import TEXTS as _TEXTS
from tests.equivalence_helpers import random_texts, real_texts
from tests.handbook import handbook_quiz, with_anchor


@pytest.fixture
def handbook():
    return handbook_quiz()


# --- the page's examples --------------------------------------------------------------------


def test_default_filters_example(handbook):
    result = cg.default_filters().run(handbook)
    assert (result.kept_count, result.rejected_count) == (1, 2)
    assert result.by_filter() == {"too-short": 1, "near-duplicate": 1}
    assert list(result.by_filter()) == ["too-short", "near-duplicate"]
    summary = result.summary()
    assert "kept 1 of 3 questions" in summary and "near-duplicate 1" in summary and "too-short 1" in summary
    printed = [str(r) for r in result.rejected]
    assert printed[0].startswith("[too-short] q3: 1 word")
    assert printed[1].startswith("[near-duplicate] q2: ") and "'q1'" in printed[1]
    assert "How much leave do employees accrue per month?" in printed[1]
    cautions = result.warnings.cautions
    assert len(cautions) == 3
    assert "general-knowledge" in cautions[0].message and "no model" in cautions[0].message
    assert "2 of 3" in cautions[1].message
    assert "only 1 question is left" in cautions[2].message and "0.1" in cautions[2].message
    assert all(str(c).startswith("CAUTION [evalset]: ") for c in cautions)


def test_bare_default_filters_stand_down_silently_as_documented_and_say_so_when_asked(handbook):
    """The reference page: a bare default_filters() "silently skips half the filters" and logs only the
    general-knowledge caution about them; `reviewtui filter` and the scan ask for the rest to be said."""
    assert cg.default_filters().run(handbook).warnings.infos == []
    notes = [e.message for e in cg.default_filters().run(handbook, say_stood_down=True).warnings.infos]
    assert any(n.startswith("non-discriminating:") for n in notes)
    assert any(n.startswith("unresolved-evidence:") for n in notes)


def test_default_filters_order():
    names = [f.name for f in cg.default_filters().filters]
    assert names == [
        "too-short",
        "dangling-reference",
        "unresolved-evidence",
        "near-duplicate",
        "non-discriminating",
        "general-knowledge",
    ]


def test_general_knowledge_example():
    item = cg.EvalItem(
        id="q1",
        question="What is the capital of France?",
        answer="Paris",
        anchors=(cg.GoldAnchor(source_id="h.pdf", quote="Paris is the capital of France."),),
    )
    llm = cg.RecordingLLM(replies=["Paris"])
    result = cg.default_filters(answerer=answerer_from(llm)).run(cg.EvalSet(id="e", items=(item,)))
    assert (result.kept_count, result.rejected_count, result.by_filter()) == (0, 1, {"general-knowledge": 1})
    assert str(result.rejected[0]).startswith("[general-knowledge] q1: ")
    assert "What is the capital of France?" in llm.prompts[0]
    assert not any("general-knowledge" in c.message for c in result.warnings.cautions)


def test_as_evalset_bumps_the_version(handbook):
    result = cg.default_filters().run(handbook)
    new = result.as_evalset(handbook)
    assert (handbook.version, new.version) == (1, 2)
    assert [i.id for i in new] == ["q1"] and new.id == handbook.id


def test_rejection_prints_filter_id_reason():
    assert str(Rejection("q9", "too-short", "because")) == "[too-short] q9: because"


# --- ShortQuestionFilter ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "rejected"),
    [
        ("it", True),
        ("Leave per month?", True),
        ("How much leave accrues?", False),
        ("What ? is -- it", True),  # punctuation pieces are not words
        ("Don't employees accrue leave?", False),
        ("हिंदी में प्रश्न क्या", False),
    ],
)
def test_short_question(question, rejected):
    outcome = ShortQuestionFilter().apply([cg.EvalItem(id="a", question=question)])
    assert bool(outcome.rejected) is rejected


def test_short_question_threshold_and_name():
    flt = ShortQuestionFilter(min_words=2, name="tiny")
    outcome = flt.apply([cg.EvalItem(id="a", question="Leave?"), cg.EvalItem(id="b", question="Leave policy?")])
    assert [r.item_id for r in outcome.rejected] == ["a"] and outcome.rejected[0].filter == "tiny"


# --- DanglingReferenceFilter --------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "rejected"),
    [
        ("When does it expire?", True),
        ("What is this?", True),
        ("How did they decide?", True),
        ("When does the membership expire and how is it renewed?", False),  # "the membership" comes first
        ("What does Paris call its river?", False),  # a capitalised word first
        ("How much leave do employees accrue per month?", False),
        ("It rains in Paris: why?", True),  # the first word's capital does not count
        ("Is that a policy?", True),
    ],
)
def test_dangling_reference(question, rejected):
    outcome = DanglingReferenceFilter().apply([cg.EvalItem(id="a", question=question)])
    assert bool(outcome.rejected) is rejected


# --- UnresolvedEvidenceFilter -------------------------------------------------------------


def test_unresolved_stands_down_until_something_is_resolved():
    anchored = with_anchor("a", "How much leave do employees accrue?")
    outcome = UnresolvedEvidenceFilter().apply([anchored])
    assert outcome.rejected == () and outcome.note and "stood down" in outcome.note


def test_unresolved_rejects_only_anchored_items_without_gold():
    resolved = with_anchor("a", "How much leave?").resolved_with((cg.GoldSpan(cg.Span("handbook.pdf", 0, 10)),))
    unresolved = with_anchor("b", "How much leave again?")
    no_evidence = cg.EvalItem(id="c", question="What is unknown here?")
    outcome = UnresolvedEvidenceFilter().apply([resolved, unresolved, no_evidence])
    assert [r.item_id for r in outcome.rejected] == ["b"]
    assert [i.id for i in outcome.kept] == ["a", "c"]
    # what the item shows (no span), not a lookup in a corpus that may never have been made
    assert outcome.rejected[0].reason.startswith("its quote has no place located in a document (a gold span)")
    assert "was not located in the corpus" not in outcome.rejected[0].reason


# --- DuplicateFilter -------------------------------------------------------------------------


def test_duplicate_filter_is_order_dependent_and_names_the_kept_item():
    a = cg.EvalItem(id="a", question="one two three four five")
    b = cg.EvalItem(id="b", question="one two three four five six")  # 5/6 with a
    c = cg.EvalItem(id="c", question="one two three four five six seven")  # 6/7 with b, 5/7 with a
    outcome = DuplicateFilter().apply([a, b, c])
    assert [i.id for i in outcome.kept] == ["a", "c"]  # c stays: b, its near-copy, was dropped
    assert outcome.rejected[0].item_id == "b" and outcome.rejected[0].related_ids == ("a",)
    assert "'a'" in outcome.rejected[0].reason
    reversed_outcome = DuplicateFilter().apply([c, b, a])
    assert [i.id for i in reversed_outcome.kept] == ["c", "a"]


def test_duplicate_pairs_and_clusters_do_not_depend_on_order():
    a = cg.EvalItem(id="a", question="one two three four five")
    b = cg.EvalItem(id="b", question="one two three four five six")
    c = cg.EvalItem(id="c", question="one two three four five six seven")
    d = cg.EvalItem(id="d", question="something else entirely")
    forward = {frozenset((p.first, p.second)) for p in duplicate_pairs([a, b, c, d])}
    backward = {frozenset((p.first, p.second)) for p in duplicate_pairs([d, c, b, a])}
    assert forward == backward == {frozenset("ab"), frozenset("bc")}
    assert duplicate_clusters([a, b, c, d]) == [("a", "b", "c")]
    assert duplicate_clusters([d, c, b, a]) == [("c", "b", "a")]
    assert duplicate_pairs([a, b])[0].similarity == pytest.approx(5 / 6)


def test_duplicate_threshold_edges():
    a = cg.EvalItem(id="a", question="w1 w2 w3 w4")
    b = cg.EvalItem(id="b", question="w1 w2 w3 w4 w5")  # exactly 0.8
    assert [r.item_id for r in DuplicateFilter().apply([a, b]).rejected] == ["b"]
    assert DuplicateFilter(threshold=0.81).apply([a, b]).rejected == ()
    assert [r.item_id for r in DuplicateFilter(threshold=1.0).apply([a, a.replace(id="c")]).rejected] == ["c"]
    with pytest.raises(ValueError):
        DuplicateFilter(threshold=0)


def test_duplicate_ignores_case_and_punctuation():
    a = cg.EvalItem(id="a", question="How much LEAVE per month?")
    b = cg.EvalItem(id="b", question="how much leave per month")
    assert [r.item_id for r in DuplicateFilter().apply([a, b]).rejected] == ["b"]


def sequential_oracle(items, threshold):
    """The documented rule, by brute force: compare each question with every question kept so far."""
    kept, dropped = [], []
    for item in items:
        words = word_set(item.question)
        match = next(
            (
                k
                for k in kept
                if (
                    len(words & word_set(k.question)) / len(words | word_set(k.question))
                    if words | word_set(k.question)
                    else 1.0
                )
                >= threshold
            ),
            None,
        )
        if match is None:
            kept.append(item)
        else:
            dropped.append((item.id, match.id))
    return [k.id for k in kept], dropped


@settings(max_examples=120, deadline=None)
@given(
    questions=st.lists(st.lists(st.sampled_from("ab cd ef gh ij kl mn".split()), max_size=6), min_size=1, max_size=30),
    threshold=st.sampled_from([0.5, 0.6, 0.8, 1.0]),
)
def test_duplicate_filter_matches_the_brute_force_sequential_rule(questions, threshold):
    items = [cg.EvalItem(id=f"q{k}", question=" ".join(words) + " ?") for k, words in enumerate(questions)]
    outcome = DuplicateFilter(threshold=threshold).apply(items)
    kept_ids, dropped = sequential_oracle(items, threshold)
    assert [i.id for i in outcome.kept] == kept_ids
    assert [(r.item_id, r.related_ids[0]) for r in outcome.rejected] == dropped


# --- NonDiscriminatingFilter and GeneralKnowledgeFilter ------------------------------------


def test_non_discriminating():
    items = [cg.EvalItem(id=i, question="What is the leave policy?") for i in "abcd"]
    assert NonDiscriminatingFilter().apply(items).rejected == ()
    assert NonDiscriminatingFilter().skip_reason()
    outcome = NonDiscriminatingFilter(baseline_scores={"a": 1.0, "b": 0.99, "c": 0.2}).apply(items)
    assert [r.item_id for r in outcome.rejected] == ["a"]
    outcome = NonDiscriminatingFilter(baseline_scores={"a": 1.0, "b": 0.99}, threshold=0.9).apply(items)
    assert [r.item_id for r in outcome.rejected] == ["a", "b"]


def test_general_knowledge_edges():
    items = [
        cg.EvalItem(id="a", question="What is the capital of France?", answer="Paris"),
        cg.EvalItem(id="b", question="What colour is the sky?"),  # no answer: not asked
        cg.EvalItem(id="c", question="Who wrote the policy?", answer="The HR team"),
    ]
    assert GeneralKnowledgeFilter().apply(items).rejected == ()
    llm = cg.RecordingLLM(replies=["It is Paris.", "no idea"])
    outcome = GeneralKnowledgeFilter(answerer=answerer_from(llm)).apply(items)
    assert len(llm.prompts) == 2  # b was never asked
    # "it is paris" vs "paris": 1/3 < 0.6, so kept; the HR team is not guessed either
    assert outcome.rejected == ()
    assert outcome.note and "1 of 3" in outcome.note
    llm = cg.RecordingLLM(replies=["Paris", "The HR team."])
    outcome = GeneralKnowledgeFilter(answerer=answerer_from(llm)).apply(items)
    assert [r.item_id for r in outcome.rejected] == ["a", "c"]


# --- the chain ---------------------------------------------------------------------------------


def test_chain_feeds_survivors_forward_and_warns():
    items = [
        cg.EvalItem(id=f"q{k}", question=f"What does clause {k} say about topic{k} and area{k}?") for k in range(40)
    ]
    result = FilterChain([ShortQuestionFilter(), DuplicateFilter()]).run(items)
    assert result.kept_count == 40 and result.rejected_count == 0
    assert result.warnings.cautions == []
    result = FilterChain([ShortQuestionFilter(min_words=20)]).run(items)
    cautions = [c.message for c in result.warnings.cautions]
    assert any("40 of 40" in c for c in cautions) and any("only 0 questions are left" in c for c in cautions)


def test_chain_accepts_an_empty_set():
    result = cg.default_filters().run(cg.EvalSet(id="empty", items=()))
    assert (result.kept_count, result.rejected_count) == (0, 0)


def test_duplicate_filter_scales_without_all_pairs():
    rng = random.Random(3)
    vocab = [f"w{k}" for k in range(400)]
    items = [cg.EvalItem(id=f"q{k}", question=" ".join(rng.sample(vocab, 10))) for k in range(3000)]
    items.append(items[5].replace(id="copy"))
    outcome = DuplicateFilter().apply(items)
    assert [r.item_id for r in outcome.rejected] == ["copy"]
    assert not any(  # and brute force agrees that no other pair reaches 0.8 in a sample
        len(word_set(x.question) & word_set(y.question)) / len(word_set(x.question) | word_set(y.question)) >= 0.8
        for x, y in combinations(items[:300], 2)
    )


def _reference_verdict(answer: str | None, reply: str, threshold: float) -> tuple[bool, bool]:
    """(checked, rejected) by the filter's definition: word overlap of reply and answer, answer words needed."""
    if answer is None or not word_set(answer):
        return False, False
    expected, words = word_set(answer), word_set(reply)
    shared = len(words & expected)
    return True, shared / (len(words) + len(expected) - shared) >= threshold


_verdict_text = st.one_of(
    st.text(alphabet=st.sampled_from("ab AB_9?.-é漢K"), max_size=12), st.text(max_size=12), st.none()
)


@settings(max_examples=400, deadline=None)
@given(
    _verdict_text,
    st.text(alphabet=st.sampled_from("ab AB_9?.-é漢K"), max_size=12),
    st.sampled_from([0.0, 0.3, 0.6, 1.0]),
)
def test_general_knowledge_verdict_matches_its_definition(answer: str | None, reply: str, threshold: float) -> None:
    # The verdict skips the answer's words when the reply shares none with it; it must agree with the full rule,
    # and must not ask the model about an answer without words.
    asked: list[str] = []

    def answerer(question: str) -> str:
        asked.append(question)
        return reply

    flt = GeneralKnowledgeFilter(answerer=answerer, threshold=threshold)
    checked, reason = flt.verdict(cg.EvalItem(id="a", question="What is it?", answer=answer))
    assert (checked, reason is not None) == _reference_verdict(answer, reply, threshold)
    assert len(asked) == int(checked)


# ---- the wording filters' shortcuts give what their plain definitions give ----


def _reference_dangling_pronoun(question: str) -> str | None:
    """dangling_pronoun written plainly, as it was: every word found first, no set looked at before."""
    import re

    tokens = re.findall(r"[^\W\d_][\w'’-]*", question)
    for position, token in enumerate(tokens):
        lower = token.lower()
        if lower in _PRONOUN_WORDS:
            return token
        if lower in ("the", "a", "an"):
            if position + 1 < len(tokens):
                return None
        elif position > 0 and token[0].isupper():
            return None
    return None


_PRONOUN_WORDS = frozenset(
    "it its itself they them their theirs themselves this that these those he him his himself she her hers herself".split()
)


def _reference_word_count(text: str, stop_at: int) -> int:
    """word_count written plainly: the whitespace-separated pieces with a word character (or a mark) in them."""
    import re

    from reviewtui.evalset.text.words import _MARKS

    return min(stop_at, sum(1 for piece in text.split() if re.search(rf"[\w{_MARKS}]", piece)))


def _same_as_the_references(questions) -> tuple[int, int]:
    """Asserts dangling-reference and too-short answer as their plain definitions; how many each flagged."""
    from types import SimpleNamespace

    from reviewtui.evalset.checks.filters import dangling_pronoun
    from reviewtui.evalset.text.words import letter_runs, word_count

    short = ShortQuestionFilter()
    dangling = too_short = 0
    for question in questions:
        expected = _reference_dangling_pronoun(question)
        assert dangling_pronoun(question) == expected, repr(question)
        assert dangling_pronoun(question, frozenset(letter_runs(question))) == expected, repr(question)
        dangling += expected is not None
        for stop_at in (1, 3, short.min_words):
            assert word_count(question, stop_at=stop_at) == _reference_word_count(question, stop_at), (question, stop_at)
        count = _reference_word_count(question, short.min_words)
        reason = short.check(SimpleNamespace(question=question))
        assert reason == (None if count >= short.min_words else f"{count} {'word' if count == 1 else 'words'}, under the minimum of {short.min_words}: too little to retrieve on")
        too_short += reason is not None
    return dangling, too_short


@settings(max_examples=1000, deadline=None)
@given(st.one_of(_TEXTS, st.text(max_size=60)))
def test_the_wording_filters_answer_as_their_plain_definitions_on_any_question(question):
    _same_as_the_references([question])


def test_the_wording_filters_answer_as_their_plain_definitions_on_many_made_up_and_all_real_questions(realdata):
    made_up = random_texts(17, 40_000)
    assert min(_same_as_the_references(made_up)) > 1000
    real = real_texts(realdata)
    assert len(real) > 5000 and _same_as_the_references(real)[0] > 10
