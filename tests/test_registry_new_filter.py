"""A filter added to the spec's chain is one registration: the documented chain and the per-item scan both run it."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.checks import registry
from reviewtui.evalset.checks.base import Filter, FilterPass, Rejection
from reviewtui.evalset.checks.registry import FILTER, Check
from reviewtui.evalset.checks.scan import scan_flags
from reviewtui.evalset.filters import default_filters
from reviewtui.evalset.model.flag import Severity


class NoQuestionMark(Filter):
    """A made-up itemwise filter: the question does not end with a question mark."""

    name = "no-question-mark"

    def check(self, item: cg.EvalItem) -> str | None:
        return None if item.question.rstrip().endswith("?") else "the question does not end with '?'"


class KeepsOnlyFirstOfEachAnswer(Filter):
    """A made-up filter whose result on a batch depends on the batch: the first item of each answer stays."""

    name = "same-answer"
    itemwise = False

    def check(self, item: cg.EvalItem) -> str | None:
        return None  # judged only on a whole batch

    def apply(self, items, *, should_stop=None) -> FilterPass:
        seen: set[str | None] = set()
        kept, rejected = [], []
        for item in items:
            if item.answer in seen:
                rejected.append(Rejection(item.id, self.name, "its answer was already kept"))
            else:
                seen.add(item.answer)
                kept.append(item)
        return FilterPass(tuple(kept), tuple(rejected))


@pytest.fixture
def registered(monkeypatch):
    def add(flt: Filter, order: int) -> None:
        check = Check(flt.name, FILTER, Severity.MEDIUM, "made up for a test", order=order, make=lambda **_: flt, module=__name__)
        monkeypatch.setitem(registry._CHECKS, flt.name, check)

    return add


def _set() -> cg.EvalSet:
    # a and d share no answer; c and d do, and c comes first
    questions = [
        ("a", "What does the leave policy say about part-time staff?", "pro rata"),
        ("b", "Tell me the notice period for resignations in the handbook", "four weeks"),
        ("c", "Which office approves requests for unpaid leave at the firm?", "HR"),
        ("d", "Which office signs off requests for unpaid leave at the firm?", "HR"),
    ]
    return cg.EvalSet(id="s", items=tuple(cg.EvalItem(id=i, question=q, answer=a) for i, q, a in questions))


def test_an_itemwise_filter_registered_once_runs_in_the_chain_and_flags_items_in_the_scan(registered):
    registered(NoQuestionMark(), order=7)
    evalset = _set()
    chain = default_filters()
    assert [f.name for f in chain.filters][-1] == "no-question-mark"
    expected = chain.run(evalset)
    assert [r.item_id for r in expected.rejected if r.filter == "no-question-mark"] == ["b"]

    scan = scan_flags(evalset, workers=1)
    assert [(f.check, f.severity) for f in scan.flags["b"] if f.check == "no-question-mark"] == [("no-question-mark", Severity.MEDIUM)]
    # by id: the scan makes an item's list of flags anew each time it is read
    assert all(f.check != "no-question-mark" for item_id, flags in scan.flags.items() for f in flags if item_id != "b")
    assert [str(r) for r in scan.chain.rejected] == [str(r) for r in expected.rejected]
    assert scan.chain.warnings.cautions == expected.warnings.cautions


def test_a_batch_filter_registered_once_replays_as_the_chain_runs_it(registered):
    registered(KeepsOnlyFirstOfEachAnswer(), order=0)  # first, so later filters see its survivors
    evalset = _set()
    expected = default_filters().run(evalset)
    assert [r.item_id for r in expected.rejected if r.filter == "same-answer"] == ["d"]
    scan = scan_flags(evalset, workers=1)
    assert [i.id for i in scan.chain.kept] == [i.id for i in expected.kept]
    assert [str(r) for r in scan.chain.rejected] == [str(r) for r in expected.rejected]
    assert [f.check for f in scan.flags["d"]].count("same-answer") == 1  # its whole-set verdict is the item's flag
    assert [f.check for f in scan.flags["d"]].count("same-answer") == 1  # its whole-set verdict is the item's flag
