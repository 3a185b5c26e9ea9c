"""Low-level file access shared by every reader and writer.

Whole-file writes are atomic: the bytes go to a temporary file in the target's
folder, are flushed and fsynced, and the temporary file is renamed over the
target. A crash leaves either the old file or the new one, never half of one;
the temporary file a killed writer leaves is named so that the next write of
the same file can prove whose it was and remove it. Outputs that are not
regular files (standard output, a pipe, ``/dev/null``) are written to, never
replaced, and a symbolic link is never written through.

Where a command may write at all is decided in :mod:`.outputs`.
"""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import errno
import functools
import hashlib
import json
import os
import re
import secrets
import socket
import stat
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import orjson

from reviewtui.evalset.io.names import named
from reviewtui.evalset.model.errors import EvalSetError, InputError

__all__ = [
    "BOM",
    "STDOUT",
    "STDOUT_NAMES",
    "atomic_write",
    "decode_utf8",
    "file_sha256",
    "fsync_dir",
    "is_device",
    "is_stdout",
    "json_error",
    "json_line_error",
    "json_lines",
    "loads_exact",
    "loads_allowing_nan",
    "named",
    "open_for_reading",
    "read_bytes",
    "read_error",
    "set_sha256",
    "read_json",
    "remove_stale_temps",
    "temp_name",
    "utf8_error",
    "write_all",
]

BOM = b"\xef\xbb\xbf"


def _os_error(p: Path, exc: OSError) -> InputError:
    if isinstance(exc, FileNotFoundError):
        if str(p) == "-":  # "-" is a file's name here: standard input is read by its own
            return InputError("no such file; to read standard input, name it /dev/stdin with --from FORMAT", path="-")
        return InputError("no such file", path=str(p))
    if isinstance(exc, IsADirectoryError):
        return InputError("is a folder, not a file", path=str(p))
    if isinstance(exc, PermissionError):
        return InputError("permission denied", path=str(p))
    return InputError(f"cannot read: {exc.strerror or exc}", path=str(p))


def read_error(path: str | os.PathLike[str], exc: OSError) -> InputError:
    """The one line for an input that cannot be read (no such file, a folder, no permission, an I/O error)."""
    return _os_error(Path(path), exc)


#: Bytes looked at before a file is read: all of them zero, and it is no text file (a sparse or damaged one).
_ZEROS_LOOKED_AT = 1 << 16


def _refuse_zeros(handle: BinaryIO, path: Path) -> None:
    """Refuse a regular file whose first bytes are all zero before reading it: such a file (a sparse file,
    a disk image, a file cut off by a crash) held 3 GB of them in one "line" and took 9 GB of memory
    before its reader said anything."""
    try:
        fd = handle.fileno()
        if stat.S_ISREG(os.fstat(fd).st_mode):
            head = os.pread(fd, _ZEROS_LOOKED_AT, 0)
        else:
            # A pipe or a device (/dev/zero reached through --from, or a link): its first bytes are looked at
            # without taking them from its reader; endless zeros were read into one "line" until memory ran out.
            head = handle.peek(_ZEROS_LOOKED_AT)[:_ZEROS_LOOKED_AT] if hasattr(handle, "peek") else b""
    except (OSError, ValueError):
        return  # the read itself will say what is wrong
    if head and not head.strip(b"\x00"):
        handle.close()
        raise InputError(
            f"begins with {len(head):,} zero bytes, which no text file does: a sparse, damaged or binary file, not an eval set",
            path=str(path),
        )
    packed = packed_kind(head)
    if packed is not None:
        handle.close()
        raise InputError(packed, path=str(path))


