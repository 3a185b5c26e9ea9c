"""WarningLog: advice gathered while measuring or filtering a set, meant to be read by a person.

Two levels: CAUTION (the numbers you are about to trust may be wrong) and INFO
(worth knowing, nothing to fix). Entries print as ``CAUTION [topic]: message``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["CAUTION", "INFO", "LogEntry", "WarningLog"]

CAUTION: Literal["CAUTION"] = "CAUTION"
INFO: Literal["INFO"] = "INFO"
Level = Literal["CAUTION", "INFO"]


@dataclass(frozen=True, slots=True)
class LogEntry:
    level: Level
    topic: str
    message: str

    def __str__(self) -> str:
        return f"{self.level} [{self.topic}]: {self.message}"


@dataclass
class WarningLog:
    """An ordered list of cautions and notes."""

    entries: list[LogEntry] = field(default_factory=list)

    def caution(self, topic: str, message: str) -> LogEntry:
        return self._add(CAUTION, topic, message)

    def info(self, topic: str, message: str) -> LogEntry:
        return self._add(INFO, topic, message)

    def _add(self, level: Level, topic: str, message: str) -> LogEntry:
        entry = LogEntry(level, topic, message)
        self.entries.append(entry)
        return entry

    def extend(self, other: WarningLog | Iterable[LogEntry]) -> None:
        self.entries.extend(other.entries if isinstance(other, WarningLog) else other)

    @property
    def cautions(self) -> list[LogEntry]:
        return [e for e in self.entries if e.level == CAUTION]

    @property
    def infos(self) -> list[LogEntry]:
        return [e for e in self.entries if e.level == INFO]

    def __iter__(self) -> Iterator[LogEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __bool__(self) -> bool:
        return bool(self.entries)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.entries)
