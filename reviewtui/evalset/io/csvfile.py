"""CSV eval sets, for editing in a spreadsheet.

``write_csv`` writes the columns ``id, question, source_id, quote, grade, page,
occurrence, qtype, answer, meta``: one anchor per item (the first), ``meta`` as
JSON in one cell, RFC 4180 quoting with CRLF row ends, UTF-8 without a BOM. It
warns (``UserWarning``) naming the items that lose anchors beyond the first or
whose only evidence is gold spans, since neither fits the format. Cells that a
spreadsheet would run as formulas are guarded (see :mod:`.csvcells`).

``read_csv`` matches column names case-insensitively against the aliases in
:data:`~reviewtui.evalset.io.csvcells.FIELD_ALIASES`, which cover the reference
page's names and those ragas-style and golden-set files use. Reading rules:

- evidence needs a quote and a source; evidence text without a source gives no
  anchor, but the text is kept in ``item.meta["contexts"]`` (a list) so a
  reviewer still sees it, and the rows are counted and warned about;
- a list cell in ``context``/``contexts``/``reference_contexts``/``retrieved_contexts`` (Python,
  JSON or numpy repr) gives one text per element; ``ground_truths`` gives the
  first element as the answer and, when there are several, all of them in
  ``meta["answers"]``;
- a ``meta`` cell holding a JSON object (or a Python dict literal) becomes the
  item's meta; any other text reads as ``{}``, counted and warned about.
  A source without any evidence text is kept in meta under its column's name. A ragas
  ``metadata`` cell holding one ``{"source": ...}`` object per evidence text is
  kept under ``meta["metadata"]`` and its sources give those texts their anchors;
- cells of columns with no field (``Video``, ``Difficulty``, a second answer
  column, ...) are kept in item meta under the column's own name; the meta cell
  wins on a clash. The first columns named ``""`` or ``Unnamed: N`` (a pandas index) are ignored; a
  column with no name further on is kept as ``"(column N)"``, and said;
- without an id column the items are numbered ``q1, q2, ...`` in row order
  (not stable if rows move; warned and counted);
- an empty cell means "not set": ``answer`` and ``qtype`` read back as None, so
  an empty-string answer does not survive the round trip;
- the delimiter is a comma, unless the header line has none and has tabs or
  semicolons (European spreadsheet exports); a header line holding several of them is split
  at the first that gives it a question column (a tab-separated header with "notes, misc");
- rows whose every cell is empty are skipped and counted; any other bad row
  (blank question, duplicate id, non-number grade, too many cells) raises
  :class:`EvalSetError` naming ``path:line`` of the row's first physical line.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pydantic_core
from pydantic import ValidationError

from reviewtui.evalset.io.csvcells import (
    FIELD_ALIASES,
    LIST_ANSWER_COLUMNS,
    LIST_EVIDENCE_COLUMNS,
    guard,
    normalise_header,
    parse_json_like,
    parse_text_list,
    unguard,
)
from reviewtui.evalset.io.files import atomic_write, decode_utf8, read_bytes
from reviewtui.evalset.io.names import file_name_text, version_in_name
from reviewtui.evalset.io.problems import item_error
from reviewtui.evalset.io.skipped import NON_FINITE, ImportNotes
from reviewtui.evalset.model.items import (
    EvalItem,
    EvalSet,
    EvalSetError,
    InputError,
    non_finite_numbers,
    non_finite_seen,
)
from reviewtui.evalset.model.review import (
    COLUMN_PREFIX,
    PREVIOUS,
    RECORD_FIELDS,
    REPLACED,
    REVIEW_KEY,
    ReviewRecord,
    record_columns,
    record_from_columns,
)
from reviewtui.evalset.text.counts import count, plural
from reviewtui.evalset.text.words import in_quotes

__all__ = ["CSV_COLUMNS", "csv_leaves_out", "csv_loss_kinds", "csv_losses", "read_csv", "write_csv"]

CSV_COLUMNS = ("id", "question", "source_id", "quote", "grade", "page", "occurrence", "qtype", "answer", "meta")
_INDEX_COLUMN = re.compile(r"|unnamed:_\d+")


@dataclass
class _Columns:
    """Which cell index feeds which field, and the columns kept as meta."""

    field_index: dict[str, int]
    field_name: dict[str, str]  # field -> normalised column name that feeds it
    field_header: dict[str, str]  # field -> the column's header as written
    extra: list[tuple[int, str]] = field(default_factory=list)  # (index, original header)
    width: int = 0
    passed_over: list[str] = field(default_factory=list)  # columns a field could have come from too (kept in meta)
    renamed: list[str] = field(default_factory=list)  # a column named like one before it, kept under another key
    unnamed: list[str] = field(default_factory=list)  # meta keys of the columns with no name ("(column 4)")
    index_columns: int = 0  # leading columns pandas wrote its index in: left out while they count the rows
    own_layout: bool = False  # the header write_csv writes: its cells' apostrophes are its own formula guard
    #: the meta key each index column's cell is kept under when it does not count the rows: "(column N)" in a CSV
    #: file, whose index is named "" or "Unnamed: 0" by pandas; a JSON record's own key
    index_keys: list[str] = field(default_factory=list)
    #: rows of JSON records (see :mod:`.jsonrows`), not of CSV text: a cell is a value of its type, never a
    #: formula guard nor a list written as text, and a key a record lacks is ABSENT, not an empty cell
    from_json: bool = False

    def cell(self, row: Sequence[Any], name: str) -> Any:
        index = self.field_index.get(name)
        if index is None or index >= len(row):
            return ""
        return row[index]


#: A record's cell for a key it does not have (rows of JSON records, whose keys vary from record to record).
ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "ABSENT"})()


def resolve_columns(header: list[str], *, keys: bool = False) -> _Columns:
    """Which column feeds which field. ``keys``: the header is a JSON record's keys, unique and each a name as
    written, so that a key no field takes goes to meta as it is spelt (a CSV header's cell is stripped, and a
    column with no name, or named like one before it, is given a name of its own)."""
    normalised = [normalise_header(h) for h in header]
    field_index: dict[str, int] = {}
    field_name: dict[str, str] = {}
    field_header: dict[str, str] = {}
    for target, aliases in FIELD_ALIASES.items():
        for alias in aliases:
            if alias in normalised:
                field_index[target] = normalised.index(alias)
                field_name[target] = alias
                field_header[target] = header[field_index[target]].strip()
                break
    if "question" not in field_index:
        found = ", ".join(h.strip() or '""' for h in header) or "(none)"
        raise InputError(
            f"has no question column. Expected one of: {', '.join(FIELD_ALIASES['question'])}. Found: {found}",
            field="question",
        )
    used = set(field_index.values())
    extra: list[tuple[int, str]] = []
    renamed: list[str] = []
    taken: set[str] = set()
    unnamed: list[str] = []
    # pandas writes its index first, named "" (or "Unnamed: 0" once the file has been read and written again)
    index_columns = 0
    while index_columns < len(normalised) and _INDEX_COLUMN.fullmatch(normalised[index_columns]):
        index_columns += 1
    for i, h in enumerate(header):
        if i in used or i < index_columns:
            continue
        key = h if keys else h.strip()
        if keys:
            extra.append((i, key))
            continue
        if not key:
            # A column with no name further on holds data all the same: it was dropped without a word.
            key = f"(column {i + 1})"
            unnamed.append(key)
        if key in taken:
            # A second column of the same name: as one meta key, the later cell took the earlier one's place.
            key = f"{key} (column {i + 1})"
            renamed.append(f"{h.strip()!r} as {key!r}")
        taken.add(key)
        extra.append((i, key))
    # A second column under a field's own name ("question" and "Question"): the first is the field, the
    # other is kept in meta; said, not silent. (Different aliases, "answer" beside "ground_truth", are a
    # choice the aliases' order makes on purpose: the reference answer over a pipeline's.)
    passed_over = [
        f"{h.strip()!r} (the {target} is {field_header[target]!r})"
        for i, (h, n) in enumerate(zip(header, normalised))
        if i not in used
        for target, name in field_name.items()
        if n == name
    ]
    own = tuple(h.strip() for h in header[: len(CSV_COLUMNS)]) == CSV_COLUMNS
    index_keys = [header[i] if keys else f"(column {i + 1})" for i in range(index_columns)]
    return _Columns(
        field_index, field_name, field_header, extra, len(header), passed_over, renamed, unnamed, index_columns, own, index_keys
    )


def _delimiter(text: str) -> str:
    first = next((line for line in text.splitlines() if line.strip()), "")
    present = [d for d in (",", "\t", ";") if d in first]
    if len(present) > 1:
        # A tab-separated header with a comma inside a name ("notes, misc") was split at the comma and refused as
        # having no question column: the delimiter that finds the question column wins, a comma first.
        for delimiter in present:
            cells = next(csv.reader([first], delimiter=delimiter), [])
            if any(normalise_header(cell) in FIELD_ALIASES["question"] for cell in cells):
                return delimiter
    return present[0] if present else ","


#: The longest cell read, in characters: far beyond any question or answer, room for a long document.
MAX_CELL_CHARS = 1 << 26


def _rows(text: str, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """Each record with the physical line it starts on.

    Read strictly: a cell that opens a quote and never closes it would otherwise take every
    line after it as its own text (the rows below vanish into one question, and nothing says
    so), and text after a closing quote would lose the quotes without a word.
    """
    if csv.field_size_limit() < MAX_CELL_CHARS:
        # Python's default (131,072 characters) refuses a whole document pasted into a context cell.
        csv.field_size_limit(MAX_CELL_CHARS)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    previous_end = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            first = text.lstrip()[:1]
            if previous_end == 0 and first in ("{", "["):
                raise InputError(
                    f"this file holds JSON, not CSV (it begins with {first!r}): read it as JSONL (--from jsonl), "
                    "or give it a .jsonl name",
                    line=1,
                ) from None
            raise InputError(_record_problem(str(exc), delimiter), line=previous_end + 1) from None
        yield previous_end + 1, row
        previous_end = reader.line_num


def _record_problem(error: str, delimiter: str) -> str:
    """What is wrong with a record the csv module refused, in terms of the file."""
    if "unexpected end of data" in error:
        return (
            "a cell in this record opens a quote (\") that is never closed, so the rest of the file would "
            "be read into it; close the quote, or double a quote meant as a character (\"\")"
        )
    if "expected after" in error:
        shown = "a tab" if delimiter == "\t" else repr(delimiter)
        return (
            "a cell in this record begins with a quote (\") and goes on after its closing quote (as in "
            "\"Hamlet\" was written by whom?, or a space after the quote); a cell that begins with a quote is a "
            f"quoted cell, and only {shown} or the end of the line may follow it. Quote the whole cell and double "
            "the quotes in it (\"\"\"Hamlet\"\" was written by whom?\"), or take out what follows the quote"
        )
    return f"cannot read this CSV record ({error})"


def read_csv(path: str | os.PathLike[str], *, evalset_id: str | None = None) -> EvalSet:
    """Read a CSV eval set; see the module notes for columns, aliases and rules."""
    p = Path(path)
    name = str(path)
    text = decode_utf8(p, read_bytes(p))
    notes = ImportNotes(p.name)
    try:
        items = _read_items(text, name, notes)
    except EvalSetError as exc:
        if exc.path is None:
            raise InputError(exc.message, path=name, line=exc.line, field=exc.field) from None
        raise
    warn_row_notes(notes)
    return EvalSet(id=evalset_id or file_name_text(p.stem), items=tuple(items), source="import", meta=notes.meta())


def warn_row_notes(notes: ImportNotes, unit: str = "line", column: str = "column") -> None:
    """Say what reading the rows counted: the CSV reader's notes, also those of rows of JSON records.
    ``unit``: what the numbers in the examples count ("row" for a JSON list, which has no lines to name);
    ``column``: what a field comes from ("key" in JSON records)."""
    numbered = notes.counts["ids_numbered"]
    notes.warn(
        "ids_numbered",
        f"no id {column}, so rows were numbered q1, q2, ... in file order ({numbered} {plural(numbered, 'row', 'rows')})",
    )
    notes.warn(
        "evidence_without_source",
        "rows with evidence text but no source: {n} ({examples}); they get no anchor, "
        "and the text is kept in meta['contexts']",
    )
    notes.warn(
        "columns_passed_over",
        f"a second {column} under a field's name, kept in each item's meta instead: {{examples}}",
    )
    notes.warn("meta_cells_unreadable", "meta cells that are not a JSON object, read as {{}}: {n} ({examples})")
    notes.warn(
        NON_FINITE,
        "meta cells holding NaN or an infinite number: {n} (lines {examples}); JSON has no form for them, so a file "
        "written from this set (convert, export, filter) holds null in their place",
    )
    notes.warn("columns_unnamed", "columns with no name in the header, their cells kept in each item's meta as {examples}")
    notes.warn("columns_renamed", "a column named like one before it, kept in each item's meta under its own key: {examples}")
    notes.warn("rows_short", "rows with fewer cells than the header names, the missing cells read as empty: {n} (lines {examples})")
    notes.warn(
        "last_row_unended",
        "the last row (line {examples}) is short and the file ends inside it, without a line break: "
        "if the file was cut short, that row is incomplete",
    )
    skipped: Mapping[str, int] = notes.skips.get("rows_skipped", {})
    why = ", ".join(f"{n} with {reason}" for reason, n in skipped.items())
    notes.warn("rows_skipped", f"rows skipped: {why} ({plural(sum(skipped.values()), unit, unit + 's')} {{examples}})")


def _read_items(text: str, name: str, notes: ImportNotes) -> list[EvalItem]:
    rows = _rows(text, _delimiter(text))
    columns: _Columns | None = None
    for header_line, row in rows:
        if any(cell.strip() for cell in row):
            try:
                columns = resolve_columns(row)
            except EvalSetError as exc:
                raise InputError(exc.message, path=name, line=header_line, field=exc.field) from None
            break
    if columns is None:
        # The reader's rule is "no question column, no set"; said as what the user sees.
        raise InputError("no questions in this file: it is empty, without even the header row that names the columns")
    items, short_at = items_from_rows(rows, columns, name, notes)
    if short_at and not text.endswith(("\n", "\r")):
        # A row written without its empty last cells, or a file cut short: said, as only its reader can tell.
        notes.note("last_row_unended", str(short_at))
    return items


def items_from_rows(
    rows: Iterable[tuple[int, Sequence[Any]]], columns: _Columns, name: str, notes: ImportNotes, unit: str = "line"
) -> tuple[list[EvalItem], int]:
    """The items of the rows under a header (``columns``), each row with the line it begins on, and the line
    of the last row when it was short (0 otherwise). Errors are raised at ``name:line``. ``unit``: what the
    rows' numbers count, "row" where there are no lines (a JSON list)."""
    for passed in columns.passed_over:
        notes.note("columns_passed_over", passed)
    for renamed in columns.renamed:
        notes.note("columns_renamed", renamed)
    items: list[EvalItem] = []
    questionless = 0  # rows left out for having no question, numbered all the same (see below)
    first_line: dict[str, int] = {}
    short_at = 0  # the line of the last row read, when it had fewer cells than the header names
    for line, row in rows:
        if not any(cell is not ABSENT and cell != "" for cell in row) if columns.from_json else not any(row):
            if row:
                notes.skip("rows_skipped", "every cell empty", str(line))
            continue
        short_at = line if len(row) < columns.width else 0
        if short_at:
            notes.note("rows_short", str(line))
        if not columns.cell(row, "question").strip():  # blank as the model has it (no character but spaces)
            # A missing question column is what the reference page has read_csv refuse; a row without a question
            # (a spreadsheet's note under the table, a question still to write) is left out, and counted. It keeps
            # its number: filled in later, it took the next row's id, and the decisions on the rows after it went.
            notes.skip("rows_skipped", "no question", str(line))
            questionless += 1
            continue
        seen = non_finite_seen()
        try:
            item = _row_item(row, columns, len(items) + questionless + 1, notes)
        except EvalSetError as exc:
            raise InputError(exc.message, path=name, line=line, field=exc.field) from None
        if non_finite_seen() != seen and non_finite_numbers(item.meta):  # NaN in a meta cell: written back as null
            notes.note(NON_FINITE, str(line))
        earlier = first_line.setdefault(item.id, line)
        if earlier != line:
            raise InputError(
                f"item id {item.id!r} is used twice: on {unit} {earlier} and again here", path=name, line=line, field="id"
            )
        items.append(item)
    for key in columns.unnamed:  # said only of a column that holds something (a header's trailing comma holds nothing)
        if any(key in item.meta for item in items):
            notes.note("columns_unnamed", key)
    return items, short_at


