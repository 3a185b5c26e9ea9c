"""The help screen: every key of the review screen, as currently mapped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from reviewtui.tui.safe import join, safe
from reviewtui.tui.screens.base import Dialog


@dataclass(frozen=True)
class KeyRow:
    keys: str
    description: str
    binding_id: str


class HelpScreen(Dialog[None]):
    """Lists keys, what they do and their binding ids (for remapping in the config file)."""

    BINDINGS = [
        Binding("escape,question_mark,q", "close", "Close", id="help.close"),
    ]

    def __init__(self, rows: Sequence[KeyRow], config_file: str, help_keys: Sequence[str] = (), help_shown: str = "?") -> None:
        """``help_keys``: the keys that opened this screen, as the settings map them (they close it too, as ? does);
        ``help_shown``: the first of them as the key bar names it."""
        super().__init__()
        self._rows = list(rows)
        self._config_file = config_file
        self._help_keys = frozenset(help_keys)
        self._help_shown = help_shown

    def compose(self) -> ComposeResult:
        width = max((len(r.keys) for r in self._rows), default=4) + 2
        described = max([34, *(len(r.description) + 2 for r in self._rows)])  # a description never runs into its id
        lines: list[Content | str] = []
        for row in self._rows:
            if lines:
                lines.append("\n")
            lines.append(Content.styled(row.keys.ljust(width), "bold $text-accent"))
            lines.append(Content(row.description.ljust(described)))
            lines.append(Content.styled(row.binding_id, "dim"))
        with Vertical(classes="box"):
            yield Static("Keys", classes="box-title")
            with VerticalScroll():
                yield Static(join(*lines))
            yield Static(
                join(
                    "Remap any key by its id in ",
                    safe(self._config_file, one_line=True, limit=300),
                    ' under [keys], e.g. "review.accept" = "y". All keys are also in the command palette (ctrl+p).',
                ),
                classes="hint",
            )
            yield Static(
                f"Panes: Tab moves to the next one, ↑↓ PgUp PgDn scroll it (this list too) · Esc or {self._help_shown}: close",
                classes="hint",
            )

    def action_close(self) -> None:
        self.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        # The help key remapped in the settings (f1) closes the screen it opened, as ? does by default.
        if event.key in self._help_keys:
            event.stop()
            self.action_close()
