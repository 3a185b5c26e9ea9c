"""What a large scan holds until its report is written, held as numbers and made when read: each item's flags
(FlagTable, NearDuplicateFlags), the audit's one-item findings (FindingTable), the join's pairs (Pairs). Each
reads as what it replaced: the same values, in the same order (issue #16, benchmarks/HISTORY.md).
"""

from __future__ import annotations

import pickle
import random

import pytest

from reviewtui.evalset.checks import scan as scan_mod
from reviewtui.evalset.checks.audit import FindingTable, audit
from reviewtui.evalset.checks.findings import PiecedFlag
from reviewtui.evalset.model.items import EvalItem, EvalSet
from reviewtui.evalset.text.words import TokenRows

_TWENTY_WORDS = (
    "saddle glacier signal canyon timber velvet thunder lantern ember marble copper meadow falcon anchor orchard "
    "prism violet willow harbor ledger"
).split()


def _twenty_word_set(n: int, seed: int = 3) -> EvalSet:
    rng = random.Random(seed)
    return EvalSet(
        "s",
        tuple(
            EvalItem(
                f"q{k}",
                " ".join(rng.choice(_TWENTY_WORDS) for _ in range(rng.randint(4, 7))).capitalize() + "?",
                answer=rng.choice(["Copper", "Two copper coins", None]),
            )
            for k in range(n)
        ),
    )


@pytest.mark.parametrize("profile", ["review", "goldensetauditor"])
def test_a_scans_flags_read_as_the_lists_they_were(profile):
    evalset = _twenty_word_set(600)
    scan = scan_mod.scan_flags(evalset, workers=1, profile=profile)
    flags = scan.flags
    assert isinstance(flags, scan_mod.FlagTable)
    plain = dict(flags)
    assert list(flags) == [item.id for item in evalset.items if item.id in plain]  # set order, flagged items only
    assert len(flags) == len(plain) and flags == plain and plain == flags
    some = next(item_id for item_id, found in plain.items() if any(type(f) is PiecedFlag for f in found))
    first, again = flags[some], flags[some]
    assert first == again and first is not again  # made anew each time: a caller's change stays its own
    first.clear()
    assert flags[some] == plain[some]
    assert flags.get("no such item") is None and "no such item" not in flags
    assert scan.for_item(some) == plain[some] and scan.worst(some) == plain[some][0].severity
    assert pickle.loads(pickle.dumps(flags)) == plain  # sent as a plain dict
    # A list given in place of one item's keeps the order of the items
    changed = flags.changed({some: plain[some][:1]})
    assert list(changed) == list(flags) and changed[some] == plain[some][:1] and flags[some] == plain[some]


def test_each_near_duplicate_flag_is_made_equal_however_often_it_is_read():
    evalset = _twenty_word_set(400)
    scan = scan_mod.scan_flags(evalset, workers=1)
    near = [flag for found in scan.flags.values() for flag in found if flag.check == "near-duplicate"]
    assert near and all(type(flag) is PiecedFlag for flag in near)
    # The dicts a report makes of them: one per read, never another flag's (ids of flags let go are reused)
    made = dict(scan.dicts())
    assert made == {item_id: [flag.to_dict() for flag in found] for item_id, found in scan.flags.items()}


def test_the_audits_one_item_findings_travel_as_numbers_and_read_as_they_were():
    evalset = _twenty_word_set(500)
    report = audit(evalset, every_script=True)
    table = FindingTable.of(report.findings, evalset.positions)
    assert table is not None
    table.bind(evalset.items)
    assert list(table) == list(report.findings) and table == report.findings
    sent = pickle.loads(pickle.dumps(table))  # as the scan's child sends it: unbound, the ids made by the parent's items
    sent.bind(evalset.items)
    assert list(sent) == list(report.findings)
    assert [f.item_ids for f in sent] == [f.item_ids for f in report.findings]
    assert all(a is b for f in sent for a, b in zip(f.item_ids, (evalset.get(i).id for i in f.item_ids)))
    for check in {f.check for f in report.findings}:
        assert sent.of_check(check) == tuple(f for f in report.findings if f.check == check)
        assert list(sent.details(check)) == [f.detail for f in report.findings if f.check == check]
    assert sent[3] == report.findings[3] and sent[-1] == report.findings[-1] and sent[1:4] == list(report.findings[1:4])


def test_findings_each_saying_its_own_thing_are_kept_as_they_are():
    from reviewtui.evalset.checks.audit import Finding, Status
    from reviewtui.evalset.model.flag import Severity

    evalset = _twenty_word_set(50)
    own = [Finding("ambiguous-question", Status.WARN, Severity.LOW, (item.id,), f"about {item.id}", "r") for item in evalset.items]
    assert FindingTable.of(own, evalset.positions) is None


def test_the_vectorised_joins_pairs_and_unique_codes_are_those_numpy_gives():
    np = pytest.importorskip("numpy")
    from reviewtui.evalset.checks import simjoin, simjoin_numpy

    rng = np.random.default_rng(1)
    values = rng.integers(0, 5_000, 20_000)
    kept = values.copy()
    parts = [values[:7_000], values[7_000:]]
    assert np.array_equal(simjoin_numpy._unique_of(parts), np.unique(values))
    assert parts == []  # let go of as they are joined: the join is sorted in place, not beside them
    assert np.array_equal(values, kept)  # the arrays given are not sorted themselves
    assert np.array_equal(simjoin_numpy._unique_of([values[:1]]), np.unique(values[:1]))
    sets = [frozenset(random.Random(k).sample(_TWENTY_WORDS, random.Random(k).randint(4, 7))) for k in range(3_000)]
    distinct = list(dict.fromkeys(sets))
    pairs = simjoin_numpy.join_distinct(distinct, 0.8)
    swept = simjoin._join_distinct(distinct, 0.8, None, vectorised=False)
    assert sorted(pairs) == sorted(swept) and len(pairs) == len(swept) > 0
    assert list(pairs) == sorted(pairs)  # in order, as the groups' links are kept


def test_equal_token_rows_are_one_tuple():
    rows = TokenRows()
    flat = [rows.row(["a", "b"]), rows.row(["b", "c"]), rows.row(["a", "b"])]
    packed = TokenRows(rows.numbers)
    packed.extend_packed([n for row in flat for n in row], [2, 4, 6])
    assert list(packed) == flat and packed[0] is packed[2]


@pytest.mark.parametrize("every_script", [True, False])
def test_an_audit_asked_for_a_table_keeps_its_findings_so_and_reports_the_same(every_script):
    # The scan's child asks the audit for its findings as a table (see audit_half): the one-item findings are never
    # made one by one, and the report, its counts and every finding read as the audit's own tuple of them.
    from reviewtui.evalset.checks.audit import prepare

    evalset = _twenty_word_set(500)
    expected = audit(evalset, every_script=every_script)
    prepared = prepare(evalset.items, every_script=every_script)
    prepared.findings_table = True
    report = audit(evalset, prepared=prepared, every_script=every_script)
    assert isinstance(report.findings, FindingTable) and not isinstance(expected.findings, FindingTable)
    assert list(report.findings) == list(expected.findings)
    assert (report.status, report.checks, report.summary) == (expected.status, expected.checks, expected.summary)
    assert FindingTable.of(report.findings, evalset.positions) is report.findings  # nothing to do for the scan
    sent = pickle.loads(pickle.dumps(report.findings))
    sent.bind(evalset.items)
    assert list(sent) == list(expected.findings)