def _int_cell(value: str, field_name: str, default: int | None) -> int | None:
    value = value.strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        if number.is_integer():
            return int(number)  # spreadsheets like to turn 2 into 2.0
        raise InputError(f"`{field_name}` must be a whole number, found {value!r}", field=field_name) from None


def _meta_cell(cell: Any, label: str, notes: ImportNotes) -> tuple[dict[str, Any], list[Any] | None]:
    """(meta, ragas per-context metadata list or None). A JSON record's cell is the value itself."""
    if isinstance(cell, str):
        if not cell.strip():
            return {}, None
        value = parse_json_like(cell)
    else:
        value = cell
    if isinstance(value, dict):
        return value, None
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return {"metadata": value}, value
    notes.note("meta_cells_unreadable", label)
    return {}, None


def _row_item(row: Sequence[Any], columns: _Columns, number: int, notes: ImportNotes) -> EvalItem:
    if len(row) > columns.width and any(cell.strip() for cell in row[columns.width :]):
        raise InputError(
            f"this row has {len(row)} cells but the header names only "
            f"{columns.width} {plural(columns.width, 'column', 'columns')}"
        )
    if not columns.from_json:  # a JSON record's text is as written: no spreadsheet guarded it
        guarded = row
        row = [unguard(cell) for cell in row]
        if row != guarded and not columns.own_layout:  # in a file not of write_csv's layout, "'+' means" lost its "'"
            notes.note("cells_unguarded")
    cell = columns.cell
    if "id" in columns.field_index:
        item_id = cell(row, "id")
        if not item_id.strip():
            raise InputError(
                f"this row has no id, although the file has an id {'key' if columns.from_json else 'column'}", field="id"
            )
    else:
        item_id = f"q{number}"
        notes.note("ids_numbered")
    label = item_id

    meta: dict[str, Any] = {}
    for index in range(columns.index_columns):
        # pandas' index counts the rows (0, 1, 2...) and is left out; one that does not (a frame filtered before
        # it was saved: 5, 17) names the rows, and was thrown away without a word
        if index >= len(row) or row[index] is ABSENT:
            continue
        value = row[index]
        # a JSON record's index is a number (pandas read the CSV, then wrote the frame's rows as JSON)
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        if not isinstance(text, str) or text.strip() not in ("", str(number - 1), str(number)):
            meta[columns.index_keys[index]] = value
    review: dict[str, str] = {}  # the review.* columns an export writes: one record under meta["review"]
    for index, header in columns.extra:
        if columns.from_json:  # every value a record gives is its own, an empty text or a null too
            if row[index] is not ABSENT:
                meta[header] = row[index]
        elif index < len(row) and row[index] != "":
            if header.startswith(COLUMN_PREFIX):
                review[header.removeprefix(COLUMN_PREFIX)] = row[index]
            else:
                meta[header] = row[index]
    if review:
        record = record_from_columns(review)
        if record is not None:
            meta[REVIEW_KEY] = record
        else:  # not a record (no verdict): keep the cells as they came
            meta.update({COLUMN_PREFIX + name: text for name, text in review.items()})
    own_meta, per_context = _meta_cell(cell(row, "meta"), label, notes)
    for key in own_meta.keys() & meta.keys():
        if own_meta[key] != meta[key]:
            raise InputError(
                f"the column {key!r} and the meta cell's key {key!r} give this item's meta[{key!r}] two values "
                f"({_shown(meta[key])} and {_shown(own_meta[key])}); rename the column or the key",
                field=key,
            )
    meta.update(own_meta)

    answer: str | None = None
    given = cell(row, "answer") or None
    if isinstance(given, list) or (given is not None and columns.field_name.get("answer") in LIST_ANSWER_COLUMNS):
        answers = given if isinstance(given, list) else parse_text_list(given)
        answer = answers[0] if answers else None
        if len(answers) > 1:
            _keep_in_meta(meta, "answers", answers)
    else:
        answer = given

    quote_cell = cell(row, "quote")
    if isinstance(quote_cell, list):  # a JSON record's list of texts
        texts = quote_cell
    elif columns.field_name.get("quote") in LIST_EVIDENCE_COLUMNS:  # a JSON record's list too, written as text by pandas
        texts = parse_text_list(quote_cell) if quote_cell.strip() else []
    else:
        texts = [quote_cell]
    texts = [t for t in texts if t.strip()]

    source = cell(row, "source")
    grade = _int_cell(cell(row, "grade"), "grade", 2)
    page = _int_cell(cell(row, "page"), "page", None)
    occurrence = _int_cell(cell(row, "occurrence"), "occurrence", 0)
    anchors: list[dict[str, Any]] = []
    if texts and source:
        anchors = [_anchor(source, t, grade, page, occurrence) for t in texts]
    elif texts and per_context is not None and len(per_context) == len(texts) and all(
        isinstance(m.get("source"), str) and m["source"] for m in per_context
    ):
        anchors = [_anchor(m["source"], t, grade, None, 0) for m, t in zip(per_context, texts)]
    elif texts:
        _keep_in_meta(meta, "contexts", texts)
        notes.note("evidence_without_source", label)
    elif source:
        _keep_in_meta(meta, columns.field_header["source"], source)
    # A page, grade or occurrence no anchor took (no quote, no source, or a context's own source) is kept as
    # written, as the source is: a golden set of documents and pages lost its pages without a word.
    took_all = bool(anchors and source)  # a context's own source leaves the row's page and occurrence unused
    for name, used in (("page", took_all), ("grade", bool(anchors)), ("occurrence", took_all)):
        given = cell(row, name)
        if given.strip() and not used:
            _keep_in_meta(meta, columns.field_header[name], given)

    data = {
        "id": item_id,
        "question": cell(row, "question"),
        "anchors": anchors,
        "qtype": cell(row, "qtype") or None,
        "answer": answer,
        "meta": meta,
    }
    try:
        return EvalItem.__pydantic_validator__.validate_python(data)
    except ValidationError as exc:
        error = item_error(exc, data, path="", line=None)
        raise InputError(error.message, field=_csv_field(error.field)) from None