#: The first bytes of the compressed files, archives and binary tables an eval set is often kept in (a
#: Hugging Face dataset's Parquet file, a workbook, a gzipped JSONL), what each is, and what to do.
_PACKED = (
    (b"\x1f\x8b", "gzip-compressed", "decompress it first (gunzip -k) and open the file that gives"),
    (b"BZh", "bzip2-compressed", "decompress it first (bunzip2 -k) and open the file that gives"),
    (b"\xfd7zXZ\x00", "xz-compressed", "decompress it first (unxz -k) and open the file that gives"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed", "decompress it first (unzstd) and open the file that gives"),
    (
        b"PK\x03\x04",
        "a ZIP archive (an Excel .xlsx workbook is one)",
        "save a workbook as CSV UTF-8 (File > Save As), or unzip an archive, and open the CSV or JSONL file",
    ),
    (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        "an old-style Office file (an Excel .xls workbook)",
        "save it as CSV UTF-8 (File > Save As) and open that",
    ),
    (
        b"PAR1",
        "a Parquet table",
        "write it out as CSV first (pandas: pd.read_parquet(path).to_csv('set.csv', index=False)) and open that",
    ),
    (b"ARROW1", "an Arrow table", "write it out as CSV first (pyarrow, pandas or datasets' to_csv) and open that"),
    (b"SQLite format 3\x00", "an SQLite database", "export the table of questions as CSV and open that"),
    # A source document or a program named by mistake (tab completion into a corpus, a bin folder): "save the file as
    # UTF-8" (or, for a name of no known extension, "not valid JSON") said neither what it was nor what to open.
    (
        b"%PDF-",
        "a PDF document",
        "open the eval set itself (documents are read as text, from a --corpus folder of .txt or .md files)",
    ),
    (b"\x7fELF", "a program (an ELF executable)", "open the eval set itself"),
)


def packed_kind(head: bytes) -> str | None:
    """What to say of a file whose first bytes (``head``) are those of a compressed file, an archive or a
    binary table: read as text, it was refused at its first byte that is not UTF-8, with the advice to save
    it as UTF-8, which says neither what the file is nor what to do. None for anything else. A magic number
    made of letters (``PAR1``) counts only when the bytes after it are not text."""
    for magic, what, action in _PACKED:
        if head.startswith(magic) and (not magic.isascii() or magic.endswith(b"\x00") or not _looks_like_text(head)):
            return f"the file is {what}, not a text file reviewtui reads (JSONL, JSON or CSV); {action}"
    return None


def _looks_like_text(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes, maybe cut inside a character) could begin a UTF-8 text file."""
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3 and exc.reason == "unexpected end of data"
    return True


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """Read a whole input file, turning OS errors into one clear EvalSetError."""
    p = Path(path)
    try:
        with open(p, "rb") as handle:
            _refuse_zeros(handle, p)
            return handle.read()
    except OSError as exc:
        raise _os_error(p, exc) from None


def set_sha256(path: str | os.PathLike[str]) -> str | None:
    """The SHA-256 an export records of the set it was made from: the file's bytes, or for a folder (a BEIR
    set) its queries and qrels files, each after its name and length; None when there is nothing to hash.

    A folder's corpus is left out: it is the evidence the questions are judged against, not the questions,
    and a corpus of gigabytes would make every export read it whole.
    """
    p = Path(path)
    if not p.is_dir():
        return file_sha256(p)
    digest = hashlib.sha256()
    parts = [p / "queries.jsonl", *sorted((p / "qrels").glob("*.tsv"))]
    hashed = 0
    for part in parts:
        try:
            if not stat.S_ISREG(os.lstat(part).st_mode):
                continue
            data = part.read_bytes()
        except OSError:
            continue
        name = part.relative_to(p).as_posix().encode()
        digest.update(b"%d:%s:%d:" % (len(name), name, len(data)))
        digest.update(data)
        hashed += 1
    return digest.hexdigest() if hashed else None


def file_sha256(path: str | os.PathLike[str], size: list[int] | None = None, limit: int | None = None) -> str | None:
    """The SHA-256 of a regular file's bytes, in hex; None when it is not a regular file or cannot be read.

    With ``size``, how many bytes were hashed is appended to it: a file that only grows (a review
    journal) can then be checked later against its first that many bytes. With ``limit``, only the
    first that many bytes are hashed (the part of a journal a command read and replayed; what was
    appended since, or a record cut short, is not in what it wrote); fewer if the file is shorter.

    For records of which file a result came from; a FIFO or a device is never read here,
    since reading would consume what its writer meant for someone else.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO would otherwise wait here for a writer
    except OSError:
        return None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)  # not a folder (a BEIR set), a FIFO or a device
    except OSError:
        regular = False
    if not regular:
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as file:
        try:
            if limit is None:
                digest = hashlib.file_digest(file, "sha256").hexdigest()
                hashed = file.tell()  # the end as it was read, even if the file grows
            else:
                hasher, hashed = hashlib.sha256(), 0
                while hashed < limit and (chunk := file.read(min(1 << 20, limit - hashed))):
                    hasher.update(chunk)
                    hashed += len(chunk)
                digest = hasher.hexdigest()
            if size is not None:
                size.append(hashed)
            return digest
        except OSError:
            return None


def set_identity(path: str | os.PathLike[str] | None) -> tuple[object, ...] | None:
    """:func:`file_identity` of a set: of its file, or for a folder (a BEIR set) of each file :func:`set_sha256`
    hashes (its queries and qrels), so that a replaced qrels file shows too. None when there is nothing to tell."""
    if path is None:
        return None
    p = Path(path)
    if not p.is_dir():
        return file_identity(p)
    parts = [p / "queries.jsonl", *sorted((p / "qrels").glob("*.tsv"))]
    found = tuple((part.name, file_identity(part)) for part in parts)
    return found if any(identity is not None for _, identity in found) else None


def file_identity(path: str | os.PathLike[str] | None) -> tuple[int, ...] | None:
    """What tells a file's contents apart from a later version of them without reading it: device, inode,
    size and modification time. None for a folder (a BEIR set), a pipe or no file."""
    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def open_for_reading(path: str | os.PathLike[str]) -> BinaryIO:
    """Open an input file for streaming, with the same clear errors as :func:`read_bytes`.

    Readers that go line by line use this so that a large file is never held in
    memory next to the objects built from it.
    """
    p = Path(path)
    if p.is_dir():  # open() succeeds on a folder on some systems and fails later on read
        raise InputError("is a folder, not a file", path=str(p))
    try:
        handle = open(p, "rb")  # the caller closes it
    except OSError as exc:
        raise _os_error(p, exc) from None
    _refuse_zeros(handle, p)
    return handle


