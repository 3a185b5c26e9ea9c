"""`reviewtui overlap FILE OTHER`: the questions a set shares with another (a test split leaking into train)."""

from __future__ import annotations

import json

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.checks.overlap import Shared, shared_questions
from reviewtui.evalset.io import write_jsonl


def _item(item_id: str, question: str, answer: str | None = None, source: str = "handbook.md") -> cg.EvalItem:
    return cg.EvalItem(id=item_id, question=question, answer=answer, anchors=(cg.GoldAnchor(source_id=source, quote="A quote."),))


TEST = (
    _item("t1", "How long may a member keep a saw?", "Seven days"),
    _item("t2", "Who approves unpaid leave?", "The manager"),
    _item("t3", "What does the policy share?", "Location", source="policy-a.txt"),
    _item("t4", "Where is the tool library?", None),
)
TRAIN = (
    _item("r1", "how long may a member keep a SAW", "seven days "),  # case, punctuation and spaces aside
    _item("r2", "Who approves unpaid leave?", "HR"),
    _item("r3", "What does the policy share?", "Contacts", source="policy-b.txt"),  # asked of another document
    _item("r4", "Where is the tool library?", "Leeds"),
    _item("r5", "How long may a member keep a drill?", "Seven days"),
)


def test_shared_questions_are_the_same_words_in_order_not_asked_of_other_documents():
    found = shared_questions(cg.EvalSet(id="test", items=TEST), cg.EvalSet(id="train", items=TRAIN))
    assert found.pairs == [Shared("t1", "r1", True), Shared("t2", "r2", False), Shared("t4", "r4", None)]
    assert found.other_documents == 1  # t3: the same words, asked of another policy


def test_unicode_forms_and_invisible_characters_do_not_hide_a_shared_question():
    mine = (_item("a", "Où est le café ?"), _item("b", "What is the bud\u00adget?"), _item("c", "ＡＢＣ rules?"))
    theirs = (_item("x", "Ou\u0300 est le cafe\u0301 ?"), _item("y", "What is the budget?"), _item("z", "ABC rules?"))
    found = shared_questions(cg.EvalSet(id="m", items=mine), cg.EvalSet(id="t", items=theirs))
    assert [(s.item_id, s.other_id) for s in found.pairs] == [("a", "x"), ("b", "y"), ("c", "z")]


def test_the_match_reported_is_the_same_item_or_one_with_the_same_answer():
    """A copy of a set compared with itself paired Q002 with an earlier Q001 of other answer, and miscounted answers."""
    theirs = (_item("Q001", "How many days?", "7"), _item("Q002", "How many days?", "14"))
    found = shared_questions(cg.EvalSet(id="m", items=theirs), cg.EvalSet(id="t", items=theirs))
    assert found.pairs == [Shared("Q001", "Q001", True), Shared("Q002", "Q002", True)]
    mine = (_item("n1", "How many days?", "14"),)
    assert shared_questions(cg.EvalSet(id="m", items=mine), cg.EvalSet(id="t", items=theirs)).pairs == [Shared("n1", "Q002", True)]


def test_the_same_answer_is_looked_for_among_the_copies_that_share_a_document():
    """c1 cites doc1 and expects X: the first copy expecting X (d1) cites doc2 only, and the search fell back to the
    first copy citing doc1 (d2, answer Y), never seeing d3 (doc1, X): the pair was named and counted wrong."""
    mine = (_item("c1", "Where is the headquarters?", "X", source="doc1.txt"),)
    theirs = (
        _item("d1", "Where is the headquarters?", "X", source="doc2.txt"),
        _item("d2", "Where is the headquarters?", "Y", source="doc1.txt"),
        _item("d3", "Where is the headquarters?", "X", source="doc1.txt"),
    )
    found = shared_questions(cg.EvalSet(id="m", items=mine), cg.EvalSet(id="t", items=theirs))
    assert found.pairs == [Shared("c1", "d3", True)]


def test_answers_are_compared_in_one_unicode_form():
    mine = (_item("a", "Which city?", "Zu\u0308rich"), _item("b", "How long?", "８ cm"))
    theirs = (_item("x", "Which city?", "Zürich"), _item("y", "How long?", "8 cm"))
    found = shared_questions(cg.EvalSet(id="m", items=mine), cg.EvalSet(id="t", items=theirs))
    assert found.pairs == [Shared("a", "x", True), Shared("b", "y", True)]


