"""The seven audit checks on in-memory sets: what each finds, statuses, thresholds and the overall status."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

import reviewtui as cg
from reviewtui.evalset.checks import audit as au
from reviewtui.evalset.checks.audit import AuditConfig, Status, audit
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.text.words import content_tokens

TOPICS = ("travel", "payroll", "security", "parental leave", "expenses")


def item(id, question, answer="A full reference answer with several content words.", **extra):
    return cg.EvalItem(id=id, question=question, answer=answer, **extra)


def run(*items, **config):
    return audit(cg.EvalSet(id="s", items=items), AuditConfig(**config) if config else None)


def found(report, check):
    return [f.item_ids for f in report.of_check(check)]


def test_conflicting_answers_is_the_only_fail():
    report = run(
        item("a", "How many PTO days carry over?", "Five days carry over."),
        item("b", "  how many PTO days carry over? ", "None carry over."),
        item("c", "What is the meal limit for travel?", qtype="factoid"),
    )
    assert found(report, au.CONFLICTING) == [("a", "b")]
    finding = report.of_check(au.CONFLICTING)[0]
    assert (finding.status, finding.severity) == (Status.FAIL, Severity.HIGH)
    assert report.status is Status.FAIL and report.failed


def test_exact_duplicates_warn_when_answers_match_after_trim_and_case():
    report = run(
        item("a", "How many PTO days carry over?", "Five days."),
        item("b", "HOW MANY PTO DAYS CARRY OVER?", "  five days. "),
        item("c", "How many PTO days carry over?", "five days."),
    )
    assert found(report, au.EXACT_DUPLICATES) == [("a", "b", "c")]
    assert found(report, au.CONFLICTING) == []
    assert report.of_check(au.EXACT_DUPLICATES)[0].severity is Severity.MEDIUM


def test_missing_answers_compare_as_empty():
    report = run(item("a", "Where is the office located?", None), item("b", "Where is the office located?", None),
                 item("c", "What else is there to know?", "Plenty of content words are written here."))
    assert found(report, au.EXACT_DUPLICATES) == [("a", "b")]
    assert found(report, au.WEAK_ANSWER) == [("a",), ("b",)]


@pytest.mark.parametrize(
    ("answer", "weak"),
    [
        ("It depends.", True),  # one content token
        ("Report the laptop immediately.", True),  # report, laptop, immediately: 3
        ("Report the lost laptop immediately.", False),  # 4
        ("The the the a an it this.", True),  # only function words
        ("Five five five five.", True),  # a set: one token
    ],
)
def test_weak_answer_counts_distinct_content_tokens(answer, weak):
    report = run(item("a", "What should staff do about a lost laptop?", answer))
    assert bool(report.of_check(au.WEAK_ANSWER)) is weak


def test_weak_answer_threshold_is_configurable():
    report = run(item("a", "What should staff do?", "Report the laptop immediately."), min_expected_words=3)
    assert report.of_check(au.WEAK_ANSWER) == ()


@pytest.mark.parametrize(
    ("question", "ambiguous"),
    [
        ("What about this?", True),
        ("Is it allowed?", True),
        ("What happens there after the probation period ends for new staff members?", False),  # 7+ content tokens
        ("What is the limit and can alcohol be reimbursed?", True),  # ' and ' with a question mark
        ("What is the limit? Who approves it?", True),  # two question marks
        ("Bread and butter", False),  # ' and ' but no question mark
        ("How many days of leave accrue per month?", False),
        ("Itinerary rules for travellers?", False),  # 'it' inside a word is not the word
    ],
)
def test_ambiguous_question(question, ambiguous):
    report = run(item("a", question))
    assert bool(report.of_check(au.AMBIGUOUS)) is ambiguous
    if ambiguous:
        assert report.of_check(au.AMBIGUOUS)[0].severity is Severity.LOW


def test_over_easy():
    report = run(
        item("a", "The VPN reimbursement limit is 30 dollars", "The VPN reimbursement limit is 30 dollars."),
        item("b", "What is the VPN limit?", "The VPN reimbursement limit is 30 dollars."),
        item("c", "Is it?", None),  # no answer: not an over-easy candidate
    )
    assert found(report, au.OVER_EASY) == [("a",)]
    assert report.of_check(au.OVER_EASY)[0].evidence["token_jaccard"] == 1.0


def test_over_easy_threshold_edge():
    # question tokens {alpha, beta, gamma}, answer {alpha, beta, gamma, delta}: 3/4 = 0.75
    report = run(item("a", "alpha beta gamma", "alpha beta gamma delta"))
    assert found(report, au.OVER_EASY) == [("a",)]
    assert run(item("a", "alpha beta gamma", "alpha beta gamma delta"), overeasy_overlap_threshold=0.76).of_check(au.OVER_EASY) == ()


@pytest.mark.parametrize("every_script", [False, True])
@pytest.mark.parametrize("threshold", [0.72, 0.5, 0.75, 0.0, 1.0])
def test_over_easy_items_are_those_whose_overlap_reaches_the_threshold_whatever_their_sizes(every_script, threshold):
    # The overlap is counted only where the smaller token count over the larger could reach the threshold: on
    # questions and answers of every size, around every ratio, the items found are those the overlap itself names.
    rng = random.Random(7)
    words = [f"w{k}" for k in range(12)]
    items = []
    for k in range(600):
        asked = rng.sample(words, rng.randint(0, 8))
        others = [word for word in words if word not in asked]
        answer = rng.sample(asked, rng.randint(0, len(asked))) + rng.sample(others, rng.randint(0, 3))
        items.append(item(f"q{k}", " ".join(asked) or "?", " ".join(answer) or "."))
    report = audit(cg.EvalSet(id="s", items=tuple(items)), AuditConfig(overeasy_overlap_threshold=threshold), every_script=every_script)
    expected = []
    for it in items:
        q, a = content_tokens(it.question), content_tokens(it.answer)
        union = len(q | a)
        overlap = len(q & a) / union if union else (0.0 if every_script else 1.0)
        if overlap >= threshold:
            expected.append(((it.id,), round(overlap, 4)))
    assert [(f.item_ids, f.evidence["token_jaccard"]) for f in report.of_check(au.OVER_EASY)] == expected
    assert 20 < len(expected) < 600 or threshold in (0.0, 1.0)


def test_near_duplicates_name_pairs_and_skip_identical_questions():
    report = run(
        item("a", "Can I expense a standing desk for my home office?"),
        item("b", "Can I expense the standing desk for my home office?"),  # only a stopword differs
        item("c", "Can I expense a standing desk for my home office?"),  # identical to a: an exact duplicate instead
        item("d", "Who approves travel to conferences abroad?"),
    )
    assert sorted(found(report, au.NEAR_DUPLICATES)) == [("a", "b"), ("b", "c")]
    assert found(report, au.EXACT_DUPLICATES) == [("a", "c")]


def test_near_duplicates_with_no_content_tokens_are_marked():
    report = run(item("a", "What about this?"), item("b", "How is it?"))
    (finding,) = report.of_check(au.NEAR_DUPLICATES)
    assert finding.evidence["no_content_tokens"] is True and "identical" in finding.detail


def gsa_pairs(questions, threshold):
    """Brute force with the audit's rule: all pairs, content tokens, different normalised text."""
    tokens = [content_tokens(q) for q in questions]
    pairs = set()
    for i, j in combinations(range(len(questions)), 2):
        if questions[i].strip().lower() == questions[j].strip().lower():
            continue
        a, b = tokens[i], tokens[j]
        score = 1.0 if not a and not b else (len(a & b) / len(a | b) if a and b else 0.0)
        if score >= threshold:
            pairs.add((i, j))
    return pairs


