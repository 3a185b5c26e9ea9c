"""The key hints at the bottom of the review screen, drawn as one widget.

Textual's ``Footer`` mounts one widget per key and restyles each of them when the
bindings settle: about 0.08 s of a launch that has to show the first question
within a second. This bar shows the same hints, with the same theme colours,
from a single render. A click on a hint presses its key, as Footer does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget

from reviewtui.tui.safe import safe_plain

__all__ = ["KeyBar", "KeyHint"]

PALETTE_DIVIDER = "▏"
#: The actions whose hints stay when the bar is too narrow for every hint.
_ALWAYS_SHOWN = frozenset(("quit", "help", "app.quit"))


@dataclass(frozen=True, slots=True)
class KeyHint:
    """One hint as drawn: the key it presses, its label, and the columns it spans."""

    key: str
    display: str
    description: str
    start: int = 0
    end: int = 0
    #: shown however narrow the bar: how to quit, and the help that lists every other key
    keep: bool = False
    #: drawn faint: the screen refuses what the key does for now (a decision on a terminal too small to show the item)
    refused: bool = False


def _declared_index(node: object, binding: Binding) -> int:
    """Where a binding (by id) stands in its widget class's BINDINGS; unknown ones go last."""
    declared = [getattr(entry, "id", None) for entry in getattr(type(node), "BINDINGS", ())]
    return declared.index(binding.id) if binding.id in declared else len(declared)


class KeyBar(Widget, can_focus=False):
    """One line of key hints; the palette key sits at the right edge."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"keybar--key", "keybar--description", "keybar--hover", "keybar--divider"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .keybar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .keybar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .keybar--hover {
            background: $block-hover-background;
        }
        .keybar--divider {
            color: $foreground 20%;
        }
    }
    """

    hover = reactive("")
    """Key of the hint under the mouse pointer, or ""."""

    def __init__(self, *, id: str | None = None) -> None:  # Textual's own argument name
        super().__init__(id=id)
        self._hints: list[KeyHint] = []

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _bindings_changed(self, screen) -> None:  # the signal passes the screen
        self.refresh()

    # ---- which hints, and where ----

    def hints(self) -> list[KeyHint]:
        """The hints to draw: one per action with a shown binding, then the palette key (if any)."""
        seen: set[str] = set()
        shown: list[tuple[tuple[int, int], Binding]] = []
        nodes: dict[object, int] = {}
        active = self.screen.active_bindings
        for node, binding, _enabled, _tooltip in active.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                shown.append(((nodes.setdefault(node, len(nodes)), _declared_index(node, binding)), binding))
        # A remapped key moves to the end of Textual's key table; the bar keeps the declared order instead.
        shown.sort(key=lambda entry: entry[0])
        # A screen may refuse some actions for now (the review screen refuses decisions on a terminal too small to
        # show the item): their keys are drawn faint, not as if they would work.
        refused = getattr(self.screen, "refused_actions", lambda: frozenset())()
        hints = [self._hint(binding, refused) for _, binding in shown]
        palette = active.get(self.app.COMMAND_PALETTE_BINDING) if self.app.ENABLE_COMMAND_PALETTE else None
        if palette is not None:
            hints.append(self._hint(palette[1]))
        return hints

    def _hint(self, binding: Binding, refused: frozenset[str] = frozenset()) -> KeyHint:
        # A remapped key's name comes from the user's settings file: made inert like any data.
        keep = binding.action in _ALWAYS_SHOWN
        display = safe_plain(self.app.get_key_display(binding), limit=20)
        return KeyHint(binding.key, display, binding.description, keep=keep, refused=binding.action in refused)

    def _palette_hint(self, hint: KeyHint) -> bool:
        return hint.key == self.app.COMMAND_PALETTE_BINDING

    def hint_at(self, x: int) -> KeyHint | None:
        """The hint drawn at column ``x`` of the bar, as last rendered."""
        return next((hint for hint in self._hints if hint.start <= x < hint.end), None)

    # ---- drawing ----

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key")
        description_style = self.get_component_rich_style("keybar--description")
        hover_style = self.get_component_rich_style("keybar--hover", partial=True)
        left, right = Text(), Text()
        left_hints: list[KeyHint] = []
        right_hints: list[KeyHint] = []
        hints = self._fitting(self.hints())
        for hint in hints:
            extra = hover_style if hint.key == self.hover else Style()
            if hint.refused:
                extra += Style(dim=True, strike=True)
            if self._palette_hint(hint):
                right.append(PALETTE_DIVIDER, self.get_component_rich_style("keybar--divider"))
                start = right.cell_len
                right.append(hint.display, key_style + extra)
                right.append(f" {hint.description}", description_style + extra)
                right_hints.append(replace(hint, start=start, end=right.cell_len))
                right.append(" ")
            else:
                start = left.cell_len
                left.append(f" {hint.display} ", key_style + extra)
                left.append(f"{hint.description} ", description_style + extra)
                left_hints.append(replace(hint, start=start, end=left.cell_len))
        # As with Footer's docked palette key, the right part wins when the line is too narrow for both.
        room = max(self.size.width - right.cell_len, 0)
        left.truncate(room)
        left_hints = [replace(hint, end=min(hint.end, room)) for hint in left_hints if hint.start < room]
        right_hints = [replace(hint, start=hint.start + room, end=hint.end + room) for hint in right_hints]
        self._hints = left_hints + right_hints
        return Text.assemble(left, " " * (room - left.cell_len), right, no_wrap=True, overflow="crop", end="")

    def _fitting(self, hints: list[KeyHint]) -> list[KeyHint]:
        """``hints`` without the last ones that do not fit the bar's width, how to quit and the help kept:
        cut at the edge, a bar 80 columns wide showed "? He" and no quit key at all."""
        width = self.size.width
        if not width:
            return hints

        def cells(hint: KeyHint) -> int:  # as render draws it: " key desc " on the left, "▏key desc " on the right
            return len(hint.display) + len(hint.description) + 3

        hints = list(hints)
        total = sum(map(cells, hints))
        while total > width:
            droppable = [k for k, hint in enumerate(hints) if not hint.keep and not self._palette_hint(hint)]
            if not droppable:
                break
            total -= cells(hints.pop(droppable[-1]))
        return hints

    # ---- mouse ----

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hint = self.hint_at(event.x)
        self.hover = hint.key if hint is not None else ""

    def on_leave(self, event: events.Leave) -> None:
        self.hover = ""

    def on_click(self, event: events.Click) -> None:
        hint = self.hint_at(event.x)
        if hint is not None:
            event.stop()
            self.app.simulate_key(hint.key)
