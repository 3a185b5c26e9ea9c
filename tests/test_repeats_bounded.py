"""A question repeated many times costs a pass over its copies, never a comparison of every pair.

Exact duplicates and conflicting answers name at most PARTNERS_SHOWN partners per item and count
the rest; the same question asked of other documents is still not a repeat. The audit's list of
near-duplicate pairs never enumerates pairs of identical questions.
"""

from __future__ import annotations

import random

import pytest

from reviewtui.evalset.checks.findings import asked_of_other_documents
from reviewtui.evalset.checks.repeats import PARTNERS_SHOWN, Repeats
from reviewtui.evalset.checks.scan import scan_flags
from reviewtui.evalset.checks.simgroups import similar_groups
from reviewtui.evalset.model.items import EvalItem, EvalSet

QUOTE = "The tower was built in 1889 by the company of Gustave Eiffel for the fair."


def copies(n: int, answer=lambda k: "1889", source=lambda k: "d") -> list[EvalItem]:
    items = []
    for k in range(n):
        data = {"id": f"q{k}", "question": "When was the tower built by Eiffel?", "answer": answer(k)}
        doc = source(k)
        if doc is not None:
            data["anchors"] = [{"source_id": doc, "quote": QUOTE}]
        items.append(EvalItem.model_validate(data))
    return items


@pytest.mark.parametrize("profile", ["review", "goldensetauditor"])
def test_many_copies_name_twenty_and_count_the_rest(profile):
    n = 3_000
    scan = scan_flags(EvalSet(id="s", items=tuple(copies(n))), profile=profile)
    flag = next(f for f in scan.for_item("q5") if f.check == "exact-duplicate")
    assert len(flag.related_ids) == PARTNERS_SHOWN
    assert flag.related_ids == tuple(f"q{k}" for k in range(PARTNERS_SHOWN + 1) if k != 5)
    assert f"and {n - 1 - 4:,} more" in flag.reason and f"counted {n:,} times" in flag.reason
    assert scan.counts["exact-duplicate"] == n


def test_a_conflict_among_many_copies_is_still_found():
    n = 2_000
    items = copies(n, answer=lambda k: "1890" if k == n - 1 else "1889")
    scan = scan_flags(EvalSet(id="s", items=tuple(items)))
    first = {f.check for f in scan.for_item("q0")}
    assert "conflicting-answers" in first


def reference(items: list[EvalItem], k: int) -> tuple[tuple[str, ...], int, bool]:
    """The pairwise rule the class-based one replaces: every other item not asked of other documents."""
    mine = items[k]
    others = [o for o in items if o is not mine and not asked_of_other_documents(mine, o)]

    def answer(item: EvalItem) -> str | None:
        return None if item.answer is None else item.answer.strip().lower()

    differ = any(answer(o) != answer(mine) for o in others)
    return tuple(o.id for o in others[:PARTNERS_SHOWN]), len(others), differ


@pytest.mark.parametrize("seed", range(40))
def test_partners_by_class_are_the_pairwise_rule(seed):
    rng = random.Random(seed)
    n = rng.randrange(2, 60)
    documents = ["a", "b", "c", "d"]
    items = []
    for k in range(n):
        cited = rng.sample(documents, rng.choice([0, 1, 1, 1, 2]))
        data = {"id": f"i{k}", "question": "Same?", "answer": rng.choice(["x", "X ", "y", None])}
        if cited:
            data["anchors"] = [{"source_id": d, "quote": f"quote {d}"} for d in cited]
        items.append(EvalItem.model_validate(data))
    repeats = Repeats(items, [item.id for item in items])
    for k in range(n):
        assert repeats.partners(k) == reference(items, k), k


def test_one_question_per_document_is_no_repeat_at_any_size():
    items = copies(2_000, source=lambda k: f"policy-{k}")
    scan = scan_flags(EvalSet(id="s", items=tuple(items)))
    assert not any(f.check in ("exact-duplicate", "conflicting-answers") for found in scan.flags.values() for f in found)


