"""The native JSONL format: an optional header line, then one item per line.

Header (optional, first non-blank line only)::

    {"_evalset": {"id": "handbook-quiz", "version": 1, "source": "manual", "meta": {}}}

Item lines carry the fields in this order: ``id, question, gold, anchors, qtype,
answer, meta``; a gold span is ``{"span": {"doc_id", "start", "end"}, "grade"}``
and an anchor is ``{"source_id", "quote", "grade", "page_hint", "occurrence"}``.
Only ``id`` and ``question`` are required when reading.

Reading rules, chosen so that hand-edited files load and broken ones fail at the
right line:

- without a header the set's id is the file stem, its source ``"import"`` and its
  version 1; a header that leaves out a key gets the model's default (the stem
  for ``id``);
- a UTF-8 byte-order mark, CRLF endings, blank lines and a last line without a
  newline are all fine;
- an integer ``id`` (``{"id": 7}``) is read as the string ``"7"``, since many
  exported sets number their questions;
- an unknown key is an error that names the key and lists the known fields, so
  a misspelt ``anwser`` is never dropped quietly; so is a key given twice in one
  object (JSON parsers keep one value and drop the other);
- ``meta`` may hold any JSON that JSON writers can write back: nesting deeper than
  :data:`~reviewtui.evalset.model.items.MAX_META_DEPTH` levels, or a whole number beyond 64
  bits anywhere, is refused (it is never read as a float that has lost its digits); NaN,
  Infinity and a number too large for a float (``1e400``, read as infinite) are read; in an
  item's meta they are said (a :class:`~reviewtui.evalset.io.readingnote.ReadingNote` once
  the file is read, naming the lines), since JSON has no form for them and the writers write
  null in their place (the header's meta is written back as it was read);
- every other problem (bad JSON, invalid UTF-8, a line that is not an object, a
  missing or blank field, a duplicate id, a misplaced header) raises
  :class:`EvalSetError` carrying ``path``, ``line`` and ``field``.

Writing is atomic, creates missing folders, and emits compact JSON (no space
after ``:`` or ``,``) in UTF-8 without escaping non-ASCII text. JSON has no
tuples, so a tuple inside ``meta`` reads back as a list.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import stat
from array import array
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson
import pydantic_core
from pydantic import ValidationError

from reviewtui.evalset.io.compact import StringTable, nested_meta_keys, share_field_sets
from reviewtui.evalset.io.files import (
    BOM,
    RepeatedKeyError,
    atomic_write,
    json_line_error,
    loads_allowing_nan,
    open_for_reading,
    read_error,
    read_once_kind,
    utf8_error,
)
from reviewtui.evalset.io.names import file_name_text
from reviewtui.evalset.io.problems import json_text, json_type_name, validate_item
from reviewtui.evalset.io.skipped import NON_FINITE, ImportNotes
from reviewtui.evalset.jobs.collector import gc_paused
from reviewtui.evalset.model.items import (
    EvalItem,
    EvalSet,
    EvalSetError,
    InputError,
    non_finite_numbers,
    non_finite_seen,
    validation_to_evalset_error,
)
from reviewtui.evalset.text.counts import count

__all__ = ["HEADER_KEY", "JsonlReader", "LinePrints", "content_hash", "find_item", "read_jsonl", "write_jsonl"]

HEADER_KEY = "_evalset"
_HEADER_FIELDS = ("id", "version", "source", "meta")
_WRITE_BATCH = 2048
PROGRESS_EVERY = 4096  # items per batch when reading the whole file

Progress = Callable[[int, int], None]


def content_hash(data: bytes) -> str:
    """The short hash (16 hex digits, blake2b) a review journal keeps of an item's JSON.

    ``reviewtui.evalset.review.replay.fingerprint`` is this hash of the item as the set writer
    writes it; :class:`LinePrints` is this hash of an item's line as it stands in a file.
    """
    return hashlib.blake2b(data, digest_size=8).hexdigest()


class LinePrints:
    """The :func:`content_hash` of the lines that hold some items, kept while a file is read.

    A review journal records the hash of each decided item's JSON as the set writer writes it.
    When a line is byte for byte that JSON, its hash is the journal's, and checking the journal
    against the file needs no re-encoding of the item. Only lines read as they stand (no
    coercion, see :meth:`JsonlReader.read`) are hashed, without their line ending; any other
    line, and every item of another format, is simply absent, and its item is checked the
    long way.
    """

    __slots__ = ("found", "wanted")

    def __init__(self, ids: Collection[str]) -> None:
        self.wanted = frozenset(ids)
        self.found: dict[str, str] = {}

    def get(self, item_id: str) -> str | None:
        return self.found.get(item_id)


def read_jsonl(
    path: str | os.PathLike[str],
    *,
    progress: Progress | None = None,
    line_prints: LinePrints | None = None,
    share_strings: bool = False,
) -> EvalSet:
    """Read a native JSONL eval set (header optional); see the module notes for the rules.

    ``progress(bytes_read, bytes_total)`` is called every few thousand lines, for a
    progress bar on big files. ``line_prints`` collects the hashes of some items' lines
    (see :class:`LinePrints`). ``share_strings`` makes items that cite the same source or
    quote share one copy of it (see :mod:`~reviewtui.evalset.io.compact`): a fifth less
    memory on a set whose questions cite the same passages, a fifth more reading time, so
    only the commands that then hold the set beside a scan of it ask for it.
    """
    with JsonlReader(path, line_prints=line_prints, share_strings=share_strings) as reader, gc_paused():
        while not reader.done:
            reader.read(PROGRESS_EVERY)
            if progress is not None and reader.bytes_total:
                progress(reader.bytes_read, reader.bytes_total)
        evalset = reader.finish()
        reader.say_notes()
        return evalset


def _non_finite_note(n: int) -> str:
    """What reading says of NaN and infinities in ``n`` items' meta ({examples}: see ImportNotes.warn)."""
    return (
        f"NaN or infinite numbers in the meta of {count(n, 'item', 'items')} ({{examples}}): JSON has no form for "
        "them, so a file written from this set (convert, export, filter) holds null in their place"
    )


