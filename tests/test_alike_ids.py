"""Item ids that a screen shows alike are named in a set-level caution."""

from __future__ import annotations

import reviewtui as cg
from reviewtui.evalset.checks.alike_ids import alike_ids, shown_key
from reviewtui.evalset.checks.scan import scan_flags


def test_ids_that_differ_only_in_what_does_not_show_are_paired_in_set_order():
    ids = ["q1", "q1 ", "café", "cafe\u0301", "q 2", "q\u00a02", "Q1", "q3", "\tq3\u00a0"]
    assert alike_ids(ids) == [("q1", "q1 "), ("café", "cafe\u0301"), ("q 2", "q\u00a02"), ("q3", "\tq3\u00a0")]
    assert shown_key("plain-id_7") == "plain-id_7" and shown_key(" q1") == "q1"
    assert alike_ids(["q1", "Q1", "q-1", "q 1"]) == []  # case and visible marks tell ids apart
    # what the screen draws (a gap, a stand-in for a zero-width or control character) tells them apart too
    assert alike_ids(["q1", "q\u00a01", "q\u30001", "q\u200b1", "v", "v\x1b", "w1", "w\t1"]) == []


def test_the_scan_names_them_in_a_caution(tmp_path):
    items = tuple(cg.EvalItem(id=item_id, question=f"How long may a member keep tool {n}?") for n, item_id in enumerate(["q1", "q1 ", "q2"]))
    cautions = [str(entry) for entry in scan_flags(cg.EvalSet(id="s", items=items)).cautions.entries]
    (said,) = [c for c in cautions if "differ only in what a screen does not show" in c]
    assert "1 pair of item ids" in said and "'q1' and 'q1 '" in said
    items = tuple(cg.EvalItem(id=item_id, question=f"How long may a member keep tool {n}?") for n, item_id in enumerate(["café", "cafe\u0301"]))
    (said,) = [str(c) for c in scan_flags(cg.EvalSet(id="s", items=items)).cautions.entries if "screen does not show" in str(c)]
    assert "'caf\\xe9' and 'cafe\\u0301'" in said  # escaped, so the reader sees how they differ
    plain = tuple(cg.EvalItem(id=f"q{n}", question=f"How long may a member keep tool {n}?") for n in range(3))
    assert not [c for c in map(str, scan_flags(cg.EvalSet(id="s", items=plain)).cautions.entries) if "screen does not show" in c]
