"""A copy's flag says what `reviewtui filter` does with it by default, and `filter --profile goldensetauditor`
only where that does otherwise; the audit's exact-duplicates finding on a BEIR query judged against other
relevant documents says the filter keeps both, not "keep one copy"."""

from __future__ import annotations

import random

import pytest

import reviewtui as cg
from reviewtui.evalset.checks.filters import default_filters
from reviewtui.evalset.checks.review_filters import review_chain
from reviewtui.evalset.checks.scan import scan_flags
from reviewtui.evalset.model.flag import Severity

DEFAULT, DOCUMENTED = "`reviewtui filter`", "`filter --profile goldensetauditor`"


def _flag(scan, item_id, check="exact-duplicate"):
    return next(f for f in scan.for_item(item_id) if f.check == check)


def test_a_plain_copy_says_the_default_filter_drops_it():
    # goldenset-aimakerspace's student-loan rows: one question copied 8 times; both filters drop the later copies
    items = tuple(
        cg.EvalItem(id=f"q{k}", question="What components make up the Cost of Attendance (COA)?", answer="Tuition, fees, room and board")
        for k in range(1, 4)
    )
    scan = scan_flags(cg.EvalSet(id="s", items=items))
    assert _flag(scan, "q2").reason.endswith(f"; {DEFAULT} drops this one and keeps 'q1'")
    assert _flag(scan, "q1").reason.endswith(f"; {DEFAULT} keeps this one")
    assert DOCUMENTED not in _flag(scan, "q3").reason  # it does the same: said once
    # the goldensetauditor profile says what that filter does, as before
    tool = scan_flags(cg.EvalSet(id="s", items=items), profile="goldensetauditor")
    assert _flag(tool, "q2").reason.endswith(f"; {DOCUMENTED} drops this one and keeps 'q1'")


def _beir(documents):
    return cg.EvalSet(
        id="scifact",
        items=tuple(
            cg.EvalItem(id=str(k), question="Adult tissue-resident macrophages stem from the yolk sac.", meta={"gold_documents": docs})
            for k, docs in enumerate(documents, start=89)
        ),
    )


def test_a_beir_query_judged_against_other_documents_is_kept_and_the_flag_and_finding_say_so():
    # SciFact train 89 and 90: the same claim, judged against other relevant documents; `reviewtui filter` keeps both
    evalset = _beir([[["7521113", 1], ["22406695", 1]], [["22406695", 1]]])
    assert not review_chain(evalset).chain.run(evalset).rejected
    scan = scan_flags(evalset)
    reason = _flag(scan, "90").reason
    assert f"{DEFAULT} keeps this one too: it is judged against other relevant documents than '89'" in reason
    assert reason.endswith(f"; {DOCUMENTED} drops it and keeps '89'")


def test_beir_queries_with_the_same_documents_are_plain_copies():
    evalset = _beir([[["22406695", 1]], [["22406695", 1]], [["1", 1]]])
    scan = scan_flags(evalset)
    assert _flag(scan, "90").reason.endswith(f"; {DEFAULT} drops this one and keeps '89'")


def test_a_copy_with_another_answer_is_kept_and_its_own_copy_goes_in_its_favour():
    q = "How many days of leave does a new employee get per year?"
    items = tuple(cg.EvalItem(id=f"q{k}", question=q, answer=a) for k, a in enumerate(["20 days", "25 days", "20 days", "25 days"], 1))
    scan = scan_flags(cg.EvalSet(id="s", items=items))
    q2 = _flag(scan, "q2", "conflicting-answers").reason
    assert f"{DEFAULT} keeps this one too: it expects another answer than 'q1'" in q2
    assert q2.endswith(f"; {DOCUMENTED} drops it and keeps 'q1'")
    assert _flag(scan, "q4").reason.endswith(f"; {DEFAULT} drops this one and keeps 'q2'; {DOCUMENTED} keeps 'q1' instead")


@pytest.mark.parametrize("seed", range(12))
def test_every_copy_flag_says_what_the_default_filter_does(seed):
    rng = random.Random(seed)
    questions = ["Who signs the yearly travel budget report?", "Who signs the yearly travel budget report", "What is the notice period for staff?"]
    items = []
    for k in range(rng.randint(4, 14)):
        anchors = ()
        if rng.random() < 0.4:
            anchors = (cg.GoldAnchor(source_id=rng.choice(["a.txt", "b.txt"]), quote="The finance director signs it."),)
        items.append(cg.EvalItem(id=f"q{k}", question=rng.choice(questions), answer=rng.choice(["The director", "The board", None]), anchors=anchors))
    evalset = cg.EvalSet(id="s", items=tuple(items))
    kept_instead = {r.item_id: r.related_ids[0] for r in review_chain(evalset).chain.run(evalset).rejected if r.related_ids}
    for workers in (1, 2):
        scan = scan_flags(evalset, workers=workers)
        for item in items:
            for flag in scan.for_item(item.id):
                if flag.check not in ("exact-duplicate", "conflicting-answers"):
                    continue
                said = flag.reason.split(f"; {DEFAULT} ", 1)[1]
                if item.id in kept_instead:
                    assert said.startswith(f"drops this one and keeps '{kept_instead[item.id]}'"), (item.id, flag.reason)
                else:
                    assert said.startswith("keeps this one"), (item.id, flag.reason)


