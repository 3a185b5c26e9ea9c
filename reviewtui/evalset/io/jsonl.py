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
  a misspelt ``anwser`` is never dropped quietly;
- every other problem (bad JSON, invalid UTF-8, a line that is not an object, a
  missing or blank field, a duplicate id, a misplaced header) raises
  :class:`EvalSetError` carrying ``path``, ``line`` and ``field``.

Writing is atomic, creates missing folders, and emits compact JSON (no space
after ``:`` or ``,``) in UTF-8 without escaping non-ASCII text. JSON has no
tuples, so a tuple inside ``meta`` reads back as a list.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import orjson
import pydantic_core
from pydantic import ValidationError

from reviewtui.evalset.io.compact import share_field_sets
from reviewtui.evalset.io.files import BOM, atomic_write, gc_paused, json_error, open_for_reading, utf8_error
from reviewtui.evalset.io.problems import json_type_name, validate_item
from reviewtui.evalset.model import EvalItem, EvalSet, EvalSetError, validation_to_evalset_error

__all__ = ["HEADER_KEY", "read_jsonl", "write_jsonl"]

HEADER_KEY = "_evalset"
_HEADER_FIELDS = ("id", "version", "source", "meta")
_WRITE_BATCH = 2048


def read_jsonl(path: str | os.PathLike[str], *, progress: Progress | None = None) -> EvalSet:
    """Read a native JSONL eval set (header optional); see the module notes for the rules.

    ``progress(bytes_read, bytes_total)`` is called every few thousand lines, for a
    progress bar on big files.
    """
    p = Path(path)
    name = str(path)
    validate_json = EvalItem.__pydantic_validator__.validate_json
    share = share_field_sets
    items: list[EvalItem] = []
    append = items.append
    header: dict[str, Any] | None = None
    with open_for_reading(p) as handle, gc_paused():
        lines = enumerate(handle, 1)
        # Until the first item: skip blank lines, strip a BOM, take the header if there is one.
        for number, raw in lines:
            if number == 1:
                raw = raw.removeprefix(BOM)
            if not raw.strip():
                continue
            record = _parse(raw, name, number)
            if isinstance(record, dict) and HEADER_KEY in record:
                header = _read_header(record, name, number)
            else:
                append(_slow_item(record, name, number))
            break
        # The items, at full speed; anything unusual goes to the slow path.
        if progress is not None:
            lines = _reporting(lines, handle, progress)
        for number, raw in lines:
            try:
                # pydantic-core parses and validates in one pass, without building a dict first
                item = validate_json(raw)
            except ValidationError:
                # anything unusual (blank line, bad JSON, a field to coerce or to complain about)
                if not raw.strip():
                    continue
                item = validate_item(_parse(raw, name, number), path=name, line=number)
            share(item)
            append(item)
    return _assemble(p, name, items, header)


Progress = Callable[[int, int], None]
PROGRESS_EVERY = 4096


def _reporting(lines: Iterator[tuple[int, bytes]], handle: BinaryIO, progress: Progress) -> Iterator[tuple[int, bytes]]:
    """Pass lines through, telling ``progress`` how far into the file they are."""
    total = os.fstat(handle.fileno()).st_size
    done = 0
    for number, raw in lines:
        done += len(raw)
        if number % PROGRESS_EVERY == 0:
            progress(done, total)
        yield number, raw
    progress(total, total)


def _parse(raw: bytes, name: str, number: int) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise _json_error(name, number, raw, exc) from None


def _slow_item(record: Any, name: str, number: int) -> EvalItem:
    item = validate_item(record, path=name, line=number)
    share_field_sets(item)
    return item


def _json_error(name: str, number: int, raw: bytes, exc: orjson.JSONDecodeError) -> EvalSetError:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        return utf8_error(name, raw, bad, first_line=number)
    return json_error(name, exc, number)


def _read_header(record: dict[str, Any], name: str, number: int) -> dict[str, Any]:
    body = record[HEADER_KEY]
    if len(record) > 1:
        others = ", ".join(f"`{key}`" for key in record if key != HEADER_KEY)
        raise EvalSetError(
            f"the header line holds {others} besides `{HEADER_KEY}`", path=name, line=number, field=HEADER_KEY
        )
    if not isinstance(body, dict):
        raise EvalSetError(
            f"`{HEADER_KEY}` must be an object with {', '.join(_HEADER_FIELDS)}, found {json_type_name(body)}",
            path=name,
            line=number,
            field=HEADER_KEY,
        )
    unknown = [key for key in body if key not in _HEADER_FIELDS]
    if unknown:
        raise EvalSetError(
            f"unknown header field `{unknown[0]}`; the header may hold: {', '.join(_HEADER_FIELDS)}",
            path=name,
            line=number,
            field=f"{HEADER_KEY}.{unknown[0]}",
        )
    header = dict(body)
    header.setdefault("id", Path(name).stem)
    header["_line"] = number
    # Check the values now, so a bad header fails at its own line before any item is read.
    _build_set(header, (), name)
    return header


def _build_set(header: dict[str, Any], items: tuple[EvalItem, ...], name: str) -> EvalSet:
    fields = {key: value for key, value in header.items() if key in _HEADER_FIELDS}
    try:
        return EvalSet.model_validate({**fields, "items": items})
    except ValidationError as exc:
        error = validation_to_evalset_error(exc, fields)
        field = f"{HEADER_KEY}.{error.field}" if error.field else HEADER_KEY
        raise EvalSetError(error.message, path=name, line=header.get("_line"), field=field) from None


def _assemble(p: Path, name: str, items: list[EvalItem], header: dict[str, Any] | None) -> EvalSet:
    if header is None:
        header = {"id": p.stem, "version": 1, "source": "import"}
    as_tuple = tuple(items)
    try:
        with gc_paused():
            return _build_set(header, as_tuple, name)
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
                try:
                    record = orjson.loads(raw.removeprefix(BOM))
                except orjson.JSONDecodeError:
                    record = None
                if isinstance(record, dict) and HEADER_KEY in record:
                    header_possible = False
                    continue
            header_possible = False
            yield number


def _raise_duplicate(p: Path, name: str, items: tuple[EvalItem, ...]) -> None:
    first_line: dict[str, int] = {}
    for item, number in zip(items, _item_lines(p)):
        earlier = first_line.setdefault(item.id, number)
        if earlier != number:
            raise EvalSetError(
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
        raise EvalSetError(f"eval set {evalset.id!r}: its meta cannot be written as JSON ({exc})") from None
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
        raise EvalSetError(f"eval item {item.id!r}: its meta cannot be written as JSON ({exc})") from None
