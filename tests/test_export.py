"""Export of a review (library and `reviewtui export` / `reviewtui status`)."""

from __future__ import annotations

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import read_jsonl, write_jsonl
from reviewtui.evalset.review.export import next_version_path, rejected_path, rejected_set
from reviewtui.evalset.review.session import ReviewSession


def make_set(version: int = 1) -> cg.EvalSet:
    return cg.EvalSet(
        id="quiz",
        version=version,
        items=tuple(
            cg.EvalItem(
                id=f"q{i}",
                question=f"Which form does rule {i} ask for?",
                anchors=(cg.GoldAnchor(source_id="rules.pdf", quote=f"Rule {i} asks for form F{i}."),),
                meta={"batch": 3},
            )
            for i in range(5)
        ),
    )


@pytest.fixture
def reviewed(tmp_path):
    """A set on disk with a journal: q0 accepted, q1 rejected (reason), q2 edited, q3 skipped, q4 undecided."""
    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
        session.reject(note="asks for a form that rule 1 does not mention", reason="wrong-evidence")
        session.edit(question="Which form does rule 2 require?")
        session.skip()
    return path


@pytest.mark.parametrize(
    ("name", "version", "fmt", "expected"),
    [
        ("quiz.jsonl", 2, "jsonl", "quiz.v2.jsonl"),
        ("quiz.v2.jsonl", 3, "jsonl", "quiz.v3.jsonl"),
        ("quiz.v12.csv", 13, "csv", "quiz.v13.csv"),
        ("quiz.csv", 2, "jsonl", "quiz.v2.jsonl"),
        ("scifact", 2, "jsonl", "scifact.v2.jsonl"),  # a BEIR folder
        ("quiz.v2.jsonl", 2, "jsonl", "quiz.v2.reviewed.jsonl"),  # never the input itself
    ],
)
def test_default_export_names(tmp_path, name, version, fmt, expected):
    source = tmp_path / name
    source.write_text("")
    assert next_version_path(source, version, fmt) == tmp_path / expected


def test_rejected_name_and_bad_format(tmp_path):
    assert rejected_path(tmp_path / "quiz.v2.jsonl") == tmp_path / "quiz.v2.rejected.jsonl"
    with pytest.raises(cg.EvalSetError, match="cannot export as 'xml'"):
        next_version_path(tmp_path / "quiz.jsonl", 2, "xml")


def test_export_writes_the_next_version_beside_the_input(reviewed):
    with ReviewSession.open(reviewed) as session:
        out = session.export()
    assert out == reviewed.with_name("quiz.v2.jsonl")
    result = read_jsonl(out)
    assert result.version == 2 and result.id == "quiz"
    assert [it.id for it in result] == ["q0", "q2", "q4"]
    assert result.get("q2").question == "Which form does rule 2 require?"
    meta = dict(result.get("q0").meta)
    assert meta.pop("review")["verdict"] == "accepted"  # the record of the review: see test_export_record.py
    assert meta == {"batch": 3, "reviewed": True, "verdict": "accepted"}
    assert result.get("q4") == make_set().get("q4")  # undecided: exactly as it was


def test_rejected_export_carries_reason_note_and_reviewer(reviewed):
    with ReviewSession.open(reviewed) as session:
        out = session.export(rejected=True)
        in_memory = rejected_set(session.evalset, session.queue)
    assert out == reviewed.with_name("quiz.rejected.jsonl")
    rejected = read_jsonl(out)
    assert [it.id for it in rejected] == ["q1"] == [it.id for it in in_memory]
    meta = rejected[0].meta
    assert meta["reject_reason"] == "wrong-evidence"
    assert meta["review_note"] == "asks for a form that rule 1 does not mention"
    assert meta["reviewer"] == "ana" and meta["verdict"] == "rejected" and meta["decided_at"]