@pytest.mark.parametrize("seed", range(20))
def test_pairs_apart_is_pairs_without_equal_forms(seed):
    rng = random.Random(seed)
    vocabulary = "a b c d e f".split()
    sets = [frozenset(rng.sample(vocabulary, rng.randrange(0, 4))) for _ in range(rng.randrange(2, 50))]
    forms = [(" ".join(sorted(s)), rng.randrange(2)) for s in sets]  # equal sets may still differ in form
    groups = similar_groups(sets, 0.5)
    expected = [(i, j) for i, j in groups.pairs() if forms[i] != forms[j]]
    assert groups.pairs_apart(forms) == expected
    assert expected == sorted(expected)


def test_pairs_apart_lists_no_pair_of_one_form():
    sets = [frozenset({"tower", "built"})] * 5_000
    groups = similar_groups(sets, 0.8)
    assert groups.pair_count() == 5_000 * 4_999 // 2
    assert groups.pairs_apart(["same"] * 5_000) == []


def test_a_flag_many_items_share_is_one_object_after_reweighing():
    # Weak answers on most items of a large set: the review profile reweighs them to hints, and
    # each distinct flag stays one object, so memory and the report's dicts follow distinct flags.
    items = [EvalItem(id=f"w{k}", question=f"Which lantern number {k} glows brightest?", answer="Red") for k in range(50)]
    scan = scan_flags(EvalSet(id="s", items=tuple(items)))
    weak = [next(f for f in scan.for_item(f"w{k}") if f.check == "weak-answer") for k in range(50)]
    assert all(flag.severity.name == "HINT" for flag in weak)
    assert len({id(flag) for flag in weak}) == 1


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 7])
def test_report_pieces_are_laid_out_as_one_indented_document_at_any_batch_size(n):
    import json

    from reviewtui.evalset.checks.report import _array_member, _object_body

    elements = [{"check": "x", "ids": [f"q{k}", "é"], "empty": [], "none": {}, "text": "a\nb"} for k in range(n)]
    members = [(f"id-{k}\"", [{"check": "y", "related_ids": []}]) for k in range(n)]
    whole = {"findings": elements, "flags": dict(members)}
    expected = json.dumps(whole, indent=2, ensure_ascii=False).encode()
    pieces = list(_array_member("findings", elements, batch=3))
    assert len(pieces) == 2 + -(-n // 3)  # the key and "[", a piece per batch of three, the closing bracket
    made = b"{\n" + b"".join(pieces) + b',\n  "flags": ' + b"".join(_object_body(members, batch=3)) + b"\n}"
    assert made == expected


def test_copies_citing_a_shared_document_and_one_of_their_own():
    # Each copy cites "main" and its own document: every pair shares "main", so all repeat each other.
    n = 300
    items = [
        EvalItem.model_validate(
            {
                "id": f"c{k}",
                "question": "When was the tower built?",
                "answer": "1890" if k == n - 1 else "1889",
                "anchors": [{"source_id": "main", "quote": "q"}, {"source_id": f"own-{k}", "quote": "q"}],
            }
        )
        for k in range(n)
    ]
    items.append(EvalItem.model_validate({"id": "bare", "question": "When was the tower built?", "answer": "1889"}))
    repeats = Repeats(items, [item.id for item in items])
    for k in (0, 7, n - 1, n):
        assert repeats.partners(k) == reference(items, k)


@pytest.mark.parametrize("seed", range(10))
def test_partners_when_some_item_cites_many_documents(seed):
    rng = random.Random(seed)
    documents = [f"d{k}" for k in range(14)]
    items = []
    for k in range(rng.randrange(2, 40)):
        cited = rng.sample(documents, rng.choice([0, 1, 2, 12]))
        data = {"id": f"i{k}", "question": "Same?", "answer": rng.choice(["x", "y"])}
        if cited:
            data["anchors"] = [{"source_id": d, "quote": f"quote {d}"} for d in cited]
        items.append(EvalItem.model_validate(data))
    repeats = Repeats(items, [item.id for item in items])
    for k in range(len(items)):
        assert repeats.partners(k) == reference(items, k), k


def test_a_missing_answer_and_an_answer_of_no_content_word_get_their_own_flags():
    # The one-item flag cache keys on what the finding says: these two weak answers must not share a flag.
    items = [
        EvalItem(id="none", question="Which lantern glows?", answer=None),
        EvalItem(id="thin", question="Which lantern shines?", answer="the"),
        EvalItem(id="thin2", question="Which lantern burns?", answer="a"),
    ]
    scan = scan_flags(EvalSet(id="s", items=tuple(items)))

    def weak(item_id: str):
        return next(f for f in scan.for_item(item_id) if f.check == "weak-answer")

    assert "no expected answer" in weak("none").reason
    assert "content word" in weak("thin").reason and "no expected answer" not in weak("thin").reason
    assert weak("thin") is weak("thin2")


def test_the_review_audit_finds_no_conflict_in_one_question_asked_of_different_documents():
    """A question put to two privacy policies, each with its own answer, failed the review profile's
    audit (exit 1, "asked more than once with different expected answers") while no item's flags
    said so; goldensetauditor's profile still reports it, as that tool does."""
    from reviewtui.evalset.checks.report import render

    per_policy = copies(3, answer=lambda k: f"answer {k}", source=lambda k: f"policy-{k}")
    scan = scan_flags(EvalSet(id="s", items=tuple(per_policy)))
    assert not scan.audit.failed and not scan.audit.of_check("conflicting-answers")
    assert not scan.audit.of_check("exact-duplicates")
    assert "different expected answers" not in render(scan.audit, scan, "text")
    tool = scan_flags(EvalSet(id="s", items=tuple(per_policy)), profile="goldensetauditor")
    assert tool.audit.failed and [f.item_ids for f in tool.audit.of_check("conflicting-answers")] == [("q0", "q1", "q2")]
    # within one document the conflict stands, named on the copies that repeat each other
    mixed = copies(4, answer=lambda k: ("A", "B", "C", "C")[k], source=lambda k: ("a", "a", "b", "c")[k])
    scan = scan_flags(EvalSet(id="s", items=tuple(mixed)))
    assert [(f.item_ids, f.evidence["distinct_answers"]) for f in scan.audit.of_check("conflicting-answers")] == [(("q0", "q1"), 2)]
    assert {i for i, flags in scan.flags.items() if any(f.check == "conflicting-answers" for f in flags)} == {"q0", "q1"}
    # and a repeat within one document, the others asked elsewhere, is an exact duplicate of those two alone
    repeat = copies(3, answer=lambda k: ("A", "A", "B")[k], source=lambda k: ("a", "a", "b")[k])
    scan = scan_flags(EvalSet(id="s", items=tuple(repeat)))
    assert not scan.audit.failed
    assert [f.item_ids for f in scan.audit.of_check("exact-duplicates")] == [("q0", "q1")]


@pytest.mark.parametrize("seed", range(20))
def test_whether_an_item_repeats_any_is_whether_it_has_partners(seed):
    rng = random.Random(seed)
    items = []
    for k in range(rng.randrange(1, 40)):
        cited = rng.sample(["a", "b", "c"], rng.choice([0, 1, 1, 2]))
        data = {"id": f"i{k}", "question": "Same?", "answer": rng.choice(["x", "y", None])}
        if cited:
            data["anchors"] = [{"source_id": d, "quote": f"quote {d}"} for d in cited]
        items.append(EvalItem.model_validate(data))
    repeats = Repeats(items, [item.id for item in items])
    assert [repeats.repeats_any(k) for k in range(len(items))] == [bool(repeats.partners(k)[1]) for k in range(len(items))]


def test_a_counting_replay_of_the_duplicate_filter_keeps_the_same_items_and_lists_no_rejection():
    """The scan replays the chain only to count survivors; the duplicate filter still built a rejection, reason and
    all, for each item it dropped (about 90k of them on a 100k set of 20 words)."""
    import reviewtui as cg
    from reviewtui.evalset.checks.base import Replayed
    from reviewtui.evalset.checks.duplicates import DuplicateFilter, PairsFound
    from reviewtui.evalset.checks.simgroups import similar_groups

    questions = ["Which tool does the library lend on weekends?"] * 3 + ["How long may a member keep a ladder?"] * 2
    items = tuple(cg.EvalItem(id=f"q{k}", question=q) for k, q in enumerate(questions))
    flt = DuplicateFilter()
    sets = [frozenset(item.question.lower().split()) for item in items]
    found = PairsFound({item.id: k for k, item in enumerate(items)}, similar_groups(sets, flt.threshold), sets)
    itemised = Replayed(flt, found).apply(items)
    counted = Replayed(flt, found).counting().apply(items)
    assert [i.id for i in itemised.kept] == [i.id for i in counted.kept] == ["q0", "q3"]
    assert len(itemised.rejected) == 3 and counted.rejected == ()
