"""`reviewtui audit` and `reviewtui filter` from the command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.cli import main
from reviewtui.evalset.io import read_jsonl, write_jsonl

QUOTE = "Employees accrue 1.5 days of leave per month."


def item(id, question, answer="Employees accrue one and a half days of leave each month.", **extra):
    return cg.EvalItem(id=id, question=question, answer=answer, anchors=(cg.GoldAnchor("handbook.pdf", QUOTE),), **extra)


@pytest.fixture
def conflicting(tmp_path: Path) -> Path:
    evalset = cg.EvalSet(
        id="quiz",
        items=(
            item("q1", "How much leave do employees accrue per month?"),
            item("q2", "How much leave do employees accrue per month?", answer="Two days every month, paid."),
            item("q3", "it"),
            item("q4", "Who approves unpaid leave for part-time staff members?"),
        ),
    )
    return write_jsonl(evalset, tmp_path / "quiz.jsonl")


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    evalset = cg.EvalSet(
        id="clean",
        items=tuple(
            item(f"q{k}", f"What does the {topic} policy say about approvals by managers?", qtype="factoid")
            for k, topic in enumerate(["travel", "payroll", "security", "remote work"])
        ),
    )
    return write_jsonl(evalset, tmp_path / "clean.jsonl")


def test_audit_exits_1_on_a_fail_and_prints_text(conflicting, capsys):
    assert main(["audit", str(conflicting)]) == 1
    out, err = capsys.readouterr()
    assert "FAIL" in out and "conflicting-answers" in out and "q1, q2" in out
    assert err == ""  # not a terminal: no progress bar


def test_audit_exits_0_when_nothing_fails(clean, capsys):
    assert main(["audit", str(clean)]) == 0
    assert "audit of clean v1" in capsys.readouterr().out


def test_audit_exits_2_on_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "question": "x"}\n{not json\n', encoding="utf-8")
    assert main(["audit", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert main(["audit", str(tmp_path / "missing.jsonl")]) == 2


def test_unwritable_output_is_a_one_line_error(conflicting, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert main(["audit", str(conflicting), "-o", str(blocker / "report.json")]) == 2
    assert main(["filter", str(conflicting), "-o", str(blocker / "kept.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("cannot write") == 2


def test_audit_json_carries_per_item_flags(conflicting, capsys):
    assert main(["audit", str(conflicting), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "FAIL"
    flag = data["flags"]["q2"][0]
    assert flag == {"check": "conflicting-answers", "severity": "high", "reason": flag["reason"], "related_ids": ["q1"]}
    assert "too-short" in {f["check"] for f in data["flags"]["q3"]}


@pytest.mark.parametrize(("name", "marker"), [("report.html", "<!doctype html>"), ("report.md", "# Eval-set audit"), ("report.json", '"status"')])
def test_audit_writes_the_format_the_file_name_asks_for(conflicting, tmp_path, capsys, name, marker):
    out = tmp_path / "reports" / name
    out.parent.mkdir()
    assert main(["audit", str(conflicting), "-o", str(out)]) == 1
    assert marker in out.read_text(encoding="utf-8")
    assert capsys.readouterr().out == ""
    assert not list(out.parent.glob(".*.tmp"))  # the atomic write left no temporary file


def test_audit_category_key(tmp_path, capsys):
    items = tuple(item(f"q{k}", f"What does the {t} policy say about approvals?", meta={"dept": "hr" if k else "it"}) for k, t in enumerate(["travel", "payroll", "security", "leave"]))
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    assert main(["audit", str(path), "--category-key", "dept", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    coverage = [f for f in data["findings"] if f["check"] == "category-coverage"]
    assert [f["item_ids"] for f in coverage] == [["q0"]]


def test_audit_with_a_corpus_adds_evidence_flags(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "handbook.txt").write_text("Employees accrue 1.5 days of leave per month. Nothing else.", encoding="utf-8")
    items = (
        cg.EvalItem(id="a", question="How much leave do employees accrue per month?", anchors=(cg.GoldAnchor("handbook.txt", QUOTE),)),
        cg.EvalItem(id="b", question="Who approves unpaid leave for part-time staff?", anchors=(cg.GoldAnchor("handbook.txt", "Managers approve unpaid leave in writing."),)),
    )
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    assert main(["audit", str(path), "--corpus", str(corpus), "--format", "json"]) == 0
    flags = json.loads(capsys.readouterr().out)["flags"]
    assert flags["b"][0]["severity"] == "high" and "not found" in flags["b"][0]["reason"]
    assert "unresolved-evidence" not in {f["check"] for f in flags["b"]}


def test_with_a_corpus_the_duplicate_flags_say_what_filter_does_with_the_file(tmp_path, capsys):
    """`filter` takes no corpus: a copy whose quote the corpus lacks is dropped as a copy by it, not removed as
    unresolved evidence, as the flags said when the audit checked the set as resolved (the first copy's quote, found,
    gave it a gold span, and the filter of unresolved evidence stopped standing down)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "handbook.txt").write_text(f"{QUOTE} Nothing else.", encoding="utf-8")
    asked = "How much leave do employees accrue per month?"
    items = (
        cg.EvalItem(id="a", question=asked, answer="1.5 days", anchors=(cg.GoldAnchor("handbook.txt", QUOTE),)),
        cg.EvalItem(id="b", question=asked, answer="1.5 days", anchors=(cg.GoldAnchor("handbook.txt", "A sentence no page holds."),)),
        cg.EvalItem(id="c", question="Who approves unpaid leave for part-time staff?", answer="Managers", anchors=(cg.GoldAnchor("handbook.txt", QUOTE),)),
    )
    path = write_jsonl(cg.EvalSet(id="s", items=items), tmp_path / "s.jsonl")
    main(["audit", str(path), "--corpus", str(corpus), "--format", "json"])
    flags = json.loads(capsys.readouterr().out)["flags"]
    (copy,) = [f for f in flags["b"] if f["check"] == "exact-duplicate"]
    assert "`reviewtui filter` drops this one and keeps 'a'" in copy["reason"], copy["reason"]
    assert any(f["check"] == "evidence-not-found" for f in flags["b"])  # the corpus was looked in all the same
    out = tmp_path / "kept.jsonl"
    assert main(["filter", str(path), "-o", str(out)]) == 0
    assert [i.id for i in read_jsonl(out).items] == ["a", "c"]
    capsys.readouterr()


