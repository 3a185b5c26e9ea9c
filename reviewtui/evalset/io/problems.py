"""Turning a bad record into an EvalSetError that says where it is and what to fix.

Readers validate each record at full speed and only come here when something
failed, so the extra work of wording a good message costs nothing on clean files.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError

from reviewtui.evalset.model.items import (
    EvalItem,
    EvalSetError,
    GoldAnchor,
    GoldSpan,
    InputError,
    Span,
    validation_to_evalset_error,
)

__all__ = ["item_error", "json_type_name", "known_fields", "record_id", "validate_item"]

# Which record type sits under each field name, for naming the fields a record may have.
_NESTED: dict[str, type[BaseModel]] = {"gold": GoldSpan, "anchors": GoldAnchor, "span": Span}
_RECORD_NAMES: dict[type[BaseModel], str] = {
    EvalItem: "an item",
    GoldSpan: "a gold span",
    GoldAnchor: "an anchor",
    Span: "a span",
}

_validate_item = EvalItem.__pydantic_validator__.validate_python


def json_text(value: Any, limit: int = 40) -> str:
    """A value as a JSON file writes it (true, "7", 2.0), cut short when long: a file's error names what the
    person sees in the file, not Python's spelling of it (True, '7')."""
    if isinstance(value, float) and not math.isfinite(value):
        # orjson writes these as null, which the file does not hold: a number too large to read (1e400) or NaN
        text = "a number too large to read" if not math.isnan(value) else "NaN"
    else:
        try:
            text = orjson.dumps(value).decode()
        except TypeError:
            text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def json_type_name(value: Any) -> str:
    """What a JSON value is, in the words a person editing the file would use."""
    if isinstance(value, bool):
        return "true/false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def question_missing(record: Mapping[str, Any], field: str) -> str | None:
    """Why ``record`` has no usable question in ``field`` (None when it has one), as a skip reason:
    "empty question" only for text that is blank, so that a file read as the wrong format
    ("no `question_text` field") or a number for a question is not taken for blank questions."""
    if field not in record:
        return f"no `{field}` field"
    question = record[field]
    if not isinstance(question, str):
        return f"`{field}` is {json_type_name(question)}, not text"
    return None if question.strip() else "empty question"


def record_id(value: Any, *, path: str, line: int | None, field: str = "id", where: str | None = None) -> str | None:
    """A converted question's id as text, or None when it has none (the reader then makes one up).

    Text and whole numbers are ids, as in the native format; an object, a list, true/false or
    a fraction is refused rather than turned into its Python spelling, which would be an id
    nobody could look up in the original file. ``where`` names the record when there is no line.
    """
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    found = repr(value) if isinstance(value, float) else json_type_name(value)
    prefix = f"{where}: " if where else ""
    raise InputError(
        f"{prefix}`{field}` must be a string or a whole number, found {found}", path=path, line=line, field=field
    )


def known_fields(loc: tuple[Any, ...], root: type[BaseModel] = EvalItem) -> tuple[type[BaseModel], str]:
    """The record type that owns the last part of ``loc`` and a list of its field names."""
    model = root
    for part in loc[:-1]:
        if isinstance(part, str) and part in _NESTED:
            model = _NESTED[part]
    return model, ", ".join(model.model_fields)