class JsonlReader:
    """A native JSONL set read a batch of items at a time.

    The review app opens on the first items of a large file and reads the rest
    while the reviewer works. Every batch obeys the same rules as
    :func:`read_jsonl` (which is built on this class), so a problem on a late
    line fails with the same ``path:line`` error, only later. The header (or
    the lack of one) is known as soon as the reader is made.
    """

    def __init__(
        self, path: str | os.PathLike[str], *, line_prints: LinePrints | None = None, share_strings: bool = False
    ) -> None:
        self.path = Path(path)
        self.name = str(path)
        #: hashes of the lines of the items it names, collected as they are read (see LinePrints)
        self.line_prints = line_prints
        self.items: list[EvalItem] = []
        self.header: dict[str, Any] | None = None
        self.done = False
        self._index: dict[str, int] = {}  # id -> position of every item read (ids are checked distinct as read)
        #: with ``share_strings``, the evidence strings read so far (see compact), emptied at the end
        self._strings: StringTable | None = {} if share_strings else None
        #: each item's line, kept only for a pipe: a file's lines are found again on an error instead (see _numbered)
        self._item_lines: array | None = array("l") if read_once_kind(self.path) is not None else None
        #: what reading changed without refusing the file (NaN and infinities, written back as null); see say_notes
        self.notes = ImportNotes(self.path.name)
        self._non_finite_mark = non_finite_seen()  # see _keep
        self._non_finite_at: list[int] = []  # positions of the first few items whose meta holds one
        self._notes_said = False
        self._handle = open_for_reading(self.path)
        try:
            st = os.fstat(self._handle.fileno())
            # A pipe has no size and no position: its progress is unknown (0), never an error.
            self.bytes_total = st.st_size if stat.S_ISREG(st.st_mode) else 0
            self._lines = enumerate(self._handle, 1)
            self._read_head()
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> JsonlReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._handle.close()
        if self._strings is not None:
            self._strings.clear()  # a reader closed before the end (an error, a closed session) holds none

    @property
    def bytes_read(self) -> int:
        """How far into the file reading has got; 0 for a pipe, whose size is unknown."""
        if self.done or not self.bytes_total:  # the end, a pipe, or an empty file
            return self.bytes_total
        return self._handle.tell()

    @property
    def set_id(self) -> str:
        return str((self.header or {}).get("id", file_name_text(self.path.stem)))

    def _read_head(self) -> None:
        """Until the first item: skip blank lines, strip a BOM, take the header if there is one."""
        try:
            self._read_first()
        except OSError as exc:  # said as every other input that cannot be read, naming the file
            raise read_error(self.path, exc) from None

    def _read_first(self) -> None:
        for number, raw in self._lines:
            if number == 1:
                raw = raw.removeprefix(BOM)
            if not raw.strip():
                continue
            try:  # the same fast path as every later line, so that a line reads alike wherever it stands
                item = EvalItem.__pydantic_validator__.validate_json(raw)
            except ValidationError:
                try:
                    record = _parse(raw, self.name, number)
                except InputError:
                    _refuse_csv_header(raw, self.name, number)
                    raise
                if isinstance(record, dict) and HEADER_KEY in record:
                    refuse_repeated_keys(raw, self.name, number)  # one line: read again whole
                    self.header = _read_header(record, self.name, number)
                    # NaN in the header's meta is not said: the set writer writes it back as it stands (as NaN).
                    self._non_finite_mark = non_finite_seen()
                else:
                    item = validate_item(record, path=self.name, line=number)
                    if may_repeat_a_key(raw, item, share_field_sets(item, self._strings)):
                        refuse_repeated_keys(raw, self.name, number)
                    self._keep([item], [number])
            else:
                if may_repeat_a_key(raw, item, share_field_sets(item, self._strings)):
                    refuse_repeated_keys(raw, self.name, number)
                self._note_line(item, raw)
                self._keep([item], [number])
            return
        self.done = True

    def read(self, limit: int) -> list[EvalItem]:
        """The next ``limit`` items at most (fewer at the end of the file; ``done`` then turns true)."""
        if self.done:
            return []
        validate_json = EvalItem.__pydantic_validator__.validate_json
        share = share_field_sets
        strings = self._strings
        batch: list[EvalItem] = []
        append = batch.append
        name = self.name
        left = limit
        prints = self.line_prints
        wanted, found = (prints.wanted, prints.found) if prints is not None else ((), {})
        lines: list[int] | None = [] if self._item_lines is not None else None
        try:
            for number, raw in self._lines:
                try:
                    # pydantic-core parses and validates in one pass, without building a dict first
                    item = validate_json(raw)
                except ValidationError:
                    # anything unusual (blank line, bad JSON, a field to coerce or to complain about)
                    if not raw.strip():
                        continue
                    item = validate_item(_parse(raw, name, number), path=name, line=number)
                    if may_repeat_a_key(raw, item, share(item, strings)):
                        refuse_repeated_keys(raw, name, number)
                else:
                    # A key given twice leaves one of its values behind unread (see may_repeat_a_key); most
                    # lines have a colon for each key and no other, which one count shows.
                    keys = share(item, strings)
                    if raw.count(b":") != keys and may_repeat_a_key(raw, item, keys):
                        refuse_repeated_keys(raw, name, number)
                    if item.id in wanted:  # see LinePrints; the same as _note_line, without a call per item
                        found[item.id] = content_hash(raw[:-1] if raw.endswith(b"\n") else raw)
                append(item)
                if lines is not None:
                    lines.append(number)
                left -= 1
                if not left:
                    break
            else:
                self.done = True
                if strings is not None:
                    strings.clear()  # each item holds its own references now
        except OSError as exc:  # a failing disk or a share gone mid-read: the reader's thread said nothing
            raise read_error(self.path, exc) from None
        self._keep(batch, lines)
        return batch

    def _note_line(self, item: EvalItem, raw: bytes) -> None:
        """Keep the hash of the line ``item`` was read from as it stands, if it is wanted."""
        prints = self.line_prints
        if prints is not None and item.id in prints.wanted:
            prints.found[item.id] = content_hash(raw[:-1] if raw.endswith(b"\n") else raw)

    def _keep(self, batch: list[EvalItem], lines: list[int] | None = None) -> None:
        index = self._index
        before = len(index)
        seen = non_finite_seen()
        if seen != self._non_finite_mark:  # some meta of the batch may hold NaN or an infinity: find which
            self._non_finite_mark = seen
            self._find_non_finite(batch, len(self.items))
        if self._item_lines is not None and lines is not None:
            self._item_lines.extend(lines)
        known = self._item_lines  # a pipe's item lines, or None: a file's are found again
        ids = [item.id for item in batch]
        if not all(ids) or any(map(str.isspace, ids)):
            _raise_blank_id(self.path, self.name, (*self.items, *batch), known)
        index.update(zip(ids, range(before, before + len(batch))))
        if len(index) - before != len(batch):
            _raise_duplicate(self.path, self.name, (*self.items, *batch), known)
        self.items.extend(batch)

    def _find_non_finite(self, batch: list[EvalItem], start: int) -> None:
        """Count the items of ``batch`` (the first at position ``start``) whose meta holds NaN or an infinity."""
        for position, item in enumerate(batch, start):
            if item.meta and non_finite_numbers(item.meta):
                self.notes.note(NON_FINITE)
                if len(self._non_finite_at) < 5:
                    self._non_finite_at.append(position)

    def say_notes(self) -> None:
        """Warn (a :class:`ReadingNote`) of the items whose meta holds NaN or an infinity, once the file is read.

        Called by whoever reads the file to its end on the caller's own thread (:func:`read_jsonl`, the
        session's opening), not by :meth:`finish`: the review app finishes a large set in a worker thread,
        where a warning would go nowhere, or (warnings turned into errors) stop the loading; it asks for
        :meth:`note_text` instead and shows it. Said once.
        """
        if self._notes_said:
            return
        self._notes_said = True
        n = self._note_examples()
        if n:
            self.notes.warn(NON_FINITE, _non_finite_note(n), stacklevel=3)

    def note_text(self) -> str | None:
        """What :meth:`say_notes` would warn, as text, or None: for a reader finished in a worker thread."""
        if not self._note_examples():
            return None
        n = self.notes.counts[NON_FINITE]
        shown = self.notes.examples.get(NON_FINITE, [])
        more = n - len(shown)
        examples = ", ".join(shown) + (f" and {more} more" if more > 0 and shown else "")
        return f"{self.notes.source}: " + _non_finite_note(n).format(examples=examples)

    def _note_examples(self) -> int:
        """How many items' meta hold NaN or an infinity, their examples found once (the lines of the few named:
        the reading kept the items' positions, and a file's lines are counted again, as for an error, up to the
        last of those items)."""
        n = self.notes.counts[NON_FINITE]
        if n and self._non_finite_at and NON_FINITE not in self.notes.examples:
            examples = self.notes.examples.setdefault(NON_FINITE, [])
            last = self._non_finite_at[-1]
            wanted = set(self._non_finite_at)
            by_item, numbered = _numbered(self.path, tuple(self.items[: last + 1]), self._item_lines)
            for position, (item, number) in enumerate(numbered):
                if position in wanted:
                    where = f"item {number} of the set" if by_item else f"line {number}"
                    examples.append(f"{item.id!r} on {where}")
        return n

    def snapshot(self) -> EvalSet:
        """The items read so far as a set with the file's header (the whole set once ``done``)."""
        if self.done:
            return self.finish()
        with gc_paused():
            return _build_set(self._header_or_default(), tuple(self.items), self.name)

    def finish(self) -> EvalSet:
        """Read whatever is left and return the whole set."""
        while not self.done:
            self.read(PROGRESS_EVERY)
        # The index is whole unless a duplicate stopped the reading: then the set is validated as given, and says so.
        index = self._index if len(self._index) == len(self.items) else None
        return _assemble(self.path, self.name, self.items, self._header_or_default(), index)

    def _header_or_default(self) -> dict[str, Any]:
        if self.header is None:
            return {"id": file_name_text(self.path.stem), "version": 1, "source": "import"}
        return self.header