def test_progress_bar_only_on_a_terminal(conflicting, monkeypatch, capsys):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    fake = Terminal()
    monkeypatch.setattr(sys, "stderr", fake)
    assert main(["audit", str(conflicting), "--format", "json"]) == 1
    assert fake.getvalue()  # rich drew (and cleared) a bar
    json.loads(capsys.readouterr().out)  # stdout stays clean JSON


def test_the_terminal_progress_bar_runs_no_thread_so_the_scan_can_fork(monkeypatch):
    import threading

    from reviewtui.cli.progress import TerminalProgress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    fake = Terminal()
    monkeypatch.setattr(sys, "stderr", fake)
    before = threading.active_count()
    with TerminalProgress("scanning") as bar:
        bar(5, 10)
        assert threading.active_count() == before
        bar(10, 10)
    assert "scanning" in fake.getvalue()


def test_audit_piped_in_a_subprocess_is_quiet(conflicting):
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui", "audit", str(conflicting), "--format", "json"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1 and done.stderr == ""
    assert json.loads(done.stdout)["status"] == "FAIL"


# --- filter ------------------------------------------------------------------------------------


def test_filter_writes_the_next_version_beside_the_input(conflicting, capsys):
    before = conflicting.read_bytes()
    assert main(["filter", str(conflicting)]) == 0
    out = capsys.readouterr().out
    target = conflicting.with_name("quiz.v2.jsonl")
    written = read_jsonl(target)
    # q2 asks q1's question with another answer: a conflict for a reviewer, so the default profile keeps both
    assert written.version == 2 and [i.id for i in written] == ["q1", "q2", "q4"]
    assert conflicting.read_bytes() == before
    assert "too-short (1):\n  q3: " in out and "near-duplicate (" not in out
    assert "kept 1 item that repeats an earlier question with another expected answer: 'q2' (as 'q1')" in out
    assert "kept 3 of 4 questions" in out and str(target) in out
    assert "CAUTION [evalset]: general-knowledge:" in out


