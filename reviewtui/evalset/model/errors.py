"""What can go wrong, by kind, so that the command line and the app can answer each kind in its own way.

Every error of the core is an :class:`EvalSetError` (the reference pages' name; a
``ValueError``), and carries ``path``, ``line`` and ``field`` when it comes from a
file, rendered as ``path:line: message``. The subclasses say whose move it is:

* :class:`InputError`: a file the user gave is not what it should be. Fix the file.
* :class:`JournalError`: a review journal cannot be trusted or used (damaged,
  changed by hand, another set's). :class:`JournalWriteError`: a step could not be
  written; everything before it is on disk.
* :class:`SetLocked`: another session has the set, or its journal, open. Wait.
* :class:`OutputError`: an output path is refused (it is the input, its journal, a
  link, an earlier export) or cannot be written.
* :class:`ReviewError`: a review step that cannot be taken now (nothing to undo, no
  such item). Not a broken file: the app says so and carries on.

The command line turns all but :class:`ReviewError` into one line and exit code 2.
"""

from __future__ import annotations

from typing import Self

__all__ = [
    "EvalSetError",
    "InputError",
    "JournalError",
    "JournalWriteError",
    "OutputError",
    "ReviewError",
    "SetLocked",
]


class EvalSetError(ValueError):
    """An eval set, an item, a file or a step of a review is not valid.

    ``path``, ``line`` and ``field`` are filled in when the problem comes from a
    file, so that a command-line tool can print ``path:line: message``.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.field = field
        super().__init__(self._render())

    def _render(self) -> str:
        if self.path is None:
            return self.message
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"

    def located(self, path: str, line: int | None = None) -> Self:
        """The same error, of the same kind, pointed at a place in a file."""
        return type(self)(self.message, path=path, line=line, field=self.field)


class InputError(EvalSetError):
    """A file the user gave (a set, a corpus, a settings file) is not what it should be."""


class JournalError(EvalSetError):
    """A review journal cannot be trusted or used as it is."""


class JournalWriteError(JournalError):
    """A step could not be written to the journal; every step before it is on disk."""


class SetLocked(EvalSetError):
    """Another review session has this set, or its journal, open."""


class OutputError(EvalSetError):
    """An output path is refused or cannot be written."""


class ReviewError(EvalSetError):
    """A review step that cannot be taken now (nothing to undo, no such item, a finished queue)."""
