"""The duplicate filter's clauses for the audit's flags, made when asked: the same as made ahead for every item."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import reviewtui as cg
from reviewtui.evalset.checks.findings import DROPS, KEEPS, filter_verdicts
from reviewtui.evalset.text.words import in_quotes


def _made_ahead(items, dropped):
    """Every clause made at once, as the scan did before they were made when asked."""
    verdicts = {}
    for j, i in dropped.items():
        verdicts[items[j].id] = f"; {DROPS} {in_quotes(items[i].id)}"
        verdicts.setdefault(items[i].id, f"; {KEEPS}")
    return verdicts


@given(st.integers(2, 12).flatmap(lambda n: st.tuples(st.just(n), st.dictionaries(st.integers(0, n - 1), st.integers(0, n - 1)))))
def test_each_clause_is_the_one_made_ahead(case):
    n, dropped = case
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"question {k}?") for k in range(n))
    positions = {item.id: k for k, item in enumerate(items)}
    ahead = _made_ahead(items, dropped)
    asked = filter_verdicts(items, dropped, positions)
    assert dict(asked) == ahead
    for item in items:
        assert (item.id in asked) == (item.id in ahead)
        assert asked.get(item.id) == ahead.get(item.id)
    assert "not an item" not in asked and 7 not in asked


def test_a_dropped_item_names_the_one_kept_and_the_kept_one_says_so():
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"question {k}?") for k in range(3))
    verdicts = filter_verdicts(items, {2: 0}, {item.id: k for k, item in enumerate(items)})
    assert verdicts["q2"] == f"; {DROPS} 'q0'"
    assert verdicts["q0"] == f"; {KEEPS}"
    assert "q1" not in verdicts and len(verdicts) == 2
