"""Atomic writes and clear read errors (reviewtui.evalset.io.files and the writers on top)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.evalset.io.files import atomic_write, decode_utf8, open_for_reading, read_bytes
from reviewtui.evalset.jobs.collector import gc_paused


class Boom(RuntimeError):
    pass


def _failing_chunks() -> Iterator[bytes]:
    yield b"new first half\n"
    raise Boom("disk full, say")


def test_failed_write_keeps_the_old_file_and_leaves_no_temp_file(tmp_path):
    target = tmp_path / "set.jsonl"
    target.write_bytes(b"old content\n")
    os.chmod(target, 0o640)
    with pytest.raises(Boom):
        atomic_write(target, _failing_chunks())
    assert target.read_bytes() == b"old content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.jsonl"]
    atomic_write(target, [b"a", b"b"].__iter__())
    assert target.read_bytes() == b"ab"
    assert target.stat().st_mode & 0o777 == 0o640  # permissions survive a rewrite


def test_failed_write_of_a_new_file_leaves_nothing(tmp_path):
    with pytest.raises(Boom):
        atomic_write(tmp_path / "sub" / "new.jsonl", _failing_chunks())
    assert [p.name for p in (tmp_path / "sub").iterdir()] == []


def test_write_jsonl_failing_mid_set_keeps_the_old_file(tmp_path):
    good = cg.EvalItem(id="q1", question="Fine?")
    bad = cg.EvalItem(id="q2", question="Bad?", meta={"x": object()})
    target = tmp_path / "set.jsonl"
    cg.write_jsonl(cg.EvalSet(id="s", items=(good,)), target)
    before = target.read_bytes()
    many = tuple(cg.EvalItem(id=f"g{i}", question="Q?") for i in range(5000))
    with pytest.raises(cg.EvalSetError, match="'q2'"):
        cg.write_jsonl(cg.EvalSet(id="s", items=(*many, bad)), target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["set.jsonl"]


def test_write_csv_failure_keeps_the_old_file(tmp_path):
    target = tmp_path / "set.csv"
    cg.write_csv(cg.EvalSet(id="s", items=(cg.EvalItem(id="q1", question="Fine?"),)), target)
    before = target.read_bytes()
    bad = cg.EvalItem(id="q2", question="Bad?", meta={"x": object()})
    with pytest.raises(cg.EvalSetError, match="'q2'"):
        cg.write_csv(cg.EvalSet(id="s", items=(bad,)), target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["set.csv"]


def test_read_errors_are_clear(tmp_path):
    with pytest.raises(cg.EvalSetError, match="no such file") as info:
        read_bytes(tmp_path / "nope")
    assert info.value.path == str(tmp_path / "nope")
    with pytest.raises(cg.EvalSetError, match="folder"):
        read_bytes(tmp_path)
    with pytest.raises(cg.EvalSetError, match="folder"):
        open_for_reading(tmp_path)
    with pytest.raises(cg.EvalSetError, match="no such file"):
        open_for_reading(tmp_path / "nope")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file, so permission cannot be denied")
def test_permission_denied(tmp_path):
    path = tmp_path / "secret.jsonl"
    path.write_text("{}")
    path.chmod(0)
    with pytest.raises(cg.EvalSetError, match="permission denied"):
        cg.read_jsonl(path)


def test_decode_utf8_strips_bom_and_locates_bad_bytes(tmp_path):
    assert decode_utf8("x", b"\xef\xbb\xbfhello") == "hello"
    with pytest.raises(cg.EvalSetError) as info:
        decode_utf8(Path("f.csv"), b"ok\nstill ok\nbad \xff here\n")
    assert (info.value.path, info.value.line) == ("f.csv", 3)
    assert "column 5" in info.value.message and "0xff" in info.value.message


def test_gc_paused_restores_the_previous_state():
    import gc

    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_gc_paused_keep_freezes_what_was_made_and_the_default_does_not():
    import gc

    class Node:
        pass

    gc.unfreeze()
    try:
        with gc_paused():
            made = [Node() for _ in range(1000)]
        assert gc.get_freeze_count() == 0 and gc.isenabled()
        assert any(obj is made[0] for obj in gc.get_objects())  # the default leaves them collectable
        with gc_paused(keep=True):
            kept = [Node() for _ in range(1000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(kept)  # out of every later collection's sight
        assert not any(obj is kept[0] for obj in gc.get_objects())
    finally:
        gc.unfreeze()


def test_gc_paused_never_counts_the_frozen_objects(monkeypatch):
    # Counting them walks every frozen object (a whole 100k-item set once the review app has
    # frozen it), so leaving a pause must not ask how many there are.
    import gc

    from reviewtui.evalset.jobs import collector as files_mod

    def counted() -> int:
        raise AssertionError("gc.get_freeze_count() walks every frozen object")

    monkeypatch.setattr(gc, "get_freeze_count", counted)
    monkeypatch.setattr(files_mod, "_frozen_for_good", False)
    try:
        with gc_paused():
            pass
        with gc_paused(keep=True):
            kept = [object() for _ in range(10)]
        assert files_mod._frozen_for_good
        with gc_paused():
            pass
        assert not any(obj is kept[0] for obj in gc.get_objects())  # still frozen after a later pause
    finally:
        monkeypatch.undo()
        gc.unfreeze()
        files_mod._frozen_for_good = False


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".json"])
def test_a_file_of_zero_bytes_is_refused_before_it_is_read(tmp_path, suffix):
    """A 3 GB sparse file took 9 to 19 GB of memory and up to a minute before a misleading error."""
    import os

    from reviewtui.evalset.io import open_evalset

    path = tmp_path / f"sparse{suffix}"
    with open(path, "wb") as handle:
        handle.truncate(1 << 20)  # sparse, and larger than what is looked at
    with pytest.raises(cg.EvalSetError, match="begins with 65,536 zero bytes"):
        open_evalset(path)
    os.truncate(path, 10)  # a short file of zeros is refused as well
    with pytest.raises(cg.EvalSetError, match="begins with 10 zero bytes"):
        open_evalset(path)


def test_an_io_error_in_the_middle_of_json_lines_names_the_file(tmp_path):
    """A BEIR or HotpotQA file on a failing disk said "reviewtui: Input/output error", naming no file."""
    import errno
    import io

    from reviewtui.evalset.io.files import json_lines

    path = tmp_path / "queries.jsonl"
    path.write_bytes(b'{"_id": "1", "text": "one"}\n{"_id": "2", "text": "two"}\n')

    class Failing(io.BytesIO):
        def __next__(self):
            if self.tell():
                raise OSError(errno.EIO, os.strerror(errno.EIO))
            return super().__next__()

    rows = json_lines(path, Failing(path.read_bytes()))
    assert next(rows) == (1, {"_id": "1", "text": "one"})
    with pytest.raises(cg.EvalSetError) as caught:
        next(rows)
    assert str(caught.value) == f"{path}: cannot read: {os.strerror(errno.EIO)}"


def test_pieces_are_written_in_order_the_large_ones_as_they_come(tmp_path, monkeypatch):
    # Small pieces are gathered into writes of at least _CHUNK bytes; a piece that size already (a spooled
    # span's piece) is written as it is, not copied into the gathering buffer and out again.
    from reviewtui.evalset.io import files as files_mod

    big = bytes(range(256)) * 4096  # 1 MiB
    pieces = [b"a" * 10, big, b"b" * 5, bytearray(b"c" * 20), big[:-1] + b"!", big, b"tail"]
    writes: list[bytes] = []
    real_write_all = files_mod.write_all

    def write_all(fd: int, chunk: bytes) -> None:
        writes.append(chunk)
        real_write_all(fd, chunk)

    monkeypatch.setattr(files_mod, "write_all", write_all)
    out = tmp_path / "out.bin"
    atomic_write(out, iter(pieces))
    assert out.read_bytes() == b"".join(pieces)
    assert any(chunk is big for chunk in writes)  # the second megabyte went as it came: nothing pending before it
    assert all(len(chunk) >= files_mod._CHUNK for chunk in writes[:-1])  # every write but the last that large or more


def test_a_new_output_made_by_another_program_during_the_write_is_not_replaced(tmp_path):
    """`export -o x.jsonl` of a large set and a quick one run meanwhile both said they wrote x.jsonl (exit 0):
    the name was free when each looked, and the large one's rename replaced the quick one's file."""
    target = tmp_path / "x.jsonl"

    def chunks() -> Iterator[bytes]:
        yield b"mine\n"
        target.write_bytes(b"theirs\n")  # another command's file, made while this one writes
        yield b"more of mine\n"

    with pytest.raises(FileExistsError) as caught:
        atomic_write(target, chunks())
    assert "made by another program while this command wrote it" in caught.value.strerror
    assert target.read_bytes() == b"theirs\n"
    assert sorted(os.listdir(tmp_path)) == ["x.jsonl"]  # no temporary file left


def test_an_export_to_a_name_taken_meanwhile_says_so_and_leaves_that_file(tmp_path, monkeypatch, capsys):
    from reviewtui.cli import main
    from reviewtui.evalset.io import jsonl, write_jsonl

    path = write_jsonl(cg.EvalSet(id="s", items=[cg.EvalItem(id="q1", question="What is a reef?", answer="Rock")]), tmp_path / "quiz.jsonl")
    out = tmp_path / "x.jsonl"
    lines = jsonl._encoded_lines

    def racing(evalset):
        for n, line in enumerate(lines(evalset)):
            if n == 1:
                out.write_bytes(b"another export\n")
            yield line

    monkeypatch.setattr(jsonl, "_encoded_lines", racing)
    assert main(["export", str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{out}: cannot write the export: was made by another program while this command wrote it" in err, err
    assert out.read_bytes() == b"another export\n"
    assert "Traceback" not in err


def test_a_named_file_there_before_the_write_is_still_replaced_with_force(tmp_path):
    target = tmp_path / "x.jsonl"
    target.write_bytes(b"old\n")
    atomic_write(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert os.stat(target).st_nlink == 1
