"""Stopping a long scan from outside, and reporting how far it got.

The review app runs scans in a worker thread; it passes ``should_stop`` (a
function that returns True once the user has moved on) and ``progress``
(called with ``done, total``). The scan polls ``should_stop`` between chunks
and raises :class:`ScanCancelled`, so no half-finished result is ever returned.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Progress", "ScanCancelled", "ShouldStop", "check_stop"]

Progress = Callable[[int, int], None]
ShouldStop = Callable[[], bool]


class ScanCancelled(Exception):
    """The caller asked the scan to stop; nothing was returned."""


def check_stop(should_stop: ShouldStop | None) -> None:
    if should_stop is not None and should_stop():
        raise ScanCancelled("the scan was stopped before it finished")