def test_the_audit_does_not_advise_keeping_one_copy_of_queries_the_filter_keeps_apart():
    # SciFact train 89 and 90 (ARCD's q27 and q30 too): "Keep one copy" where `reviewtui filter` keeps both
    evalset = _beir([[["7521113", 1], ["22406695", 1]], [["22406695", 1]]])
    (finding,) = scan_flags(evalset).audit.of_check("exact-duplicates")
    assert "keep one copy" not in finding.recommendation.lower()
    assert f"{DEFAULT} keeps both" in finding.detail and finding.recommendation.startswith("Merge them into one query")
    # as that tool says it, in its own profile
    (finding,) = scan_flags(evalset, profile="goldensetauditor").audit.of_check("exact-duplicates")
    assert finding.recommendation.startswith("Keep one copy")
    # copies judged against the same documents as another copy: one per set of documents is kept
    evalset = _beir([[["22406695", 1]], [["22406695", 1]], [["1", 1]]])
    (finding,) = scan_flags(evalset).audit.of_check("exact-duplicates")
    assert f"{DEFAULT} keeps 2 of them, one per set of relevant documents" in finding.detail


@pytest.mark.parametrize("seed", range(12))
def test_a_near_duplicate_flag_says_when_the_default_filter_drops_the_item(seed):
    # "Who signs ...?" and "Who signs ..." with one answer: `reviewtui filter` removes the later (as near-duplicate);
    # its flag named only `filter --profile goldensetauditor`, as if the default command kept it
    rng = random.Random(seed)
    questions = ["Who signs the yearly travel budget report?", "Who signs the yearly travel budget report", "Who signs the travel budget report?"]
    items = tuple(
        cg.EvalItem(id=f"q{k}", question=rng.choice(questions), answer=rng.choice(["The director", "The board"])) for k in range(rng.randint(3, 9))
    )
    evalset = cg.EvalSet(id="s", items=items)
    kept_instead = {r.item_id: r.related_ids[0] for r in review_chain(evalset).chain.run(evalset).rejected if r.related_ids}
    for workers in (1, 2):
        scan = scan_flags(evalset, workers=workers)
        for item in items:
            for flag in scan.for_item(item.id):
                if flag.check != "near-duplicate" or flag.severity == Severity.HINT:
                    continue
                says = f"{DEFAULT} drops this one and keeps '{kept_instead.get(item.id)}'" in flag.reason
                assert says == (item.id in kept_instead), (item.id, flag.reason)
                assert f"{DEFAULT} drops" in flag.reason or item.id not in kept_instead


@pytest.mark.parametrize("question", ["What does this clause say about termination?", "Qu'est-ce qu'un cookie ?"])
def test_a_copy_the_documented_chain_removes_before_comparing_copies_is_not_said_kept_by_it(question):
    # `filter --profile goldensetauditor` removes both copies (dangling "this"; 3 words by their spaces) before its
    # near-duplicate filter: the flag said "`filter --profile goldensetauditor` keeps it" of the copy it removes
    items = tuple(cg.EvalItem(id=f"q{k}", question=question, answer="Either party may end it.") for k in (1, 2))
    evalset = cg.EvalSet(id="s", items=items)
    documented = {r.item_id: r.filter for r in default_filters().run(evalset).rejected}
    assert set(documented) == {"q1", "q2"}
    for workers in (1, 2):
        reason = _flag(scan_flags(evalset, workers=workers), "q2").reason
        assert reason.startswith("the same question as 'q1'")
        assert f"{DEFAULT} drops this one and keeps 'q1'" in reason
        assert f"{DOCUMENTED} keeps it" not in reason
        assert reason.endswith(f"; {DOCUMENTED} removes it as {documented['q2']}")


def test_a_near_copy_the_documented_chain_removes_before_comparing_copies_is_not_said_kept_by_it():
    # the same words, other punctuation, one answer: `reviewtui filter` drops the later one; the documented chain
    # removes both as dangling references before it compares copies
    questions = ["What does this clause say about termination?", "What does this clause say about termination"]
    items = tuple(cg.EvalItem(id=f"q{k}", question=q, answer="Either party may end it.") for k, q in enumerate(questions, 1))
    evalset = cg.EvalSet(id="s", items=items)
    reason = _flag(scan_flags(evalset), "q2", "near-duplicate").reason
    assert f"{DEFAULT} drops this one and keeps 'q1'" in reason
    assert f"{DOCUMENTED} keeps it" not in reason and reason.endswith(f"; {DOCUMENTED} removes it as dangling-reference")


def test_the_finding_does_not_say_the_filter_keeps_copies_its_too_short_filter_removes():
    # a BEIR set of long queries with one short query asked three times against other documents: too-short is used
    # (short queries are rare), and `reviewtui filter` removes all three; the finding said it "keeps them all"
    long = [
        cg.EvalItem(id=f"q{k}", question=f"Which cohort studies report on exposure variant {k} among older adults?", meta={"gold_documents": [[f"d{k}", 1]]})
        for k in range(40)
    ]
    short = [cg.EvalItem(id=f"c{k}", question="covid vaccine", meta={"gold_documents": [[f"e{k}", 1]]}) for k in range(3)]
    evalset = cg.EvalSet(id="beir", items=tuple(long + short))
    removed = {r.item_id: r.filter for r in review_chain(evalset).chain.run(evalset).rejected}
    assert {removed.get(f"c{k}") for k in range(3)} == {"too-short"}
    (finding,) = [f for f in scan_flags(evalset).audit.of_check("exact-duplicates") if "c1" in f.item_ids]
    assert "keeps them all" not in finding.detail
    assert finding.detail.endswith(f"{DEFAULT} removes them all as too-short before it compares copies")
