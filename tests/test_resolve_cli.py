"""``reviewtui resolve``: summary, flagged anchors, writing only with -o, errors as one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.evalset.io import read_jsonl, write_jsonl
from reviewtui.evalset.model.items import EvalItem, EvalSet, GoldAnchor, GoldSpan, Span

DOC = "Opening hours are 9 to 5.\nThe \u201cquiet room\u201d is upstairs.\nLoans last two weeks."


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path]:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "rules.md").write_text(DOC, encoding="utf-8")
    items = (
        EvalItem("q1", "When open?", anchors=(GoldAnchor("rules.md", "Opening hours are 9 to 5."),)),
        EvalItem("q2", "Quiet room?", anchors=(GoldAnchor("rules.md", 'The "quiet room" is upstairs.'),)),
        EvalItem("q3", "Fines?", anchors=(GoldAnchor("rules.md", "Late returns cost one pound a day."),)),
        EvalItem("q4", "Loans?", gold=(GoldSpan(Span("rules.md", DOC.index("Loans"), len(DOC))),)),
    )
    path = tmp_path / "set.jsonl"
    write_jsonl(EvalSet("demo", items), path)
    return path, corpus


def test_summary_and_flagged_anchors_without_writing(setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    path, corpus = setup
    before = path.read_bytes()
    assert main(["resolve", str(path), "--corpus", str(corpus)]) == 0
    out = capsys.readouterr().out
    # q1 and the anchor quoted from q4's span are exact; q2 normalised; q3 missing.
    assert "2 exact, 1 normalised, 0 approximate, 1 not found" in out
    assert "Quoted the gold spans of 1 item as anchors." in out
    assert "q3 [high] quote not found in rules.md" in out
    assert "q2" not in out  # a normalised match is only a hint, not listed
    assert "nothing written" in out
    assert path.read_bytes() == before


def test_output_holds_gold_and_anchors(setup: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, corpus = setup
    out_path = tmp_path / "out" / "resolved.jsonl"
    out_path.parent.mkdir()
    assert main(["resolve", str(path), "--corpus", str(corpus), "-o", str(out_path)]) == 0
    assert f"wrote {out_path}" in capsys.readouterr().out
    resolved = read_jsonl(out_path)
    q2 = resolved.get("q2").gold[0].span
    assert DOC[q2.start : q2.end] == "The \u201cquiet room\u201d is upstairs."
    assert resolved.get("q3").gold == ()
    assert resolved.get("q4").anchors == (GoldAnchor("rules.md", "Loans last two weeks.", 2, None, 0),)
    assert resolved.id == "demo"


def test_strict_exits_1_when_a_quote_is_missing(setup: tuple[Path, Path]) -> None:
    path, corpus = setup
    assert main(["resolve", str(path), "--corpus", str(corpus), "--strict"]) == 1


def test_strict_exits_1_when_a_gold_span_cannot_be_quoted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A span-only set whose spans name a missing document or run past their document's end has no anchor
    to fail on: --strict exited 0 on it, though its evidence cannot be found."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "rules.md").write_text(DOC, encoding="utf-8")
    fine = EvalItem("q1", "Loans?", gold=(GoldSpan(Span("rules.md", DOC.index("Loans"), len(DOC))),))
    for broken in (Span("gone.md", 0, 10), Span("rules.md", 0, len(DOC) + 50)):
        path = write_jsonl(EvalSet("spans", (fine, EvalItem("q2", "Fines?", gold=(GoldSpan(broken),)))), tmp_path / "spans.jsonl")
        assert main(["resolve", str(path), "--corpus", str(corpus), "--strict"]) == 1
        assert "1 span could not be quoted" in capsys.readouterr().out
        assert main(["resolve", str(path), "--corpus", str(corpus)]) == 0  # a finding only when asked to fail on one
    path = write_jsonl(EvalSet("spans", (fine,)), tmp_path / "spans.jsonl")
    assert main(["resolve", str(path), "--corpus", str(corpus), "--strict"]) == 0  # every span quoted and found


def test_strict_exits_1_when_a_relevant_document_is_not_in_the_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A BEIR question whose relevant documents the corpus lacks was listed high, and --strict exited 0."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "rules.md").write_text(DOC, encoding="utf-8")
    held = EvalItem("b1", "Loans?", meta={"gold_documents": [["rules.md", 1]]})
    path = write_jsonl(EvalSet("beir", (held,)), tmp_path / "beir.jsonl")
    assert main(["resolve", str(path), "--corpus", str(corpus), "--strict"]) == 0
    lacking = EvalItem("b2", "Fines?", meta={"gold_documents": [["gone.md", 1]]})
    path = write_jsonl(EvalSet("beir", (held, lacking)), tmp_path / "beir.jsonl")
    assert main(["resolve", str(path), "--corpus", str(corpus), "--strict"]) == 1
    assert main(["resolve", str(path), "--corpus", str(corpus)]) == 0
    capsys.readouterr()


def test_input_errors_are_one_line_and_exit_2(setup: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, corpus = setup
    assert main(["resolve", str(path), "--corpus", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "corpus folder not found" in err and len(err.strip().splitlines()) == 1
    assert main(["resolve", str(path), "--corpus", str(corpus), "-o", str(tmp_path / "x.csv")]) == 2
    assert "JSONL" in capsys.readouterr().err
    assert not (tmp_path / "x.csv").exists()


def test_legalbench_input(realdata: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = realdata / "legalbenchrag-privacyqa"
    out_path = tmp_path / "pqa.jsonl"
    code = main([
        "resolve", str(base / "benchmarks" / "privacy_qa.json"), "--corpus", str(base / "corpus"),
        "--requote", "-o", str(out_path),
    ])
    assert code == 0
    out = capsys.readouterr().out
    assert "Resolved 453 anchors of 194 items against 7 documents: 453 exact" in out
    resolved = read_jsonl(out_path)
    assert all(len(item.anchors) == len(item.gold) for item in resolved)
    first = json.loads(out_path.read_text(encoding="utf-8").splitlines()[1])
    assert first["anchors"][0]["quote"] == first["anchors"][0]["quote"].strip()


@pytest.mark.parametrize(("given", "said"), [("-1", "-1 is below 0"), ("x", "not a whole number: 'x'")])
def test_show_takes_a_count_of_zero_or_more(tmp_path, capsys, given, said):
    """--show -1 was taken as 0: nothing listed, and nothing said about the option."""
    with pytest.raises(SystemExit) as stopped:
        main(["resolve", str(tmp_path / "quiz.jsonl"), "--corpus", str(tmp_path), "--show", given])
    assert stopped.value.code == 2 and f"argument --show: {said}" in capsys.readouterr().err


def test_the_summary_counts_the_relevant_documents_the_corpus_lacks(setup, tmp_path, capsys) -> None:
    """A BEIR folder resolved against a corpus holding none of its relevant documents said only "Resolved 0 anchors
    of 0 items ...: 0 not found" (and with --show 0 nothing else), while audit --corpus warned every question."""
    _, corpus = setup
    held = EvalItem("b1", "Loans?", meta={"gold_documents": [["rules.md", 1]]})
    lacking = EvalItem("b2", "Fines?", meta={"gold_documents": [["gone.md", 1]]})
    path = write_jsonl(EvalSet("beir", (held, lacking)), tmp_path / "beir.jsonl")
    assert main(["resolve", str(path), "--corpus", str(corpus), "--show", "0"]) == 0
    out = capsys.readouterr().out
    assert "2 items name relevant documents: 1 names one the corpus does not hold." in out, out
