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
        ("²", ("nothing in common",), False),  # folded to "2": a number alone, which is not checked, as "2" is not
        ("x ²", ("nothing in common",), True),  # "x 2": its number compared whole, and not found
        ("x 2", ("nothing in common",), True),  # a number: compared whole, and not found
        # Chinese and Japanese runs are clauses to a word tokeniser: looked for as pairs of characters
        ("北京", ("中国的首都是北京。",), False),
        ("東京都", ("首都は東京です",), False),
        ("上海", ("中国的首都是北京。",), True),
        ("CO₂", ("Emissions of CO2 rose.",), False),  # compatibility forms folded
        ("Twenty", ("About 20 people came.",), False),  # number words are their numbers
        ("twenty-one members", ("21 of them",), False),
        ("The 10th edition", ("the tenth printing",), False),
        ("thirty", ("twenty of them",), True),
        # endings, Arabic's joined prefixes and acronyms
        ("Goethe", ("Goethes bekanntestes Werk ist Faust.",), False),
        ("the Venetians", ("Venetian shipbuilders came first.",), False),
        ("القاهرة", ("ولد بالقاهرة عام 1950",), False),
        ("WHO guidance", ("the World Health Organization said so",), False),
        ("the World Health Organization", ("WHO said so",), False),
        ("N.A.S.A. engineers", ("NASA launched it",), False),
        ("USA today", ("What happened overnight, Sam asked",), True),  # initials of words not capitalised in a row
        ("cats", ("a catalogue of things",), True),  # more than an ending away
    ],
)
def test_the_check(answer, quotes, flagged):
    assert (answer_unsupported(item("q", answer, *quotes)) is not None) is flagged


def test_a_refusal_given_as_the_answer_is_said_to_be_one():
    """A generated test set wrote "not present in context" as the answer of questions it gave evidence for."""
    reason = answer_unsupported(item("q", "The answer to given question is not present in context", QUOTE))
    assert reason is not None and reason.startswith("the expected answer is a refusal ('The answer to given question")
    assert "type the question unanswerable" in reason
    # an answer that shares no word but refuses nothing is said as before
    assert answer_unsupported(item("q", "Twelve weeks, paid by the state.", QUOTE)).startswith("the expected answer shares no word")


def test_the_numbers_a_text_gives():
    from reviewtui.evalset.checks.check_answer_unsupported import _numbers

    assert _numbers("1,200 hours, twenty-one days, the Thirty First, one, 3.5 and a tenth") == {"1200", "21", "31", "1", "3.5", "10"}
    assert _numbers("someone often ninetyish") == set()  # only whole words


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


# ---- looking the answer's words up in each quote gives what making the quote's words gave ----

from types import SimpleNamespace  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from reviewtui.evalset.text.words import words  # noqa: E402
from tests.equivalence_helpers import TEXTS, random_texts, real_items, real_texts  # noqa: E402


def _reference_answer_unsupported(item) -> str | None:
    """The check written plainly: the answer's content words as a set, each quote's words made. (The numbers a
    text gives, and what reads as a refusal, are the check's own definitions, tested on their own below.)"""
    import re
    import unicodedata

    from reviewtui.evalset.checks.check_answer_unsupported import (
        _REFUSAL,
        _REFUSAL_WORDS,
        _STOPWORDS,
        _loosely_shared,
        _numbers,
        _shortened,
    )
    from reviewtui.evalset.text.words import in_quotes, unspaced_runs

    answer = item.answer
    if not answer or not item.anchors:
        return None
    answer = unicodedata.normalize("NFKC", answer)
    content = set(words(answer)) - _STOPWORDS
    if re.search(r"\d", answer):
        content = {word for word in content if not word.isdigit()}
    if content <= {"yes", "no"}:
        return None
    pairs = {pair for word in content for pair in unspaced_runs(word)}
    numbers = _numbers(answer)
    for anchor in item.anchors:
        quote = unicodedata.normalize("NFKC", anchor.quote)
        if content & set(words(quote)) or any(pair in quote.casefold() for pair in pairs) or numbers & _numbers(quote):
            return None
    if any(_loosely_shared(answer, list(content), unicodedata.normalize("NFKC", a.quote)) for a in item.anchors):
        return None
    quotes = "its quote" if len(item.anchors) == 1 else f"any of its {len(item.anchors)} quotes"
    if len(content) <= _REFUSAL_WORDS and _REFUSAL.search(answer):
        return (
            f"the expected answer is a refusal ({in_quotes(_shortened(answer))}), yet the item cites evidence, which "
            f"shares no word with it: type the question unanswerable, or give the answer {quotes} supports"
        )
    return f"the expected answer shares no word or number with {quotes}: check the answer or the evidence"


def _answer(answer, *quotes):
    """An item with this answer and these quotes (the check reads only these fields)."""
    return SimpleNamespace(answer=answer, anchors=tuple(SimpleNamespace(quote=quote) for quote in quotes))


def _same_as_the_reference(pairs) -> tuple[int, int]:
    """Asserts the check answers as the reference on each (answer, quotes); how many it flagged and let pass."""
    flagged = passed = 0
    for answer, quotes in pairs:
        item = _answer(answer, *quotes)
        reason = answer_unsupported(item)
        assert reason == _reference_answer_unsupported(item), (answer, quotes)
        flagged += reason is not None
        passed += reason is None
    return flagged, passed


@settings(max_examples=1000, deadline=None)
@given(TEXTS, st.lists(TEXTS, min_size=1, max_size=3), TEXTS, TEXTS)
def test_the_check_answers_as_its_plain_definition_on_any_answer_and_quotes(answer, quotes, before, after):
    # and with the answer inside its quote, as an extractive answer is, where its first and last words
    # may be the ends of longer words of the quote
    _same_as_the_reference([(answer, quotes), (answer, [*quotes, before + answer + after]), (answer, [before + answer])])


def test_the_check_answers_as_its_plain_definition_on_many_made_up_answers():
    texts = random_texts(11, 30_000, longest=8)
    pairs = [(answer, [quote]) for answer, quote in zip(texts, texts[1:])]
    pairs += [(answer, [glue + answer + texts[k - 1][:3]]) for k, (answer, glue) in enumerate(zip(texts, texts[2:]))]
    pairs += [(answer, [f"{answer[:-1]}x", f"y{answer[1:]}"]) for answer in texts if len(answer) > 2]
    flagged, passed = _same_as_the_reference(pairs)
    assert flagged > 1000 and passed > 1000


def test_every_real_answer_and_quote_gets_the_plain_definitions_answer(realdata):
    items = [item for item in real_items(realdata) if item.answer and item.anchors]
    texts = real_texts(realdata)
    pairs = [(item.answer, [anchor.quote for anchor in item.anchors]) for item in items]  # as they are
    # every real text as an answer to another item's quotes, and pieces of each quote cut anywhere as its answer
    pairs += [(text, [anchor.quote for anchor in items[k % len(items)].anchors]) for k, text in enumerate(texts)]
    for _, quotes in pairs[: len(items)]:
        for quote in quotes:
            pairs += [(quote[at : at + width], [quote]) for at in range(0, len(quote), 37) for width in (5, 12, 30)]
    flagged, passed = _same_as_the_reference(pairs)
    assert len(items) > 600 and flagged > 5000 and passed > 5000
