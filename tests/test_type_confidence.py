"""The type guess carries a confidence: its rule's record against people's types on real sets."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from reviewtui.evalset.checks import classify
from reviewtui.evalset.checks.classify import GUESS_RECORD, GuessConfidence, guess_confidence
from reviewtui.evalset.checks.scan import _type_hint, scan_flags
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import EvalItem, EvalSet


def test_the_wilson_low_end_matches_known_values():
    assert GuessConfidence(0, 0, 0).low == 0.0
    assert GuessConfidence(30, 30, 1).low == pytest.approx(0.8865, abs=1e-3)
    assert GuessConfidence(35, 40, 1).low == pytest.approx(0.7391, abs=1e-3)
    assert GuessConfidence(0, 24, 1).low == pytest.approx(0.0, abs=1e-9)


def test_confident_needs_a_high_low_end_and_two_sets():
    assert not GuessConfidence(30, 30, 1).confident  # one set whose questions are all of one kind
    assert GuessConfidence(30, 30, 2).confident
    assert not GuessConfidence(35, 40, 3).confident  # low end 0.74


def test_the_hint_says_the_record():
    flag = _type_hint("multi_hop", "comparative")
    assert flag.severity == Severity.HINT
    assert "35 of 40" in flag.reason and "wording rule" in flag.reason
    fallback = _type_hint(None, "factoid")
    assert "fallback" in fallback.reason and "0 of 206" in fallback.reason
    assert "never measured" in _type_hint(None, "tabular").reason


def test_a_confident_guess_that_disagrees_with_the_label_is_a_warning(monkeypatch):
    monkeypatch.setitem(classify.GUESS_RECORD, "comparative", (95, 100, 3))
    assert guess_confidence("comparative").confident
    assert _type_hint("factoid", "comparative").severity == Severity.LOW
    assert _type_hint(None, "comparative").severity == Severity.HINT  # no label to doubt
    item = EvalItem(id="q", question="Is Paris larger than Rome?", answer="Yes", qtype="factoid")
    scan = scan_flags(EvalSet(id="s", items=(item,)))
    assert [f.severity for f in scan.for_item("q") if f.check == "suggested-type"] == [Severity.LOW]


def test_a_label_is_not_questioned_by_the_fallback():
    """HotpotQA: "labelled 'multi_hop', but the wording reads like 'factoid' (fallback: no rule matched)" on 206 of 300
    people's labels, by the guess made when no wording rule matches. An unlabelled item still gets the guess."""
    items = (
        EvalItem(id="labelled", question="The director of the film was born in which city?", qtype="multi_hop"),
        EvalItem(id="unlabelled", question="The director of the film was born in which city?"),
        EvalItem(id="ruled", question="Is Paris larger than Rome?", answer="Yes", qtype="multi_hop"),
    )
    scan = scan_flags(EvalSet(id="s", items=items))

    def hints(item_id: str) -> list[str]:
        return [f.reason for f in scan.for_item(item_id) if f.check == "suggested-type"]

    assert hints("labelled") == []
    assert len(hints("unlabelled")) == 1 and "fallback" in hints("unlabelled")[0]
    assert len(hints("ruled")) == 1 and "wording rule" in hints("ruled")[0]  # a rule that matched still says so


def test_no_guess_is_confident_today():
    assert not any(guess_confidence(qtype).confident for qtype in GUESS_RECORD)


def _measurer():
    path = Path(__file__).parent / "devset" / "type_confidence.py"
    spec = importlib.util.spec_from_file_location("type_confidence", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_record_is_what_the_real_sets_show(realdata):
    assert _measurer().measure(realdata) == GUESS_RECORD
