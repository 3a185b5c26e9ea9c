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
    "EvalItem": ".evalset.model.items",
    "EvalSet": ".evalset.model.items",
    "EvalSetError": ".evalset.model.items",
    "GoldAnchor": ".evalset.model.items",
    "GoldSpan": ".evalset.model.items",
    "QuestionType": ".evalset.model.items",
    "RelevanceLabel": ".evalset.model.items",
    "Span": ".evalset.model.items",
    # io
    "read_jsonl": ".evalset.io",
    "write_jsonl": ".evalset.io",
    "read_csv": ".evalset.io",
    "write_csv": ".evalset.io",
    "read_beir": ".evalset.io",
    "read_legalbench_rag": ".evalset.io",
    # quality
    "assess": ".evalset.checks.quality",
    "EvalSetQuality": ".evalset.checks.quality",
    "WarningLog": ".evalset.checks.warninglog",
    "default_filters": ".evalset.checks.filters",
    "FilterChain": ".evalset.checks.filters",
    "FilterResult": ".evalset.checks.filters",
    "Classifier": ".evalset.checks.classify",
    "RecordingLLM": ".evalset.checks.llm",
    # review
    "ReviewQueue": ".evalset.review.queue",
    # evidence
    "AnchorResolver": ".evalset.evidence.resolve",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover - for editors and type checkers only
    from reviewtui.evalset.checks.classify import Classifier
    from reviewtui.evalset.checks.filters import FilterChain, FilterResult, default_filters
    from reviewtui.evalset.checks.llm import RecordingLLM
    from reviewtui.evalset.checks.quality import EvalSetQuality, assess
    from reviewtui.evalset.checks.warninglog import WarningLog
    from reviewtui.evalset.evidence.resolve import AnchorResolver
    from reviewtui.evalset.io import (
        read_beir,
        read_csv,
        read_jsonl,
        read_legalbench_rag,
        write_csv,
        write_jsonl,
    )
    from reviewtui.evalset.model.items import (
        EvalItem,
        EvalSet,
        EvalSetError,
        GoldAnchor,
        GoldSpan,
        QuestionType,
        RelevanceLabel,
        Span,
    )
    from reviewtui.evalset.review.queue import ReviewQueue
