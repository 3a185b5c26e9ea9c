"""Reading a journal checks each line as :func:`decode_line` does, written out in the loop for speed;
damage anywhere must be found, reported and cut off exactly as the line-by-line reading did
(``reference_parse``, the reading as it was before)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reviewtui.evalset.io import journal as journal_mod
from reviewtui.evalset.io.journal import (
    JournalContents,
    JournalError,
    TornTail,
    _check_sequence,
    _could_be_a_record,
    decode_line,
    encode_record,
)


def reference_parse(where: Path, data: bytes) -> JournalContents:
    contents = JournalContents(where, size=len(data))
    start = 0
    size = len(data)
    line_no = 0
    while start < size:
        line_no += 1
        end = data.find(b"\n", start)
        if end < 0:
            end = size
            payload = decode_line(data[start:end])
            # no line break: a write that never finished, unless the record is whole and next in sequence
            if payload is not None and type(payload.get("n")) is int and payload["n"] == line_no - 1:
                contents.records.append((line_no, payload))
                contents.unended = True
                contents.good_size = size
                break
            payload = None
        else:
            payload = decode_line(data[start:end])
        if payload is None:
            if end == size and _could_be_a_record(data[start:end]):
                contents.torn = TornTail(line_no, start, size - start)
                break
            if line_no == 1:
                if end > start and data[end - 1 : end] == b"\r" and decode_line(data[start : end - 1]) is not None:
                    raise JournalError(
                        "this journal's lines end in CR LF (Windows line endings), which reviewtui never writes: "
                        "something converted the file; convert it back to LF line endings (dos2unix) and try again",
                        path=str(where),
                        line=1,
                    )
                raise JournalError(
                    "this is not a reviewtui journal; refusing to read or overwrite it",
                    path=str(where),
                    line=1,
                )
            if end == size:
                raise JournalError(
                    "the journal ends in text that is not the start of a record, so it was not cut short "
                    "by an interruption: the file was changed by something other than reviewtui",
                    path=str(where),
                    line=line_no,
                )
            raise JournalError(
                "damaged journal record (its checksum or layout is wrong): the file was changed by "
                "something other than reviewtui, or damaged on disk",
                path=str(where),
                line=line_no,
            )
        _check_sequence(payload, line_no, where)
        contents.records.append((line_no, payload))
        start = end + 1
        contents.good_size = start
    return contents


def outcome(parse, where: Path, data: bytes):
    try:
        contents = parse(where, data)
    except JournalError as exc:
        return ("refused", str(exc))
    return (contents.records, contents.good_size, contents.torn, contents.size, contents.unended)


def journal_bytes(count: int) -> bytes:
    lines = [encode_record({"n": 0, "op": "start", "format": 1, "set": "s"})]
    for n in range(1, count):
        lines.append(encode_record({"n": n, "op": "decide", "id": f"q{n}", "v": "accepted", "note": "é" * (n % 3)}))
    return b"".join(lines)


DAMAGE = (b"\n", b"\0", b"x", b"{", b"}", b'"', b" ", b"f", b"0", b"\xff")


@pytest.mark.parametrize("seed", range(4))
def test_damaged_journals_read_as_line_by_line(tmp_path, seed):
    rng = random.Random(seed)
    good = journal_bytes(12)
    where = tmp_path / "j"
    assert outcome(journal_mod._parse, where, good) == outcome(reference_parse, where, good)
    for _ in range(300):
        data = bytearray(good)
        for _ in range(rng.randint(1, 3)):
            roll = rng.random()
            at = rng.randrange(len(data))
            if roll < 0.5:
                data[at : at + 1] = rng.choice(DAMAGE)
            elif roll < 0.7:
                del data[at:]  # cut short, maybe mid-record
            elif roll < 0.85:
                data[at:at] = rng.choice(DAMAGE)
            else:
                data.extend(b"\0" * rng.randint(1, 20))
        damaged = bytes(data)
        assert outcome(journal_mod._parse, where, damaged) == outcome(reference_parse, where, damaged)


def test_records_out_of_sequence_or_not_objects_read_as_line_by_line(tmp_path):
    where = tmp_path / "j"
    start = encode_record({"n": 0, "op": "start", "format": 1, "set": "s"})
    for tail in (
        encode_record({"n": 2, "op": "move", "id": None}),
        encode_record({"n": True, "op": "move", "id": None}),
        encode_record({"n": 1.0, "op": "move", "id": None}),
        encode_record({"op": "move", "id": None}),
        b'{"c":"%08x","r":[1]}\n' % journal_mod.zlib.crc32(b"[1]"),
        encode_record({"n": 1, "op": "move", "id": None}) + b"\n",
    ):
        data = start + tail
        assert outcome(journal_mod._parse, where, data) == outcome(reference_parse, where, data)
    assert outcome(journal_mod._parse, where, b"") == outcome(reference_parse, where, b"")