#: Lines :func:`find_item` validates at most: each is a line where the id's text turned up.
_FIND_TRIES = 8
#: Bytes :func:`find_item` reads at a time. Read, not mapped: a mapped file that another program
#: cuts short while it is searched kills the process (SIGBUS) instead of raising an error.
_FIND_CHUNK = 1 << 23


def find_item(path: str | os.PathLike[str], item_id: str) -> EvalItem | None:
    """The item ``item_id`` of a native JSONL file, found without reading the lines before it; None if not found.

    The set writer puts each item's id first, written as ``"id":"..."``; the file is searched
    for that text (a few tens of milliseconds for 100 MB), and a line where it turns up is read
    as an item and kept only if its own id is the one asked for (the text could be a value
    inside some item's ``meta``). A file written another way (spaces after the colon, say)
    may not be found: None, as for a missing item. Nothing is reported about the rest of
    the file: reading the set is what checks it.
    """
    needle = b'"id":' + orjson.dumps(item_id)
    keep = len(needle) - 1  # bytes carried over from one chunk to the next, so no match is cut in two
    tries = 0
    try:
        with open_for_reading(path) as handle:
            fd = handle.fileno()
            offset, carried = 0, b""
            while block := os.pread(fd, _FIND_CHUNK, offset):
                # A match that began in the block before (in ``carried``), then those inside this block.
                seam = carried + block[:keep]
                for data, base, limit in ((seam, offset - len(carried), len(carried)), (block, offset, len(block))):
                    at = data.find(needle)
                    while 0 <= at < limit:
                        item = _item_on_line_at(fd, base + at)
                        if item is not None and item.id == item_id:
                            return item
                        tries += 1
                        if tries >= _FIND_TRIES:
                            return None
                        at = data.find(needle, at + 1)
                carried = (carried + block)[-keep:] if len(block) < keep else block[len(block) - keep :]
                offset += len(block)
    except (OSError, EvalSetError):  # no such file, a folder
        return None
    return None