#: Byte-order marks of the encodings a text editor may save in instead of UTF-8; UTF-32's first, as
#: UTF-32LE's begins with UTF-16LE's.
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)
#: Bytes of a line looked at for UTF-16 without a byte-order mark.
_WIDE_LOOKED_AT = 256


def wide_text(data: bytes, at_start: bool = True) -> str | None:
    """What :func:`utf8_error` and the JSON errors say of ``data`` (a file's first bytes when ``at_start``,
    else one of its lines) if it is UTF-16 or UTF-32 text rather than UTF-8; None if it does not look so.

    Read as UTF-8, such a file is refused at its first byte (a byte-order mark is not UTF-8) or, without
    one, at a zero byte the JSON or CSV reader finds meaningless: neither message said what the file was.
    Text in the Latin alphabet saved as UTF-16 has a zero in every other byte, and JSON's keys and
    punctuation are such text, whatever the language of the rest: three in four of those bytes zero
    says UTF-16, as nothing written in UTF-8 holds zero bytes. Called only once a file has been
    refused, or on a file whose first two bytes hold a zero.
    """
    if at_start:
        for bom, name in _WIDE_BOMS:
            if data.startswith(bom):
                return f"the file is {name} (it begins with a byte-order mark), not UTF-8; save it as UTF-8 and try again"
    head = data[:_WIDE_LOOKED_AT].rstrip(b"\r\n")
    if len(head) < 4 or b"\x00" not in head:
        return None
    for zeros, letters in ((head[1::2], head[0::2]), (head[0::2], head[1::2])):  # UTF-16LE: the zero after each letter
        if zeros.count(0) * 4 >= len(zeros) * 3 and letters.count(0) * 4 <= len(letters):
            return (
                "the file looks like UTF-16 without a byte-order mark (every other byte is zero), not UTF-8; "
                "save it as UTF-8 and try again"
            )
    return None


def utf8_error(path: str | os.PathLike[str], data: bytes, exc: UnicodeDecodeError, first_line: int = 1) -> InputError:
    """Say where in ``data`` the bytes stop being UTF-8, as ``path:line`` and a column; a file in UTF-16
    or UTF-32 is said as that (see :func:`wide_text`)."""
    wide = wide_text(data, at_start=first_line == 1)
    if wide is not None:
        return InputError(wide, path=str(path), line=first_line)
    line = first_line + data.count(b"\n", 0, exc.start)
    column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
    bad = data[exc.start : exc.start + 1].hex()
    return InputError(
        f"not valid UTF-8 (byte 0x{bad} at column {column}); save the file as UTF-8 and try again",
        path=str(path),
        line=line,
    )


