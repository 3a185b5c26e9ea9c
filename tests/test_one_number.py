"""One pair, one number: the app's flag and the audit report give the same overlap for a pair both found."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.checks.report import render
from reviewtui.evalset.checks.scan import scan_flags


def test_a_pair_the_audit_found_is_described_by_the_audits_figure_everywhere():
    items = (
        cg.EvalItem(id="a", question="Which long river flows slowly through the old city of Prague in the Czech Republic today?"),
        cg.EvalItem(id="b", question="Which long river flows slowly through the old city of Prague in the Czech Republic now?"),
    )
    scan = scan_flags(cg.EvalSet(id="s", items=items), profile="goldensetauditor")
    (finding,) = scan.audit.of_check("near-duplicates")
    assert "share 85% of their content tokens" in finding.detail  # 11 of 13 content words; 15 of 17 words is 88%
    (flag,) = [f for f in scan.for_item("a") if f.check == "near-duplicate"]
    assert "85% of content words shared" in flag.reason and "88%" not in flag.reason
    assert "85%" in render(scan.audit, scan, "text")


def test_a_pair_only_the_word_filter_found_keeps_its_own_figure():
    items = (
        cg.EvalItem(id="a", question="What is the name given to the input string of a computational problem?"),
        cg.EvalItem(id="b", question="What is the name given to the input string of a computational solution?"),
    )
    scan = scan_flags(cg.EvalSet(id="s", items=items))
    assert not scan.audit.of_check("near-duplicates")  # 5 of 7 content words: below the audit's 82 %
    (flag,) = [f for f in scan.for_item("a") if f.check == "near-duplicate"]
    assert "85% of words shared" in flag.reason  # 11 of 13 distinct words
