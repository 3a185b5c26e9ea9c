"""Documents and quotes that try to break things: markup, escapes, NUL, bad bytes, one huge line."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolution import excerpt
from reviewtui.evalset.evidence.resolve import AnchorResolver, MatchKind, evidence_flags
from reviewtui.evalset.model.items import GoldAnchor

MARKUP = "Intro [b]bold[/b] and [/] and [link=x]y[/link] {braces} $x$ \\[esc] [/o end."
ANSI = "Before\x1b[2J\x1b[31mred text\x1b[0m after the escape codes."
NUL = "start\x00middle\x00\x00end of the NUL document"


@pytest.fixture
def hostile() -> Corpus:
    return Corpus.from_texts({"markup.txt": MARKUP, "ansi.txt": ANSI, "nul.txt": NUL})


@pytest.mark.parametrize(
    ("doc_id", "quote"),
    [
        ("markup.txt", "[b]bold[/b] and [/]"),
        ("markup.txt", "[/o end."),
        ("ansi.txt", "\x1b[2J\x1b[31mred text"),
        ("nul.txt", "middle\x00\x00end"),
    ],
)
def test_hostile_text_is_matched_literally(hostile: Corpus, doc_id: str, quote: str) -> None:
    result = AnchorResolver().resolve_anchor(GoldAnchor(doc_id, quote), hostile)
    assert result.kind is MatchKind.EXACT
    assert hostile.text(doc_id)[result.span.start : result.span.end] == quote


def test_hostile_text_matches_after_normalising_too(hostile: Corpus) -> None:
    result = AnchorResolver().resolve_anchor(GoldAnchor("markup.txt", "[B]BOLD[/B]  AND [/]"), hostile)
    assert result.kind is MatchKind.NORMALISED
    assert MARKUP[result.span.start : result.span.end] == "[b]bold[/b] and [/]"


def test_flag_reasons_carry_no_control_characters(hostile: Corpus) -> None:
    quote = "\x1b[2J\x1b[31mthis is not in the document at all\x00"
    resolver = AnchorResolver()
    from reviewtui.evalset.model.items import EvalItem, EvalSet

    item = EvalItem("q", "Q?", anchors=(GoldAnchor("ansi.txt", quote),))
    _, report = resolver.resolve_with_report(EvalSet("s", (item,)), hostile)
    (flag,) = evidence_flags(report)["q"]
    assert "\x1b" not in flag.reason and "\x00" not in flag.reason
    assert "\\x1b[2J" in flag.reason
    assert excerpt("a\nb\tc\x07") == "a b c\\x07"


def test_invalid_utf8_document_is_unreadable_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_bytes(b"valid start \xc3\x28 broken")
    (tmp_path / "good.txt").write_text("valid start and valid end", encoding="utf-8")
    corpus = Corpus(tmp_path)
    resolver = AnchorResolver()
    bad = resolver.resolve_anchor(GoldAnchor("bad.txt", "valid start"), corpus)
    good = resolver.resolve_anchor(GoldAnchor("good.txt", "valid start"), corpus)
    assert bad.kind is MatchKind.UNREADABLE and "byte 12" in bad.note
    assert good.kind is MatchKind.EXACT


def test_bom_and_crlf_documents_keep_original_offsets(tmp_path: Path) -> None:
    (tmp_path / "win.txt").write_bytes("\ufeffFirst line\r\nSecond   line\r\n".encode())
    corpus = Corpus(tmp_path)
    text = corpus.text("win.txt")
    result = AnchorResolver().resolve_anchor(GoldAnchor("win.txt", "first line second line"), corpus)
    assert result.kind is MatchKind.NORMALISED
    assert text[result.span.start : result.span.end] == "First line\r\nSecond   line"


def _huge_line(size: int, seed: int = 3) -> str:
    rng = random.Random(seed)
    words = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10))) for _ in range(5000)
    ]
    parts: list[str] = []
    total = 0
    while total < size:
        word = rng.choice(words)
        parts.append(word)
        total += len(word) + 1
    return " ".join(parts)


def test_huge_single_line_document() -> None:
    text = _huge_line(3_000_000)
    corpus = Corpus.from_texts({"huge.txt": text})
    resolver = AnchorResolver()
    middle = text[1_500_000:1_500_400]
    exact = resolver.resolve_anchor(GoldAnchor("huge.txt", middle), corpus)
    assert exact.kind is MatchKind.EXACT and exact.span.start == 1_500_000

    typo = middle[:100] + "#" + middle[101:300] + "##" + middle[302:]
    started = time.perf_counter()
    approx = resolver.resolve_anchor(GoldAnchor("huge.txt", typo), corpus)
    assert approx.kind is MatchKind.APPROXIMATE and approx.score >= 95
    assert abs(approx.span.start - 1_500_000) <= 3

    # A long quote that is nowhere in the text must not turn into a multi-second scan.
    absent = _huge_line(3000, seed=99)
    missing = resolver.resolve_anchor(GoldAnchor("huge.txt", absent), corpus)
    assert missing.kind is MatchKind.NOT_FOUND
    # Generous bound: this only guards against an unbounded fuzzy scan (tens of seconds).
    assert time.perf_counter() - started < 20