def test_every_character_that_draws_nothing_and_punctuation_inside_words_are_set_aside():
    """The grapheme joiner, a variation selector after a letter and the Hangul fillers hid a shared question, which
    README says invisible characters do not; so did "Don't", "U.S." and "e-mail" against "Dont", "US", "email"."""
    base = "What is the capital of France?"
    mine = tuple(_item(f"i{k}", base.replace("capital", f"capi{mark}tal")) for k, mark in enumerate("\u034f\ufe0f\u3164\uffa0"))
    mine += (_item("p1", "Don't members pay dues?"), _item("p2", "Is the U.S. office open?"), _item("p3", "Is e-mail allowed?"))
    theirs = (_item("base", base), _item("o1", "Dont members pay dues?"), _item("o2", "Is the US office open?"), _item("o3", "Is email allowed?"))
    found = shared_questions(cg.EvalSet(id="m", items=mine), cg.EvalSet(id="t", items=theirs))
    assert [(s.item_id, s.other_id) for s in found.pairs] == [
        *((f"i{k}", "base") for k in range(4)), ("p1", "o1"), ("p2", "o2"), ("p3", "o3"),
    ]
    # a number is not a word: 3.5 days are not 35 days
    numbers = shared_questions(
        cg.EvalSet(id="m", items=(_item("n", "Is it 3.5 days?"),)), cg.EvalSet(id="t", items=(_item("m", "Is it 35 days?"),))
    )
    assert numbers.pairs == []


def test_a_beir_question_asked_of_other_relevant_documents_is_not_shared():
    """BEIR's relevant documents are in meta["gold_documents"]; the check looked at quotes and spans only."""
    mine = (cg.EvalItem(id="q1", question="What is a reef?", meta={"gold_documents": [["d1", 1]]}),)
    other = (cg.EvalItem(id="q2", question="What is a reef?", meta={"gold_documents": [["d2", 1]]}),)
    same = (cg.EvalItem(id="q3", question="What is a reef?", meta={"gold_documents": [["d1", 2]]}),)
    assert shared_questions(cg.EvalSet(id="m", items=mine), cg.EvalSet(id="t", items=other)).other_documents == 1
    assert shared_questions(cg.EvalSet(id="m", items=mine), cg.EvalSet(id="t", items=same)).pairs == [Shared("q1", "q3", None)]


def test_one_question_asked_of_many_documents_costs_a_look_per_document():
    """Every item compared with every other item of its wording took 97 s at 8,000 documents."""
    import time

    n = 20_000
    mine = tuple(_item(f"m{k}", "What does the contract say about assignment?", source=f"c{k}.txt") for k in range(n))
    theirs = tuple(_item(f"t{k}", "What does the contract say about assignment?", source=f"d{k}.txt") for k in range(n))
    started = time.process_time()
    found = shared_questions(cg.EvalSet(id="m", items=mine), cg.EvalSet(id="t", items=theirs))
    assert found.pairs == [] and found.other_documents == n
    assert time.process_time() - started < 20  # quadratic, it would take hours; linear, about a second


