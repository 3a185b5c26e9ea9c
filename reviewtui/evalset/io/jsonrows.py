"""Question rows in another tool's shape, read from JSON: a ragas or deepeval dataset saved as JSON Lines or
as a JSON list, a pandas or Hugging Face ``datasets`` export.

A record's keys are matched by name as the CSV reader matches its columns (``user_input`` or ``input`` is
the question, ``reference`` or ``expected_output`` the answer, ``reference_contexts`` or ``context`` the
evidence texts, ...; see :data:`~reviewtui.evalset.io.csvcells.FIELD_ALIASES`), and that reader's rules hold
(see :mod:`.csvfile`: evidence texts without a source are kept in ``meta["contexts"]`` and counted, rows
without an id are numbered, rows without a question are skipped and counted), except that each value is read
as the JSON type it is: a list of texts is a list whatever its key is called, and a text is never stripped of
a spreadsheet's formula guard. A text under a key that holds a list of texts in a CSV file (``contexts``,
``ground_truths``, ...) is read as that reader reads the cell, a list written as text (``"['a', 'b']"``: pandas
writes a list read from CSV so) being that list. A key that feeds no field keeps its value, of any type, in
the item's meta under its own name. Records may have different keys.

Which records are rows (:func:`~reviewtui.evalset.io.shapes.is_question_row`): an object whose question, under one of its names, is text,
and that is not one of reviewtui's own items (those are read, or refused with a reason, by the native reader):
it holds no ``anchors`` or ``gold``, some key that is not one of an item's fields, and, when it has both ``id``
and ``question``, a key other tools use for a field (``expected_answer``, ``context``), not only misspelt ones.
In a JSON list, which no native format is, a record of an item's field names only (``question`` and
``answer``, as a pandas frame of them writes it) is a row too. A file whose later records hold ``anchors`` or
``gold``, or our own set header, is refused, naming the line: read as rows, that evidence would have gone to meta.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from reviewtui.evalset.io.csvcells import FIELD_ALIASES
from reviewtui.evalset.io.csvfile import ABSENT, items_from_rows, resolve_columns, warn_row_notes
from reviewtui.evalset.io.files import json_records
from reviewtui.evalset.io.names import file_name_text
from reviewtui.evalset.io.problems import json_type_name
from reviewtui.evalset.io.shapes import OUR_EVIDENCE, question_key
from reviewtui.evalset.io.skipped import ImportNotes
from reviewtui.evalset.model.items import EvalSet, EvalSetError, InputError

__all__ = ["read_rows", "rows_from_records"]

#: Fields whose value may be a whole number where the CSV reader reads a number from text.
_NUMBERS = frozenset(("grade", "page", "occurrence"))


def read_rows(path: str | os.PathLike[str], *, evalset_id: str | None = None) -> EvalSet:
    """Read a file of question rows, JSON Lines or a JSON list (see the module notes)."""
    # NaN as Python's json module writes it, and the native reader reads it (its hint sends such rows here)
    return rows_from_records(json_records(path, allow_nan=True), str(path), evalset_id=evalset_id)


def rows_from_records(
    records: Iterable[tuple[int | None, Any]], name: str, *, evalset_id: str | None = None
) -> EvalSet:
    """Build the set from parsed records given as ``(line number or None, record)``; None for each record of a
    JSON list, whose records are then named by their place in it ("row 3")."""
    rows: list[tuple[int, Mapping[str, Any]]] = []
    by_line = True
    keys: dict[str, None] = {}  # every record's keys, in the order they first appear
    for position, (line, record) in enumerate(records, 1):
        by_line = line is not None
        at = line if line is not None else position
        if not isinstance(record, Mapping):
            raise _error(f"expected a question row (a JSON object), found {json_type_name(record)}", name, at, by_line)
        if "_evalset" in record:  # read as a row, it was "skipped: no question", and the set's id and version lost
            raise _error(
                "this is the header of a set in reviewtui's own format, not a question row; read the file as that "
                "format (--from jsonl)",
                name,
                at,
                by_line,
            )
        ours = sorted(OUR_EVIDENCE & record.keys())
        if ours:
            fields = " and ".join(f"`{key}`" for key in ours)
            raise _error(
                f"this record has {fields}, evidence as reviewtui's own items hold it, among rows of another tool's "
                "shape; read the file as reviewtui's own format (--from jsonl), or give every record the same shape",
                name,
                at,
                by_line,
            )
        keys.update(dict.fromkeys(record))
        rows.append((at, record))
    unit = "line" if by_line else "row"
    if not rows:
        raise InputError("no questions in this file: it holds no question rows", path=name)
    header = list(keys)
    try:
        columns = resolve_columns(header, keys=True)
    except EvalSetError:
        found = ", ".join(f"`{key}`" for key in header[:12]) + (", ..." if len(header) > 12 else "")
        raise InputError(
            f"no record has a question under any name reviewtui knows ({', '.join(FIELD_ALIASES['question'])}); "
            f"the records' keys: {found}",
            path=name,
            line=rows[0][0] if by_line else None,
            field="question",
        ) from None
    columns.from_json = True
    _refuse_other_question_keys(rows, header[columns.field_index["question"]], name, by_line)
    field_of = {index: target for target, index in columns.field_index.items()}
    notes = ImportNotes(Path(name).name)
    try:
        items, _ = items_from_rows(_cells(rows, header, field_of), columns, name, notes, unit=unit)
    except EvalSetError as exc:
        if by_line:
            if exc.path is None:  # a value of the wrong type, found as the records were made into rows
                raise InputError(exc.message, path=name, line=exc.line, field=exc.field) from None
            raise
        raise InputError(f"row {exc.line}: {exc.message}" if exc.line else exc.message, path=name, field=exc.field) from None
    warn_row_notes(notes, unit, column="key")
    return EvalSet(id=evalset_id or file_name_text(Path(name).stem), items=tuple(items), source="import", meta=notes.meta())


def _refuse_other_question_keys(
    rows: Sequence[tuple[int, Mapping[str, Any]]], chosen: str, name: str, by_line: bool
) -> None:
    """Refuse a record whose question is under another name than the one the file's keys chose (``q`` in one
    record made every record's question its ``q``: the others were skipped as having no question)."""
    first = next((at for at, record in rows if chosen in record), None)
    for at, record in rows:
        if chosen not in record:
            own = question_key(record)
            if own is not None and isinstance(record[own], str) and record[own].strip():
                where = f"line {first}" if by_line else f"row {first}"
                raise _error(
                    f"this record's question is under `{own}`, but {where} has `{chosen}`, which the question is "
                    f"taken from before `{own}`; give every record its question under one key",
                    name,
                    at,
                    by_line,
                )


