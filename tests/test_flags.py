"""Per-item flags: every filter on every item, audit findings, type hints, severities, progress and stopping."""

from __future__ import annotations

import random
import warnings

import pytest

import reviewtui as cg
from reviewtui.evalset.checks.llm import answerer_from
from reviewtui.evalset.checks.scan import SEVERITY, FlagScan, item_flags, scan_flags, set_cautions
from reviewtui.evalset.jobs.cancel import ScanCancelled
from reviewtui.evalset.model.flag import Flag, Severity
from tests.handbook import handbook_quiz, with_anchor


def checks(flags):
    return [f.check for f in flags]


@pytest.fixture
def handbook():
    return handbook_quiz()


def test_every_filter_checks_every_item(handbook):
    flags = item_flags(handbook)
    # the chain stops q3 at too-short; the flags still show the dangling pronoun
    assert {"too-short", "dangling-reference", "ambiguous-question"} <= set(checks(flags["q3"]))
    assert next(f for f in flags["q3"] if f.check == "too-short").severity is Severity.MEDIUM


def test_duplicates_name_each_other(handbook):
    flags = item_flags(handbook)
    (q1,) = [f for f in flags["q1"] if f.check == "exact-duplicate"]
    (q2,) = [f for f in flags["q2"] if f.check == "exact-duplicate"]
    assert q1.related_ids == ("q2",) and q2.related_ids == ("q1",)
    assert "drops this one and keeps 'q1'" in q2.reason and "keeps this one" in q1.reason


@pytest.mark.parametrize("profile", ["review", "goldensetauditor"])
def test_the_first_copy_of_a_repeated_question_is_the_one_kept(profile):
    """The review profile warns on the copies after the first and gives the first, which the duplicate filter
    keeps, a hint: a reviewer following the warnings rejects the repeats, not the question."""
    items = tuple(
        with_anchor(f"c{k}", "How many days of annual leave does a new employee get?", answer="25 days") for k in range(3)
    )
    other = with_anchor("o", "Who approves a request for unpaid leave?", answer="The line manager")
    scan = scan_flags(cg.EvalSet(id="s", items=(other, *items)), profile=profile)

    def copy_flag(item_id: str) -> Flag:
        (flag,) = [f for f in scan.for_item(item_id) if f.check == "exact-duplicate"]
        return flag

    first, later = copy_flag("c0"), [copy_flag("c1"), copy_flag("c2")]
    assert all(f.severity >= Severity.MEDIUM for f in later)
    assert all("drops this one and keeps 'c0'" in f.reason for f in later)
    assert "keeps this one" in first.reason and first.related_ids == ("c1", "c2")
    if profile == "review":
        assert first.severity is Severity.HINT
        assert "c0" not in scan.flagged(Severity.LOW) and {"c1", "c2"} <= set(scan.flagged(Severity.MEDIUM))
    else:  # goldensetauditor's terms: every copy is one of the duplicates it reports
        assert first.severity is later[0].severity
    assert scan.counts["exact-duplicate"] == 3  # every copy is counted as flagged, hint or not


def test_the_first_of_two_paraphrases_with_one_answer_is_the_one_kept():
    first = with_anchor("p1", "How many days of annual leave does a new employee get each year?", answer="25 days")
    later = with_anchor("p2", "How many days of annual leave does a new employee receive each year?", answer="25 days")
    scan = scan_flags(cg.EvalSet(id="s", items=(first, later)))
    (kept,) = [f for f in scan.for_item("p1") if f.check == "near-duplicate"]
    (dropped,) = [f for f in scan.for_item("p2") if f.check == "near-duplicate"]
    assert dropped.severity is Severity.MEDIUM and "drops this one and keeps 'p1'" in dropped.reason
    assert kept.severity is Severity.HINT and "keeps this one" in kept.reason
    gsa = scan_flags(cg.EvalSet(id="s", items=(first, later)), profile="goldensetauditor")
    assert all(f.severity > Severity.HINT for item in ("p1", "p2") for f in gsa.for_item(item) if f.check == "near-duplicate")


