"""Pasted text that holds an escape character stays pasted text.

A terminal in bracketed-paste mode sends a paste between two markers, ``ESC [200~`` and
``ESC [201~``. Textual's input parser keeps only the first character of any other escape
sequence inside them: what follows an escape character is sent on as key presses, before
the paste itself, and the escape as "^". A paste of ``see ESC a`` decided the item on
the review screen (``a``), ``ESC[0m`` opened the type dialog (``m``), and in an editor the
text after an escape landed ahead of the text pasted before it. tmux's ``paste-buffer -p``
and any terminal that does not filter escapes out of a paste send them so.

:class:`PasteKeepingParser` stands each escape character inside a paste in for two
characters no terminal sends (Unicode noncharacters, kept for a program's own use) before
the parser sees it, and turns them back in the :class:`~textual.events.Paste` the parser
makes, so the paste arrives whole, escapes included, and never as keys. The editors keep
every character and draw an escape as its stand-in, as they draw one read from a file.
:func:`keep_escapes_in_pastes` makes a driver's input thread use it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable

from textual import events
from textual._xterm_parser import XTermParser
from textual.message import Message

__all__ = ["PasteKeepingParser", "keep_escapes_in_pastes"]

_ESC = "\x1b"
_START = "\x1b[200~"
_END = "\x1b[201~"
#: Within a paste, the mark leads a pair: the mark then _FOR_MARK is the mark itself, then _FOR_ESC an escape.
_MARK, _FOR_MARK, _FOR_ESC = "\ufdd0", "\ufdd1", "\ufdd2"
_PAIR = re.compile(f"{_MARK}([{_FOR_MARK}{_FOR_ESC}])")


def _stood_in(text: str) -> str:
    return text.replace(_MARK, _MARK + _FOR_MARK).replace(_ESC, _MARK + _FOR_ESC)


def _restored(text: str) -> str:
    return _PAIR.sub(lambda pair: _ESC if pair.group(1) == _FOR_ESC else _MARK, text)


def _marker_start_at_end(text: str, marker: str) -> int:
    """How many characters at the end of ``text`` begin ``marker`` (0 when none do, or all of it)."""
    for size in range(min(len(marker) - 1, len(text)), 0, -1):
        if text.endswith(marker[:size]):
            return size
    return 0


class PasteKeepingParser(XTermParser):
    """Textual's parser, with the escape characters inside a bracketed paste kept in the paste."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._pasting = False
        # Outside a paste: the last characters passed on, which may begin a paste's start marker whose rest is
        # still to come (passed on unchanged all the same: an Esc key pressed alone must not wait for more input).
        self._tail = ""
        # Inside a paste: the last characters, held back, which may begin its end marker.
        self._held = ""

    def feed(self, data: str) -> Iterable[Message]:
        if not data:  # the end of input: what was held back goes as it came
            held, self._held = self._held, ""
            parsed = [*super().feed(held), *super().feed(data)] if held else list(super().feed(data))
            return [self._with_escapes(token) for token in parsed]
        stood_in = self._stand_in_escapes(data)
        if not stood_in:
            # All of it held back (a read of "\x1b" or "\x1b[20" inside a paste, the end marker perhaps begun):
            # an empty feed is the parser's end of input, after which it takes nothing more, no key, no paste.
            return []
        return [self._with_escapes(token) for token in super().feed(stood_in)]

    def tick(self) -> Iterable[Message]:
        return [self._with_escapes(token) for token in super().tick()]

    def _stand_in_escapes(self, data: str) -> str:
        out: list[str] = []
        text, self._held = self._held + data, ""
        at = 0
        while at < len(text):
            if self._pasting:
                end = text.find(_END, at)
                if end < 0:
                    rest = text[at:]
                    keep = _marker_start_at_end(rest, _END)
                    self._held = rest[len(rest) - keep :] if keep else ""
                    out.append(_stood_in(rest[: len(rest) - keep]))
                    break
                out.append(_stood_in(text[at:end]))
                out.append(_END)
                at = end + len(_END)
                self._pasting = False
                self._tail = ""
            else:
                seen = self._tail + text[at:]
                start = seen.find(_START)
                if start < 0:
                    out.append(text[at:])
                    self._tail = seen[len(seen) - _marker_start_at_end(seen, _START) :] if seen else ""
                    break
                after = start + len(_START) - len(self._tail) + at  # the start marker's end, in ``text``
                out.append(text[at:after])
                at = after
                self._pasting = True
                self._tail = ""
        return "".join(out)

    @staticmethod
    def _with_escapes(token: Message) -> Message:
        if isinstance(token, events.Paste) and _MARK in token.text:
            return events.Paste(_restored(token.text))
        return token


def keep_escapes_in_pastes(driver_class: type) -> None:
    """Make ``driver_class``'s input thread parse with :class:`PasteKeepingParser`.

    The drivers make their parser from the name ``XTermParser`` in their own module; that name is
    pointed at the subclass, once, and only while it is still Textual's own parser.
    """
    module = sys.modules.get(driver_class.__module__)
    if module is not None and getattr(module, "XTermParser", None) is XTermParser:
        module.XTermParser = PasteKeepingParser  # type: ignore[attr-defined]
