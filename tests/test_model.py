"""The model as the eval-sets page shows it, plus immutability and validation edges."""

from __future__ import annotations

import copy
import pickle

import pytest
from pydantic import ValidationError

import reviewtui as cg
from reviewtui.evalset.model.items import FrozenDict

QUOTE = "Employees accrue 1.5 days of leave per month."


def make_item(**changes):
    data = dict(
        id="q1",
        question="How much leave do employees accrue per month?",
        anchors=(cg.GoldAnchor(source_id="handbook.pdf", quote=QUOTE),),
        qtype=cg.QuestionType.FACTOID,
    )
    data.update(changes)
    return cg.EvalItem(**data)


def test_item_properties_as_the_page_shows():
    item = make_item()
    assert (item.is_answerable, item.has_evidence, item.is_resolved, item.is_portable) == (True, True, False, True)
    assert type(item).has_evidence is type(item).is_answerable


def test_resolved_with_returns_a_copy():
    item = make_item()
    gold = cg.GoldSpan(span=cg.Span(doc_id="handbook.pdf", start=120, end=167), grade=2)
    resolved = item.resolved_with((gold,))
    assert (resolved.is_resolved, resolved.is_portable, resolved.gold_documents()) == (True, True, {"handbook.pdf"})
    assert resolved.gold_length == 47
    assert resolved.gold_spans == (cg.Span("handbook.pdf", 120, 167),)
    assert item.gold == ()


def test_span_and_goldspan_print_as_the_page_shows():
    gold = cg.GoldSpan(span=cg.Span("handbook.txt", 120, 167), grade=2)
    assert repr(gold) == "GoldSpan(span=Span('handbook.txt', 120, 167), grade=2)"
    assert str((gold,)) == "(GoldSpan(span=Span('handbook.txt', 120, 167), grade=2),)"


def test_grade_zero_still_counts_as_answerable():
    item = make_item(anchors=(cg.GoldAnchor("h.pdf", QUOTE, grade=0),))
    assert item.is_answerable


@pytest.mark.parametrize(
    ("build", "words"),
    [
        (lambda: cg.GoldAnchor(source_id="h.pdf", quote="   "), "quote"),
        (lambda: cg.GoldAnchor(source_id="h.pdf", quote="x", grade=-1), "grade"),
        (lambda: cg.GoldAnchor(source_id="h.pdf", quote="x", occurrence=-1), "occurrence"),
        (lambda: cg.GoldSpan(span=cg.Span("d", 5, 5)), "covers no text"),
        (lambda: cg.Span("d", 9, 3), "covers no text"),
        (lambda: cg.Span("d", -1, 3), "start"),
        (lambda: cg.GoldSpan(cg.Span("d", 0, 3), grade=-2), "grade"),
        (lambda: make_item(question=" \t\n"), "'q1'"),
        (lambda: make_item(anchors=[{"source_id": "a", "quote": ""}]), "quote"),
        (lambda: cg.EvalItem(id="q1"), "question"),
    ],
)
def test_bad_values_raise_evalset_error(build, words):
    with pytest.raises(cg.EvalSetError) as info:
        build()
    assert words in str(info.value)


def test_blank_question_names_the_item():
    with pytest.raises(cg.EvalSetError, match="q7"):
        cg.EvalItem(id="q7", question="")


def test_duplicate_ids_name_the_id_and_the_set():
    a1 = cg.EvalItem(id="q1", question="Q1?", qtype="factoid")
    a2 = cg.EvalItem(id="q1", question="Q2?", qtype="numeric")
    with pytest.raises(cg.EvalSetError) as info:
        cg.EvalSet(id="dup", items=(a1, a2))
    assert "'q1'" in str(info.value) and "'dup'" in str(info.value)


def test_evalset_basics():
    item = make_item()
    evalset = cg.EvalSet(id="handbook-quiz", items=(item,))
    assert (len(evalset), evalset.is_portable) == (1, True)
    assert list(evalset) == [item]
    assert evalset.get("q1") is item and evalset.get("nope") is None
    assert (evalset.version, evalset.source, evalset.meta) == (1, "manual", {})


