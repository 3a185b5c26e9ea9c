"""Property-based round trips: read(write(x)) == x for JSONL always, for CSV within its limits."""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reviewtui as cg

# Text that tends to break writers and viewers: control characters, markup look-alikes,
# spreadsheet formulas, quotes, commas, newlines, apostrophes, and arbitrary unicode.
TRICKY = st.sampled_from(
    [
        "[b]", "[/]", "[/o", "[bold red]x[/]", "=1+1", "+A1", "-", "@x", "'=", "''+", "\t", "\r", "\n",
        "\r\n", '"', '""', ",", ";", "\x00", "\x1b[31m", "\u2028", "\ufeff", "é", "中文", "🙂", " ",
    ]
)
TEXT = st.lists(st.one_of(TRICKY, st.text(max_size=12)), max_size=6).map("".join)
NON_BLANK = TEXT.filter(lambda s: s.strip() != "")
IDS = st.one_of(NON_BLANK, st.from_regex(r"[A-Za-z0-9_\-]{1,12}", fullmatch=True))
JSON_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53), TEXT)
META = st.dictionaries(
    TEXT,
    st.one_of(JSON_SCALAR, st.lists(JSON_SCALAR, max_size=3), st.dictionaries(TEXT, JSON_SCALAR, max_size=2)),
    max_size=3,
)
GRADE = st.integers(0, 3)
ANCHOR = st.builds(
    cg.GoldAnchor,
    source_id=NON_BLANK,
    quote=NON_BLANK,
    grade=GRADE,
    page_hint=st.one_of(st.none(), st.integers(-5, 10_000)),
    occurrence=st.integers(0, 5),
)
SPAN = st.integers(0, 10_000).flatmap(
    lambda start: st.builds(cg.Span, doc_id=TEXT, start=st.just(start), end=st.integers(start + 1, start + 500))
)
GOLD = st.builds(cg.GoldSpan, span=SPAN, grade=GRADE)
OPTIONAL_TEXT = st.one_of(st.none(), TEXT.filter(bool))


def _items(max_anchors: int, with_gold: bool) -> st.SearchStrategy[tuple[cg.EvalItem, ...]]:
    item = st.builds(
        cg.EvalItem,
        id=st.just(""),
        question=NON_BLANK,
        gold=st.lists(GOLD, max_size=2).map(tuple) if with_gold else st.just(()),
        anchors=st.lists(ANCHOR, max_size=max_anchors).map(tuple),
        qtype=OPTIONAL_TEXT,
        answer=OPTIONAL_TEXT,
        meta=META,
    )
    return st.tuples(st.lists(IDS, max_size=5, unique=True)).flatmap(
        lambda ids: st.tuples(*[item.map(lambda it, i=i: it.replace(id=i)) for i in ids[0]])
    )


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    items=_items(max_anchors=3, with_gold=True),
    set_id=TEXT,
    version=st.integers(1, 50),
    source=TEXT,
    meta=META,
)
def test_jsonl_round_trip_is_exact(items, set_id, version, source, meta):
    evalset = cg.EvalSet(id=set_id, items=items, version=version, source=source, meta=meta)
    with tempfile.TemporaryDirectory() as folder:
        path = cg.write_jsonl(evalset, Path(folder) / "set.jsonl")
        assert cg.read_jsonl(path) == evalset


@SETTINGS
@given(items=_items(max_anchors=1, with_gold=False))
def test_csv_round_trip_is_exact_for_one_anchor_and_no_gold(items):
    evalset = cg.EvalSet(id="set", items=items, source="import")
    with tempfile.TemporaryDirectory() as folder:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # nothing is lost, so nothing may be warned about
            path = cg.write_csv(evalset, Path(folder) / "set.csv")
            back = cg.read_csv(path)
    assert back.items == evalset.items
    assert dict(back.meta) == {}