def _item_on_line_at(fd: int, position: int) -> EvalItem | None:
    """The item on the line holding byte ``position`` of the file, or None if that line is not a valid item."""
    step = 1 << 16
    start = position
    while start > 0:  # back to the newline before it, a block at a time
        low = max(start - step, 0)
        newline = os.pread(fd, start - low, low).rfind(b"\n")
        if newline >= 0:
            start = low + newline + 1
            break
        start = low
    pieces: list[bytes] = []
    at = position
    while block := os.pread(fd, step, at):  # on to the newline after it
        newline = block.find(b"\n")
        if newline >= 0:
            pieces.append(block[:newline])
            break
        pieces.append(block)
        at += len(block)
    line = os.pread(fd, position - start, start) + b"".join(pieces)
    try:
        return EvalItem.__pydantic_validator__.validate_json(line)
    except ValidationError:
        return None


def _parse(raw: bytes, name: str, number: int) -> Any:
    try:
        return loads_allowing_nan(raw)  # NaN read here as on the fast path (see loads_allowing_nan)
    except RepeatedKeyError:
        refuse_repeated_keys(raw, name, number)  # said as every repeated key of this format is said
        raise  # pragma: no cover  # the line does give a key twice: refused above
    except orjson.JSONDecodeError as exc:
        raise _json_error(name, number, raw, exc) from None


