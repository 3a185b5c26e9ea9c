"""answer-unsupported: an extra check that lives in one module and reaches the scan and `reviewtui audit` by registering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.checks.check_answer_unsupported import ANSWER_UNSUPPORTED, answer_unsupported
from reviewtui.evalset.checks.registry import FILTER, FLAG, checks
from reviewtui.evalset.checks.scan import SEVERITY, scan_flags
from reviewtui.evalset.filters import default_filters
from reviewtui.evalset.io import write_jsonl
from reviewtui.evalset.model.flag import Severity

QUOTE = "Employees accrue 1,200 hours of leave over a career; the HR office approves requests."


def item(id: str, answer: str | None, *quotes: str, question: str = "How much leave do employees accrue overall?") -> cg.EvalItem:
    anchors = tuple(cg.GoldAnchor("handbook.pdf", q) for q in quotes) if quotes else ()
    return cg.EvalItem(id=id, question=question, answer=answer, anchors=anchors)


@pytest.mark.parametrize(
    ("answer", "quotes", "flagged"),
    [
        ("Twelve weeks, paid by the state.", (QUOTE,), True),
        ("About 1200 in total.", (QUOTE,), False),  # the number, without its separator
        ("The HR Office.", (QUOTE,), False),  # a word, case-folded
        ("The office.", (QUOTE,), False),
        ("Die Personalabteilung.", ("Die Personalabteilung genehmigt Urlaub.",), False),
        ("Ὀδυσσεύς", ("ὀδυσσεύς returned home",), False),  # Unicode words, case-folded
        ("Yes.", (QUOTE,), False),  # yes/no answers are not checked
        ("no", (QUOTE,), False),
        ("It is the one.", (QUOTE,), True),
        (None, (QUOTE,), False),  # no answer
        ("Twelve weeks.", (), False),  # no quotes
        ("Twelve weeks.", ("nothing in common", "still nothing"), True),
        ("Twelve weeks.", ("nothing in common", "twelve of them"), False),  # any quote will do
    ],
)
def test_the_check(answer, quotes, flagged):
    assert (answer_unsupported(item("q", answer, *quotes)) is not None) is flagged


def test_it_is_registered_as_an_extra_check_outside_the_chain():
    assert ANSWER_UNSUPPORTED in [c.name for c in checks(FLAG)]
    assert ANSWER_UNSUPPORTED not in [c.name for c in checks(FILTER)]
    assert SEVERITY[ANSWER_UNSUPPORTED] is Severity.LOW  # measured on tests/devset: 5 of 5 right
    assert [f.name for f in default_filters().filters] == [
        "too-short",
        "dangling-reference",
        "unresolved-evidence",
        "near-duplicate",
        "non-discriminating",
        "general-knowledge",
    ]


def _evalset() -> cg.EvalSet:
    return cg.EvalSet(
        id="leave",
        items=(
            item("q1", "About 1200 hours.", QUOTE),
            item("q2", "Twelve weeks, paid by the state.", QUOTE, question="Who pays for parental leave in this company?"),
        ),
    )


def test_the_scan_flags_it_on_one_core_and_two():
    for workers in (1, 2):
        scan = scan_flags(_evalset(), workers=workers)
        assert ANSWER_UNSUPPORTED not in [f.check for f in scan.for_item("q1")]
        flag = next(f for f in scan.for_item("q2") if f.check == ANSWER_UNSUPPORTED)
        assert flag.severity is Severity.LOW
        assert "shares no word or number with its quote" in flag.reason
        assert scan.counts[ANSWER_UNSUPPORTED] == 1


def test_the_filter_chain_does_not_run_it():
    result = default_filters().run(_evalset())
    assert ANSWER_UNSUPPORTED not in result.by_filter()
    assert {r.filter for r in result.rejected} <= {c.name for c in checks(FILTER)}


def test_audit_json_shows_it(tmp_path: Path, capsys):
    path = write_jsonl(_evalset(), tmp_path / "leave.jsonl")
    main(["audit", str(path), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    text = json.dumps(report)
    assert ANSWER_UNSUPPORTED in text