def _keep_in_meta(meta: dict[str, Any], key: str, value: Any) -> None:
    """Put a cell no field took into ``meta[key]``; a meta cell that already gives that key another value is refused,
    as a column of that name is (it won, and the column's text was gone without a word)."""
    if key in meta and meta[key] != value:
        raise InputError(
            f"the row's {key!r} ({_shown(value)}) and the meta cell's key {key!r} ({_shown(meta[key])}) give this "
            f"item's meta[{key!r}] two values; rename the key in the meta cell",
            field=key,
        )
    meta[key] = value


def _shown(value: Any, limit: int = 40) -> str:
    text = value if isinstance(value, str) else orjson.dumps(value, default=str).decode()
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _anchor(source: str, quote: str, grade: int | None, page: int | None, occurrence: int | None) -> dict[str, Any]:
    return {"source_id": source, "quote": quote, "grade": grade, "page_hint": page, "occurrence": occurrence}


def _csv_field(field_name: str | None) -> str | None:
    """Name the CSV column behind a model field, e.g. ``anchors[0].quote`` -> ``quote``."""
    if not field_name:
        return field_name
    leaf = field_name.rsplit(".", 1)[-1]
    return {"source_id": "source_id", "page_hint": "page"}.get(leaf, leaf)


# --- writing ------------------------------------------------------------------------------


