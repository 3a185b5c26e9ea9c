"""A problem found on one item, as the reviewer sees it in the warnings pane.

Flags come from several places (filters, the golden-set audit, the type
classifier, evidence resolution); they share this one shape so the review app
can sort and show them without knowing where each came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum

__all__ = ["Flag", "Severity", "merge_flags"]


class Severity(IntEnum):
    """How much a flag deserves a reviewer's attention; higher sorts first.

    HIGH: the item is very likely wrong as it stands (conflicting answers, a
    quote that is not in its source). MEDIUM: often wrong, check it. LOW: a weak
    signal worth a glance. HINT: a suggestion, not a problem (a different type).
    """

    HINT = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3

    @property
    def label(self) -> str:
        # A table, not self.name.lower(): an enum's name is a descriptor lookup, and a report of a
        # large set asks for a label per flag and per finding.
        return _LABELS[self]

    @classmethod
    def parse(cls, value: str | int | Severity) -> Severity:
        if isinstance(value, Severity):
            return value
        if isinstance(value, int):
            return cls(value)
        return cls[value.strip().upper()]


_LABELS = tuple(severity.name.lower() for severity in Severity)  # in value order: HINT is 0


@dataclass(frozen=True, slots=True)
class Flag:
    """One problem on one item: which check found it, how bad, why, and which other items it involves."""

    check: str
    severity: Severity
    reason: str
    related_ids: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {
            "check": self.check,
            "severity": self.severity.label,
            "reason": self.reason,
            "related_ids": list(self.related_ids),
        }


def sort_flags(flags: Iterable[Flag]) -> list[Flag]:
    """Most severe first; ties keep the order the checks produced them in."""
    return sorted(flags, key=lambda f: -f.severity)


def merge_flags(*sources: Mapping[str, Iterable[Flag]]) -> dict[str, list[Flag]]:
    """Combine per-item flag maps from several checks into one, most severe first per item."""
    merged: dict[str, list[Flag]] = {}
    for source in sources:
        for item_id, flags in source.items():
            merged.setdefault(item_id, []).extend(flags)
    return {item_id: sort_flags(flags) for item_id, flags in merged.items() if flags}