@pytest.mark.parametrize("reverse", [False, True])
def test_of_two_paraphrases_the_filter_keeps_both_of_only_the_later_is_warned(reverse):
    """PrivacyQA's lb95 and lb103: close in content words, under the duplicate filter's word threshold, so the
    filter keeps both; both were warned, and a reviewer following the warnings dropped the question twice."""
    texts = (
        'Consider the "Wordscapes" privacy policy; does this app track my gps location?',
        'Consider the "Wordscapes" privacy policy; does the app that is on it track my location?',
    )
    if reverse:
        texts = texts[::-1]
    quote = "The app records your GPS position while it runs."
    items = tuple(with_anchor(f"p{k + 1}", text, quote, answer="GPS position") for k, text in enumerate(texts))
    scan = scan_flags(cg.EvalSet(id="s", items=items))
    (first,) = [f for f in scan.for_item("p1") if f.check == "near-duplicate"]
    (later,) = [f for f in scan.for_item("p2") if f.check == "near-duplicate"]
    assert "drops this one" not in later.reason  # the filter does not pair them
    assert first.severity is Severity.HINT and later.severity is Severity.MEDIUM
    assert "p1" not in scan.flagged(Severity.LOW) and "p2" in scan.flagged(Severity.LOW)
    gsa = scan_flags(cg.EvalSet(id="s", items=items), profile="goldensetauditor")
    assert all(f.severity > Severity.HINT for item in ("p1", "p2") for f in gsa.for_item(item) if f.check == "near-duplicate")


@pytest.mark.parametrize("workers", [1, 2])
def test_two_paraphrases_each_repeated_stay_warned_about_each_other(workers):
    """Each paraphrase is the first of its own exact copies; the filter keeps both, so their flag about each
    other names an item it keeps, and stays a warning: only the flags about an item's own later copies are hints."""
    k1 = "What is the annual leave allowance for new employees?"
    k2 = "What's the annual leave allowance given to new employees?"
    items = tuple(
        with_anchor(item_id, question, answer="25 days") for item_id, question in (("k1", k1), ("l1", k1), ("k2", k2), ("l2", k2))
    )
    scan = scan_flags(cg.EvalSet(id="s", items=items), workers=workers)
    for kept in ("k1", "k2"):
        about_copy = [f for f in scan.for_item(kept) if f.check == "exact-duplicate"]
        assert about_copy and all(f.severity is Severity.HINT for f in about_copy)
        assert any(f.severity >= Severity.LOW for f in scan.for_item(kept) if f.check == "near-duplicate"), kept


def test_a_first_copy_with_more_copies_than_a_flag_names_keeps_its_warning():
    """A near-duplicate flag names at most PARTNERS_SHOWN items: past them may be a paraphrase the filter keeps
    too, so a first copy with that many later copies keeps the warning rather than guess from the ones named."""
    from reviewtui.evalset.checks.findings import PARTNERS_SHOWN

    base = "what deposit is charged for borrowing the large hammer drill"
    words = "please today now again exactly currently usually normally precisely roughly typically generally".split()
    words += "overall really actually basically honestly truly simply kindly surely merely".split()

    def item_set(copies: int) -> cg.EvalSet:
        questions = [("A", base)] + [(f"A{n + 1}", f"{base} {words[n]}") for n in range(copies)]
        questions.append(("P", "the large hammer drill: when borrowing it, what deposit is charged to you"))
        items = tuple(with_anchor(i, q + "?", answer="20 pounds") for i, q in questions)
        return cg.EvalSet(id="drill", items=items)

    for copies in (PARTNERS_SHOWN - 1, PARTNERS_SHOWN):
        scan = scan_flags(item_set(copies), workers=1)
        near = [f for f in scan.for_item("A") if f.check == "near-duplicate"]
        assert near and max(f.severity for f in near) >= Severity.LOW, copies


def test_type_suggestion_is_a_hint_and_only_when_it_differs(handbook):
    flags = item_flags(handbook)
    hint = [f for f in flags["q1"] if f.check == "suggested-type"]
    assert hint and hint[0].severity is Severity.HINT and "'tabular'" in hint[0].reason
    assert flags["q1"][-1].check == "suggested-type"  # hints sort last
    agreeing = cg.EvalSet(id="s", items=(with_anchor("a", "How much leave do employees accrue per month?", qtype="tabular"),))
    assert "suggested-type" not in checks(item_flags(agreeing).get("a", []))
    custom = cg.EvalSet(id="s", items=(with_anchor("a", "How much leave do employees accrue per month?", qtype="policy"),))
    assert "suggested-type" not in checks(item_flags(custom).get("a", []))
    unanswerable = cg.EvalSet(id="s", items=(cg.EvalItem(id="a", question="What is the CEO's shoe size?", qtype="unanswerable"),))
    assert "suggested-type" not in checks(item_flags(unanswerable).get("a", []))