def test_evalset_collections_and_copies():
    spans = (cg.GoldSpan(cg.Span("d", 0, 4)),)
    items = (
        make_item(id="a"),
        make_item(id="b", anchors=(), gold=spans, qtype="numeric"),
        make_item(id="c", anchors=(), qtype=None),
        make_item(id="d", qtype="my-own-type"),
    )
    evalset = cg.EvalSet(id="s", items=items, version=3, source="import")
    assert [i.id for i in evalset.answerable] == ["a", "b", "d"]
    assert evalset.with_evidence == evalset.answerable
    assert [i.id for i in evalset.resolved] == ["b"]
    assert evalset.is_portable is False  # b has evidence only as spans
    assert [i.id for i in evalset.by_type("factoid")] == ["a"]
    assert evalset.types() == ("factoid", "numeric", "my-own-type")
    smaller = evalset.with_items(items[:2])
    assert (len(smaller), smaller.version, smaller.id, smaller.source) == (2, 3, "s", "import")
    with pytest.raises(cg.EvalSetError):
        evalset.with_items(items + (items[0],))


def test_question_type_is_plain_strings():
    assert cg.QuestionType.ALL == (
        "factoid", "multi_hop", "comparative", "numeric", "tabular", "summarisation", "unanswerable",
    )
    assert make_item(qtype="anything-goes").qtype == "anything-goes"


def test_models_are_immutable():
    item = make_item(meta={"k": 1})
    with pytest.raises(ValidationError, match="frozen"):
        item.question = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        item.meta["reviewed"] = True
    with pytest.raises(TypeError):
        item.meta.update(x=1)
    assert isinstance(item.meta, FrozenDict) and item.meta == {"k": 1}
    changed = item.replace(question="Another question entirely?")
    assert (item.question, changed.question) == ("How much leave do employees accrue per month?", "Another question entirely?")


def test_positional_construction_and_copies():
    assert cg.Span("d", 1, 2) == cg.Span(doc_id="d", start=1, end=2)
    assert cg.RelevanceLabel("q1", "c1", 2).grade == 2
    with pytest.raises(TypeError):
        cg.Span("d", 1, 2, 3)
    item = make_item(meta={"nested": {"a": [1, 2]}})
    assert pickle.loads(pickle.dumps(item)) == item
    assert copy.deepcopy(item) == item


def test_nested_dicts_are_validated_without_python_init():
    item = cg.EvalItem(id="q", question="Q?", anchors=[{"source_id": "s", "quote": "x"}])
    assert isinstance(item.anchors[0], cg.GoldAnchor)
    with pytest.raises(cg.EvalSetError) as info:
        cg.EvalItem(id="q", question="Q?", anchors=[{"source_id": "s", "quote": " "}])
    assert info.value.field == "anchors.0.quote"


def test_with_meta_copies_without_touching_the_original():
    item = make_item(meta={"a": 1})
    stamped = item.with_meta({**item.meta, "reviewed": True})
    assert stamped.meta == {"a": 1, "reviewed": True} and item.meta == {"a": 1}
    assert isinstance(stamped.meta, FrozenDict)
    assert stamped.model_dump()["meta"] == {"a": 1, "reviewed": True}
    assert stamped.question == item.question and stamped == item.replace(meta={"a": 1, "reviewed": True})
    with pytest.raises(TypeError):
        stamped.meta["x"] = 2
    with pytest.raises(cg.EvalSetError):
        item.with_meta({1: "not a string key"})


def test_a_set_of_checked_items_is_the_set_validation_makes():
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"What is {k}?", answer=str(k)) for k in range(5))
    fields = {"id": "s", "version": 3, "source": "import", "meta": {"team": "a"}}
    validated = cg.EvalSet.model_validate({**fields, "items": items})
    checked = cg.EvalSet.from_checked_items(fields, items, {item.id: k for k, item in enumerate(items)})
    assert checked == validated and checked.model_dump() == validated.model_dump()
    assert checked.get("q3") is items[3] and checked.model_fields_set == validated.model_fields_set
    with pytest.raises(ValueError):
        cg.EvalSet.from_checked_items(fields, items, {"q0": 0})
    with pytest.raises(ValidationError):  # the set's own fields are still validated, as model_validate does
        cg.EvalSet.from_checked_items({**fields, "version": 0}, items, {item.id: k for k, item in enumerate(items)})