@pytest.mark.parametrize("seed", range(5))
def test_near_duplicates_equal_brute_force_on_random_sets(seed):
    rng = random.Random(seed)
    vocab = "leave month policy office claim limit laptop desk home remote travel the it a of what how".split()
    questions = [" ".join(rng.choices(vocab, k=rng.randint(1, 7))) for _ in range(250)]
    items = [item(f"q{k}", q) for k, q in enumerate(questions)]
    report = audit(cg.EvalSet(id="s", items=tuple(items)))
    mine = {(int(a[1:]), int(b[1:])) for a, b in found(report, au.NEAR_DUPLICATES)}
    assert mine == gsa_pairs(questions, 0.82)


def test_category_coverage_from_qtype_or_meta():
    items = [item(f"q{k}", f"Question number {k} about the leave policy?", qtype="numeric" if k < 3 else "factoid", meta={"dept": "hr" if k else "it"}) for k in range(5)]
    report = run(*items)
    assert found(report, au.CATEGORY_COVERAGE) == [("q3", "q4")]
    finding = report.of_check(au.CATEGORY_COVERAGE)[0]
    assert finding.evidence == {"category": "factoid", "count": 2, "minimum": 3}
    by_meta = audit(cg.EvalSet(id="s", items=tuple(items)), category_key="dept")
    assert found(by_meta, au.CATEGORY_COVERAGE) == [("q0",)]
    assert by_meta.config.category_label == "meta['dept']"


