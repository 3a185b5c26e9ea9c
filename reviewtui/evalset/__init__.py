"""The core of reviewtui: model, io, quality tools, review engine. Free of any UI import.

Names the reference pages place directly under the eval-set package are loaded lazily.
"""

from __future__ import annotations

from reviewtui._lazy import lazy_exports

_EXPORTS = {
    "minimum_detectable_difference": ".quality",
    "classify_question": ".classify",
    "type_distribution": ".classify",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
