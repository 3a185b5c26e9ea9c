"""The core of reviewtui: model, io, quality tools, review engine. Free of any UI import.

Names the reference pages place directly under the eval-set package are loaded lazily.
"""

from __future__ import annotations

from reviewtui._lazy import lazy_exports

_EXPORTS = {
    "minimum_detectable_difference": ".checks.quality",
    "classify_question": ".checks.classify",
    "type_distribution": ".checks.classify",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