def test_near_duplicates_flag_both_sides_with_severity_by_shared_ground():
    items = (
        with_anchor("a", "How long does the library keep a member's personal data after the membership ends?", answer="Two years."),
        with_anchor("b", "How long does the library keep a member's personal data after the membership has ended?", answer="Two years."),
        with_anchor("c", "What is the name given to the input string of a computational problem?", quote="x y", answer="An instance."),
        with_anchor("d", "What is the name given to the input string of a computational solution?", quote="z w", answer="Unknown."),
    )
    flags = item_flags(cg.EvalSet(id="s", items=items))
    a, b = (next(f for f in flags[k] if f.check == "near-duplicate") for k in "ab")
    assert a.related_ids == ("b",) and b.related_ids == ("a",)
    # Both name each other; the warning is on the copy the duplicate filter drops, the kept one has it as a hint.
    assert b.severity is Severity.MEDIUM and a.severity is Severity.HINT and "same answer" in a.reason
    assert "drops this one and keeps 'a'" in b.reason
    c = next(f for f in flags["c"] if f.check == "near-duplicate")
    # Word overlap alone is a hint in the review profile (deliberate variants, on labelled real items);
    # goldensetauditor's profile keeps it LOW. Sharing the answer keeps MEDIUM in both.
    assert c.severity is Severity.HINT and "'problem'" in c.reason and "'solution'" in c.reason
    parity = scan_flags(cg.EvalSet(id="s", items=items), profile="goldensetauditor").flags
    assert next(f for f in parity["c"] if f.check == "near-duplicate").severity is Severity.LOW
    assert next(f for f in parity["a"] if f.check == "near-duplicate").severity is Severity.MEDIUM


def test_conflicting_answers_are_high_and_sorted_first():
    items = (
        with_anchor("a", "How many PTO days can employees carry over?", answer="Up to five unused days."),
        with_anchor("b", "How many PTO days can employees carry over?", answer="None after year end."),
    )
    flags = item_flags(cg.EvalSet(id="s", items=items))
    assert flags["a"][0].check == "conflicting-answers" and flags["a"][0].severity is Severity.HIGH
    assert flags["a"][0].related_ids == ("b",)


def test_no_evidence_in_a_set_with_evidence():
    items = (
        with_anchor("a", "How much leave do employees accrue per month?"),
        cg.EvalItem(id="b", question="What colour is the staff room painted?"),
        cg.EvalItem(id="c", question="What is the CEO's shoe size?", qtype="unanswerable"),
    )
    flags = item_flags(cg.EvalSet(id="s", items=items))
    assert "no-evidence" in checks(flags["b"])
    assert "no-evidence" not in checks(flags.get("c", []))


def test_no_evidence_only_where_items_without_it_are_not_the_most():
    """One quote added in review to a BEIR set of relevant documents only put a medium no-evidence warning on
    each of the other 49 items, every one "unlike the rest of the set"."""
    documents = {"gold_documents": [["d1", 1]]}
    bare = [cg.EvalItem(id=f"b{k}", question=f"Which river runs through town number {k}?", meta=documents) for k in range(5)]
    quoted = [with_anchor(f"a{k}", f"How much leave does employee number {k} accrue?") for k in range(5)]
    assert not any("no-evidence" in checks(f) for f in item_flags(cg.EvalSet(id="s", items=(*quoted[:1], *bare))).values())
    assert not any("no-evidence" in checks(f) for f in item_flags(cg.EvalSet(id="s", items=(*quoted[:4], *bare))).values())
    flags = item_flags(cg.EvalSet(id="s", items=(*quoted, *bare)))  # as many with evidence as without: each stands out
    assert all("no-evidence" in checks(flags[item.id]) for item in bare)
    assert not any("no-evidence" in checks(flags.get(item.id, [])) for item in quoted)


def test_no_evidence_beside_relevant_documents_says_a_retriever_can_be_scored_on_them():
    """DPR's q3 has two positive passages, none holding its answer, so no quote: the flag said no retrieval score
    could be computed for it, and that evidence should be added, though its relevant documents were right there."""
    items = (
        with_anchor("a", "How much leave do employees accrue per month?"),
        with_anchor("a2", "How much sick leave do employees accrue per year?"),
        cg.EvalItem(id="b", question="What colour is the staff room painted?", meta={"gold_documents": [["p1", 1], ["p2", 1]]}),
        cg.EvalItem(id="c", question="What colour is the staff kitchen painted?"),
    )
    flags = item_flags(cg.EvalSet(id="s", items=items))
    (judged,) = [f for f in flags["b"] if f.check == "no-evidence"]
    (bare,) = [f for f in flags["c"] if f.check == "no-evidence"]
    assert judged.severity == bare.severity
    assert "only relevant documents (meta['gold_documents'])" in judged.reason
    assert "only whole-document retrieval can be scored" in judged.reason
    assert "no retrieval score can be computed" in bare.reason and "gold_documents" not in bare.reason


