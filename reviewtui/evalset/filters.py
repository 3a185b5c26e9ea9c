"""The documented home of the six filters (``reviewtui.evalset.filters.X``); they live in :mod:`.checks.filters`."""

from reviewtui.evalset.checks.filters import (
    DanglingReferenceFilter,
    DuplicateFilter,
    DuplicatePair,
    Filter,
    FilterChain,
    FilterPass,
    FilterResult,
    GeneralKnowledgeFilter,
    NonDiscriminatingFilter,
    Rejection,
    ShortQuestionFilter,
    UnresolvedEvidenceFilter,
    default_filters,
)

__all__ = [
    "DanglingReferenceFilter",
    "DuplicateFilter",
    "DuplicatePair",
    "Filter",
    "FilterChain",
    "FilterPass",
    "FilterResult",
    "GeneralKnowledgeFilter",
    "NonDiscriminatingFilter",
    "Rejection",
    "ShortQuestionFilter",
    "UnresolvedEvidenceFilter",
    "default_filters",
]