def decode_utf8(path: str | os.PathLike[str], data: bytes) -> str:
    """Text of a UTF-8 file without its byte-order mark; bad bytes give ``path:line``."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise utf8_error(path, data, exc) from None
    # UTF-16 without a byte-order mark decodes, zeros and all, when its letters are ASCII: the first two
    # bytes hold a zero then, which no text file begins with.
    if b"\x00" in data[:2]:
        wide = wide_text(data)
        if wide is not None:
            raise InputError(wide, path=str(path), line=1)
    return text


#: Digits to "0" and every other byte as it is: a run of 19 digits is then one find() away, several
#: times faster than a regular expression over the same bytes.
_DIGITS_AS_ZERO = bytes(0x30 if 0x30 <= code <= 0x39 else code for code in range(256))
_LONG_NUMBER = b"0" * 19


class RepeatedKeyError(orjson.JSONDecodeError):
    """A JSON object that gives one key twice: parsers keep one value and drop the other without a word."""

    def __init__(self, key: str, doc: str, pos: int) -> None:
        shown = json.dumps(key, ensure_ascii=False)
        super().__init__(f"the key {shown} is given twice in the object that begins here; only one of its values could be kept", doc, pos)
        self.key = key


def loads_exact(data: bytes | str) -> Any:
    """``orjson.loads``, except that a whole number beyond 64 bits stays that number, and that an
    object giving one key twice is refused.

    orjson reads such a number as a float, and 123456789012345678901234567890 became
    1.2345678901234568e+29 without a word. A text holding a run of 19 digits is parsed again
    by pydantic's parser, which keeps it exact, so the model's checks refuse it by its value.
    A key given twice is found by counting (see :func:`_may_repeat_a_key`) and, only then,
    placed by a second, slower parse. Raises ``orjson.JSONDecodeError`` as ``orjson.loads``
    does (:class:`RepeatedKeyError` for a repeated key, at the object that repeats it).
    """
    value = orjson.loads(data)
    raw = data.encode() if isinstance(data, str) else data
    if raw.translate(_DIGITS_AS_ZERO).find(_LONG_NUMBER) >= 0:
        try:
            import pydantic_core

            value = pydantic_core.from_json(data)
        except ValueError:
            pass  # read one way and not the other: keep orjson's reading
    if isinstance(value, (dict, list)) and (_ESCAPED_COLON.search(raw) is not None or _may_repeat_a_key(raw, value)):
        _raise_a_repeated_key(data, raw)
    return value


def loads_allowing_nan(data: bytes | str) -> Any:
    """:func:`loads_exact`, except that NaN, Infinity, -Infinity and a number too large for a float are read,
    as pydantic's parser reads them (NaN and infinite floats), where orjson refuses them.

    Python's json module and pandas write NaN so, and the native JSONL reader's fast path (pydantic's parser)
    reads it: a line that reads there must read the same where orjson parses it, on the way to saying something
    else (an id to coerce, an unknown key), or it was "not valid JSON" and the real problem went unsaid. Only
    orjson's error at such a value leads to the second parse, so other texts pay nothing. Raises as
    :func:`loads_exact` does; a text that is not JSON even so raises orjson's own error.
    """
    try:
        return loads_exact(data)
    except RepeatedKeyError:
        raise
    except orjson.JSONDecodeError as exc:
        doc = exc.doc if isinstance(exc.doc, str) else ""
        if not (str(exc).startswith("number is infinity") or doc.startswith(("NaN", "Infinity"), exc.pos)):
            raise
        try:
            import pydantic_core

            value = pydantic_core.from_json(data)
        except ValueError:  # another fault further on, or more digits than any parser reads: orjson's error says it
            raise exc from None
    raw = data.encode() if isinstance(data, str) else data  # this parser, too, keeps one of two values under one key
    if isinstance(value, (dict, list)) and (_ESCAPED_COLON.search(raw) is not None or _may_repeat_a_key(raw, value)):
        _raise_a_repeated_key(data, raw)
    return value


def _raise_a_repeated_key(data: bytes | str, raw: bytes) -> None:
    """Raise :class:`RepeatedKeyError` if some object in ``data`` (its bytes: ``raw``) gives one key twice: the
    slow parse that places it, for a text the count could not clear."""
    found = _repeated_key(raw.decode("utf-8", "surrogatepass") if isinstance(data, bytes) else data)
    if found is not None:
        key, text, pos = found
        raise RepeatedKeyError(key, text, pos)


#: A colon written as an escape: the count cannot tell it from a colon that follows a key.
_ESCAPED_COLON = re.compile(rb"\\u003[aA]")


def _may_repeat_a_key(raw: bytes, value: Any) -> bool:
    """False when no object in ``raw`` gives a key twice, which one count shows for most texts.

    Each colon of a JSON text either follows a key or is inside a string. So when the colons of
    the text are as many as the keys of the parsed value and the colons of its strings, no key's
    value was dropped; when they are not (a key given twice, or a colon written as ``\u003a``),
    the caller looks closer.
    """
    colons = raw.count(b":")
    keys = inside = 0
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        children = node.values() if type(node) is dict else node
        if type(node) is dict:
            keys += len(node)
            for key in node:
                if ":" in key:
                    inside += key.count(":")
        for child in children:
            kind = type(child)
            if kind is str:
                if ":" in child:
                    inside += child.count(":")
            elif kind is dict or kind is list:
                push(child)
        if keys + inside > colons:
            return True
    return keys + inside != colons


def _repeated_key(text: str) -> tuple[str, str, int] | None:
    """The first key some object of ``text`` gives twice, the text, and where that object begins; None if none.

    Python's own parser, in its pure-Python form, is the one that tells where each object
    begins; slow, so only run on a text the count could not clear.
    """
    import json.decoder
    import json.scanner

    found: list[tuple[str, int]] = []

    def parse_object(s_and_end: tuple[str, int], strict: bool, scan_once: Any, object_hook: Any, pairs_hook: Any, memo: Any = None) -> Any:
        start = s_and_end[1] - 1  # the "{" just read

        def pairs(members: list[tuple[str, Any]]) -> dict[str, Any]:
            record = dict(members)
            if len(record) != len(members) and not found:
                seen: set[str] = set()
                for key, _ in members:
                    if key in seen:
                        found.append((key, start))
                        break
                    seen.add(key)
            return record

        return json.decoder.JSONObject(s_and_end, strict, scan_once, object_hook, pairs, memo)  # type: ignore[attr-defined]

    decoder = json.JSONDecoder()
    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]  # the C one calls no parse_object
    try:
        decoder.decode(text)
    except (ValueError, RecursionError):  # not JSON to this parser, or too deep for it: the first parse stands
        return None
    return (found[0][0], text, found[0][1]) if found else None


def json_error(path: str | os.PathLike[str], exc: orjson.JSONDecodeError, line: int | None = None) -> InputError:
    """``path:line: not valid JSON (...)``; ``line`` for one line of a JSON Lines file, else orjson's own."""
    reason = str(exc).split(": line ", 1)[0]
    if isinstance(exc, RepeatedKeyError):
        said = f"{reason} (column {exc.colno})"
    elif reason.startswith("number is infinity"):
        said = _number_too_large(exc)
    else:
        said = f"not valid JSON ({reason}, column {exc.colno})"
    return InputError(said, path=str(path), line=exc.lineno if line is None else line)


_NUMBER = re.compile(r"-?[0-9][0-9.eE+-]*")


def _number_too_large(exc: orjson.JSONDecodeError) -> str:
    """orjson's "number is infinity when parsed as double", said of the number: it reads a whole number beyond
    64 bits as a float, so a long run of digits (an id or a hash written without quotes) was called infinity."""
    doc = exc.doc if isinstance(exc.doc, str) else bytes(exc.doc).decode("utf-8", "replace")
    found = _NUMBER.match(doc, exc.pos)
    number = found.group() if found is not None else ""
    digits = sum(char.isdigit() for char in number)
    shown = f"{number} (column {exc.colno})" if len(number) <= 24 else f"{number[:12]}... ({digits:,} digits, column {exc.colno})"
    return f"the number {shown} is too large to be read as a number; if it is a name or a code, put it in quotes"


def json_line_error(
    path: str | os.PathLike[str], exc: orjson.JSONDecodeError, line: int, raw: bytes, *, first: bool = False
) -> InputError:
    """:func:`json_error` for one line of a JSON Lines file (``raw``; ``first``: the first that is not blank).

    A JSON value laid out over many lines (``{`` alone on a line, as in SQuAD's files) is said as that,
    not as the "unexpected end of data" of one line, which reads like a broken file. Only a whole line
    (ending in a newline) can go on below: a last line cut short is just broken.
    """
    if raw.endswith(b"\n") and ((first and "unexpected end of data" in str(exc)) or raw.strip() in (b"{", b"[")):
        return InputError(
            "not JSON Lines: this line begins a JSON value that goes on over the lines after it (a whole-file JSON "
            "document); JSON Lines hold one complete record per line. Is the format right for this file?",
            path=str(path),
            line=line,
        )
    said = _line_form_problem(raw, exc)
    if said is not None:
        return InputError(said, path=str(path), line=line)
    if exc.lineno > 1:  # past the line's own ending ("\n", "\r\n"): the text stopped at its end, so say that column
        reason = str(exc).split(": line ", 1)[0]
        column = len(raw.rstrip(b"\r\n").decode("utf-8", "replace")) + 1
        return InputError(f"not valid JSON ({reason}, column {column})", path=str(path), line=line)
    return json_error(path, exc, line)


def _line_form_problem(raw: bytes, exc: orjson.JSONDecodeError) -> str | None:
    """What is wrong with the form of a JSON line orjson refused, when it is the file's form rather than the JSON:
    UTF-16 text, or lines that end with a carriage return alone. None otherwise."""
    if b"\x00" in raw:
        wide = wide_text(raw, at_start=False)
        if wide is not None:
            return wide
    if b"\r" in raw:
        # A file saved with the old Mac line ending holds no line feed, so all of it is one line, and orjson stops
        # after its first record, at the next one; a carriage return alone just before there says why.
        doc = exc.doc if isinstance(exc.doc, str) else bytes(exc.doc).decode("utf-8", "replace")
        before = doc[: exc.pos].rstrip(" \t")
        if before.endswith("\r") and doc[exc.pos : exc.pos + 1] != "\n":
            return (
                "the lines of this file end with a carriage return alone (the old Mac line ending), which JSON Lines "
                "does not take for a line break, so they read as one line; save the file with LF (or CRLF) line endings"
            )
    return None


def read_json(path: str | os.PathLike[str]) -> Any:
    """A whole JSON file, parsed; bad UTF-8 or JSON is named by ``path:line``."""
    return json_from_bytes(path, read_bytes(path))


def json_from_bytes(path: str | os.PathLike[str], data: bytes) -> Any:
    """``data``, the bytes of the file at ``path``, parsed as JSON, with :func:`read_json`'s errors."""
    try:
        return loads_exact(decode_utf8(path, data))
    except orjson.JSONDecodeError as exc:
        if str(exc).startswith("unexpected content after document") and _ends_a_line(exc):
            # One value, then more from the next line on: JSON Lines in a file named .json (HotpotQA's rows, say;
            # a Hugging Face dataset's `to_json`, which writes JSON Lines unless told otherwise). "or name the file
            # .jsonl" only where it is not: quiz.jsonl read with --from squad was told to take the name it has.
            rename = "" if Path(path).suffix.lower() == ".jsonl" else ", or name the file .jsonl"
            doc = exc.doc if isinstance(exc.doc, str) else bytes(exc.doc).decode("utf-8", "replace")
            try:
                first = loads_allowing_nan(doc[: exc.pos].lstrip("\ufeff"))
            except orjson.JSONDecodeError:
                first = None
            raise JsonLinesInJson(
                "holds JSON Lines (one record on each line), not one JSON document; read it as JSON Lines "
                f"(--from jsonl, rows, hotpotqa or nq on the command line, format= in Python){rename}",
                path=str(path),
                first=first,
            ) from None
        raise json_error(path, exc) from None


class JsonLinesInJson(InputError):
    """A file named .json that holds JSON Lines; ``first`` is its first record, parsed."""

    def __init__(self, message: str, *, path: str, first: Any) -> None:
        super().__init__(message, path=path)
        self.first = first


def _ends_a_line(exc: orjson.JSONDecodeError) -> bool:
    """Whether orjson read an object that ended a line, and gave up at another object on a line after it."""
    doc = exc.doc if isinstance(exc.doc, str) else bytes(exc.doc).decode("utf-8", "replace")
    before, after = doc[: exc.pos], doc[exc.pos :]
    return before.lstrip("\ufeff \t\r\n").startswith("{") and before.rstrip(" \t").endswith("\n") and after.startswith("{")


def json_lines(
    path: str | os.PathLike[str], opened: BinaryIO | None = None, *, allow_nan: bool = False
) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed value)`` for each non-blank line of a JSON Lines file, read as a stream.

    ``opened``: the file already open (it is closed at the end), for an input that cannot be
    opened twice (a pipe) and has been looked at first. ``allow_nan``: NaN and Infinity are read
    (:func:`loads_allowing_nan`), as Python's json module writes them.
    """
    loads = loads_allowing_nan if allow_nan else loads_exact
    name = str(path)
    first = True
    with opened if opened is not None else open_for_reading(path) as handle:
        try:
            for number, raw in enumerate(handle, 1):
                if number == 1 and raw.startswith(BOM):
                    raw = raw[len(BOM) :]
                if not raw.strip():
                    continue
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise utf8_error(name, raw, exc, first_line=number) from None
                try:
                    yield number, loads(raw)
                except orjson.JSONDecodeError as exc:
                    raise json_line_error(name, exc, number, raw, first=first) from None
                first = False
        except OSError as exc:  # a failing disk mid-file: said naming the file, not as a bare "Input/output error"
            raise read_error(path, exc) from None


def json_records(path: str | os.PathLike[str], *, allow_nan: bool = False) -> Iterable[tuple[int | None, Any]]:
    """``(line number or None, record)`` from a file of records in either shape: a JSON list (no line
    numbers: the list may span any number of lines), or JSON Lines (``allow_nan``: see :func:`json_lines`)."""
    # One handle, looked into without reading past: a pipe cannot be opened a second time.
    handle = open_for_reading(path)
    try:
        is_list = handle.peek(64)[:64].lstrip(BOM + b" \t\r\n").startswith(b"[")  # type: ignore[attr-defined]
        if is_list:
            with handle:
                data = handle.read()
            return ((None, row) for row in json_from_bytes(path, data))
    except BaseException:
        handle.close()
        raise
    return json_lines(path, handle, allow_nan=allow_nan)


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Make a rename or a new file in ``folder`` durable (no-op where unsupported)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


#: The output name that means standard output (``-o -``).
STDOUT = "-"
#: Names written as standard output itself: ``/dev/stdout`` is a link to wherever it points (a
#: terminal, a pipe, or a file the shell opened with ``>``), which only the process's own stream reaches.
STDOUT_NAMES = frozenset((STDOUT, "/dev/stdout"))


def is_stdout(path: str | os.PathLike[str]) -> bool:
    """Whether an output path means this process's standard output."""
    return os.fspath(path) in STDOUT_NAMES
