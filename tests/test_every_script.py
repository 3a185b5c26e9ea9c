"""The review profile's checks read questions in any script; the tool's own profile reads ASCII, as the tool does."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.checks.audit import audit
from reviewtui.evalset.checks.scan import scan_flags


def _set(questions: list[str]) -> cg.EvalSet:
    return cg.EvalSet(
        id="langs", items=tuple(cg.EvalItem(id=f"q{k}", question=q, answer=f"a{k}") for k, q in enumerate(questions))
    )


QUESTIONS = [
    "ما هي عاصمة مصر العربية؟",
    "ما هي عاصمة مصر العربية ؟؟",  # the same words, other punctuation: a near-duplicate
    "من كتب رواية الثلاثية؟",
    "كم عدد سكان القاهرة؟",
    "日本の首都はどこですか",
    "日本の首都はどこですか。",  # the same question, a full stop added
    "富士山の高さは何メートルですか",
    "Quelle est la capitale de la France métropolitaine ?",
    "Quelle est la capitale de la France métropolitaine?",
    "Qui a écrit Les Misérables ?",
]


def _near(scan) -> set[frozenset[str]]:
    return {frozenset(f.item_ids) for f in scan.audit.of_check("near-duplicates")}


def test_the_review_profile_finds_real_near_duplicates_in_other_scripts_and_nothing_else():
    scan = scan_flags(_set(QUESTIONS))
    assert _near(scan) == {frozenset({"q0", "q1"}), frozenset({"q4", "q5"}), frozenset({"q7", "q8"})}
    flagged = {item_id for item_id, flags in scan.flags.items() if any(f.check == "near-duplicate" for f in flags)}
    assert flagged == {"q0", "q1", "q4", "q5", "q7", "q8"}
    assert not any("no ASCII content word" in entry.message for entry in scan.cautions)


def test_the_tools_profile_counts_tokenless_questions_as_one_as_the_tool_does():
    scan = scan_flags(_set(QUESTIONS), profile="goldensetauditor")
    pairs = _near(scan)
    # Seven questions with no ASCII token at all (Arabic and Japanese) are all "identical" to each other.
    assert frozenset({"q2", "q6"}) in pairs and len(pairs) >= 21
    assert any("no ASCII content word" in entry.message for entry in scan.cautions)


def test_the_documented_audit_keeps_the_tools_reading_unless_asked():
    evalset = _set(QUESTIONS)
    assert len(audit(evalset).of_check("near-duplicates")) == len(
        scan_flags(evalset, profile="goldensetauditor").audit.of_check("near-duplicates")
    )
    assert {frozenset(f.item_ids) for f in audit(evalset, every_script=True).of_check("near-duplicates")} == _near(
        scan_flags(evalset)
    )


def test_questions_without_any_word_are_not_paired_in_the_review_profile():
    scan = scan_flags(_set(["???", "!!!", "…", "What is the capital of France?"]))
    assert not scan.audit.of_check("near-duplicates")
    assert any("no word the audit's overlap checks can compare" in entry.message for entry in scan.cautions)


def test_one_core_and_two_read_other_scripts_alike():
    import random

    rng = random.Random(3)
    words = ["عاصمة", "مصر", "رواية", "القاهرة", "日本", "首都", "富士山", "capitale", "métropolitaine", "écrit", "Misérables"]
    questions = [" ".join(rng.choices(words, k=rng.randint(3, 6))) + "?" for _ in range(2500)]
    evalset = _set(questions)
    one, two = scan_flags(evalset, workers=1), scan_flags(evalset, workers=2)
    assert _near(one) == _near(two) and _near(one)
    assert dict(one.flags) == dict(two.flags)


def test_in_the_tools_profile_a_word_overlap_still_describes_questions_it_cannot_read():
    """The audit pairs two Arabic questions only as tokenless; the filter measured their words: that says more."""
    scan = scan_flags(_set(QUESTIONS[:3] + ["Who wrote the trilogy novel?"]), profile="goldensetauditor")
    (flag,) = [f for f in scan.for_item("q1") if f.check == "near-duplicate"]
    assert flag.reason.startswith("nearly the same question as 'q0' (100% of words shared")
    assert "`filter --profile goldensetauditor` drops this one and keeps 'q0'" in flag.reason


def test_an_answer_in_another_script_is_read_as_its_question_is():
    """The weak-answer hint said an Arabic answer of three words had 0 content words: answers were read
    as ASCII while questions were read in every script. The goldensetauditor profile reads ASCII only,
    as that tool does."""
    import reviewtui as cg
    from reviewtui.evalset.checks.scan import scan_flags

    items = tuple(
        cg.EvalItem(id=f"q{k}", question=f"ما هي مدة الإجازة السنوية رقم {k}؟", answer="إجازة سنوية مدفوعة") for k in range(3)
    )
    reasons = {
        profile: [f.reason for f in scan_flags(cg.EvalSet(id="a", items=items), profile=profile).flags["q0"] if f.check == "weak-answer"]
        for profile in ("review", "goldensetauditor")
    }
    assert reasons["review"] and "has 3 content words" in reasons["review"][0]
    assert reasons["goldensetauditor"] and "has 0 content words" in reasons["goldensetauditor"][0]