def write_csv(evalset: EvalSet, path: str | os.PathLike[str]) -> Path:
    """Write one row per item (first anchor only), atomically; warn about what does not fit (see csv_losses)."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    # A reviewed set's records get columns of their own, so a spreadsheet can sort and filter on them.
    plain = [_plain_record(item.meta) for item in evalset.items]
    reviewed = any(plain)
    review_columns = [COLUMN_PREFIX + name for name in RECORD_FIELDS] if reviewed else []
    for extra in (PREVIOUS, REPLACED):  # the records of earlier reviews, the item's own values replaced: as JSON
        if any(is_plain and extra in item.meta[REVIEW_KEY] for item, is_plain in zip(evalset.items, plain)):
            review_columns.append(COLUMN_PREFIX + extra)
    writer.writerow([*CSV_COLUMNS, *review_columns])
    for item, is_plain in zip(evalset.items, plain):
        cells = _row_cells(item)
        if reviewed:
            record = (record_columns(item.meta) or {}) if is_plain else {}
            if record:
                cells[-1] = _meta_json(item, leave_out=REVIEW_KEY)
            cells += [record.get(column, "") for column in review_columns]
        writer.writerow([guard(cell) for cell in cells])
    _warn_lost(evalset)
    return atomic_write(path, buffer.getvalue().encode("utf-8"))


def _row_cells(item: EvalItem) -> list[str]:
    anchor = item.anchors[0] if item.anchors else None
    return [
        item.id,
        item.question,
        anchor.source_id if anchor else "",
        anchor.quote if anchor else "",
        str(anchor.grade) if anchor else "",
        "" if anchor is None or anchor.page_hint is None else str(anchor.page_hint),
        str(anchor.occurrence) if anchor else "",
        item.qtype or "",
        item.answer or "",
        _meta_json(item),
    ]


_PLAIN_KEYS = frozenset((*RECORD_FIELDS, PREVIOUS, REPLACED))


def _plain_record(meta: Mapping[str, Any]) -> bool:
    """Whether ``meta`` holds a review record of an export's own shape, which the ``review.*`` columns carry whole.

    Anything else under that key (a team's merged record, a user's own data, a record with a field of another
    type or a default left out, which the columns would give back changed) stays in the meta cell as it is.
    """
    record = meta.get(REVIEW_KEY)
    if not (isinstance(record, Mapping) and "verdict" in record and set(record) <= _PLAIN_KEYS):
        return False
    read = ReviewRecord.from_meta(meta)
    return read is not None and read.as_meta() == {key: value for key, value in record.items() if key not in (PREVIOUS, REPLACED)}


def _meta_json(item: EvalItem, leave_out: str | None = None) -> str:
    meta: Mapping[str, Any] = item.meta
    if leave_out is not None and leave_out in meta:
        meta = {key: value for key, value in meta.items() if key != leave_out}
    if not meta:
        return ""
    try:
        return orjson.dumps(meta).decode("utf-8")
    except TypeError:
        try:
            return pydantic_core.to_json(meta).decode("utf-8")
        except pydantic_core.PydanticSerializationError as exc:
            raise InputError(f"eval item {item.id!r}: its meta cannot be written as JSON ({exc})") from None


def _named(ids: list[str]) -> str:
    shown = ", ".join(repr(i) for i in ids[:8])
    return shown + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")


def _items(ids: list[str]) -> str:
    return f"{len(ids)} {plural(len(ids), 'item', 'items')}"


def _warn_lost(evalset: EvalSet) -> None:
    import warnings

    for message in csv_losses(evalset):
        warnings.warn(message, UserWarning, stacklevel=3)


def _cut(text: str, limit: int) -> str:
    """``text``, or its start and an ellipsis when it is longer than ``limit``."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def csv_leaves_out(evalset: EvalSet, path: str | os.PathLike[str] | None) -> list[str]:
    """What a CSV file of ``evalset`` written at ``path`` reads back without, evidence aside (see
    :func:`csv_losses`): the set's own fields, which CSV has no place for, and empty-string answers
    and types, which come back as none. One sentence per kind; empty when it reads back the same.

    ``path`` None (standard output): the file's name is not known, so neither is the id it will read back with.
    """
    said = []
    header = []
    if path is not None and evalset.id != Path(path).stem:
        header.append(f"its id {evalset.id!r} (read back as {Path(path).stem!r}, the file's name)")
    # The commands read a CSV file's version from its name (quiz.v5.csv: 5), as version_read does; read_csv knows no
    # names and gives 1. Said only when what the commands will read differs from the set's own.
    named = version_in_name(path) if path is not None else None
    back = 1 if named is None else named
    if evalset.version != back:
        header.append(f"version {evalset.version} (read back as {back})")
    if evalset.source != "import":
        header.append(f"source {evalset.source!r} (read back as 'import')")
    if evalset.meta:
        # The review's lineage named first: behind "…" it was the one key whose loss cut the chain of versions.
        ordered = sorted(evalset.meta, key=lambda key: key != REVIEW_KEY)
        record = evalset.meta.get(REVIEW_KEY)
        lineage = isinstance(record, Mapping)  # an export's header

        def label(key: object) -> str:
            named = in_quotes(_cut(str(key), 30))
            return f"{named} (the record of its reviews)" if lineage and key == REVIEW_KEY else named

        keys = ", ".join(map(label, ordered[:5])) + (", …" if len(ordered) > 5 else "")
        if isinstance(record, Mapping):  # the notes an export's header keeps go with it
            notes = [
                count(len(record[key]), what)
                for key, what in (("skipped_notes", "skipped item"), ("undecided_notes", "undecided item"))
                if record.get(key)
            ]
            if notes:
                keys += f"; the review's notes on {' and '.join(notes)} among them"
        header.append(f"its meta ({count(len(evalset.meta), 'key')}: {keys})")
    if header:
        said.append(f"a CSV file has no place for the set's own fields, and does not keep {', '.join(header)}")
    for field_name in ("answer", "qtype"):
        empty = [item.id for item in evalset.items if getattr(item, field_name) == ""]
        if empty:
            said.append(
                f"an empty cell reads back as no {field_name}, so {_items(empty)} whose {field_name} is an empty string "
                f"{plural(len(empty), 'reads', 'read')} back without one: {_named(empty)}"
            )
    return said


