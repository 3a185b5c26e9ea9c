"""The goldensetauditor profile's near-duplicates, one finding per pair, counted rather than listed past a limit.

A set of templates holds a pair for every two of its questions: 5,000 of them took 33 s and 2 GB, and
30,000 ran out of 24 GB, before the pairs were counted first.
"""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.evalset.checks import scan_parts
from reviewtui.evalset.checks.audit import NEAR_DUPLICATES, Status, audit
from reviewtui.evalset.checks.report import to_json_bytes
from reviewtui.evalset.checks.scan import scan_flags


def _templates(n: int) -> cg.EvalSet:
    items = [
        cg.EvalItem(
            id=f"t{k}",
            question=f"What was the total freight tonnage moved through the eastern container dock number {k} during the last fiscal quarter of operations?",
            answer="x",
        )
        for k in range(n)
    ]
    items.append(cg.EvalItem(id="other", question="Who signed the harbour lease?", answer="The mayor of the town"))
    return cg.EvalSet(id="s", items=tuple(items))


def _near(report) -> list:
    return [f for f in report.findings if f.check == NEAR_DUPLICATES]


def test_the_documented_audit_lists_every_pair():
    report = audit(_templates(60))
    assert len(_near(report)) == 60 * 59 // 2 and all(f.status == Status.WARN for f in _near(report))


@pytest.mark.parametrize("limit", [0, 100, 1769, 1770, 5000])
def test_past_the_limit_the_pairs_are_counted_in_one_finding(limit):
    evalset = _templates(60)
    every = _near(audit(evalset))
    report = audit(evalset, max_pairs_listed=limit)
    near = _near(report)
    if limit >= len(every):
        assert near == every
        return
    [finding] = near
    assert finding.status == Status.INSUFFICIENT_INPUT and finding.item_ids == ()
    assert finding.evidence["pairs"] == len(every) == 1770 and finding.evidence["listed_at_most"] == limit
    assert f"{len(every):,} pairs" in finding.detail and "review profile" in finding.recommendation
    check = next(c for c in report.checks if c.check == NEAR_DUPLICATES)
    assert check.status == Status.INSUFFICIENT_INPUT
    # every other check says what it said
    assert [f for f in report.findings if f.check != NEAR_DUPLICATES] == [f for f in audit(evalset).findings if f.check != NEAR_DUPLICATES]


def test_a_scan_in_the_tools_profile_counts_them_and_keeps_every_items_flags(monkeypatch):
    evalset = _templates(80)
    listed = scan_flags(evalset, profile="goldensetauditor", workers=1)
    assert len(_near(listed.audit)) == 80 * 79 // 2
    monkeypatch.setattr(scan_parts, "MAX_PAIRS_LISTED", 1000)
    counted = scan_flags(evalset, profile="goldensetauditor", workers=1)
    [finding] = _near(counted.audit)
    assert finding.evidence["pairs"] == 80 * 79 // 2 and finding.status == Status.INSUFFICIENT_INPUT
    assert {k: [f.to_dict() for f in v] for k, v in counted.flags.items()} == {k: [f.to_dict() for f in v] for k, v in listed.flags.items()}
    assert b'"INSUFFICIENT_INPUT"' in to_json_bytes(counted.audit, counted)
    # the review profile reports clusters, whatever the limit
    review = scan_flags(evalset, workers=1)
    assert [f.status for f in _near(review.audit)] == [Status.WARN]
