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
    shared = list(shared_questions(cg.EvalSet(id="test", items=TEST), cg.EvalSet(id="train", items=TRAIN)))
    assert shared == [Shared("t1", "r1", True), Shared("t2", "r2", False), Shared("t4", "r4", None)]


def test_the_command_lists_them_exits_1_and_0_when_none(tmp_path, capsys):
    test = write_jsonl(cg.EvalSet(id="test", items=TEST), tmp_path / "test.jsonl")
    train = write_jsonl(cg.EvalSet(id="train", items=TRAIN), tmp_path / "train.jsonl")
    assert main(["overlap", str(test), str(train)]) == 1
    out = capsys.readouterr().out
    assert f"3 of the 4 questions of {test} are asked in {train} too (1 with the same expected answer, 1 with another, 1 where one has none):" in out
    assert "  't1' = 'r1'" in out and "'t3'" not in out
    assert main(["overlap", str(test), str(train), "--to", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["questions"] == 4 and report["other_questions"] == 5
    assert report["shared"][0] == {"id": "t1", "other_id": "r1", "same_answer": True} and len(report["shared"]) == 3
    apart = write_jsonl(cg.EvalSet(id="apart", items=(_item("x", "Which bench saw is safest?"),)), tmp_path / "apart.jsonl")
    assert main(["overlap", str(apart), str(train)]) == 0
    assert "share no question" in capsys.readouterr().out


def test_a_set_against_itself_is_a_usage_error(tmp_path, capsys):
    test = write_jsonl(cg.EvalSet(id="test", items=TEST), tmp_path / "test.jsonl")
    assert main(["overlap", str(test), str(tmp_path / "." / "test.jsonl")]) == 2
    assert "FILE and OTHER are the same set" in capsys.readouterr().err


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
    shared = {(s["id"], s["other_id"]) for s in json.loads(capsys.readouterr().out)["shared"]}
    assert shared == {("870", "871"), ("1292", "1291")}