def test_filter_output_names(conflicting, tmp_path, capsys):
    out = tmp_path / "elsewhere" / "kept.csv"
    out.parent.mkdir()
    assert main(["filter", str(conflicting), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("id,question")
    again = conflicting.with_name("quiz.v2.jsonl")
    assert main(["filter", str(conflicting)]) == 0
    assert main(["filter", str(again)]) == 0
    assert read_jsonl(conflicting.with_name("quiz.v3.jsonl")).version == 3


def test_filter_never_overwrites_the_input_even_when_forced(conflicting, capsys):
    before = conflicting.read_bytes()
    for force in ([], ["--force"]):
        assert main(["filter", str(conflicting), "-o", str(conflicting), *force]) == 2
        err = capsys.readouterr().err
        assert err == f"{conflicting}: is the input set itself; reviewtui never writes over it (name another output file)\n"
    assert conflicting.read_bytes() == before


def test_the_commands_format_list_is_the_reports():
    from reviewtui.cli import audit as command
    from reviewtui.evalset.checks import report

    assert command.FORMATS == report.FORMATS


def test_a_progress_bar_with_show_after_stays_away_for_quick_work_and_shows_for_slow(monkeypatch):
    from reviewtui.cli import progress as progress_module
    from reviewtui.cli.progress import TerminalProgress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    clock = [100.0]
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: clock[0])
    quick = Terminal()
    monkeypatch.setattr(sys, "stderr", quick)
    with TerminalProgress("reading", show_after=0.3) as bar:
        bar(5, 10)
        bar(10, 10)
    assert quick.getvalue() == "" and bar.progress is None  # nothing drawn, rich not even set up

    slow = Terminal()
    monkeypatch.setattr(sys, "stderr", slow)
    with TerminalProgress("reading", show_after=0.3) as bar:
        bar(2, 10)
        assert slow.getvalue() == ""
        clock[0] += 0.5
        bar(4, 10)
        assert bar.progress is not None and bar.progress.tasks[0].completed == 4
    assert "reading" in slow.getvalue()


def test_the_line_about_a_written_report_says_what_was_done_first(tmp_path, capsys):
    path = write_jsonl(
        cg.EvalSet(id="s", items=tuple(cg.EvalItem(id=f"q{i}", question=f"Which form does rule {i} ask for?") for i in range(3))),
        tmp_path / "s.jsonl",
    )
    out = tmp_path / "audit.html"
    main(["audit", str(path), "-o", str(out)])
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"wrote the html report to {out} (audit status ")


def test_a_report_named_with_no_report_extension_is_said_to_be_text(tmp_path, capsys):
    """`-o audit.jsonl` wrote a text report under a JSON-looking name, and the line said only "text"."""
    path = write_jsonl(
        cg.EvalSet(id="s", items=tuple(cg.EvalItem(id=f"q{i}", question=f"Which form does rule {i} ask for?") for i in range(3))),
        tmp_path / "s.jsonl",
    )
    main(["audit", str(path), "-o", str(tmp_path / "audit.jsonl")])
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("wrote the text report to ") and line.endswith("so it is text (--to json, md or html for another)")
    with pytest.raises(ValueError):  # text, as the line says, not JSON
        json.loads((tmp_path / "audit.jsonl").read_text())
    for name, options in (("audit.txt", []), ("audit2.jsonl", ["--to", "json"])):
        main(["audit", str(path), "-o", str(tmp_path / name), *options])
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert "so it is text" not in line, name