def test_the_command_lists_them_exits_1_and_0_when_none(tmp_path, capsys):
    test = write_jsonl(cg.EvalSet(id="test", items=TEST), tmp_path / "test.jsonl")
    train = write_jsonl(cg.EvalSet(id="train", items=TRAIN), tmp_path / "train.jsonl")
    assert main(["overlap", str(test), str(train)]) == 1
    out = capsys.readouterr().out
    assert (
        f"3 of the 4 questions of {test} are asked in {train} too (1 with the same expected answer, 1 with another, "
        "1 where one has none); 1 more asks the same words of other documents, not counted:"
    ) in out
    assert "  't1' = 'r1'" in out and "'t3'" not in out
    assert main(["overlap", str(test), str(train), "--to", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["questions"] == 4 and report["other_questions"] == 5 and report["asked_of_other_documents"] == 1
    assert report["shared"][0] == {"id": "t1", "other_id": "r1", "same_answer": True} and len(report["shared"]) == 3
    apart = write_jsonl(cg.EvalSet(id="apart", items=(_item("x", "Which bench saw is safest?"),)), tmp_path / "apart.jsonl")
    assert main(["overlap", str(apart), str(train)]) == 0
    assert "share no question" in capsys.readouterr().out


def test_a_set_against_itself_is_a_usage_error(tmp_path, capsys):
    import os

    test = write_jsonl(cg.EvalSet(id="test", items=TEST), tmp_path / "test.jsonl")
    os.link(test, tmp_path / "hard.jsonl")
    for other in (tmp_path / "." / "test.jsonl", tmp_path / "hard.jsonl"):
        assert main(["overlap", str(test), str(other)]) == 2
        assert "FILE and OTHER are the same set" in capsys.readouterr().err
    folder = tmp_path / "only"  # a BEIR folder with one qrels file: its default split is that one, not "test"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text('{"_id": "1", "text": "Which region grew fastest last year?"}\n')
    (folder / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n")
    assert main(["overlap", str(folder), str(folder), "--split", "train"]) == 2
    assert "FILE and OTHER are the same set" in capsys.readouterr().err


def test_one_pipe_given_as_both_sets_is_refused_before_it_is_read(tmp_path, capsys):
    """Read for FILE, the pipe had nothing left for OTHER, which was said to be an empty file."""
    import os
    import signal

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # never opened: the refusal comes first (opening it would wait for a writer)

    def waited(*_):
        raise TimeoutError("the pipe was opened: the command waits for a writer")

    before = signal.signal(signal.SIGALRM, waited)
    signal.alarm(10)
    try:
        assert main(["overlap", "--from", "csv", str(pipe), str(pipe)]) == 2
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    err = capsys.readouterr().err
    assert f"{pipe}: is a named pipe, which can be read only once; FILE and OTHER are the same input" in err


def test_a_file_name_that_is_not_utf8_is_written_in_the_json(tmp_path, capsys):
    import os

    test = write_jsonl(cg.EvalSet(id="test", items=TEST), tmp_path / os.fsdecode(b"bad\xffname.jsonl"))
    train = write_jsonl(cg.EvalSet(id="train", items=TRAIN), tmp_path / "train.jsonl")
    assert main(["overlap", str(test), str(train), "--to", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["file"].endswith("bad\\xffname.jsonl")


def test_ids_reach_the_terminal_inert(tmp_path, capsys, monkeypatch):
    evil = "t\x1b]0;pwned\x07[bold]1[/]"
    test = write_jsonl(cg.EvalSet(id="test", items=(_item(evil, "How long may a member keep a saw?"),)), tmp_path / "test.jsonl")
    train = write_jsonl(cg.EvalSet(id="train", items=TRAIN), tmp_path / "train.jsonl")
    assert main(["overlap", str(test), str(train)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "[bold]1[/]" in out


def test_scifacts_test_claims_asked_in_its_train_split_are_found(realdata, capsys):
    folder = str(realdata / "beir-scifact")
    assert main(["overlap", folder, folder, "--split", "test", "--other-split", "train", "--to", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {(s["id"], s["other_id"]) for s in report["shared"]} == {("870", "871"), ("1292", "1291")}
    assert (report["split"], report["other_split"]) == ("test.tsv", "train.tsv")


def test_what_reading_other_left_out_names_the_option_that_chooses_its_split(realdata, capsys):
    """Of OTHER, the note said "qrels/train.tsv was not read: --split train reads it": --split is FILE's."""
    folder = str(realdata / "beir-scifact")
    assert main(["overlap", folder, folder, "--split", "train"]) == 1
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: ")]
    assert "--split test reads it" in notes[0]  # FILE's
    assert "qrels/train.tsv was not read: --other-split train reads it" in notes[1], notes


def test_a_split_named_for_a_set_that_is_no_beir_folder_names_its_option(tmp_path, capsys):
    test = write_jsonl(cg.EvalSet(id="test", items=TEST), tmp_path / "test.jsonl")
    train = write_jsonl(cg.EvalSet(id="train", items=TRAIN), tmp_path / "train.jsonl")
    assert main(["overlap", str(test), str(train), "--other-split", "train"]) == 2
    assert "a split (--other-split) chooses among the qrels files" in capsys.readouterr().err
