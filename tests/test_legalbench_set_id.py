"""A LegalBench-RAG file's set is named after the file, as every other format's is, so that a review journal of
one LegalBench-RAG file is refused for another; every file was set ``legalbench-rag`` before, and a review begun
then (its journal, a team's journals) still goes on on its own file, every command with it."""

from __future__ import annotations

import json
from pathlib import Path

import orjson

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import open_evalset
from reviewtui.evalset.io.journal import decode_line, encode_record
from reviewtui.evalset.review.session import ReviewSession, default_journal_path
from reviewtui.evalset.review.team import TeamPlan
from reviewtui.evalset.review.teamwork import open_adjudication
from tests.tui_helpers import FakeClock


def _tests(first: int, n: int = 4) -> dict[str, object]:
    return {
        "tests": [
            {
                "query": f"Which clause of policy {k} covers the sharing of data number {k}?",
                "snippets": [{"file_path": f"policy{k}.txt", "span": [100 * k, 100 * k + 9], "answer": f"clause{k:03d}"}],
            }
            for k in range(first, first + n)
        ]
    }


def _write(path: Path, first: int = 0) -> Path:
    path.write_text(json.dumps(_tests(first)), encoding="utf-8")
    return path


def _as_before(journal: Path) -> None:
    """The journal as a review begun before wrote it: its set named ``legalbench-rag``, whatever the file."""
    first, rest = journal.read_bytes().split(b"\n", 1)
    header = decode_line(first)
    assert header is not None and header["op"] == "start"
    journal.write_bytes(encode_record({**header, "set": "legalbench-rag"}) + rest)


def test_a_legalbench_files_set_is_named_after_the_file_and_the_documented_reader_keeps_its_default(tmp_path, capsys):
    path = _write(tmp_path / "privacy_qa.json")
    assert open_evalset(path).id == "privacy_qa"
    assert open_evalset(path, format="legalbench").id == "privacy_qa"
    other_name = path.rename(tmp_path / "privacy_qa.lbrag")  # read by the format given, not by its .json name
    assert open_evalset(other_name, format="legalbench").id == "privacy_qa"
    # the reference page's example: read_legalbench_rag's own default is kept for the library
    assert cg.read_legalbench_rag(other_name).id == "legalbench-rag"
    assert cg.read_legalbench_rag(other_name, evalset_id=None).id == "privacy_qa"
    assert main(["info", str(other_name), "--from", "legalbench"]) == 0
    assert capsys.readouterr().out.startswith("privacy_qa v1 (legalbench-rag)")


def test_a_journal_of_another_legalbench_file_is_refused(tmp_path, capsys):
    mine, other = _write(tmp_path / "privacy_qa.json"), _write(tmp_path / "other.json", first=10)
    with ReviewSession.open(mine, clock=FakeClock()) as session:
        session.accept()
    journal = default_journal_path(mine)
    # was exit 0, "1 earlier decision not restored": every LegalBench file was the same set
    assert main(["status", str(other), "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert "belongs to set 'privacy_qa'" in err and "not to 'other'" in err
    _as_before(journal)  # begun before: the file it was begun on names its set
    assert main(["status", str(other), "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert "belongs to set 'privacy_qa'" in err and "not to 'other'" in err


def test_a_review_begun_when_every_legalbench_file_was_one_set_goes_on_on_its_file(tmp_path, capsys):
    path = _write(tmp_path / "privacy_qa.json")
    with ReviewSession.open(path, clock=FakeClock()) as session:
        session.accept()
        session.reject("ambiguous")
    journal = default_journal_path(path)
    _as_before(journal)
    with ReviewSession.open(path, clock=FakeClock()) as session:
        assert session.queue.stats().decided == 2
        assert session.resume_report.resumed and not session.resume_report.lines()[1:]  # nothing said to be lost
        session.accept()
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("privacy_qa.json: set 'privacy_qa' v1") and "decided 3 of 4" in out and "not restored" not in out
    # opened by another name of the same file (a link to it), the journal named: still its set
    link = tmp_path / "link.json"
    link.symlink_to(path)
    assert main(["status", str(link), "--journal", str(journal)]) == 0
    assert "decided 3 of 4" in capsys.readouterr().out
    assert main(["export", str(path)]) == 0
    capsys.readouterr()
    header = orjson.loads((tmp_path / "privacy_qa.v2.jsonl").read_bytes().split(b"\n", 1)[0])["_evalset"]
    assert header["id"] == "privacy_qa" and header["meta"]["review"]["counts"]["decided"] == 3


def test_a_teams_review_begun_when_every_legalbench_file_was_one_set_goes_on(tmp_path, capsys):
    path = _write(tmp_path / "privacy_qa.json")
    assert main(["assign", str(path), "--reviewers", "ana,bo", "--overlap", "2"]) == 0
    plan = TeamPlan.load(path)
    assert plan is not None
    for reviewer, reject in (("ana", False), ("bo", True)):
        with ReviewSession.open(path, reviewer=reviewer, team=plan, clock=FakeClock()) as session:
            session.reject("ambiguous") if reject else session.accept()
            session.accept()
    adjudication = open_adjudication(plan, open_evalset(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        session.accept()
    journals = sorted(plan.folder.glob("*.reviewtui-journal"))
    assert len(journals) == 3
    for journal in journals:
        _as_before(journal)
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ana: decided 2 of 4" in out and "bo: decided 2 of 4" in out and "adjudicated so far: 1" in out
    assert main(["status", str(path), "--journal", str(plan.journal_for("ana"))]) == 0
    assert "decided 2 of 4" in capsys.readouterr().out
    assert main(["agreement", str(path)]) == 0
    assert "ana 2, bo 2" in capsys.readouterr().out
    assert main(["export", str(path), "--consensus", "adjudicated"]) == 0
    assert "version 2, 4 items (adjudicated consensus)" in capsys.readouterr().out
    with ReviewSession.open(path, reviewer="ana", team=plan, clock=FakeClock()) as session:
        assert session.queue.stats().decided == 2
    adjudication = open_adjudication(plan, open_evalset(path), path, reviewer="dee", clock=FakeClock())
    assert adjudication is not None
    with adjudication.session as session:
        assert session.queue.stats().decided == 1
    # another LegalBench file given these journals (its team folder a copy of this one) is refused, as a CSV is
    other = _write(tmp_path / "other.json")
    (tmp_path / "other.json.reviews").mkdir()
    for name in ("plan.json", *(journal.name for journal in journals)):
        (tmp_path / "other.json.reviews" / name).write_bytes((plan.folder / name).read_bytes())
    assert main(["status", str(other)]) == 2
    err = capsys.readouterr().err
    assert "belongs to set 'privacy_qa'" in err and "not to 'other'" in err
