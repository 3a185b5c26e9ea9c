"""The eval-set model: questions, their evidence, the set that holds them, and the errors about them.

Imports nothing else of reviewtui: every other part of the core builds on it.
"""

from reviewtui.evalset.model.errors import (
    InputError,
    JournalError,
    JournalWriteError,
    OutputError,
    ReviewError,
    SetLocked,
)
from reviewtui.evalset.model.items import (
    EvalItem,
    EvalSet,
    EvalSetError,
    FrozenDict,
    GoldAnchor,
    GoldSpan,
    QuestionType,
    RelevanceLabel,
    Span,
)

__all__ = [
    "EvalItem",
    "EvalSet",
    "EvalSetError",
    "FrozenDict",
    "GoldAnchor",
    "GoldSpan",
    "InputError",
    "JournalError",
    "JournalWriteError",
    "OutputError",
    "QuestionType",
    "RelevanceLabel",
    "ReviewError",
    "SetLocked",
    "Span",
]
