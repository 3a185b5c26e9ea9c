"""DPR retriever files: questions, their positive passages as documents and quotes, the rest counted."""

from __future__ import annotations

import json

import pytest

from reviewtui.cli import main
from reviewtui.evalset.io import describe_skipped, read_jsonl
from reviewtui.evalset.io.dpr import dpr_corpus, read_dpr
from reviewtui.evalset.io.sniff import open_evalset, sniff_format
from reviewtui.evalset.model.errors import InputError

PASSAGE = "Loans last two weeks. A member may renew a loan twice online, at the desk or by phone."


def _row(question: str, answers: list[str], *positives: dict, **more) -> dict:
    return {
        "question": question,
        "answers": answers,
        "positive_ctxs": list(positives),
        "negative_ctxs": [{"title": "Other", "text": "Nothing here.", "passage_id": "n1"}],
        "hard_negative_ctxs": [{"title": "Near", "text": "Loans of books.", "passage_id": "h1"}] * 2,
        **more,
    }


def _passage(passage_id: str, text: str = PASSAGE, title: str = "Loans", score: float = 1000) -> dict:
    return {"title": title, "text": text, "score": score, "title_score": 1, "passage_id": passage_id}


def _write(tmp_path, rows, name: str = "train.json"):
    path = tmp_path / name
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


def test_each_question_its_answer_and_its_positive_passages(tmp_path):
    path = _write(
        tmp_path,
        [
            # the gold passage listed twice (DPR's NQ files give it again among the retrieved, with another score)
            _row("How many times may a loan be renewed?", ["twice", "two times"], _passage("7"), _passage("7", score=13.4),
                 dataset="nq_dev"),
            _row("Who runs the library?", ["the council"], _passage("8", "Volunteers run it.", "Staff")),  # no answer in it
            _row("", ["x"], _passage("9")),  # no question: left out and counted
        ],
    )
    assert sniff_format(path) == "dpr"
    evalset = open_evalset(path)
    assert [item.id for item in evalset.items] == ["q1", "q2"]
    first, second = evalset.items
    assert first.answer == "twice" and first.meta["answers"] == ["twice", "two times"]
    assert first.meta["dataset"] == "nq_dev"
    # the sentence holding the answer, from the passage named <title>#<passage_id>, listed once
    assert [(a.source_id, a.quote) for a in first.anchors] == [
        ("Loans#7", "A member may renew a loan twice online, at the desk or by phone.")
    ]
    assert [tuple(d) for d in first.meta["gold_documents"]] == [("Loans#7", 1)]
    assert second.anchors == () and [tuple(d) for d in second.meta["gold_documents"]] == [("Staff#8", 1)]
    meta = evalset.meta
    assert meta["positive_passages_repeated"] == 1 and meta["answers_not_in_passages"] == 1
    assert meta["negative_passages_left_out"] == 6 and meta["questions_skipped"] == {"empty question": 1}
    said = describe_skipped(evalset)
    assert "1 positive passage listed a second time among the same question's passages (DPR), kept once" in said
    assert "6 negative and hard negative passages left out" in said  # of the questions kept
    corpus = dpr_corpus(path)  # every question's positive passages, under the names the items give them
    assert corpus["Loans#7"] == PASSAGE and corpus["Staff#8"] == "Volunteers run it."


def test_a_file_of_another_shape_is_refused_where_it_is_wrong(tmp_path):
    bad = _write(tmp_path, [_row("Which?", ["a"]) | {"positive_ctxs": {"text": "a"}}])
    with pytest.raises(InputError, match=r"row 1: `positive_ctxs` must be a list, found an object"):
        read_dpr(bad)
    bad = _write(tmp_path, [_row("Which?", "a", _passage("1"))])
    with pytest.raises(InputError, match=r"row 1: `answers` must be a list of texts"):
        read_dpr(bad)
    bad = _write(tmp_path, [_row("Which?", ["a"], _passage("1"), id="x"), _row("Who?", ["b"], _passage("2"), id="x")])
    with pytest.raises(InputError, match=r"question id 'x' is used twice: at row 1 and at row 2"):
        read_dpr(bad)
    with pytest.raises(InputError, match="expected DPR JSON"):
        read_dpr(_write(tmp_path, {"data": [1]}))


def test_the_real_sample_converts_with_its_passages_as_a_corpus_where_every_quote_is_found(realdata, tmp_path, capsys):
    sample = realdata / "qa-squad2-haystack" / "dpr" / "sample.json"
    assert main(["convert", str(sample), str(tmp_path / "dpr.jsonl"), "--corpus-out", str(tmp_path / "docs")]) == 0
    out = capsys.readouterr().out
    # SOURCES.md: 4 of 5 rows list a positive passage twice; one row's answer, NQ-tokenised
    # ("July 5 , 2018"), is in its passages only as they write it ("July 5, 2018"): found there too
    assert "4 positive passages listed a second time among the same question's passages (DPR), kept once" in out
    assert "no positive passage holds" not in out
    evalset = read_jsonl(tmp_path / "dpr.jsonl")
    assert len(evalset) == 5 and sum(1 for item in evalset.items if item.anchors) == 5
    third = evalset.items[2]
    assert third.answer == "July 5 , 2018" and all("July 5, 2018" in a.quote for a in third.anchors)
    assert main(["resolve", str(tmp_path / "dpr.jsonl"), "--corpus", str(tmp_path / "docs"), "-o", str(tmp_path / "r.jsonl")]) == 0
    said = capsys.readouterr().out
    assert " 0 normalised, 0 approximate, 0 not found" in said and "exact" in said
    assert main(["info", str(sample), "--from", "dpr"]) == 0


