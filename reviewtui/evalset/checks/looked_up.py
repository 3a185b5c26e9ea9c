"""What a lookup of every quote in a corpus speaks for: the review app with a corpus open, and
``reviewtui audit --corpus``, leave the unresolved-evidence filter's flags and note out.

That filter reads the set as the file has it, where a quote without a gold span counts as not
located (once any item of the set has spans), so it flagged quotes the lookup found word for word,
and said "nothing is located yet" beside the lookup's "40 of 41 found". The lookup's own flags say
which quotes it did not find. Kept apart from the scan, whose imports the app's screen does not pay
for (it runs the checks in another process).
"""

from __future__ import annotations

from collections.abc import Iterable

from reviewtui.evalset.checks.warninglog import LogEntry
from reviewtui.evalset.model.flag import Flag

__all__ = ["UNRESOLVED_EVIDENCE", "lookup_speaks_for_cautions", "lookup_speaks_for_quotes"]

#: ``checks.filters.UNRESOLVED_EVIDENCE`` (tests/test_tui_evidence_flags.py keeps the two equal).
UNRESOLVED_EVIDENCE = "unresolved-evidence"


def lookup_speaks_for_quotes(flags: list[Flag]) -> list[Flag] | None:
    """One item's ``flags`` without the unresolved-evidence ones; None when none is left. The list itself when it
    holds none."""
    if not any(flag.check == UNRESOLVED_EVIDENCE for flag in flags):
        return flags
    return [flag for flag in flags if flag.check != UNRESOLVED_EVIDENCE] or None


def lookup_speaks_for_cautions(entries: Iterable[LogEntry]) -> list[LogEntry]:
    """The set's notes without the unresolved-evidence filter's."""
    said_by_filter = f"{UNRESOLVED_EVIDENCE}:"
    return [entry for entry in entries if not entry.message.startswith(said_by_filter)]