def test_the_profile_is_chosen_on_the_command_line_and_named_in_the_report(tmp_path, capsys):
    import json

    from reviewtui.cli.audit import PROFILE_NAMES
    from reviewtui.evalset.checks.registry import PROFILES

    assert PROFILE_NAMES == PROFILES
    path = tmp_path / "set.jsonl"
    path.write_text(
        '{"id": "a", "question": "What is the name given to the input string of a computational problem?", "answer": "An instance"}\n'
        '{"id": "b", "question": "What is the name given to the input string of a computational solution?", "answer": "Unknown"}\n'
    )
    reports = {}
    for profile in PROFILE_NAMES:
        main(["audit", str(path), "--to", "json", "--profile", profile])
        reports[profile] = json.loads(capsys.readouterr().out)
    assert reports["review"]["profile"] == "review" and reports["goldensetauditor"]["profile"] == "goldensetauditor"
    weights = {p: {f["check"]: f["severity"] for f in r["flags"]["b"]} for p, r in reports.items()}
    # a pair only the filter's word join finds (71 % of content words: the tool reports no such pair) stays low
    assert weights["goldensetauditor"]["near-duplicate"] == "low" and weights["review"]["near-duplicate"] == "hint"
    # The counts say what the pane shows: a hint is not counted as a warning.
    assert "near-duplicate" in reports["review"]["hint_counts"] and "near-duplicate" not in reports["review"]["warning_counts"]
    assert reports["goldensetauditor"]["warning_counts"]["near-duplicate"] == 2
    main(["audit", str(path)])
    text = capsys.readouterr().out
    assert "items each check warns (review profile, low or above):" in text
    assert "items each check only hints at (shown dimmed, not counted as warnings; an item may be warned by another check): near-duplicate 2" in text


def test_the_check_table_says_where_the_review_profile_shows_only_hints(tmp_path, capsys):
    # The table is goldensetauditor's; beside its WARN it says what the app shows for those items in this profile.
    path = tmp_path / "set.jsonl"
    question = "Which annual budget report lists library tool repair costs, volunteer hours, membership fees and insurance {}?"
    path.write_text(
        json.dumps({"id": "a", "question": question.format("premiums"), "answer": "The 2023 report"}) + "\n"
        + json.dumps({"id": "b", "question": question.format("payments"), "answer": "The 2024 report"}) + "\n"
    )
    main(["audit", str(path)])
    (row,) = [line for line in capsys.readouterr().out.splitlines() if " near-duplicates " in line]
    assert row.lstrip().startswith("WARN") and row.endswith("; review profile: hints only, not warnings]")
    for fmt in ("md", "html"):
        main(["audit", str(path), "--to", fmt])
        assert "review profile: hints only, not warnings" in capsys.readouterr().out
    main(["audit", str(path), "--profile", "goldensetauditor"])
    assert "hints only" not in capsys.readouterr().out


