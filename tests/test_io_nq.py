"""Natural Questions (simplified JSONL) conversion: tags removed, quote and span agree, bad lines named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.evalset.evidence.corpus import Corpus
from reviewtui.evalset.evidence.resolution import MatchKind
from reviewtui.evalset.evidence.resolve import AnchorResolver
from reviewtui.evalset.io import describe_skipped, nq_corpus, open_evalset, read_nq, sniff_format
from reviewtui.evalset.model.items import EvalSetError, QuestionType

# Token positions:  0      1       2     3    4    5   6       7   8    9   10      11   12     13   14  15   16
DOC = "<H1> Bell Rock </H1> <P> The Bell Rock is a reef . </P> <P> The Bell Rock is a reef . It lies off Angus . </P>"
TOKENS = DOC.split(" ")


def span_of(words: str, after: int = 0) -> tuple[int, int]:
    """Token range of ``words`` in DOC, searching from token ``after``."""
    wanted = words.split(" ")
    for start in range(after, len(TOKENS)):
        if TOKENS[start : start + len(wanted)] == wanted:
            return start, start + len(wanted)
    raise AssertionError(words)


def example(example_id, question, long_answer=(-1, -1), shorts=(), yes_no="NONE", url=None, doc=DOC):
    return {
        "example_id": example_id,
        "question_text": question,
        "document_url": url or "https://en.wikipedia.org//w/index.php?title=Bell_Rock&amp;oldid=1",
        "document_text": doc,
        "long_answer_candidates": [],
        "annotations": [
            {
                "yes_no_answer": yes_no,
                "long_answer": {"start_token": long_answer[0], "end_token": long_answer[1], "candidate_index": 0},
                "short_answers": [{"start_token": s, "end_token": e} for s, e in shorts],
                "annotation_id": 1,
            }
        ],
    }


def write(tmp_path: Path, rows: list, name: str = "nq.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def test_conversion(tmp_path):
    second_p = TOKENS.index("<P>", 5)
    rows = [
        # long answer: the second paragraph, tags included in the token range
        example(7, "where is the bell rock", (second_p, len(TOKENS)), shorts=[span_of("off Angus")]),
        example(8, "is the bell rock a reef", (second_p, len(TOKENS)), yes_no="YES"),
        example(9, "who built the bell rock lighthouse"),  # nobody found an answer on the page
    ]
    path = write(tmp_path, rows)
    assert sniff_format(path) == "nq"
    es = open_evalset(path)
    assert [item.id for item in es] == ["7", "8", "9"]
    where, yes, none = es.items
    anchor = where.anchors[0]
    assert anchor.source_id == "Bell_Rock"
    assert anchor.quote == "The Bell Rock is a reef . It lies off Angus ."
    assert "<" not in anchor.quote
    assert anchor.occurrence == 0
    assert where.answer == "off Angus"
    assert where.meta["short_answer_tokens"] == [list(span_of("off Angus"))]
    assert yes.answer == "yes" and yes.meta["yes_no_answer"] == "YES"
    assert none.qtype == QuestionType.UNANSWERABLE and not none.anchors and none.answer is None
    assert es.meta["questions_without_answer"] == 1
    # The gold span covers exactly the quote in the tag-free page nq_corpus gives.
    text = nq_corpus(path)["Bell_Rock"]
    assert text.startswith("Bell Rock The Bell Rock is a reef .")
    span = where.gold[0].span
    assert (span.doc_id, text[span.start : span.end]) == ("Bell_Rock", anchor.quote)


def test_repeated_quote_gets_its_occurrence(tmp_path):
    first = span_of("The Bell Rock is a reef .")
    second = span_of("The Bell Rock is a reef .", after=first[1])
    es = read_nq(write(tmp_path, [example(1, "what is the bell rock", second)]))
    anchor, span = es.items[0].anchors[0], es.items[0].gold[0].span
    assert anchor.quote == "The Bell Rock is a reef ." and anchor.occurrence == 1
    text = nq_corpus(tmp_path / "nq.jsonl")["Bell_Rock"]
    assert span.start == text.index(anchor.quote, text.index(anchor.quote) + 1)


def test_quotes_resolve_exactly_against_the_pages(tmp_path):
    second_p = TOKENS.index("<P>", 5)
    path = write(tmp_path, [example(1, "what is off angus", (second_p, len(TOKENS))), example(2, "what is it", span_of("The Bell Rock is a reef ."))])
    es = read_nq(path)
    _, report = AnchorResolver().resolve_with_report(es.with_items(i.model_copy(update={"gold": ()}) for i in es), Corpus.from_texts(nq_corpus(path)))
    assert report.counts()[MatchKind.EXACT] == 2
    assert [r.span for r in report.resolutions] == [i.gold[0].span for i in es]


def test_title_falls_back_to_example_id(tmp_path):
    es = read_nq(write(tmp_path, [example(5, "what is a reef", span_of("The Bell Rock is a reef ."), url="https://example.org/page")]))
    assert es.items[0].anchors[0].source_id == "nq-5"


def test_empty_question_is_skipped_and_counted(tmp_path):
    es = read_nq(write(tmp_path, [example(1, "  "), example(2, "what is a reef")]))
    assert [item.id for item in es] == ["2"]
    assert "1 question" in describe_skipped(es)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([example(1, "a reef"), "{not json"], "nq.jsonl:2: not valid JSON"),
        ([example(1, "a reef"), "", example(1, "a rock")], "nq.jsonl:3: question id '1' is used twice: at line 1"),
        ([example(1, "a reef"), "[1, 2]"], "nq.jsonl:2: expected a Natural Questions example object, found a list"),
    ],
)
def test_bad_lines_name_the_place(tmp_path, rows, message):
    path = write(tmp_path, rows)
    with pytest.raises(EvalSetError) as caught:
        read_nq(path)
    assert message in str(caught.value)


def test_cli_converts_and_reports_bad_input(tmp_path, capsys):
    path = write(tmp_path, [example(3, "where is the bell rock", span_of("The Bell Rock is a reef ."))])
    out = tmp_path / "out.jsonl"
    assert main(["convert", str(path), str(out)]) == 0
    assert open_evalset(out).items[0].anchors[0].quote == "The Bell Rock is a reef ."
    bad = write(tmp_path, [example(3, "a reef"), "{oops"], name="bad.jsonl")
    assert main(["info", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{bad}:2: not valid JSON") and "Traceback" not in err


def test_real_samples(realdata):
    folder = realdata / "qa-nq-farm"
    dev = open_evalset(folder / "dev_sample.jsonl")
    (item,) = dev.items
    assert item.id == "5328212470870865242"
    assert item.question == "how i.met your mother who is the mother"
    assert item.answer == "Tracy McConnell"
    anchor = item.anchors[0]
    assert anchor.source_id == "The_Mother_(How_I_Met_Your_Mother)"
    assert anchor.quote.startswith("Tracy McConnell , better known as `` The Mother ''")
    assert "<P>" not in anchor.quote and "</P>" not in anchor.quote
    span = item.gold[0].span
    assert nq_corpus(folder / "dev_sample.jsonl")[span.doc_id][span.start : span.end] == anchor.quote
    train = open_evalset(folder / "train_sample.jsonl")  # the example nobody could answer
    assert train.items[0].qtype == QuestionType.UNANSWERABLE and not train.items[0].anchors
    assert train.meta["questions_without_answer"] == 1


def test_two_revisions_of_a_page_get_two_documents(tmp_path):
    other_doc = "<P> The Bell Rock was rebuilt . </P>"
    rows = [
        example(1, "what is the bell rock", span_of("The Bell Rock is a reef .")),
        example(2, "what happened to the bell rock", (0, 7), url="https://en.wikipedia.org//w/index.php?title=Bell_Rock&amp;oldid=2", doc=other_doc),
        example(3, "is the bell rock a reef", span_of("The Bell Rock is a reef ."), yes_no="YES"),  # same text: same document
    ]
    path = write(tmp_path, rows)
    es = read_nq(path)
    assert [item.anchors[0].source_id for item in es] == ["Bell_Rock", "Bell_Rock@2", "Bell_Rock"]
    corpus = nq_corpus(path)
    assert set(corpus) == {"Bell_Rock", "Bell_Rock@2"}
    for item in es:  # every span points at its own quote
        span = item.gold[0].span
        assert corpus[span.doc_id][span.start : span.end] == item.anchors[0].quote


@pytest.mark.parametrize(
    "annotations, says",
    [
        (5, "`annotations` must be a list, found a number"),
        (["not an annotation"], r"annotations\[0\] must be an object, found a string"),
        ([{"long_answer": "x", "short_answers": 3}], r"annotations\[0\]\.long_answer must be an object"),
        ([{"long_answer": [4, 8]}], r"annotations\[0\]\.long_answer must be an object"),
        ([{"long_answer": {"start_token": "4", "end_token": 8}}], r"long_answer\.start_token must be a whole number, found a string"),
        ([{"long_answer": {"start_token": 4, "end_token": 9999}}], r"long_answer covers tokens \[4, 9999\), outside the page's"),
        (
            [{"long_answer": {"start_token": 4, "end_token": 8}, "short_answers": [{"start_token": 5, "end_token": 9999}]}],
            r"short_answers\[0\] covers tokens \[5, 9999\)",
        ),
    ],
)
def test_a_malformed_annotation_is_refused_at_its_line_not_read_as_no_answer(tmp_path, annotations, says):
    # Read as no answer, an annotated question was typed unanswerable and counted as one no annotator
    # answered; a token range past the page's end took the rest of the page as its evidence.
    row = example(1, "what is the bell rock")
    row["annotations"] = annotations
    with pytest.raises(EvalSetError, match=r":1: (annotations\[0\]\.)?" + says):
        read_nq(write(tmp_path, [row]))


def test_an_annotation_over_tags_alone_leaves_the_question_without_evidence(tmp_path):
    row = example(1, "what is the bell rock")
    row["annotations"] = [{"long_answer": {"start_token": 0, "end_token": 1}}]  # only a tag: no text
    (item,) = read_nq(write(tmp_path, [row])).items
    assert item.qtype == QuestionType.UNANSWERABLE and not item.anchors and not item.gold


def test_a_row_without_its_page_is_refused(tmp_path):
    row = example(1, "what is the bell rock")
    row["document_text"] = 5
    with pytest.raises(EvalSetError, match=r":1: `document_text` must be the page's text, found a number"):
        read_nq(write(tmp_path, [row]))


def test_whitespace_only_long_answer_is_passed_over(tmp_path):
    doc = "<P> \u00a0 </P> <P> A reef . </P>"
    row = example(1, "what is it", (0, 3), doc=doc)
    row["annotations"].append({"long_answer": {"start_token": 3, "end_token": 7}, "short_answers": [], "yes_no_answer": "NONE"})
    (item,) = read_nq(write(tmp_path, [row])).items
    assert item.anchors[0].quote == "A reef ."


def test_a_long_page_is_held_in_a_few_times_its_size(monkeypatch):
    # Each token's place was a pair of numbers in a list, with every token held at once: a page of 20 MB
    # took 560 MB to read. The memory taken while a page is read is counted here, not the time.
    import tracemalloc

    from reviewtui.evalset.io import nq

    monkeypatch.setattr(nq, "_PIECE", 4096, raising=False)
    document_text = " ".join("<P>" if k % 10 == 0 else f"word{k:05d}" for k in range(200_000))
    tracemalloc.start()
    try:
        page = nq._Page(document_text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= 4 * len(document_text)
    assert page.text == " ".join(token for token in document_text.split(" ") if token != "<P>")
    assert page.chars(0, 3) == (0, 19) and page.chars(0, 1) is None and page.chars(199_999, 200_001) is not None


def test_a_later_annotators_short_answer_is_taken_and_the_others_kept(tmp_path):
    """NQ's dev rows have five annotators: the first with a long answer gave no short one, a later one did,
    and the item was written with no answer at all."""
    first_p = span_of("<P> The Bell Rock is a reef . </P>")
    reef = span_of("a reef")
    row = example(1, "what is the bell rock", long_answer=first_p)  # annotator 1: the paragraph, no short answer
    second = dict(row["annotations"][0], annotation_id=2, short_answers=[{"start_token": reef[0], "end_token": reef[1]}])
    third = dict(row["annotations"][0], annotation_id=3, short_answers=[{"start_token": reef[1] - 1, "end_token": reef[1]}])
    row["annotations"] += [second, third]
    (item,) = read_nq(write(tmp_path, [row])).items
    assert item.answer == "a reef"
    assert item.meta["short_answer_tokens"] == [list(reef)] and item.meta["other_answers"] == ["reef"]
    assert item.anchors[0].quote == "The Bell Rock is a reef ."
    # one annotator only, or all agreeing: nothing else to keep
    (alone,) = read_nq(write(tmp_path, [example(2, "what is the bell rock", long_answer=first_p, shorts=[reef])], "b.jsonl")).items
    assert alone.answer == "a reef" and "other_answers" not in alone.meta


@pytest.mark.parametrize("annotations", ["absent", None, []])
def test_a_question_without_any_annotation_is_not_typed_unanswerable(tmp_path, annotations):
    # No annotator judged the page: "unanswerable" (and counted as one no annotator could answer) was a guess.
    row = example(1, "what is the bell rock")
    if annotations == "absent":
        del row["annotations"]
    else:
        row["annotations"] = annotations
    es = read_nq(write(tmp_path, [row]))
    (item,) = es.items
    assert item.qtype is None and not item.anchors and not item.gold
    assert not es.meta.get("questions_without_answer")