#: Bytes gathered before each write call: as a spooled span is read (channel.PIECE), and under the C library's mapping
#: threshold, so the buffer's memory is reused from one write to the next (a megabyte's buffer, and its copy, each
#: came from a mapping of their own, faulted in afresh for every write).
_CHUNK = 1 << 16

# A temporary file's name says whose it is: ``.<target name>.rtui-<host>-<pid>-<random>.tmp``.
# The fixed marker, the writer's host and its process id let a later write prove that a
# temporary file left behind belongs to a writer that is gone (killed mid-write), and remove
# it; anything it cannot prove that about stays.
_TEMP_NAME = re.compile(r"^\.(?P<target>.*)\.rtui-(?P<host>[0-9a-f]{8})-(?P<pid>[1-9][0-9]*)-[0-9a-f]{8}\.tmp$", re.DOTALL)
_LONG_NAME = 120  # bytes of a target name kept as it is in a temporary name (file names stop at 255)


@functools.lru_cache(maxsize=1)
def _host_tag() -> str:
    """A short tag for this machine: on a shared folder, a pid means nothing on another host."""
    return hashlib.sha1(socket.gethostname().encode("utf-8", "surrogateescape")).hexdigest()[:8]


def _target_tag(name: str) -> str:
    """The target's name as it appears in its temporary files' names; a digest when it is too long."""
    raw = os.fsencode(name)
    return name if len(raw) <= _LONG_NAME else hashlib.sha1(raw).hexdigest()


