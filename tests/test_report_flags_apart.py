"""The JSON report's per-item flags made by a forked child while the parent writes the rest (``flags_apart``)."""

from __future__ import annotations

import os
import threading

import pytest

from reviewtui.evalset.checks import report as report_mod
from reviewtui.evalset.checks.report import to_json_bytes, to_json_chunks
from reviewtui.evalset.checks.scan import scan_flags
from reviewtui.evalset.jobs.channel import WorkerError
from tests.test_flags import random_set
from tests.threads import only_this_thread


@pytest.fixture
def fork_allowed(monkeypatch):
    """Fork here although a library another test module imported keeps idle threads; can_fork is tested apart."""
    if not only_this_thread():
        pytest.skip("another Python thread is running in this test process")
    monkeypatch.setattr(report_mod, "can_fork", lambda: True)


@pytest.fixture
def scan():
    found = scan_flags(random_set(3), workers=1)
    assert len(found.flags) > 3  # enough flagged items for several batches below
    return found


def _reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@pytest.mark.usefixtures("fork_allowed")
@pytest.mark.parametrize("batch", [1, 2000])  # a batch per flagged item, and one for them all
def test_flags_made_apart_are_the_report_made_here(scan, forks, monkeypatch, batch):
    expected = to_json_bytes(scan.audit, scan)
    assert not forks
    monkeypatch.setattr(report_mod, "FLAGS_APART_FROM", 1)
    real_body = report_mod._object_body
    monkeypatch.setattr(report_mod, "_object_body", lambda members: real_body(members, batch=batch))
    made = b"".join(to_json_chunks(scan.audit, scan, flags_apart=True))
    assert made == expected
    assert len(forks) == 1 and _reaped(forks[0])


@pytest.mark.usefixtures("fork_allowed")
def test_a_scan_with_few_flagged_items_makes_them_here(scan, forks, monkeypatch):
    monkeypatch.setattr(report_mod, "FLAGS_APART_FROM", len(scan.flags) + 1)
    assert b"".join(to_json_chunks(scan.audit, scan, flags_apart=True)) == to_json_bytes(scan.audit, scan)
    assert not forks


def test_no_child_while_another_thread_runs(scan, forks, monkeypatch):
    monkeypatch.setattr(report_mod, "FLAGS_APART_FROM", 1)
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        made = b"".join(to_json_chunks(scan.audit, scan, flags_apart=True))
    finally:
        release.set()
        other.join()
    assert made == to_json_bytes(scan.audit, scan)
    assert not forks


@pytest.mark.usefixtures("fork_allowed")
@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), TypeError("a flag that cannot be written")])
def test_a_child_that_fails_leaves_the_flags_to_this_process_only_when_it_could_not_write(failure, scan, forks, monkeypatch):
    # A full temporary folder, as the child meets it: the report is whole all the same. Any other failure is a
    # fault in the writer, and is raised.
    monkeypatch.setattr(report_mod, "FLAGS_APART_FROM", 1)
    parent = os.getpid()
    real_body = report_mod._object_body

    def body(members, batch=2000):
        if os.getpid() != parent:
            raise failure
        return real_body(members, batch)

    monkeypatch.setattr(report_mod, "_object_body", body)
    if isinstance(failure, OSError):
        made = b"".join(to_json_chunks(scan.audit, scan, flags_apart=True))
        monkeypatch.setattr(report_mod, "_object_body", real_body)
        assert made == to_json_bytes(scan.audit, scan)
    else:
        with pytest.raises(WorkerError, match="a flag that cannot be written"):
            b"".join(to_json_chunks(scan.audit, scan, flags_apart=True))
    assert len(forks) == 1 and _reaped(forks[0])


@pytest.mark.usefixtures("fork_allowed")
def test_a_report_left_unwritten_ends_its_child(scan, forks, monkeypatch):
    # A write that fails part-way (a full disk) stops reading the pieces: the child goes with them.
    monkeypatch.setattr(report_mod, "FLAGS_APART_FROM", 1)
    pieces = to_json_chunks(scan.audit, scan, flags_apart=True)
    assert next(pieces).startswith(b"{\n")
    assert len(forks) == 1 and not _reaped(forks[0])
    pieces.close()
    assert _reaped(forks[0])


@pytest.mark.usefixtures("fork_allowed")
def test_the_audit_command_writes_its_flags_on_the_other_core(tmp_path, forks, monkeypatch, capsys):
    # The file report is made with the flags apart; printed, the same report is made in one piece.
    from reviewtui.cli import main
    from reviewtui.evalset.io import write_jsonl

    monkeypatch.setattr(report_mod, "FLAGS_APART_FROM", 1)
    path = tmp_path / "set.jsonl"
    write_jsonl(random_set(3), path)
    out = tmp_path / "report.json"
    code = main(["audit", str(path), "-o", str(out), "--to", "json"])
    written = out.read_bytes()
    assert forks  # the scan's own child is forked only for a set of at least PARALLEL_FROM items
    assert all(_reaped(pid) for pid in forks)
    capsys.readouterr()
    assert main(["audit", str(path), "--to", "json"]) == code
    assert capsys.readouterr().out.encode() == written


@pytest.mark.usefixtures("fork_allowed")
def test_a_report_write_that_fails_ends_the_child_making_the_flags(tmp_path, forks, monkeypatch, capsys):
    # A disk that fills up part-way: the command says so, and the child goes with the unread pieces at once.
    from reviewtui.cli import main
    from reviewtui.evalset.io import files as files_mod
    from reviewtui.evalset.io import write_jsonl

    monkeypatch.setattr(report_mod, "FLAGS_APART_FROM", 1)
    path = tmp_path / "set.jsonl"
    write_jsonl(random_set(3), path)

    def full_disk(target, data):
        next(iter(data))
        assert forks and not _reaped(forks[-1])  # the child is at work
        raise OSError(28, "No space left on device")

    from reviewtui.cli import exits

    said: list[bool] = []
    real_report = exits.report_error

    def report_error(message):  # while the failure is handled, before anything lets go of it
        said.append(all(_reaped(pid) for pid in forks))
        real_report(message)

    monkeypatch.setattr(files_mod, "atomic_write", full_disk)
    monkeypatch.setattr(exits, "report_error", report_error)
    assert main(["audit", str(path), "-o", str(tmp_path / "report.json"), "--to", "json"]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert said == [True]