def test_items_without_a_category_form_the_missing_group():
    items = [item("a", "What is one?", qtype="factoid")] + [item(f"q{k}", f"What is rule {k}?") for k in range(3)]
    report = run(*items)
    assert found(report, au.CATEGORY_COVERAGE) == [("a",)]
    assert report.summary["category_count"] == 2


def test_no_categories_at_all_is_insufficient_input():
    report = run(item("a", "What is the rule for remote work in summer?"))
    (finding,) = report.of_check(au.CATEGORY_COVERAGE)
    assert finding.status is Status.INSUFFICIENT_INPUT and finding.item_ids == ()
    assert report.status is Status.INSUFFICIENT_INPUT  # it is the only finding


def test_named_category_column_read_as_qtype_is_used():
    items = [item(f"q{k}", f"What is rule {k} of the travel policy?", qtype="policy") for k in range(3)]
    report = audit(cg.EvalSet(id="s", items=tuple(items)), category_key="category")
    coverage = next(c for c in report.checks if c.check == au.CATEGORY_COVERAGE)
    assert coverage.status is Status.PASS and "question type" in coverage.note


def test_set_without_answers_is_insufficient_for_answer_checks_in_the_review_profile():
    items = [cg.EvalItem(id=f"q{k}", question=f"What does the {topic} section say about approvals?", qtype="factoid") for k, topic in enumerate(TOPICS[:3])]
    report = audit(cg.EvalSet(id="s", items=tuple(items)), every_script=True)
    for check in (au.WEAK_ANSWER, au.OVER_EASY):
        (finding,) = report.of_check(check)
        assert finding.status is Status.INSUFFICIENT_INPUT
    assert report.status is Status.INSUFFICIENT_INPUT


def test_set_without_answers_warns_of_each_as_goldensetauditor_does():
    """goldensetauditor warns of every missing expected answer, in a set with none as well: its profile said
    INSUFFICIENT_INPUT where the tool says WARN."""
    items = [cg.EvalItem(id=f"q{k}", question=f"What does the {topic} section say about approvals?", qtype="factoid") for k, topic in enumerate(TOPICS[:3])]
    report = run(*items)
    assert [f.item_ids for f in report.of_check(au.WEAK_ANSWER)] == [("q0",), ("q1",), ("q2",)]
    assert all(f.status is Status.WARN and f.detail == au.NO_ANSWER_IN_SET_DETAIL for f in report.of_check(au.WEAK_ANSWER))
    assert not report.of_check(au.OVER_EASY)
    assert report.status is Status.WARN


def test_clean_set_passes_and_checks_are_all_listed():
    items = [item(f"q{k}", f"What does the {topic} policy require from managers?", qtype="factoid") for k, topic in enumerate(TOPICS[:4])]
    report = run(*items)
    assert report.findings == () and report.status is Status.PASS
    assert [c.check for c in report.checks] == list(au.CHECKS)
    assert all(c.status is Status.PASS for c in report.checks)


def test_overall_status_order():
    f = lambda status: au.Finding("x", status, None, (), "", "")  # noqa: E731
    assert au.overall_status([f(Status.WARN), f(Status.FAIL)]) is Status.FAIL
    assert au.overall_status([f(Status.INSUFFICIENT_INPUT), f(Status.WARN)]) is Status.WARN
    assert au.overall_status([f(Status.INSUFFICIENT_INPUT)]) is Status.INSUFFICIENT_INPUT
    assert au.overall_status([]) is Status.PASS


def test_report_dict_and_by_item():
    report = run(item("a", "What about this?", "It depends."), item("b", "What about this?", "No."))
    data = report.to_dict()
    assert data["status"] == "FAIL" and data["summary"]["fail_count"] == 1
    assert {f["check"] for f in data["findings"]} >= {au.CONFLICTING, au.WEAK_ANSWER, au.AMBIGUOUS}
    assert [f.check for f in report.by_item()["a"]][:1] == [au.CONFLICTING]


def test_progress_and_stop():
    from reviewtui.evalset.jobs.cancel import ScanCancelled

    seen = []
    items = tuple(item(f"q{k}", f"What is rule {k}?") for k in range(10))
    audit(cg.EvalSet(id="s", items=items), progress=lambda d, t: seen.append((d, t)))
    assert seen[-1][0] == seen[-1][1] and [d for d, _ in seen] == sorted(d for d, _ in seen)
    with pytest.raises(ScanCancelled):
        audit(cg.EvalSet(id="s", items=items), should_stop=lambda: True)
