"""Quotes that leave words out ("…") or end in the punctuation of the sentence they were put in.

Answers written by LLMs over contracts (the datasaur LegalBench CSVs) quote clauses this way:
"Any and all rights … shall remain with the Owner", "shall remain in effect until the end of the
year…", "designates as being confidential,". Their words are in the document; before, such a quote
was not found at all, or found approximately onto a passage with a stray letter at its end.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from reviewtui.evalset.evidence.corpus import Corpus, Document
from reviewtui.evalset.evidence.elision import MAX_GAP
from reviewtui.evalset.evidence.locate import SearchSettings, locate
from reviewtui.evalset.evidence.resolution import MatchKind, evidence_flags
from reviewtui.evalset.evidence.resolve import AnchorResolver
from reviewtui.evalset.evidence.textmatch import fold
from reviewtui.evalset.model.flag import Severity
from reviewtui.evalset.model.items import GoldAnchor

LEASE = (
    "1. Term. This lease begins on the first day of May and shall remain in force until the end of the "
    "current year and shall be renewed for one (1) further year unless either party objects in writing.\n"
    "2. Rights. Any and all rights, including but not limited to keys, fittings and signs, in and to the "
    "premises shall be and remain with the Owner.\n"
    "3. Notice. The Tenant shall give notice to the Owner, or to the agent the Owner names; notice by "
    "e-mail counts as written notice.\n"
)


def find(quote: str, text: str = LEASE, occurrence: int = 0) -> tuple[MatchKind, str, str]:
    found = locate(Document("lease.txt", text), GoldAnchor("lease.txt", quote, occurrence=occurrence), SearchSettings())
    return found.kind, text[found.start : found.end] if found.kind.found else "", found.note


def test_a_cut_in_the_middle_covers_the_words_left_out() -> None:
    kind, span, note = find("Any and all rights \u2026 in and to the premises shall be and remain with the Owner")
    assert kind is MatchKind.NORMALISED
    assert span == (
        "Any and all rights, including but not limited to keys, fittings and signs, in and to the "
        "premises shall be and remain with the Owner"
    )
    assert "left out" in note


@pytest.mark.parametrize("mark", ["\u2026", "...", ". . .", "\u00a0\u2026\u00a0", "[\u2026]", "(...)"])
def test_every_way_of_writing_the_cut(mark: str) -> None:
    kind, span, _ = find(f"Any and all rights{mark}remain with the Owner.")
    assert kind is MatchKind.NORMALISED
    assert span.startswith("Any and all rights,") and span.endswith("remain with the Owner")


def test_a_cut_at_the_end_takes_the_words_quoted_and_nothing_after() -> None:
    # Before: approximate, onto "... until the end of the current year a" (a letter of the next word).
    kind, span, note = find("shall remain in force until the end of the current year\u2026")
    assert kind is MatchKind.NORMALISED
    assert span == "shall remain in force until the end of the current year"
    kind, span, _ = find("\u2026and shall be renewed for one (1) further year")
    assert (kind, span) == (MatchKind.NORMALISED, "and shall be renewed for one (1) further year")


def test_the_full_stop_of_the_answer_is_not_part_of_the_quote() -> None:
    kind, span, note = find("The Tenant shall give notice to the Owner.")
    assert (kind, span) == (MatchKind.NORMALISED, "The Tenant shall give notice to the Owner")
    assert note == "ignoring the punctuation at its end"
    kind, span, note = find("THE TENANT SHALL GIVE NOTICE TO THE OWNER;")
    assert (kind, span) == (MatchKind.NORMALISED, "The Tenant shall give notice to the Owner")
    assert "case" in note


def test_the_flag_is_a_hint_not_a_missing_quote() -> None:
    anchor = GoldAnchor("lease.txt", "Any and all rights \u2026 shall be and remain with the Owner.")
    resolution = AnchorResolver().resolve_anchor(anchor, Corpus.from_texts({"lease.txt": LEASE}), item_id="q1")
    (flag,) = evidence_flags([resolution])["q1"]
    assert flag.check == "evidence-normalised" and flag.severity is Severity.HINT


def test_parts_out_of_order_or_changed_are_not_a_cut() -> None:
    kind, _, _ = find("remain with the Owner \u2026 Any and all rights")
    assert kind is not MatchKind.NORMALISED
    kind, _, _ = find("Any and all rights \u2026 shall be and remain with the Landlord.")
    assert kind is not MatchKind.NORMALISED


def test_parts_pages_apart_are_not_one_quote() -> None:
    text = "The first clause says the fee is due monthly. " + "Filler words. " * (MAX_GAP // 10) + "Paid by bank transfer only."
    kind, _, _ = find("the fee is due monthly \u2026 paid by bank transfer only", text)
    assert kind is not MatchKind.NORMALISED


def test_a_part_of_one_word_is_not_searched_loosely() -> None:
    kind, _, _ = find("Notice\u2026 written.")
    assert kind is MatchKind.NOT_FOUND
    kind, _, _ = find("The Tenant\u2026 notice\u2026 written notice.")
    assert kind is MatchKind.NOT_FOUND


def test_occurrence_counts_passages_and_the_tightest_start_is_taken() -> None:
    clause = "Rent is due on the first day, by cheque or by transfer, of each month. "
    text = "Rent is late. " + clause + "Other words. " + clause
    quote = "Rent is due on the first day \u2026 of each month."
    kind, span, _ = find(quote, text)
    assert span == clause.strip().rstrip(".") and text.find(span) == len("Rent is late. ")
    kind, span, _ = find(quote, text, occurrence=1)
    assert kind is MatchKind.NORMALISED and text.rfind(clause.strip().rstrip(".")) == text.find(span, 20)
    kind, _, note = find(quote, text, occurrence=2)
    assert kind is MatchKind.NOT_FOUND and "occurrence 2" in note


_CURLY = re.compile(r"\u201c([^\u201d]{12,}?)\u201d")
_CUT = re.compile(r"\s*(?:\u2026|\.\s?\.\s?\.)\s*")


def test_datasaur_answers_cut_quotes_resolve_onto_their_parts(realdata: Path) -> None:
    """Every passage the datasaur answers quote with a cut, whose parts a plain search finds in order in
    the row's document, resolves as a normalised match from the first part to the last."""
    base = realdata / "qa-csv-datasaur-legalbenchrag"
    corpus = Corpus(base / "knowledge-base")
    resolver = AnchorResolver()
    checked = 0
    for domain in ("contractnli", "cuad", "maud", "privacy_qa"):
        with open(base / f"{domain}.csv", encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                for quote in _CURLY.findall(row["expected completion"]):
                    parts = [fold(p).rstrip(".,;: ") for p in _CUT.split(quote)]
                    parts = [p for p in parts if re.search(r"\w", p)]
                    text = fold(corpus.text(row["source_file"]))
                    if len(parts) < 2 or any(p not in text or len(p.split()) < 2 for p in parts):
                        continue
                    at = [text.find(p) for p in parts]
                    if at != sorted(at) or at[-1] - at[0] > 1500:
                        continue
                    result = resolver.resolve_anchor(GoldAnchor(row["source_file"], quote), corpus)
                    assert result.kind is MatchKind.NORMALISED, (quote, result.describe())
                    got = fold(corpus.text(row["source_file"])[result.span.start : result.span.end])
                    assert got.startswith(parts[0]) and got.endswith(parts[-1]), (quote, got)
                    checked += 1
    print(f"\n{checked} cut quotes in the datasaur answers resolved onto their parts")
    assert checked >= 30


@pytest.fixture
def follows(monkeypatch) -> list[int]:
    """How many times the search followed the parts from a copy of the first: ``follows[0]``, set to 0 at will."""
    from reviewtui.evalset.evidence import elision

    calls = [0]
    follow = elision._follow

    def counted(*args):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return follow(*args)

    monkeypatch.setattr(elision, "_follow", counted)
    return calls


def test_a_part_missing_from_a_long_text_is_not_looked_for_once_per_copy_of_the_first(follows) -> None:
    # 20,000 copies of the first part and none of the last: each copy looked for the last part again,
    # MAX_GAP characters on (a text of 5 million such words took 7 s for this one quote).
    words = "lease term " * 20_000
    for quote in ("lease term \u2026 notice period", "lease term \u2026 lease term \u2026 notice period"):
        assert find(quote, words)[0] is not MatchKind.NORMALISED
        assert follows[0] <= 2
        follows[0] = 0
    # A last part far on is still found, from the last copy of the first part before it.
    kind, span, _ = find("lease term \u2026 notice period", words + "notice period")
    assert (kind, span) == (MatchKind.NORMALISED, "lease term notice period")
    assert follows[0] <= 3 * MAX_GAP // len("lease term ")


def test_a_quote_of_many_parts_does_not_follow_them_from_every_copy_of_the_first(follows) -> None:
    # 3,002 parts against a text holding 3,000 copies of them, a gap too long for a cut, and two more: each
    # copy of the first part followed the parts up to the gap, the starts times the parts (20,000 parts, a
    # 360 KB set and a 220 KB document, took 90 s in `audit --corpus`).
    from reviewtui.evalset.evidence import elision

    count = 3_000
    text = "alpha beta " * count + "x" * (MAX_GAP + 200) + " alpha beta alpha beta"
    quote = " \u2026 ".join(["alpha beta"] * (count + 2))
    assert find(quote, text)[0] is not MatchKind.NORMALISED
    assert follows[0] * (count + 2) <= elision.MAX_LOOKUPS + count + 2 < count * count
    # Parts that do follow each other are still found, however many there are.
    follows[0] = 0
    kind, span, _ = find(quote, "alpha beta " * (count + 5))
    assert (kind, span) == (MatchKind.NORMALISED, ("alpha beta " * (count + 2)).strip())


def test_a_cut_quote_whose_search_gave_up_says_so_and_counts_no_copies(follows) -> None:
    """Stopped after MAX_LOOKUPS, the search said the quote "occurs once" (the places found before it stopped)."""
    count = 3_000
    quote = " \u2026 ".join(["alpha beta"] * (count + 2))
    # Thousands of starts that run out before the gap, then the whole quote: the search stops on the way.
    text = "alpha beta " * count + "x" * (MAX_GAP + 200) + " " + "alpha beta " * (count + 2)
    kind, _, note = find(quote, text)
    assert kind is MatchKind.NOT_FOUND
    assert note.startswith(f"its {count + 2:,} parts cut with '\u2026' were looked for until the search stopped")
    assert "occurs" not in note


def test_a_cut_quote_running_onto_the_next_page_is_found_on_the_page_it_starts_on() -> None:
    # As an exact match belongs to the page it starts on; it was looked for within the page alone, found
    # in the whole document, and said "found on page 2, not on page 2".
    text = "Page one.\fThe Tenant shall give notice to the Owner, or to the agent\fthe Owner names in writing.\fOther."
    anchor = GoldAnchor("lease.txt", "The Tenant shall give notice \u2026 the Owner names in writing.", page_hint=2)
    found = locate(Document("lease.txt", text), anchor, SearchSettings())
    assert found.kind is MatchKind.NORMALISED and found.page_note == ""
    assert text[found.start : found.end] == "The Tenant shall give notice to the Owner, or to the agent\fthe Owner names in writing"
    on_three = locate(Document("lease.txt", text), anchor.model_copy(update={"page_hint": 3}), SearchSettings())
    assert (on_three.start, on_three.page_note) == (found.start, "found on page 2, not on page 3")