def csv_losses(evalset: EvalSet, *, spans_beside_quotes: bool = False) -> list[str]:
    """What writing ``evalset`` as CSV would lose, one sentence per kind of loss; empty when nothing.

    :func:`csv_loss_kinds` has each with a few words naming it, for a message that names them all.
    """
    return [sentence for sentence, _ in csv_loss_kinds(evalset, spans_beside_quotes=spans_beside_quotes)]


def csv_loss_kinds(evalset: EvalSet, *, spans_beside_quotes: bool = False) -> list[tuple[str, str]]:
    """Each kind of loss of :func:`csv_losses` as (its sentence, a few words naming it).

    :func:`write_csv` warns of each and writes; the commands ask first, and write CSV only when told
    to accept the loss (a "next version" missing evidence is a set that lost data). With
    ``spans_beside_quotes`` (what the commands ask) gold spans are a loss on items that also have
    a quote: :func:`write_csv` does not warn of those, as the reference page says (resolving the
    quotes again finds the spans), but the file written has lost them all the same.
    """
    extra = [item.id for item in evalset.items if len(item.anchors) > 1]
    gold_only = [item.id for item in evalset.items if item.gold and not item.anchors]
    beside = [item.id for item in evalset.items if item.gold and item.anchors] if spans_beside_quotes else []
    nameless = [item.id for item in evalset.items if item.anchors and not item.anchors[0].source_id]
    # Said as what happens to the set, not as a function call: the command line shows these too.
    writing = f"writing set {evalset.id!r} as CSV"
    found: list[tuple[str, str]] = []
    if extra:
        found.append((
            f"{writing}: a CSV row holds one anchor, so {_items(extra)} {plural(len(extra), 'loses', 'lose')} "
            f"every anchor after the first: {_named(extra)}",
            f"the anchors after the first of {_items(extra)}",
        ))
    if gold_only:
        found.append((
            f"{writing}: CSV has no column for gold spans, so {_items(gold_only)} whose only evidence "
            f"is gold spans {plural(len(gold_only), 'loses', 'lose')} it: {_named(gold_only)}",
            f"the gold spans of {_items(gold_only)} with no quote",
        ))
    if beside:
        found.append((
            f"{writing}: CSV has no column for gold spans, so {_items(beside)} {plural(len(beside), 'loses its', 'lose their')} "
            f"gold spans (their quotes are kept, and resolving them again finds them; but where a document holds a "
            f"quote's words twice, at the copy the quote's occurrence names, which may not be where the span was): "
            f"{_named(beside)}",
            f"the gold spans beside the quotes of {_items(beside)}",
        ))
    if nameless:
        found.append((
            f"{writing}: {_items(nameless)} {plural(len(nameless), 'has', 'have')} an anchor with an empty "
            f"source_id, which reading the CSV back cannot turn into an anchor again: {_named(nameless)}",
            f"the anchors without a source_id of {_items(nameless)}",
        ))
    return found
