"""Single CSV cells: column names, spreadsheet-formula guards, list cells and meta cells.

Formula guard. A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or
``@`` (and, in some programs, a tab or carriage return) as a formula, so text
such as ``=HYPERLINK(...)`` in a question could act when the file is opened.
:func:`guard` writes such a cell with a leading apostrophe, which spreadsheets
treat as "this is text". To keep the round trip exact, a cell that already
starts with apostrophes followed by one of those characters gets one more, and
:func:`unguard` removes exactly one from any cell of that shape.

List cells. Tools in the ragas family write lists of texts into one cell as a
Python repr (``['a', 'b']``), as JSON, or as a numpy array repr (``['a' 'b']``,
no commas). :func:`parse_text_list` reads all three without ever evaluating
code: it tokenises the cell and decodes each string literal on its own.
"""

from __future__ import annotations

import ast
import io
import json
import math
import re
import tokenize
from typing import Any

import orjson

from reviewtui.evalset.io.files import RepeatedKeyError, loads_allowing_nan
from reviewtui.evalset.model.errors import InputError
from reviewtui.evalset.model.items import JSON_INT_RANGE, writable_text

__all__ = [
    "FIELD_ALIASES",
    "LIST_EVIDENCE_COLUMNS",
    "guard",
    "normalise_header",
    "parse_json_like",
    "parse_text_list",
    "unguard",
]

_FORMULA_START = "=+-@\t\r"
_GUARDED = re.compile(r"'+[=+\-@\t\r]")


def guard(cell: str) -> str:
    """The cell as written to CSV, safe from being run as a formula."""
    if cell and (cell[0] in _FORMULA_START or _GUARDED.match(cell)):
        return "'" + cell
    return cell


def unguard(cell: str) -> str:
    """Undo :func:`guard` (a no-op on cells it would not have changed)."""
    if cell.startswith("'") and _GUARDED.match(cell):
        return cell[1:]
    return cell


def normalise_header(name: str) -> str:
    """Compare column names without case, surrounding spaces or space/dash/underscore differences."""
    return re.sub(r"[\s\-_]+", "_", name.strip().casefold())


# Field -> accepted column names, most specific first. When a file has two columns
# for one field, the earlier name wins and the other column is kept in item meta.
# Reference-answer names come before a bare `answer` because ragas-style files use
# `answer` for the pipeline's output and `ground_truth(s)`/`reference` for the key.
FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "id": ("id", "question_id", "qid"),
    "question": ("question", "query", "q", "user_input", "prompt", "input"),
    "source": ("source_id", "document", "doc", "doc_id", "file", "filename", "source_file"),
    "quote": (
        "quote", "evidence", "answer_span", "context", "passage",
        "reference_contexts", "contexts", "retrieved_contexts",
    ),
    "answer": (
        "expected_answer", "gold_answer", "ground_truth", "ground_truths", "reference",
        "expected_output", "expected_completion", "answer",
    ),
    "qtype": ("qtype", "type", "question_type", "category", "evolution_type"),
    "page": ("page", "page_hint", "page_number"),
    "grade": ("grade", "relevance", "rel"),
    "occurrence": ("occurrence", "occurrence_index", "nth"),
    "meta": ("meta", "metadata"),
}
# Columns whose cell may hold several texts as a list. A singular ``context`` too: a deepeval golden's
# ``context`` is a list, and a DataFrame of them written with ``to_csv`` gives "['a', 'b']", which was
# read as one quote, brackets and all.
LIST_EVIDENCE_COLUMNS = frozenset({"context", "reference_contexts", "contexts", "retrieved_contexts"})
LIST_ANSWER_COLUMNS = frozenset({"ground_truths"})

_SKIP_TOKENS = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER, tokenize.COMMENT}


def _string_literals(cell: str) -> list[str] | None:
    """Strings of a ``[...]`` cell written as Python or numpy repr; None if it is not one."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(cell).readline) if t.type not in _SKIP_TOKENS]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    if len(tokens) < 2 or tokens[0].string != "[" or tokens[-1].string != "]":
        return None
    out: list[str] = []
    expect_value = True
    for token in tokens[1:-1]:
        if token.type == tokenize.STRING:
            prefix = token.string[: len(token.string) - len(token.string.lstrip("rRuUbBfF"))]
            if any(c in "bBfF" for c in prefix):
                return None
            try:
                value = ast.literal_eval(token.string)
            except (ValueError, SyntaxError):
                return None
            if not writable_text(value):
                return None
            out.append(value)
            expect_value = False
        elif token.string == "," and not expect_value:
            expect_value = True
        else:
            return None
    return out


def parse_text_list(cell: str) -> list[str]:
    """The texts in a list cell, or the cell itself as one text when it is not a list."""
    stripped = cell.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        try:
            value = orjson.loads(stripped)
        except orjson.JSONDecodeError:
            value = _string_literals(stripped)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return value
    return [cell]


def _json_compatible(value: Any) -> bool:
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, str):
        return writable_text(value)
    if isinstance(value, int):
        return JSON_INT_RANGE[0] <= value <= JSON_INT_RANGE[1]
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return all(_json_compatible(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and writable_text(k) and _json_compatible(v) for k, v in value.items())
    return False


def _twice(key: object) -> str:
    return f"a cell gives the key {json.dumps(key, ensure_ascii=False, default=str)} twice; only one of its values could be kept"


def parse_json_like(cell: str) -> Any:
    """A JSON value, or a Python literal of JSON-compatible values; ``...`` when neither.

    ``ast.literal_eval`` only builds literals (it never calls anything), and the
    result is checked so that sets, bytes or complex numbers are refused too.
    """
    try:
        return loads_allowing_nan(cell)  # NaN too, as Python's json and pandas write it and the JSONL reader reads it
    except RepeatedKeyError as exc:
        raise InputError(_twice(exc.key)) from None
    except orjson.JSONDecodeError:
        pass
    stripped = cell.strip()
    if not stripped.startswith(("{", "[")):
        return ...
    try:
        tree = ast.parse(stripped, mode="eval")
        value = ast.literal_eval(tree)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return ...
    if isinstance(value, tuple):
        value = list(value)
    if not _json_compatible(value):
        return ...
    for node in ast.walk(tree):  # a Python literal keeps the last of two equal keys, as a JSON parser does
        if isinstance(node, ast.Dict):
            seen: set[Any] = set()
            for key in node.keys:
                if isinstance(key, ast.Constant):
                    if key.value in seen:
                        raise InputError(_twice(key.value))
                    seen.add(key.value)
    return value