def may_repeat_a_key(raw: bytes, item: EvalItem, keys: int) -> bool:
    """Whether the line ``raw``, read into ``item``, may give some key twice: a JSON parser keeps one of
    the two values and drops the other without a word. ``keys``: what :func:`share_field_sets` counted.

    Every key is followed by a colon. A line with no more colons than keys holds no key twice
    (most lines: one C-level count), and objects nested in meta can only add keys, so their keys
    are counted only past that. Otherwise a colon is inside a string (a time, a title), or a key
    is there twice: the colons right after a quote are counted, and a line where they are more
    than the keys, or where a quote is followed by JSON's whitespace (``"a" : 1``), is worth reading again
    with :func:`refuse_repeated_keys`.
    """
    if raw.count(b":") == keys:
        return False
    if item.meta:
        keys += nested_meta_keys(item)
    return raw.count(b'":') != keys or b'" ' in raw or b'"\t' in raw or b'"\r' in raw


def refuse_repeated_keys(raw: bytes | str, name: str, number: int) -> None:
    """Raise an error at ``name:number`` if some JSON object on the line gives one key twice.

    JSON parsers keep one of the two values and drop the other without a word; which one
    the author meant cannot be known, so the line is refused, as an unknown key is.
    A second, slower parse of the line: readers call it only on lines that may hold one.
    """
    repeated: list[str] = []

    def pairs(members: list[tuple[str, Any]]) -> dict[str, Any]:
        record = dict(members)
        if len(record) != len(members) and not repeated:
            seen: set[str] = set()
            repeated.append(next(key for key, _ in members if key in seen or seen.add(key)))  # type: ignore[func-returns-value]
        return record

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except (ValueError, RecursionError):  # not JSON after all, or nested too deep for this parser: the
        return  # caller's own parse and the model's depth limit say why
    if repeated:
        key = repeated[0]
        raise InputError(
            f"the key {json.dumps(key, ensure_ascii=False)} is given twice in one object, and only one of its "
            "values could be kept; remove the one that is not meant",
            path=name,
            line=number,
            field=key,
        )


