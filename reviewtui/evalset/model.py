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

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Annotated, Any, ClassVar

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
]


class EvalSetError(ValueError):
    """An eval set, an item or an input file is not valid.

    ``path``, ``line`` and ``field`` are filled in when the problem comes from a
    file, so that a command-line tool can print ``path:line: message``.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.field = field
        super().__init__(self._render())

    def _render(self) -> str:
        if self.path is None:
            return self.message
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"

    def located(self, path: str, line: int | None = None) -> EvalSetError:
        """The same error, pointed at a place in a file."""
        return EvalSetError(self.message, path=path, line=line, field=self.field)


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

    __setitem__ = __delitem__ = _refuse  # type: ignore[assignment]
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


def _freeze(value: dict[str, Any]) -> FrozenDict:
    if type(value) is FrozenDict:
        return value
    return FrozenDict(value) if value else _EMPTY_META


Meta = Annotated[dict[str, Any], AfterValidator(_freeze)]
NonBlank = Annotated[str, Field(pattern=r"\S")]


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
    start: Annotated[int, Field(ge=0)]
    end: int

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
    grade: Annotated[int, Field(ge=0)] = 2

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
    grade: Annotated[int, Field(ge=0)] = 2
    page_hint: int | None = None
    occurrence: Annotated[int, Field(ge=0)] = 0


class RelevanceLabel(_Model):
    """One chunk judged relevant to one question, at a grade."""

    _positional = ("item_id", "chunk_id", "grade")
    item_id: str
    chunk_id: str
    grade: Annotated[int, Field(ge=0)]


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
        ``meta`` only needs string keys (checked here) and becomes read-only.
        """
        if not all(isinstance(key, str) for key in meta):
            raise EvalSetError(f"eval item {self.id!r}: meta keys must be strings")
        clone = object.__new__(type(self))
        fields = self.__dict__.copy()
        fields["meta"] = _freeze(dict(meta)) if type(meta) is not FrozenDict else meta
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
    version: Annotated[int, Field(ge=1)] = 1
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

    def position_of(self, item_id: str) -> int | None:
        """Where an item stands in the set, without scanning it."""
        return self._index.get(item_id)

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


def _describe(error: Mapping[str, Any], data: Any) -> tuple[str, str]:
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
    if words is None:
        words = error.get("msg", "is not valid").rstrip(".").lower()
        words = words[0].lower() + words[1:] if words else "is not valid"
    got = ""
    if kind not in ("missing", "string_pattern_mismatch") and "input" in error:
        shown = repr(error["input"])
        got = f" (got {shown[:60] + '…' if len(shown) > 60 else shown})"
    return path, f"field `{path or '?'}` {words}{got}"


def validation_to_evalset_error(exc: ValidationError, data: Any = None) -> EvalSetError:
    """Turn a pydantic ValidationError into an EvalSetError naming the first problem."""
    errors = exc.errors(include_url=False)
    field, message = _describe(errors[0], data) if errors else ("", str(exc))
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    return EvalSetError(message, field=field or None)


def as_items(items: Iterable[EvalItem] | Sequence[EvalItem]) -> tuple[EvalItem, ...]:
    """Accept any iterable of items where a tuple is wanted."""
    return items if isinstance(items, tuple) else tuple(items)