def test_too_short_drops_to_low_on_keyword_query_sets_and_to_a_hint_in_the_review_profile():
    """On BEIR dbpedia a quarter of the queries ("B. F. Skinner", "laura bush") carried a LOW warning,
    every one of them wrong: short is that set's style."""
    queries = [cg.EvalItem(id=f"k{k}", question=f"term{k} definition") for k in range(5)]
    sentences = [cg.EvalItem(id=f"s{k}", question=f"What does the handbook say about topic{k} and area{k}?") for k in range(20)]
    evalset = cg.EvalSet(id="s", items=tuple(queries + sentences))
    tool = scan_flags(evalset, profile="goldensetauditor")
    # (the tool's profile also warns of each missing answer, as the tool does: the too-short flag is looked up)
    assert next(f for f in tool.for_item("k0") if f.check == "too-short").severity is Severity.LOW
    assert any("keyword-query set, so too-short flags are LOW here" in e.message for e in tool.cautions)
    review = scan_flags(evalset)
    assert review.for_item("k0")[0].severity is Severity.HINT and "keyword queries" in review.for_item("k0")[0].reason
    assert any("keyword-query set, so too-short flags are hints here" in e.message for e in review.cautions)


def test_unresolved_and_evidence_flags_merge_without_repeating():
    resolved = with_anchor("a", "How much leave do employees accrue per month?").resolved_with((cg.GoldSpan(cg.Span("handbook.pdf", 0, 10)),))
    unresolved = with_anchor("b", "Who approves unpaid leave for part-time staff?")
    evalset = cg.EvalSet(id="s", items=(resolved, unresolved))
    plain = item_flags(evalset)
    assert next(f for f in plain["b"] if f.check == "unresolved-evidence").severity is Severity.HIGH
    evidence = {"b": [Flag("evidence-not-found", Severity.HIGH, "quote not found in handbook.pdf")]}
    merged = item_flags(evalset, evidence_flags=evidence)
    assert "unresolved-evidence" not in checks(merged["b"]) and merged["b"][0].check == "evidence-not-found"


def test_model_and_baseline_flags():
    items = (
        cg.EvalItem(id="a", question="What is the capital of France?", answer="Paris"),
        cg.EvalItem(id="b", question="Which form starts a leave request?", answer="Form L-7"),
    )
    llm = cg.RecordingLLM(replies=["Paris", "no idea"])
    scan = scan_flags(cg.EvalSet(id="s", items=items), answerer=answerer_from(llm), baseline_scores={"b": 1.0})
    assert "general-knowledge" in checks(scan.for_item("a"))
    assert "non-discriminating" in checks(scan.for_item("b"))
    assert len(llm.prompts) == 2  # each question asked once, although the chain ran too
    assert scan.chain.by_filter() == {"non-discriminating": 1, "general-knowledge": 1}


def random_set(seed: int) -> cg.EvalSet:
    rng = random.Random(seed)
    vocab = "leave policy month it this they the a of what how office remote claim limit laptop desk".split()
    items = []
    for k in range(rng.randint(1, 80)):
        if items and rng.random() < 0.2:
            base = rng.choice(items)
            words = base.question.split()
            words[rng.randrange(len(words))] = rng.choice(vocab)
            question = " ".join(words)
        else:
            question = " ".join(rng.choices(vocab, k=rng.randint(1, 9))) + "?"
        gold = (cg.GoldSpan(cg.Span("h.pdf", 0, 5)),) if rng.random() < 0.3 else ()
        items.append(
            cg.EvalItem(
                id=f"q{k}",
                question=question,
                answer=rng.choice([None, "Paris", "the leave policy", "it depends on the office"]),
                anchors=(cg.GoldAnchor("h.pdf", "quote"),) if rng.random() < 0.8 else (),
                gold=gold,
                qtype=rng.choice([None, "factoid", "numeric"]),
            )
        )
    return cg.EvalSet(id=f"r{seed}", items=tuple(items))


def test_the_chain_result_is_built_only_when_read(monkeypatch):
    from reviewtui.evalset.checks.base import Rejection

    built = []
    real_init = Rejection.__init__

    def counting_init(self, *args, **kwargs):
        built.append(args)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(Rejection, "__init__", counting_init)
    evalset = random_set(3)
    scan = scan_flags(evalset, workers=1)
    made_by_scan = len(built)
    assert made_by_scan < scan.chain.rejected_count  # the rejections came when the chain was read
    assert scan.chain is scan.chain  # and only once


@pytest.mark.parametrize("seed", range(15))
def test_scan_reproduces_the_chain_exactly(seed):
    evalset = random_set(seed)
    rng = random.Random(seed)
    scores = {item.id: rng.choice([0.0, 0.5, 1.0]) for item in evalset}
    replies = {item.question: rng.choice(["Paris", "unknown", "the leave policy"]) for item in evalset}
    answerer = lambda q: replies[q]  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = cg.default_filters(baseline_scores=scores, answerer=answerer).run(evalset)
        scan = scan_flags(evalset, baseline_scores=scores, answerer=answerer)
    assert [i.id for i in scan.chain.kept] == [i.id for i in expected.kept]
    assert [str(r) for r in scan.chain.rejected] == [str(r) for r in expected.rejected]
    assert scan.chain.warnings.cautions == expected.warnings.cautions
    # The scan's cautions hold its chain's, in order, though the scan never built the chain's rejections.
    chain_entries = [str(entry) for entry in scan.chain.warnings]
    scan_entries = [str(entry) for entry in scan.cautions]
    assert any(scan_entries[k : k + len(chain_entries)] == chain_entries for k in range(len(scan_entries) + 1))
    # and every rejection the chain makes shows up as a flag on that item
    for rejection in expected.rejected:
        names = checks(scan.for_item(rejection.item_id))
        assert rejection.filter in names or {"exact-duplicate", "conflicting-answers"} & set(names)


