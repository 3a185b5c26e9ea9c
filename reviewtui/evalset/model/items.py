"""The eval-set data model: questions, their evidence, and the set that holds them.

Every type here is an immutable pydantic model. Changing anything means making a
copy (``item.model_copy(update=...)``, ``evalset.with_items(...)``), so a set that
was loaded, reviewed or filtered can never be altered behind a caller's back.
``meta`` mappings are read-only too (see :class:`FrozenDict`).

Field checks run inside pydantic-core (string patterns, bounds) so that loading
100k items does not pay for a Python validator per field; a failed check is
turned into one :class:`EvalSetError` whose message names the item.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Annotated, Any, ClassVar

import orjson
import pydantic_core
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from reviewtui.evalset.model.errors import EvalSetError, InputError

__all__ = [
    "EvalItem",
    "EvalSet",
    "EvalSetError",
    "FrozenDict",
    "GoldAnchor",
    "GoldSpan",
    "QuestionType",
    "RelevanceLabel",
    "Span",
    "is_marked_reviewed",
    "CONTEXT_DOCUMENT",
]


class FrozenDict(dict):
    """A ``dict`` that refuses changes.

    It prints and serialises as a plain dict (orjson and pydantic both accept
    dict subclasses), but ``item.meta["reviewed"] = True`` raises instead of
    silently changing an item that other sets may share. Nested values are
    left as they are; copy with ``dict(meta)`` to edit.
    """

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("meta is read-only; build a new dict and make a copy of the item")

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]
    __ior__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        import copy

        return FrozenDict(copy.deepcopy(dict(self), memo))


_EMPTY_META = FrozenDict()


# The deepest ``meta`` accepted, its own object being level 1. An item is always written inside
# something else (a journal record, the copy the app opens in an editor), and orjson refuses to
# write anything nested more than 254 levels deep, pydantic about as much: a meta nested near
# that would load, then make every save of its item fail, so the item could never be decided.
# 64 leaves room for any wrapping and is far beyond what real metadata needs.
MAX_META_DEPTH = 64
# Whole numbers are kept only as far as orjson, which writes the journal, can write them.
#: The whole numbers orjson, which writes the journal, can write.
JSON_INT_RANGE = (-(2**63), 2**64 - 1)
_COUNT_LIMIT = 10_000  # levels counted for the message; only a structure that holds itself gets there
_CONTAINERS = (dict, list, tuple)
_dumps = orjson.dumps
_pydantic_dumps = pydantic_core.to_json
_SHALLOW_BYTES = 2 * MAX_META_DEPTH  # JSON this short cannot nest deeper than the limit


def meta_problem(meta: Mapping[str, Any]) -> str | None:
    """Why ``meta`` could not be written back as JSON, or None.

    Three things are refused, the ones a JSON file (or a Python literal in a CSV cell) can
    bring in and no writer could then write: nesting deeper than :data:`MAX_META_DEPTH`,
    whole numbers beyond 64 bits and text holding a lone surrogate. Other Python values that
    JSON has no form for are left to the writers to report, as before; NaN and infinities
    (which Python's json module writes and pydantic's parser reads) are kept, and written
    back as null; a meta validated as a model field that holds one is counted (see
    :func:`non_finite_seen`), so that a reader can say so.

    Every item with a meta goes through these checks while a set loads (written out again in
    the model's validator, :func:`_freeze`), so the usual case costs one call into orjson:
    writing the meta succeeds, and it is too short (or has too few brackets) to be nested that
    deep, since each level takes a bracket and two bytes. Only otherwise is it walked in Python.
    """
    try:
        written = _dumps(meta)
    except TypeError:  # orjson's own error is one: too large, too deep, a lone surrogate, or a value it does not know
        return _walk(meta)
    if len(written) > _SHALLOW_BYTES and written.count(b"{") + written.count(b"[") > MAX_META_DEPTH:
        return _walk(meta)
    return None


#: Metas found holding NaN or an infinity as they were validated, counted per thread (see :func:`non_finite_seen`).
_NON_FINITE_SEEN = threading.local()


def non_finite_seen() -> int:
    """How many metas holding NaN or an infinite number this thread has checked so far.

    A reader notes this number before a batch of lines and looks again after it: only when it
    has moved does it walk the batch's metas (:func:`non_finite_numbers`) to find which items
    hold one, so the lines of a set without any cost nothing more. Counted per thread: a reader
    validates its lines in its own thread (the app's loader in a worker), so another thread's
    items neither move it nor, racing on one shared number, put it back where the reader saw it.
    It is a sign, not a count to report: a meta the two JSON writers it is told by write
    differently could move it too; the walk then finds nothing, and nothing is said.
    """
    return getattr(_NON_FINITE_SEEN, "count", 0)


def non_finite_numbers(value: Any) -> int:
    """How many floats in ``value`` (a meta, nested lists and mappings) are NaN or infinite: JSON has no form
    for them, and the writers write null in their place."""
    found = 0
    stack = [value]
    while stack:
        node = stack.pop()
        for child in node.values() if isinstance(node, dict) else node:
            if isinstance(child, float):
                if not math.isfinite(child):
                    found += 1
            elif isinstance(child, _CONTAINERS):
                stack.append(child)
    return found


def _walk(meta: Mapping[str, Any]) -> str | None:
    """:func:`meta_problem` the slow way: one level at a time, so depth cannot exhaust Python's recursion limit."""
    low, high = JSON_INT_RANGE
    level: list[Any] = [meta]
    depth = 0
    while level:
        depth += 1
        inner: dict[int, Any] = {}  # by id: a part shared twice is walked once
        for container in level:
            if isinstance(container, dict):
                if not all(writable_text(key) for key in container if isinstance(key, str)):
                    return "meta holds a key that is not valid Unicode (a lone surrogate)"
                children = container.values()
            else:
                children = container
            for child in children:
                if isinstance(child, str):
                    if not writable_text(child):
                        return "meta holds text that is not valid Unicode (a lone surrogate)"
                elif isinstance(child, int) and not isinstance(child, bool):
                    if not low <= child <= high:
                        shown = str(child) if child.bit_length() < 200 else f"a number of {child.bit_length()} bits"
                        # "too large" was said of -9223372036854775809 too: the bound is the writer's 64-bit range
                        return (
                            f"meta holds the whole number {shown}, outside the range JSON is written with "
                            "(-2**63 to 2**64-1); quote it as a string"
                        )
                elif isinstance(child, _CONTAINERS):
                    inner[id(child)] = child
        if inner and depth >= MAX_META_DEPTH:
            deepest = _depth_from(list(inner.values()), depth)
            shown = f"more than {_COUNT_LIMIT}" if deepest > _COUNT_LIMIT else str(deepest)
            return f"meta is nested {shown} levels deep; at most {MAX_META_DEPTH} are allowed"
        level = list(inner.values())
    return None


def writable_text(text: str) -> bool:
    """False for text holding a lone surrogate: not Unicode UTF-8 can hold, so no writer could save it."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _depth_from(level: list[Any], depth: int) -> int:
    """The full depth, going on from ``level`` (found at ``depth + 1``), for the error message."""
    while level and depth <= _COUNT_LIMIT:
        depth += 1
        inner: dict[int, Any] = {}
        for container in level:
            for child in container.values() if isinstance(container, dict) else container:
                if isinstance(child, _CONTAINERS):
                    inner[id(child)] = child
        level = list(inner.values())
    return depth


def _freeze(value: dict[str, Any]) -> FrozenDict:
    if not value:
        return value if type(value) is FrozenDict else _EMPTY_META
    # meta_problem's checks written out, and one more: every item read with a meta comes through here, and the
    # call saved pays for most of the look for NaN and the infinities.
    try:
        written = _dumps(value)
    except TypeError:  # see meta_problem
        _refuse(_walk(value))
    else:
        if len(written) > _SHALLOW_BYTES and written.count(b"{") + written.count(b"[") > MAX_META_DEPTH:
            _refuse(_walk(value))
        # orjson writes NaN and the infinities as null, pydantic's writer as NaN and Infinity, and the two write
        # JSON's own values alike: only a meta whose JSON holds a null can hold one, and a second writing (not a
        # walk in Python) tells. The look for a null in these few bytes (partition: the quickest call that finds
        # one) is what every other meta pays.
        if written.partition(b"null")[1] and _differently_written(value, written):
            _NON_FINITE_SEEN.count = getattr(_NON_FINITE_SEEN, "count", 0) + 1
    return value if type(value) is FrozenDict else FrozenDict(value)


def _differently_written(meta: dict[str, Any], written: bytes) -> bool:
    """Whether pydantic's JSON writer writes ``meta`` other than as orjson wrote it (``written``)."""
    try:
        return _pydantic_dumps(meta) != written
    except ValueError:  # a value orjson writes and pydantic does not: nothing to do with NaN
        return False


def _refuse(problem: str | None) -> None:
    if problem is not None:
        _fail(problem)


Meta = Annotated[dict[str, Any], AfterValidator(_freeze)]
NonBlank = Annotated[str, Field(pattern=r"\S")]
# Numbers that index text or count something; bounded so that every writer (orjson: 64 bits) can write them.
_MAX_INT = 2**63 - 1
Count = Annotated[int, Field(ge=0, le=_MAX_INT, strict=True)]


class QuestionType:
    """The question types the classifier and reports know about.

    Plain string constants rather than an Enum: ``EvalItem.qtype`` may hold any
    string, and these are only the vocabulary the built-in tools use.
    """

    FACTOID = "factoid"
    MULTI_HOP = "multi_hop"
    COMPARATIVE = "comparative"
    NUMERIC = "numeric"
    TABULAR = "tabular"
    SUMMARISATION = "summarisation"
    UNANSWERABLE = "unanswerable"
    ALL: ClassVar[tuple[str, ...]] = (
        FACTOID,
        MULTI_HOP,
        COMPARATIVE,
        NUMERIC,
        TABULAR,
        SUMMARISATION,
        UNANSWERABLE,
    )


def _fail(message: str) -> None:
    """Raise a check failure from inside a validator, keeping our wording."""
    raise PydanticCustomError("evalset", "{message}", {"message": message})


class _Model(BaseModel):
    """Base for the record types: frozen, strict about unknown fields, positional-friendly."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=False)
    _positional: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *args: Any, **data: Any) -> None:
        if args:
            if len(args) > len(self._positional):
                raise TypeError(
                    f"{type(self).__name__} takes at most {len(self._positional)} positional arguments"
                )
            for name, value in zip(self._positional, args):
                if name in data:
                    raise TypeError(f"{type(self).__name__} got two values for {name!r}")
                data[name] = value
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise validation_to_evalset_error(exc, data) from None

    # Tell pydantic this __init__ only adds positional arguments, so nested models
    # (an item's anchors, a set's items) are still built in Rust without calling it.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]


class Span(_Model):
    """Character offsets ``[start, end)`` into one parsed document."""

    _positional = ("doc_id", "start", "end")
    doc_id: str
    start: Count
    end: Annotated[int, Field(le=_MAX_INT, strict=True)]

    @model_validator(mode="after")
    def _not_empty(self) -> Span:
        if self.end <= self.start:
            _fail(f"span {self.doc_id!r} [{self.start}, {self.end}) covers no text")
        return self

    def __len__(self) -> int:
        return self.end - self.start

    def __repr__(self) -> str:
        return f"Span({self.doc_id!r}, {self.start}, {self.end})"

    __str__ = __repr__


class GoldSpan(_Model):
    """Evidence already located: a span in one parse of one document, with a grade."""

    _positional = ("span", "grade")
    span: Span
    grade: Count = 2

    def __repr__(self) -> str:
        return f"GoldSpan(span={self.span!r}, grade={self.grade})"

    __str__ = __repr__


class GoldAnchor(_Model):
    """Evidence as a quote from a source document, independent of any parse.

    ``grade``: 2 answers the question fully, 1 partly, 0 not at all.
    ``occurrence`` (0-based) says which repetition of the quote is meant;
    ``page_hint`` narrows the search when the source has pages.
    """

    _positional = ("source_id", "quote", "grade", "page_hint", "occurrence")
    source_id: str
    quote: NonBlank
    grade: Count = 2
    page_hint: Annotated[int, Field(ge=-_MAX_INT, le=_MAX_INT, strict=True)] | None = None
    occurrence: Count = 0


class RelevanceLabel(_Model):
    """One chunk judged relevant to one question, at a grade."""

    _positional = ("item_id", "chunk_id", "grade")
    item_id: str
    chunk_id: str
    grade: Count


class EvalItem(_Model):
    """One question with its evidence (spans, quotes or both) and optional answer."""

    _positional = ("id", "question", "gold", "anchors", "qtype", "answer", "meta")
    id: str
    question: NonBlank
    gold: tuple[GoldSpan, ...] = ()
    anchors: tuple[GoldAnchor, ...] = ()
    qtype: str | None = None
    answer: str | None = None
    meta: Meta = _EMPTY_META

    @property
    def is_answerable(self) -> bool:
        """Some evidence exists (spans or quotes). Says nothing about its quality."""
        return bool(self.gold or self.anchors)

    has_evidence = is_answerable

    @property
    def is_resolved(self) -> bool:
        """Evidence has been located as spans (what ranking metrics need)."""
        return bool(self.gold)

    @property
    def is_portable(self) -> bool:
        """Evidence exists as quotes, so it survives a change of parser or chunker."""
        return bool(self.anchors)

    @property
    def gold_spans(self) -> tuple[Span, ...]:
        return tuple(g.span for g in self.gold)

    @property
    def gold_length(self) -> int:
        return sum(len(g.span) for g in self.gold)

    def gold_documents(self) -> set[str]:
        return {g.span.doc_id for g in self.gold}

    def resolved_with(self, gold: Iterable[GoldSpan]) -> EvalItem:
        """A copy of this item whose ``gold`` is replaced."""
        return self.replace(gold=tuple(gold))

    def replace(self, **changes: Any) -> EvalItem:
        """A validated copy with some fields changed."""
        data = {name: getattr(self, name) for name in type(self).model_fields}
        data.update(changes)
        return type(self)(**data)

    def with_meta(self, meta: Mapping[str, Any]) -> EvalItem:
        """A copy with another ``meta``, made without re-validating the rest of the item.

        Stamping review results on 100k items spends most of its time copying;
        ``meta`` only needs string keys and JSON-writable values (checked here) and becomes read-only.
        """
        if not all(isinstance(key, str) for key in meta):
            raise InputError(f"eval item {self.id!r}: meta keys must be strings")
        problem = meta_problem(meta)
        if problem is not None:
            raise InputError(f"eval item {self.id!r}: {problem}")
        clone = object.__new__(type(self))
        fields = self.__dict__.copy()
        fields["meta"] = meta if type(meta) is FrozenDict else (FrozenDict(meta) if meta else _EMPTY_META)
        fields_set = self.__pydantic_fields_set__
        object.__setattr__(clone, "__dict__", fields)
        object.__setattr__(clone, "__pydantic_fields_set__", fields_set | {"meta"})
        object.__setattr__(clone, "__pydantic_extra__", self.__pydantic_extra__)
        object.__setattr__(clone, "__pydantic_private__", self.__pydantic_private__)
        return clone


class EvalSet(_Model):
    """A versioned, ordered collection of items with unique ids."""

    _positional = ("id", "items", "version", "source", "meta")
    id: str
    items: tuple[EvalItem, ...]
    version: Annotated[int, Field(ge=1, le=_MAX_INT)] = 1
    source: str = "manual"
    meta: Meta = _EMPTY_META

    _index: dict[str, int] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _unique_ids(self) -> EvalSet:
        index: dict[str, int] = {}
        for position, item in enumerate(self.items):
            if index.setdefault(item.id, position) != position:
                _fail(
                    f"eval set {self.id!r} holds item id {item.id!r} twice "
                    f"(positions {index[item.id]} and {position})"
                )
        self._index = index
        return self

    @classmethod
    def from_checked_items(cls, fields: Mapping[str, Any], items: tuple[EvalItem, ...], index: dict[str, int]) -> EvalSet:
        """A set of items that are already valid and known to have distinct ids (``index``: id to position).

        The set's own fields are validated as usual; the items are not walked again. A reader that
        checks every item and id as it reads them uses this, so that the last step of reading a
        large file is not a second pass over it. ``index`` is taken as the set's, not copied.
        """
        if len(index) != len(items):
            raise ValueError(f"an index of {len(index)} ids for {len(items)} items")
        made = cls.model_validate({**fields, "items": ()}).model_copy(update={"items": items})
        made._index = index
        return made

    def __iter__(self) -> Iterator[EvalItem]:  # type: ignore[override]
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, position: int) -> EvalItem:
        return self.items[position]

    def __repr__(self) -> str:
        return (
            f"EvalSet(id={self.id!r}, version={self.version}, source={self.source!r}, "
            f"items=<{len(self.items)} items>)"
        )

    __str__ = __repr__

    @property
    def answerable(self) -> tuple[EvalItem, ...]:
        return tuple(item for item in self.items if item.is_answerable)

    with_evidence = answerable

    @property
    def resolved(self) -> tuple[EvalItem, ...]:
        return tuple(item for item in self.items if item.is_resolved)

    @property
    def is_portable(self) -> bool:
        """Every item that has evidence has it as quotes (vacuously true when none do)."""
        return all(item.is_portable for item in self.items if item.is_answerable)

    def by_type(self, qtype: str | None) -> tuple[EvalItem, ...]:
        return tuple(item for item in self.items if item.qtype == qtype)

    def types(self) -> tuple[str, ...]:
        """Distinct question types present: known types in ``QuestionType.ALL`` order, then others."""
        present = {item.qtype for item in self.items if item.qtype is not None}
        known = [t for t in QuestionType.ALL if t in present]
        return tuple(known + sorted(present.difference(QuestionType.ALL)))

    def get(self, item_id: str) -> EvalItem | None:
        position = self._index.get(item_id)
        return None if position is None else self.items[position]

    @property
    def positions(self) -> Mapping[str, int]:
        """Item id to its index in ``items``, read-only: the set's own table, not a copy of it."""
        return MappingProxyType(self._index)

    def with_items(self, items: Iterable[EvalItem]) -> EvalSet:
        """A copy holding other items; id, version, source and meta stay the same."""
        return self.replace(items=tuple(items))

    def replace(self, **changes: Any) -> EvalSet:
        """A validated copy with some fields changed."""
        data = {name: getattr(self, name) for name in type(self).model_fields}
        data.update(changes)
        return type(self)(**data)


# --- turning pydantic's report into one readable sentence ------------------------------

_FIELD_WORDS = {
    "string_pattern_mismatch": "is blank",
    "missing": "is missing",
    "greater_than_equal": "must not be negative",
    "less_than_equal": "is too large",
    "extra_forbidden": "is not a known field",
    "string_type": "must be a string",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "tuple_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
}


def _item_label(data: Any) -> str:
    if isinstance(data, Mapping) and isinstance(data.get("id"), str):
        return f"eval item {data['id']!r}"
    return "eval item"


def _describe(error: Mapping[str, Any], data: Any, show: Callable[[Any], str] = repr) -> tuple[str, str]:
    """One pydantic error as (field path, sentence)."""
    loc = tuple(error.get("loc", ()))
    path = ".".join(str(part) for part in loc)
    kind = error.get("type", "")
    if kind == "evalset":
        return path, error["msg"]
    leaf = loc[-1] if loc else ""
    if kind == "string_pattern_mismatch" and leaf == "question":
        return path, f"{_item_label(data)}: the question is blank"
    if kind == "string_pattern_mismatch" and leaf == "quote":
        return path, "a gold anchor needs a quote, and this one is blank"
    words = _FIELD_WORDS.get(kind)
    if kind == "greater_than_equal" and error.get("ctx", {}).get("ge", 0) != 0:
        words = "is too small" if error["ctx"]["ge"] < 0 else f"must be at least {error['ctx']['ge']}"
    if words is None:
        words = error.get("msg", "is not valid").rstrip(".").lower()
        words = words[0].lower() + words[1:] if words else "is not valid"
    got = ""
    if kind not in ("missing", "string_pattern_mismatch") and "input" in error:
        shown = show(error["input"])
        got = f" (got {shown[:60] + '…' if len(shown) > 60 else shown})"
    return path, f"field `{path or '?'}` {words}{got}"


def validation_to_evalset_error(
    exc: ValidationError, data: Any = None, *, show: Callable[[Any], str] = repr
) -> EvalSetError:
    """Turn a pydantic ValidationError into an EvalSetError naming the first problem.

    ``show`` spells the value found: Python's way for a value given in code, a file's own way
    (``true``, not ``True``) when a reader passes one."""
    errors = exc.errors(include_url=False)
    field, message = _describe(errors[0], data, show) if errors else ("", str(exc))
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    return InputError(message, field=field or None)


#: meta key naming the document a question was written against when it has no evidence of its own
#: (a SQuAD 2.0 unanswerable question and its paragraph), so a reviewer can read what it was asked of.
CONTEXT_DOCUMENT = "context_document"


def is_marked_reviewed(value: object) -> bool:
    """Read a ``meta`` review marker the one way every part of reviewtui reads it.

    A spreadsheet writes the marker as text, so "false", "no", "0" and an empty cell
    mean not reviewed, and "true", "yes", "y", "1" and "reviewed" mean reviewed; any
    other value counts by its truth.
    """
    if isinstance(value, str):
        return value.strip().lower() in {"true", "yes", "y", "1", "reviewed"}
    return bool(value)
