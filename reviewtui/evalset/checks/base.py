"""What every filter is: a name, a check per item, and the record of what it removed and why.

Kept apart from :mod:`filters` so that filters living in their own modules
(:mod:`duplicates`) can build on it without an import cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.words import visible

__all__ = ["CHUNK", "Filter", "FilterPass", "Rejection", "shorten"]

CHUNK = 512  # items between two polls of should_stop


@dataclass(frozen=True, slots=True)
class Rejection:
    """One item a filter removed, and why; ``related_ids`` names the item it duplicates."""

    item_id: str
    filter: str
    reason: str
    related_ids: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"[{self.filter}] {self.item_id}: {self.reason}"


@dataclass(frozen=True, slots=True)
class FilterPass:
    """What one filter did to one batch. ``note`` explains a filter that stood down or skipped items."""

    kept: tuple[EvalItem, ...]
    rejected: tuple[Rejection, ...]
    note: str | None = None


def shorten(text: str, limit: int = 80) -> str:
    text = visible(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Filter:
    """Base of every filter: a ``name`` and :meth:`apply`.

    ``itemwise`` filters judge each item on its own, so their verdict on an item
    does not depend on which other items are in the batch.
    """

    name: str = "filter"
    itemwise: bool = True

    def skip_reason(self) -> str | None:
        """Why this filter will not run at all, or None when it will."""
        return None

    def check(self, item: EvalItem) -> str | None:
        """The reason to reject one item, or None to keep it (itemwise filters)."""
        raise NotImplementedError

    def apply(self, items: Sequence[EvalItem], *, should_stop: ShouldStop | None = None) -> FilterPass:
        if self.skip_reason() is not None:
            return FilterPass(tuple(items), ())
        seq = items if isinstance(items, (tuple, list)) else tuple(items)
        kept: list[EvalItem] = []
        rejected: list[Rejection] = []
        check, keep, name = self.check, kept.append, self.name  # looked up once: this loop runs per item
        for start in range(0, len(seq), CHUNK):
            check_stop(should_stop)
            for item in seq[start : start + CHUNK]:
                reason = check(item)
                if reason is None:
                    keep(item)
                else:
                    rejected.append(Rejection(item.id, name, reason))
        return FilterPass(tuple(kept), tuple(rejected))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