def test_progress_reaches_the_total_and_only_grows():
    seen: list[tuple[int, int]] = []
    scan_flags(random_set(3), progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert len({t for _, t in seen}) == 1


def test_stop_request_raises_and_returns_nothing():
    calls = {"n": 0}

    def stop_after_three() -> bool:
        calls["n"] += 1
        return calls["n"] > 3

    with pytest.raises(ScanCancelled):
        scan_flags(random_set(4), should_stop=stop_after_three)
    with pytest.raises(ScanCancelled):
        scan_flags(random_set(4), should_stop=lambda: True)
    with pytest.raises(ScanCancelled):  # the review app's name for the same thing
        item_flags(random_set(4), cancelled=lambda: True)


def test_lookup_ordering_and_export(handbook):
    scan = scan_flags(handbook)
    assert isinstance(scan, FlagScan) and scan.for_item("missing") == []
    assert scan.worst("q3") is Severity.MEDIUM and scan.worst("missing") is None
    assert scan.flagged(Severity.MEDIUM)[0] in {"q1", "q2", "q3"}
    assert set(scan.flagged(Severity.HINT)) == {"q1", "q2", "q3"}
    exported = scan.to_dict()
    assert exported["q2"][0] == {"check": "exact-duplicate", "severity": "medium", "reason": exported["q2"][0]["reason"], "related_ids": ["q1"]}


def test_set_cautions_gather_assess_and_chain(handbook):
    log = set_cautions(handbook)
    messages = [e.message for e in log.cautions]
    assert any("0%" in m for m in messages)  # from assess
    assert any(m.startswith("general-knowledge:") for m in messages)  # from the chain
    assert any("2 of 3" in m for m in messages)


def test_every_check_has_a_severity_and_hints_stay_hints():
    assert SEVERITY["suggested-type"] is Severity.HINT
    assert SEVERITY["conflicting-answers"] is Severity.HIGH


# --- how often each flag fires on real, mostly good, questions ------------------------------


def test_false_positive_rates_stay_what_the_severities_assume(realdata):
    """Checks that fire on many real questions must not claim more than LOW."""
    from reviewtui.evalset.io import open_evalset

    sets = [p for p in sorted(realdata.glob("*/*")) if p.suffix in (".csv", ".json", ".jsonl")]
    sets += [p for p in sorted(realdata.glob("beir-agentset-leaderboard/*"))] + [realdata / "beir-scifact"]
    flagged: dict[str, int] = {}
    above_low: dict[str, int] = {}
    total = 0
    for path in sets:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                evalset = open_evalset(path)
        except cg.EvalSetError:
            continue  # not an eval set the readers accept (e.g. NQ samples)
        total += len(evalset)
        for flags in scan_flags(evalset).flags.values():
            for check in {f.check for f in flags}:
                flagged[check] = flagged.get(check, 0) + 1
            for check in {f.check for f in flags if f.severity > Severity.LOW}:
                above_low[check] = above_low.get(check, 0) + 1
    assert total > 1500
    for check, count in flagged.items():
        if count / total > 0.05:
            assert above_low.get(check, 0) / total <= 0.02, (check, count, above_low.get(check))
    medium_or_high = sum(above_low.values())
    assert medium_or_high / total < 0.1


_COUNTS_IN_A_FRESH_PROCESS = """
import json
import reviewtui as cg
from reviewtui.evalset.checks.scan import scan_flags
items = [
    cg.EvalItem(id="q1", question="Is it?", answer="yes"),
    cg.EvalItem(id="q2", question="What does the handbook say about returning tools late to the library?", answer="a fee"),
]
print(json.dumps(list(scan_flags(cg.EvalSet(id="t", items=items)).counts)))
"""


def test_flag_counts_come_in_the_same_order_whatever_the_hash_seed():
    """The counts' order is printed in the JSON report: it must not depend on how strings hash."""
    import json
    import os
    import subprocess
    import sys

    orders = set()
    for seed in ("1", "2", "3", "4"):
        done = subprocess.run(
            [sys.executable, "-c", _COUNTS_IN_A_FRESH_PROCESS],
            capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": seed},
        )
        orders.add(tuple(json.loads(done.stdout)))
    # q1 holds several checks that no earlier item has: they count in the order of its sorted flag list
    assert orders == {("too-short", "unclear-reference", "dangling-reference", "weak-answer", "ambiguous-question", "suggested-type")}


def walked_counts(scan) -> list[tuple[str, int]]:
    """The definition: walk the flagged items in set order and count each check once per item."""
    counts: dict[str, int] = {}
    for flags in scan.flags.values():
        for check in dict.fromkeys(flag.check for flag in flags):
            counts[check] = counts.get(check, 0) + 1
    return list(counts.items())


@pytest.mark.parametrize("seed", range(10))
def test_counts_are_each_check_once_per_flagged_item_in_order_of_first_appearance(seed):
    """Counts are tallied before the audit's flags arrive and patched after: the result must be the plain walk."""
    evalset = random_set(seed)
    rng = random.Random(seed)
    some = rng.sample([item.id for item in evalset], 3)
    evidence = {some[0]: [Flag("evidence-not-found", Severity.HIGH, "quote not found")] * 2,
                some[1]: [Flag("evidence-partial", Severity.MEDIUM, "quote found in part")]}
    for options in ({}, {"evidence_flags": evidence, "baseline_scores": {some[2]: 1.0}}):
        scan = scan_flags(evalset, workers=1, **options)
        assert list(scan.counts.items()) == walked_counts(scan)
        assert list(scan.flags) == [item.id for item in evalset if item.id in scan.flags]


def test_the_same_question_asked_of_other_documents_is_not_a_duplicate_or_a_conflict():
    """PrivacyQA asks one question of every privacy policy: same words, other sources, answers that may differ."""
    question = "Does the app share my location with third parties?"
    items = (
        cg.EvalItem(id="a", question=question, answer="Yes, with advertisers.", anchors=(cg.GoldAnchor("keep.txt", "We share location with advertisers."),)),
        cg.EvalItem(id="b", question=question, answer="No.", anchors=(cg.GoldAnchor("groupon.txt", "We never share your location."),)),
        cg.EvalItem(id="c", question=question, answer="No.", anchors=(cg.GoldAnchor("groupon.txt", "We never share your location."),)),
    )
    flags = scan_flags(cg.EvalSet(id="p", items=items)).flags
    # a and b/c cite different policies: no duplicate or conflict between them
    assert all(f.check not in ("conflicting-answers", "exact-duplicate") for f in flags.get("a", []))
    # b and c cite the same policy with the same question and answer: a real repeat
    assert [f.related_ids for f in flags["b"] if f.check == "exact-duplicate"] == [("c",)]


@pytest.mark.parametrize(
    ("question", "review", "tool"),
    [
        ("DUSP4 decreases apoptosis.", Severity.HINT, Severity.MEDIUM),  # a SciFact claim: whole, and short
        ("5'-nucleotidase metabolizes 6MP.", Severity.HINT, Severity.MEDIUM),
        ("Late fee rules?", Severity.MEDIUM, Severity.MEDIUM),  # a fragment asked as a question
        ("What about this?", Severity.MEDIUM, Severity.MEDIUM),
        ("tile saw rules", Severity.MEDIUM, Severity.MEDIUM),  # no full stop: a keyword query, not a claim
        ("Rules...", Severity.MEDIUM, Severity.MEDIUM),
        # counted as the language writes words: French elisions, the Arabic article on its noun
        ("Qu'est-ce qu'un cookie ?", Severity.HINT, Severity.MEDIUM),
        ("Pourquoi Böhme enfle-t-il ?", Severity.HINT, Severity.MEDIUM),
        ("من هم الدروز؟", Severity.HINT, Severity.MEDIUM),
        ("Combien d'employeurs", Severity.MEDIUM, Severity.MEDIUM),  # a fragment in any language
        # English contractions are one word each: "Who's Obama's wife?" is three words, not five
        ("Who's Obama's wife?", Severity.MEDIUM, Severity.MEDIUM),
        ("Why don't they’re?", Severity.MEDIUM, Severity.MEDIUM),
    ],
)
def test_too_short_weighs_a_short_claim_as_a_hint_in_the_review_profile_only(question, review, tool):
    items = (
        cg.EvalItem(id="short", question=question),
        *(cg.EvalItem(id=f"q{i}", question=f"Which tool number {i} may a member borrow overnight?") for i in range(30)),
    )
    evalset = cg.EvalSet(id="claims", items=items)
    weights = {}
    for profile in ("review", "goldensetauditor"):
        scan = scan_flags(evalset, workers=1, profile=profile)
        weights[profile] = [f.severity for f in scan.flags.get("short", ()) if f.check == "too-short"]
    assert weights == {"review": [review], "goldensetauditor": [tool]}


def test_the_short_answers_caution_names_the_weight_the_profile_gives_weak_answer_flags():
    """On PIAF the caution said "its flags are LOW" above flags the review profile shows as hints."""
    items = tuple(
        cg.EvalItem(id=f"q{k}", question=f"Which year did the library open branch number {k}?", answer=str(1900 + k))
        for k in range(12)
    )
    evalset = cg.EvalSet(id="years", items=items)
    said = {p: [e.message for e in scan_flags(evalset, profile=p).cautions if "short answers" in e.message] for p in ("review", "goldensetauditor")}
    assert said["review"] and said["review"][0].endswith("its flags are hints")
    assert said["goldensetauditor"] and said["goldensetauditor"][0].endswith("its flags are MEDIUM")  # as the tool weighs the finding


@pytest.mark.parametrize("profile", ["review", "goldensetauditor"])
def test_what_a_flag_says_the_documented_filter_does_is_what_it_does(profile):
    """A reason said "`filter --profile goldensetauditor` drops this one and keeps 'q1'" where the filters
    before the duplicate one remove q1 (its 'this' points at nothing), so the filter kept this one
    (SQuAD 2.0: four such items). And where that filter's figure differs from the one the reason
    shows (content words), the reason gives it, as the filter prints it."""
    from reviewtui.evalset.checks.filters import default_filters

    def of(rows):
        return cg.EvalSet(id="s", items=tuple(cg.EvalItem(id=i, question=q, answer="The finance director") for i, q in rows))

    rows = [
        ("q1", "Who signs this for the yearly travel budget report?"),
        ("q2", "Who signs for the yearly travel budget report?"),
        ("q3", "How many days of annual leave does a new employee get?"),
    ]
    evalset = of(rows)
    removed = {r.item_id: r.filter for r in default_filters().run(evalset).rejected}
    assert removed == {"q1": "dangling-reference"}  # the filter keeps q2
    q2 = next(f for f in scan_flags(evalset, profile=profile).for_item("q2") if f.check == "near-duplicate")
    assert "drops this one" not in q2.reason
    # without the pronoun, q1 stays and the duplicate filter removes q2, as its flag says
    evalset = of([("q1", "Who signs for the yearly travel budget report, please?"), *rows[1:]])
    removed = {r.item_id: r.reason for r in default_filters().run(evalset).rejected}
    assert list(removed) == ["q2"] and "(89% of words shared)" in removed["q2"]
    q2 = next(f for f in scan_flags(evalset, profile=profile).for_item("q2") if f.check == "near-duplicate")
    assert "`filter --profile goldensetauditor` drops this one and keeps 'q1'" in q2.reason
    assert "(100% of content words shared" in q2.reason  # the audit's measure, and then the filter's own
    assert q2.reason.endswith("keeps 'q1' (89% of words shared)")


def test_a_question_asked_of_another_document_says_the_documented_filter_drops_it_all_the_same():
    # PrivacyQA's lb87: "not a duplicate", while `filter --profile goldensetauditor`, which does not
    # look at documents, removes it; the flag said nothing of that.
    items = tuple(
        cg.EvalItem(id=i, question=q, anchors=(cg.GoldAnchor(source_id=d, quote="We keep data safe."),))
        for i, q, d in (
            ("p1", "Consider the Keep privacy policy; is my data safe with them?", "keep.txt"),
            ("p2", "Consider the Viber privacy policy; is my data safe with them?", "viber.txt"),
        )
    )
    flag = next(f for f in scan_flags(cg.EvalSet(id="s", items=items)).for_item("p2") if f.check == "near-duplicate")
    assert flag.severity == Severity.HINT and "not a duplicate" in flag.reason
    assert flag.reason.endswith("`filter --profile goldensetauditor` drops this one and keeps 'p1' all the same (83% of words shared)")


def test_the_documented_chain_is_followed_through_a_filter_that_stands_down_on_what_is_left():
    # Unresolved evidence stands down when nothing left has a gold span: with the one item that had
    # one removed as too short, the chain's duplicate filter removes b, and b's flag must say so.
    from reviewtui.evalset.checks.filters import default_filters
    from reviewtui.evalset.model.items import GoldSpan, Span

    quote = (cg.GoldAnchor(source_id="d1", quote="The finance director signs it."),)
    items = (
        cg.EvalItem(id="x", question="Why?", anchors=quote, gold=(GoldSpan(span=Span(doc_id="d1", start=0, end=5)),)),
        cg.EvalItem(id="a", question="Who signs for the yearly travel budget report?", anchors=quote, answer="The finance director"),
        cg.EvalItem(id="b", question="Who signs for the yearly travel budget report please?", anchors=quote, answer="The finance director"),
    )
    evalset = cg.EvalSet(id="s", items=items)
    assert {r.item_id: r.filter for r in default_filters().run(evalset).rejected} == {"x": "too-short", "b": "near-duplicate"}
    flag = next(f for f in scan_flags(evalset).for_item("b") if f.check == "near-duplicate")
    assert "`filter --profile goldensetauditor` drops this one and keeps 'a'" in flag.reason


def test_an_english_possessive_after_a_number_or_an_abbreviation_is_no_word_of_its_own():
    from reviewtui.evalset.text.words import written_words

    assert written_words("What's the 1990's best film?") == 5  # what, the, 1990, best, film
    assert written_words("What did the U.S.'s president sign?") == 7  # U and S count apart, as before
    assert written_words("Who's Obama's wife?") == 3
    assert written_words("Combien d'employeurs") == 3  # French elision stays two words


def test_a_short_question_long_enough_as_its_language_writes_it_is_told_with_its_own_script():
    # A French question was told that "three Arabic words say what four English ones do", and an Arabic one about "qu'un"
    prose = [cg.EvalItem(id=f"q{k}", question=f"What does the handbook say about topic {k} at work?", answer="x") for k in range(30)]
    short = (
        cg.EvalItem(id="fr", question="Qu'est-ce qu'un cookie ?"),
        cg.EvalItem(id="ar", question="من هم الدروز؟"),
        cg.EvalItem(id="ja", question="東京の人口はどのくらいですか？"),
    )
    scan = scan_flags(cg.EvalSet(id="s", items=(*prose, *short)))

    def note(item_id: str) -> str:
        (flag,) = [f for f in scan.for_item(item_id) if f.check == "too-short"]
        assert flag.severity == Severity.HINT
        return flag.reason

    assert "\"qu'un\"" in note("fr") and "Arabic" not in note("fr") and "it has 6: long enough" in note("fr")
    assert "Arabic writes" in note("ar") and "qu'un" not in note("ar") and "it has 4: long enough" in note("ar")
    assert "without spaces" in note("ja") and "Arabic" not in note("ja")


def test_the_review_profile_finds_nothing_over_easy_where_question_and_answer_have_no_word():
    """A question '[/]' answered '[/]' was warned "share 100 % of their content tokens" (the tool counts two empty
    sets as the same); the tool's own profile still reports it, as the tool does."""
    items = (
        cg.EvalItem(id="marks", question="[/]", answer="[/]"),
        cg.EvalItem(id="real", question="Which river flows through the old town?", answer="The river Wren"),
        cg.EvalItem(id="easy", question="Which river flows through Wrenfield?", answer="river flows through Wrenfield"),
    )
    evalset = cg.EvalSet(id="s", items=items)
    review = scan_flags(evalset)
    assert "over-easy" not in {f.check for f in review.flags.get("marks", [])}
    assert "over-easy" in {f.check for f in review.flags["easy"]}  # a real overlap is still found
    gsa = scan_flags(evalset, profile="goldensetauditor")
    assert "100%" in next(f.reason for f in gsa.flags["marks"] if f.check == "over-easy")


def test_the_review_profile_does_not_call_an_unanswerable_questions_missing_answer_weak():
    """Every unanswerable SQuAD 2.0 question carried "no expected answer, unlike other items in the set"."""
    items = (
        cg.EvalItem(id="open", question="Who designed the first lending catalogue?", answer="Mara Voss"),
        cg.EvalItem(id="none", question="Who designed the second lending catalogue?", qtype="unanswerable"),
        cg.EvalItem(id="lost", question="Who designed the third lending catalogue?"),
    )
    evalset = cg.EvalSet(id="s", items=items)
    review = scan_flags(evalset)
    assert "weak-answer" not in {f.check for f in review.flags.get("none", [])}
    assert any(f.check == "weak-answer" and "no expected answer" in f.reason for f in review.flags["lost"])
    gsa = scan_flags(evalset, profile="goldensetauditor")
    assert any(f.check == "weak-answer" and "no expected answer" in f.reason for f in gsa.flags["none"])


def test_counts_follow_the_order_a_short_claim_weighed_as_a_hint_leaves():
    # The review profile weighs a short claim's too-short flag as a hint, after the merge counted it: the
    # item's list is sorted again (its unclear reference now first), and so is the counts' order.
    items = [
        cg.EvalItem(id="s1", question="It decreases apoptosis.", answer="It does", qtype="factoid"),
        *(cg.EvalItem(id=f"q{k}", question=f"What does the policy say about case number {k} today?", answer=f"answer {k}") for k in range(30)),
    ]
    scan = scan_flags(cg.EvalSet(id="s", items=tuple(items)), workers=1)
    checks = [flag.check for flag in scan.flags["s1"]]
    assert checks.index("unclear-reference") < checks.index("too-short")
    assert list(scan.counts.items()) == walked_counts(scan)
    assert list(scan.counts)[:2] == ["unclear-reference", "too-short"]