def _refuse_csv_header(raw: bytes, name: str, number: int) -> None:
    """Say so when the first line, which is not JSON, names CSV columns (a CSV file saved as .txt, or piped in):
    "not valid JSON (unexpected character)" left the reader to guess that the format was the trouble."""
    from reviewtui.evalset.io.csvcells import FIELD_ALIASES

    text = raw.decode("utf-8", "replace").strip()
    cells = [cell.strip().strip('"').strip().lower() for cell in re.split(r"[,;\t]", text)]
    if len(cells) < 2 or not any(cell in FIELD_ALIASES["question"] for cell in cells):
        return
    raise InputError(
        "not JSON Lines: this line names the columns of a CSV file; read it as CSV "
        "(--from csv on the command line, format= in Python), or name the file .csv",
        path=name,
        line=number,
    )


def _json_error(name: str, number: int, raw: bytes, exc: orjson.JSONDecodeError) -> EvalSetError:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        return utf8_error(name, raw, bad, first_line=number)
    return json_line_error(name, exc, number, raw)


def _read_header(record: dict[str, Any], name: str, number: int) -> dict[str, Any]:
    body = record[HEADER_KEY]
    if len(record) > 1:
        others = ", ".join(f"`{key}`" for key in record if key != HEADER_KEY)
        raise InputError(
            f"the header line holds {others} besides `{HEADER_KEY}`", path=name, line=number, field=HEADER_KEY
        )
    if not isinstance(body, dict):
        raise InputError(
            f"`{HEADER_KEY}` must be an object with {', '.join(_HEADER_FIELDS)}, found {json_type_name(body)}",
            path=name,
            line=number,
            field=HEADER_KEY,
        )
    unknown = [key for key in body if key not in _HEADER_FIELDS]
    if unknown:
        raise InputError(
            f"unknown header field `{unknown[0]}`; the header may hold: {', '.join(_HEADER_FIELDS)}",
            path=name,
            line=number,
            field=f"{HEADER_KEY}.{unknown[0]}",
        )
    version = body.get("version", 1)
    if type(version) is not int:  # true read as 1 and "7" as 7, silently: a version is a whole number
        raise InputError(
            f"`{HEADER_KEY}.version` must be a whole number, found {json_text(version)}",
            path=name,
            line=number,
            field=f"{HEADER_KEY}.version",
        )
    header = dict(body)
    header.setdefault("id", file_name_text(Path(name).stem))
    header["_line"] = number
    # Check the values now, so a bad header fails at its own line before any item is read.
    _build_set(header, (), name)
    return header


def _build_set(
    header: dict[str, Any], items: tuple[EvalItem, ...], name: str, index: dict[str, int] | None = None
) -> EvalSet:
    """The set of ``items`` under ``header``; with ``index`` (every id's position, as the reader
    found them distinct), the items are not walked again (see EvalSet.from_checked_items)."""
    fields = {key: value for key, value in header.items() if key in _HEADER_FIELDS}
    try:
        if index is not None:
            return EvalSet.from_checked_items(fields, items, index)
        return EvalSet.model_validate({**fields, "items": items})
    except ValidationError as exc:
        error = validation_to_evalset_error(exc, fields, show=json_text)
        field = f"{HEADER_KEY}.{error.field}" if error.field else HEADER_KEY
        raise InputError(error.message, path=name, line=header.get("_line"), field=field) from None