def test_the_same_rows_one_per_line_in_a_jsonl_file_are_read_alike(tmp_path):
    rows = [_row("How many times may a loan be renewed?", ["twice"], _passage("7"))]
    as_json = open_evalset(_write(tmp_path, rows))
    lines = tmp_path / "train.jsonl"
    lines.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    assert sniff_format(lines) == "dpr"
    assert open_evalset(lines).items == as_json.items
    assert dpr_corpus(lines) == dpr_corpus(tmp_path / "train.json")


def test_passages_of_other_texts_never_share_a_document_name(tmp_path):
    """Two questions' passages titled alike with no id were both "France#0": the corpus kept the first text,
    and the second question's quote was not in it. DPR's TriviaQA files name the id `psg_id`."""
    rows = [
        _row("Which city is the capital?", ["Paris"], {"title": "France", "text": "The capital is Paris."}),
        _row("Which currency is used?", ["Euro"], {"title": "France", "text": "The currency is the Euro."}),
        _row("Who wrote it?", ["Bob"], {"title": "a#b", "text": "Bob wrote it.", "psg_id": "1"},
             {"title": "a", "text": "Ann read it.", "passage_id": "b#1"}),
        _row("Which city again?", ["Paris"], {"title": "France", "text": "The capital is Paris."}),  # the same passage
    ]
    path = _write(tmp_path, rows)
    evalset = open_evalset(path)
    corpus = dpr_corpus(path)
    for item in evalset.items:
        for anchor in item.anchors:
            assert anchor.quote in corpus[anchor.source_id], (item.id, anchor.source_id)
    assert [a.source_id for a in evalset.get("q1").anchors] == ["France#"]
    assert [a.source_id for a in evalset.get("q2").anchors] == ["France# (2)"]
    assert [a.source_id for a in evalset.get("q3").anchors] == ["a#b#1"]
    assert [tuple(d)[0] for d in evalset.get("q3").meta["gold_documents"]] == ["a#b#1", "a#b#1 (2)"]
    assert [a.source_id for a in evalset.get("q4").anchors] == ["France#"]
    with pytest.raises(InputError, match=r"`answers` must be a list of texts, and holds a number"):
        read_dpr(_write(tmp_path, [_row("Which?", [1, 2], _passage("1"))]))


def test_a_list_that_is_not_dpr_says_what_its_entries_lack(tmp_path, capsys):
    """It said "expected DPR JSON (a list ...), found a list"."""
    from reviewtui.cli import main

    path = tmp_path / "nq.json"
    path.write_text('[{"question_text": "who?", "document_text": "x"}]')
    assert main(["info", str(path), "--from", "dpr"]) == 2
    err = capsys.readouterr().err
    assert "found a list" not in err and "its first entry has no `positive_ctxs` (its keys: question_text, document_text)" in err, err
    path.write_text("[1, 2]")
    assert main(["info", str(path), "--from", "dpr"]) == 2
    assert "its first entry is a number, not a question" in capsys.readouterr().err
    path.write_text("[{}]")
    assert main(["info", str(path), "--from", "dpr"]) == 2
    assert "its first entry is an empty object" in capsys.readouterr().err


def test_an_answer_of_spaces_alone_is_left_out_and_counted(tmp_path):
    """An answer of spaces was dropped without a count: nothing said the file listed it."""
    path = _write(tmp_path, [_row("How long is a loan?", ["two weeks", "   "], _passage("p1"))])
    evalset = read_dpr(path)
    assert evalset.items[0].answer == "two weeks" and "answers" not in evalset.items[0].meta  # one answer: no list
    assert evalset.meta["answers_skipped"] == {"blank": 1}
    assert "1 answer skipped: 1 blank." in describe_skipped(evalset)


def test_a_passage_named_with_a_number_is_counted_and_said(tmp_path, capsys):
    """Passage "Loans#7" of another text than an earlier "Loans#7" became "Loans#7 (2)": a passage id a retriever's
    run names, changed without a word (SQuAD's articles renamed so are counted, `articles_renamed`)."""
    rows = [
        _row("How long do loans last?", ["two weeks"], _passage("7")),
        _row("How often can a loan be renewed?", ["twice"], _passage("7", text="A loan may be renewed twice.")),
        _row("How long again?", ["two weeks"], _passage("7")),  # the same passage: no renaming
    ]
    path = _write(tmp_path, rows)
    evalset = read_dpr(path)
    assert [tuple(d)[0] for d in evalset.get("q2").meta["gold_documents"]] == ["Loans#7 (2)"]
    assert evalset.meta["passages_renamed"] == 1
    assert "1 positive passage whose title and id another passage of other text holds" in describe_skipped(evalset)
    assert main(["convert", str(path), str(tmp_path / "out.jsonl")]) == 0
    assert "named with a number" in capsys.readouterr().out


def test_a_tokenised_answer_is_found_as_the_passage_writes_it(tmp_path):
    # DPR's NQ answers put a space on each side of punctuation; the passages do not
    text = "The film premiered on July 5, 2018. It sold well in Japan. Guardians of the Galaxy Vol. 2 followed."
    path = _write(
        tmp_path,
        [
            _row("When did it premiere?", ["July 5 , 2018"], _passage("1", text, "Film")),
            _row("Which sequel followed?", ["Guardians of the Galaxy Vol . 2"], _passage("2", text, "Film")),
            _row("Which year?", ["July 52018"], _passage("3", text, "Film")),  # words run together: not the same words
        ],
    )
    evalset = read_dpr(path)
    first, second, third = evalset.items
    assert [a.quote for a in first.anchors] == ["The film premiered on July 5, 2018."]
    assert [a.quote for a in second.anchors] == ["Guardians of the Galaxy Vol. 2"]  # the splitter ends a sentence at "Vol."
    assert third.anchors == () and evalset.meta["answers_not_in_passages"] == 1
