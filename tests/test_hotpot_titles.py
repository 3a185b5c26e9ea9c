"""`convert --corpus-out`: every title becomes one file in the corpus folder, and the corpus finds it by its title."""

from __future__ import annotations

import json
from pathlib import Path

from reviewtui.cli import main
from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolution import MatchKind
from reviewtui.evalset.evidence.resolve import AnchorResolver
from reviewtui.evalset.io import hotpot_corpus, open_evalset
from reviewtui.evalset.io.corpusfiles import write_corpus

TITLES = ["ISS A/S", "Face/Off", "AC\\DC", ".sj", "S"]


def _row(number: int, title: str) -> dict:
    return {
        "id": f"h{number}",
        "question": f"What is said about {title}?",
        "answer": "yes",
        "type": "bridge",
        "level": "hard",
        "supporting_facts": {"title": [title], "sent_id": [1]},
        "context": {"title": [title], "sentences": [[f"{title} is a name.", f" Sentence two about {title}."]]},
    }


def _convert(tmp_path: Path, capsys) -> tuple[Path, Path]:
    source = tmp_path / "hotpot.jsonl"
    source.write_text("".join(json.dumps(_row(n, t)) + "\n" for n, t in enumerate(TITLES)), encoding="utf-8")
    out, folder = tmp_path / "set.jsonl", tmp_path / "docs"
    assert main(["convert", str(source), str(out), "--corpus-out", str(folder)]) == 0
    assert capsys.readouterr().err == ""  # no title refused
    return out, folder


def test_a_title_with_a_slash_is_one_file_not_a_folder(tmp_path: Path, capsys) -> None:
    _out, folder = _convert(tmp_path, capsys)
    assert [p for p in folder.rglob("*") if p.is_dir()] == []
    assert sorted(p.name for p in folder.iterdir()) == ["%2Esj.txt", "AC%5CDC.txt", "Face%2FOff.txt", "ISS A%2FS.txt", "S.txt"]


def test_the_corpus_finds_each_document_by_its_title(tmp_path: Path, capsys) -> None:
    _out, folder = _convert(tmp_path, capsys)
    corpus = Corpus(folder)
    for title in TITLES:
        assert corpus.text(title).startswith(f"{title} is a name."), title
    assert corpus.resolve_id("ISS A/S") == "ISS A%2FS.txt"
    # The part after an escaped slash is no file name of its own: "Off" is not "Face/Off".
    assert corpus.resolve_id("Off") is None and corpus.resolve_id("Off.txt") is None
    assert corpus.resolve_id("S") == "S.txt"  # and "S" is not taken for "ISS A/S" either


def test_every_quote_resolves_against_the_written_corpus(tmp_path: Path, capsys) -> None:
    out, folder = _convert(tmp_path, capsys)
    _, report = AnchorResolver().resolve_with_report(open_evalset(out), Corpus(folder))
    assert report.counts()[MatchKind.EXACT] == len(report.resolutions) == len(TITLES)


def test_flat_writing_keeps_a_climbing_id_inside_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    count, refused = write_corpus({"a/../../b": "x", "/abs": "y"}, folder, flat=True)
    assert (count, refused) == (2, {})
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["%2Fabs.txt", "a%2F..%2F..%2Fb.txt"]
    assert Corpus(folder).text("a/../../b") == "x"


def test_real_hotpotqa_titles_with_slashes_are_files(realdata, tmp_path: Path, capsys) -> None:
    # SOURCES.md 4a's slice has "ISS A/S" and other titles with a slash in them.
    source = realdata / "qa-hotpotqa-megagon" / "dev.jsonl"
    out, folder = tmp_path / "dev.jsonl", tmp_path / "paragraphs"
    assert main(["convert", str(source), str(out), "--corpus-out", str(folder)]) == 0
    assert capsys.readouterr().err == ""
    assert [p for p in folder.rglob("*") if p.is_dir()] == []
    assert (folder / "ISS A%2FS.txt").is_file()
    paragraphs = hotpot_corpus(source)
    corpus = Corpus(folder)
    assert corpus.text("ISS A/S") == paragraphs["ISS A/S"]
    assert all(corpus.text(title) == text for title, text in paragraphs.items() if "/" in title)


def test_a_title_given_another_text_is_warned_about_when_the_corpus_is_made(tmp_path):
    # HotpotQA's own dev set gives "Harry Morgan" two texts; the corpus keeps the first, without a word.
    import pytest

    rows = [
        {"id": "h1", "question": "Which band formed first?", "answer": "Alpha", "supporting_facts": {"title": ["Alpha"], "sent_id": [0]},
         "context": {"title": ["Alpha", "Alpha"], "sentences": [["Alpha formed in 1990."], ["Beta formed in 1995."]]}},
        {"id": "h2", "question": "When did Alpha form?", "answer": "1990", "supporting_facts": {"title": ["Alpha"], "sent_id": [0]},
         "context": {"title": ["Alpha"], "sentences": [["Alpha was formed in 1991."]]}},
    ]
    path = tmp_path / "h.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    with pytest.warns(UserWarning, match=r"titles given another text by a later paragraph, of which the document keeps the first: 1 \('Alpha'\);"):
        corpus = hotpot_corpus(path)
    assert corpus == {"Alpha": "Alpha formed in 1990."}


def test_a_blank_answer_is_read_as_none_and_counted(tmp_path: Path) -> None:
    """An empty HotpotQA answer became no answer without a word, where DPR's and a CSV's blank answers are counted."""
    from reviewtui.evalset.io import describe_skipped

    rows = [_row(1, "S"), {**_row(2, "T"), "answer": ""}, {**_row(3, "U"), "answer": "   "}]
    source = tmp_path / "hotpot.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    evalset = open_evalset(source)
    assert [item.answer for item in evalset] == ["yes", None, None]
    assert evalset.meta["answers_skipped"] == {"blank": 2}
    assert "2 answers skipped: 2 blank." in describe_skipped(evalset)