def _error(message: str, name: str, at: int, by_line: bool) -> InputError:
    if by_line:
        return InputError(message, path=name, line=at)
    return InputError(f"row {at}: {message}", path=name)


def _cells(
    rows: Sequence[tuple[int, Mapping[str, Any]]], header: list[str], field_of: Mapping[int, str]
) -> Iterator[tuple[int, list[Any]]]:
    """Each record as a row of cells under ``header``: a field's value as the CSV reader's cell would give it,
    any other key's value as it is (ABSENT for a key the record lacks)."""
    for at, record in rows:
        cells: list[Any] = []
        for index, key in enumerate(header):
            value = record.get(key, ABSENT)
            target = field_of.get(index)
            cells.append(value if target is None else _field_cell(target, key, value, at))
        yield at, cells


def _field_cell(target: str, key: str, value: Any, at: int) -> Any:
    """A field's value in the form :func:`~reviewtui.evalset.io.csvfile.items_from_rows` takes for it."""
    if value is ABSENT or value is None:
        return ""
    if target == "meta":
        if isinstance(value, (dict, list, str)):
            return value
        return _wrong(key, "an object", value, at)
    if target in ("quote", "answer") and isinstance(value, list):
        if all(isinstance(text, str) for text in value):
            return [text for text in value]
        return _wrong(key, "a text or a list of texts", value, at)
    if target in _NUMBERS or target == "id":
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if target in _NUMBERS and isinstance(value, float) and value.is_integer():
            return str(int(value))
    if isinstance(value, str):
        return value
    wanted = "a text or a list of texts" if target in ("quote", "answer") else (
        "a whole number" if target in _NUMBERS else "a text or a whole number" if target == "id" else "a text"
    )
    return _wrong(key, wanted, value, at)


def _wrong(key: str, wanted: str, value: Any, at: int) -> Any:
    raise InputError(f"`{key}` must be {wanted}, found {json_type_name(value)}", line=at, field=key)