def temp_name(target_name: str, pid: int | None = None) -> str:
    """A fresh temporary name for writing ``target_name`` (in the same folder) by process ``pid``."""
    pid = os.getpid() if pid is None else pid
    return f".{_target_tag(target_name)}.rtui-{_host_tag()}-{pid}-{secrets.token_hex(4)}.tmp"


def claim_text(pid: int | None = None) -> bytes:
    """What a file holds while its name is taken for a write not finished yet (see
    ``outputs.claimed_output``): who took it, and what to do should that process be gone."""
    pid = os.getpid() if pid is None else pid
    return (
        f"reviewtui: this name is taken for a file that process {pid} (host {_host_tag()}) is writing; "
        "if that process is gone, its write was stopped and this file can be removed\n"
    ).encode()


_CLAIM = re.compile(rb"reviewtui: this name is taken for a file that process (?P<pid>\d+) \(host (?P<host>[0-9a-f]+)\) is writing; ")


def abandoned_claim(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` holds a claim (:func:`claim_text`) of a process of this host that is gone."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 512:
            return False
        with open(path, "rb") as handle:
            found = _CLAIM.match(handle.read(512))
    except OSError:
        return False
    return found is not None and found["host"].decode() == _host_tag() and not _pid_alive(int(found["pid"]))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, someone else's
        return True
    return True


@dataclasses.dataclass
class _FolderSweep:
    """What one look at a folder found: the left-behind temporary files of dead writers, by target."""

    mtime_ns: int
    stale: dict[str, list[str]]


_sweeps: dict[tuple[int, int], _FolderSweep] = {}
_sweeps_lock = threading.Lock()


def _look(folder: Path) -> dict[str, list[str]]:
    """Temporary files in ``folder`` that provably belong to a dead writer of ours, by target tag."""
    stale: dict[str, list[str]] = {}
    uid = os.getuid()
    me = os.getpid()
    host = _host_tag()
    try:
        entries = os.scandir(folder)
    except OSError:
        return stale
    with entries:
        for entry in entries:
            if ".rtui-" not in entry.name:
                continue
            match = _TEMP_NAME.match(entry.name)
            if match is None or match["host"] != host:
                continue
            pid = int(match["pid"])
            if pid == me or _pid_alive(pid):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and st.st_uid == uid:
                stale.setdefault(match["target"], []).append(entry.name)
    return stale


def remove_stale_temps(folder: str | os.PathLike[str], target_name: str) -> list[str]:
    """Remove what killed writers of ``target_name`` left in ``folder``; returns the names removed.

    Only regular files of the current user, named by this host for this target,
    whose writer's process no longer exists, are removed. The folder is listed
    again only when it changed since the last look (its modification time), so
    writing thousands of files into one folder does not list it thousands of times.
    """
    path = Path(folder)
    try:
        st = os.stat(path)
    except OSError:
        return []
    key = (st.st_dev, st.st_ino)
    with _sweeps_lock:
        sweep = _sweeps.get(key)
        if sweep is None or sweep.mtime_ns != st.st_mtime_ns:
            sweep = _sweeps[key] = _FolderSweep(st.st_mtime_ns, _look(path))
        names = sweep.stale.pop(_target_tag(target_name), [])
    removed = []
    for name in names:
        match = _TEMP_NAME.match(name)
        if match is None or _pid_alive(int(match["pid"])):
            continue
        try:
            st_temp = os.lstat(path / name)
            if stat.S_ISREG(st_temp.st_mode) and st_temp.st_uid == os.getuid():
                os.unlink(path / name)
                removed.append(name)
        except OSError:
            continue
    return removed


def _remember_folder(folder: Path) -> None:
    """After our own change to ``folder``: its new modification time is not news to the next look."""
    try:
        st = os.stat(folder)
    except OSError:
        return
    with _sweeps_lock:
        sweep = _sweeps.get((st.st_dev, st.st_ino))
        if sweep is not None:
            sweep.mtime_ns = st.st_mtime_ns


def _chunks(data: bytes | Iterable[bytes]) -> Iterator[bytes]:
    """``data`` in pieces of at least ``_CHUNK`` bytes (the last aside): one write call each, not one per line."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        yield bytes(data)
        return
    pending = bytearray()
    for chunk in data:
        if not pending and type(chunk) in (bytes, bytearray) and len(chunk) >= _CHUNK:
            yield chunk  # a piece already this large (a spooled span's piece) goes as it is, not copied twice more
            continue
        pending += chunk
        if len(pending) >= _CHUNK:
            yield bytes(pending)
            pending.clear()
    if pending:
        yield bytes(pending)


def write_all(fd: int, chunk: bytes) -> None:
    """Write all of ``chunk`` to ``fd`` (a write call may take only part of it)."""
    view = memoryview(chunk)
    while view:
        view = view[os.write(fd, view) :]


def _to_stream(data: bytes | Iterable[bytes], stream: TextIO, fd: int | None = None) -> None:
    """Write ``data`` to a text stream or a descriptor; on a terminal, through :func:`for_terminal`.

    Into a pipe, a file or a device other than a terminal, the bytes go as they are.
    """
    from reviewtui.evalset.text.safe import for_terminal

    if stream.isatty():
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        stream.writelines(for_terminal(decoder.decode(chunk), stream) for chunk in _chunks(data))
        stream.write(for_terminal(decoder.decode(b"", final=True), stream))
        stream.flush()
        return
    if fd is not None:
        for chunk in _chunks(data):
            write_all(fd, chunk)
        return
    stream.flush()
    binary = getattr(stream, "buffer", None)
    for chunk in _chunks(data):
        if binary is not None:
            binary.write(chunk)
        else:
            stream.write(chunk.decode("utf-8", "replace"))
    if binary is not None:
        binary.flush()
    stream.flush()


def _write_device(target: Path, data: bytes | Iterable[bytes]) -> Path:
    """Write straight into a pipe or a character device (``/dev/null``, a terminal): never rename over it."""
    fd = os.open(target, os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        # The path was checked before opening; check what was opened, in case it changed since.
        if not is_device(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "is no longer a pipe or a device", str(target))
        with open(fd, "w", encoding="utf-8", closefd=False) as stream:
            _to_stream(data, stream, fd)
    finally:
        os.close(fd)
    return target


def is_device(mode: int) -> bool:
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def read_once_kind(path: str | os.PathLike[str]) -> str | None:
    """What ``path`` is when its bytes can be read only once ("a named pipe", "a device", "a
    socket"), following links (``/dev/stdin``); None for a regular file, a folder or no file.

    Looked up without opening it: opening a pipe waits for its writer.
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return None


def refuse_read_once(path: str | os.PathLike[str], why: str, error: type[EvalSetError] = InputError) -> None:
    """Raise ``error`` ("is a named pipe, which can be read only once; <why>") when ``path`` is an
    input that cannot be read a second time or has no folder of its own (see :func:`read_once_kind`)."""
    once = read_once_kind(path)
    if once is not None:
        raise error(f"is {once}, which can be read only once; {why}", path=str(path))


def names_an_open_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` reaches its file through a process's descriptor table (``/dev/stdin``,
    ``/dev/fd/0``, ``/proc/self/fd/3``): the file may be a regular one (a shell's ``< set.jsonl``),
    but the name's folder is ``/dev`` or ``/proc``, not the file's, and nothing belongs beside it."""
    here = os.path.abspath(os.fspath(path))
    for _ in range(16):  # a few links at most lead there; a loop of links is not followed for ever
        if here.startswith(("/proc/", "/dev/fd/")):
            return True
        try:
            link = os.readlink(here)
        except (OSError, ValueError):
            return False
        here = os.path.normpath(os.path.join(os.path.dirname(here), link))
    return False


def refuse_no_folder(path: str | os.PathLike[str], why: str, error: type[EvalSetError] = InputError) -> None:
    """:func:`refuse_read_once`, and the same refusal for a set named through a descriptor
    (see :func:`names_an_open_file`): a command that keeps a file beside its set (a journal, a
    next version, a team plan) has no folder to keep it in."""
    refuse_read_once(path, why, error)
    if names_an_open_file(path):
        raise error(f"is an open file's name (such as /dev/stdin), not a file in a folder of its own; {why}", path=str(path))


def atomic_write(path: str | os.PathLike[str], data: bytes | Iterable[bytes]) -> Path:
    """Write ``data`` to ``path`` atomically and durably; create missing parent folders.

    ``data`` may be bytes or an iterable of byte chunks (so large exports need not
    be joined in memory first). A regular file is written whole to a temporary
    file beside it, created exclusively and never through a link, then renamed
    over the target: a crash leaves the old file or the new one. The file keeps
    the target's permissions when it already exists.

    What is not a regular file is written to directly, never replaced: ``-`` or
    ``/dev/stdout`` (standard output, wherever it goes), a pipe, a character device such as ``/dev/null``, or a
    link to one of those (``/dev/stdout``). A path that is a symbolic link to
    anything else is refused with an OSError: writing through it would change a
    file somewhere else, and renaming over it would silently drop the link.
    """
    if is_stdout(path):
        _to_stream(data, sys.stdout)
        return Path(path)
    target = Path(path)
    try:
        st: os.stat_result | None = os.lstat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        try:
            followed = os.stat(target)
        except OSError:
            followed = None
        if followed is None or not is_device(followed.st_mode):
            raise OSError(errno.ELOOP, "is a symbolic link; reviewtui does not write through links", str(target))
        return _write_device(target, data)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(target))
    if st is not None and is_device(st.st_mode):
        return _write_device(target, data)
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, "is neither a regular file nor a pipe or a character device", str(target))

    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(folder, target.name)
    fd, tmp = _create_temp(folder, target.name)
    try:
        try:
            for chunk in _chunks(data):
                write_all(fd, chunk)
            os.fsync(fd)
            mode = stat.S_IMODE(st.st_mode) if st is not None else None
            if mode is not None:
                with contextlib.suppress(OSError):
                    os.fchmod(fd, mode)
        finally:
            os.close(fd)
        if st is None:
            _put_new(tmp, target)
        else:
            os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(folder)
    _remember_folder(folder)
    return target


def _put_new(tmp: Path, target: Path) -> None:
    """Give the finished file ``tmp`` the name ``target``, which was free when the write began, never replacing a
    file made there since.

    Checked before the work and renamed over at its end, an output named with ``-o`` (no ``--force``) that another
    command wrote meanwhile (`export -o x.jsonl` run twice at once, of two sets) was replaced: both commands said
    they wrote it, and one's result was gone. A hard link takes a name only when it is free; on a file system
    without hard links the file is renamed into place, as before.
    """
    try:
        os.link(tmp, target, follow_symlinks=False)
    except FileExistsError:
        raise FileExistsError(
            errno.EEXIST,
            "was made by another program while this command wrote it, and was left as it is; run the command again "
            "(with --force to replace that file), or name another file",
            str(target),
        ) from None
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise
        os.replace(tmp, target)
        return
    os.unlink(tmp)


#: What link() says on a file system that has no hard links (FAT, some network and FUSE file systems).
_NO_HARD_LINKS = frozenset(
    getattr(errno, name) for name in ("EPERM", "EOPNOTSUPP", "ENOTSUP", "ENOSYS", "EMLINK", "EXDEV") if hasattr(errno, name)
)


def _create_temp(folder: Path, target_name: str) -> tuple[int, Path]:
    """Create a new temporary file in ``folder``: exclusively, never through a link, readable as a new file is."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _ in range(100):
        tmp = folder / temp_name(target_name)
        try:
            return os.open(tmp, flags, 0o644), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


# --- where an output may go ---------------------------------------------------------------


