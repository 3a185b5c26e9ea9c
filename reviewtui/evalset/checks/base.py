"""What every filter is: a name, a check per item, and the record of what it removed and why.

Kept apart from :mod:`filters` so that filters living in their own modules
(:mod:`duplicates`) can build on it without an import cycle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter, not_
from typing import Any

from reviewtui.evalset.jobs.cancel import ShouldStop, check_stop
from reviewtui.evalset.model.items import EvalItem
from reviewtui.evalset.text.words import visible

__all__ = ["CHUNK", "Filter", "FilterPass", "Rejection", "Replayed", "shorten"]

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
    """What one filter did to one batch. ``note`` explains a filter that stood down or skipped items;
    ``stood_down`` says it is the first (the chain says that only when asked: see ``FilterChain.run``)."""

    kept: tuple[EvalItem, ...]
    rejected: tuple[Rejection, ...]
    note: str | None = None
    stood_down: bool = False


def shorten(text: str, limit: int = 80) -> str:
    text = visible(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Filter:
    """Base of every filter: a ``name`` and :meth:`apply`.

    ``itemwise`` filters judge each item on its own: their verdict on an item does not
    depend on which other items are in the batch (a filter may still keep a whole batch,
    see :meth:`stands_down`).

    The per-item scan does not run :meth:`apply` on every batch the chain would see. It
    asks each filter for its verdicts on the whole set once (:meth:`verdict` per item for
    an itemwise filter, the rejections of :meth:`apply` on the whole set for any other) and
    replays the chain from them (:meth:`replay`), so a new filter needs nothing but its
    class and its registration. A filter that is not itemwise is applied again to each
    batch, unless it overrides :meth:`replay` to do better (the near-duplicate filter does).
    """

    name: str = "filter"
    itemwise: bool = True
    skip_is_caution: bool = False  # a skipped run leaves a real gap in the result, not just an unused option
    costly: bool = False  # each verdict may take long (a model call): report progress often

    def skip_reason(self) -> str | None:
        """Why this filter will not run at all, or None when it will."""
        return None

    def stands_down(self, items: Sequence[EvalItem]) -> bool:
        """True when, on this batch, the filter keeps everything whatever its verdicts (see :meth:`apply`)."""
        return False

    def check(self, item: EvalItem) -> str | None:
        """The reason to reject one item, or None to keep it (itemwise filters)."""
        raise NotImplementedError

    def verdict(self, item: EvalItem) -> tuple[bool, str | None]:
        """(could the item be judged at all, the reason to reject it or None)."""
        return True, self.check(item)

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

    def replay(
        self, items: Sequence[EvalItem], found: Any, *, itemised: bool = True, should_stop: ShouldStop | None = None
    ) -> FilterPass:
        """What :meth:`apply` gives on ``items``, from ``found``: this filter's verdicts on a set that holds them.

        Here ``found`` maps an item id to its reason (items to keep are absent). With
        ``itemised=False`` the pass keeps the same items but lists no rejections, which is
        all a count of survivors needs.
        """
        check_stop(should_stop)
        if self.skip_reason() is not None or self.stands_down(items) or not self.itemwise:
            return self.apply(items, should_stop=should_stop)  # with its own note, if it has one
        reasons: Mapping[str, str] = found
        if not reasons:
            return FilterPass(tuple(items), ())
        # Read in C (an item's id, whether it is found): this runs once per filter over what the one before it left.
        kept = tuple(compress(items, map(not_, map(reasons.__contains__, map(_ID, items)))))
        if not itemised:
            return FilterPass(kept, ())
        name = self.name
        return FilterPass(kept, tuple(Rejection(item.id, name, reasons[item.id]) for item in items if item.id in reasons))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


_ID = attrgetter("id")


class Replayed(Filter):
    """``base`` in a chain, replayed from what it found on the whole set (see :meth:`Filter.replay`)."""

    def __init__(self, base: Filter, found: Any, *, itemised: bool = True) -> None:
        self.base = base
        self.found = found
        self.itemised = itemised
        self.name = base.name
        self.itemwise = base.itemwise
        self.skip_is_caution = base.skip_is_caution

    def skip_reason(self) -> str | None:
        return self.base.skip_reason()

    def counting(self) -> Replayed:
        """The same filter, listing no rejections: for the chain's cautions, which count survivors."""
        return Replayed(self.base, self.found, itemised=False)

    def apply(self, items: Sequence[EvalItem], *, should_stop: ShouldStop | None = None) -> FilterPass:
        return self.base.replay(items, self.found, itemised=self.itemised, should_stop=should_stop)

    def __repr__(self) -> str:
        return f"Replayed({self.base!r})"