def _dotted(loc: tuple[Any, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def rows_hint(record: Any, *, show_keys: bool = True) -> str:
    """`` (keys): reviewtui reads rows like these ...``, for a record that is another tool's question row
    (:func:`~reviewtui.evalset.io.jsonrows.is_question_row`), read here as one of our own items: the native
    reader matches no key by name, the rows reader does. Empty for any other record, so that what it says is true."""
    from reviewtui.evalset.io.shapes import is_question_row, question_key

    if not is_question_row(record):
        return ""
    keys = [str(key) for key in record]
    shown = ", ".join(f"`{key}`" for key in keys[:8]) + (", ..." if len(keys) > 8 else "")
    return (
        f"{f' ({shown})' if show_keys else ''}: reviewtui reads rows like these as question rows, their keys taken "
        f"by name (`{question_key(record)}` as the question); open the file as that format (--from rows on the "
        "command line, format=\"rows\" in Python)"
    )


def _hint(data: Mapping[str, Any], path: str, *, show_keys: bool = True) -> str:
    """What the file probably is, when its keys say so: the usual mistake is opening one file of a BEIR folder."""
    if "_id" in data and "text" in data:
        folder = Path(path).parent
        try:
            in_beir_folder = (folder / "queries.jsonl").is_file() and (folder / "qrels").is_dir()
        except (OSError, ValueError):  # a path the system cannot even look at: no hint rather than no error
            in_beir_folder = False
        if in_beir_folder:
            return f"; this is a file of the BEIR set in {folder}: open that folder instead"
        return "; BEIR queries and corpus files are read from their folder (queries.jsonl with qrels/*.tsv)"
    hint = rows_hint(data, show_keys=show_keys)
    return f"; if it is a row of questions in another tool's shape{hint}" if hint else ""


def item_error(exc: ValidationError, data: Any, *, path: str, line: int | None) -> EvalSetError:
    """One readable error for an item that failed validation, located at ``path:line``."""
    if isinstance(data, Mapping) and "id" not in data and "question" not in data:
        keys = ", ".join(f"`{key}`" for key in list(data)[:8]) or "none"
        return InputError(
            f"this is not an eval item: it has neither `id` nor `question` (keys: {keys}){_hint(data, path, show_keys=False)}",
            path=path,
            line=line,
            field="id",
        )
    errors = exc.errors(include_url=False)
    unknown = _unknown_keys(errors, data)
    if unknown:
        return _unknown_keys_error(unknown, data, path=path, line=line)
    first: Mapping[str, Any] = errors[0] if errors else {}
    loc = tuple(first.get("loc", ()))
    if first.get("type") == "extra_forbidden" and loc:
        model, names = known_fields(loc)
        where = "" if len(loc) == 1 else f" in {_dotted(loc[:-1])}"
        return InputError(
            f"unknown field `{loc[-1]}`{where}; the fields of {_RECORD_NAMES[model]} are: {names}",
            path=path,
            line=line,
            field=_dotted(loc),
        )
    error = validation_to_evalset_error(exc, data, show=json_text)
    field = _dotted(loc) if loc else error.field
    hint = _no_id_hint(data, loc) if line == 1 else ""
    return InputError(f"{error.message}{hint}", path=path, line=line, field=field)


def _no_id_hint(data: Any, loc: tuple[Any, ...]) -> str:
    """For a first record that lacks its ``id`` and is a question row by every other sign (a question in text,
    an answer the rows reader takes, no evidence of ours: a pandas frame of questions and answers written as
    JSON Lines), the reader that numbers such rows; empty otherwise."""
    from reviewtui.evalset.io.shapes import is_question_row

    if loc != ("id",) or not isinstance(data, Mapping) or "id" in data or not is_question_row(data, listed=True):
        return ""
    return (
        "; if the file holds question rows of another tool, without ids, read it as that format (--from rows on "
        'the command line, format="rows" in Python), which numbers them q1, q2, ...'
    )


def _unknown_keys(errors: list[Any], data: Any) -> list[str]:
    """An item's own keys that are no field of an item, when it has more than one problem.

    The first problem alone, with "(and 2 more problems)", left a file in another tool's shape
    (``question``, ``answers``, ``ctxs``; ``id``, ``title``, ``context``) said one key at a time, and as
    "field `id` is missing" when the keys in the way were the news. One problem keeps its own message."""
    if not isinstance(data, Mapping) or len(errors) < 2:
        return []
    return [
        str(error["loc"][0])
        for error in errors
        if error.get("type") == "extra_forbidden" and len(tuple(error.get("loc", ()))) == 1
    ]


def _unknown_keys_error(unknown: list[str], data: Mapping[str, Any], *, path: str, line: int | None) -> EvalSetError:
    """Every unknown key of an item named at once, after what else is wrong with it (a missing ``id``)."""
    shown = ", ".join(f"`{key}`" for key in unknown)
    said = (
        f"unknown field{'s' if len(unknown) > 1 else ''} {shown}; the fields of an item are: "
        f"{known_fields((unknown[0],))[1]}{_hint(data, path)}"
    )
    field = unknown[0]
    try:
        _validate_item({key: value for key, value in data.items() if key not in unknown})
    except ValidationError as rest:
        error = validation_to_evalset_error(rest, data, show=json_text)
        said = f"{error.message}; {said}"
        field = error.field or field
    return InputError(said, path=path, line=line, field=field)


def validate_item(data: Any, *, path: str, line: int | None) -> EvalItem:
    """Validate one item record, accepting a whole-number ``id`` as its decimal string.

    This is the slow path readers use after the fast one failed; it either returns
    the item (when only the integer id was in the way) or raises a located error.
    """
    if not isinstance(data, Mapping):
        raise InputError(
            f"expected an item (a JSON object), found {json_type_name(data)}", path=path, line=line
        )
    if "_evalset" in data:
        raise InputError(
            "an `_evalset` header may only be the first non-blank line of the file",
            path=path,
            line=line,
            field="_evalset",
        )
    if isinstance(data.get("id"), int) and not isinstance(data["id"], bool):
        data = {**data, "id": str(data["id"])}
    elif isinstance(data.get("id"), float):  # 1.5, or 1e30: a number that is not written as a whole one
        raise InputError(
            f"`id` must be a string or a whole number written out in digits, found {data['id']!r}; "
            "write it in quotes",
            path=path,
            line=line,
            field="id",
        )
    try:
        return _validate_item(data)
    except ValidationError as exc:
        raise item_error(exc, data, path=path, line=line) from None
