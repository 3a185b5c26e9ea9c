"""The warning a reader gives of what it left out or changed: a module of its own, importing nothing, so that the
command line can watch for it before any reader is imported (``reviewtui --help`` pays for no reader)."""

from __future__ import annotations

__all__ = ["ReadingNote"]


class ReadingNote(UserWarning):
    """What one import left out or changed, said as the set is read (a ``UserWarning``, as before).

    ``source`` is the file's name and ``kind`` the meta key that counts the same thing, so a
    caller that prints both the warning and :func:`describe_skipped`'s line can leave the
    kind out of the line (the warning names examples; the line only counts).
    """

    def __init__(self, message: str, source: str = "", kind: str = "") -> None:
        super().__init__(message)
        self.source = source
        self.kind = kind
