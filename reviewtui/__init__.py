"""reviewtui: check every question of an eval set, one keystroke at a time.

The public names below are importable as ``reviewtui.X``; they are loaded on first
use so that the command line starts fast and the library never imports the UI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reviewtui._lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    # model
    "EvalItem": ".evalset.model",
    "EvalSet": ".evalset.model",
    "EvalSetError": ".evalset.model",
    "GoldAnchor": ".evalset.model",
    "GoldSpan": ".evalset.model",
    "QuestionType": ".evalset.model",
    "RelevanceLabel": ".evalset.model",
    "Span": ".evalset.model",
    # io
    "read_jsonl": ".evalset.io",
    "write_jsonl": ".evalset.io",
    "read_csv": ".evalset.io",
    "write_csv": ".evalset.io",
    "read_beir": ".evalset.io",
    "read_legalbench_rag": ".evalset.io",
    # quality
    "assess": ".evalset.quality",
    "EvalSetQuality": ".evalset.quality",
    "WarningLog": ".evalset.warninglog",
    "default_filters": ".evalset.filters",
    "FilterChain": ".evalset.filters",
    "FilterResult": ".evalset.filters",
    "Classifier": ".evalset.classify",
    "RecordingLLM": ".evalset.llm",
    # review
    "ReviewQueue": ".evalset.review",
    # evidence
    "AnchorResolver": ".evalset.resolve",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover - for editors and type checkers only
    from reviewtui.evalset.classify import Classifier
    from reviewtui.evalset.filters import FilterChain, FilterResult, default_filters
    from reviewtui.evalset.io import (
        read_beir,
        read_csv,
        read_jsonl,
        read_legalbench_rag,
        write_csv,
        write_jsonl,
    )
    from reviewtui.evalset.llm import RecordingLLM
    from reviewtui.evalset.model import (
        EvalItem,
        EvalSet,
        EvalSetError,
        GoldAnchor,
        GoldSpan,
        QuestionType,
        RelevanceLabel,
        Span,
    )
    from reviewtui.evalset.quality import EvalSetQuality, assess
    from reviewtui.evalset.resolve import AnchorResolver
    from reviewtui.evalset.review import ReviewQueue
    from reviewtui.evalset.warninglog import WarningLog