def test_copies_sharing_an_answer_among_conflicting_ones_are_counted_as_filter_removes_them(tmp_path, capsys):
    """Three copies of one question, two with one answer: `filter` removed the second as an exact duplicate,
    while the audit and the app said only "conflicting answers" (and that c2 expects another answer)."""
    question = "Which policy covers the refund of damaged goods ordered online?"
    evalset = cg.EvalSet(
        id="mixed",
        items=(item("c1", question, answer="Policy 7"), item("c2", question, answer="policy 7 "), item("c3", question, answer="Policy 9")),
    )
    path = write_jsonl(evalset, tmp_path / "mixed.jsonl")
    assert main(["audit", str(path), "--to", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    exact = [f for f in report["findings"] if f["check"] == "exact-duplicates"]
    assert [f["item_ids"] for f in exact] == [["c1", "c2"]] and "other copies of it expect another answer" in exact[0]["detail"]
    assert [f["check"] for f in report["findings"]].count("conflicting-answers") == 1
    assert {f["check"]: f["severity"] for f in report["flags"]["c2"]}["exact-duplicate"] == "medium"
    assert "exact-duplicate" not in {f["check"] for f in report["flags"]["c3"]}
    assert main(["filter", str(path), "-o", str(tmp_path / "kept.jsonl")]) == 0
    assert "removed: exact-duplicate 1" in capsys.readouterr().out
    assert [i.id for i in read_jsonl(tmp_path / "kept.jsonl")] == ["c1", "c3"]
    # goldensetauditor reports such a question as a conflict alone, and so does its profile
    assert main(["audit", str(path), "--to", "json", "--profile", "goldensetauditor"]) == 1
    parity = json.loads(capsys.readouterr().out)
    assert [f["check"] for f in parity["findings"] if f["check"] in ("exact-duplicates", "conflicting-answers")] == [
        "conflicting-answers"
    ]


def test_the_goldensetauditor_profile_weighs_flags_as_its_findings(tmp_path, capsys):
    """The profile's findings used the tool's weights and its flags the app's: a weak answer was a medium finding
    and a low flag, an over-easy one the reverse, and "items with a medium or high flag" counted by the flags."""
    path = tmp_path / "set.jsonl"
    path.write_text(
        '{"id": "w", "question": "Which office books international travel for employees?", "answer": "HR", "qtype": "factoid"}\n'
        '{"id": "e", "question": "What colour is the sky on a clear day?", "answer": "The colour of the sky on a clear day", "qtype": "factoid"}\n'
        '{"id": "c", "question": "How many paid sick days does each employee receive?", "answer": "Ten paid days each calendar year", "qtype": "numeric"}\n'
        '{"id": "n1", "question": "Which manager approves unpaid leave for part-time staff members in the Paris office?", "answer": "The regional director of human resources", "qtype": "numeric"}\n'
        '{"id": "n2", "question": "Which manager approves unpaid leave for part-time staff members in the Lyon office?", "answer": "The regional director of human resources", "qtype": "numeric"}\n'
    )
    assert main(["audit", str(path), "--to", "json", "--profile", "goldensetauditor"]) == 0
    report = json.loads(capsys.readouterr().out)
    finding_weight = {(f["check"], i): f["severity"] for f in report["findings"] for i in f["item_ids"]}
    flag_name = {"near-duplicates": "near-duplicate", "exact-duplicates": "exact-duplicate"}
    compared = 0
    for (check, item_id), severity in finding_weight.items():
        flags = {f["check"]: f["severity"] for f in report["flags"].get(item_id, [])}
        assert flags[flag_name.get(check, check)] == severity, (check, item_id)
        compared += 1
    assert {check for check, _ in finding_weight} >= {"weak-answer", "over-easy", "category-coverage", "near-duplicates"}
    assert compared == 6


def test_a_beir_folder_is_audited_against_its_own_corpus_as_the_app_reviews_it(tmp_path, capsys, monkeypatch):
    """The app opens a BEIR folder's corpus.jsonl and warned of a relevant document missing from it; `audit`
    of the same folder did not look, and counted one warned item fewer (ARCD's q549)."""
    import json

    from reviewtui.cli import options

    def folder(name: str, corpus: str | None) -> Path:
        root = tmp_path / name
        (root / "qrels").mkdir(parents=True)
        queries = "".join(json.dumps({"_id": f"q{n}", "text": f"Which clause of the lease covers case {n}?"}) + "\n" for n in range(3))
        (root / "queries.jsonl").write_text(queries, encoding="utf-8")
        (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq0\td0\t1\nq1\td1\t1\nq2\td9\t1\n", encoding="utf-8")
        if corpus is not None:
            (root / "corpus.jsonl").write_text(corpus, encoding="utf-8")
        return root

    corpus = "".join(f'{{"_id": "d{n}", "title": "Clause {n}", "text": "Case {n} is covered here."}}\n' for n in range(3))
    with_corpus = folder("with", corpus)
    assert main(["audit", str(with_corpus), "--to", "json", "-o", str(tmp_path / "a.json")]) == 0
    said = capsys.readouterr().err
    assert f"checked against the folder's own {with_corpus / 'corpus.jsonl'}" in said
    flags = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))["flags"]
    def checks(item_id: str) -> set[str]:
        return {f["check"] for f in flags.get(item_id, [])}

    assert "evidence-unknown-document" in checks("q2") and "evidence-unknown-document" not in checks("q0")

    # without a corpus, or with one too large to open unnamed, the audit says so and checks no document
    assert main(["audit", str(folder("without", None)), "-o", str(tmp_path / "b.txt")]) == 0
    assert "corpus" not in capsys.readouterr().err
    monkeypatch.setattr(options, "FOLDER_CORPUS_LIMIT", 10)
    large = folder("large", corpus)
    assert main(["audit", str(large), "--to", "json", "-o", str(tmp_path / "c.json")]) == 0
    assert f"give --corpus {large / 'corpus.jsonl'}" in capsys.readouterr().err
    flags = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))["flags"]
    assert "evidence-unknown-document" not in checks("q2")