def test_cli_export_and_status(reviewed, capsys):
    journal_before = reviewed.with_name("quiz.jsonl.reviewtui-journal").read_bytes()
    assert main(["export", str(reviewed)]) == 0
    printed = capsys.readouterr().out
    assert "wrote" in printed and "no review journal" not in printed
    assert [it.id for it in read_jsonl(reviewed.with_name("quiz.v2.jsonl"))] == ["q0", "q2", "q4"]

    out = reviewed.with_name("fixed.csv")
    assert main(["export", str(reviewed), "-o", str(out), "--format", "csv"]) == 0
    assert [it.id for it in cg.read_csv(out)] == ["q0", "q2", "q4"]

    assert main(["export", str(reviewed), "--rejected"]) == 0
    assert "1 rejected question to" in capsys.readouterr().out

    assert main(["status", str(reviewed)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "quiz.jsonl: set 'quiz' v1, 5 questions, 5 in review"
    assert printed[1] == "decided 4 of 5 (80%), 1 left"
    assert printed[2] == "accepted 1 · rejected 1 · edited 1 · skipped 1"
    assert "rejected for: wrong-evidence 1" in printed
    # reading is all these commands do
    assert reviewed.with_name("quiz.jsonl.reviewtui-journal").read_bytes() == journal_before


def test_cli_export_of_a_set_never_reviewed_says_so(tmp_path, capsys):
    path = write_jsonl(make_set(), tmp_path / "fresh.jsonl")
    assert main(["export", str(path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith(f"note: no review journal at {path}.reviewtui-journal, so nothing has been decided yet")
    assert printed[1].startswith(f"wrote {tmp_path / 'fresh.v2.jsonl'}: version 2, 0 of 5 reviewed")


def test_cli_status_of_a_set_never_reviewed(tmp_path, capsys):
    path = write_jsonl(make_set(), tmp_path / "fresh.jsonl")
    assert main(["status", str(path)]) == 0
    assert "not started" in capsys.readouterr().out
    assert not path.with_name("fresh.jsonl.reviewtui-journal").exists()


@pytest.mark.parametrize("command", ["export", "status"])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, command):
    assert main([command, str(tmp_path / "missing.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.strip().endswith("missing.jsonl: no such file") and err.count("\n") == 1

    path = write_jsonl(make_set(), tmp_path / "quiz.jsonl")
    journal = path.with_name("quiz.jsonl.reviewtui-journal")
    with ReviewSession.open(path) as session:
        session.accept()
        session.accept()
    lines = journal.read_bytes().split(b"\n")
    lines[2] = lines[2][:-3] + b"xx}"
    journal.write_bytes(b"\n".join(lines))
    assert main([command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{journal}:3: damaged journal record") and err.count("\n") == 1

    journal.unlink()
    other = write_jsonl(make_set().replace(id="another"), tmp_path / "other.jsonl")
    with ReviewSession.open(other, journal_path=journal) as session:
        session.accept()
    assert main([command, str(path)]) == 2
    assert "belongs to set 'another'" in capsys.readouterr().err


def test_cli_export_with_an_empty_journal_says_it_holds_no_decisions(tmp_path, capsys):
    path = write_jsonl(make_set(), tmp_path / "fresh.jsonl")
    journal = tmp_path / "empty.journal"
    journal.write_bytes(b"")
    assert main(["export", str(path), "--journal", str(journal)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"note: the review journal at {journal} holds no decisions, so nothing has been decided yet")
    # the journal was named with --journal: the note does not tell the user to pass the option they passed
    assert "pass --journal" not in first and first.endswith("(check that --journal names the file the review was saved in)")


def test_a_csv_export_reviewed_and_exported_again_is_the_next_version(tmp_path, capsys):
    """CSV has no place for a set's version: quiz.v2.csv read back as version 1, and its export was a second
    version 2 (quiz.v2.reviewed.csv). The version an export was given is in its file's name, and counted from."""
    from reviewtui.evalset.io import write_csv

    path = write_csv(make_set(), tmp_path / "quiz.csv")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
    assert main(["export", str(path), "--to", "csv"]) == 0
    assert f"wrote {tmp_path / 'quiz.v2.csv'}: version 2" in capsys.readouterr().out
    second = tmp_path / "quiz.v2.csv"
    with ReviewSession.open(second, reviewer="bo", include_reviewed=True) as session:
        session.accept()
        session.reject(reason="ambiguous")
    assert main(["export", str(second), "--to", "csv"]) == 0
    assert f"wrote {tmp_path / 'quiz.v3.csv'}: version 3" in capsys.readouterr().out
    assert not (tmp_path / "quiz.v2.reviewed.csv").exists()
    # the header of a JSONL export says so too (version 3 is the CSV file's: a version is one set whatever its
    # format, so this one is the next), and the rejected questions name the version they left
    assert main(["export", str(second)]) == 0
    assert f"wrote {tmp_path / 'quiz.v4.jsonl'}: version 4" in capsys.readouterr().out
    written = read_jsonl(tmp_path / "quiz.v4.jsonl")
    assert written.version == 4 and dict(written.meta["review"])["from_version"] == 2
    assert main(["export", str(second), "--rejected", "-o", str(tmp_path / "r.jsonl")]) == 0
    rejected = read_jsonl(tmp_path / "r.jsonl")
    assert rejected.meta["rejected_from_version"] == 2 == dict(rejected.meta["review"])["from_version"]
    # a name of one's own takes the same version
    assert main(["export", str(second), "-o", str(tmp_path / "mine.jsonl")]) == 0
    assert read_jsonl(tmp_path / "mine.jsonl").version == 3
    # and what says a version before the export says the same one: info, status and the app's top bar
    capsys.readouterr()
    assert main(["info", str(second)]) == 0
    assert capsys.readouterr().out.startswith("quiz.v2 v2 ")
    assert main(["status", str(second)]) == 0
    assert capsys.readouterr().out.startswith("quiz.v2.csv: set 'quiz.v2' v2, ")
    assert main(["audit", str(second)]) in (0, 1)
    assert capsys.readouterr().out.startswith("audit of quiz.v2 v2: ")
    with ReviewSession.open(second, reviewer="bo", include_reviewed=True) as session:
        assert session.version == 2 and session.evalset.version == 1



def test_a_number_in_a_name_too_large_for_a_version_is_not_taken_for_one(tmp_path):
    """q.v99999999999999999999999.csv was filtered into version 10**23, a file no reader could then read."""
    from reviewtui.evalset.review.export import version_read

    evalset = make_set()
    assert version_read(evalset, tmp_path / "q.v99999999999999999999999.csv") == evalset.version
    assert version_read(evalset, tmp_path / f"q.v{2**63 - 1}.csv") == evalset.version
    assert version_read(evalset, tmp_path / f"q.v{2**63 - 2}.csv") == 2**63 - 2
    assert version_read(evalset, tmp_path / "q.v\u0665.csv") == evalset.version  # an Arabic-Indic five is not a version
    assert version_read(evalset, tmp_path / "q.v7.csv") == 7


def test_a_version_is_one_set_whatever_format_holds_it(tmp_path, capsys):
    """An export as JSONL, one more decision, then an export as CSV: both were "version 2" (quiz.v2.jsonl and
    quiz.v2.csv), two different sets under one version."""
    items = tuple(cg.EvalItem(id=f"q{k}", question=f"What does rule {k} say?", answer=str(k)) for k in range(3))
    path = write_jsonl(cg.EvalSet(id="quiz", items=items), tmp_path / "quiz.jsonl")
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
    assert main(["export", str(path)]) == 0
    with ReviewSession.open(path, reviewer="ana") as session:
        session.accept()
    assert main(["export", str(path), "--to", "csv"]) == 0
    assert (tmp_path / "quiz.v2.jsonl").exists() and (tmp_path / "quiz.v3.csv").exists()
    assert not (tmp_path / "quiz.v2.csv").exists()
    assert "version 3" in capsys.readouterr().out
    # filter too: its next version is after every file of every version
    assert main(["filter", str(path)]) == 0
    assert (tmp_path / "quiz.v4.jsonl").exists()
    # a name in capitals is the same version
    (tmp_path / "quiz.v5.CSV").write_text("id,question\nq1,What?\n")
    assert main(["export", str(path)]) == 0
    assert (tmp_path / "quiz.v6.jsonl").exists() and not (tmp_path / "quiz.v5.jsonl").exists()


def test_export_and_filter_name_a_folder_with_a_dot_alike(tmp_path):
    """A BEIR folder's whole name is the set's name: export dropped "2024" from ``nq.2024`` as if it were an
    extension while filter kept it, so neither saw the other's version 2."""
    from reviewtui.cli.filter import default_output

    folder = tmp_path / "nq.2024"
    folder.mkdir()
    assert next_version_path(folder, 2) == tmp_path / "nq.2024.v2.jsonl"
    assert default_output(folder, 2) == next_version_path(folder, 2)
    assert default_output(folder, 3, "train") == next_version_path(folder, 3, "jsonl", "train")
    assert rejected_path(folder) == tmp_path / "nq.2024.rejected.jsonl"
    versioned = tmp_path / "nq.v2"  # a folder named as a version is the next version's name without it
    versioned.mkdir()
    assert next_version_path(versioned, 3) == default_output(versioned, 3) == tmp_path / "nq.v3.jsonl"


def test_filter_names_its_fallback_as_export_does_its_own(tmp_path):
    """Where the plain name would be the input, each command marks its own: ``.filtered`` and ``.reviewed``."""
    from reviewtui.cli.filter import default_output

    source = tmp_path / "quiz.v2.csv"
    source.write_text("")
    assert default_output(source, 2) == tmp_path / "quiz.v2.filtered.csv"
    assert next_version_path(source, 2, "csv") == tmp_path / "quiz.v2.reviewed.csv"
    assert default_output(tmp_path / "quiz.json", 2) == tmp_path / "quiz.v2.jsonl"