def _assemble(
    p: Path, name: str, items: list[EvalItem], header: dict[str, Any], index: dict[str, int] | None = None
) -> EvalSet:
    as_tuple = tuple(items)
    try:
        with gc_paused():
            return _build_set(header, as_tuple, name, index)
    except EvalSetError:
        _raise_duplicate(p, name, as_tuple)
        raise


def _item_lines(p: Path) -> Iterator[int]:
    """Line numbers of the item lines, in order (re-read only when reporting an error)."""
    header_possible = True
    with open_for_reading(p) as handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip(b" \t\r\n" + BOM):
                continue
            if header_possible and HEADER_KEY.encode() in raw:
                try:  # a header with NaN in its meta is read, so it is one here too
                    record = loads_allowing_nan(raw.removeprefix(BOM))
                except orjson.JSONDecodeError:
                    record = None
                if isinstance(record, dict) and HEADER_KEY in record:
                    header_possible = False
                    continue
            header_possible = False
            yield number


def _numbered(
    p: Path, items: tuple[EvalItem, ...], lines: Sequence[int] | None = None
) -> tuple[bool, Iterator[tuple[EvalItem, int]]]:
    """Each item with its line (``lines``, kept as a pipe was read, or found again in the file); or, from a
    pipe that cannot be read again and whose lines were not kept (then True first), its place among the items."""
    if lines is not None:
        return False, zip(items, lines)
    by_item = read_once_kind(p) is not None
    return by_item, zip(items, itertools.count(1) if by_item else _item_lines(p))


def _raise_blank_id(p: Path, name: str, items: tuple[EvalItem, ...], lines: Sequence[int] | None = None) -> None:
    """Refuse an item whose id is empty or only spaces: nothing could name it (the journal, ``g``, a report)."""
    by_item, numbered = _numbered(p, items, lines)
    for item, number in numbered:
        if item.id and not item.id.isspace():
            continue
        what = "empty" if not item.id else "only spaces"
        message = f"this item's id is {what}: every item needs an id that names it"
        if by_item:
            raise InputError(f"item {number} (counting items, not lines): {message}", path=name, field="id")
        raise InputError(message, path=name, line=number, field="id")


def _raise_duplicate(p: Path, name: str, items: tuple[EvalItem, ...], lines: Sequence[int] | None = None) -> None:
    by_item, numbered = _numbered(p, items, lines)
    first_line: dict[str, int] = {}
    for item, number in numbered:
        earlier = first_line.setdefault(item.id, number)
        if earlier == number:
            continue
        if by_item:
            raise InputError(
                f"item id {item.id!r} is used twice: by item {earlier} and again by item {number} "
                "(counting items, not lines)",
                path=name,
                field="id",
            )
        raise InputError(
            f"item id {item.id!r} is used twice: on line {earlier} and again here",
            path=name,
            line=number,
            field="id",
        )


# --- writing ------------------------------------------------------------------------------


def write_jsonl(evalset: EvalSet, path: str | os.PathLike[str]) -> Path:
    """Write ``evalset`` as native JSONL (header line first), atomically; return the path."""
    return atomic_write(path, _encoded_lines(evalset))


def _encoded_lines(evalset: EvalSet) -> Iterator[bytes]:
    header = {HEADER_KEY: {"id": evalset.id, "version": evalset.version, "source": evalset.source, "meta": evalset.meta}}
    try:
        yield pydantic_core.to_json(header) + b"\n"
    except pydantic_core.PydanticSerializationError as exc:
        raise InputError(f"eval set {evalset.id!r}: its meta cannot be written as JSON ({exc})") from None
    to_json = EvalItem.__pydantic_serializer__.to_json
    items = evalset.items
    for start in range(0, len(items), _WRITE_BATCH):
        batch = items[start : start + _WRITE_BATCH]
        try:
            encoded = [to_json(item) for item in batch]
        except pydantic_core.PydanticSerializationError:
            encoded = [_encode_one(item) for item in batch]  # find the item and say which
        encoded.append(b"")  # so the join ends the last line with a newline
        yield b"\n".join(encoded)


def _encode_one(item: EvalItem) -> bytes:
    try:
        return EvalItem.__pydantic_serializer__.to_json(item)
    except pydantic_core.PydanticSerializationError as exc:
        raise InputError(f"eval item {item.id!r}: its meta cannot be written as JSON ({exc})") from None
